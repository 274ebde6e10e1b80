// upstream: pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go
// (EventsToRegister, isSchedulableAfterNodeChange, isSchedulableAfterTargetPodUpdate)
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
import { type DeclaredFeature, inferForPodScheduling } from "./features";
import type { Version } from "./version";

function stringSlicesEqual(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Queue for a new node, or when a node's status.declaredFeatures changed (order-sensitive, as slices.Equal). */
export const isSchedulableAfterNodeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [oldNode, newNode] = as(oldObj, newObj, NodeKind);
  if (
    oldNode !== undefined &&
    stringSlicesEqual(oldNode.status?.declaredFeatures, newNode?.status?.declaredFeatures)
  ) {
    return QueueingHint.QueueSkip;
  }
  return QueueingHint.Queue;
};

/**
 * Queue when an update of the pod itself changed the features it requires. Inference errors
 * (no version) are thrown, which the queue counts as Queue.
 */
export function isSchedulableAfterTargetPodUpdate(
  registry: readonly DeclaredFeature[],
  version: Version | null,
): QueueingHintFn {
  return (_pod, oldObj, newObj) => {
    const [oldPod, newPod] = as(oldObj, newObj, PodKind);
    const oldReqs = inferForPodScheduling(registry, oldPod?.spec, version);
    const newReqs = inferForPodScheduling(registry, newPod?.spec, version);
    return stringSlicesEqual(oldReqs, newReqs) ? QueueingHint.QueueSkip : QueueingHint.Queue;
  };
}

/** Nothing when the plugin is disabled; otherwise node additions/feature changes and updates of the pod. */
export function eventsToRegister(
  enabled: boolean,
  registry: readonly DeclaredFeature[],
  version: Version | null,
): ClusterEventWithHint[] {
  if (!enabled) return [];
  return [
    {
      event: {
        resource: EventResource.Node,
        actionType: ActionType.Add | ActionType.UpdateNodeDeclaredFeature,
      },
      queueingHintFn: isSchedulableAfterNodeChange,
    },
    {
      event: { resource: EventResource.TargetPod, actionType: ActionType.Update },
      queueingHintFn: isSchedulableAfterTargetPodUpdate(registry, version),
    },
  ];
}
