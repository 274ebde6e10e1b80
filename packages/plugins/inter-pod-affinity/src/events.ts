// upstream: interpodaffinity/plugin.go (EventsToRegister and the queueing hints).
import type { Node, Pod } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  PodInfo,
  QueueingHint,
} from "@kubesched/framework";
import { podMatchesAllAffinityTerms, podMatchesAnyAffinityTerms } from "./terms";

function isUnassigned(pod: Pod | undefined): boolean {
  return pod !== undefined && !pod.spec?.nodeName && !pod.status?.nominatedNodeName;
}

/**
 * An assigned pod was added, deleted or relabelled: Queue when it may now satisfy the target
 * pod's affinity, or no longer conflict with its anti-affinity (in either direction on delete).
 */
export function isSchedulableAfterAssignedPodChange(
  pod: Pod,
  oldObj: unknown,
  newObj: unknown,
): QueueingHint {
  const originalPod = oldObj as Pod | undefined;
  const modifiedPod = newObj as Pod | undefined;
  // A change of nodeName or nominatedNodeName arrives as an Add or Delete event.
  if (isUnassigned(modifiedPod) || isUnassigned(originalPod)) return QueueingHint.QueueSkip;

  const target = new PodInfo(pod);
  if (target.parseError) return QueueingHint.Queue;
  const terms = target.requiredAffinityTerms;
  const antiTerms = target.requiredAntiAffinityTerms;

  // Updated: a single existing pod has to satisfy all affinity terms at once.
  if (modifiedPod !== undefined && originalPod !== undefined) {
    if (!podMatchesAllAffinityTerms(terms, originalPod) && podMatchesAllAffinityTerms(terms, modifiedPod)) {
      return QueueingHint.Queue;
    }
    if (
      podMatchesAnyAffinityTerms(antiTerms, originalPod) &&
      !podMatchesAnyAffinityTerms(antiTerms, modifiedPod)
    ) {
      return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }

  // Added.
  if (modifiedPod !== undefined) {
    return podMatchesAllAffinityTerms(terms, modifiedPod) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  // Deleted: it matched the target's anti-affinity, or the target matched its anti-affinity.
  if (originalPod === undefined) return QueueingHint.Queue;
  if (podMatchesAnyAffinityTerms(antiTerms, originalPod)) return QueueingHint.Queue;
  const original = new PodInfo(originalPod);
  if (original.parseError) return QueueingHint.Queue;
  if (podMatchesAnyAffinityTerms(original.requiredAntiAffinityTerms, pod)) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}

/** The target pod's labels changed: some pod's anti-affinity may no longer reject it. */
export function isSchedulableAfterTargetPodUpdateLabel(): QueueingHint {
  return QueueingHint.Queue;
}

/** A node was added or relabelled: Queue when a topology key of the pod's terms is affected. */
export function isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const originalNode = oldObj as Node | undefined;
  const modifiedNode = newObj as Node | undefined;
  if (modifiedNode === undefined) return QueueingHint.Queue;
  const target = new PodInfo(pod);
  if (target.parseError) return QueueingHint.Queue;
  const modifiedLabels = modifiedNode.metadata?.labels ?? {};
  const originalLabels = originalNode?.metadata?.labels ?? {};
  const has = (labels: Record<string, string>, k: string): boolean => Object.hasOwn(labels, k);

  for (const term of target.requiredAffinityTerms) {
    const k = term.topologyKey;
    if (originalNode === undefined) {
      // A new node with the affinity's topology key.
      if (has(modifiedLabels, k)) return QueueingHint.Queue;
      continue;
    }
    const originalHas = has(originalLabels, k);
    const modifiedHas = has(modifiedLabels, k);
    // The node got the key, or moved to another domain.
    if (!originalHas && modifiedHas) return QueueingHint.Queue;
    if (originalHas && modifiedHas && originalLabels[k] !== modifiedLabels[k]) return QueueingHint.Queue;
  }

  for (const term of target.requiredAntiAffinityTerms) {
    // Any new node may accept a pod with anti-affinity (its domain may hold no conflicting pod).
    if (originalNode === undefined) return QueueingHint.Queue;
    const k = term.topologyKey;
    const originalHas = has(originalLabels, k);
    const modifiedHas = has(modifiedLabels, k);
    // The node lost the key (a node without it accepts anti-affine pods), or changed domain.
    if (originalHas && !modifiedHas) return QueueingHint.Queue;
    if (originalHas && modifiedHas && originalLabels[k] !== modifiedLabels[k]) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}

export function eventsToRegister(): ClusterEventWithHint[] {
  return [
    // Add: a pod may satisfy a pending pod's affinity. Delete: an anti-affinity conflict may be
    // gone. UpdatePodLabel: relabelling may do either.
    {
      event: {
        resource: EventResource.AssignedPod,
        actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
      },
      queueingHintFn: isSchedulableAfterAssignedPodChange,
    },
    {
      event: { resource: EventResource.TargetPod, actionType: ActionType.UpdatePodLabel },
      queueingHintFn: isSchedulableAfterTargetPodUpdateLabel,
    },
    {
      event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeLabel },
      queueingHintFn: isSchedulableAfterNodeChange,
    },
  ];
}
