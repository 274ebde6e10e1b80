// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (EventsToRegister,
// isSchedulableAfterClaimChange, isSchedulableAfterPodChange)
import { isDeepStrictEqual } from "node:util";
import type { Pod, ResourceClaim } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";

/** upstream foreachPodResourceClaim: throws when a claim of the pod is not usable yet. */
export type ForeachPodResourceClaim = (
  pod: Pod,
  cb?: (podClaimName: string, claim: ResourceClaim) => void,
) => void;

/** An object (a Kubernetes object), or absent when `absentOk`. */
function isObject(o: unknown, absentOk: boolean): boolean {
  return o === undefined || o === null ? absentOk : typeof o === "object";
}

/**
 * A claim was added or updated: queue when it is one of the pod's claims and its status changed
 * (or it was just created), or when any claim got deallocated (its devices are free again).
 */
export function isSchedulableAfterClaimChange(foreach: ForeachPodResourceClaim): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    // Not a claim: upstream returns an error, which queues the pod.
    if (!isObject(newObj, true) || !isObject(oldObj, true)) return QueueingHint.Queue;
    const original = oldObj as ResourceClaim | undefined;
    const modified = newObj as ResourceClaim | undefined;
    let usesClaim = false;
    try {
      foreach(pod, (_n, claim) => {
        if (claim.metadata?.uid === modified?.metadata?.uid) usesClaim = true;
      });
    } catch {
      // Not schedulable yet: some claim is still missing.
      return QueueingHint.QueueSkip;
    }
    if (original?.status?.allocation && !modified?.status?.allocation) return QueueingHint.Queue;
    if (!usesClaim) return QueueingHint.QueueSkip;
    if (!original) return QueueingHint.Queue;
    // The status is what the pod waits for (the driver adding a finalizer changes nothing).
    if (isDeepStrictEqual(original.status ?? {}, modified?.status ?? {})) return QueueingHint.QueueSkip;
    return QueueingHint.Queue;
  };
}

/** The pod itself was updated: queue when all its claims can now be found. */
export function isSchedulableAfterPodChange(foreach: ForeachPodResourceClaim): QueueingHintFn {
  return (pod, _oldObj, newObj) => {
    if (!isObject(newObj, false)) return QueueingHint.Queue;
    const modified = newObj as Pod;
    if (pod.metadata?.uid !== modified.metadata?.uid) return QueueingHint.QueueSkip;
    try {
      foreach(modified);
    } catch {
      return QueueingHint.QueueSkip;
    }
    return QueueingHint.Queue;
  };
}

/** The events that may make a pod DynamicResources rejected schedulable, with their hints. */
export function eventsToRegister(
  queueingHints: boolean,
  foreach: ForeachPodResourceClaim,
): ClusterEventWithHint[] {
  // With queueing hints the preCheck that could drop a Node/Add is gone: no UpdateNodeTaint needed.
  const nodeActionType = queueingHints
    ? ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeAllocatable
    : ActionType.Add |
      ActionType.UpdateNodeLabel |
      ActionType.UpdateNodeTaint |
      ActionType.UpdateNodeAllocatable;
  return [
    { event: { resource: EventResource.Node, actionType: nodeActionType } },
    // Allocation is tracked in ResourceClaims.
    {
      event: { resource: EventResource.ResourceClaim, actionType: ActionType.Add | ActionType.Update },
      queueingHintFn: isSchedulableAfterClaimChange(foreach),
    },
    // The generated claim's name lands in the pod's status.
    {
      event: { resource: EventResource.Pod, actionType: ActionType.UpdatePodGeneratedResourceClaim },
      queueingHintFn: isSchedulableAfterPodChange(foreach),
    },
    // A pod might be waiting for a class to get created or modified.
    { event: { resource: EventResource.DeviceClass, actionType: ActionType.Add | ActionType.Update } },
    // New or updated slices may bring devices.
    { event: { resource: EventResource.ResourceSlice, actionType: ActionType.Add | ActionType.Update } },
  ];
}
