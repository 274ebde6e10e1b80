// Micro-benchmark: SchedulingGates.preEnqueue over 5000 pods, ungated and gated (ns/pod).
// Run: npx tsx bench/micro/scheduling-gates.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Pod } from "@kubesched/api";
import { Bench } from "tinybench";
import { SchedulingGates } from "../../packages/plugins/scheduling-gates/src/index";
import { meanMs } from "./mean";

const N = 5000;
const ungated: Pod[] = [];
const gated: Pod[] = [];
for (let i = 0; i < N; i++) {
  ungated.push({ metadata: { name: `p${i}` }, spec: { containers: [] } });
  gated.push({
    metadata: { name: `g${i}` },
    spec: { containers: [], schedulingGates: [{ name: "example.com/quota" }] },
  });
}

const pl = new SchedulingGates({ enableSchedulingQueueHint: true });
let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench
  .add(`SchedulingGates.preEnqueue ungated x${N}`, () => {
    for (let i = 0; i < N; i++) if (pl.preEnqueue(ungated[i]!) === null) sink++;
  })
  .add(`SchedulingGates.preEnqueue gated x${N}`, () => {
    for (let i = 0; i < N; i++) if (pl.preEnqueue(gated[i]!) !== null) sink++;
  });

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(44)} ${((mean * 1e6) / N).toFixed(1)} ns/pod`);
}
if (sink < 0) console.log(sink);
