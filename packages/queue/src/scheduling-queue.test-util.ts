// Fixtures shared by the scheduling queue tests (upstream scheduling_queue_test.go helpers).
import { type Pod, podPriority } from "@kubesched/api";
import {
  ActionType,
  type ClusterEvent,
  Code,
  EventResource,
  type Lister,
  ManualClock,
  PodInfo,
  type PreEnqueuePlugin,
  type QueuedPodInfo,
  QueueingHint,
  type QueueingHintFn,
  Status,
} from "@kubesched/framework";
import { makePod, recordingLogger } from "@kubesched/testing";
import { expect } from "vitest";
import type { QueueingHintMap, QueueingHintMapPerProfile } from "./queueing-hints";
import { PriorityQueue, type QueueOptions } from "./scheduling-queue";

/** PrioritySort: higher priority first, then earlier timestamp. */
export const prioritySortLess = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => {
  const p1 = podPriority(a.podInfo.pod);
  const p2 = podPriority(b.podInfo.pod);
  return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
};

export const nodeAdd: ClusterEvent = { resource: EventResource.Node, actionType: ActionType.Add };
export const pvAdd: ClusterEvent = { resource: EventResource.PersistentVolume, actionType: ActionType.Add };
/** framework.EventTargetPodUpdate: any update of the queued pod itself. */
export const EventTargetPodUpdate: ClusterEvent = {
  resource: EventResource.TargetPod,
  actionType: ActionType.Update,
};

export const queueHintReturnQueue: QueueingHintFn = () => QueueingHint.Queue;
export const queueHintReturnSkip: QueueingHintFn = () => QueueingHint.QueueSkip;

/** A QueueingHintMapPerProfile for the "" profile (upstream QueueingHintMapPerProfile{"": {...}}). */
export function hintMap(
  entries: [ClusterEvent, [string, QueueingHintFn | undefined][]][],
): QueueingHintMapPerProfile {
  const m: QueueingHintMap = entries.map(([event, hints]) => ({
    event,
    hints: hints.map(([pluginName, queueingHintFn]) => ({ pluginName, queueingHintFn })),
  }));
  return new Map([["", m]]);
}

/** A whole second, like upstream's `time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)`. */
export const start = Date.UTC(2025, 0, 1);

export interface TestQueueOptions extends Partial<Omit<QueueOptions, "clock">> {
  clock?: ManualClock;
  /** Objects in the informer cache (upstream NewTestQueueWithObjects). */
  objs?: Pod[];
}

/** upstream NewTestQueue / NewTestQueueWithObjects with the PrioritySort less function. */
export function newTestQueue(opts: TestQueueOptions = {}): { q: PriorityQueue; clock: ManualClock } {
  const { clock = new ManualClock(start), objs, ...rest } = opts;
  const podLister = rest.podLister ?? (objs ? podListerOf(objs) : undefined);
  const q = new PriorityQueue({
    lessFn: prioritySortLess,
    logger: recordingLogger(),
    ...rest,
    podLister,
    clock,
  });
  return { q, clock };
}

/** An informer cache holding `pods` (mutable: tests delete from it). */
export function podListerOf(pods: Pod[]): Lister<Pod> & { pods: Pod[] } {
  return {
    pods,
    list(namespace?: string) {
      return namespace === undefined
        ? this.pods
        : this.pods.filter((p) => p.metadata?.namespace === namespace);
    },
    get(namespace: string, name: string) {
      return this.pods.find((p) => (p.metadata?.namespace ?? "") === namespace && p.metadata?.name === name);
    },
  };
}

/** upstream newQueuedPodInfoForLookup: zero counters and timestamp, the given unschedulable plugins. */
export function newQueuedPodInfoForLookup(pod: Pod, ...plugins: string[]): QueuedPodInfo {
  return {
    podInfo: new PodInfo(pod),
    timestamp: 0,
    attempts: 0,
    unschedulableCount: 0,
    consecutiveErrorsCount: 0,
    initialAttemptTimestamp: null,
    unschedulablePlugins: new Set(plugins),
    pendingPlugins: new Set(),
    gatingPlugin: "",
  };
}

/** upstream q.newQueuedPodInfo(pod, plugins...): timestamp = the queue clock's now. */
export function newQueuedPodInfo(clock: ManualClock, pod: Pod, ...plugins: string[]): QueuedPodInfo {
  return { ...newQueuedPodInfoForLookup(pod, ...plugins), timestamp: clock.now() };
}

/** A QueuedPodInfo with the given fields (upstream &framework.QueuedPodInfo{...}). */
export function queuedPodInfo(pod: Pod, fields: Partial<Omit<QueuedPodInfo, "podInfo">> = {}): QueuedPodInfo {
  return { ...newQueuedPodInfoForLookup(pod), ...fields };
}

/** upstream setQueuedPodInfoGated: the gating plugin is also an unschedulable plugin. */
export function setQueuedPodInfoGated(pInfo: QueuedPodInfo, gatingPlugin: string): QueuedPodInfo {
  pInfo.gatingPlugin = gatingPlugin;
  pInfo.unschedulablePlugins = new Set([gatingPlugin]);
  return pInfo;
}

/** Pops and checks it is `pod` (upstream popPod). */
export function popPod(q: PriorityQueue, pod: Pod): QueuedPodInfo {
  const p = q.pop();
  expect(p?.podInfo.pod.metadata?.uid).toBe(pod.metadata?.uid);
  return p as QueuedPodInfo;
}

export const podNames = (pods: readonly QueuedPodInfo[]): string[] =>
  pods.map((p) => p.podInfo.pod.metadata?.name ?? "").sort();

export const uids = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata?.uid ?? "").sort();

/** Which internal queue holds the pod (upstream activeQ / backoffQ / unschedulableQ constants). */
export function whereIs(q: PriorityQueue, pod: Pod): "activeQ" | "backoffQ" | "unschedulableQ" | "none" {
  const key = `${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`;
  if (q.activeQ.queue.getByKey(key)) return "activeQ";
  if (q.backoffQ.getByKey(key)) return "backoffQ";
  if (q.unschedulablePods.getByKey(key)) return "unschedulableQ";
  return "none";
}

// upstream: the fixture pods.
export const lowPriority = 0;
export const midPriority = 100;
export const highPriority = 1000;
export const mediumPriority = (lowPriority + highPriority) / 2;

export const highPriorityPod = (): Pod =>
  makePod().name("hpp").namespace("ns1").uid("hppns1").priority(highPriority).obj();
export const highPriNominatedPod = (): Pod =>
  makePod()
    .name("hpp")
    .namespace("ns1")
    .uid("hppns1")
    .priority(highPriority)
    .nominatedNodeName("node1")
    .obj();
export const medPriorityPod = (): Pod =>
  makePod()
    .name("mpp")
    .namespace("ns2")
    .uid("mppns2")
    .annotation("annot2", "val2")
    .priority(mediumPriority)
    .nominatedNodeName("node1")
    .obj();
export const unschedulablePod = (): Pod =>
  makePod()
    .name("up")
    .namespace("ns1")
    .uid("upns1")
    .annotation("annot2", "val2")
    .priority(lowPriority)
    .nominatedNodeName("node1")
    .condition("PodScheduled", "False", "Unschedulable")
    .obj();
export const nonExistentPod = (): Pod => makePod().name("ne").namespace("ns1").uid("nens1").obj();
export const scheduledPod = (): Pod => makePod().name("sp").namespace("ns1").uid("spns1").node("foo").obj();

/** upstream clonePod: a copy with a new name and UID name+namespace. */
export function clonePod(pod: Pod, newName: string): Pod {
  const c = structuredClone(pod);
  c.metadata = { ...c.metadata, name: newName, uid: newName + (c.metadata?.namespace ?? "") };
  return c;
}

/** upstream preEnqueuePlugin: admits pods carrying a label key in `allowlists`. */
export class AllowlistPreEnqueuePlugin implements PreEnqueuePlugin {
  constructor(
    public allowlists: string[] = [],
    private readonly pluginName = "preEnqueuePlugin",
  ) {}
  name(): string {
    return this.pluginName;
  }
  preEnqueue(pod: Pod): Status | null {
    const labels = Object.keys(pod.metadata?.labels ?? {});
    for (const allowed of this.allowlists) if (labels.includes(allowed)) return null;
    return new Status(Code.UnschedulableAndUnresolvable, "pod label not in allowlists");
  }
}

/** upstream denyingPreEnqueuePlugin: gates pods carrying a label key in `denylists`. */
export class DenyingPreEnqueuePlugin implements PreEnqueuePlugin {
  constructor(private readonly denylists: string[]) {}
  name(): string {
    return "denyingPreEnqueuePlugin";
  }
  preEnqueue(pod: Pod): Status | null {
    const labels = Object.keys(pod.metadata?.labels ?? {});
    for (const denied of this.denylists) {
      if (labels.includes(denied))
        return new Status(Code.UnschedulableAndUnresolvable, "pod label in denylists");
    }
    return null;
  }
}

/** The SchedulingGates plugin's PreEnqueue (the queue package cannot depend on the plugin). */
export class SchedulingGatesPreEnqueuePlugin implements PreEnqueuePlugin {
  name(): string {
    return "SchedulingGates";
  }
  preEnqueue(pod: Pod): Status | null {
    const gates = pod.spec?.schedulingGates ?? [];
    if (gates.length === 0) return null;
    return new Status(
      Code.UnschedulableAndUnresolvable,
      `waiting for scheduling gates: ${gates.map((g) => g.name).join(", ")}`,
    );
  }
}
