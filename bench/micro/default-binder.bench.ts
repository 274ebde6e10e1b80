// Micro-benchmark: DefaultBinder.bind against a no-op client, 5000 binds (ns/bind: the plugin's
// own overhead around the client call).
// Run: npx tsx bench/micro/default-binder.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Pod } from "@kubesched/api";
import { CycleState, type Handle } from "@kubesched/framework";
import { Bench } from "tinybench";
import { DefaultBinder } from "../../packages/plugins/default-binder/src/index";
import { meanMs } from "./mean";

const N = 5000;
const pods: Pod[] = [];
for (let i = 0; i < N; i++)
  pods.push({ metadata: { name: `p${i}`, namespace: "default" }, spec: { containers: [] } });

const client = { bindPod: async () => {} };
const handle = { client: () => client } as unknown as Handle;
const pl = new DefaultBinder(handle);
const state = new CycleState();
let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench.add(`DefaultBinder.bind x${N}`, async () => {
  for (let i = 0; i < N; i++) if ((await pl.bind(state, pods[i]!, "node-1")) === null) sink++;
});

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(40)} ${((mean * 1e6) / N).toFixed(1)} ns/bind`);
}
if (sink < 0) console.log(sink);
