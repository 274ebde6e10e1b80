// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
// (EventsToRegister, isSchedulableAfterNodeChange, isSchedulableAfterPodTolerationChange)
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  podUID,
  type TolerationOptions,
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

/** Queue when the node went from having an untolerated NoSchedule/NoExecute taint to having none. */
export function isSchedulableAfterNodeChange(opts: TolerationOptions): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [originalNode, modifiedNode] = as(oldObj, newObj, NodeKind);
    const tolerations = pod.spec?.tolerations;
    const wasUntolerated =
      originalNode === undefined ||
      findMatchingUntoleratedTaint(
        originalNode.spec?.taints,
        tolerations,
        doNotScheduleTaintsFilter,
        opts,
      ) !== undefined;
    const isUntolerated =
      findMatchingUntoleratedTaint(
        modifiedNode?.spec?.taints,
        tolerations,
        doNotScheduleTaintsFilter,
        opts,
      ) !== undefined;
    return wasUntolerated && !isUntolerated ? QueueingHint.Queue : QueueingHint.QueueSkip;
  };
}

/** Queue when the updated pod is the rejected pod itself (it got new tolerations). */
export const isSchedulableAfterPodTolerationChange: QueueingHintFn = (pod, oldObj, newObj) => {
  const [, modifiedPod] = as(oldObj, newObj, PodKind);
  if (modifiedPod !== undefined && podUID(pod) === podUID(modifiedPod)) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
};

export function eventsToRegister(
  enableSchedulingQueueHint: boolean,
  opts: TolerationOptions,
): ClusterEventWithHint[] {
  const nodeChange = isSchedulableAfterNodeChange(opts);
  if (enableSchedulingQueueHint) {
    return [
      // Without preCheck (QueueingHints on), label updates never matter to this plugin.
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeTaint },
        queueingHintFn: nodeChange,
      },
      {
        event: { resource: EventResource.Pod, actionType: ActionType.UpdatePodToleration },
        queueingHintFn: isSchedulableAfterPodTolerationChange,
      },
    ];
  }
  return [
    // upstream registers UpdateNodeLabel too, because preCheck may drop the Node/Add event (#109437).
    {
      event: {
        resource: EventResource.Node,
        actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
      },
      queueingHintFn: nodeChange,
    },
  ];
}
