// upstream: pkg/scheduler/backend/queue/scheduling_queue.go (QueueingHintFunction, QueueingHintMap)
// and pkg/scheduler/scheduler.go (buildQueueingHintMap)
import type { ClusterEvent, ClusterEventWithHint, QueueingHintFn } from "@kubesched/framework";

/** A plugin's hint function for one registered event. */
export interface QueueingHintFunction {
  pluginName: string;
  /** Absent: always Queue. */
  queueingHintFn: QueueingHintFn | undefined;
}

/** Registered event → the plugins' hint functions, in registration order. */
export type QueueingHintMap = Array<{ event: ClusterEvent; hints: QueueingHintFunction[] }>;

/** Profile (schedulerName) → its QueueingHintMap. */
export type QueueingHintMapPerProfile = Map<string, QueueingHintMap>;

function sameEvent(a: ClusterEvent, b: ClusterEvent): boolean {
  return a.resource === b.resource && a.actionType === b.actionType && a.customLabel === b.customLabel;
}

/**
 * Builds one profile's QueueingHintMap from its plugins' EnqueueExtensions.eventsToRegister().
 * Upstream also registers the wildcard event for enabled plugins that do not implement
 * EnqueueExtensions; pass `{ pluginName, events: [{ event: { resource: "*", actionType: ActionType.All } }] }`
 * for those.
 */
export function buildQueueingHintMap(
  exts: ReadonlyArray<{ pluginName: string; events: readonly ClusterEventWithHint[] }>,
): QueueingHintMap {
  const m: QueueingHintMap = [];
  for (const { pluginName, events } of exts) {
    for (const { event, queueingHintFn } of events) {
      let entry = m.find((e) => sameEvent(e.event, event));
      if (!entry) {
        entry = { event, hints: [] };
        m.push(entry);
      }
      entry.hints.push({ pluginName, queueingHintFn });
    }
  }
  return m;
}
