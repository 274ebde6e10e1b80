// upstream: pkg/scheduler/backend/queue/unschedulable_pods.go
import type { QueuedPodInfo } from "@kubesched/framework";
import { queuedPodInfoKey } from "./backoff-queue";

/** Pods that were tried and found unschedulable, and pods gated by a PreEnqueue plugin. */
export class UnschedulablePods {
  /** `namespace/name` → the queued pod. */
  readonly podInfoMap = new Map<string, QueuedPodInfo>();
  /**
   * The entries that are not gated, in the order they have in `podInfoMap` while
   * `ungatedInOrder` (an entry that stops being gated in place is appended here but keeps its
   * place there; the order is exact again once the pool empties). Events no gating plugin
   * registered walk this instead of every gated pod.
   */
  readonly ungatedMap = new Map<string, QueuedPodInfo>();
  ungatedInOrder = true;

  /** How many entries are gated (the rest are unschedulable). */
  get gatedCount(): number {
    return this.podInfoMap.size - this.ungatedMap.size;
  }

  /** Adds or replaces the pod (gated or not as its `gatingPlugin` says now). Returns true when new. */
  addOrUpdate(pInfo: QueuedPodInfo): boolean {
    const key = queuedPodInfoKey(pInfo);
    const isNew = !this.podInfoMap.has(key);
    this.podInfoMap.set(key, pInfo);
    if (pInfo.gatingPlugin !== "") {
      this.ungatedMap.delete(key);
    } else {
      if (!isNew && !this.ungatedMap.has(key)) this.ungatedInOrder = false;
      this.ungatedMap.set(key, pInfo);
    }
    return isNew;
  }

  /** Removes the pod. */
  delete(pInfo: QueuedPodInfo): void {
    const key = queuedPodInfoKey(pInfo);
    this.podInfoMap.delete(key);
    this.ungatedMap.delete(key);
    if (this.podInfoMap.size === 0) this.ungatedInOrder = true;
  }

  get(pInfo: QueuedPodInfo): QueuedPodInfo | undefined {
    return this.podInfoMap.get(queuedPodInfoKey(pInfo));
  }

  getByKey(key: string): QueuedPodInfo | undefined {
    return this.podInfoMap.get(key);
  }

  get size(): number {
    return this.podInfoMap.size;
  }
}
