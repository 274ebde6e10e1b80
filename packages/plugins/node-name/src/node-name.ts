// upstream: pkg/scheduler/framework/plugins/nodename/node_name.go
import type { Pod } from "@kubesched/api";
import {
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type NodeInfo,
  NodeNameSignerName,
  type SignPlugin,
  type SignPodResult,
  Status,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnWindow } from "@kubesched/framework/columnar";
import { eventsToRegister } from "./events";
import { ErrReason } from "./reasons";

export const name = "NodeName";

/** Whether the pod names no node or names this one (upstream Fits). */
export function fits(pod: Pod, nodeInfo: NodeInfo): boolean {
  const wanted = pod.spec?.nodeName;
  return !wanted || wanted === nodeInfo.nodeName;
}

/** Checks that a pod's spec.nodeName, when set, is the node. */
export class NodeName implements FilterPlugin, ColumnarFilterPlugin, EnqueueExtensions, SignPlugin {
  name(): string {
    return name;
  }

  /** Feasibility depends on spec.nodeName alone (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: NodeNameSignerName, value: pod.spec?.nodeName ?? "" }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister();
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    return fits(pod, nodeInfo) ? null : new Status(Code.UnschedulableAndUnresolvable, ErrReason);
  }

  /** Without spec.nodeName every node passes, without looking at any. */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    if (!pod.spec?.nodeName) {
      for (let k = 0; k < count; k++) out[k] = null;
      return;
    }
    const infos = columns.nodeInfos;
    for (let k = 0; k < count; k++) out[k] = this.filter(state, pod, infos[indices[k] as number] as NodeInfo);
  }
}
