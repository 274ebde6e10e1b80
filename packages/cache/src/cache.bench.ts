// UpdateSnapshot must cost O(changed nodes): with 5000 nodes and one node changing between
// snapshots, an update copies one NodeInfo. Run: npx vitest bench --run --project @kubesched/cache
import type { Node, Pod } from "@kubesched/api";
import { bench, describe } from "vitest";
import { newCache } from "./cache";
import type { Cache } from "./interface";
import { Snapshot } from "./snapshot";

const numNodes = 5000;
const podsPerNode = 10;

function node(i: number): Node {
  return {
    metadata: {
      name: `node-${i}`,
      labels: { "topology.kubernetes.io/zone": `zone-${i % 3}`, "kubernetes.io/hostname": `node-${i}` },
    },
    status: { allocatable: { cpu: "32", memory: "128Gi", pods: "110" } },
  };
}

function pod(nodeName: string, j: number): Pod {
  return {
    metadata: { name: `${nodeName}-pod-${j}`, namespace: "default", uid: `${nodeName}-pod-${j}` },
    spec: {
      nodeName,
      containers: [{ name: "c", image: "pause", resources: { requests: { cpu: "100m", memory: "128Mi" } } }],
    },
  };
}

function setup(): { cache: Cache; snapshot: Snapshot } {
  const cache = newCache();
  for (let i = 0; i < numNodes; i++) {
    const n = node(i);
    cache.addNode(n);
    for (let j = 0; j < podsPerNode; j++) cache.addPod(pod(n.metadata!.name!, j));
  }
  const snapshot = new Snapshot();
  cache.updateSnapshot(snapshot);
  return { cache, snapshot };
}

describe(`UpdateSnapshot, ${numNodes} nodes × ${podsPerNode} pods`, () => {
  const incremental = setup();
  let k = 0;
  bench("1 node changed per update (assume a pod, then snapshot)", () => {
    const name = `node-${k % numNodes}`;
    incremental.cache.assumePod(pod(name, 1000 + k));
    incremental.cache.updateSnapshot(incremental.snapshot);
    k++;
  });

  const full = setup();
  bench("fresh snapshot (every node copied)", () => {
    full.cache.updateSnapshot(new Snapshot());
  });
});
