import type { Pod } from "@kubesched/api";
import type { ClusterClient, EventRecorder, EventType, PodStatusPatch } from "@kubesched/framework";

/** One API write the scheduler made. */
export type ClientCall =
  | { verb: "bind"; pod: Pod; nodeName: string }
  | { verb: "delete"; pod: Pod }
  | { verb: "patchStatus"; pod: Pod; patch: PodStatusPatch };

/** A ClusterClient that records every call in order and applies nothing. */
export class RecordingClusterClient implements ClusterClient {
  readonly calls: ClientCall[] = [];
  private readonly failures = new Map<ClientCall["verb"], Error>();

  /** Makes every later call with this verb reject with `err` (null: succeed again). */
  failWith(verb: ClientCall["verb"], err: Error | null): this {
    if (err) this.failures.set(verb, err);
    else this.failures.delete(verb);
    return this;
  }

  async bindPod(pod: Pod, nodeName: string): Promise<void> {
    this.calls.push({ verb: "bind", pod, nodeName });
    this.maybeFail("bind");
  }

  async deletePod(pod: Pod): Promise<void> {
    this.calls.push({ verb: "delete", pod });
    this.maybeFail("delete");
  }

  async patchPodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    this.calls.push({ verb: "patchStatus", pod, patch });
    this.maybeFail("patchStatus");
  }

  private maybeFail(verb: ClientCall["verb"]): void {
    const err = this.failures.get(verb);
    if (err) throw err;
  }
}

export interface RecordedEvent {
  regarding: Pod;
  related: Pod | null;
  type: EventType;
  reason: string;
  action: string;
  note: string;
}

/** An EventRecorder that keeps every event in `events`. */
export function recordingEventRecorder(): EventRecorder & { readonly events: RecordedEvent[] } {
  const events: RecordedEvent[] = [];
  return {
    events,
    eventf(regarding, related, type, reason, action, note) {
      events.push({ regarding, related, type, reason, action, note });
    },
  };
}
