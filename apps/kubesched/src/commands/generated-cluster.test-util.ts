// A generated cluster for the CLI's scale tests: N identical nodes in 10 zones, written as one
// JSON List (what `kubectl get nodes -o json` emits), plus a few pending pods.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeGeneratedCluster(dir: string, nodes: number, pendingPods: number): string {
  const items: unknown[] = [];
  for (let i = 0; i < nodes; i++) {
    const name = `node-${String(i).padStart(5, "0")}`;
    items.push({
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name,
        labels: { "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": `zone-${i % 10}` },
      },
      status: { allocatable: { cpu: "4", memory: "16Gi", pods: "110" } },
    });
  }
  for (let i = 0; i < pendingPods; i++) {
    items.push({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: `pending-${i}`, namespace: "default", labels: { app: "pending" } },
      spec: { containers: [{ name: "c", image: "x", resources: { requests: { cpu: "1", memory: "1Gi" } } }] },
    });
  }
  const file = join(dir, `generated-${nodes}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: "v1", kind: "List", items }));
  return file;
}
