// upstream: pkg/scheduler/framework/plugins/queuesort/priority_sort.go
import { podPriority } from "@kubesched/api";
import type { QueuedPodInfo, QueueSortPlugin } from "@kubesched/framework";

/** The plugin's registered name. */
export const name = "PrioritySort";

/** PrioritySort: higher priority first; equal priorities in the order they entered the queue. */
export class PrioritySort implements QueueSortPlugin {
  name(): string {
    return name;
  }

  /** Whether `a` goes before `b`: higher `spec.priority` (0 when unset), then earlier timestamp. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = podPriority(a.podInfo.pod);
    const p2 = podPriority(b.podInfo.pod);
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}
