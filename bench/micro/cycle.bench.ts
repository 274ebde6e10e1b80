// Micro-benchmark: one scheduling cycle's Filter and Score through the runtime (the default
// profile, every default plugin, 5000 nodes with SchedulingBasic's pods), with the plugins' batch
// methods (over the snapshot's columns) and without them (withoutColumnar: node by node), from a
// rotating start as the scheduler runs them (µs per cycle). Both runtimes are checked to decide
// the same (feasible nodes, statuses, totals) before anything is timed.
// Run: npx tsx bench/micro/cycle.bench.ts
import type { Node, Pod } from "@kubesched/api";
import { newSnapshot } from "@kubesched/cache";
import { CycleState, Diagnosis, type NodeInfo, type Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import type { Framework } from "@kubesched/runtime";
import { makeNode, makePod, withoutColumnar } from "@kubesched/testing";
import { Bench } from "tinybench";
import { defaultFramework } from "./default-framework";
import { meanMs } from "./mean";

const NODES = 5000;
const NUM_TO_FIND = 500; // numFeasibleNodesToFind at 5000 nodes
const zones = ["zone1", "zone2", "zone3"];

const nodes: Node[] = [];
const pods: Pod[] = [];
for (let i = 0; i < NODES; i++) {
  const name = `node-${i}`;
  nodes.push(
    makeNode()
      .name(name)
      .label("kubernetes.io/hostname", name)
      .label("topology.kubernetes.io/zone", zones[i % 3] as string)
      .capacity({ cpu: "4", memory: "32Gi", pods: "110" })
      .obj(),
  );
  for (let j = 0; j < 2; j++) {
    pods.push(
      makePod()
        .name(`${name}-p${j}`)
        .namespace("sched-0")
        .node(name)
        .container("registry.k8s.io/pause:3.10.1")
        .req({ cpu: "100m", memory: "500Mi" })
        .obj(),
    );
  }
}
const snapshot = newSnapshot(pods, nodes);
const incoming = makePod()
  .name("incoming")
  .namespace("sched-1")
  .container("registry.k8s.io/pause:3.10.1")
  .req({ cpu: "100m", memory: "500Mi" })
  .obj();

const framework = (registry: Registry): Promise<Framework> =>
  defaultFramework(registry, nodes, pods, snapshot);

const batch = await framework(inTreeRegistry);
const perNode = await framework(withoutColumnar(inTreeRegistry));

function cycle(fwk: Framework, start: number): { feasible: NodeInfo[]; totals: number[]; rejected: number } {
  const state = new CycleState();
  const pre = fwk.runPreFilterPlugins(state, incoming);
  if (pre.status !== null) throw new Error(pre.status.message());
  const diagnosis = new Diagnosis();
  const all = snapshot.nodeInfos().list();
  const { feasible, error } = fwk.runFilterPluginsOnNodes(
    state,
    incoming,
    all,
    start,
    NUM_TO_FIND,
    diagnosis,
  );
  if (error) throw error;
  const ps = fwk.runPreScorePlugins(state, incoming, feasible);
  if (ps !== null && !ps.isSuccess()) throw new Error(ps.message());
  const out = fwk.runScorePluginsOnNodes(state, incoming, feasible);
  if (out.status !== null) throw new Error(out.status.message());
  return {
    feasible,
    totals: Array.from(out.totals.subarray(0, feasible.length)),
    rejected: diagnosis.nodeToStatus.size,
  };
}

for (let start = 0; start < NODES; start += 777) {
  const a = cycle(batch, start);
  const b = cycle(perNode, start);
  const same =
    a.feasible.length === b.feasible.length &&
    a.feasible.every((n, i) => n === b.feasible[i]) &&
    a.rejected === b.rejected &&
    a.totals.every((t, i) => t === b.totals[i]);
  if (!same) throw new Error(`batch and per-node cycles differ from start ${start}`);
}
console.log("verified: batch and per-node runtimes decide the same from 7 start indices");

let start = 0;
let sink = 0;
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench.add("cycle (PreFilter, Filter 500 of 5000, PreScore, Score), per node", () => {
  start = (start + 500) % NODES;
  sink += cycle(perNode, start).feasible.length;
});
bench.add("cycle (PreFilter, Filter 500 of 5000, PreScore, Score), batch", () => {
  start = (start + 500) % NODES;
  sink += cycle(batch, start).feasible.length;
});
await bench.run();
for (const t of bench.tasks)
  console.log(`${t.name.padEnd(72)} ${(meanMs(t) * 1000).toFixed(1).padStart(8)} µs`);
if (sink < 0) console.log(sink);
