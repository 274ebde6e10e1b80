// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
// (EventsToRegister, isSchedulableAfterNodeChange, isSchedulableAfterPodTolerationChange)
import {
  podUID,
  type Taint,
  TaintEffectNoSchedule,
  type TolerationOptions,
  tolerationsTolerateTaint,
} from "@kubesched/api";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  EventResource,
  NodeKind,
  PodKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/** v1.TaintNodeUnschedulable: the taint `kubectl cordon` implies. */
export const TaintNodeUnschedulable = "node.kubernetes.io/unschedulable";

/** The taint a pod must tolerate to land on an unschedulable node. */
export const unschedulableTaint: Readonly<Taint> = Object.freeze({
  key: TaintNodeUnschedulable,
  effect: TaintEffectNoSchedule,
});

/** Queue when a schedulable node was added, or a node turned from unschedulable to schedulable. */
export const isSchedulableAfterNodeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [originalNode, modifiedNode] = as(oldObj, newObj, NodeKind);
  const nowSchedulable = modifiedNode?.spec?.unschedulable !== true;
  const wasUnschedulable = originalNode === undefined || originalNode.spec?.unschedulable === true;
  return nowSchedulable && wasUnschedulable ? QueueingHint.Queue : QueueingHint.QueueSkip;
};

/** Queue when the rejected pod itself now tolerates the unschedulable taint. */
export function isSchedulableAfterPodTolerationChange(opts: TolerationOptions): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [, modifiedPod] = as(oldObj, newObj, PodKind);
    // A rejected pod did not tolerate the taint before, so only the new tolerations matter.
    if (
      modifiedPod != null &&
      podUID(pod) === podUID(modifiedPod) &&
      tolerationsTolerateTaint(modifiedPod.spec?.tolerations, unschedulableTaint, opts)
    ) {
      return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  };
}

export function eventsToRegister(
  enableSchedulingQueueHint: boolean,
  opts: TolerationOptions,
): ClusterEventWithHint[] {
  if (!enableSchedulingQueueHint) {
    // upstream registers UpdateNodeLabel too, because preCheck may drop the Node/Add event (#109437).
    return [
      {
        event: {
          resource: EventResource.Node,
          actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
        },
        queueingHintFn: isSchedulableAfterNodeChange,
      },
    ];
  }
  return [
    // spec.unschedulable turning false is reported as UpdateNodeTaint.
    {
      event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeTaint },
      queueingHintFn: isSchedulableAfterNodeChange,
    },
    {
      event: { resource: EventResource.Pod, actionType: ActionType.UpdatePodToleration },
      queueingHintFn: isSchedulableAfterPodTolerationChange(opts),
    },
  ];
}
