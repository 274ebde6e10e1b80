// Micro-benchmark: NodeAffinity Filter and Score over 5000 nodes (ns/node).
// Run: npx tsx bench/micro/node-affinity.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Node, Pod } from "@kubesched/api";
import { CycleState, defaultFeatures, NodeInfo } from "@kubesched/framework";
import { Bench } from "tinybench";
import { NodeAffinity } from "../../packages/plugins/node-affinity/src/index";
import { meanMs } from "./mean";

const NODES = 5000;
const zones = ["us-east-1a", "us-east-1b", "us-east-1c"];
const instanceTypes = ["m5.xlarge", "m5.2xlarge", "c5.4xlarge", "r5.large"];

const nodeInfos: NodeInfo[] = [];
for (let i = 0; i < NODES; i++) {
  const node: Node = {
    metadata: {
      name: `node-${i}`,
      labels: {
        "kubernetes.io/arch": i % 5 === 0 ? "arm64" : "amd64",
        "kubernetes.io/os": "linux",
        "kubernetes.io/hostname": `node-${i}`,
        "topology.kubernetes.io/zone": zones[i % zones.length]!,
        "node.kubernetes.io/instance-type": instanceTypes[i % instanceTypes.length]!,
        pool: i % 3 === 0 ? "batch" : "web",
      },
    },
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
    nodeSelector: { "kubernetes.io/os": "linux" },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
                { key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a", "us-east-1b"] },
              ],
            },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 50,
            preference: { matchExpressions: [{ key: "pool", operator: "In", values: ["web"] }] },
          },
          {
            weight: 10,
            preference: {
              matchExpressions: [
                { key: "node.kubernetes.io/instance-type", operator: "NotIn", values: ["r5.large"] },
              ],
            },
          },
        ],
      },
    },
  },
};

const pl = new NodeAffinity({}, defaultFeatures);
const state = new CycleState();
pl.preFilter(state, pod, nodeInfos);
pl.preScore(state, pod, nodeInfos);

let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench
  .add(`NodeAffinity.filter x${NODES} nodes`, () => {
    for (let i = 0; i < NODES; i++) if (pl.filter(state, pod, nodeInfos[i]!) === null) sink++;
  })
  .add(`NodeAffinity.score x${NODES} nodes`, () => {
    for (let i = 0; i < NODES; i++) sink += pl.score(state, pod, nodeInfos[i]!) as number;
  });

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(40)} ${((mean * 1e6) / NODES).toFixed(1)} ns/node`);
}
if (sink < 0) console.log(sink);
