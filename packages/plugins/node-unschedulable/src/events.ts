// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
// (EventsToRegister, isSchedulableAfterNodeChange, isSchedulableAfterPodTolerationChange)
import {
  type Node,
  type Pod,
  podUID,
  type Taint,
  TaintEffectNoSchedule,
  type TolerationOptions,
  tolerationsTolerateTaint,
} from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
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

/** upstream util.As: the event's objects, or a thrown TypeError (counted as Queue) when one is not an object. */
function asObjects<T>(kind: string, oldObj: unknown, newObj: unknown): [T | undefined, T] {
  for (const o of [newObj, oldObj]) {
    if (o !== undefined && o !== null && (typeof o !== "object" || Array.isArray(o))) {
      throw new TypeError(`expected ${kind}, but got ${Array.isArray(o) ? "array" : typeof o}`);
    }
  }
  return [(oldObj ?? undefined) as T | undefined, newObj as T];
}

/** Queue when a schedulable node was added, or a node turned from unschedulable to schedulable. */
export const isSchedulableAfterNodeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [originalNode, modifiedNode] = asObjects<Node>("*v1.Node", oldObj, newObj);
  const nowSchedulable = modifiedNode?.spec?.unschedulable !== true;
  const wasUnschedulable = originalNode === undefined || originalNode.spec?.unschedulable === true;
  return nowSchedulable && wasUnschedulable ? QueueingHint.Queue : QueueingHint.QueueSkip;
};

/** Queue when the rejected pod itself now tolerates the unschedulable taint. */
export function isSchedulableAfterPodTolerationChange(opts: TolerationOptions): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [, modifiedPod] = asObjects<Pod>("*v1.Pod", oldObj, newObj);
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
