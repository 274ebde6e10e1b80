// The plan's lower bounds are sound: on small random clusters (≤ 3 pools, ≤ 3 nodes each; zone
// and hostname topology spread, hostname anti-affinity, tainted pools, pods only one pool hosts,
// running pods the
// constraints count, a pool in a zone the snapshot lacks) every count vector is simulated through
// the counterfactual engine, and no bound — each alone — rules out a vector under which every
// goal pod schedules, nor puts a pool's smallest count above such a vector's. Each bound also rules
// out some vectors (it is not vacuous), and on a hand-made case the bounds are the numbers worked
// out by hand.
import type { Node, Pod } from "@kubesched/api";
import { loadConfig } from "@kubesched/config";
import { seededRandom } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { Counterfactuals } from "./counterfactual";
import { loadSnapshotTexts } from "./load";
import { type PlanOptions, type PlanPool, planChanges } from "./plan";
import type { BoundName } from "./plan-bounds";
import { planGoal } from "./plan-goal";

const config = loadConfig(
  `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: [{schedulerName: default-scheduler}]
`,
  { registry: inTreeRegistry },
);

function pool(
  name: string,
  maxCount: number,
  cpu: number,
  labels: Record<string, string>,
  tainted = false,
): PlanPool {
  const node: Node = {
    metadata: { name, labels },
    ...(tainted ? { spec: { taints: [{ key: "dedicated", value: "batch", effect: "NoSchedule" }] } } : {}),
    status: { allocatable: { cpu: String(cpu), memory: "16Gi", pods: "110" } },
  };
  return { name, node, daemonSetPods: [], minCount: 0, maxCount, price: 1 };
}

function randomCase(seed: number): { yaml: string; pools: PlanPool[] } {
  const r = seededRandom(seed).float;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const docs: string[] = [];
  const existing = 1 + Math.floor(r() * 2);
  for (let i = 1; i <= existing; i++) {
    docs.push(`apiVersion: v1
kind: Node
metadata: {name: n${i}, labels: {kubernetes.io/hostname: n${i}, zone: ${pick(["a", "b"])}}}
status: {allocatable: {cpu: "${pick([1, 2])}", memory: 16Gi, pods: "110"}}`);
    if (r() < 0.4)
      docs.push(`apiVersion: v1
kind: Pod
metadata: {name: run${i}, namespace: default, labels: {app: ${pick(["s", "h", "aa"])}}}
spec: {nodeName: n${i}, containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}`);
  }
  const pods = 4 + Math.floor(r() * 5);
  for (let i = 1; i <= pods; i++) {
    const kind = pick(["plain", "spread", "hostspread", "anti", "tolerating", "pinned", "pinned"] as const);
    const cpu = kind === "pinned" ? pick(["1500m", "2"]) : pick(["500m", "1", "1500m", "2"]);
    const label = { spread: "s", hostspread: "h", anti: "aa", plain: "p", tolerating: "p", pinned: "p" }[
      kind
    ];
    const extra = {
      spread: `  topologySpreadConstraints: [{maxSkew: ${pick([1, 2])}, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: s}}}]\n`,
      hostspread:
        "  topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: h}}}]\n",
      anti: "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: aa}}}]}}\n",
      tolerating: "  tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]\n",
      pinned: "  nodeSelector: {pool: pool1}\n  tolerations: [{key: dedicated, operator: Exists}]\n",
      plain: "",
    }[kind];
    docs.push(`apiVersion: v1
kind: Pod
metadata: {name: p${i}, namespace: default, labels: {app: ${label}}}
spec:
${extra}  containers: [{name: c, image: x, resources: {requests: {cpu: "${cpu}", memory: 1Gi}}}]`);
  }
  const pools = Array.from({ length: 2 + Math.floor(r() * 2) }, (_, i) =>
    pool(
      `pool${i + 1}`,
      1 + Math.floor(r() * 3),
      pick([2, 4]),
      { zone: pick(["a", "b", "c"]), pool: `pool${i + 1}` },
      r() < 0.25,
    ),
  );
  return { yaml: docs.join("\n---\n"), pools };
}

async function goalOf(yaml: string, pools: PlanPool[]) {
  const opts: PlanOptions = {
    config,
    registry: inTreeRegistry,
    objects: loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects,
    logger: recordingLogger(),
    pools,
  };
  const cf = await Counterfactuals.open(opts);
  return { cf, goal: await planGoal(opts, cf) };
}

function everyVector(pools: readonly PlanPool[]): number[][] {
  let vectors: number[][] = [[]];
  for (const p of pools)
    vectors = vectors.flatMap((v) => Array.from({ length: p.maxCount + 1 }, (_, c) => [...v, c]));
  return vectors;
}

const names: BoundName[] = ["capacity", "binPacking", "antiAffinity", "spread"];

describe("plan's lower bounds: brute force over every count vector", () => {
  const ruledOut: Record<BoundName, number> = { capacity: 0, binPacking: 0, antiAffinity: 0, spread: 0 };
  let working = 0;
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "no bound rules out a working vector on random small cluster %i",
    async (seed) => {
      const c = randomCase(seed);
      const { cf, goal } = await goalOf(c.yaml, c.pools);
      const required = goal.required.map((p: Pod) => `${p.metadata?.namespace}/${p.metadata?.name}`);
      for (const v of everyVector(c.pools)) {
        const o = await cf.run(planChanges(c.pools, v));
        const works = required.every((k) => o.pods.get(k)?.outcome === "Scheduled");
        for (const name of names) {
          const why = goal.bounds.checks[name](v);
          if (works) expect({ v, bound: name, why }).toEqual({ v, bound: name, why: null });
          else if (why !== null) ruledOut[name]++;
        }
        if (works) {
          working++;
          v.forEach((x, i) => {
            expect(x).toBeGreaterThanOrEqual(goal.bounds.lowest[i] as number);
          });
        }
      }
    },
    60_000,
  );

  it("each bound rules out vectors that do not work, and some vectors work", () => {
    expect(working).toBeGreaterThan(0);
    for (const name of names) expect(ruledOut[name], name).toBeGreaterThan(0);
  });
});

describe("plan's lower bounds on a worked example", () => {
  // Two zones of one 1-cpu-free node each; 6 web pods spread over the zones (maxSkew 1), 3 cache
  // pods one per host, 3 gpu-only pods. Pools: general-a, general-b (4 cpu, no taint), gpu (zone a,
  // tainted; 2 cpu).
  const yaml = [
    ...["a", "b"].flatMap((z) => [
      `apiVersion: v1
kind: Node
metadata: {name: n${z}, labels: {kubernetes.io/hostname: n${z}, zone: ${z}}}
status: {allocatable: {cpu: "2", memory: 16Gi, pods: "110"}}`,
      `apiVersion: v1
kind: Pod
metadata: {name: base-${z}, namespace: running}
spec: {nodeName: n${z}, containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}`,
    ]),
    ...[1, 2, 3, 4, 5, 6].map(
      (i) => `apiVersion: v1
kind: Pod
metadata: {name: web-${i}, namespace: shop, labels: {app: web}}
spec:
  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]`,
    ),
    ...[1, 2, 3].map(
      (i) => `apiVersion: v1
kind: Pod
metadata: {name: cache-${i}, namespace: shop, labels: {app: cache}}
spec:
  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: cache}}}]}}
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]`,
    ),
    ...[1, 2, 3].map(
      (i) => `apiVersion: v1
kind: Pod
metadata: {name: train-${i}, namespace: ml}
spec:
  nodeSelector: {accelerator: a100}
  tolerations: [{key: dedicated, operator: Exists}]
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]`,
    ),
  ].join("\n---\n");
  const pools = [
    pool("general-a", 5, 4, { zone: "a" }),
    pool("general-b", 5, 4, { zone: "b" }),
    pool("gpu", 5, 2, { zone: "a", accelerator: "a100" }, true),
  ];

  it("the gpu pool's count from its pods alone; zones from the spread; hosts from anti-affinity", async () => {
    const { goal } = await goalOf(yaml, pools);
    // 3 one-cpu pods only gpu nodes (2 cpu) host, less the snapshot's 2 free cpu (the bound does
    // not tell that those nodes lack the label): 1 gpu node.
    expect(goal.bounds.lowest).toEqual([0, 0, 1]);
    expect(goal.bounds.applied).toMatchObject({ antiAffinity: 1, spread: 1 });
    // Web: 3 per zone; each zone's node has 1 cpu free: 2 more cpu per zone → one node per zone.
    expect(goal.bounds.checks.spread([0, 1, 2])).toBe("topology spread");
    expect(goal.bounds.checks.spread([1, 0, 2])).toBe("topology spread");
    expect(goal.bounds.checks.spread([1, 1, 2])).toBeNull();
    // Cache: 3 pods, one per host; 2 nodes exist, the gpu pool does not host them.
    expect(goal.bounds.checks.antiAffinity([0, 0, 5])).toBe("pod anti-affinity: one pod per node");
    expect(goal.bounds.checks.antiAffinity([1, 0, 0])).toBeNull();
    // Capacity over the general pools: 6.3 cpu, 2 free on the snapshot → 2 general nodes.
    expect(goal.bounds.checks.capacity([2, 0, 2])).toBeNull();
    expect(goal.bounds.checks.capacity([1, 1, 2])).toBeNull();
    expect(goal.bounds.checks.capacity([1, 0, 2])).toBe("capacity: cpu");
  }, 60_000);
});
