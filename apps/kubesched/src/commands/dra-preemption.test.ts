// Device-aware preemption as users run it: `kubesched simulate --feature-gates DRAPreemption=true`
// on a node whose only GPU a low-priority pod's claim holds. The high-priority pod preempts it,
// the simulator's resourceclaim controller releases the claim, the GPU is the preemptor's. Without
// the gate (alpha, off by default) preemption is not helpful, as before.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = (...argv: string[]) => runCliIn(root, argv);
const cluster = ["--cluster", "apps/kubesched/test-fixtures/dra-preemption/cluster.yaml"];

interface Result {
  pods: {
    name: string;
    outcome: string;
    node: string | null;
    message?: string;
    resourceClaims?: { resourceClaim: string; devices?: { device: string }[] }[];
  }[];
  preemptions: { preemptor: string; node: string; victims: string[] }[];
}

describe("kubesched simulate: DRAPreemption", () => {
  it("--feature-gates DRAPreemption=true: the GPU pod preempts the low-priority holder of the only GPU", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      ...cluster,
      "--feature-gates",
      "DRAPreemption=true",
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(r.preemptions).toEqual([
      { preemptor: "default/inference", node: "gpu-node", victims: ["default/training"] },
    ]);
    const inference = r.pods.find((p) => p.name === "inference");
    expect(inference).toMatchObject({ outcome: "Scheduled", node: "gpu-node" });
    expect(inference?.resourceClaims?.map((c) => [c.resourceClaim, c.devices?.map((d) => d.device)])).toEqual(
      [["inference-gpu", ["gpu-0"]]],
    );
  }, 60_000);

  it("without the gate (the 1.37 default): preemption is not helpful", async () => {
    const { code, stdout } = await run("simulate", ...cluster, "-o", "json");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(r.preemptions).toEqual([]);
    expect(r.pods.find((p) => p.name === "inference")).toMatchObject({
      outcome: "Unschedulable",
      message:
        "0/1 nodes are available: 1 cannot allocate all claims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    });
  }, 60_000);

  it("--emulated-version 1.36 does not know the gate", async () => {
    const { code, stderr } = await run(
      "simulate",
      ...cluster,
      "--emulated-version",
      "1.36",
      "--feature-gates",
      "DRAPreemption=true",
    );
    expect(code).not.toBe(0);
    expect(stderr).toBe(
      'error: invalid argument "DRAPreemption=true" for "--feature-gates" flag: cannot set feature gate DRAPreemption to true, feature is PreAlpha at emulated version 1.36, min compatibility version 1.35\n',
    );
  }, 60_000);
});
