// kubesched plan with node pools that carry ResourceSlices (DRA), as the CLI runs it: the GPU
// example (examples/plan-gpu: 2-GPU training pods, a CPU pool and a GPU pool of 8 GPUs per node)
// gets exactly the GPU nodes it needs — confirmed minimal by simulating every count vector — with
// no device allocated twice in the proof; a GPU pod no pool's devices satisfy is named with the
// allocator's reason; v1beta1 templates convert; bad slice templates are one error each, naming
// the file, the pool and the field, before any work.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Pod, podKey } from "@kubesched/api";
import { devicesFit, type PlanReport, planChanges, planDeviceBound } from "@kubesched/cluster";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYAML, stringify } from "yaml";
import { openPlanEngine } from "./plan-engine.test-util";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-plan-dra-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cluster = "examples/plan-gpu/cluster.yaml";
const pools = "examples/plan-gpu/pools.yaml";
const run = (...argv: string[]) => runCliIn(root, argv);

function file(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

async function planJSON(poolsFile: string, ...argv: string[]): Promise<PlanReport> {
  const r = await run("plan", "--cluster", cluster, "--pools", poolsFile, "-o", "json", ...argv);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PlanReport;
}

const additions = (r: PlanReport) => Object.fromEntries(r.status.additions.map((a) => [a.pool, a.count]));

const engine = (poolsFile: string) => openPlanEngine(root, cluster, poolsFile);

describe("kubesched plan with ResourceSlices in the pools (examples/plan-gpu)", () => {
  it("adds exactly the GPU nodes the 2-GPU training pods need, one CPU node, and names the pod no pool's devices satisfy", async () => {
    const r = await planJSON(pools);
    // 8 workers × 2 GPUs = 16: gpu-node-1 holds 4, two GPU nodes of 8 the other 12.
    expect(additions(r)).toEqual({ cpu: 1, gpu: 2 });
    expect(r.status).toMatchObject({ found: true, minimal: true, nodes: 3, cost: 24.5 });
    // The allocator's reason through DynamicResources' Filter, for each pool.
    expect(r.status.excluded).toEqual([
      {
        pod: "ml/h200-notebook",
        reasons: [
          { pool: "cpu", reason: "cannot allocate all claims" },
          { pool: "gpu", reason: "cannot allocate all claims" },
        ],
      },
    ]);
    const train = r.status.pods.filter((p) => p.pod.startsWith("ml/train-"));
    expect(train).toHaveLength(8);
    expect(train.every((p) => p.outcome === "Scheduled")).toBe(true);
    expect(train.every((p) => p.pool === "gpu" || p.node === "gpu-node-1")).toBe(true);
    // The device bound rules out every vector with fewer than 2 GPU nodes (16 GPUs asked, 4 free,
    // 8 per node) without a run: [0,0], [0,1], [1,0], [1,1], [2,0], [3,0], [2,1]; of the
    // vectors ordered before the answer only [0,2] is simulated (the ETL pod does not tolerate the
    // GPU taint), then [1,2].
    expect(r.status.search).toEqual({ simulations: 2, pruned: 3, exhausted: false, lowerBound: 2 });
    // The devices: the GPU pool's two nodes publish 16, the class matches 20 (gpu-node-1's 4 too),
    // 16 of them allocated (8 pods × 2).
    const onOldNode = train.filter((p) => p.node === "gpu-node-1").length;
    expect(r.status.devices).toEqual({
      pools: [{ pool: "gpu", published: 16, allocated: 16 - 2 * onOldNode }],
      classes: [{ name: "gpu.example.com", published: 20, allocated: 16, added: 16 }],
    });
  }, 60_000);

  it.each(["least-waste", "price", "most-pods", "priority"])(
    "the %s expander grows the GPU pool by the 2 nodes the training pods' GPUs need in one step",
    async (expander) => {
      const r = await planJSON(pools, "--expander", expander);
      expect(r.status).toMatchObject({ found: true, minimal: false });
      expect(additions(r)).toEqual({ cpu: 1, gpu: 2 });
      // The baseline, one CPU node for the ETL replica, and the GPU pool's step: 6 pods × 2 GPUs
      // on nodes of 8 (sized by cpu, 48 of 64, the step was 1 node and a fourth run followed).
      expect(r.status.search.simulations).toBe(3);
      expect(r.status.excluded.map((e) => e.pod)).toEqual(["ml/h200-notebook"]);
    },
    60_000,
  );

  it("the README shows what `kubesched plan` prints for the example", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const shown =
      /```\n\$ kubesched plan --cluster examples\/plan-gpu\/cluster\.yaml --pools examples\/plan-gpu\/pools\.yaml\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
    expect(shown, "README has the example's output").toBeDefined();
    const r = await run("plan", "--cluster", cluster, "--pools", pools);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(shown);
  }, 60_000);

  it("the README shows the head and the search line of the least-waste expander's output", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const shown =
      /```\n\$ kubesched plan --cluster examples\/plan-gpu\/cluster\.yaml --pools examples\/plan-gpu\/pools\.yaml --expander least-waste\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
    expect(shown, "README has the expander's output").toBeDefined();
    const [head, tail] = (shown as string).split("…\n");
    const r = await run("plan", "--cluster", cluster, "--pools", pools, "--expander", "least-waste");
    expect(r.stderr).toBe("");
    expect(r.stdout.startsWith(head as string)).toBe(true);
    expect(r.stdout).toContain(tail);
  }, 60_000);

  it("-o json validates against --schema; the table shows the devices per pool and per DeviceClass", async () => {
    const r = await planJSON(pools);
    const schema = JSON.parse((await run("plan", "--schema")).stdout);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    const table = await run("plan", "--cluster", cluster, "--pools", pools);
    expect(table.code).toBe(0);
    const d = r.status.devices;
    expect(table.stdout).toContain(
      [
        "Devices in the proof (allocated/published):",
        "POOL  DEVICES",
        `gpu   ${d?.pools[0]?.allocated}/16`,
        "DEVICE CLASS     DEVICES  ADDED",
        "gpu.example.com  16/20    16",
        "",
      ].join("\n"),
    );
  }, 60_000);

  it("is minimal: every count vector simulated (brute force), none with fewer nodes or a lower price works", async () => {
    const { planned, cf } = await engine(pools);
    const required = planned.objects
      .filter((o) => o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName)
      .map((o) => podKey(o.obj as Pod))
      .filter((k) => k !== "ml/h200-notebook");
    const working: { v: number[]; count: number; cost: number }[] = [];
    const bound = planDeviceBound(
      planned.objects,
      planned.objects
        .filter((o) => o.kind === "Pod" && required.includes(podKey(o.obj as Pod)))
        .map((o) => o.obj as Pod),
      planned.pools,
    );
    expect(bound.need).toEqual(new Map([["gpu.example.com", 16]]));
    const ruledOut: number[][] = [];
    for (let cpu = 0; cpu <= 4; cpu++)
      for (let gpu = 0; gpu <= 4; gpu++) {
        const o = await cf.run(planChanges(planned.pools, [cpu, gpu]));
        const works = required.every((k) => o.pods.get(k)?.outcome === "Scheduled");
        if (works) working.push({ v: [cpu, gpu], count: cpu + gpu, cost: cpu * 0.5 + gpu * 12 });
        if (!devicesFit(bound, [cpu, gpu])) ruledOut.push([cpu, gpu]);
        // The bound is sound: a vector it rules out does not work.
        if (!devicesFit(bound, [cpu, gpu])) expect(works).toBe(false);
      }
    expect(ruledOut).toEqual([0, 1, 2, 3, 4].flatMap((cpu) => [0, 1].map((gpu) => [cpu, gpu])));
    const fewest = Math.min(...working.map((w) => w.count));
    const cheapest = Math.min(...working.map((w) => w.cost));
    expect(working.filter((w) => w.count === fewest).map((w) => w.v)).toEqual([[1, 2]]);
    const byCost = await planJSON(pools, "--optimize", "cost");
    expect(additions(byCost)).toEqual({ cpu: 1, gpu: 2 });
    expect(byCost.status.cost).toBe(cheapest);
  }, 120_000);

  it("the proof never allocates a device twice, and each added node publishes its own pool", async () => {
    const { planned, cf } = await engine(pools);
    const proof = await cf.run(planChanges(planned.pools, [1, 2]));
    const devices = proof.result.pods.flatMap((p) =>
      (p.resourceClaims ?? []).flatMap((c) => c.devices.map((d) => `${d.driver}/${d.pool}/${d.device}`)),
    );
    expect(devices).toHaveLength(16);
    expect(new Set(devices).size).toBe(16);
    // Every pod's devices are on the node it was bound to (its pool is named after the node).
    for (const p of proof.result.pods)
      for (const c of p.resourceClaims ?? []) for (const d of c.devices) expect(d.pool).toBe(p.node);
    const gpuNodes = proof.result.nodes.filter((n) => n.name.startsWith("gpu-new-"));
    expect(gpuNodes.map((n) => [n.name, n.devices?.map((d) => [d.driver, d.pool, d.published])])).toEqual(
      ["gpu-new-1", "gpu-new-2"].map((name) => [name, [["gpu.example.com", name, 8]]]),
    );
    const onNode = (n: string) => proof.result.nodes.find((x) => x.name === n)?.devices?.[0]?.allocated ?? 0;
    expect(onNode("gpu-node-1") + onNode("gpu-new-1") + onNode("gpu-new-2")).toBe(16);
  }, 60_000);

  it("takes v1beta1 slice templates (devices under basic) as the API server converts them", async () => {
    const doc = parseYAML(readFileSync(join(root, pools), "utf8")) as {
      pools: { resourceSlices?: { apiVersion: string; spec: { devices: Record<string, unknown>[] } }[] }[];
    };
    for (const p of doc.pools)
      for (const s of p.resourceSlices ?? []) {
        s.apiVersion = "resource.k8s.io/v1beta1";
        s.spec.devices = s.spec.devices.map(({ name, ...basic }) => ({ name, basic }));
      }
    const f = file("v1beta1.yaml", stringify(doc));
    const r = await planJSON(f);
    expect(additions(r)).toEqual({ cpu: 1, gpu: 2 });
  }, 60_000);

  it("without the pool's slices, no pool hosts the training pods", async () => {
    const doc = parseYAML(readFileSync(join(root, pools), "utf8")) as { pools: Record<string, unknown>[] };
    for (const p of doc.pools) delete p.resourceSlices;
    const f = file("no-slices.yaml", stringify(doc));
    const r = await planJSON(f);
    expect(additions(r)).toEqual({ cpu: 1 });
    expect(r.status.excluded.map((e) => e.pod).filter((p) => p.startsWith("ml/train-"))).toHaveLength(6);
  }, 60_000);
});

describe("kubesched plan: bad ResourceSlice templates are one error each before work starts", () => {
  const poolsFile = (
    name: string,
    slices: string,
    node = "{status: {allocatable: {cpu: '8', memory: 8Gi, pods: '110'}}}",
  ) =>
    file(
      name,
      `apiVersion: kubesched.io/v1alpha1
kind: NodePools
pools:
  - name: gpu
    maxCount: 2
    node: ${node}
    resourceSlices:
${slices}`,
    );
  const slice = (spec: string, head = "apiVersion: resource.k8s.io/v1, kind: ResourceSlice") =>
    `      - {${head}, spec: {driver: gpu.example.com, ${spec}}}\n`;

  it.each([
    [
      "duplicate device names in one slice",
      slice("devices: [{name: gpu-0}, {name: gpu-0}]"),
      'pools[0].resourceSlices[0].spec.devices[1].name: Duplicate value: "gpu-0": the device is also pools[0].resourceSlices[0].spec.devices[0]: device names are unique in a pool',
    ],
    [
      "duplicate device names across the slices of one pool",
      slice("devices: [{name: gpu-0}]") + slice("devices: [{name: gpu-0}]"),
      'pools[0].resourceSlices[1].spec.devices[0].name: Duplicate value: "gpu-0": the device is also pools[0].resourceSlices[0].spec.devices[0]: device names are unique in a pool',
    ],
    [
      "an unknown field of the slice",
      slice("devices: [{name: gpu-0, atributes: {model: {string: a}}}]"),
      "pools[0].resourceSlices[0].spec.devices[0].atributes: unknown field",
    ],
    [
      "an unknown spec field",
      slice("drivr: x, devices: [{name: gpu-0}]"),
      "pools[0].resourceSlices[0].spec.drivr: unknown field",
    ],
    [
      "a slice for another node than the template's",
      slice("nodeName: gpu-node-7, devices: [{name: gpu-0}]"),
      'pools[0].resourceSlices[0].spec.nodeName: Invalid value: "gpu-node-7": the pool\'s slices are its node\'s (node.metadata.name: "gpu-tmpl"); leave nodeName out: each added node\'s name is set',
      "{metadata: {name: gpu-tmpl}, status: {allocatable: {cpu: '8', memory: 8Gi, pods: '110'}}}",
    ],
    [
      "allNodes",
      slice("allNodes: true, devices: [{name: gpu-0}]"),
      "pools[0].resourceSlices[0].spec.allNodes: Forbidden: a pool's slices publish the devices of each of its nodes (spec.nodeName is set to the node's name); a slice for several nodes belongs in the snapshot",
    ],
    [
      "a nodeSelector",
      slice(
        "nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}]}, devices: [{name: gpu-0}]",
      ),
      "pools[0].resourceSlices[0].spec.nodeSelector: Forbidden: a pool's slices publish the devices of each of its nodes",
    ],
    [
      "a resourceSliceCount other than the templates'",
      slice("pool: {name: gpus, generation: 0, resourceSliceCount: 2}, devices: [{name: gpu-0}]"),
      "pools[0].resourceSlices[0].spec.pool.resourceSliceCount: Invalid value: 2: the pool's templates hold 1 slice(s) of this driver and pool; leave it out (it is counted)",
    ],
    [
      "another kind",
      slice("devices: [{name: gpu-0}]", "apiVersion: resource.k8s.io/v1, kind: ResourceClaim"),
      'pools[0].resourceSlices[0].kind: Unsupported value: "ResourceClaim": supported values: "ResourceSlice"',
    ],
    [
      "an unserved version",
      slice("devices: [{name: gpu-0}]", "apiVersion: resource.k8s.io/v1alpha3, kind: ResourceSlice"),
      'pools[0].resourceSlices[0].apiVersion: Unsupported value: "resource.k8s.io/v1alpha3": supported values: "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"',
    ],
  ])("%s", async (_, slices, want, node?: string) => {
    const f = poolsFile("bad.yaml", slices, node);
    const r = await run("plan", "--cluster", cluster, "--pools", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`error: ${f}: ${want}`);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("what the API server refuses in a slice is reported by the loader, naming the pool's template", async () => {
    const f = poolsFile(
      "loader.yaml",
      slice("devices: [{name: gpu-0, attributes: {model: {string: a, int: 3}}}]"),
    );
    const r = await run("plan", "--cluster", cluster, "--pools", f);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${f}: pools[0].resourceSlices[0] (pool gpu): document 1, item 1 (ResourceSlice gpu-1-gpu.example.com-0): spec.devices[0].attributes[model]: Invalid value: exactly one value must be specified\n`,
    );
  });
});
