// Micro-benchmark: ImageLocality Score over 5000 nodes (ns/node).
// Run: npx tsx bench/micro/image-locality.bench.ts
// (imports the plugin by path: the workspace root does not depend on individual plugin packages)
import type { Node, Pod } from "@kubesched/api";
import { CycleState, type Handle, NodeInfo } from "@kubesched/framework";
import { Bench } from "tinybench";
import { ImageLocality } from "../../packages/plugins/image-locality/src/index";
import { meanMs } from "./mean";

const NODES = 5000;
const mb = 1024 * 1024;
const images = ["nginx:1.27", "redis:7", "postgres:16", "envoy:1.30", "app:latest", "sidecar:v2"];

const nodeInfos: NodeInfo[] = [];
for (let i = 0; i < NODES; i++) {
  const node: Node = { metadata: { name: `node-${i}` }, status: { allocatable: { cpu: "4", pods: "110" } } };
  const ni = new NodeInfo();
  ni.setNode(node);
  // Each node has ~half of the images, as the cache's image states would say.
  images.forEach((img, k) => {
    if ((i + k) % 2 === 0) ni.imageStates.set(img, { size: (50 + 100 * k) * mb, numNodes: NODES / 2 });
  });
  nodeInfos.push(ni);
}

// A snapshot lister like the cache's: stable objects, list() returns the same array.
const lister = { list: () => nodeInfos };
const shared = { nodeInfos: () => lister };
const handle = { snapshotSharedLister: () => shared } as unknown as Handle;
const pod: Pod = {
  metadata: { name: "p", namespace: "default", uid: "p" },
  spec: {
    initContainers: [{ name: "init", image: "sidecar:v2" }],
    containers: [
      { name: "a", image: "app" },
      { name: "b", image: "envoy:1.30" },
    ],
  },
};

const pl = new ImageLocality(handle);
const state = new CycleState();
let sink = 0;
const bench = new Bench({ time: 1000, warmupTime: 200 });
bench.add(`ImageLocality.score x${NODES} nodes`, () => {
  for (let i = 0; i < NODES; i++) sink += pl.score(state, pod, nodeInfos[i]!) as number;
});

await bench.run();
for (const t of bench.tasks) {
  const mean = meanMs(t);
  console.log(`${t.name.padEnd(40)} ${((mean * 1e6) / NODES).toFixed(1)} ns/node`);
}
if (sink < 0) console.log(sink);
