// The ceiling: the least work SchedulingBasic/5000Nodes_10000Pods needs, with no framework.
// Same cluster (5000 nodes: 4 CPU, 32Gi, 110 pods; 1000 init pods, then 10000 measured
// pod-default pods of 100m / 500Mi), same sampling (numFeasibleNodesToFind = 500 feasible nodes
// per pod, searched from a rotating start index), resource fit on cpu/memory/pods, the
// LeastAllocated score (cpu and memory, weight 1 each), highest score wins (first on ties).
// Plain typed arrays, no objects per pod. Our engine's ratio to this number is what the
// framework, plugins, cache, queue and the in-memory API cost on top of the arithmetic.
//   node --import tsx bench/ceiling.ts [--out FILE] [--nodes N] [--init N] [--measured N]
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { numFeasibleNodesToFind } from "@kubesched/scheduler";

export interface CeilingResult {
  name: string;
  nodes: number;
  initPods: number;
  measuredPods: number;
  scheduled: number;
  durationMs: number;
  podsPerSecond: number;
  peakRssMB: number;
}

export function runCeiling(nodes: number, initPods: number, measuredPods: number): CeilingResult {
  const allocCpu = new Float64Array(nodes).fill(4000);
  const allocMem = new Float64Array(nodes).fill(32 * 2 ** 30);
  const allocPods = new Int32Array(nodes).fill(110);
  const reqCpu = new Float64Array(nodes);
  const reqMem = new Float64Array(nodes);
  const podCount = new Int32Array(nodes);
  const podCpu = 100;
  const podMem = 500 * 2 ** 20;
  const numToFind = numFeasibleNodesToFind(null, 0, nodes);
  const feasible = new Int32Array(numToFind);
  let next = 0;

  const scheduleOne = (): boolean => {
    let found = 0;
    let processed = 0;
    for (let i = 0; i < nodes && found < numToFind; i++) {
      const n = (next + i) % nodes;
      processed++;
      if (podCount[n]! + 1 > allocPods[n]!) continue;
      if (reqCpu[n]! + podCpu > allocCpu[n]!) continue;
      if (reqMem[n]! + podMem > allocMem[n]!) continue;
      feasible[found++] = n;
    }
    next = (next + processed) % nodes;
    if (found === 0) return false;
    let best = -1;
    let bestScore = -1;
    for (let k = 0; k < found; k++) {
      const n = feasible[k]!;
      const cpu = ((allocCpu[n]! - reqCpu[n]! - podCpu) * 100) / allocCpu[n]!;
      const mem = ((allocMem[n]! - reqMem[n]! - podMem) * 100) / allocMem[n]!;
      const score = Math.trunc((Math.trunc(cpu) + Math.trunc(mem)) / 2);
      if (score > bestScore) {
        bestScore = score;
        best = n;
      }
    }
    reqCpu[best] = reqCpu[best]! + podCpu;
    reqMem[best] = reqMem[best]! + podMem;
    podCount[best] = podCount[best]! + 1;
    return true;
  };

  for (let i = 0; i < initPods; i++) scheduleOne();
  let scheduled = 0;
  const t0 = performance.now();
  for (let i = 0; i < measuredPods; i++) if (scheduleOne()) scheduled++;
  const durationMs = performance.now() - t0;
  return {
    name: "Ceiling (SchedulingBasic/5000Nodes_10000Pods, bare loop)",
    nodes,
    initPods,
    measuredPods,
    scheduled,
    durationMs,
    podsPerSecond: scheduled / (durationMs / 1000),
    peakRssMB: Math.round(process.memoryUsage.rss() / 2 ** 20),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      nodes: { type: "string", default: "5000" },
      init: { type: "string", default: "1000" },
      measured: { type: "string", default: "10000" },
    },
  });
  const nodes = Number(values.nodes);
  const init = Number(values.init);
  const measured = Number(values.measured);
  // Warm the JIT the way a long scheduler_perf run would, then measure a fresh cluster.
  runCeiling(nodes, init, measured);
  const result = runCeiling(nodes, init, measured);
  const json = JSON.stringify(result, null, 2);
  if (values.out) writeFileSync(values.out, json);
  else console.log(json);
}
