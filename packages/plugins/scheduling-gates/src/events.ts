// upstream: pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go (EventsToRegister,
// isSchedulableAfterUpdatePodSchedulingGatesEliminated)
import { type Pod, podUID } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/** upstream util.As: the event's objects, or a thrown TypeError (counted as Queue) when one is not an object. */
function asObjects<T>(kind: string, oldObj: unknown, newObj: unknown): [T | undefined, T | undefined] {
  for (const o of [newObj, oldObj]) {
    if (o !== undefined && o !== null && (typeof o !== "object" || Array.isArray(o))) {
      throw new TypeError(`expected ${kind}, but got ${Array.isArray(o) ? "array" : typeof o}`);
    }
  }
  return [(oldObj ?? undefined) as T | undefined, (newObj ?? undefined) as T | undefined];
}

/** Queue when the event is the gated pod itself losing its last gate. */
export const isSchedulableAfterUpdatePodSchedulingGatesEliminated: QueueingHintFn = (pod, oldObj, newObj) => {
  const [, modifiedPod] = asObjects<Pod>("*v1.Pod", oldObj, newObj);
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
