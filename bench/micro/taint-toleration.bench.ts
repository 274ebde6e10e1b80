// Micro-benchmark: TaintToleration Filter and Score over 5000 nodes (ns/node).
// Run: npx tsx bench/micro/taint-toleration.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Node, Pod, Taint } from "@kubesched/api";
import { CycleState, defaultFeatures, NodeInfo } from "@kubesched/framework";
import { Bench } from "tinybench";
import { TaintToleration } from "../../packages/plugins/taint-toleration/src/index";
import { meanMs } from "./mean";

const NODES = 5000;

function taintsFor(i: number): Taint[] {
  // A realistic mix: most nodes untainted, some dedicated pools, some soft preferences.
  const taints: Taint[] = [];
  if (i % 10 === 0) taints.push({ key: "dedicated", value: "gpu", effect: "NoSchedule" });
  if (i % 4 === 0) taints.push({ key: "spot", value: "true", effect: "PreferNoSchedule" });
  if (i % 7 === 0) taints.push({ key: "maintenance", value: "soon", effect: "PreferNoSchedule" });
  return taints;
}

const nodeInfos: NodeInfo[] = [];
for (let i = 0; i < NODES; i++) {
  const node: Node = {
    metadata: { name: `node-${i}`, labels: { "kubernetes.io/hostname": `node-${i}` } },
    spec: { taints: taintsFor(i) },
    status: { allocatable: { cpu: "4", memory: "32Gi", pods: "110" } },
  };
  const ni = new NodeInfo();
  ni.setNode(node);
  nodeInfos.push(ni);
}

const pod: Pod = {
  metadata: { name: "p", namespace: "default", uid: "p" },
  spec: {
    containers: [{ name: "c", image: "pause" }],
    tolerations: [
      { key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" },
      {
        key: "node.kubernetes.io/not-ready",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 300,
      },
      {
        key: "node.kubernetes.io/unreachable",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 300,
      },
      { key: "spot", operator: "Exists", effect: "PreferNoSchedule" },
    ],
  },
};

const pl = new TaintToleration(defaultFeatures);
const state = new CycleState();
pl.preScore(state, pod, nodeInfos);

let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench
  .add(`TaintToleration.filter x${NODES} nodes`, () => {
    for (let i = 0; i < NODES; i++) if (pl.filter(state, pod, nodeInfos[i]!) === null) sink++;
  })
  .add(`TaintToleration.score x${NODES} nodes`, () => {
    for (let i = 0; i < NODES; i++) sink += pl.score(state, pod, nodeInfos[i]!) as number;
  });

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(40)} ${((mean * 1e6) / NODES).toFixed(1)} ns/node`);
}
if (sink < 0) console.log(sink);
