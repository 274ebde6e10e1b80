// Micro-benchmark: PrioritySort.less over 5000 queued pods (ns/comparison).
// Run: npx tsx bench/micro/priority-sort.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import { PodInfo, type QueuedPodInfo } from "@kubesched/framework";
import { Bench } from "tinybench";
import { PrioritySort } from "../../packages/plugins/priority-sort/src/index";
import { meanMs } from "./mean";

const N = 5000;
const queued: QueuedPodInfo[] = [];
for (let i = 0; i < N; i++) {
  queued.push({
    podInfo: new PodInfo({ metadata: { name: `p${i}` }, spec: { containers: [], priority: i % 5 } }),
    timestamp: i,
    attempts: 0,
    unschedulableCount: 0,
    consecutiveErrorsCount: 0,
    initialAttemptTimestamp: null,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: "",
  });
}

const pl = new PrioritySort();
let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench.add(`PrioritySort.less x${N}`, () => {
  for (let i = 1; i < N; i++) if (pl.less(queued[i - 1]!, queued[i]!)) sink++;
});

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(40)} ${((mean * 1e6) / (N - 1)).toFixed(1)} ns/comparison`);
}
if (sink < 0) console.log(sink);
