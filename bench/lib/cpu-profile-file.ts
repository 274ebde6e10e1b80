// Where `bench/workload.ts --cpu-prof DIR` writes a workload's V8 CPU profile: DIR is made when it
// does not exist (writing into a missing directory threw after the whole run had been measured).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes `profile` as `<dir>/<workload name with "/" as "_">.cpuprofile`; returns the path. */
export function writeCpuProfile(dir: string, workloadName: string, profile: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${workloadName.replaceAll("/", "_")}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}
