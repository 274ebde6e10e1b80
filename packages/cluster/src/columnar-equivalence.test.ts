// Columnar Filter/Score decide exactly what the per-node methods decide, through the assembled
// scheduler: the same randomized clusters go through simulate() (explain on) with the in-tree
// plugins as they are (batch over the snapshot's columns) and with their columnar methods hidden
// (Filter and Score node by node), and the two results must be the same, byte for byte: where
// every pod went, every node's status and reasons for every plugin, raw / normalized / weighted
// scores, final scores, preemptions and FitError messages.
import { describe, expect, it } from "vitest";
import { simulateBothWays } from "./columnar-equivalence.test-util";
import { configOf, objectsOf } from "./integration/integration-cluster.test-util";
import { randomCluster } from "./random-cluster.test-util";

interface Case {
  seed: number;
  nodes: number;
  running: number;
  pending: number;
  config: string;
}

const profiles: Record<string, string> = {
  default: "",
  fewNodesToScore: "percentageOfNodesToScore: 5\n",
  mostAllocated: `profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{ name: cpu, weight: 1 }, { name: memory, weight: 2 }, { name: example.com/gpu, weight: 3 }]
`,
  requestedToCapacityRatio: `profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources: [{ name: cpu, weight: 1 }, { name: memory, weight: 1 }]
        requestedToCapacityRatio:
          shape: [{ utilization: 0, score: 0 }, { utilization: 60, score: 10 }, { utilization: 100, score: 3 }]
  - name: NodeResourcesBalancedAllocation
    args:
      resources: [{ name: cpu, weight: 1 }, { name: memory, weight: 1 }, { name: example.com/gpu, weight: 1 }]
`,
  addedAffinity: `profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions: [{ key: topology.kubernetes.io/zone, operator: In, values: [zone-a, zone-b] }]
          - matchExpressions: [{ key: rack, operator: In, values: [r1] }]
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 7
          preference:
            matchExpressions: [{ key: disk, operator: Exists }]
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 5
`,
};

function both(c: Case): Promise<{ batch: string; perNode: string }> {
  const { nodes, pods } = randomCluster(c);
  return simulateBothWays({
    config: configOf(profiles[c.config] ?? ""),
    objects: () => objectsOf({ nodes, pods, namespaces: { team: { team: "x" } } }),
    seed: c.seed,
  });
}

const cases: Case[] = [];
for (let seed = 1; seed <= 6; seed++) {
  for (const config of Object.keys(profiles)) {
    const big = config === "fewNodesToScore" || seed % 3 === 0;
    const nodes = big ? 120 + seed * 10 : 8 + seed * 5;
    cases.push({
      seed: seed * 7919 + config.length,
      nodes,
      // Every other seed packs the nodes, so that pods preempt (nominated pods, two-pass Filter).
      running: seed % 2 === 0 ? nodes * 3 : big ? 150 : 10 + seed * 6,
      pending: big ? 40 : 25,
      config,
    });
  }
}

/** The batch runs' results, for the coverage check. */
const results = new Map<Case, string>();

// Generous limits: a shared machine can be slow; nothing here is timed.
describe("columnar Filter/Score through simulate()", { timeout: 120_000 }, () => {
  it.each(cases)(
    "seed $seed, $nodes nodes, $running running, $pending pending, profile $config",
    async (c) => {
      const { batch, perNode } = await both(c);
      results.set(c, batch);
      // Something was decided: the comparison is not between two empty results.
      const parsed = JSON.parse(batch) as { pods: unknown[]; summary: { scheduled: number } };
      expect(parsed.pods.length).toBe(c.pending);
      expect(parsed.summary.scheduled).toBeGreaterThan(0);
      expect(batch).toBe(perNode);
    },
  );

  it("the cases exercise scheduling, rejections, scores and preemption", async () => {
    let scheduled = 0;
    let unschedulable = 0;
    let preemptions = 0;
    let scored = 0;
    for (const c of cases.slice(0, 12)) {
      const r = JSON.parse(results.get(c) ?? (await both(c)).batch) as {
        summary: { scheduled: number; unschedulable: number };
        preemptions: unknown[];
        pods: { explain?: { score?: unknown } }[];
      };
      scheduled += r.summary.scheduled;
      unschedulable += r.summary.unschedulable;
      preemptions += r.preemptions.length;
      scored += r.pods.filter((p) => p.explain?.score !== undefined).length;
    }
    expect(scheduled).toBeGreaterThan(50);
    expect(unschedulable).toBeGreaterThan(5);
    expect(preemptions).toBeGreaterThan(0);
    expect(scored).toBeGreaterThan(50);
  });
});
