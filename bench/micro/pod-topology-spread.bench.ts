// Micro-benchmark: PodTopologySpread per scheduling cycle.
// - PreFilter+Filter (DoNotSchedule) and PreScore+Score+NormalizeScore (ScheduleAnyway) over
//   5000 nodes in 3 zones with 5000 / 10000 existing pods, pods from scheduler_perf's
//   pod-with-topology-spreading template (maxSkew 5, zone, selector color=blue).
// - upstream's BenchmarkFilter / BenchmarkTestPodTopologySpreadScore fixture
//   (st.MakeNodesAndPodsForEvenPodsSpread: 1000 nodes, 10000 pods, 500 filtered).
// Run: npx tsx bench/micro/pod-topology-spread.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Node, Pod } from "@kubesched/api";
import { CycleState, defaultFeatures, type Handle, NodeInfo, type NodeScore } from "@kubesched/framework";
import { Bench } from "tinybench";
import { filterTopologySpreadConstraints } from "../../packages/plugins/pod-topology-spread/src/common";
import { fullCounter } from "../../packages/plugins/pod-topology-spread/src/counting";
import { calPreFilterState, filterNode } from "../../packages/plugins/pod-topology-spread/src/filtering";
import { podTopologySpreadPlugin } from "../../packages/plugins/pod-topology-spread/src/index";
import { meanMs } from "./mean";

const ZONE = "topology.kubernetes.io/zone";
const HOST = "kubernetes.io/hostname";

function makeNode(name: string, labels: Record<string, string>): Node {
  return {
    metadata: { name, labels: { ...labels, [HOST]: name } },
    status: { allocatable: { cpu: "4", memory: "32Gi", pods: "110" } },
  };
}

function makePod(name: string, nodeName: string | undefined, labels: Record<string, string>): Pod {
  return {
    metadata: { name, namespace: "default", uid: name, labels },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: [
        {
          name: "pause",
          image: "registry.k8s.io/pause:3.10.1",
          resources: { requests: { cpu: "100m", memory: "500Mi" } },
        },
      ],
    },
  };
}

function snapshot(nodes: Node[], pods: Pod[]): NodeInfo[] {
  const byName = new Map<string, NodeInfo>();
  const list = nodes.map((n) => {
    const ni = new NodeInfo();
    ni.setNode(n);
    byName.set(n.metadata!.name!, ni);
    return ni;
  });
  for (const p of pods) byName.get(p.spec!.nodeName!)!.addPod(p);
  return list;
}

function plugin(nodeInfos: NodeInfo[]) {
  const handle = {
    snapshotSharedLister: () => ({ nodeInfos: () => ({ list: () => nodeInfos }) }),
    listers: () => ({}),
    features: () => defaultFeatures,
  } as unknown as Handle;
  const { args } = podTopologySpreadPlugin.args!.decode({ defaultingType: "List" }, "", defaultFeatures);
  return podTopologySpreadPlugin.factory(args, handle) as ReturnType<typeof podTopologySpreadPlugin.factory> &
    import("@kubesched/framework").PreFilterPlugin &
    import("@kubesched/framework").FilterPlugin &
    import("@kubesched/framework").PreScorePlugin &
    import("@kubesched/framework").ScorePlugin;
}

/** scheduler_perf TopologySpreading: 5000 nodes, zones moon-1/2/3 round-robin, pods color=blue. */
function perfFixture(nodesNum: number, podsNum: number) {
  const nodes = Array.from({ length: nodesNum }, (_v, i) =>
    makeNode(`node-${i}`, { [ZONE]: `moon-${(i % 3) + 1}` }),
  );
  const pods = Array.from({ length: podsNum }, (_v, i) =>
    makePod(`spreading-pod-${i}`, `node-${i % nodesNum}`, { color: "blue" }),
  );
  return snapshot(nodes, pods);
}

function spreadingPod(whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway"): Pod {
  const p = makePod("incoming", undefined, { color: "blue" });
  p.spec!.topologySpreadConstraints = [
    { maxSkew: 5, topologyKey: ZONE, whenUnsatisfiable, labelSelector: { matchLabels: { color: "blue" } } },
  ];
  return p;
}

/** Port of upstream st.MakeNodesAndPodsForEvenPodsSpread. */
function makeNodesAndPodsForEvenPodsSpread(
  labels: Record<string, string>,
  existingPodsNum: number,
  allNodesNum: number,
  filteredNodesNum: number,
): { existingPods: Pod[]; allNodes: Node[]; filteredNodes: Node[] } {
  const labelPairs = Object.entries(labels);
  const zones = 10;
  const allNodes = Array.from({ length: allNodesNum }, (_v, i) =>
    makeNode(`node${i}`, { [ZONE]: `zone${i % zones}` }),
  );
  const existingPods: Pod[] = [];
  for (let i = 0; i < existingPodsNum; i++) {
    // apply labels[0], labels[0,1], ..., labels[all] to each pod in turn
    const l = Object.fromEntries(labelPairs.slice(0, (i % labelPairs.length) + 1));
    existingPods.push(makePod(`pod${i}`, `node${i % allNodesNum}`, l));
  }
  return { existingPods, allNodes, filteredNodes: allNodes.slice(0, filteredNodesNum) };
}

let sink = 0;
const results: { name: string; nodes: number; meanMs: number }[] = [];
const bench = new Bench({ time: 1500, warmupTime: 300 });

for (const podsNum of [5000, 10000]) {
  const nodeInfos = perfFixture(5000, podsNum);
  const pl = plugin(nodeInfos);
  const hard = spreadingPod("DoNotSchedule");
  const soft = spreadingPod("ScheduleAnyway");
  const scores: NodeScore[] = nodeInfos.map((ni) => ({ name: ni.nodeName, score: 0 }));
  bench.add(`PreFilter+Filter 5000 nodes / ${podsNum} pods`, () => {
    const state = new CycleState();
    pl.preFilter(state, hard, nodeInfos);
    for (let i = 0; i < nodeInfos.length; i++) if (pl.filter(state, hard, nodeInfos[i]!) === null) sink++;
  });
  // For comparison: upstream's algorithm (every pod of every node walked each cycle).
  const hardConstraints = filterTopologySpreadConstraints(
    hard.spec!.topologySpreadConstraints!,
    hard.metadata?.labels,
    "DoNotSchedule",
    {
      enableMatchLabelKeys: true,
      enableNodeInclusionPolicy: true,
    },
  );
  bench.add(`PreFilter+Filter 5000 nodes / ${podsNum} pods, full walk (upstream algorithm)`, () => {
    const s = calPreFilterState(hard, nodeInfos, hardConstraints, fullCounter, {
      enableNodeInclusionPolicy: true,
      tolerationOptions: {},
    });
    for (let i = 0; i < nodeInfos.length; i++) if (filterNode(s, nodeInfos[i]!) === null) sink++;
  });
  // The realistic steady state: the previous cycle bound one pod, so one node changed.
  let churn = 0;
  const bound = makePod("bound", "node-0", { color: "blue" });
  bench.add(`PreFilter+Filter 5000 nodes / ${podsNum} pods, one node changed per cycle`, () => {
    const ni = nodeInfos[churn++ % nodeInfos.length]!;
    ni.addPod(bound);
    const state = new CycleState();
    pl.preFilter(state, hard, nodeInfos);
    for (let i = 0; i < nodeInfos.length; i++) if (pl.filter(state, hard, nodeInfos[i]!) === null) sink++;
    ni.removePod(bound);
  });
  bench.add(`PreScore+Score 5000 nodes / ${podsNum} pods`, () => {
    const state = new CycleState();
    pl.preScore(state, soft, nodeInfos);
    for (let i = 0; i < nodeInfos.length; i++)
      scores[i]!.score = pl.score(state, soft, nodeInfos[i]!) as number;
    pl.scoreExtensions()!.normalizeScore(state, soft, scores);
    sink += scores[0]!.score;
  });
}

{
  const incoming: Pod = makePod("p", undefined, { foo: "" });
  incoming.spec!.topologySpreadConstraints = [
    {
      maxSkew: 1,
      topologyKey: ZONE,
      whenUnsatisfiable: "DoNotSchedule",
      labelSelector: { matchExpressions: [{ key: "foo", operator: "Exists" }] },
    },
  ];
  const { existingPods, allNodes, filteredNodes } = makeNodesAndPodsForEvenPodsSpread(
    { foo: "" },
    10000,
    1000,
    500,
  );
  const nodeInfos = snapshot(allNodes, existingPods);
  const filtered = nodeInfos.slice(0, filteredNodes.length);
  const pl = plugin(nodeInfos);
  bench.add("upstream BenchmarkFilter 1000nodes/single-constraint-zone", () => {
    const state = new CycleState();
    pl.preFilter(state, incoming, nodeInfos);
    for (let i = 0; i < nodeInfos.length; i++) if (pl.filter(state, incoming, nodeInfos[i]!) === null) sink++;
  });
  const soft = structuredClone(incoming);
  soft.spec!.topologySpreadConstraints![0]!.whenUnsatisfiable = "ScheduleAnyway";
  const scores: NodeScore[] = filtered.map((ni) => ({ name: ni.nodeName, score: 0 }));
  bench.add(
    "upstream BenchmarkTestPodTopologySpreadScore 1000nodes/single-constraint-zone (PreScore+Score)",
    () => {
      const state = new CycleState();
      pl.preScore(state, soft, filtered);
      for (let i = 0; i < filtered.length; i++)
        scores[i]!.score = pl.score(state, soft, filtered[i]!) as number;
      pl.scoreExtensions()!.normalizeScore(state, soft, scores);
    },
  );
}

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  const nodes = t.name.includes("1000nodes") ? 1000 : 5000;
  results.push({ name: t.name, nodes, meanMs: mean });
  console.log(
    `${t.name.padEnd(90)} ${(mean * 1000).toFixed(1).padStart(8)} µs/cycle ${((mean * 1e6) / nodes).toFixed(1).padStart(7)} ns/node`,
  );
}
if (sink < 0) console.log(sink);
