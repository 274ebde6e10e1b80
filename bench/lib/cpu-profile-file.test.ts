// `--cpu-prof DIR` with a directory that does not exist yet: it is made, and the profile lands in it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeCpuProfile } from "./cpu-profile-file";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("writeCpuProfile", () => {
  it("makes a missing directory (nested) and names the file after the workload", () => {
    const root = mkdtempSync(join(tmpdir(), "kubesched-cpu-prof-"));
    made.push(root);
    const dir = join(root, "not", "there");
    const file = writeCpuProfile(dir, "ExtendedResource_25Classes/5000pods_500nodes", { nodes: [] });
    expect(file).toBe(join(dir, "ExtendedResource_25Classes_5000pods_500nodes.cpuprofile"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ nodes: [] });
  });
});
