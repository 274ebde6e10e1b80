// Micro-benchmark: each hot plugin's Filter and Score per node (filter()/score() on each NodeInfo)
// beside its columnar form (filterColumns()/scoreColumns() over the snapshot's columns), on windows of 500
// of 5000 nodes taken from a rotating start as a cycle takes them (ns/node). Before timing, each
// columnar form is checked against the per-node form on every window (statuses, reasons, scores,
// normalized scores): a benchmark of a wrong result would mean nothing.
// Run: npx tsx bench/micro/columnar.bench.ts
import type { Node, Pod } from "@kubesched/api";
import { nodeColumnsOf } from "@kubesched/cache";
import { CycleState, isStatus, type NodeInfo, type Plugin, type Status } from "@kubesched/framework";
import {
  type ColumnWindow,
  isColumnarFilterPlugin,
  isColumnarScorePlugin,
  type NodeColumns,
} from "@kubesched/framework/columnar";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import {
  checkFilterColumns,
  checkScoreColumns,
  createPluginHarness,
  makeLabelSelector,
  makeNode,
  makePod,
  type PluginHarness,
} from "@kubesched/testing";
import { Bench } from "tinybench";
import { meanMs } from "./mean";

const NODES = 5000;
const WINDOW = 500;
const PODS_PER_NODE = 4;
const zones = ["zone1", "zone2", "zone3"];

const nodes: Node[] = [];
const pods: Pod[] = [];
for (let i = 0; i < NODES; i++) {
  const name = `node-${i}`;
  const b = makeNode()
    .name(name)
    .label("kubernetes.io/hostname", name)
    .label("topology.kubernetes.io/zone", zones[i % zones.length] as string)
    .capacity({ cpu: "4", memory: "32Gi", pods: "110" });
  if (i % 10 === 0) b.taint({ key: "spot", value: "true", effect: "PreferNoSchedule" });
  if (i % 50 === 0) b.images({ "registry.k8s.io/pause:3.10.1": 700 * 1024 * 1024 });
  nodes.push(b.obj());
  for (let j = 0; j < PODS_PER_NODE; j++) {
    const color = (i + j) % 3 === 0 ? "blue" : "green";
    const p = makePod()
      .name(`${name}-p${j}`)
      .namespace("default")
      .label("color", color)
      .node(name)
      .container("registry.k8s.io/pause:3.10.1")
      .req({ cpu: "100m", memory: "500Mi" });
    if (j === 0 && i % 2 === 0) p.podAntiAffinityIn("color", "kubernetes.io/hostname", ["green"], "required");
    pods.push(p.obj());
  }
}

const incoming = makePod()
  .name("incoming")
  .namespace("default")
  .label("color", "blue")
  .container("registry.k8s.io/pause:3.10.1")
  .req({ cpu: "100m", memory: "500Mi" })
  .nodeAffinityIn("topology.kubernetes.io/zone", ["zone1", "zone2"])
  .nodeAffinity({
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        {
          matchExpressions: [
            { key: "topology.kubernetes.io/zone", operator: "In", values: ["zone1", "zone2"] },
          ],
        },
      ],
    },
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 5,
        preference: {
          matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["zone1"] }],
        },
      },
    ],
  })
  .spreadConstraint(
    5,
    "topology.kubernetes.io/zone",
    "DoNotSchedule",
    makeLabelSelector().label("color", "blue").obj(),
  )
  .spreadConstraint(
    1,
    "kubernetes.io/hostname",
    "ScheduleAnyway",
    makeLabelSelector().label("color", "blue").obj(),
  )
  .podAntiAffinityIn("color", "kubernetes.io/hostname", ["blue"], "required")
  .podAffinityIn("color", "topology.kubernetes.io/zone", ["blue"], "preferred")
  .obj();

interface Subject {
  label: string;
  h: PluginHarness;
  state: CycleState;
  cols: NodeColumns;
  infos: readonly NodeInfo[];
}

async function subject(name: string, label: string, args?: unknown): Promise<Subject> {
  const plugin = inTreeRegistry.get(name);
  if (!plugin) throw new Error(`no plugin ${name}`);
  const h = await createPluginHarness({ plugin, nodes, pods, ...(args !== undefined ? { args } : {}) });
  const state = new CycleState();
  h.runPreFilter(state, incoming);
  const infos = h.snapshot.nodeInfos().list();
  const p = h.plugin as Plugin & {
    preScore?: (s: CycleState, pod: Pod, n: readonly NodeInfo[]) => Status | null;
  };
  p.preScore?.(state, incoming, infos.slice(0, WINDOW));
  return { label, h, state, cols: nodeColumnsOf(infos), infos };
}

const subjects = [
  await subject("NodeResourcesFit", "NodeResourcesFit LeastAllocated"),
  await subject("NodeResourcesFit", "NodeResourcesFit MostAllocated", {
    scoringStrategy: { type: "MostAllocated" },
  }),
  await subject("NodeResourcesFit", "NodeResourcesFit RequestedToCapacityRatio", {
    scoringStrategy: {
      type: "RequestedToCapacityRatio",
      requestedToCapacityRatio: {
        shape: [
          { utilization: 0, score: 0 },
          { utilization: 100, score: 10 },
        ],
      },
    },
  }),
  await subject("NodeResourcesBalancedAllocation", "NodeResourcesBalancedAllocation"),
  await subject("TaintToleration", "TaintToleration"),
  await subject("NodeAffinity", "NodeAffinity"),
  await subject("ImageLocality", "ImageLocality"),
  await subject("PodTopologySpread", "PodTopologySpread"),
  await subject("InterPodAffinity", "InterPodAffinity"),
];

// Windows of WINDOW nodes from rotating starts (a prime stride, so windows differ).
const windows: Int32Array[] = [];
for (let w = 0; w < 16; w++) {
  const start = (w * 1777) % NODES;
  windows.push(Int32Array.from({ length: WINDOW }, (_, k) => (start + k) % NODES));
}

// Verify first: batch and per-node agree on every window.
for (const s of subjects) {
  for (const win of windows) {
    const infos = Array.from(win, (i) => s.infos[i] as NodeInfo);
    if (!s.state.skipFilterPlugins.has(s.h.plugin.name())) {
      checkFilterColumns(s.h.plugin, s.state, incoming, s.cols, infos);
    }
    checkScoreColumns(s.h.plugin, s.state, incoming, s.cols, infos);
  }
}
console.log(
  `verified: batch = per node for ${subjects.length} plugin configurations on ${windows.length} windows`,
);

let sink = 0;
let w = 0;
const out: (Status | null)[] = new Array(WINDOW).fill(null);
const scores = new Float64Array(WINDOW);
const bench = new Bench({ time: 500, warmupTime: 100 });
for (const s of subjects) {
  const pl = s.h.plugin;
  // The windows as the runtime hands them to a columnar method.
  const views: ColumnWindow[] = windows.map((indices) => ({ columns: s.cols, indices, count: WINDOW }));
  const filters = !s.state.skipFilterPlugins.has(pl.name());
  if (filters && isColumnarFilterPlugin(pl)) {
    bench.add(`${s.label} filter, per node`, () => {
      const win = windows[w++ & 15] as Int32Array;
      for (let k = 0; k < WINDOW; k++)
        if (pl.filter(s.state, incoming, s.infos[win[k] as number] as NodeInfo) === null) sink++;
    });
    bench.add(`${s.label} filter, batch`, () => {
      pl.filterColumns(s.state, incoming, views[w++ & 15] as ColumnWindow, out);
      if (out[0] === null) sink++;
    });
  }
  if (isColumnarScorePlugin(pl)) {
    bench.add(`${s.label} score, per node`, () => {
      const win = windows[w++ & 15] as Int32Array;
      for (let k = 0; k < WINDOW; k++) {
        const r = pl.score(s.state, incoming, s.infos[win[k] as number] as NodeInfo);
        if (!isStatus(r)) sink += r;
      }
    });
    bench.add(`${s.label} score, batch`, () => {
      pl.scoreColumns(s.state, incoming, views[w++ & 15] as ColumnWindow, scores);
      sink += scores[0] as number;
    });
  }
}

await bench.run();
for (const t of bench.tasks) {
  console.log(`${t.name.padEnd(64)} ${((meanMs(t) * 1e6) / WINDOW).toFixed(1).padStart(7)} ns/node`);
}
if (sink < 0) console.log(sink);
