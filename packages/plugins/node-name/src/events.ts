// upstream: pkg/scheduler/framework/plugins/nodename/node_name.go (EventsToRegister)
import { ActionType, type ClusterEventWithHint, EventResource } from "@kubesched/framework";

/**
 * Only a new node can be the one the pod names. No hint: the pod is always retried (with
 * backoff) when a node is added, as upstream.
 */
export function eventsToRegister(): ClusterEventWithHint[] {
  return [{ event: { resource: EventResource.Node, actionType: ActionType.Add } }];
}
