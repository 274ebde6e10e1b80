import { type Pod, podKey, podPriority } from "@kubesched/api";
import {
  ActionType,
  type ClusterEvent,
  Code,
  EventResource,
  ManualClock,
  PodInfo,
  type PreEnqueuePlugin,
  type QueuedPodInfo,
  QueueingHint,
  type QueueingHintFn,
  Status,
} from "@kubesched/framework";
import { makePod, recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { EventAssignedPodAdd, EventUnschedulableTimeout } from "./events";
import type { QueueingHintMap, QueueingHintMapPerProfile } from "./queueing-hints";
import { PriorityQueue, QueueingStrategy, type QueueOptions } from "./scheduling-queue";

// --- fixtures (upstream scheduling_queue_test.go) ---

/** PrioritySort: higher priority first, then earlier timestamp. */
const prioritySortLess = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => {
  const p1 = podPriority(a.podInfo.pod);
  const p2 = podPriority(b.podInfo.pod);
  return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
};

const pvAdd: ClusterEvent = { resource: EventResource.PersistentVolume, actionType: ActionType.Add };
const pvUpdate: ClusterEvent = { resource: EventResource.PersistentVolume, actionType: ActionType.Update };
const pvcAdd: ClusterEvent = { resource: EventResource.PersistentVolumeClaim, actionType: ActionType.Add };
const nodeAdd: ClusterEvent = { resource: EventResource.Node, actionType: ActionType.Add };
const csiNodeUpdate: ClusterEvent = { resource: EventResource.CSINode, actionType: ActionType.Update };

const queueHintReturnQueue: QueueingHintFn = () => QueueingHint.Queue;
const queueHintReturnSkip: QueueingHintFn = () => QueueingHint.QueueSkip;
const queueHintThrow: QueueingHintFn = () => {
  throw new Error("hint failed");
};

function hintMap(
  entries: [ClusterEvent, [string, QueueingHintFn | undefined][]][],
): QueueingHintMapPerProfile {
  const m: QueueingHintMap = entries.map(([event, hints]) => ({
    event,
    hints: hints.map(([pluginName, queueingHintFn]) => ({ pluginName, queueingHintFn })),
  }));
  return new Map([["", m]]);
}

const start = 1_700_000_000_000;

function newQueue(opts: Partial<QueueOptions> = {}): { q: PriorityQueue; clock: ManualClock } {
  const clock = opts.clock instanceof ManualClock ? opts.clock : new ManualClock(start);
  return {
    q: new PriorityQueue({ lessFn: prioritySortLess, logger: recordingLogger(), ...opts, clock }),
    clock,
  };
}

function newInfo(pod: Pod, timestamp = start): QueuedPodInfo {
  return {
    podInfo: new PodInfo(pod),
    timestamp,
    attempts: 0,
    unschedulableCount: 0,
    consecutiveErrorsCount: 0,
    initialAttemptTimestamp: null,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: "",
  };
}

/** A lookup QueuedPodInfo for a pod with the given rejector plugins (upstream newQueuedPodInfoForLookup). */
function lookupInfo(q: PriorityQueue, pod: Pod, ...plugins: string[]): QueuedPodInfo {
  const p = q.getPod(pod) ?? newInfo(pod);
  return { ...p, unschedulablePlugins: new Set(plugins), pendingPlugins: new Set() };
}

function popPod(q: PriorityQueue, pod: Pod): QueuedPodInfo {
  const p = q.pop();
  expect(p?.podInfo.pod.metadata?.uid).toBe(pod.metadata?.uid);
  return p!;
}

const names = (pods: QueuedPodInfo[]): string[] => pods.map((p) => p.podInfo.pod.metadata?.name ?? "").sort();

const highPriorityPod = makePod().name("hpp").namespace("ns1").uid("hppns1").priority(100).obj();
const medPriorityPod = makePod()
  .name("mpp")
  .namespace("ns2")
  .uid("mppns2")
  .annotation("annot2", "val2")
  .priority(50)
  .nominatedNodeName("node1")
  .obj();
const unschedulablePod = makePod()
  .name("up")
  .namespace("ns1")
  .uid("upns1")
  .annotation("annot2", "val2")
  .priority(0)
  .nominatedNodeName("node1")
  .condition("PodScheduled", "False", "Unschedulable")
  .obj();

describe("TestPriorityQueue_Add", () => {
  it("adds pods in priority order and records nominations", () => {
    const { q } = newQueue();
    q.add(medPriorityPod);
    q.add(unschedulablePod);
    q.add(highPriorityPod);
    expect(Object.fromEntries(q.nominator.nominatedPodToNode)).toEqual({ mppns2: "node1", upns1: "node1" });
    expect(q.nominator.nominatedPods.get("node1")?.map((r) => r.uid)).toEqual(["mppns2", "upns1"]);
    popPod(q, highPriorityPod);
    popPod(q, medPriorityPod);
    popPod(q, unschedulablePod);
    // Nominations stay until the pods are assumed or deleted.
    expect(q.nominator.nominatedPods.get("node1")).toHaveLength(2);
  });
});

describe("Test_InFlightPods", () => {
  const pod1 = makePod().name("targetpod").uid("pod1").obj();
  const pod2 = makePod().name("targetpod2").uid("pod2").obj();
  const pod3 = makePod().name("targetpod3").uid("pod3").obj();

  type Action =
    | { eventHappens: ClusterEvent }
    | { podPopped: Pod }
    | { podCreated: Pod }
    | { podEnqueued: Pod; unschedulable?: string[]; pending?: string[] }
    | { callback: (q: PriorityQueue) => void };

  const tests: {
    name: string;
    queueingHintMap: QueueingHintMapPerProfile;
    initialPods: Pod[];
    actions: Action[];
    wantInFlightPods?: Pod[];
    wantInFlightEvents?: Array<Pod | ClusterEvent>;
    wantActiveQPodNames?: string[];
    wantBackoffQPodNames?: string[];
    wantUnschedPodPoolPodNames?: string[];
  }[] = [
    {
      name: "Pod and interested events are registered in inFlightPods/inFlightEvents",
      initialPods: [pod1],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { eventHappens: pvUpdate },
      ],
      wantInFlightPods: [pod1],
      wantInFlightEvents: [pod1, pvAdd],
      queueingHintMap: hintMap([[pvAdd, [["fooPlugin1", queueHintReturnQueue]]]]),
    },
    {
      name: "Pod, registered in inFlightPods, is enqueued back to activeQ",
      initialPods: [pod1, pod2],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1 },
      ],
      wantBackoffQPodNames: ["targetpod"],
      wantInFlightPods: [pod2],
      wantInFlightEvents: [pod2, nodeAdd],
      queueingHintMap: hintMap([
        [pvAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [nodeAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [pvcAdd, [["fooPlugin1", queueHintReturnQueue]]],
      ]),
    },
    {
      name: "All Pods registered in inFlightPods are enqueued back to activeQ",
      initialPods: [pod1, pod2],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1 },
        { eventHappens: csiNodeUpdate },
        { podEnqueued: pod2 },
      ],
      wantBackoffQPodNames: ["targetpod", "targetpod2"],
      wantInFlightPods: [],
      queueingHintMap: hintMap([
        [pvAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [nodeAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [pvcAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [csiNodeUpdate, [["fooPlugin1", queueHintReturnQueue]]],
      ]),
    },
    {
      name: "One intermediate Pod registered in inFlightPods is enqueued back to activeQ",
      initialPods: [pod1, pod2, pod3],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        { eventHappens: nodeAdd },
        { podPopped: pod3 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod2 },
      ],
      wantBackoffQPodNames: ["targetpod2"],
      wantInFlightPods: [pod1, pod3],
      wantInFlightEvents: [pod1, pvAdd, nodeAdd, pod3, EventAssignedPodAdd],
      queueingHintMap: hintMap([
        [pvAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [nodeAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [EventAssignedPodAdd, [["fooPlugin1", queueHintReturnQueue]]],
      ]),
    },
    {
      name: "events before popping Pod are ignored when Pod is enqueued back to queue",
      initialPods: [pod1],
      actions: [
        { eventHappens: EventUnschedulableTimeout },
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, unschedulable: ["fooPlugin1"] },
      ],
      wantUnschedPodPoolPodNames: ["targetpod"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([[EventAssignedPodAdd, [["fooPlugin1", queueHintReturnSkip]]]]),
    },
    {
      name: "pod is enqueued to backoff if no failed plugin",
      initialPods: [pod1],
      actions: [{ podPopped: pod1 }, { eventHappens: EventAssignedPodAdd }, { podEnqueued: pod1 }],
      wantBackoffQPodNames: ["targetpod"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([[EventAssignedPodAdd, [["fooPlugin1", queueHintReturnQueue]]]]),
    },
    {
      name: "pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable",
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1, unschedulable: ["fooPlugin1"] },
      ],
      wantUnschedPodPoolPodNames: ["targetpod"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([[EventAssignedPodAdd, [["fooPlugin1", queueHintReturnQueue]]]]),
    },
    {
      name: "pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it returns Skip",
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, unschedulable: ["fooPlugin1"] },
      ],
      wantUnschedPodPoolPodNames: ["targetpod"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([[EventAssignedPodAdd, [["fooPlugin1", queueHintReturnSkip]]]]),
    },
    {
      name: "pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue",
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, unschedulable: ["fooPlugin2", "fooPlugin3"], pending: ["fooPlugin1"] },
      ],
      wantActiveQPodNames: ["targetpod"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([
        [
          EventAssignedPodAdd,
          [
            ["fooPlugin3", queueHintReturnSkip],
            ["fooPlugin2", queueHintReturnQueue],
            ["fooPlugin1", queueHintReturnQueue],
          ],
        ],
      ]),
    },
    {
      name: "pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue",
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, unschedulable: ["fooPlugin1", "fooPlugin2"] },
      ],
      wantBackoffQPodNames: ["targetpod"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([
        [
          EventAssignedPodAdd,
          [
            ["fooPlugin2", queueHintReturnSkip],
            ["fooPlugin1", queueHintReturnQueue],
          ],
        ],
      ]),
    },
    {
      name: "pod is enqueued to activeQ because the failed plugin has a hint fn and it returns Queue for a concurrent event that was received while some other pod was in flight",
      initialPods: [pod1, pod2],
      actions: [
        { podPopped: pod1 },
        { eventHappens: nodeAdd },
        { podPopped: pod2 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1 },
        { podEnqueued: pod2, unschedulable: ["fooPlugin2", "fooPlugin3"], pending: ["fooPlugin1"] },
      ],
      wantActiveQPodNames: ["targetpod2"],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      queueingHintMap: hintMap([
        [
          EventAssignedPodAdd,
          [
            ["fooPlugin3", queueHintReturnSkip],
            ["fooPlugin2", queueHintReturnQueue],
            ["fooPlugin1", queueHintReturnQueue],
          ],
        ],
      ]),
    },
    {
      name: "popped pod must have empty UnschedulablePlugins and PendingPlugins",
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { podEnqueued: pod1, unschedulable: ["fooPlugin2"], pending: ["fooPlugin1"] },
        { eventHappens: pvAdd },
        {
          callback: (q) => {
            const p = popPod(q, pod1);
            expect(p.unschedulablePlugins.size).toBe(0);
            expect(p.pendingPlugins.size).toBe(0);
            // Failed without rejector plugins: to backoff.
            q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
          },
        },
      ],
      wantBackoffQPodNames: ["targetpod"],
      queueingHintMap: hintMap([[pvAdd, [["fooPlugin1", queueHintReturnQueue]]]]),
    },
    {
      name: "Pop is made twice for the same Pod, but the cleanup still happen correctly",
      initialPods: [pod1, pod2],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        // Simulate a bug: pod1 put into activeQ while it is being scheduled.
        { callback: (q) => q.activeQ.queue.addOrUpdate(newInfo(pod1)) },
        { podCreated: pod3 },
        // pod1 is discarded (already in flight), pod3 is popped.
        { podPopped: pod3 },
        { callback: (q) => expect(q.activeQ.queue.len()).toBe(0) },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1 },
        { eventHappens: csiNodeUpdate },
        { podEnqueued: pod2 },
        { podEnqueued: pod3 },
      ],
      wantBackoffQPodNames: ["targetpod", "targetpod2", "targetpod3"],
      wantInFlightPods: [],
      queueingHintMap: hintMap([
        [pvAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [nodeAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [pvcAdd, [["fooPlugin1", queueHintReturnQueue]]],
        [csiNodeUpdate, [["fooPlugin1", queueHintReturnQueue]]],
      ]),
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newQueue({ queueingHintMap: tc.queueingHintMap });
      for (const p of tc.initialPods) {
        q.add(p);
        clock.advance(1000);
      }
      for (const a of tc.actions) {
        if ("podCreated" in a) q.add(a.podCreated);
        else if ("podPopped" in a) popPod(q, a.podPopped);
        else if ("eventHappens" in a) q.moveAllToActiveOrBackoffQueue(a.eventHappens, null, null);
        else if ("podEnqueued" in a) {
          const p = lookupInfo(q, a.podEnqueued, ...(a.unschedulable ?? []));
          p.pendingPlugins = new Set(a.pending ?? []);
          q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
        } else a.callback(q);
      }
      if (tc.wantInFlightPods) {
        expect(
          q
            .inFlightPods()
            .map((p) => p.metadata?.uid)
            .sort(),
        ).toEqual(tc.wantInFlightPods.map((p) => p.metadata?.uid).sort());
      }
      if (tc.wantInFlightEvents) {
        const got = q.activeQ.listInFlightEvents().map((v) => ("event" in v ? v.event : v));
        expect(got).toEqual(tc.wantInFlightEvents);
      }
      if (tc.wantActiveQPodNames)
        expect(names(q.activeQ.queue.list())).toEqual([...tc.wantActiveQPodNames].sort());
      if (tc.wantBackoffQPodNames)
        expect(names(q.backoffQ.list())).toEqual([...tc.wantBackoffQPodNames].sort());
      if (tc.wantUnschedPodPoolPodNames) {
        expect(names([...q.unschedulablePods.podInfoMap.values()])).toEqual(
          [...tc.wantUnschedPodPoolPodNames].sort(),
        );
      }
    });
  }
});

describe("TestPop", () => {
  it("a popped pod has empty PendingPlugins", () => {
    const pod = makePod().name("targetpod").uid("pod1").obj();
    const { q } = newQueue({ queueingHintMap: hintMap([[pvAdd, [["fooPlugin1", queueHintReturnQueue]]]]) });
    q.add(pod);
    const popped = popPod(q, pod);
    // Pending: interpreted as queueImmediately, skipping backoff.
    popped.pendingPlugins = new Set(["fooPlugin1"]);
    q.addUnschedulableIfNotPresent(popped, q.schedulingCycle());
    q.moveAllToActiveOrBackoffQueue(pvAdd, null, null);
    expect(popPod(q, pod).pendingPlugins.size).toBe(0);
  });
});

describe("TestPriorityQueue_AddUnschedulableIfNotPresent", () => {
  it("rejects a pod already queued and always calls Done", () => {
    const { q } = newQueue();
    q.add(unschedulablePod);
    const p = popPod(q, unschedulablePod);
    q.add(highPriorityPod);
    p.unschedulablePlugins.add("plugin");
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    popPod(q, highPriorityPod);
    expect(q.unschedulablePods.getByKey("ns1/up")).toBe(p);
    expect(() => q.addUnschedulableIfNotPresent(p, q.schedulingCycle())).toThrow(
      "Pod ns1/up is already present in unschedulable queue",
    );
    expect(q.inFlightPods().map((x) => x.metadata?.name)).toEqual(["hpp"]);
  });
});

describe("isPodWorthRequeuing", () => {
  const pod = makePod().name("pod1").uid("pod1").obj();
  const tests: {
    name: string;
    unschedulable: string[];
    pending?: string[];
    event: ClusterEvent;
    newObj?: unknown;
    map: QueueingHintMapPerProfile;
    want: QueueingStrategy;
  }[] = [
    {
      name: "no rejector plugins: queue after backoff",
      unschedulable: [],
      event: nodeAdd,
      map: hintMap([[nodeAdd, [["fooPlugin1", queueHintReturnSkip]]]]),
      want: QueueingStrategy.queueAfterBackoff,
    },
    {
      name: "hint error counts as Queue",
      unschedulable: ["fooPlugin1"],
      event: nodeAdd,
      map: hintMap([[nodeAdd, [["fooPlugin1", queueHintThrow]]]]),
      want: QueueingStrategy.queueAfterBackoff,
    },
    {
      name: "missing hint fn counts as Queue",
      unschedulable: ["fooPlugin1"],
      event: nodeAdd,
      map: hintMap([[nodeAdd, [["fooPlugin1", undefined]]]]),
      want: QueueingStrategy.queueAfterBackoff,
    },
    {
      name: "hints of plugins that did not reject the pod are not run",
      unschedulable: ["fooPlugin1"],
      event: nodeAdd,
      map: hintMap([[nodeAdd, [["fooPlugin2", queueHintReturnQueue]]]]),
      want: QueueingStrategy.queueSkip,
    },
    {
      name: "registered event matching the incoming one (Node Add|Update ⊇ Node UpdateNodeLabel)",
      unschedulable: ["fooPlugin1"],
      event: { resource: EventResource.Node, actionType: ActionType.UpdateNodeLabel },
      map: hintMap([
        [
          { resource: EventResource.Node, actionType: ActionType.Add | ActionType.Update },
          [["fooPlugin1", undefined]],
        ],
      ]),
      want: QueueingStrategy.queueAfterBackoff,
    },
    {
      name: "Queue from a Pending plugin: queue immediately",
      unschedulable: ["fooPlugin2"],
      pending: ["fooPlugin1"],
      event: nodeAdd,
      map: hintMap([
        [
          nodeAdd,
          [
            ["fooPlugin2", queueHintReturnQueue],
            ["fooPlugin1", queueHintReturnQueue],
          ],
        ],
      ]),
      want: QueueingStrategy.queueImmediately,
    },
    {
      name: "wildcard event: queue after backoff",
      unschedulable: ["fooPlugin1"],
      event: EventUnschedulableTimeout,
      map: hintMap([]),
      want: QueueingStrategy.queueAfterBackoff,
    },
    {
      name: "wildcard event targeting another pod: skip",
      unschedulable: ["fooPlugin1"],
      event: EventUnschedulableTimeout,
      newObj: makePod().name("other").uid("other").obj(),
      map: hintMap([]),
      want: QueueingStrategy.queueSkip,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { q } = newQueue({ queueingHintMap: tc.map });
      const p = lookupInfo(q, pod, ...tc.unschedulable);
      p.pendingPlugins = new Set(tc.pending ?? []);
      expect(q.isPodWorthRequeuing(p, tc.event, null, tc.newObj ?? null)).toBe(tc.want);
    });
  }
  it("a hint error is logged with the plugin and the pod (upstream logs it)", () => {
    const logger = recordingLogger();
    const { q } = newQueue({
      queueingHintMap: hintMap([[nodeAdd, [["fooPlugin1", queueHintThrow]]]]),
      logger,
    });
    const p = lookupInfo(q, pod, "fooPlugin1");
    q.isPodWorthRequeuing(p, nodeAdd, null, null);
    expect(logger.entries).toEqual([
      {
        level: "error",
        v: 0,
        msg: "QueueingHintFn returns error",
        fields: { err: new Error("hint failed"), plugin: "fooPlugin1", pod: podKey(pod) },
      },
    ]);
  });
});

describe("backoff", () => {
  it("initial × 2^(count−1) capped at max, counting errors and rejections separately", () => {
    const { q, clock } = newQueue({ queueingHintMap: hintMap([[nodeAdd, [["fooPlugin1", undefined]]]]) });
    const pod = makePod().name("p").uid("p").obj();
    q.add(pod);
    const want = [1000, 2000, 4000, 8000, 10_000, 10_000];
    for (const d of want) {
      const p = q.pop()!;
      p.unschedulablePlugins.add("fooPlugin1");
      q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
      expect(q.backoffQ.getBackoffTime(p) - clock.now()).toBe(d);
      q.moveAllToActiveOrBackoffQueue(nodeAdd, null, null);
      expect(q.counts().backoff).toBe(1);
      clock.advance(d + 1000);
      q.flushBackoffQCompleted();
      expect(q.counts().active).toBe(1);
    }
    // An error resets nothing but uses its own count.
    const p = q.pop()!;
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    expect(p.consecutiveErrorsCount).toBe(1);
    expect(q.backoffQ.getBackoffTime(p) - clock.now()).toBe(1000);
  });

  it("truncates the expiration to the second and pops the backoffQ head when activeQ is empty", () => {
    const { q, clock } = newQueue();
    clock.advance(300);
    const a = makePod().name("a").uid("a").priority(1).obj();
    const b = makePod().name("b").uid("b").priority(5).obj();
    q.add(a);
    q.add(b);
    for (const pod of [b, a]) {
      const p = popPod(q, pod);
      p.unschedulablePlugins.add("x");
      q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
      // The pool would keep it; force it into backoffQ through a wildcard event.
      q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
    }
    const pa = q.getPod(a)!;
    expect(q.backoffQ.getBackoffTime(pa)).toBe(start + 1000);
    expect(q.counts()).toEqual({ active: 0, backoff: 2, unschedulable: 0, gated: 0 });
    // activeQ empty: the backoffQ head pops right away, ordered by priority in the same window.
    expect(q.hasActive()).toBe(true);
    expect(q.pop()?.podInfo.pod.metadata?.name).toBe("b");
  });

  it("maxBackoff 0 disables backoff", () => {
    const { q } = newQueue({ podMaxBackoffMs: 0 });
    q.add(highPriorityPod);
    const p = q.pop()!;
    p.unschedulablePlugins.add("x");
    expect(q.backoffQ.isPodBackingoff(p)).toBe(false);
  });
});

describe("TestBackoffQueue_calculateBackoffDuration", () => {
  const tests = [
    { name: "no backoff", initial: 1, max: 32, count: 0, want: 0 },
    { name: "normal", initial: 1, max: 32, count: 16, want: 32 },
    { name: "overflow_32bit", initial: 1, max: 2 ** 31 - 1, count: 32, want: 2 ** 31 - 1 },
    {
      name: "overflow_64bit",
      initial: 1,
      max: Number.MAX_SAFE_INTEGER,
      count: 64,
      want: Number.MAX_SAFE_INTEGER,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { q } = newQueue({ podInitialBackoffMs: tc.initial, podMaxBackoffMs: tc.max });
      expect(q.backoffQ.calculateBackoffDuration(tc.count)).toBe(tc.want);
    });
  }
});

describe("TestBackoffQueue_popEachBackoffCompleted", () => {
  const info = (name: string, ts: number, plugins: string[]): QueuedPodInfo => {
    return {
      ...newInfo(makePod().name(name).obj()),
      timestamp: ts,
      attempts: 1,
      unschedulableCount: plugins.length > 0 ? 1 : 0,
      consecutiveErrorsCount: plugins.length > 0 ? 0 : 1,
      unschedulablePlugins: new Set(plugins),
    };
  };
  // Expirations are truncated to the second: pods 0/2 completed a second ago, pods 1/3 expire later.
  const podInfos: Record<string, () => QueuedPodInfo> = {
    pod0: () => info("pod0", start - 2000, ["plugin"]),
    pod1: () => info("pod1", start + 1000, ["plugin"]),
    pod2: () => info("pod2", start - 2000, []),
    pod3: () => info("pod3", start + 1000, []),
  };
  const tests = [
    { name: "Both queues empty, no pods moved to activeQ", podsInBackoff: [], wantPods: [] },
    {
      name: "Pods only in backoffQ, some pods moved to activeQ",
      podsInBackoff: ["pod0", "pod1"],
      wantPods: ["pod0"],
    },
    {
      name: "Pods only in errorBackoffQ, some pods moved to activeQ",
      podsInBackoff: ["pod2", "pod3"],
      wantPods: ["pod2"],
    },
    {
      name: "Pods in both queues, some pods moved to activeQ",
      podsInBackoff: ["pod0", "pod1", "pod2", "pod3"],
      wantPods: ["pod0", "pod2"],
    },
    {
      name: "Pods in both queues, all pods moved to activeQ",
      podsInBackoff: ["pod0", "pod2"],
      wantPods: ["pod0", "pod2"],
    },
    { name: "Pods in both queues, no pods moved to activeQ", podsInBackoff: ["pod1", "pod3"], wantPods: [] },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { q } = newQueue();
      for (const name of tc.podsInBackoff) q.backoffQ.add(podInfos[name]!());
      const got = q.backoffQ.popAllBackoffCompleted().map((p) => p.podInfo.pod.metadata?.name);
      expect(got).toEqual(tc.wantPods);
      expect(q.backoffQ.len()).toBe(tc.podsInBackoff.length - tc.wantPods.length);
    });
  }
});

describe("PreEnqueue gating", () => {
  class Gate implements PreEnqueuePlugin {
    calls = 0;
    constructor(
      private readonly pluginName: string,
      public allow: boolean,
    ) {}
    name(): string {
      return this.pluginName;
    }
    preEnqueue(): Status | null {
      this.calls++;
      return this.allow ? null : new Status(Code.UnschedulableAndUnresolvable, "gated");
    }
  }

  it("a gated pod waits in the pool, records its gating plugin and is released by its plugin's event", () => {
    const gate = new Gate("Gate", false);
    const other = new Gate("Other", true);
    const gateEvent: ClusterEvent = { resource: EventResource.Node, actionType: ActionType.Add };
    const { q } = newQueue({
      preEnqueuePluginMap: new Map([["", [other, gate]]]),
      queueingHintMap: hintMap([
        [gateEvent, [["Gate", queueHintReturnQueue]]],
        [pvAdd, [["Other", queueHintReturnQueue]]],
      ]),
    });
    q.add(highPriorityPod);
    expect(q.counts()).toEqual({ active: 0, backoff: 0, unschedulable: 0, gated: 1 });
    const p = q.getPod(highPriorityPod)!;
    expect(p.gatingPlugin).toBe("Gate");
    expect([...p.unschedulablePlugins]).toEqual(["Gate"]);
    // Events the gating plugin did not register for are not even evaluated.
    q.moveAllToActiveOrBackoffQueue(pvAdd, null, null);
    expect(q.counts().gated).toBe(1);
    // Still gated: the gating plugin runs first and stops the rest.
    other.calls = 0;
    q.moveAllToActiveOrBackoffQueue(gateEvent, null, null);
    expect(other.calls).toBe(0);
    expect(q.counts().gated).toBe(1);
    gate.allow = true;
    q.moveAllToActiveOrBackoffQueue(gateEvent, null, null);
    expect(q.counts()).toEqual({ active: 1, backoff: 0, unschedulable: 0, gated: 0 });
    expect(q.getPod(highPriorityPod)!.gatingPlugin).toBe("");
  });

  it("an update removing the scheduling gates releases the pod (TargetPod event)", () => {
    const gate = new Gate("SchedulingGates", false);
    const { q } = newQueue({
      preEnqueuePluginMap: new Map([["", [gate]]]),
      queueingHintMap: hintMap([
        [
          { resource: EventResource.TargetPod, actionType: ActionType.UpdatePodSchedulingGatesEliminated },
          [["SchedulingGates", queueHintReturnQueue]],
        ],
      ]),
    });
    const gated = makePod().name("g").uid("g").schedulingGates(["example.com/gate"]).obj();
    q.add(gated);
    expect(q.counts().gated).toBe(1);
    gate.allow = true;
    q.update(gated, makePod().name("g").uid("g").obj());
    expect(q.counts()).toEqual({ active: 1, backoff: 0, unschedulable: 0, gated: 0 });
  });
});

describe("flushes", () => {
  it("run() flushes completed backoffs every second, aligned to the second", () => {
    const clock = new ManualClock(start + 250);
    const { q } = newQueue({ clock });
    q.run();
    q.add(highPriorityPod);
    const p = q.pop()!;
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    expect(q.counts().backoff).toBe(1);
    // Error backoff 1 s from start+250 → start+1250, truncated to start+1000: completes at the
    // flush at start+2000.
    expect(q.nextEventTime()).toBe(start + 2000);
    clock.advance(1749);
    expect(q.counts().backoff).toBe(1);
    clock.advance(1);
    expect(q.counts()).toMatchObject({ active: 1, backoff: 0 });
    q.close();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("pods staying longer than podMaxInUnschedulablePodsDuration in the pool are moved (UnschedulableTimeout)", () => {
    const incoming: string[] = [];
    const { q, clock } = newQueue({
      metrics: { incomingPod: (queue, event) => incoming.push(`${queue}/${event}`) },
    });
    q.run();
    q.add(highPriorityPod);
    const p = q.pop()!;
    p.unschedulablePlugins.add("fooPlugin1");
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    expect(q.counts().unschedulable).toBe(1);
    expect(q.nextEventTime()).toBe(start + 5 * 60 * 1000 + 30_000);
    clock.advance(5 * 60 * 1000);
    expect(q.counts().unschedulable).toBe(1);
    clock.advance(30_000);
    expect(q.counts().active).toBe(1);
    expect(incoming).toEqual([
      "active/UnscheduledPodAdd",
      "unschedulable/ScheduleAttemptFailure",
      "active/UnschedulableTimeout",
    ]);
    q.close();
  });
});

describe("Activate", () => {
  it("moves pods from the pool and backoffQ; records a targeted event for in-flight pods", () => {
    const { q } = newQueue({ queueingHintMap: hintMap([[nodeAdd, [["fooPlugin1", queueHintReturnSkip]]]]) });
    q.add(highPriorityPod);
    q.add(medPriorityPod);
    const hp = q.pop()!;
    hp.unschedulablePlugins.add("fooPlugin1");
    q.addUnschedulableIfNotPresent(hp, q.schedulingCycle());
    const mp = q.pop()!;
    q.activate(
      new Map([
        ["x", highPriorityPod],
        ["y", medPriorityPod],
      ]),
    );
    expect(q.counts().active).toBe(1);
    mp.unschedulablePlugins.add("fooPlugin1");
    q.addUnschedulableIfNotPresent(mp, q.schedulingCycle());
    // The ForceActivate recorded while in flight requeues it (after backoff).
    expect(q.counts()).toMatchObject({ active: 1, backoff: 1, unschedulable: 0 });
  });
});

describe("Update and Delete", () => {
  it("updates in place in activeQ, re-evaluates the pool, adds unknown pods, deletes everywhere", () => {
    const labelEvent: ClusterEvent = {
      resource: EventResource.TargetPod,
      actionType: ActionType.UpdatePodLabel,
    };
    const { q } = newQueue({
      queueingHintMap: hintMap([[labelEvent, [["fooPlugin1", queueHintReturnQueue]]]]),
    });
    q.add(highPriorityPod);
    const updated = makePod().name("hpp").namespace("ns1").uid("hppns1").priority(100).label("a", "b").obj();
    q.update(highPriorityPod, updated);
    expect(q.getPod(highPriorityPod)!.podInfo.pod).toBe(updated);
    const p = q.pop()!;
    p.pendingPlugins.add("fooPlugin1");
    q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    expect(q.counts().unschedulable).toBe(1);
    q.update(
      updated,
      makePod().name("hpp").namespace("ns1").uid("hppns1").priority(100).label("a", "c").obj(),
    );
    expect(q.counts()).toMatchObject({ active: 1, unschedulable: 0 });
    q.update(medPriorityPod, medPriorityPod);
    expect(q.counts().active).toBe(2);
    q.delete(highPriorityPod);
    q.delete(medPriorityPod);
    expect(q.counts()).toEqual({ active: 0, backoff: 0, unschedulable: 0, gated: 0 });
    expect(q.nominatedPodsForNode("node1")).toEqual([]);
    expect(q.pendingPods().summary).toBe("activeQ:0; backoffQ:0; unschedulableEntities:0");
  });
});

describe("AssignedPodAdded", () => {
  it("only moves pods rejected by PodTopologySpread in the namespace or with a matching required affinity term", () => {
    const { q } = newQueue({
      queueingHintMap: hintMap([
        [
          EventAssignedPodAdd,
          [
            ["PodTopologySpread", undefined],
            ["InterPodAffinity", undefined],
          ],
        ],
      ]),
    });
    const spread = makePod().name("spread").namespace("ns1").uid("spread").obj();
    const spreadOtherNs = makePod().name("spread2").namespace("ns2").uid("spread2").obj();
    const affinity = makePod()
      .name("aff")
      .namespace("ns1")
      .uid("aff")
      .podAffinityExists("app", "zone", 1)
      .obj();
    for (const [pod, plugin] of [
      [spread, "PodTopologySpread"],
      [spreadOtherNs, "PodTopologySpread"],
      [affinity, "InterPodAffinity"],
    ] as const) {
      q.add(pod);
      const p = q.pop()!;
      p.unschedulablePlugins.add(plugin);
      q.addUnschedulableIfNotPresent(p, q.schedulingCycle());
    }
    q.assignedPodAdded(makePod().name("bound").namespace("ns1").label("app", "web").node("n1").obj());
    expect(names(q.backoffQ.list())).toEqual(["aff", "spread"]);
    expect(q.unschedulablePods.getByKey("ns2/spread2")).toBeDefined();
  });
});

describe("nominator", () => {
  it("TestPriorityQueue_UpdateNominatedPodForNode: keeps an in-memory nomination across updates without one", () => {
    const { q } = newQueue();
    q.add(highPriorityPod);
    q.addNominatedPod(q.getPod(highPriorityPod)!.podInfo, { nominatingMode: 1, nominatedNodeName: "node5" });
    expect(q.nominatedPodsForNode("node5").map((p) => p.name)).toEqual(["hpp"]);
    // An update without status.nominatedNodeName keeps the nomination.
    q.update(highPriorityPod, structuredClone(highPriorityPod));
    expect(q.nominatedPodsForNode("node5").map((p) => p.name)).toEqual(["hpp"]);
    // An update carrying a nominatedNodeName replaces it.
    q.update(
      highPriorityPod,
      makePod().name("hpp").namespace("ns1").uid("hppns1").nominatedNodeName("node1").obj(),
    );
    expect(q.nominatedPodsForNode("node5")).toEqual([]);
    expect(q.nominatedPodsForNode("node1").map((p) => p.name)).toEqual(["hpp"]);
    q.deleteNominatedPodIfExists(highPriorityPod);
    expect(q.nominatedPodsForNode("node1")).toEqual([]);
  });

  it("skips pods that are gone or bound in the informer cache", () => {
    const bound = makePod().name("mpp").namespace("ns2").uid("mppns2").node("n1").obj();
    const { q } = newQueue({
      podLister: { list: () => [bound], get: (ns, n) => (ns === "ns2" && n === "mpp" ? bound : undefined) },
    });
    q.add(medPriorityPod);
    q.add(unschedulablePod);
    expect(q.nominatedPodsForNode("node1")).toEqual([]);
  });
});
