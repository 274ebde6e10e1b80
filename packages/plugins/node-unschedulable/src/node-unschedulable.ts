// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
import { type Pod, type TolerationOptions, tolerationsTolerateTaint } from "@kubesched/api";
import {
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type Features,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  type NodeInfo,
  type SignPlugin,
  type SignPodResult,
  Status,
  TolerationsSignerName,
  tolerationsSigner,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnWindow } from "@kubesched/framework/columnar";
import { eventsToRegister, unschedulableTaint } from "./events";
import { ErrReasonUnschedulable } from "./reasons";

export const name = "NodeUnschedulable";

/**
 * Filters out nodes with spec.unschedulable (cordoned) unless the pod tolerates
 * `node.kubernetes.io/unschedulable:NoSchedule`.
 */
export class NodeUnschedulable
  implements FilterPlugin, ColumnarFilterPlugin, FilterDetailsPlugin, EnqueueExtensions, SignPlugin
{
  private readonly tolerationOptions: TolerationOptions;
  private readonly enableSchedulingQueueHint: boolean;

  constructor(features: Features) {
    this.tolerationOptions = {
      enableComparisonOperators: features.enableTaintTolerationComparisonOperators,
    };
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
  }

  name(): string {
    return name;
  }

  /** Feasibility depends on the pod's tolerations (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: TolerationsSignerName, value: tolerationsSigner(pod) }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint, this.tolerationOptions);
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    if (!nodeInfo.unschedulable) return null;
    if (tolerationsTolerateTaint(pod.spec?.tolerations, unschedulableTaint, this.tolerationOptions))
      return null;
    return new Status(Code.UnschedulableAndUnresolvable, ErrReasonUnschedulable);
  }

  /** Nodes that are not cordoned pass without a look at their NodeInfo (filter() decides the others). */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const unschedulable = columns.unschedulable;
    const infos = columns.nodeInfos;
    for (let k = 0; k < count; k++) {
      const idx = indices[k] as number;
      out[k] = unschedulable[idx] === 0 ? null : this.filter(state, pod, infos[idx] as NodeInfo);
    }
  }

  /** The node is cordoned (the only reason filter rejects). */
  filterDetails(): FilterDetail[] {
    return [{ kind: "Cordoned" }];
  }
}
