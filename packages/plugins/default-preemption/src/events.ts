// upstream: pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// (EventsToRegister, isPodSchedulableAfterPodDeletion)
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/**
 * Always QueueSkip: pods DefaultPreemption holds back are the ones whose preemption is still
 * running, and they also carry the plugins whose failure the preemption resolves; those plugins
 * decide when to requeue.
 */
export const isPodSchedulableAfterPodDeletion: QueueingHintFn = () => QueueingHint.QueueSkip;

/** Pod/Delete with a QueueSkip hint when SchedulerAsyncPreemption is on; nothing otherwise (upstream). */
export function eventsToRegister(enableAsyncPreemption: boolean): ClusterEventWithHint[] {
  if (!enableAsyncPreemption) return [];
  return [
    {
      event: { resource: EventResource.Pod, actionType: ActionType.Delete },
      queueingHintFn: isPodSchedulableAfterPodDeletion,
    },
  ];
}
