// upstream: pkg/scheduler/framework/events.go (special events, PodSchedulingPropertiesChange,
// NodeSchedulingPropertiesChange)
import { type Node, type Pod, podRequests, quantityMilliValue } from "@kubesched/api";
import { ActionType, type ClusterEvent, EventResource, SpecialEvents } from "@kubesched/framework";

export const EventAssignedPodAdd: ClusterEvent = {
  resource: EventResource.AssignedPod,
  actionType: ActionType.Add,
};
export const EventAssignedPodUpdate: ClusterEvent = {
  resource: EventResource.AssignedPod,
  actionType: ActionType.Update,
};
export const EventAssignedPodDelete: ClusterEvent = {
  resource: EventResource.AssignedPod,
  actionType: ActionType.Delete,
};
export const EventUnscheduledPodAdd: ClusterEvent = {
  resource: EventResource.UnscheduledPod,
  actionType: ActionType.Add,
};
export const EventUnscheduledPodUpdate: ClusterEvent = {
  resource: EventResource.UnscheduledPod,
  actionType: ActionType.Update,
};
export const EventUnscheduledPodDelete: ClusterEvent = {
  resource: EventResource.UnscheduledPod,
  actionType: ActionType.Delete,
};
/** A pod stayed in the unschedulable pool longer than podMaxInUnschedulablePodsDuration. */
export const EventUnschedulableTimeout: ClusterEvent = {
  resource: EventResource.WildCard,
  actionType: ActionType.All,
  customLabel: SpecialEvents.UnschedulableTimeout,
};
/** A plugin activated pods (PodActivator.activate). */
export const EventForceActivate: ClusterEvent = {
  resource: EventResource.WildCard,
  actionType: ActionType.All,
  customLabel: SpecialEvents.ForceActivate,
};

/** Whether the event is the wildcard (`*` / All), which every rejected pod is interested in. */
export function clusterEventIsWildCard(e: ClusterEvent): boolean {
  return e.resource === EventResource.WildCard && e.actionType === ActionType.All;
}

/**
 * The events a pod update amounts to: one per changed scheduling property (labels, a lowered or
 * removed request, all scheduling gates removed, tolerations added, generated ResourceClaim
 * statuses), or a generic Update when none changed. The resource is TargetPod when the update is
 * about the queued pod itself (`targetPod`), else AssignedPod or UnscheduledPod by spec.nodeName.
 */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod, targetPod = false): ClusterEvent[] {
  const resource = targetPod
    ? EventResource.TargetPod
    : newPod.spec?.nodeName
      ? EventResource.AssignedPod
      : EventResource.UnscheduledPod;
  const events: ClusterEvent[] = [];
  for (const extract of podChangeExtractors) {
    const actionType = extract(newPod, oldPod);
    if (actionType !== ActionType.None) events.push({ resource, actionType });
  }
  if (events.length === 0) {
    // Only plugins registering a general Pod/Update event are interested.
    events.push({ resource, actionType: ActionType.Update });
  }
  return events;
}

type PodChangeExtractor = (newPod: Pod, oldPod: Pod) => number;

const podChangeExtractors: readonly PodChangeExtractor[] = [
  (newPod, oldPod) =>
    semanticEqual(newPod.metadata?.labels, oldPod.metadata?.labels)
      ? ActionType.None
      : ActionType.UpdatePodLabel,
  extractPodScaleDown,
  (newPod, oldPod) =>
    (newPod.spec?.schedulingGates?.length ?? 0) === 0 && (oldPod.spec?.schedulingGates?.length ?? 0) !== 0
      ? ActionType.UpdatePodSchedulingGatesEliminated
      : ActionType.None,
  // Tolerations can only be added, so a length change is enough to notice an update.
  (newPod, oldPod) =>
    (newPod.spec?.tolerations?.length ?? 0) !== (oldPod.spec?.tolerations?.length ?? 0)
      ? ActionType.UpdatePodToleration
      : ActionType.None,
  (newPod, oldPod) =>
    semanticEqual(newPod.status?.resourceClaimStatuses, oldPod.status?.resourceClaimStatuses) &&
    semanticEqual(extendedResourceClaimStatus(newPod), extendedResourceClaimStatus(oldPod))
      ? ActionType.None
      : ActionType.UpdatePodGeneratedResourceClaim,
];

function extendedResourceClaimStatus(pod: Pod): unknown {
  return (pod.status as { extendedResourceClaimStatus?: unknown } | undefined)?.extendedResourceClaimStatus;
}

/** Any request removed or lowered (status resources count, InPlacePodVerticalScaling is GA). */
function extractPodScaleDown(newPod: Pod, oldPod: Pod): number {
  const opts = { useStatusResources: true };
  const newReq = podRequests(newPod, opts);
  for (const [name, oldValue] of podRequests(oldPod, opts)) {
    const newValue = newReq.get(name);
    if (newValue === undefined || oldValue > newValue) return ActionType.UpdatePodScaleDown;
  }
  return ActionType.None;
}

/**
 * The events a node update amounts to, one per changed aspect: spec.unschedulable turned false
 * (reported as UpdateNodeTaint), allocatable, labels, taints, condition statuses, annotations,
 * declared features.
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const events: ClusterEvent[] = [];
  for (const extract of nodeChangeExtractors) {
    const actionType = extract(newNode, oldNode);
    if (actionType !== ActionType.None) events.push({ resource: EventResource.Node, actionType });
  }
  return events;
}

type NodeChangeExtractor = (newNode: Node, oldNode: Node) => number;

const nodeChangeExtractors: readonly NodeChangeExtractor[] = [
  (newNode, oldNode) =>
    (newNode.spec?.unschedulable ?? false) !== (oldNode.spec?.unschedulable ?? false) &&
    !newNode.spec?.unschedulable
      ? ActionType.UpdateNodeTaint
      : ActionType.None,
  (newNode, oldNode) =>
    resourceListsEqual(newNode.status?.allocatable, oldNode.status?.allocatable)
      ? ActionType.None
      : ActionType.UpdateNodeAllocatable,
  (newNode, oldNode) =>
    semanticEqual(newNode.metadata?.labels, oldNode.metadata?.labels)
      ? ActionType.None
      : ActionType.UpdateNodeLabel,
  (newNode, oldNode) =>
    semanticEqual(newNode.spec?.taints, oldNode.spec?.taints) ? ActionType.None : ActionType.UpdateNodeTaint,
  (newNode, oldNode) =>
    semanticEqual(conditionStatuses(newNode), conditionStatuses(oldNode))
      ? ActionType.None
      : ActionType.UpdateNodeCondition,
  (newNode, oldNode) =>
    semanticEqual(newNode.metadata?.annotations, oldNode.metadata?.annotations)
      ? ActionType.None
      : ActionType.UpdateNodeAnnotation,
  (newNode, oldNode) =>
    semanticEqual(declaredFeatures(newNode), declaredFeatures(oldNode))
      ? ActionType.None
      : ActionType.UpdateNodeDeclaredFeature,
];

function conditionStatuses(node: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of node.status?.conditions ?? []) out[c.type] = c.status;
  return out;
}

function declaredFeatures(node: Node): unknown {
  return (node.status as { declaredFeatures?: unknown } | undefined)?.declaredFeatures;
}

/** Quantities compare by value ("1" equals "1000m"), as equality.Semantic does. */
function resourceListsEqual(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  for (const k of ka) {
    const vb = b?.[k];
    if (vb === undefined) return false;
    try {
      if (quantityMilliValue(a![k]!) !== quantityMilliValue(vb)) return false;
    } catch {
      if (a![k] !== vb) return false;
    }
  }
  return true;
}

/**
 * Deep equality where absent, null, empty arrays and empty objects are all equal (apimachinery's
 * semantic DeepEqual treats nil and empty slices and maps alike).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], b[i])) return false;
    return true;
  }
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null) {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(oa), ...Object.keys(ob)]);
    for (const k of keys) if (!semanticEqual(oa[k], ob[k])) return false;
    return true;
  }
  return false;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v).length === 0;
  return false;
}
