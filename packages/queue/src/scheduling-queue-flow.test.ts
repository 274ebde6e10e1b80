// upstream: pkg/scheduler/backend/queue/scheduling_queue_test.go — ordering after failures, backoff
// flow, leftover flushes, timestamps and the queue metrics.
import type { Pod } from "@kubesched/api";
import type { QueuedPodInfo } from "@kubesched/framework";
import { ManualClock } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { EventUnschedulableTimeout } from "./events";
import {
  DefaultPodInitialBackoffMs,
  DefaultPodMaxInUnschedulablePodsDurationMs,
  type PriorityQueue,
  type QueueCounts,
  type QueueName,
} from "./scheduling-queue";
import {
  AllowlistPreEnqueuePlugin,
  EventTargetPodUpdate,
  highPriority,
  hintMap,
  midPriority,
  newQueuedPodInfo,
  newQueuedPodInfoForLookup,
  newTestQueue,
  nodeAdd,
  popPod,
  queuedPodInfo,
  queueHintReturnQueue,
  setQueuedPodInfoGated,
  start,
  whereIs,
} from "./scheduling-queue.test-util";

/** Sets the PodScheduled=False/Unschedulable condition in place (upstream podutil.UpdatePodCondition). */
const unschedulableCondition = (pod: Pod): Pod =>
  Object.assign(pod, {
    status: {
      ...pod.status,
      conditions: [
        {
          type: "PodScheduled",
          status: "False",
          reason: "Unschedulable",
          message: "fake scheduling failure",
        },
      ],
    },
  });

describe("TestRecentlyTriedPodsGoBack", () => {
  it("a pod tried before goes behind pods of the same priority", () => {
    const { q, clock } = newTestQueue();
    for (let i = 0; i < 5; i++) {
      q.add(
        makePod()
          .name(`test-pod-${i}`)
          .namespace("ns1")
          .uid(`tp00${i}`)
          .priority(highPriority)
          .node("node1")
          .nominatedNodeName("node1")
          .obj(),
      );
    }
    clock.advance(1);
    // Popped, found unschedulable, and moved back to the active queue.
    const p1 = q.pop() as QueuedPodInfo;
    unschedulableCondition(p1.podInfo.pod);
    p1.unschedulablePlugins = new Set(["plugin"]);
    q.addUnschedulableIfNotPresent(p1, q.schedulingCycle());
    clock.advance(q.backoffQ.podMaxBackoffMs);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
    // The pod popped first is popped last.
    for (let i = 0; i < 5; i++) {
      const p = q.pop();
      expect(i === 4).toBe(p === p1);
    }
  });
});

describe("TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod", () => {
  it("a pod found unschedulable several times does not block a newer pod", () => {
    const { q, clock } = newTestQueue();
    const unschedulable = unschedulableCondition(
      makePod()
        .name("test-pod-unscheduled")
        .namespace("ns1")
        .uid("tp001")
        .priority(highPriority)
        .nominatedNodeName("node1")
        .obj(),
    );
    q.add(unschedulable);
    expect(q.pop()?.podInfo.pod).toBe(unschedulable);
    q.addUnschedulableIfNotPresent(newQueuedPodInfoForLookup(unschedulable, "plugin"), q.schedulingCycle());
    // Complete the backoff and move everything to the active queue.
    clock.advance(DefaultPodInitialBackoffMs + 1000);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
    expect(q.pop()?.podInfo.pod).toBe(unschedulable);

    // A newer pod is added after the pod was popped and before it is back.
    const newerPod = makePod()
      .name("test-newer-pod")
      .namespace("ns1")
      .uid("tp002")
      .creationTimestamp(new Date(start))
      .priority(highPriority)
      .nominatedNodeName("node1")
      .obj();
    q.add(newerPod);
    // The pod is found unschedulable AGAIN.
    q.addUnschedulableIfNotPresent(newQueuedPodInfoForLookup(unschedulable, "plugin"), q.schedulingCycle());
    clock.advance(DefaultPodInitialBackoffMs + 1000);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);

    // The newer pod is popped first: it is the oldest tried pod.
    expect(q.pop()?.podInfo.pod).toBe(newerPod);
  });
});

describe("TestHighPriorityBackoff", () => {
  it("an unschedulable high priority pod does not block other pods", () => {
    const { q } = newTestQueue();
    const midPod = makePod()
      .name("test-midpod")
      .namespace("ns1")
      .uid("tp-mid")
      .priority(midPriority)
      .nominatedNodeName("node1")
      .obj();
    const highPod = makePod()
      .name("test-highpod")
      .namespace("ns1")
      .uid("tp-high")
      .priority(highPriority)
      .nominatedNodeName("node1")
      .obj();
    q.add(midPod);
    q.add(highPod);
    const p = q.pop() as QueuedPodInfo;
    expect(p.podInfo.pod).toBe(highPod);
    unschedulableCondition(p.podInfo.pod);
    q.addUnschedulableIfNotPresent(
      newQueuedPodInfoForLookup(p.podInfo.pod, "fooPlugin"),
      q.schedulingCycle(),
    );
    // Move all unschedulable pods to the active/backoff queue: the high priority pod backs off.
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
    expect(q.pop()?.podInfo.pod).toBe(midPod);
  });
});

describe("TestHighPriorityFlushUnschedulableEntitiesLeftover", () => {
  it("moves pods left in the pool longer than podMaxInUnschedulablePodsDuration to activeQ", () => {
    const { q, clock } = newTestQueue({
      queueingHintMap: hintMap([[nodeAdd, [["fakePlugin", queueHintReturnQueue]]]]),
    });
    const midPod = unschedulableCondition(
      makePod()
        .name("test-midpod")
        .namespace("ns1")
        .uid("tp-mid")
        .priority(midPriority)
        .nominatedNodeName("node1")
        .obj(),
    );
    const highPod = unschedulableCondition(
      makePod()
        .name("test-highpod")
        .namespace("ns1")
        .uid("tp-high")
        .priority(highPriority)
        .nominatedNodeName("node1")
        .obj(),
    );
    q.add(highPod);
    popPod(q, highPod);
    q.add(midPod);
    popPod(q, midPod);
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, highPod, "fakePlugin"), q.schedulingCycle());
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, midPod, "fakePlugin"), q.schedulingCycle());
    clock.advance(DefaultPodMaxInUnschedulablePodsDurationMs + 1000);
    q.flushUnschedulablePodsLeftover();

    expect(q.pop()?.podInfo.pod).toBe(highPod);
    expect(q.pop()?.podInfo.pod).toBe(midPod);
  });
});

describe("TestGatedPodFlushFrequency", () => {
  it("queued pod", () => {
    // An empty allowlist gates every pod.
    const gate = new AllowlistPreEnqueuePlugin();
    let preEnqueueCalls = 0;
    const counting = {
      name: () => gate.name(),
      preEnqueue: (pod: Pod) => {
        preEnqueueCalls++;
        return gate.preEnqueue(pod);
      },
    };
    const flushDuration = 5 * 60 * 1000;
    const { q, clock } = newTestQueue({
      preEnqueuePluginMap: new Map([["", [counting]]]),
      podMaxInUnschedulablePodsDurationMs: flushDuration,
    });
    const pod = makePod().name("pod1").namespace("ns1").uid("1").obj();
    const pInfo = setQueuedPodInfoGated(queuedPodInfo(pod, { timestamp: clock.now() }), "preEnqueuePlugin");
    q.unschedulablePods.addOrUpdate(pInfo);

    // T=5:01: flushed (PreEnqueue runs again; the pod stays gated).
    clock.advance(flushDuration + 1000);
    q.flushUnschedulablePodsLeftover();
    expect(preEnqueueCalls).toBe(1);
    expect(whereIs(q, pod)).toBe("unschedulableQ");

    // T=9:01: less than the duration since the last flush: not flushed.
    clock.advance(4 * 60 * 1000);
    q.flushUnschedulablePodsLeftover();
    expect(preEnqueueCalls).toBe(1);

    // T=10:02: the duration passed since the last flush: flushed again.
    clock.advance(60 * 1000 + 1000);
    q.flushUnschedulablePodsLeftover();
    expect(preEnqueueCalls).toBe(2);
    expect(whereIs(q, pod)).toBe("unschedulableQ");
  });
});

describe("TestPriorityQueue_initPodMaxInUnschedulablePodsDuration", () => {
  const tests = [
    { name: "New priority queue by the default value of podMaxInUnschedulablePodsDuration" },
    {
      name: "New priority queue by user-defined value of podMaxInUnschedulablePodsDuration",
      podMaxInUnschedulablePodsDurationMs: 30_000,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue({
        podMaxInUnschedulablePodsDurationMs: tc.podMaxInUnschedulablePodsDurationMs,
      });
      const pInfo1 = queuedPodInfo(
        makePod().name("test-pod-1").namespace("ns1").uid("tp-1").nominatedNodeName("node1").obj(),
        { timestamp: start - 1000 },
      );
      const pInfo2 = queuedPodInfo(
        makePod().name("test-pod-2").namespace("ns2").uid("tp-2").nominatedNodeName("node2").obj(),
        { timestamp: start - 2000 },
      );
      // addPodUnschedulablePods
      for (const p of [pInfo1, pInfo2]) {
        unschedulableCondition(p.podInfo.pod);
        p.unschedulableCount++;
        q.unschedulablePods.addOrUpdate(p);
      }
      // flushUnscheduledQ
      clock.advance(tc.podMaxInUnschedulablePodsDurationMs ?? DefaultPodMaxInUnschedulablePodsDurationMs);
      q.flushUnschedulablePodsLeftover();

      expect(q.activeQ.queue.len()).toBe(2);
      expect([q.activeQ.queue.pop(), q.activeQ.queue.pop()]).toEqual([pInfo2, pInfo1]);
    });
  }
});

describe("TestPodTimestamp", () => {
  type Op =
    | "addPodActiveQDirectly"
    | "addPodUnschedulablePods"
    | "addPodBackoffQ"
    | "moveClockForward"
    | "moveAllToActiveOrBackoffQ"
    | "flushBackoffQ";
  const run = (q: PriorityQueue, clock: ManualClock, op: Op, pInfo?: QueuedPodInfo) => {
    switch (op) {
      case "addPodActiveQDirectly":
        q.activeQ.queue.addOrUpdate(pInfo as QueuedPodInfo);
        break;
      case "addPodUnschedulablePods":
        unschedulableCondition((pInfo as QueuedPodInfo).podInfo.pod);
        (pInfo as QueuedPodInfo).unschedulableCount++;
        q.unschedulablePods.addOrUpdate(pInfo as QueuedPodInfo);
        break;
      case "addPodBackoffQ":
        q.backoffQ.add(pInfo as QueuedPodInfo);
        break;
      case "moveClockForward":
        clock.advance(3000);
        break;
      case "moveAllToActiveOrBackoffQ":
        q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
        break;
      case "flushBackoffQ":
        clock.advance(3000);
        q.flushBackoffQCompleted();
        break;
    }
  };
  const tests: { name: string; operations: Op[]; operands: (1 | 2 | null)[]; expected: (1 | 2)[] }[] = [
    {
      name: "add two pod to activeQ and sort them by the timestamp",
      operations: ["addPodActiveQDirectly", "addPodActiveQDirectly"],
      operands: [2, 1],
      expected: [1, 2],
    },
    {
      name: "add two pod to unschedulableEntities then move them to activeQ and sort them by the timestamp",
      operations: [
        "addPodUnschedulablePods",
        "addPodUnschedulablePods",
        "moveClockForward",
        "moveAllToActiveOrBackoffQ",
      ],
      operands: [2, 1, null, null],
      expected: [1, 2],
    },
    {
      name: "add one pod to BackoffQ and move it to activeQ",
      operations: ["addPodActiveQDirectly", "addPodBackoffQ", "flushBackoffQ", "moveAllToActiveOrBackoffQ"],
      operands: [2, 1, null, null],
      expected: [1, 2],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue();
      const pInfos = {
        1: queuedPodInfo(
          makePod().name("test-pod-1").namespace("ns1").uid("tp-1").nominatedNodeName("node1").obj(),
          {
            timestamp: start,
          },
        ),
        2: queuedPodInfo(
          makePod().name("test-pod-2").namespace("ns2").uid("tp-2").nominatedNodeName("node2").obj(),
          {
            timestamp: start + 1000,
          },
        ),
      };
      tc.operations.forEach((op, i) => {
        const operand = tc.operands[i];
        run(q, clock, op, operand ? pInfos[operand] : undefined);
      });
      expect(q.activeQ.queue.len()).toBe(tc.expected.length);
      const got = tc.expected.map(() => q.activeQ.queue.pop());
      expect(got).toEqual(tc.expected.map((i) => pInfos[i]));
    });
  }
});

// upstream TestSchedulerPodsMetric (formerly TestPendingPodsMetric): the scheduler_pending_pods gauges.
// The queue reports them through the pendingPods callback after each public operation; these
// tables also put pods straight into the internal queues (as upstream does), so the gauges are
// checked against counts(), the snapshot the callback reports.
describe("TestSchedulerPodsMetric", () => {
  type Op =
    | "add"
    | "addPodActiveQ"
    | "addPodBackoffQ"
    | "addPodUnschedulablePods"
    | "deletePod"
    | "updatePodQueueable"
    | "moveAllToActiveOrBackoffQ"
    | "moveClockForward"
    | "flushBackoffQ"
    | "updatePluginToGateAllPods"
    | "updatePluginToUngateAllPods";
  const total = 60;
  const queueableNum = 50;
  const makeQueuedPodInfos = (
    num: number,
    prefix: string,
    label: string,
    timestamp: number,
  ): QueuedPodInfo[] => {
    const out: QueuedPodInfo[] = [];
    for (let i = 1; i <= num; i++) {
      out.push(
        queuedPodInfo(
          makePod().name(`${prefix}-${i}`).namespace(`ns${i}`).label(label, "").uid(`tp-${i}`).obj(),
          {
            timestamp,
          },
        ),
      );
    }
    return out;
  };
  /** The 50 queueable pods then the 10 gated ones, and 20 queueable pods 2 s younger. */
  const fixtures = () => {
    const pInfos = makeQueuedPodInfos(queueableNum, "x", "queueable", start);
    const gated = makeQueuedPodInfos(total - queueableNum, "y", "failme", start);
    for (const p of gated) setQueuedPodInfoGated(p, "preEnqueuePlugin");
    return {
      pInfos: [...pInfos, ...gated],
      pInfosWithDelay: makeQueuedPodInfos(20, "z", "queueable", start + 2000),
    };
  };
  type Fixtures = ReturnType<typeof fixtures>;
  const tests: {
    name: string;
    operations: Op[];
    operands: ((f: Fixtures) => (QueuedPodInfo | null)[])[];
    disablePopFromBackoffQ?: boolean;
    wants: QueueCounts;
  }[] = [
    {
      name: "add pods to activeQ and unschedulableEntities",
      operations: ["addPodActiveQ", "addPodUnschedulablePods"],
      operands: [(f) => f.pInfos.slice(0, 30), (f) => f.pInfos.slice(30)],
      wants: { active: 30, backoff: 0, gated: 10, unschedulable: 20 },
    },
    {
      name: "add pods to all kinds of queues",
      operations: ["addPodActiveQ", "addPodBackoffQ", "addPodUnschedulablePods"],
      operands: [(f) => f.pInfos.slice(0, 15), (f) => f.pInfos.slice(15, 40), (f) => f.pInfos.slice(40)],
      wants: { active: 15, backoff: 25, gated: 10, unschedulable: 10 },
    },
    {
      name: "add pods to unschedulableEntities and then move all to activeQ",
      operations: ["addPodUnschedulablePods", "moveClockForward", "moveAllToActiveOrBackoffQ"],
      operands: [(f) => f.pInfos.slice(0, total), () => [null], () => [null]],
      wants: { active: 50, backoff: 0, gated: 10, unschedulable: 0 },
    },
    {
      name: "make some pods subject to backoff, add pods to unschedulableEntities, and then move all to activeQ",
      operations: [
        "addPodUnschedulablePods",
        "moveClockForward",
        "addPodUnschedulablePods",
        "moveAllToActiveOrBackoffQ",
      ],
      operands: [
        (f) => f.pInfos.slice(20, total),
        () => [null],
        (f) => f.pInfosWithDelay.slice(0, 20),
        () => [null],
      ],
      wants: { active: 30, backoff: 20, gated: 10, unschedulable: 0 },
    },
    {
      name: "make some pods subject to backoff, add pods to unschedulableEntities/activeQ, move all to activeQ, and finally flush backoffQ",
      operations: ["addPodUnschedulablePods", "addPodActiveQ", "moveAllToActiveOrBackoffQ", "flushBackoffQ"],
      operands: [(f) => f.pInfos.slice(0, 40), (f) => f.pInfos.slice(40, 50), () => [null], () => [null]],
      wants: { active: 50, backoff: 0, gated: 0, unschedulable: 0 },
    },
    {
      name: "add pods to activeQ/unschedulableEntities and then delete some Pods",
      operations: ["addPodActiveQ", "addPodUnschedulablePods", "deletePod", "deletePod", "deletePod"],
      operands: [
        (f) => f.pInfos.slice(0, 30),
        (f) => f.pInfos.slice(30),
        (f) => f.pInfos.slice(0, 2),
        (f) => f.pInfos.slice(30, 33),
        (f) => f.pInfos.slice(50, 54),
      ],
      wants: { active: 28, backoff: 0, gated: 6, unschedulable: 17 },
    },
    {
      name: "add pods to activeQ/unschedulableEntities and then update some Pods as queueable",
      operations: ["addPodActiveQ", "addPodUnschedulablePods", "updatePodQueueable"],
      operands: [(f) => f.pInfos.slice(0, 30), (f) => f.pInfos.slice(30), (f) => f.pInfos.slice(50, 55)],
      wants: { active: 35, backoff: 0, gated: 5, unschedulable: 20 },
    },
    {
      name: "Gated metric should be 1 when Ungated to Gated transition into moveToActiveQ",
      operations: [
        "addPodUnschedulablePods",
        "moveClockForward",
        "updatePluginToGateAllPods",
        "updatePodQueueable",
      ],
      operands: [(f) => f.pInfos.slice(0, 1), () => [null], () => [null], (f) => f.pInfos.slice(0, 1)],
      wants: { active: 0, backoff: 0, gated: 1, unschedulable: 0 },
    },
    {
      name: "Gated metric should be 1 when Ungated to Gated transition into moveToBackoffQ",
      operations: ["addPodUnschedulablePods", "updatePluginToGateAllPods", "updatePodQueueable"],
      operands: [(f) => f.pInfos.slice(0, 1), () => [null], (f) => f.pInfos.slice(0, 1)],
      wants: { active: 0, backoff: 0, gated: 1, unschedulable: 0 },
    },
    {
      name: "Gated metric should be 1 when Ungated to Gated transition when popFromBackoffQ is disabled",
      operations: [
        "addPodUnschedulablePods",
        "moveClockForward",
        "updatePluginToGateAllPods",
        "updatePodQueueable",
      ],
      operands: [(f) => f.pInfos.slice(0, 1), () => [null], () => [null], (f) => f.pInfos.slice(0, 1)],
      disablePopFromBackoffQ: true,
      wants: { active: 0, backoff: 0, gated: 1, unschedulable: 0 },
    },
    {
      name: "Gated metric should be 0 when Ungated -> Gated -> Ungated (ActiveQ) transition",
      operations: [
        "addPodUnschedulablePods",
        "moveClockForward",
        "updatePluginToGateAllPods",
        "updatePodQueueable",
        "updatePluginToUngateAllPods",
        "updatePodQueueable",
      ],
      operands: [
        (f) => f.pInfos.slice(0, 1),
        () => [null],
        () => [null],
        (f) => f.pInfos.slice(0, 1),
        () => [null],
        (f) => f.pInfos.slice(0, 1),
      ],
      wants: { active: 1, backoff: 0, gated: 0, unschedulable: 0 },
    },
    {
      name: "Gated metric should be 0 when Ungated -> Gated -> Ungated (BackoffQ) transition",
      operations: [
        "addPodUnschedulablePods",
        "updatePluginToGateAllPods",
        "updatePodQueueable",
        "updatePluginToUngateAllPods",
        "updatePodQueueable",
      ],
      operands: [
        (f) => f.pInfos.slice(0, 1),
        () => [null],
        (f) => f.pInfos.slice(0, 1),
        () => [null],
        (f) => f.pInfos.slice(0, 1),
      ],
      wants: { active: 0, backoff: 1, gated: 0, unschedulable: 0 },
    },
    {
      name: "Gated metric should be 0 when Ungated -> Gated -> Ungated transition, when popFromBackoffQ is disabled",
      operations: [
        "addPodUnschedulablePods",
        "moveClockForward",
        "updatePluginToGateAllPods",
        "updatePodQueueable",
        "updatePluginToUngateAllPods",
        "updatePodQueueable",
      ],
      operands: [
        (f) => f.pInfos.slice(0, 1),
        () => [null],
        () => [null],
        (f) => f.pInfos.slice(0, 1),
        () => [null],
        (f) => f.pInfos.slice(0, 1),
      ],
      disablePopFromBackoffQ: true,
      wants: { active: 1, backoff: 0, gated: 0, unschedulable: 0 },
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const plugin = new AllowlistPreEnqueuePlugin(["queueable"]);
      const reported: QueueCounts[] = [];
      const { q, clock } = newTestQueue({
        preEnqueuePluginMap: new Map([["", [plugin]]]),
        queueingHintMap: hintMap([[EventTargetPodUpdate, [["preEnqueuePlugin", queueHintReturnQueue]]]]),
        popFromBackoffQ: !tc.disablePopFromBackoffQ,
        metrics: { pendingPods: (c) => reported.push(c) },
      });
      const f = fixtures();
      tc.operations.forEach((op, i) => {
        for (const pInfo of (tc.operands[i] as (f: Fixtures) => (QueuedPodInfo | null)[])(f)) {
          switch (op) {
            case "add":
            case "addPodActiveQ":
              q.add((pInfo as QueuedPodInfo).podInfo.pod);
              break;
            case "addPodBackoffQ":
              q.backoffQ.add(pInfo as QueuedPodInfo);
              break;
            case "addPodUnschedulablePods": {
              const p = pInfo as QueuedPodInfo;
              if (p.gatingPlugin === "") {
                unschedulableCondition(p.podInfo.pod);
                // needs to increment it to make it backoff
                p.unschedulableCount++;
              }
              q.unschedulablePods.addOrUpdate(p);
              break;
            }
            case "deletePod":
              q.delete((pInfo as QueuedPodInfo).podInfo.pod);
              break;
            case "updatePodQueueable": {
              const oldPod = (pInfo as QueuedPodInfo).podInfo.pod;
              const newPod = structuredClone(oldPod);
              newPod.metadata = { ...newPod.metadata, labels: { queueable: "" } };
              q.update(oldPod, newPod);
              break;
            }
            case "moveAllToActiveOrBackoffQ":
              q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
              break;
            case "moveClockForward":
              clock.advance(3000);
              break;
            case "flushBackoffQ":
              clock.advance(3000);
              q.flushBackoffQCompleted();
              break;
            case "updatePluginToGateAllPods":
              plugin.allowlists = [""];
              break;
            case "updatePluginToUngateAllPods":
              plugin.allowlists = ["queueable"];
              break;
          }
        }
      });
      expect(q.counts()).toEqual(tc.wants);
      // After a public operation the callback reported the same snapshot.
      if (reported.length > 0 && tc.operations.at(-1) !== "addPodUnschedulablePods") {
        expect(reported.at(-1)).toEqual(q.counts());
      }
    });
  }
});

describe("TestPerPodSchedulingMetrics", () => {
  const tests: {
    name: string;
    scenario: (clock: ManualClock, q: PriorityQueue, pod: Pod) => void;
    preEnqueueAllowlist?: string[];
    wantAttempts: number;
    wantInitialAttemptTs: number;
  }[] = [
    {
      // Add -> Pop.
      name: "pod is created and scheduled after 1 attempt",
      scenario: (_c, q, pod) => q.add(pod),
      wantAttempts: 1,
      wantInitialAttemptTs: start,
    },
    {
      // Add -> Pop -> AddUnschedulablePodIfNotPresent -> flushUnschedulableEntitiesLeftover -> Pop.
      name: "pod is created and scheduled after 2 attempts",
      scenario: (c, q, pod) => {
        q.add(pod);
        const pInfo = q.pop() as QueuedPodInfo;
        pInfo.unschedulablePlugins = new Set(["plugin"]);
        q.addUnschedulableIfNotPresent(pInfo, 1);
        // Exceed DefaultPodMaxInUnschedulablePodsDuration so the pod moves to activeQ.
        c.advance(DefaultPodMaxInUnschedulablePodsDurationMs + 1);
        q.flushUnschedulablePodsLeftover();
      },
      wantAttempts: 2,
      wantInitialAttemptTs: start,
    },
    {
      // Add -> Pop -> AddUnschedulablePodIfNotPresent -> flushUnschedulableEntitiesLeftover -> Update -> Pop.
      name: "pod is created and scheduled after 2 attempts but before the second pop, call update",
      scenario: (c, q, pod) => {
        q.add(pod);
        const pInfo = q.pop() as QueuedPodInfo;
        pInfo.unschedulablePlugins = new Set(["plugin"]);
        q.addUnschedulableIfNotPresent(pInfo, 1);
        c.advance(DefaultPodMaxInUnschedulablePodsDurationMs + 1);
        q.flushUnschedulablePodsLeftover();
        const newPod = structuredClone(pod);
        newPod.metadata = { ...newPod.metadata, generation: 1 };
        q.update(pod, newPod);
      },
      wantAttempts: 2,
      wantInitialAttemptTs: start,
    },
    {
      // Add gated pod -> check unschedulableEntities -> lift gate & update pod -> Pop.
      name: "A gated pod is created and scheduled after lifting gate",
      preEnqueueAllowlist: ["foo"],
      scenario: (c, q, pod) => {
        q.add(pod);
        expect(whereIs(q, pod)).toBe("unschedulableQ");
        c.advance(60_000);
        const updateGatedPod = structuredClone(pod);
        updateGatedPod.metadata = { ...updateGatedPod.metadata, labels: { foo: "" } };
        q.update(pod, updateGatedPod);
      },
      wantAttempts: 1,
      wantInitialAttemptTs: start + 60_000,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue(
        tc.preEnqueueAllowlist
          ? { preEnqueuePluginMap: new Map([["", [new AllowlistPreEnqueuePlugin(tc.preEnqueueAllowlist)]]]) }
          : {},
      );
      const pod = makePod().name("test-pod").namespace("test-ns").uid("test-uid").obj();
      tc.scenario(clock, q, pod);
      const pInfo = q.pop() as QueuedPodInfo;
      expect(pInfo.attempts).toBe(tc.wantAttempts);
      expect(pInfo.initialAttemptTimestamp).toBe(tc.wantInitialAttemptTs);
    });
  }
});

describe("TestIncomingPodsMetrics", () => {
  type Op =
    | "add"
    | "popAndRequeueAsUnschedulable"
    | "popAndRequeueAsBackoff"
    | "moveAllToActiveOrBackoffQ"
    | "moveClockForward"
    | "flushBackoffQ";
  const tests: { name: string; operations: Op[]; want: string[] }[] = [
    {
      name: "add pods to activeQ",
      operations: ["add"],
      want: ["active/UnscheduledPodAdd 3"],
    },
    {
      name: "add unscheduled pods then make them unschedulable",
      operations: ["popAndRequeueAsUnschedulable"],
      want: ["active/UnscheduledPodAdd 3", "unschedulable/ScheduleAttemptFailure 3"],
    },
    {
      name: "add unscheduled pods, make them unschedulable, and move them to backoffQ",
      operations: ["popAndRequeueAsUnschedulable", "moveAllToActiveOrBackoffQ"],
      want: [
        "active/UnscheduledPodAdd 3",
        "backoff/UnschedulableTimeout 3",
        "unschedulable/ScheduleAttemptFailure 3",
      ],
    },
    {
      name: "add unscheduled pods, make them unschedulable, and move them to activeQ",
      operations: ["popAndRequeueAsUnschedulable", "moveClockForward", "moveAllToActiveOrBackoffQ"],
      want: [
        "active/UnschedulableTimeout 3",
        "active/UnscheduledPodAdd 3",
        "unschedulable/ScheduleAttemptFailure 3",
      ],
    },
    {
      name: "make some pods subject to backoff and add them to backoffQ, then flush backoffQ",
      operations: ["popAndRequeueAsBackoff", "moveClockForward", "flushBackoffQ"],
      want: ["active/BackoffComplete 3", "active/UnscheduledPodAdd 3", "backoff/ScheduleAttemptFailure 3"],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const counter = new Map<string, number>();
      const { q, clock } = newTestQueue({
        metrics: {
          incomingPod: (queue: QueueName, event: string) => {
            const k = `${queue}/${event}`;
            counter.set(k, (counter.get(k) ?? 0) + 1);
          },
        },
      });
      const pInfos = [1, 2, 3].map((i) =>
        queuedPodInfo(makePod().name(`test-pod-${i}`).namespace(`ns${i}`).uid(`tp-${i}`).obj(), {
          timestamp: start,
          unschedulablePlugins: new Set(["unschedulable_plugin"]),
        }),
      );
      for (const op of tc.operations) {
        for (const pInfo of pInfos) {
          const pod = pInfo.podInfo.pod;
          switch (op) {
            case "add":
              q.add(pod);
              break;
            case "popAndRequeueAsUnschedulable": {
              q.add(pod);
              const p = popPod(q, pod);
              // Simulate plugins that are waiting for some events.
              p.unschedulablePlugins = new Set(pInfo.unschedulablePlugins);
              q.addUnschedulableIfNotPresent(p, 1);
              break;
            }
            case "popAndRequeueAsBackoff": {
              q.add(pod);
              const p = popPod(q, pod);
              p.unschedulableCount++;
              // No known unschedulable plugin: always backoffQ.
              q.addUnschedulableIfNotPresent(p, 1);
              break;
            }
            case "moveAllToActiveOrBackoffQ":
              q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
              break;
            case "moveClockForward":
              clock.advance(3000);
              break;
            case "flushBackoffQ":
              clock.advance(3000);
              q.flushBackoffQCompleted();
              break;
          }
        }
      }
      expect([...counter].map(([k, v]) => `${k} ${v}`).sort()).toEqual(tc.want);
    });
  }
});

describe("TestBackOffFlow", () => {
  const steps = [1000, 2000, 4000, 8000, 10_000, 10_000, 10_000];
  // upstream runs with time.Now(): a timestamp inside a second.
  const cl = new ManualClock(start + 123);
  for (const popFromBackoffQ of [true, false]) {
    const { q } = newTestQueue({ clock: cl, popFromBackoffQ });
    const pod = makePod().name("test-pod").namespace("test-ns").uid("test-uid").obj();
    q.add(pod);
    steps.forEach((wantBackoff, i) => {
      it(`step ${i} popFromBackoffQEnabled(${popFromBackoffQ})`, () => {
        const timestamp = cl.now();
        // Simulate a scheduling attempt.
        const podInfo = q.pop() as QueuedPodInfo;
        expect(podInfo.attempts).toBe(i + 1);
        podInfo.unschedulablePlugins.add("unsched-plugin");
        q.addUnschedulableIfNotPresent(podInfo, i);

        // An event happens.
        q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
        expect(q.backoffQ.has(podInfo)).toBe(true);

        // Check the backoff duration.
        let backoff = q.backoffQ.getBackoffTime(podInfo) - timestamp;
        if (popFromBackoffQ) {
          // The actual backoff rounds up to the ordering window.
          backoff = Math.floor(backoff / 1000) * 1000 + 1000;
        }
        expect(backoff).toBe(wantBackoff);

        // Simulate the routine that continuously flushes the backoff queue.
        cl.advance(1000);
        q.flushBackoffQCompleted();
        // Still in the backoff queue after an early flush.
        expect(q.backoffQ.has(podInfo)).toBe(true);
        // Moved out of the backoff queue after the timeout.
        cl.advance(backoff);
        q.flushBackoffQCompleted();
        expect(q.backoffQ.has(podInfo)).toBe(false);
      });
    });
  }
});

// upstream also checks QueuedPodInfo.WasFlushedFromUnschedulable, a field the framework's
// QueuedPodInfo does not have; the queue each pod lands in is checked as upstream does.
describe("TestFlushUnschedulablePodsLeftoverSetsFlag_GatedPod", () => {
  const tests: {
    name: string;
    gatedBeforeFlush?: boolean;
    gatedAfterFlush?: boolean;
    backingOff?: boolean;
    wantQ: "activeQ" | "backoffQ" | "unschedulableQ";
  }[] = [
    { name: "flag is set when pod is not gated", wantQ: "activeQ" },
    { name: "flag is set when pod is no longer gated", gatedBeforeFlush: true, wantQ: "activeQ" },
    { name: "flag is unset when pod is newly gated", gatedAfterFlush: true, wantQ: "unschedulableQ" },
    {
      name: "flag is unset when pod is still gated",
      gatedBeforeFlush: true,
      gatedAfterFlush: true,
      wantQ: "unschedulableQ",
    },
    {
      name: "flag is set when pod is not gated and backoff is not complete",
      backingOff: true,
      wantQ: "backoffQ",
    },
    {
      name: "flag is set when pod is no longer gated and backoff is not complete",
      gatedBeforeFlush: true,
      backingOff: true,
      wantQ: "backoffQ",
    },
    {
      name: "flag is unset when pod is newly gated and backoff is not complete",
      gatedAfterFlush: true,
      backingOff: true,
      wantQ: "unschedulableQ",
    },
    {
      name: "flag is unset when pod is still gated and backoff is not complete",
      gatedBeforeFlush: true,
      gatedAfterFlush: true,
      backingOff: true,
      wantQ: "unschedulableQ",
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const backoffDuration = tc.backingOff ? DefaultPodMaxInUnschedulablePodsDurationMs + 60_000 : 0;
      const { q, clock } = newTestQueue({
        preEnqueuePluginMap: new Map([["", [new AllowlistPreEnqueuePlugin(["allow"])]]]),
        podInitialBackoffMs: backoffDuration,
        podMaxBackoffMs: backoffDuration,
      });
      const pod = makePod().name("pod1").namespace("ns1").uid("1").label("allow", "").obj();
      let podInfo = queuedPodInfo(pod, { unschedulablePlugins: new Set(["foo"]) });
      if (tc.gatedBeforeFlush) podInfo = setQueuedPodInfoGated(podInfo, "preEnqueuePlugin");

      q.add(pod);
      expect(q.pop()).not.toBeNull();
      if (tc.gatedAfterFlush) delete pod.metadata?.labels?.allow;
      q.addUnschedulableIfNotPresent(podInfo, q.schedulingCycle());

      // Advance past the flush duration and flush.
      clock.advance(DefaultPodMaxInUnschedulablePodsDurationMs + 1000);
      q.flushUnschedulablePodsLeftover();

      expect(whereIs(q, pod)).toBe(tc.wantQ);
    });
  }
});
