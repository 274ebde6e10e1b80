// Every workload, run at a small scale through the same runner `pnpm bench` uses, verifies its
// decisions; and verification catches a run that skips work (soft spreading disabled).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { WorkloadResult } from "./lib/result";
import { workloads } from "./lib/workloads";

const here = fileURLToPath(new URL(".", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-bench-verify-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function runWorkload(name: string, ...extra: string[]): Promise<WorkloadResult> {
  const out = join(tmp, `${name.replaceAll("/", "_")}${extra.length ? "-custom" : ""}.json`);
  await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      pathToFileURL(join(here, "lib/shipped-build.mjs")).href,
      join(here, "workload.ts"),
      name,
      "--scale",
      "0.02",
      "--out",
      out,
      ...extra,
    ],
    { timeout: 120_000 },
  );
  return JSON.parse(readFileSync(out, "utf8")) as WorkloadResult;
}

describe.concurrent("bench workloads verify their decisions (scale 0.02)", () => {
  // The scaling curve's extra sizes run SchedulingBasic's ops, tested once here.
  for (const w of workloads.filter((w) => !w.sizeOf)) {
    it(w.name, { timeout: 180_000 }, async () => {
      const r = await runWorkload(w.name);
      expect(r.status).toBe("complete");
      expect(r.verification.filter((l) => !l.startsWith("ok"))).toEqual([]);
      expect(r.decisionsVerified).toBe(true);
    });
  }

  it("a run that skips soft spreading fails verification", { timeout: 180_000 }, async () => {
    const config = join(tmp, "no-spread-score.yaml");
    writeFileSync(
      config,
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled: [{ name: PodTopologySpread }]
`,
    );
    const r = await runWorkload("PreferredTopologySpreading/5000Nodes_5000Pods", "--config", config);
    expect(r.decisionsVerified).toBe(false);
    expect(r.verification).toContain("FAILED: PodTopologySpread ran at Score (0 sampled executions)");
  });
});
