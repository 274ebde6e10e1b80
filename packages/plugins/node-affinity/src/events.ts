// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
// (EventsToRegister, isSchedulableAfterNodeChange)
import { getRequiredNodeAffinity, type Node, type NodeSelectorMatcher } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/** upstream util.As: the event's objects, or a thrown TypeError (counted as Queue) when one is not an object. */
function asNodes(oldObj: unknown, newObj: unknown): [Node | undefined, Node] {
  for (const o of [newObj, oldObj]) {
    if (o !== undefined && o !== null && (typeof o !== "object" || Array.isArray(o))) {
      throw new TypeError(`expected *v1.Node, but got ${Array.isArray(o) ? "array" : typeof o}`);
    }
  }
  return [(oldObj ?? undefined) as Node | undefined, newObj as Node];
}

/**
 * Queue when a node was added that matches the pod's required affinity (and the added
 * affinity), or an update made a node match that did not before.
 */
export function isSchedulableAfterNodeChange(addedNodeSelector: NodeSelectorMatcher | null): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [originalNode, modifiedNode] = asNodes(oldObj, newObj);
    if (addedNodeSelector !== null && !addedNodeSelector.match(modifiedNode)) return QueueingHint.QueueSkip;
    const required = getRequiredNodeAffinity(pod);
    const now = required.matchWithError(modifiedNode);
    if (now.error) throw now.error;
    if (!now.match) return QueueingHint.QueueSkip;
    if (originalNode === undefined) return QueueingHint.Queue;
    const before = required.matchWithError(originalNode);
    if (before.error) throw before.error;
    return before.match ? QueueingHint.QueueSkip : QueueingHint.Queue;
  };
}

export function eventsToRegister(
  enableSchedulingQueueHint: boolean,
  addedNodeSelector: NodeSelectorMatcher | null,
): ClusterEventWithHint[] {
  // Without QueueingHints, preCheck may drop Node/Add, so taint updates are registered too (#109437).
  const actionType = enableSchedulingQueueHint
    ? ActionType.Add | ActionType.UpdateNodeLabel
    : ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint;
  return [
    {
      event: { resource: EventResource.Node, actionType },
      queueingHintFn: isSchedulableAfterNodeChange(addedNodeSelector),
    },
  ];
}
