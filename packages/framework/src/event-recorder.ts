// upstream: k8s.io/client-go/tools/events (EventRecorder), as kube-scheduler records the
// Scheduled / FailedScheduling / Preempted events.
import type { Pod } from "@kubesched/api";

/**
 * The type of a recorded event, as events.k8s.io's `type`.
 * @public
 */
export type EventType = "Normal" | "Warning";

/**
 * The events.k8s.io recorder plugins reach through `handle.eventRecorder()` (upstream
 * `EventRecorder.Eventf`).
 * @public
 */
export interface EventRecorder {
  /**
   * Records an event about `regarding` (and optionally `related`): its type, a machine-readable
   * `reason` ("Preempted"), the `action` taken ("Scheduling") and a human-readable `note`.
   */
  eventf(
    regarding: Pod,
    related: Pod | null,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void;
}
