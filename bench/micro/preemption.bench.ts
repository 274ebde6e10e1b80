// Micro-benchmark: DefaultPreemption's dry run and candidate selection for one preemptor on
// PreemptionAsync/5000Nodes' cluster (upstream scheduler_perf misc: 5000 base nodes, each with
// four 900m low-priority pods, some with pod-default pods beside them; a 3-CPU priority-10
// preemptor that fits nowhere), through the default profile's runtime: findCandidates (500
// candidate nodes: minCandidateNodesPercentage 10 % of 5000) and selectCandidate, the work
// PostFilter does before the API calls (µs per preemptor). The decisions of a fixed sequence of
// offsets are printed as a digest, to compare two builds before their times are.
// Run: npx tsx bench/micro/preemption.bench.ts
import { createHash } from "node:crypto";
import type { Node, Pod } from "@kubesched/api";
import { newSnapshot } from "@kubesched/cache";
import { Code, CycleState, Diagnosis } from "@kubesched/framework";
import { type DefaultPreemption, defaultPreemptionPlugin } from "@kubesched/plugin-default-preemption";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod } from "@kubesched/testing";
import { Bench } from "tinybench";
import { defaultFramework } from "./default-framework";
import { meanMs } from "./mean";

const NODES = 5000;

const nodes: Node[] = [];
const pods: Pod[] = [];
for (let i = 0; i < NODES; i++) {
  const name = `node-${i}`;
  nodes.push(
    makeNode()
      .name(name)
      .label("kubernetes.io/hostname", name)
      .capacity({ cpu: "4", memory: "32Gi", pods: "110" })
      .obj(),
  );
  for (let j = 0; j < 4; j++) {
    const p = makePod()
      .name(`${name}-low-${j}`)
      .uid(`${name}-low-${j}`)
      .namespace("namespace-1")
      .node(name)
      .container("registry.k8s.io/pause:3.10.1")
      .req({ cpu: "900m", memory: "500Mi" });
    // Some started (in a few distinct seconds), some not yet: both start-time paths.
    if ((i + j) % 3 !== 0) p.startTime(new Date(Date.UTC(2026, 0, 1, 0, 0, (i * 7 + j) % 50)));
    pods.push(p.obj());
  }
  for (let j = 0; j < i % 5; j++) {
    pods.push(
      makePod()
        .name(`${name}-default-${j}`)
        .uid(`${name}-default-${j}`)
        .namespace("namespace-3")
        .node(name)
        .container("registry.k8s.io/pause:3.10.1")
        .req({ cpu: "100m", memory: "500Mi" })
        .obj(),
    );
  }
}
const snapshot = newSnapshot(pods, nodes);
const preemptor = makePod()
  .name("preemptor")
  .uid("preemptor")
  .namespace("namespace-2")
  .priority(10)
  .container("registry.k8s.io/pause:3.10.1")
  .req({ cpu: "3000m", memory: "500Mi" })
  .obj();

const fwk = await defaultFramework(inTreeRegistry, nodes, [...pods, preemptor], snapshot);
const plugin = (await defaultPreemptionPlugin.factory(
  { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
  fwk,
)) as DefaultPreemption;

// The scheduling cycle before PostFilter: every node rejects the preemptor (Insufficient cpu).
const state = new CycleState();
const pre = fwk.runPreFilterPlugins(state, preemptor);
if (pre.status !== null && !pre.status.isSuccess()) throw new Error(pre.status.message());
const diagnosis = new Diagnosis();
const { feasible, error } = fwk.runFilterPluginsOnNodes(
  state,
  preemptor,
  snapshot.nodeInfos().list(),
  0,
  NODES,
  diagnosis,
);
if (error) throw error;
if (feasible.length > 0) throw new Error("the preemptor fits without preemption");
const m = diagnosis.nodeToStatus;

/** One preemptor's dry run and selection: the chosen node and its victims. */
function preemptOnce(offset: number): string {
  const potential = m.nodesForStatusCode(snapshot.nodeInfos(), Code.Unschedulable);
  const numCandidates = plugin.calculateNumCandidates(potential.length);
  const dry = plugin.evaluator.dryRunPreemption(state, preemptor, potential, [], offset, numCandidates);
  if (dry.error) throw dry.error;
  const best = plugin.evaluator.selectCandidate(dry.candidates);
  if (!best) throw new Error("no candidate");
  return `${dry.candidates.length} ${best.name}: ${best.victims.pods.map((p) => p.metadata?.name).join(",")}`;
}

const hash = createHash("sha256");
for (let offset = 0; offset < NODES; offset += 97) hash.update(`${offset} ${preemptOnce(offset)}\n`);
console.log(`decisions (52 offsets): ${preemptOnce(0)} … digest ${hash.digest("hex").slice(0, 16)}`);

let offset = 0;
let sink = 0;
const bench = new Bench({ time: 3000, warmupTime: 500 });
bench.add("dry run over 500 of 5000 candidate nodes + selectCandidate", () => {
  offset = (offset + 1237) % NODES;
  sink += preemptOnce(offset).length;
});
await bench.run();
for (const t of bench.tasks)
  console.log(`${t.name.padEnd(72)} ${(meanMs(t) * 1000).toFixed(1).padStart(8)} µs`);
// On a shared machine the mean follows the load: the fastest of 40 runs and the CPU time per run
// (user + system of this process) move less with it.
let fastest = Number.POSITIVE_INFINITY;
const cpu0 = process.cpuUsage();
for (let i = 0; i < 40; i++) {
  offset = (offset + 1237) % NODES;
  const t0 = performance.now();
  sink += preemptOnce(offset).length;
  fastest = Math.min(fastest, performance.now() - t0);
}
const cpu = process.cpuUsage(cpu0);
console.log(`${"  fastest of 40".padEnd(72)} ${(fastest * 1000).toFixed(1).padStart(8)} µs`);
console.log(
  `${"  CPU time per run (40 runs)".padEnd(72)} ${((cpu.user + cpu.system) / 40).toFixed(1).padStart(8)} µs`,
);
if (sink < 0) console.log(sink);
