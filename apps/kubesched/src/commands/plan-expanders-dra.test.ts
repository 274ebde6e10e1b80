// kubesched plan's expanders with GPU pools (ResourceSlices), as the CLI runs them: each expander
// sizes a pool's proposal by the devices the pending pods' claims ask for, so the GPU pool grows by
// as many nodes as the GPU pods need in one step (counted in the report's search status: the
// baseline plus one simulation per step), never adds a CPU node for a GPU pod, and every answer is
// proven by a full simulate. The answers are compared with the exact search's (docs/plan.md).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PlanReport } from "@kubesched/cluster";
import { afterAll, describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-plan-expanders-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...argv: string[]) => runCliIn(root, argv);

function file(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

async function planJSON(cluster: string, pools: string, ...argv: string[]): Promise<PlanReport> {
  const r = await run("plan", "--cluster", cluster, "--pools", pools, "-o", "json", ...argv);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PlanReport;
}

const additions = (r: PlanReport) => Object.fromEntries(r.status.additions.map((a) => [a.pool, a.count]));
const expanders = ["least-waste", "price", "most-pods", "priority"] as const;

/** A DeviceClass of gpu.example.com's devices, the 2-GPU claim template and `gpu` pending 2-GPU pods, `cpu` cpu-only pods. */
function generatedCluster(gpu: number, cpu: number): string {
  const docs = [
    `apiVersion: v1
kind: Node
metadata: {name: small-1, labels: {kubernetes.io/hostname: small-1}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}`,
    `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec: {selectors: [{cel: {expression: "device.driver == 'gpu.example.com'"}}]}`,
    `apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: ml}
spec: {spec: {devices: {requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com, count: 2}}]}}}`,
  ];
  for (let i = 0; i < gpu; i++)
    docs.push(`apiVersion: v1
kind: Pod
metadata: {name: train-${i}, namespace: ml, labels: {app: train}}
spec:
  resourceClaims: [{name: gpus, resourceClaimTemplateName: two-gpus}]
  containers: [{name: c, image: trainer, resources: {requests: {cpu: "4", memory: 16Gi}, claims: [{name: gpus}]}}]`);
  for (let i = 0; i < cpu; i++)
    docs.push(`apiVersion: v1
kind: Pod
metadata: {name: etl-${i}, namespace: ml, labels: {app: etl}}
spec:
  containers: [{name: c, image: etl, resources: {requests: {cpu: "6", memory: 24Gi}}}]`);
  return docs.join("\n---\n");
}

/** A CPU pool of 16-cpu nodes and a GPU pool of 8-GPU nodes (untainted: cpu pods may go there too). */
const generatedPools = `apiVersion: kubesched.io/v1alpha1
kind: NodePools
pools:
  - name: cpu
    maxCount: 10
    price: 0.5
    priority: 1
    node: {status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}}
  - name: gpu
    maxCount: 8
    price: 12
    priority: 10
    node: {status: {allocatable: {cpu: "64", memory: 512Gi, pods: "110"}}}
    resourceSlices:
      - apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        spec:
          driver: gpu.example.com
          devices: [${Array.from({ length: 8 }, (_, i) => `{name: gpu-${i}}`).join(", ")}]
`;

describe("kubesched plan's expanders size the GPU pool by the devices the pods ask for", () => {
  const gpuOnly = file("gpu-only.yaml", generatedCluster(20, 0));
  const mixed = file("mixed.yaml", generatedCluster(20, 8));
  const pools = file("pools.yaml", generatedPools);

  it.each(expanders)(
    "%s: 20 pending 2-GPU pods get ⌈40/8⌉ = 5 GPU nodes in one step, no CPU node",
    async (expander) => {
      const r = await planJSON(gpuOnly, pools, "--expander", expander);
      expect(r.status).toMatchObject({ found: true, minimal: false, excluded: [] });
      expect(additions(r)).toEqual({ gpu: 5 });
      // The baseline, then one step: [0, 5] (sized by cpu, the step was 2 nodes: 80 cpu / 64).
      expect(r.status.search).toEqual({ simulations: 2, pruned: 0, exhausted: false, lowerBound: null });
      const train = r.status.pods.filter((p) => p.pod.startsWith("ml/train-"));
      expect(train).toHaveLength(20);
      expect(train.every((p) => p.outcome === "Scheduled" && p.pool === "gpu")).toBe(true);
      expect(r.status.devices?.pools).toEqual([{ pool: "gpu", published: 40, allocated: 40 }]);
    },
    60_000,
  );

  it("the exact search's answer is the same 5 GPU nodes, after one simulation (the device bound starts the walk there)", async () => {
    const r = await planJSON(gpuOnly, pools);
    expect(r.status).toMatchObject({ found: true, minimal: true });
    expect(additions(r)).toEqual({ gpu: 5 });
    expect(r.status.search).toMatchObject({ simulations: 1, lowerBound: 5 });
  }, 60_000);

  // 20 GPU pods and 8 cpu pods (6 cpu, 24Gi: two per CPU node, or beside the GPU pods).
  it.each([
    // least-waste: the CPU pool's 4 nodes waste 0.25 cpu + 0.25 memory; the GPU pool's 5 nodes
    // for all 28 pods waste 0.6 cpu + 0.8 memory + 0 GPUs: the CPU pool first, then the GPU pool.
    ["least-waste", { cpu: 4, gpu: 5 }, 3],
    // price per pod hosted: CPU 2 / 8 pods, GPU 60 / 28 pods.
    ["price", { cpu: 4, gpu: 5 }, 3],
    // most-pods: the GPU pool hosts all 28 pods on its 5 nodes.
    ["most-pods", { gpu: 5 }, 2],
    // priority: the GPU pool (10) first; its 5 nodes host all 28.
    ["priority", { gpu: 5 }, 2],
  ] as const)(
    "mixed GPU and cpu pods, %s: %o after %d simulations",
    async (expander, want, simulations) => {
      const r = await planJSON(mixed, pools, "--expander", expander);
      expect(r.status).toMatchObject({ found: true, minimal: false, excluded: [] });
      expect(additions(r)).toEqual(want);
      expect(r.status.search.simulations).toBe(simulations);
      expect(r.status.pods).toHaveLength(28);
      expect(r.status.pods.every((p) => p.outcome === "Scheduled")).toBe(true);
      // No CPU node for a GPU pod.
      const train = r.status.pods.filter((p) => p.pod.startsWith("ml/train-"));
      expect(train.every((p) => p.pool === "gpu")).toBe(true);
    },
    60_000,
  );

  it("mixed GPU and cpu pods, exact: the cpu pods fit beside the GPU pods on the 5 GPU nodes", async () => {
    const r = await planJSON(mixed, pools);
    expect(r.status).toMatchObject({ found: true, minimal: true });
    expect(additions(r)).toEqual({ gpu: 5 });
  }, 60_000);
});

describe("kubesched plan: devices no addition can provide are named before the search, and their pods with the allocator's reason", () => {
  const pools = file("pools-ok.yaml", generatedPools);
  // The pool's driver is one no DeviceClass selects.
  const otherDriver = file(
    "pools-other-driver.yaml",
    generatedPools.replace("driver: gpu.example.com", "driver: gpu.other.com"),
  );
  const fpga = file(
    "fpga.yaml",
    `${generatedCluster(20, 0)}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: fpga.example.com}
spec: {selectors: [{cel: {expression: "device.driver == 'fpga.example.com'"}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-fpga, namespace: ml}
spec: {spec: {devices: {requests: [{name: f, exactly: {deviceClassName: fpga.example.com}}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: fpga-job, namespace: ml}
spec:
  resourceClaims: [{name: f, resourceClaimTemplateName: one-fpga}]
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}, claims: [{name: f}]}}]
`,
  );
  const allocatorReason = [
    { pool: "cpu", reason: "cannot allocate all claims" },
    { pool: "gpu", reason: "cannot allocate all claims" },
  ];
  const withAndWithout = [...expanders.map((e) => [e, ["--expander", e]] as const), ["exact", []] as const];

  it.each(withAndWithout)(
    "%s: a pool whose slices publish devices no DeviceClass matches",
    async (_, flags) => {
      const r = await run(
        "plan",
        "--cluster",
        file("gpu-only-2.yaml", generatedCluster(20, 0)),
        "--pools",
        otherDriver,
        "-o",
        "json",
        ...flags,
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        `warning: ${otherDriver}: pools[1].resourceSlices[0] (pool gpu): no DeviceClass of the snapshot matches its 8 device(s) (driver gpu.other.com): no claim can be allocated from them\n` +
          "warning: DeviceClass gpu.example.com: no node of the snapshot has a free device of it and no pool's slices publish one: ml/train-0, ml/train-1, ml/train-2, ml/train-3, ml/train-4 and 15 more cannot schedule with any addition\n",
      );
      const report = JSON.parse(r.stdout) as PlanReport;
      expect(report.status.excluded).toEqual(
        Array.from({ length: 20 }, (_, i) => ({ pod: `ml/train-${i}`, reasons: allocatorReason })),
      );
      // Nothing left to place: no node added, the baseline is the only run.
      expect(report.status).toMatchObject({ found: true, nodes: 0, additions: [] });
      expect(report.status.search.simulations).toBe(1);
    },
    60_000,
  );

  it.each(withAndWithout)(
    "%s: a claim asking for a DeviceClass no node or pool publishes",
    async (_, flags) => {
      const r = await run("plan", "--cluster", fpga, "--pools", pools, "-o", "json", ...flags);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        "warning: DeviceClass fpga.example.com: no node of the snapshot has a free device of it and no pool's slices publish one: ml/fpga-job cannot schedule with any addition\n",
      );
      const report = JSON.parse(r.stdout) as PlanReport;
      expect(report.status.excluded).toEqual([{ pod: "ml/fpga-job", reasons: allocatorReason }]);
      expect(additions(report)).toEqual({ gpu: 5 });
    },
    60_000,
  );
});
