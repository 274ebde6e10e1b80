// upstream: pkg/scheduler/backend/queue/active_queue.go
import { type Pod, podUID } from "@kubesched/api";
import type { ClusterEvent, QueuedPodInfo } from "@kubesched/framework";
import { queuedPodInfoKey } from "./backoff-queue";
import { Heap } from "./heap";

/** A cluster event with the objects involved. */
export interface RecordedClusterEvent {
  event: ClusterEvent;
  oldObj: unknown;
  newObj: unknown;
}

/** An entry of the in-flight list: a pod being scheduled, or an event received meanwhile. */
interface InFlightEntry {
  pInfo: QueuedPodInfo | null;
  event: RecordedClusterEvent | null;
  prev: InFlightEntry | null;
  next: InFlightEntry | null;
}

/**
 * The activeQ heap plus the in-flight bookkeeping: pods popped and not Done yet, interleaved with
 * the cluster events received while they were in flight, so those events can be replayed through
 * the queueing hints when a pod comes back unschedulable.
 */
export class ActiveQueue {
  readonly queue: Heap<QueuedPodInfo>;
  /** Pod UID → its entry in the in-flight list. */
  private readonly inFlightPods = new Map<string, InFlightEntry>();
  private head: InFlightEntry | null = null;
  private tail: InFlightEntry | null = null;
  private inFlightEventCount = 0;
  schedCycle = 0;

  constructor(lessFn: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean) {
    this.queue = new Heap(queuedPodInfoKey, lessFn);
  }

  private pushBack(entry: InFlightEntry): void {
    entry.prev = this.tail;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
  }

  private remove(entry: InFlightEntry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = null;
    entry.next = null;
    if (entry.event) this.inFlightEventCount--;
  }

  /**
   * Marks a popped pod in flight and counts the scheduling cycle; false (and nothing recorded)
   * when the pod is already in flight, which upstream reports and discards.
   */
  moveToInFlight(pInfo: QueuedPodInfo): boolean {
    const uid = podUID(pInfo.podInfo.pod);
    if (this.inFlightPods.has(uid)) return false;
    pInfo.attempts++;
    const entry: InFlightEntry = { pInfo, event: null, prev: null, next: null };
    this.pushBack(entry);
    this.inFlightPods.set(uid, entry);
    this.schedCycle++;
    return true;
  }

  isInFlight(uid: string): boolean {
    return this.inFlightPods.has(uid);
  }

  getInFlight(uid: string): QueuedPodInfo | undefined {
    return this.inFlightPods.get(uid)?.pInfo ?? undefined;
  }

  listInFlightPods(): Pod[] {
    return [...this.inFlightPods.values()].map((e) => e.pInfo!.podInfo.pod);
  }

  /** Events and pods in the in-flight list, in order (for tests and debugging). */
  listInFlightEvents(): Array<Pod | RecordedClusterEvent> {
    const out: Array<Pod | RecordedClusterEvent> = [];
    for (let e = this.head; e !== null; e = e.next) out.push(e.event ?? e.pInfo!.podInfo.pod);
    return out;
  }

  inFlightCount(): number {
    return this.inFlightPods.size;
  }

  /** The events received since the pod was popped; undefined when the pod is not in flight. */
  clusterEventsForPod(uid: string): RecordedClusterEvent[] | undefined {
    const entry = this.inFlightPods.get(uid);
    if (!entry) return undefined;
    const events: RecordedClusterEvent[] = [];
    for (let e = entry.next; e !== null; e = e.next) if (e.event) events.push(e.event);
    return events;
  }

  /** Records the events for the pod when it is in flight; returns whether it is. */
  addEventsIfPodInFlight(oldPod: Pod | null, newPod: Pod, events: readonly ClusterEvent[]): boolean {
    if (!this.inFlightPods.has(podUID(newPod))) return false;
    for (const event of events) {
      this.pushBack({
        pInfo: null,
        event: { event, oldObj: oldPod, newObj: newPod },
        prev: null,
        next: null,
      });
      this.inFlightEventCount++;
    }
    return true;
  }

  /** Records the event when any pod is in flight; returns whether it was recorded. */
  addEventIfAnyInFlight(oldObj: unknown, newObj: unknown, event: ClusterEvent): boolean {
    if (this.inFlightPods.size === 0) return false;
    this.pushBack({ pInfo: null, event: { event, oldObj, newObj }, prev: null, next: null });
    this.inFlightEventCount++;
    return true;
  }

  /** The pod's attempt is over: forget it and the leading events no in-flight pod needs anymore. */
  done(uid: string): void {
    const entry = this.inFlightPods.get(uid);
    if (!entry) return;
    this.inFlightPods.delete(uid);
    this.remove(entry);
    while (this.head !== null && this.head.event !== null) this.remove(this.head);
  }

  /** Done for every in-flight pod (close). */
  doneAll(): void {
    for (const uid of [...this.inFlightPods.keys()]) this.done(uid);
  }

  eventCount(): number {
    return this.inFlightEventCount;
  }
}
