// Micro-benchmark: InterPodAffinity PreFilter+Filter and PreScore+Score+NormalizeScore per
// scheduling cycle, 5000 nodes and 10000 existing pods, with scheduler_perf's affinity templates
// (reference/performance.md §2.3). "memo" is the plugin as shipped (per-node contributions kept
// across cycles, one node changing between cycles as when the previous pod was bound); "full" walks
// every pod every cycle, as upstream without its memo.
// Run: npx tsx bench/micro/inter-pod-affinity.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Affinity, Namespace, Node, Pod } from "@kubesched/api";
import {
  CycleState,
  defaultFeatures,
  type Handle,
  NodeInfo,
  type NodeInfoLister,
  type NodeScore,
  PodInfo,
} from "@kubesched/framework";
import { Bench } from "tinybench";
import {
  InterPodAffinity,
  interPodAffinityPlugin,
} from "../../packages/plugins/inter-pod-affinity/src/index";
import { meanMs } from "./mean";

const NODES = 5000;
const hostname = "kubernetes.io/hostname";
const zone = "topology.kubernetes.io/zone";
const namespacesList = ["sched-1", "sched-0"];
const resources = { requests: { cpu: "100m", memory: "500Mi" }, limits: { cpu: "100m", memory: "500Mi" } };

function pod(name: string, ns: string, color: string | null, affinity: Affinity | undefined): Pod {
  return {
    metadata: { name, namespace: ns, uid: `${ns}/${name}`, ...(color ? { labels: { color } } : {}) },
    spec: {
      containers: [
        { name: "pause", image: "registry.k8s.io/pause:3.10.1", ports: [{ containerPort: 80 }], resources },
      ],
      ...(affinity ? { affinity } : {}),
    },
  };
}
const term = (color: string, topologyKey: string) => ({
  labelSelector: { matchLabels: { color } },
  topologyKey,
  namespaces: namespacesList,
});
const antiAffinityPod = (name: string, ns: string) =>
  pod(name, ns, "green", {
    podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term("green", hostname)] },
  });
const affinityPod = (name: string, ns: string) =>
  pod(name, ns, "blue", {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term("blue", zone)] },
  });
const preferredAffinityPod = (name: string, ns: string) =>
  pod(name, ns, "red", {
    podAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 1, podAffinityTerm: term("red", hostname) },
      ],
    },
  });
const preferredAntiAffinityPod = (name: string, ns: string) =>
  pod(name, ns, "yellow", {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 1, podAffinityTerm: term("yellow", hostname) },
      ],
    },
  });
const defaultPod = (name: string, ns: string) => pod(name, ns, null, undefined);

// 5000 base nodes (4 CPU, 32Gi, 110 pods), hostname label, all in zone1 (as SchedulingPodAffinity).
const nodeInfos: NodeInfo[] = [];
for (let i = 0; i < NODES; i++) {
  const node: Node = {
    metadata: { name: `scheduler-perf-${i}`, labels: { [hostname]: `scheduler-perf-${i}`, [zone]: "zone1" } },
    status: { allocatable: { cpu: "4", memory: "32Gi", pods: "110" } },
  };
  const ni = new NodeInfo();
  ni.setNode(node);
  nodeInfos.push(ni);
}
// 10000 existing pods in sched-0, two per node: 2000 required anti-affinity (one per node, as the
// anti-affinity workload places them), 2000 required affinity, 2000 preferred affinity, 2000
// preferred anti-affinity, 2000 pod-default.
const makers = [antiAffinityPod, affinityPod, preferredAffinityPod, preferredAntiAffinityPod, defaultPod];
for (let i = 0; i < 10000; i++) {
  const make = makers[Math.floor(i / 2000)]!;
  const nodeIndex = i < 2000 ? i : (i * 7919) % NODES;
  nodeInfos[nodeIndex]!.addPod(make(`init-${i}`, "sched-0"));
}

const lister: NodeInfoLister = {
  list: () => nodeInfos,
  havePodsWithAffinityList: () => nodeInfos.filter((n) => n.podsWithAffinity.length > 0),
  havePodsWithRequiredAntiAffinityList: () =>
    nodeInfos.filter((n) => n.podsWithRequiredAntiAffinity.length > 0),
  get: (name) => nodeInfos.find((n) => n.nodeName === name),
};
// As the snapshot does, the affinity lists are computed when the snapshot changes, not per call.
let withAffinity = lister.havePodsWithAffinityList();
let withAntiAffinity = lister.havePodsWithRequiredAntiAffinityList();
const snapshotLister: NodeInfoLister = {
  ...lister,
  havePodsWithAffinityList: () => withAffinity,
  havePodsWithRequiredAntiAffinityList: () => withAntiAffinity,
};
const namespaces: Namespace[] = namespacesList.map((name) => ({ metadata: { name } }));
const handle = {
  snapshotSharedLister: () => ({
    nodeInfos: () => snapshotLister,
    storageInfos: () => ({ isPVCUsedByPods: () => false }),
  }),
  listers: () => ({
    namespaces: {
      list: () => namespaces,
      get: (n: string) => namespaces.find((x) => x.metadata?.name === n),
    },
  }),
  features: () => defaultFeatures,
} as unknown as Handle;
const { args } = interPodAffinityPlugin.args!.decode(undefined, "", defaultFeatures);
const plugins = {
  memo: new InterPodAffinity(args, handle),
  full: new InterPodAffinity(args, handle, { memo: false }),
};

// Between cycles one node changes (the pod bound by the previous cycle), alternating add/remove.
const churnPod = new PodInfo(defaultPod("churn", "sched-1"));
let churnNode: NodeInfo | null = null;
let churnIndex = 0;
function churn(): void {
  if (churnNode) {
    churnNode.removePod(churnPod.pod);
    churnNode = null;
  } else {
    churnIndex += 7;
    churnNode = nodeInfos[churnIndex % NODES]!;
    churnNode.addPodInfo(churnPod);
  }
}

let sink = 0;
const scores: NodeScore[] = nodeInfos.map((n) => ({ name: n.nodeName, score: 0 }));

function filterCycle(pl: InterPodAffinity, incoming: Pod): void {
  churn();
  const state = new CycleState();
  const pre = pl.preFilter(state, incoming, nodeInfos);
  if (pre !== null) return;
  for (let i = 0; i < NODES; i++) if (pl.filter(state, incoming, nodeInfos[i]!) === null) sink++;
}

function scoreCycle(pl: InterPodAffinity, incoming: Pod): void {
  churn();
  const state = new CycleState();
  if (pl.preScore(state, incoming, nodeInfos) !== null) return;
  for (let i = 0; i < NODES; i++) {
    const s = pl.score(state, incoming, nodeInfos[i]!);
    scores[i]!.score = typeof s === "number" ? s : 0;
  }
  pl.normalizeScore(state, incoming, scores);
  sink += scores[0]!.score;
}

const bench = new Bench({ time: 1500, warmupTime: 300 });
const cases: [string, (pl: InterPodAffinity) => void][] = [
  ["PreFilter+Filter pod-with-pod-anti-affinity", (pl) => filterCycle(pl, antiAffinityPod("m", "sched-1"))],
  ["PreFilter+Filter pod-with-pod-affinity", (pl) => filterCycle(pl, affinityPod("m", "sched-1"))],
  [
    "PreFilter+Filter pod-with-pod-anti-affinity-label (symmetry)",
    (pl) => filterCycle(pl, pod("m", "sched-1", "green", undefined)),
  ],
  [
    "PreScore+Score pod-with-preferred-pod-affinity",
    (pl) => scoreCycle(pl, preferredAffinityPod("m", "sched-1")),
  ],
  [
    "PreScore+Score pod-with-preferred-pod-anti-affinity",
    (pl) => scoreCycle(pl, preferredAntiAffinityPod("m", "sched-1")),
  ],
  ["PreScore+Score pod-default (existing pods' terms)", (pl) => scoreCycle(pl, defaultPod("m", "sched-1"))],
];
for (const [name, fn] of cases) {
  for (const mode of ["memo", "full"] as const) {
    const pl = plugins[mode];
    bench.add(`${name} [${mode}]`, () => fn(pl));
  }
}
// The affinity lists only change when an affinity pod moves; churn uses a pod without affinity.
withAffinity = lister.havePodsWithAffinityList();
withAntiAffinity = lister.havePodsWithRequiredAntiAffinityList();

await bench.run();
const rows = bench.tasks.map((t) => {
  const mean = meanMs(t);
  return {
    task: t.name,
    "µs/cycle": Number((mean * 1000).toFixed(1)),
    "ns/node": Number(((mean * 1e6) / NODES).toFixed(1)),
  };
});
console.table(rows);
console.log(`nodes=${NODES} existingPods=10000 (sink ${sink > 0})`);
