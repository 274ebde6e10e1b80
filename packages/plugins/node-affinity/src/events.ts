// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
// (EventsToRegister, isSchedulableAfterNodeChange)
import { getRequiredNodeAffinity, type NodeSelectorMatcher } from "@kubesched/api";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  EventResource,
  NodeKind,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/**
 * Queue when a node was added that matches the pod's required affinity (and the added
 * affinity), or an update made a node match that did not before.
 */
export function isSchedulableAfterNodeChange(addedNodeSelector: NodeSelectorMatcher | null): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [originalNode, node] = as(oldObj, newObj, NodeKind);
    const modifiedNode = node!;
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
