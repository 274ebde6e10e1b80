// upstream: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (EventsToRegister, isSchedulableAfter*)
import type { Labels, Node, Pod, Taint } from "@kubesched/api";
import { ActionType, type ClusterEventWithHint, EventResource, QueueingHint } from "@kubesched/framework";
import {
  nodeLabelsMatchSpreadConstraints,
  podLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from "./common";

/** What the hints need from the plugin: the pod's hard constraints (or the defaults). */
export interface ConstraintSource {
  getConstraints(pod: Pod): SpreadConstraint[];
}

/** Semantic equality of two label maps (nil and empty are equal, as equality.Semantic). */
function labelsEqual(a: Labels | undefined, b: Labels | undefined): boolean {
  const ak = a ? Object.keys(a) : [];
  const bk = b ? Object.keys(b) : [];
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (b?.[k] !== a?.[k]) return false;
  return true;
}

/** Semantic deep equality of JSON-like values: undefined, null and empty lists/maps are alike. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown): boolean =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (
    typeof a === "object" &&
    typeof b === "object" &&
    a !== null &&
    b !== null &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) if (!semanticEqual(ao[k], bo[k])) return false;
    return true;
  }
  return a === b;
}

/** Whether the pod is assigned (or nominated) in the namespace of the pod with the constraints. */
function involvedInTopologySpreading(incomingPod: Pod, podWithSpreading: Pod): boolean {
  if (!incomingPod.spec?.nodeName && !incomingPod.status?.nominatedNodeName) return false;
  return (incomingPod.metadata?.namespace ?? "") === (podWithSpreading.metadata?.namespace ?? "");
}

function isSchedulableAfterPodLabelChange(
  originalPod: Pod,
  modifiedPod: Pod,
  constraints: readonly SpreadConstraint[],
): QueueingHint {
  const oldLabels = originalPod.metadata?.labels;
  const newLabels = modifiedPod.metadata?.labels;
  if (labelsEqual(oldLabels, newLabels)) return QueueingHint.QueueSkip;
  for (const c of constraints) {
    // The change makes the pod match (or stop matching) this constraint.
    if (c.selector.matches(oldLabels) !== c.selector.matches(newLabels)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}

/** An assigned pod was added, had its labels updated, or was deleted. */
export function isSchedulableAfterAssignedPodChange(
  pl: ConstraintSource,
  pod: Pod,
  oldObj: unknown,
  newObj: unknown,
): QueueingHint {
  const originalPod = (oldObj ?? undefined) as Pod | undefined;
  const modifiedPod = (newObj ?? undefined) as Pod | undefined;
  if (
    (modifiedPod !== undefined && !involvedInTopologySpreading(modifiedPod, pod)) ||
    (originalPod !== undefined && !involvedInTopologySpreading(originalPod, pod))
  ) {
    return QueueingHint.QueueSkip;
  }
  const constraints = pl.getConstraints(pod);
  if (modifiedPod !== undefined && originalPod !== undefined) {
    return isSchedulableAfterPodLabelChange(originalPod, modifiedPod, constraints);
  }
  if (modifiedPod !== undefined) {
    return podLabelsMatchSpreadConstraints(constraints, modifiedPod.metadata?.labels)
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }
  if (originalPod === undefined) return QueueingHint.Queue;
  return podLabelsMatchSpreadConstraints(constraints, originalPod.metadata?.labels)
    ? QueueingHint.Queue
    : QueueingHint.QueueSkip;
}

/** The rejected pod itself got new labels or tolerations. */
export function isSchedulableAfterTargetPodChange(
  pl: ConstraintSource,
  pod: Pod,
  oldObj: unknown,
  newObj: unknown,
): QueueingHint {
  const originalPod = oldObj as Pod;
  const modifiedPod = newObj as Pod;
  const constraints = pl.getConstraints(pod);
  if (
    !semanticEqual(modifiedPod.spec?.tolerations, originalPod.spec?.tolerations) &&
    constraints.some((c) => c.nodeTaintsPolicy === "Honor")
  ) {
    // A new toleration may make tainted nodes count (NodeTaintsPolicy: Honor).
    return QueueingHint.Queue;
  }
  return isSchedulableAfterPodLabelChange(originalPod, modifiedPod, constraints);
}

function topologyKeyLabelsChanged(
  originalLabels: Labels | undefined,
  modifiedLabels: Labels | undefined,
  constraints: readonly SpreadConstraint[],
): boolean {
  for (const c of constraints) {
    if ((originalLabels?.[c.topologyKey] ?? "") !== (modifiedLabels?.[c.topologyKey] ?? "")) return true;
  }
  return false;
}

/** A node was added, deleted, or had its labels or taints updated. */
export function isSchedulableAfterNodeChange(
  pl: ConstraintSource,
  pod: Pod,
  oldObj: unknown,
  newObj: unknown,
): QueueingHint {
  const originalNode = (oldObj ?? undefined) as Node | undefined;
  const modifiedNode = (newObj ?? undefined) as Node | undefined;
  const constraints = pl.getConstraints(pod);
  const originalMatching =
    originalNode !== undefined &&
    nodeLabelsMatchSpreadConstraints(originalNode.metadata?.labels ?? {}, constraints);
  const modifiedMatching =
    modifiedNode !== undefined &&
    nodeLabelsMatchSpreadConstraints(modifiedNode.metadata?.labels ?? {}, constraints);
  if (originalNode !== undefined && modifiedNode !== undefined) {
    if (originalMatching !== modifiedMatching) return QueueingHint.Queue;
    const taintsChanged = !semanticEqual(
      originalNode.spec?.taints as Taint[] | undefined,
      modifiedNode.spec?.taints as Taint[] | undefined,
    );
    if (
      modifiedMatching &&
      (topologyKeyLabelsChanged(originalNode.metadata?.labels, modifiedNode.metadata?.labels, constraints) ||
        taintsChanged)
    ) {
      return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }
  if (modifiedNode !== undefined) return modifiedMatching ? QueueingHint.Queue : QueueingHint.QueueSkip;
  return originalMatching ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

/** upstream EventsToRegister (QueueingHints on). */
export function eventsToRegister(pl: ConstraintSource): ClusterEventWithHint[] {
  return [
    // An assigned pod added, relabelled or deleted may change the counts.
    {
      event: {
        resource: EventResource.AssignedPod,
        actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
      },
      queueingHintFn: (pod, oldObj, newObj) => isSchedulableAfterAssignedPodChange(pl, pod, oldObj, newObj),
    },
    // The pod's own labels (its selector match) or tolerations (NodeTaintsPolicy: Honor) changed.
    {
      event: {
        resource: EventResource.TargetPod,
        actionType: ActionType.UpdatePodToleration | ActionType.UpdatePodLabel,
      },
      queueingHintFn: (pod, oldObj, newObj) => isSchedulableAfterTargetPodChange(pl, pod, oldObj, newObj),
    },
    // Node add/delete/label/taint changes may change the domains.
    {
      event: {
        resource: EventResource.Node,
        actionType:
          ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
      },
      queueingHintFn: (pod, oldObj, newObj) => isSchedulableAfterNodeChange(pl, pod, oldObj, newObj),
    },
  ];
}
