// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go (PodPriority),
// pkg/api/v1/pod/util.go (GetPodCondition, UpdatePodCondition), pkg/scheduler/framework/types.go.
import type { Pod, PodCondition, PodStatus } from "kubernetes-types/core/v1.js";
import { formatTime } from "./time";

/** spec.priority, or 0 when unset (the static default). */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}

/** `namespace/name`. */
export function namespacedName(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ""}/${name ?? ""}`;
}

/** The pod's `namespace/name` key. */
export function podKey(pod: Pod): string {
  return namespacedName(pod.metadata?.namespace, pod.metadata?.name);
}

/** metadata.uid, or `namespace/name` when the object has none (hand-written snapshots). */
export function podUID(pod: Pod): string {
  const uid = pod.metadata?.uid;
  return uid ? uid : podKey(pod);
}

/** True once deletion has been requested (metadata.deletionTimestamp set). */
export function isPodTerminating(pod: Pod): boolean {
  return pod.metadata?.deletionTimestamp != null;
}

/** True while spec.schedulingGates is non-empty. */
export function hasSchedulingGates(pod: Pod): boolean {
  return (pod.spec?.schedulingGates?.length ?? 0) > 0;
}

/** True for Succeeded or Failed pods. */
export function podIsTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === "Succeeded" || phase === "Failed";
}

/** True if the pod has pod affinity or anti-affinity (NodeInfo.PodsWithAffinity). */
export function podHasAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  return a != null && (a.podAffinity != null || a.podAntiAffinity != null);
}

/** True if the pod has required anti-affinity terms (NodeInfo.PodsWithRequiredAntiAffinity). */
export function podHasRequiredAntiAffinity(pod: Pod): boolean {
  return (
    (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0
  );
}

/** status.startTime as a Date, or undefined when the pod has not started. */
export function podStartTime(pod: Pod): Date | undefined {
  const t = pod.status?.startTime;
  return t ? new Date(t) : undefined;
}

/**
 * status.startTime in milliseconds since the epoch, or undefined when the pod has not started.
 * Each distinct start time is parsed once (a bounded memo): preemption compares the start times
 * of the victims on every candidate node, and start times repeat (whole seconds).
 */
export function podStartTimeMillis(pod: Pod): number | undefined {
  const t = pod.status?.startTime;
  if (!t) return undefined;
  if (typeof t !== "string") return new Date(t).getTime();
  let ms = startTimes.get(t);
  if (ms === undefined) {
    ms = new Date(t).getTime();
    if (startTimes.size >= maxStartTimes) startTimes.clear();
    startTimes.set(t, ms);
  }
  return ms;
}

/** status.startTime → milliseconds (podStartTimeMillis' memo, bounded). */
const startTimes = new Map<string, number>();
const maxStartTimes = 4096;

/** The condition of the given type, if present. */
export function getPodCondition(status: PodStatus | undefined, type: string): PodCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * Sets a condition on `status` (mutating it) as upstream UpdatePodCondition:
 * lastTransitionTime changes only when the condition's status flips. Returns true if anything
 * changed. `now` is the current time (pass the simulated clock's).
 */
export function updatePodCondition(
  status: PodStatus,
  condition: PodCondition,
  now: Date = new Date(),
): boolean {
  const cond: PodCondition = { ...condition, lastTransitionTime: formatTime(now) };
  const conditions = status.conditions ?? [];
  const index = conditions.findIndex((c) => c.type === cond.type);
  if (index < 0) {
    status.conditions = [...conditions, cond];
    return true;
  }
  const old = conditions[index]!;
  if (cond.status === old.status) cond.lastTransitionTime = old.lastTransitionTime;
  const isEqual =
    cond.status === old.status &&
    (cond.reason ?? "") === (old.reason ?? "") &&
    (cond.message ?? "") === (old.message ?? "") &&
    (cond.lastProbeTime ?? "") === (old.lastProbeTime ?? "") &&
    (cond.lastTransitionTime ?? "") === (old.lastTransitionTime ?? "") &&
    (cond.observedGeneration ?? 0) === (old.observedGeneration ?? 0);
  const next = [...conditions];
  next[index] = cond;
  status.conditions = next;
  return !isEqual;
}
