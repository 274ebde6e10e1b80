// upstream: pkg/scheduler/framework/preemption/util.go (PodTerminatingByPreemption,
// FilterVictimsWithPDBViolation: here over single pods, as defaultpreemption's
// filterPodsWithPDBViolation was before pod-group victims) and pkg/scheduler/util/utils.go
// (GetPodStartTime, GetEarliestPodStartTime, MoreImportantPod): what the Evaluator and the
// preemption plugins (DefaultPreemption, CapacityScheduling) share about victims.
import {
  LabelSelectorError,
  labelSelectorAsSelector,
  type Pod,
  type PodDisruptionBudget,
  podPriority,
  podStartTimeMillis,
  type Selector,
} from "@kubesched/api";
import type { ExtenderVictims, PodInfo } from "@kubesched/framework";

/** upstream PodTerminatingByPreemption: deleting, with DisruptionTarget=True/PreemptionByScheduler. */
export function podTerminatingByPreemption(p: Pod): boolean {
  if (p.metadata?.deletionTimestamp == null) return false;
  for (const c of p.status?.conditions ?? []) {
    if (c.type === "DisruptionTarget") return c.status === "True" && c.reason === "PreemptionByScheduler";
  }
  return false;
}

/** A PDB's selector; null when it is invalid or matches nothing (nil or empty selector). */
function pdbSelector(pdb: PodDisruptionBudget): Selector | null {
  try {
    const s = labelSelectorAsSelector(pdb.spec?.selector);
    return s.empty() ? null : s;
  } catch (e) {
    if (e instanceof LabelSelectorError) return null;
    throw e;
  }
}

/**
 * upstream filterPodsWithPDBViolation (FilterVictimsWithPDBViolation): splits pods (order kept) into those whose eviction would
 * exceed a matching PDB's disruptionsAllowed (counting down as pods are taken) and the others.
 * Pods already listed in a PDB's status.disruptedPods do not count against it.
 */
export function filterPodsWithPDBViolation(
  podInfos: readonly PodInfo[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  // No PDB: nothing violates one (the same split, without the per-pod label checks).
  if (pdbs.length === 0) return { violating: [], nonViolating: podInfos.slice() };
  const allowed = pdbs.map((pdb) => pdb.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map(pdbSelector);
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pi of podInfos) {
    const pod = pi.pod;
    let violated = false;
    const labels = pod.metadata?.labels;
    // A pod without labels matches no PDB.
    if (labels && Object.keys(labels).length > 0) {
      for (let i = 0; i < pdbs.length; i++) {
        const pdb = pdbs[i] as PodDisruptionBudget;
        if ((pdb.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) continue;
        const selector = selectors[i];
        if (!selector?.matches(labels)) continue;
        // Already processed by the API server: not a violation.
        if (pdb.status?.disruptedPods?.[pod.metadata?.name ?? ""] !== undefined) continue;
        allowed[i] = (allowed[i] as number) - 1;
        if ((allowed[i] as number) < 0) violated = true;
      }
    }
    if (violated) violating.push(pi);
    else nonViolating.push(pi);
  }
  return { violating, nonViolating };
}

/** upstream GetPodStartTime: status.startTime, or now for pods that have not started. Milliseconds. */
export function getPodStartTime(pod: Pod, now: number): number {
  return podStartTimeMillis(pod) ?? now;
}

/**
 * upstream util.MoreImportantPod: higher priority first; equal priorities, the one that started
 * earlier (has run longer).
 */
export function moreImportantPod(a: Pod, b: Pod, now: number): boolean {
  const p1 = podPriority(a);
  const p2 = podPriority(b);
  if (p1 !== p2) return p1 > p2;
  return getPodStartTime(a, now) < getPodStartTime(b, now);
}

/**
 * upstream util.GetEarliestPodStartTime: the earliest start time among the highest-priority
 * victims; null when there are none.
 */
export function getEarliestPodStartTime(victims: ExtenderVictims, now: number): number | null {
  const pods = victims.pods;
  return earliestStartTimeOf(pods.length, pods.map(podPriority), (i) => getPodStartTime(pods[i] as Pod, now));
}

/**
 * getEarliestPodStartTime over `n` victims whose priorities are `prios` (read once by the
 * caller) and whose start times `startOf(i)` gives (`now` for pods that have not started).
 */
export function earliestStartTimeOf(
  n: number,
  prios: readonly number[],
  startOf: (i: number) => number,
): number | null {
  if (n === 0) return null;
  let earliest = startOf(0);
  let maxPriority = prios[0] as number;
  for (let i = 0; i < n; i++) {
    const p = prios[i] as number;
    if (p === maxPriority) {
      const t = startOf(i);
      if (t < earliest) earliest = t;
    } else if (p > maxPriority) {
      maxPriority = p;
      earliest = startOf(i);
    }
  }
  return earliest;
}
