// upstream: pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go (EventsToRegister,
// isSchedulableAfterUpdatePodSchedulingGatesEliminated)
import { podUID } from "@kubesched/api";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  EventResource,
  PodKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/** Queue when the event is the gated pod itself losing its last gate. */
export const isSchedulableAfterUpdatePodSchedulingGatesEliminated: QueueingHintFn = (pod, oldObj, newObj) => {
  const [, modifiedPod] = as(oldObj, newObj, PodKind);
  if (modifiedPod === undefined || podUID(modifiedPod) !== podUID(pod)) return QueueingHint.QueueSkip;
  return QueueingHint.Queue;
};

/**
 * With QueueingHints the queue reacts to gate removal only; without them it requeues on any
 * pod update, so nothing is registered (upstream returns nil).
 */
export function eventsToRegister(enableSchedulingQueueHint: boolean): ClusterEventWithHint[] {
  if (!enableSchedulingQueueHint) return [];
  return [
    {
      event: { resource: EventResource.Pod, actionType: ActionType.UpdatePodSchedulingGatesEliminated },
      queueingHintFn: isSchedulableAfterUpdatePodSchedulingGatesEliminated,
    },
  ];
}
