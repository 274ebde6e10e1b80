// events.k8s.io/v1 Events (upstream client-go tools/events recorder, as kube-scheduler uses it):
// best effort and non-blocking. eventf() returns at once; the POST runs in the background, a
// failure is reported to `onError` and dropped, and at most `maxInFlight` posts are pending
// (upstream's broadcaster drops on a full queue too). Each call creates one Event named
// `<regarding>.<hex nanoseconds>` as upstream; series aggregation is not done.
import type { Pod } from "@kubesched/api";
import type { EventRecorder, EventType } from "@kubesched/framework";
import { formatMicroTime } from "./micro-time";
import type { RawClient } from "./raw-client";

/** upstream: the events API's note limit (1 kB). */
export const maxNoteLength = 1024;

const defaultSchedulerName = "default-scheduler";

export interface KubeEventRecorderOptions {
  client: RawClient;
  /** reportingInstance is `<reportingController>-<host>`, as upstream. */
  host: string;
  now?: () => number;
  maxInFlight?: number;
  onError?: (err: Error) => void;
}

interface ObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

function podRef(pod: Pod): ObjectReference {
  const m = pod.metadata;
  return {
    apiVersion: "v1",
    kind: "Pod",
    ...(m?.namespace ? { namespace: m.namespace } : {}),
    ...(m?.name ? { name: m.name } : {}),
    ...(m?.uid ? { uid: m.uid } : {}),
    ...(m?.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

export function truncateNote(note: string): string {
  return note.length > maxNoteLength ? `${note.slice(0, maxNoteLength - 3)}...` : note;
}

export class KubeEventRecorder implements EventRecorder {
  private readonly inFlight = new Set<Promise<void>>();
  private seq = 0;
  /** Events dropped because too many were pending. */
  dropped = 0;

  constructor(private readonly opts: KubeEventRecorderOptions) {}

  eventf(
    regarding: Pod,
    related: Pod | null,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void {
    if (this.inFlight.size >= (this.opts.maxInFlight ?? 1000)) {
      this.dropped++;
      return;
    }
    // The profile that acted: the preemptor's for Preempted (regarding is the victim).
    const controller = (related ?? regarding).spec?.schedulerName || defaultSchedulerName;
    const nowMs = (this.opts.now ?? Date.now)();
    const namespace = regarding.metadata?.namespace || "default";
    // Nanoseconds, unique within this process even for events in the same millisecond.
    const nanos = BigInt(nowMs) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    const body = {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: `${regarding.metadata?.name ?? "unknown"}.${nanos.toString(16)}`, namespace },
      eventTime: formatMicroTime(nowMs),
      reportingController: controller,
      reportingInstance: `${controller}-${this.opts.host}`,
      action,
      reason,
      note: truncateNote(note),
      type,
      regarding: podRef(regarding),
      ...(related ? { related: podRef(related) } : {}),
    };
    const p = this.opts.client
      .request("POST", `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events`, { body })
      .then(
        () => undefined,
        (e: unknown) => this.opts.onError?.(e instanceof Error ? e : new Error(String(e))),
      )
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Waits for the events posted so far (shutdown, tests). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
