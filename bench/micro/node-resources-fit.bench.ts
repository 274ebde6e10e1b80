// Micro-benchmark: NodeResourcesFit Filter and Score (each strategy) over 5000 nodes (ns/node).
// Run: npx tsx bench/micro/node-resources-fit.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Node, Pod } from "@kubesched/api";
import { CycleState, defaultFeatures, NodeInfo } from "@kubesched/framework";
import { Bench } from "tinybench";
import {
  NodeResourcesFit,
  nodeResourcesFitPlugin,
} from "../../packages/plugins/node-resources-fit/src/index";
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
    metadata: { name, labels: { "kubernetes.io/hostname": name } },
    status: { allocatable: { cpu: "32", memory: "128Gi", pods: "110", "ephemeral-storage": "100Gi" } },
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
for (const type of ["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"]) {
  const raw = {
    scoringStrategy: {
      type,
      ...(type === "RequestedToCapacityRatio"
        ? {
            requestedToCapacityRatio: {
              shape: [
                { utilization: 0, score: 0 },
                { utilization: 100, score: 10 },
              ],
            },
          }
        : {}),
    },
  };
  const pl = new NodeResourcesFit(
    nodeResourcesFitPlugin.args!.decode(raw, "", defaultFeatures).args,
    defaultFeatures,
  );
  const state = new CycleState();
  pl.preFilter(state, incoming, nodeInfos);
  pl.preScore(state, incoming, nodeInfos);
  if (type === "LeastAllocated") {
    bench.add(`NodeResourcesFit.filter x${NODES} nodes`, () => {
      for (let i = 0; i < NODES; i++) if (pl.filter(state, incoming, nodeInfos[i]!) === null) sink++;
    });
  }
  bench.add(`NodeResourcesFit.score ${type} x${NODES} nodes`, () => {
    for (let i = 0; i < NODES; i++) sink += pl.score(state, incoming, nodeInfos[i]!) as number;
  });
}

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(60)} ${((mean * 1e6) / NODES).toFixed(1)} ns/node`);
}
if (sink < 0) console.log(sink);
