// Micro-benchmark: NodeResourcesBalancedAllocation Score over 5000 nodes (ns/node).
// Run: npx tsx bench/micro/node-resources-balanced-allocation.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Node, Pod } from "@kubesched/api";
import { CycleState, defaultFeatures, NodeInfo } from "@kubesched/framework";
import { Bench } from "tinybench";
import {
  NodeResourcesBalancedAllocation,
  nodeResourcesBalancedAllocationPlugin,
} from "../../packages/plugins/node-resources-balanced-allocation/src/index";
import { meanMs } from "./mean";

const NODES = 5000;
const PODS_PER_NODE = 10;

function pod(name: string, cpu: string, memory: string, nodeName?: string): Pod {
  return {
    metadata: { name, namespace: "default", uid: name },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: "c", image: "pause", resources: { requests: { cpu, memory } } }],
    },
  };
}

const nodeInfos: NodeInfo[] = [];
for (let i = 0; i < NODES; i++) {
  const name = `node-${i}`;
  const node: Node = {
    metadata: { name },
    status: { allocatable: { cpu: "32", memory: "128Gi", pods: "110", "nvidia.com/gpu": "8" } },
  };
  const ni = new NodeInfo();
  ni.setNode(node);
  for (let j = 0; j < PODS_PER_NODE; j++)
    ni.addPod(pod(`${name}-p${j}`, `${100 + ((i + j) % 7) * 100}m`, `${1 + (j % 3)}Gi`, name));
  nodeInfos.push(ni);
}

const incoming = pod("incoming", "500m", "1Gi");
let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
for (const [label, raw] of [
  ["cpu+memory", undefined],
  [
    "cpu+memory+gpu (3 resources)",
    { resources: [{ name: "cpu" }, { name: "memory" }, { name: "nvidia.com/gpu" }] },
  ],
] as const) {
  const pl = new NodeResourcesBalancedAllocation(
    nodeResourcesBalancedAllocationPlugin.args!.decode(raw, "", defaultFeatures).args,
    defaultFeatures,
  );
  const p =
    label === "cpu+memory"
      ? incoming
      : {
          ...incoming,
          spec: { containers: [{ name: "c", resources: { requests: { cpu: "1", "nvidia.com/gpu": "1" } } }] },
        };
  const state = new CycleState();
  pl.preScore(state, p, nodeInfos);
  bench.add(`NodeResourcesBalancedAllocation.score ${label} x${NODES} nodes`, () => {
    for (let i = 0; i < NODES; i++) sink += pl.score(state, p, nodeInfos[i]!) as number;
  });
}

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(72)} ${((mean * 1e6) / NODES).toFixed(1)} ns/node`);
}
if (sink < 0) console.log(sink);
