// SchedulingBasic/5000Nodes_10000Pods (misc/performance-config.yaml) as a cluster snapshot a
// user would hand to `kubesched simulate --cluster` / `kubesched why --cluster`: upstream's
// node-default nodes, the init pods running on them (round-robin), the measured pods pending, one
// `kind: List` JSON document written a few hundred objects at a time (no whole file in memory).
import { closeSync, openSync, writeSync } from "node:fs";
import { makeNode, makePod } from "./templates";

export interface SchedulingBasicSnapshotOptions {
  nodes: number;
  /** Running pods, placed round-robin on the nodes (the workload's init pods). */
  initPods: number;
  /** Pending pods (the workload's measured pods). */
  pendingPods: number;
  /**
   * One more pending pod, `namespace-2/too-big`, last: pod-default asking for 9 CPU, more than a
   * node's 4 (the Unschedulable workload's churn pod): the pod `kubesched why` is asked about.
   */
  tooBig?: boolean;
}

/** The workload's size: 5000 nodes, 1000 init pods, 10000 measured pods. */
export const schedulingBasic5000: SchedulingBasicSnapshotOptions = {
  nodes: 5000,
  initPods: 1000,
  pendingPods: 10_000,
};

/**
 * Writes the snapshot to `file`; returns the node names and the pending pods' keys
 * (namespace/name), in file order.
 */
export function writeSchedulingBasicSnapshot(
  file: string,
  o: SchedulingBasicSnapshotOptions,
): { nodes: string[]; pending: string[] } {
  const fd = openSync(file, "w");
  let buf: string[] = [];
  let first = true;
  const put = (obj: unknown) => {
    buf.push((first ? "" : ",\n") + JSON.stringify(obj));
    first = false;
    if (buf.length >= 500) {
      writeSync(fd, buf.join(""));
      buf = [];
    }
  };
  writeSync(fd, '{"apiVersion":"v1","kind":"List","items":[\n');
  const nodes: string[] = [];
  for (let i = 0; i < o.nodes; i++) {
    const n = makeNode();
    nodes.push(n.metadata?.name ?? "");
    put(n);
  }
  for (let i = 0; i < o.initPods; i++) {
    const p = makePod("pod-default", "namespace-1");
    const nodeName = nodes[i % nodes.length] ?? "";
    put({ ...p, spec: { ...p.spec, nodeName }, status: { phase: "Running" } });
  }
  const pending: string[] = [];
  for (let i = 0; i < o.pendingPods; i++) {
    const p = makePod("pod-default", "namespace-2");
    pending.push(`namespace-2/${p.metadata?.name ?? ""}`);
    put(p);
  }
  if (o.tooBig) {
    const p = makePod("pod-default", "namespace-2");
    const containers = (p.spec?.containers ?? []).map((c) => ({
      ...c,
      resources: { requests: { cpu: "9", memory: "500Mi" } },
    }));
    pending.push("namespace-2/too-big");
    put({
      ...p,
      metadata: { ...p.metadata, name: "too-big", uid: "namespace-2/too-big" },
      spec: { ...p.spec, containers },
    });
  }
  writeSync(fd, `${buf.join("")}\n]}\n`);
  closeSync(fd);
  return { nodes, pending };
}
