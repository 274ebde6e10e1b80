// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go (EventsToRegister,
// isSchedulableAfterPodEvent, isSchedulableAfterPodScaleDown, isSchedulableAfterNodeChange,
// isSchedulableAfterDeviceClassEvent)
import {
  isScalarResourceName,
  type Pod,
  type PodResourcesOptions,
  podRequests,
  podUID,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
} from "@kubesched/api";
import type { DeviceClassResolver } from "@kubesched/framework";
import {
  ActionType,
  as,
  type ClusterEventWithHint,
  EventResource,
  type Features,
  hintObjectKind,
  NodeKind,
  PodKind,
  QueueingHint,
  type QueueingHintFn,
  Resource,
} from "@kubesched/framework";
import { haveAnyRequestedResourcesIncreased, isFit, type ResourceRequestsOptions } from "./fits";

/** The gates the hints read. */
export interface FitEventOptions {
  enableInPlacePodVerticalScaling: boolean;
  enableInPlacePodLevelResourcesVerticalScaling: boolean;
  enablePodLevelResources: boolean;
  /** DRAExtendedResource: the DeviceClasses backing extended resources (the node hint's isFit). */
  deviceClassResolver?: DeviceClassResolver | null;
}

/** A DeviceClass as far as the hint needs it (resource.k8s.io/v1). */
interface DeviceClassLike {
  metadata?: { name?: string };
  spec?: { extendedResourceName?: string | null };
}

/** The implicit extended resource name of a device class (upstream resourceapi.ResourceDeviceClassPrefix). */
const ResourceDeviceClassPrefix = "deviceclass.resource.kubernetes.io/";

const DeviceClassKind = hintObjectKind<DeviceClassLike>("*v1.DeviceClass", "DeviceClass");

function maxRequest(pod: Pod, opts: PodResourcesOptions): Resource {
  const r = new Resource();
  for (const [name, v] of podRequests(pod, opts)) {
    switch (name) {
      case ResourceCPU:
        r.milliCPU = Math.max(r.milliCPU, v);
        break;
      case ResourceMemory:
        r.memory = Math.max(r.memory, v);
        break;
      case ResourceEphemeralStorage:
        r.ephemeralStorage = Math.max(r.ephemeralStorage, v);
        break;
      default:
        if (isScalarResourceName(name)) r.setScalar(name, Math.max(r.scalar(name), v));
    }
  }
  return r;
}

/**
 * Whether a scale-down may make the target schedulable: it is the target itself, or a
 * scheduled pod released some resource the target requests.
 */
function isSchedulableAfterPodScaleDown(
  target: Pod,
  original: Pod,
  modified: Pod,
  opts: FitEventOptions,
): boolean {
  if (podUID(modified) === podUID(target)) return true;
  if (!modified.spec?.nodeName) return false;
  const reqOpts: PodResourcesOptions = {
    useStatusResources: opts.enableInPlacePodVerticalScaling,
    inPlacePodLevelResourcesVerticalScaling: opts.enableInPlacePodLevelResourcesVerticalScaling,
  };
  const before = maxRequest(original, reqOpts);
  const after = maxRequest(modified, reqOpts);
  for (const [name, v] of podRequests(target, reqOpts)) {
    if (v === 0) continue;
    switch (name) {
      case ResourceCPU:
        if (before.milliCPU > after.milliCPU) return true;
        break;
      case ResourceMemory:
        if (before.memory > after.memory) return true;
        break;
      case ResourceEphemeralStorage:
        if (before.ephemeralStorage > after.ephemeralStorage) return true;
        break;
      default:
        if (isScalarResourceName(name) && before.scalar(name) > after.scalar(name)) return true;
    }
  }
  return false;
}

/** Queue on the deletion of a scheduled or nominated pod, or a scale-down that frees what the pod needs. */
export function isSchedulableAfterPodEvent(opts: FitEventOptions): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [original, modified] = as(oldObj, newObj, PodKind);
    if (modified === undefined) {
      if (!original?.spec?.nodeName && !original?.status?.nominatedNodeName) return QueueingHint.QueueSkip;
      return QueueingHint.Queue;
    }
    if (!opts.enableInPlacePodVerticalScaling) return QueueingHint.QueueSkip;
    if (original === undefined || !isSchedulableAfterPodScaleDown(pod, original, modified, opts)) {
      return QueueingHint.QueueSkip;
    }
    return QueueingHint.Queue;
  };
}

/** Queue when the pod fits the added/updated node's allocatable and, on update, something it needs grew. */
export function isSchedulableAfterNodeChange(opts: ResourceRequestsOptions): QueueingHintFn {
  return (pod, oldObj, newObj) => {
    const [original, modified] = as(oldObj, newObj, NodeKind);
    if (!isFit(pod, modified, opts)) return QueueingHint.QueueSkip;
    if (original === undefined) return QueueingHint.Queue;
    if (!haveAnyRequestedResourcesIncreased(pod, original, modified!, opts)) return QueueingHint.QueueSkip;
    return QueueingHint.Queue;
  };
}

/**
 * Queue when a device class that may back an extended resource the pod requests is added, or
 * its extendedResourceName changed.
 */
export const isSchedulableAfterDeviceClassEvent: QueueingHintFn = (pod, oldObj, newObj) => {
  const [original, modified] = as(oldObj, newObj, DeviceClassKind);
  const modifiedName = modified?.spec?.extendedResourceName ?? "";
  if (original !== undefined) {
    if ((original.spec?.extendedResourceName ?? "") === modifiedName) return QueueingHint.QueueSkip;
  } else if (podRequests(pod).has(`${ResourceDeviceClassPrefix}${modified?.metadata?.name ?? ""}`)) {
    return QueueingHint.Queue;
  }
  if (modified?.spec?.extendedResourceName != null && podRequests(pod).has(modifiedName)) {
    return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/** upstream Fit.EventsToRegister. */
export function eventsToRegister(features: Features, opts: FitEventOptions): ClusterEventWithHint[] {
  let podActionType = ActionType.Delete;
  // With in-place resize a pod update may free resources.
  if (features.enableInPlacePodVerticalScaling) podActionType |= ActionType.UpdatePodScaleDown;
  // Without QueueingHints, Node/Add may be missed by preCheck, so label/taint updates are registered too (#109437).
  const nodeActionType = features.enableSchedulingQueueHint
    ? ActionType.Add | ActionType.UpdateNodeAllocatable
    : ActionType.Add |
      ActionType.UpdateNodeAllocatable |
      ActionType.UpdateNodeTaint |
      ActionType.UpdateNodeLabel;
  const events: ClusterEventWithHint[] = [
    {
      event: { resource: EventResource.Pod, actionType: podActionType },
      queueingHintFn: isSchedulableAfterPodEvent(opts),
    },
    {
      event: { resource: EventResource.Node, actionType: nodeActionType },
      queueingHintFn: isSchedulableAfterNodeChange({
        enablePodLevelResources: opts.enablePodLevelResources,
        deviceClassResolver: opts.deviceClassResolver ?? null,
      }),
    },
  ];
  if (features.enableDRAExtendedResource) {
    events.push({
      event: { resource: EventResource.DeviceClass, actionType: ActionType.Add | ActionType.Update },
      queueingHintFn: isSchedulableAfterDeviceClassEvent,
    });
  }
  return events;
}
