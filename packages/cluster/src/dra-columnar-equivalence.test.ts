// The columnar Filter and Score of the in-tree plugins, NodeResourcesFit's DRA-backed scoring
// among them, decide exactly what their per-node methods decide on DRA clusters, through the
// assembled scheduler (DynamicResources runs per node both ways): random DRA clusters
// (nodes whose GPUs a driver publishes in ResourceSlices, nodes whose device plugin provides them,
// a DeviceClass backing example.com/gpu, classes for a prioritized list) go through simulate()
// (explain on) with the in-tree plugins as they are and with their columnar methods hidden, and
// the two results must be the same, byte for byte: placements, devices, every node's statuses,
// raw / normalized / weighted scores and FitError messages.

import { seededRandom } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { simulateBothWays } from "./columnar-equivalence.test-util";
import { configOf } from "./integration/integration-cluster.test-util";
import { loadSnapshotTexts } from "./load";

interface Case {
  seed: number;
  nodes: number;
  pending: number;
  config: "default" | "gpuScoring" | "fewNodesToScore";
}

const profiles: Record<Case["config"], string> = {
  default: "",
  gpuScoring: `profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{ name: cpu, weight: 1 }, { name: example.com/gpu, weight: 3 }]
`,
  fewNodesToScore: "percentageOfNodesToScore: 10\n",
};

function snapshot(c: Case): string {
  // The same cases on every run.
  const random = seededRandom(c.seed);
  const r = random.float;
  const docs: string[] = [
    `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  extendedResourceName: example.com/gpu
  selectors: [{ cel: { expression: "device.driver == 'gpu.example.com'" } }]`,
    `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: fast-gpu }
spec:
  selectors: [{ cel: { expression: "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].model == 'fast'" } }]`,
    `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: slow-gpu }
spec:
  selectors: [{ cel: { expression: "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].model == 'slow'" } }]`,
  ];
  for (let i = 0; i < c.nodes; i++) {
    const name = `node-${i}`;
    // Every fourth node: GPUs from a device plugin (allocatable), not DRA.
    const devicePlugin = i % 4 === 3;
    docs.push(`apiVersion: v1
kind: Node
metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name}, zone: z${i % 3} } }
status:
  allocatable: { cpu: "${4 + (i % 3) * 2}", memory: 32Gi, pods: "20"${devicePlugin ? ', example.com/gpu: "4"' : ""} }`);
    if (devicePlugin) continue;
    const devices = 2 + Math.floor(r() * 4);
    const list = [];
    for (let d = 0; d < devices; d++) {
      list.push(`    - name: gpu-${d}
      attributes: { model: { string: ${r() < 0.5 ? "fast" : "slow"} } }
      capacity: { memory: { value: 40Gi } }`);
    }
    docs.push(`apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: ${name}-gpus }
spec:
  driver: gpu.example.com
  nodeName: ${name}
  pool: { name: ${name}, generation: 0, resourceSliceCount: 1 }
  devices:
${list.join("\n")}`);
  }
  for (let p = 0; p < c.pending; p++) {
    const name = `pod-${p}`;
    const kind = r();
    const cpu = `${250 + Math.floor(r() * 4) * 250}m`;
    if (kind < 0.45) {
      // An extended resource a DeviceClass backs (a special claim on DRA nodes).
      const gpus = 1 + Math.floor(r() * 2);
      docs.push(`apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: uid-${name} }
spec:
  containers:
    - name: c
      image: i
      resources: { requests: { cpu: "${cpu}", example.com/gpu: "${gpus}" }, limits: { example.com/gpu: "${gpus}" } }`);
    } else if (kind < 0.8) {
      // A claim with a prioritized list: fast GPUs first (DynamicResources scores it).
      docs.push(`apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: claim-${name}, namespace: default, uid: uid-claim-${name} }
spec:
  devices:
    requests:
      - name: gpu
        firstAvailable:
          - { name: fast, deviceClassName: fast-gpu }
          - { name: slow, deviceClassName: slow-gpu }`);
      docs.push(`apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: uid-${name} }
spec:
  resourceClaims: [{ name: gpu, resourceClaimName: claim-${name} }]
  containers:
    - name: c
      image: i
      resources: { requests: { cpu: "${cpu}" }, claims: [{ name: gpu }] }`);
    } else {
      docs.push(`apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: uid-${name} }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "${cpu}" } } }]`);
    }
  }
  return `${docs.join("\n---\n")}\n`;
}

const cases: Case[] = [];
for (let seed = 1; seed <= 4; seed++) {
  for (const config of Object.keys(profiles) as Case["config"][]) {
    const nodes = config === "fewNodesToScore" ? 110 + seed * 5 : 6 + seed * 4;
    // The small clusters run out of GPUs (pods left unschedulable); the large ones score over a
    // window of the nodes.
    const pending = config === "fewNodesToScore" ? 60 + seed * 10 : nodes * 5;
    cases.push({ seed: seed * 104729 + config.length, nodes, pending, config });
  }
}

// Generous limits: a shared machine can be slow; nothing here is timed.
describe("DRA columnar Filter/Score through simulate()", { timeout: 120_000 }, () => {
  it.each(cases)("seed $seed, $nodes nodes, $pending pending, profile $config", async (c) => {
    const { batch, perNode } = await simulateBothWays({
      config: configOf(profiles[c.config]),
      objects: () => loadSnapshotTexts([{ name: `dra-${c.seed}.yaml`, text: snapshot(c) }]).objects,
      seed: c.seed,
    });
    // Something was decided on devices: placements, devices allocated, pods left over.
    const parsed = JSON.parse(batch) as {
      pods: { outcome: string; resourceClaims?: { devices?: unknown[] }[] }[];
      summary: { scheduled: number };
    };
    expect(parsed.summary.scheduled).toBeGreaterThan(0);
    const withDevices = parsed.pods.filter((p) =>
      (p.resourceClaims ?? []).some((cl) => (cl.devices ?? []).length > 0),
    );
    expect(withDevices.length).toBeGreaterThan(3);
    if (c.config !== "fewNodesToScore") expect(parsed.pods.some((p) => p.outcome !== "Scheduled")).toBe(true);
    expect(batch).toBe(perNode);
  });
});
