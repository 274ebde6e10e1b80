// upstream: pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go
// (EventsToRegister, isSchedulableAfterNodeChange, isSchedulableAfterTargetPodUpdate)
import type { Node, Pod } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { type DeclaredFeature, inferForPodScheduling } from "./features";
import type { Version } from "./version";

/** upstream util.As: the event's objects, or a thrown TypeError (counted as Queue) when one is not an object. */
function asObjects<T>(kind: string, oldObj: unknown, newObj: unknown): [T | undefined, T | undefined] {
  for (const o of [newObj, oldObj]) {
    if (o !== undefined && o !== null && (typeof o !== "object" || Array.isArray(o))) {
      throw new TypeError(`expected ${kind}, but got ${Array.isArray(o) ? "array" : typeof o}`);
    }
  }
  return [(oldObj ?? undefined) as T | undefined, (newObj ?? undefined) as T | undefined];
}

function stringSlicesEqual(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Queue for a new node, or when a node's status.declaredFeatures changed (order-sensitive, as slices.Equal). */
export const isSchedulableAfterNodeChange: QueueingHintFn = (_pod, oldObj, newObj) => {
  const [oldNode, newNode] = asObjects<Node>("*v1.Node", oldObj, newObj);
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
    const [oldPod, newPod] = asObjects<Pod>("*v1.Pod", oldObj, newObj);
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
