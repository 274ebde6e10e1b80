// upstream: pkg/scheduler/backend/queue/scheduling_queue_test.go — QueueingHints and cluster events.
import type { Pod } from "@kubesched/api";
import {
  ActionType,
  type ClusterEvent,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { makeNode, makePod, PodAffinityWithRequiredReq } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  EventAssignedPodAdd,
  EventForceActivate,
  EventUnschedulableTimeout,
  EventUnscheduledPodUpdate,
} from "./events";
import type { QueueingHintMapPerProfile } from "./queueing-hints";
import { DefaultPodInitialBackoffMs, QueueingStrategy } from "./scheduling-queue";
import {
  AllowlistPreEnqueuePlugin,
  clonePod,
  highPriorityPod,
  hintMap,
  medPriorityPod,
  newQueuedPodInfo,
  newQueuedPodInfoForLookup,
  newTestQueue,
  nodeAdd,
  popPod,
  pvAdd,
  queuedPodInfo,
  queueHintReturnQueue,
  queueHintReturnSkip,
  SchedulingGatesPreEnqueuePlugin,
  setQueuedPodInfoGated,
  uids,
  unschedulablePod,
  whereIs,
} from "./scheduling-queue.test-util";

describe("Test_isPodWorthRequeuing", () => {
  let count = 0;
  const queueHintReturnQueueCounted: QueueingHintFn = () => {
    count++;
    return QueueingHint.Queue;
  };
  const queueHintReturnSkipCounted: QueueingHintFn = () => {
    count++;
    return QueueingHint.QueueSkip;
  };
  const queueHintReturnErr: QueueingHintFn = () => {
    count++;
    throw new Error("unexpected error");
  };
  const pod1 = () => makePod().name("pod1").namespace("ns1").uid("1").obj();

  const tests: {
    name: string;
    unschedulablePlugins: string[];
    pendingPlugins?: string[];
    event: ClusterEvent;
    oldObj: unknown;
    newObj: unknown;
    expected: QueueingStrategy;
    expectedExecutionCount: number;
    queueingHintMap: QueueingHintMapPerProfile;
  }[] = [
    {
      name: "return Queue when no queueing hint function is registered for the event",
      unschedulablePlugins: ["fooPlugin1"],
      event: nodeAdd,
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueSkip,
      expectedExecutionCount: 0,
      // no queueing hint function for NodeAdd.
      queueingHintMap: hintMap([[EventAssignedPodAdd, [["fooPlugin1", queueHintReturnQueueCounted]]]]),
    },
    {
      name: "Treat the event as Queue when QueueHintFn returns error",
      unschedulablePlugins: ["fooPlugin1"],
      event: nodeAdd,
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 1,
      queueingHintMap: hintMap([[nodeAdd, [["fooPlugin1", queueHintReturnErr]]]]),
    },
    {
      name: "return Queue when the event is wildcard",
      unschedulablePlugins: ["fooPlugin1"],
      event: EventUnschedulableTimeout,
      oldObj: null,
      newObj: null,
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 0,
      queueingHintMap: new Map(),
    },
    {
      name: "return Queue when the event is wildcard and the wildcard targets the pod to be requeued right now",
      unschedulablePlugins: ["fooPlugin1"],
      event: EventForceActivate,
      oldObj: null,
      newObj: makePod().name("pod1").namespace("ns1").uid("1").obj(),
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 0,
      queueingHintMap: new Map(),
    },
    {
      name: "return Skip when the event is wildcard, but the wildcard targets a different pod",
      unschedulablePlugins: ["fooPlugin1"],
      event: EventForceActivate,
      oldObj: null,
      newObj: makePod().name("pod-different").namespace("ns2").uid("2").obj(),
      expected: QueueingStrategy.queueSkip,
      expectedExecutionCount: 0,
      queueingHintMap: new Map(),
    },
    {
      name: "interprets Queue from the Pending plugin as queueImmediately",
      unschedulablePlugins: ["fooPlugin1", "fooPlugin3"],
      pendingPlugins: ["fooPlugin2"],
      event: nodeAdd,
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueImmediately,
      expectedExecutionCount: 2,
      queueingHintMap: hintMap([
        [
          nodeAdd,
          [
            // Queue, interpreted as queueAfterBackoff; the other hints still run (the pod has PendingPlugins).
            ["fooPlugin1", queueHintReturnQueueCounted],
            // queueImmediately: no other hint runs.
            ["fooPlugin2", queueHintReturnQueueCounted],
            ["fooPlugin3", queueHintReturnQueueCounted],
            ["fooPlugin4", queueHintReturnErr],
          ],
        ],
      ]),
    },
    {
      name: "interprets Queue from the Unschedulable plugin as queueAfterBackoff",
      unschedulablePlugins: ["fooPlugin1", "fooPlugin2"],
      event: nodeAdd,
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 2,
      queueingHintMap: hintMap([
        [
          nodeAdd,
          [
            ["fooPlugin1", queueHintReturnSkipCounted],
            ["fooPlugin2", queueHintReturnQueueCounted],
          ],
        ],
      ]),
    },
    {
      name: "Queueing hint function that isn't from the plugin in UnschedulablePlugins/PendingPlugins is ignored",
      unschedulablePlugins: ["fooPlugin1", "fooPlugin2"],
      event: nodeAdd,
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueSkip,
      expectedExecutionCount: 2,
      queueingHintMap: hintMap([
        [
          nodeAdd,
          [
            ["fooPlugin1", queueHintReturnSkipCounted],
            ["fooPlugin2", queueHintReturnSkipCounted],
            ["fooPlugin3", queueHintReturnQueueCounted], // ignored
          ],
        ],
      ]),
    },
    {
      name: "If event is specific Node update event, queueing hint function for NodeUpdate/UpdateNodeLabel is also executed",
      unschedulablePlugins: ["fooPlugin1", "fooPlugin2"],
      event: { resource: EventResource.Node, actionType: ActionType.UpdateNodeLabel },
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 1,
      queueingHintMap: hintMap([
        [
          { resource: EventResource.Node, actionType: ActionType.UpdateNodeLabel },
          [
            // Only this one runs: queueAfterBackoff, and the pod has no PendingPlugins.
            ["fooPlugin1", queueHintReturnQueueCounted],
            ["fooPlugin2", queueHintReturnQueueCounted],
          ],
        ],
        [
          { resource: EventResource.Node, actionType: ActionType.Update },
          [["fooPlugin1", queueHintReturnQueueCounted]],
        ],
        // not executed because NodeAdd is unrelated.
        [nodeAdd, [["fooPlugin1", queueHintReturnQueueCounted]]],
      ]),
    },
    {
      name: "If event with '*' Resource, queueing hint function for specified Resource is also executed",
      unschedulablePlugins: ["fooPlugin1"],
      event: { resource: EventResource.Node, actionType: ActionType.Add },
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 1,
      queueingHintMap: hintMap([
        [
          { resource: EventResource.WildCard, actionType: ActionType.Add },
          [["fooPlugin1", queueHintReturnQueueCounted]],
        ],
      ]),
    },
    {
      name: "If event is a wildcard one, queueing hint function for all kinds of events is executed",
      unschedulablePlugins: ["fooPlugin1"],
      event: {
        resource: EventResource.Node,
        actionType: ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
      },
      oldObj: null,
      newObj: makeNode().obj(),
      expected: QueueingStrategy.queueAfterBackoff,
      expectedExecutionCount: 1,
      queueingHintMap: hintMap([
        [
          { resource: EventResource.WildCard, actionType: ActionType.All },
          [["fooPlugin1", queueHintReturnQueueCounted]],
        ],
      ]),
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      count = 0;
      const { q } = newTestQueue({ queueingHintMap: tc.queueingHintMap });
      const pInfo = queuedPodInfo(pod1(), {
        unschedulablePlugins: new Set(tc.unschedulablePlugins),
        pendingPlugins: new Set(tc.pendingPlugins ?? []),
      });
      expect(q.isPodWorthRequeuing(pInfo, tc.event, tc.oldObj, tc.newObj)).toBe(tc.expected);
      expect(count).toBe(tc.expectedExecutionCount);
    });
  }
});

describe("TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint", () => {
  const p = () => makePod().name("pod1").namespace("ns1").uid("1").label("foo", "bar").obj();
  const gatedPod = () => makePod().name("pod1").namespace("ns1").uid("1").obj();
  const hintMustNotBeCalled =
    (why: string): QueueingHintFn =>
    () => {
      throw new Error(`QueueingHintFn should not be called as ${why}`);
    };

  const tests: {
    name: string;
    podInfo: () => ReturnType<typeof queuedPodInfo>;
    hint: QueueingHintFn;
    /** How long the pod stays in the unschedulable pool. */
    duration?: number;
    /** Defaults to NodeAdd. */
    triggerEvent?: ClusterEvent;
    /** Whether the hint must not run (upstream's hint returns an error saying so). */
    hintMustNotRun?: boolean;
    expectedQ: "activeQ" | "backoffQ" | "unschedulableQ";
  }[] = [
    {
      name: "Queue queues pod to activeQ",
      // PendingPlugins: pushed directly to activeQ.
      podInfo: () => queuedPodInfo(p(), { pendingPlugins: new Set(["foo"]) }),
      hint: queueHintReturnQueue,
      expectedQ: "activeQ",
    },
    {
      name: "Queue queues pod to backoffQ if Pod is backing off",
      podInfo: () => queuedPodInfo(p(), { unschedulablePlugins: new Set(["foo"]) }),
      hint: queueHintReturnQueue,
      expectedQ: "backoffQ",
    },
    {
      name: "Queue queues pod to activeQ if Pod is not backing off",
      podInfo: () => queuedPodInfo(p(), { unschedulablePlugins: new Set(["foo"]) }),
      hint: queueHintReturnQueue,
      // The backoff expiration equal to the truncated current time still counts as backing off.
      duration: DefaultPodInitialBackoffMs + 1000,
      expectedQ: "activeQ",
    },
    {
      name: "Skip queues pod to unschedulableEntities",
      podInfo: () => queuedPodInfo(p(), { unschedulablePlugins: new Set(["foo"]) }),
      hint: queueHintReturnSkip,
      expectedQ: "unschedulableQ",
    },
    {
      name: "Queue queues pod to backoffQ if Pod is not gated and the event is wildcard",
      podInfo: () => queuedPodInfo(p(), { unschedulablePlugins: new Set(["foo"]) }),
      triggerEvent: EventUnschedulableTimeout,
      hint: hintMustNotBeCalled("trigger event is wildcard"),
      hintMustNotRun: true,
      expectedQ: "backoffQ",
    },
    {
      name: "Queue queues pod to backoffQ when Pod is no longer gated and the event is wildcard",
      podInfo: () => setQueuedPodInfoGated(queuedPodInfo(p()), "foo"),
      triggerEvent: EventUnschedulableTimeout,
      hint: hintMustNotBeCalled("trigger event is wildcard"),
      hintMustNotRun: true,
      expectedQ: "backoffQ",
    },
    {
      name: "Queue queues pod to unschedulableQ when Pod is gated and the event is wildcard",
      podInfo: () => setQueuedPodInfoGated(queuedPodInfo(gatedPod()), "foo"),
      triggerEvent: EventUnschedulableTimeout,
      hint: hintMustNotBeCalled("trigger event is wildcard"),
      hintMustNotRun: true,
      expectedQ: "unschedulableQ",
    },
    {
      name: "QueueHintFunction is not called when Pod is gated by the plugin that isn't interested in the event",
      // Gated by SchedulingGates, which is not interested in NodeAdd: the pod stays without the hint running.
      podInfo: () => setQueuedPodInfoGated(queuedPodInfo(p()), "SchedulingGates"),
      hint: hintMustNotBeCalled("pod is gated"),
      hintMustNotRun: true,
      expectedQ: "unschedulableQ",
    },
    {
      name: "QueueHintFunction is called when Pod is gated by the plugin that is interested in the event",
      // Gated by foo, which registered NodeAdd: the hint runs and queues the pod.
      podInfo: () => setQueuedPodInfoGated(queuedPodInfo(p()), "foo"),
      hint: queueHintReturnQueue,
      expectedQ: "backoffQ",
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      let hintCalls = 0;
      const hint: QueueingHintFn = (pod, oldObj, newObj) => {
        hintCalls++;
        return tc.hint(pod, oldObj, newObj);
      };
      const { q, clock } = newTestQueue({
        queueingHintMap: hintMap([
          [nodeAdd, [["foo", hint]]],
          [EventUnscheduledPodUpdate, [["SchedulingGates", queueHintReturnQueue]]],
        ]),
        preEnqueuePluginMap: new Map([
          ["", [new SchedulingGatesPreEnqueuePlugin(), new AllowlistPreEnqueuePlugin(["foo"], "foo")]],
        ]),
      });
      const pInfo = tc.podInfo();
      const pod = pInfo.podInfo.pod;
      q.add(pod);
      if (q.activeQ.queue.len() > 0) {
        popPod(q, pod);
        // add to the unschedulable pod pool
        q.addUnschedulableIfNotPresent(pInfo, q.schedulingCycle());
      } else {
        // Already in the pool because it is gated: use the test's QueuedPodInfo.
        q.unschedulablePods.addOrUpdate(pInfo);
      }
      clock.advance(tc.duration ?? 0);

      q.moveAllToActiveOrBackoffQueue(tc.triggerEvent ?? nodeAdd, null, null);

      if (tc.hintMustNotRun) expect(hintCalls).toBe(0);
      expect(whereIs(q, pod)).toBe(tc.expectedQ);
    });
  }
});

describe("TestPriorityQueue_MoveAllToActiveOrBackoffQueue", () => {
  it("moves the pods whose rejector registered the event, after backoff", () => {
    const { q, clock } = newTestQueue({
      queueingHintMap: hintMap([[nodeAdd, [["fooPlugin", queueHintReturnQueue]]]]),
    });
    const up = unschedulablePod();
    const hpp = highPriorityPod();
    const mpp = medPriorityPod();
    const expectInFlightPods = (...pods: Pod[]) => {
      expect(uids(q.inFlightPods())).toEqual(uids(pods));
      const inFlightEventPods = q.activeQ.listInFlightEvents().filter((e): e is Pod => !("event" in e));
      expect(uids(inFlightEventPods)).toEqual(uids(pods));
    };
    // To simulate the pod failed in scheduling in the real world, Pop() the pod from activeQ
    // before AddUnschedulablePodIfNotPresent()s below.
    q.add(up);
    popPod(q, up);
    expectInFlightPods(up);
    q.add(hpp);
    popPod(q, hpp);
    expectInFlightPods(up, hpp);
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, up, "fooPlugin"), q.schedulingCycle());
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, hpp, "fooPlugin"), q.schedulingCycle());
    expectInFlightPods();
    // A pod whose failure is associated with no plugin.
    const hpp1 = clonePod(hpp, "hpp1");
    q.add(hpp1);
    popPod(q, hpp1);
    expectInFlightPods(hpp1);
    // This pod goes to backoffQ because no failure plugin is associated with it.
    const hpp1PodInfo = newQueuedPodInfo(clock, hpp1);
    hpp1PodInfo.unschedulableCount++;
    q.addUnschedulableIfNotPresent(hpp1PodInfo, q.schedulingCycle());
    expectInFlightPods();
    // Another pod, rejected by barPlugin.
    const hpp2 = clonePod(hpp, "hpp2");
    q.add(hpp2);
    popPod(q, hpp2);
    expectInFlightPods(hpp2);
    // This pod goes to the unschedulable pod pool.
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, hpp2, "barPlugin"), q.schedulingCycle());
    expectInFlightPods();
    // NodeAdd moves up and hpp to backoffQ (fooPlugin's hint).
    q.moveAllToActiveOrBackoffQueue(nodeAdd, null, null);
    q.add(mpp);
    expect(q.activeQ.queue.len()).toBe(1);
    popPod(q, mpp);
    expectInFlightPods(mpp);
    // hpp2 is not moved.
    expect(q.backoffQ.len()).toBe(3);

    // Pop the pods out of backoffQ: this does not make them in flight.
    clock.advance(q.backoffQ.podMaxBackoffMs);
    q.backoffQ.popAllBackoffCompleted();
    expectInFlightPods(mpp);

    q.add(up);
    popPod(q, up);
    expectInFlightPods(mpp, up);
    q.add(hpp);
    popPod(q, hpp);
    expectInFlightPods(mpp, up, hpp);
    q.add(hpp1);
    popPod(q, hpp1);
    const unschedulableQueuedPodInfo = newQueuedPodInfo(clock, up, "fooPlugin");
    const highPriorityQueuedPodInfo = newQueuedPodInfo(clock, hpp, "fooPlugin");
    const hpp1QueuedPodInfo = newQueuedPodInfo(clock, hpp1);
    expectInFlightPods(mpp, up, hpp, hpp1);
    q.addUnschedulableIfNotPresent(unschedulableQueuedPodInfo, q.schedulingCycle());
    expectInFlightPods(mpp, hpp, hpp1);
    q.addUnschedulableIfNotPresent(highPriorityQueuedPodInfo, q.schedulingCycle());
    expectInFlightPods(mpp, hpp1);
    q.addUnschedulableIfNotPresent(hpp1QueuedPodInfo, q.schedulingCycle());
    expectInFlightPods(mpp);
    q.add(mpp);
    // hpp1 goes to backoffQ (no failure plugin); the others to the unschedulable pod pool.
    for (const pod of [up, hpp, hpp2]) expect(whereIs(q, pod)).toBe("unschedulableQ");
    expect(q.backoffQ.has(hpp1QueuedPodInfo)).toBe(true);
    // All the remaining pods are in activeQ.
    expect(q.activeQ.queue.len()).toBe(1);

    // After podMaxBackoffDuration every pod in the pool has completed its backoff: activeQ.
    clock.advance(q.backoffQ.podMaxBackoffMs);
    q.flushBackoffQCompleted(); // moves hpp1 to activeQ
    q.moveAllToActiveOrBackoffQueue(nodeAdd, null, null);
    expect(q.activeQ.queue.len()).toBe(4);
    expect(q.backoffQ.len()).toBe(0);
    expectInFlightPods(mpp);
    // hpp2 is not moved regardless of its backoff.
    expect(q.unschedulablePods.size).toBe(1);
  });
});

describe("TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks", () => {
  const tests: {
    name: string;
    preEnqueueCheck?: (pod: Pod) => boolean;
    event: ClusterEvent;
    want: string[];
  }[] = [
    { name: "nil PreEnqueueCheck", event: EventUnschedulableTimeout, want: ["p0", "p1", "p2", "p3", "p4"] },
    {
      name: "move Pods with priority greater than 2",
      event: EventUnschedulableTimeout,
      preEnqueueCheck: (pod) => (pod.spec?.priority ?? 0) >= 2,
      want: ["p2", "p3", "p4"],
    },
    {
      name: "move Pods with even priority and greater than 2",
      event: EventUnschedulableTimeout,
      preEnqueueCheck: (pod) => (pod.spec?.priority ?? 0) % 2 === 0 && (pod.spec?.priority ?? 0) >= 2,
      want: ["p2", "p4"],
    },
    {
      name: "move Pods with even and negative priority",
      event: EventUnschedulableTimeout,
      preEnqueueCheck: (pod) => (pod.spec?.priority ?? 0) % 2 === 0 && (pod.spec?.priority ?? 0) < 0,
      want: [],
    },
    {
      name: "preCheck isn't called if the event is not interested by any plugins",
      event: pvAdd, // No plugin is interested in this event.
      preEnqueueCheck: () => {
        throw new Error("preCheck shouldn't be called");
      },
      want: [],
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue();
      for (let i = 0; i < 5; i++) {
        const pod = makePod().name(`p${i}`).priority(i).obj();
        q.add(pod);
        expect(q.pop()?.podInfo.pod).toBe(pod);
        q.addUnschedulableIfNotPresent(newQueuedPodInfoForLookup(pod, "plugin"), q.schedulingCycle());
      }
      q.moveAllToActiveOrBackoffQueue(tc.event, null, null, tc.preEnqueueCheck);
      clock.advance(2 * q.backoffQ.podMaxBackoffMs);
      const got = q.backoffQ.popAllBackoffCompleted().map((p) => p.podInfo.pod.metadata?.name);
      expect(got.sort()).toEqual(tc.want);
    });
  }
});

// upstream v1.33-era scheduling_queue_test.go (the newest file no longer carries these tables; the
// queue still pre-filters assigned-pod events the same way).
const affinityPod = () =>
  makePod()
    .name("afp")
    .namespace("ns1")
    .uid("afp")
    .annotation("annot2", "val2")
    .podAffinityExists("service", "region", PodAffinityWithRequiredReq)
    .obj();
const spreadPod = () =>
  makePod().name("tsp").namespace("ns1").uid("tsp").spreadConstraint(1, "node", "DoNotSchedule", null).obj();
const matchingAssignedPod = () =>
  makePod().name("lbp").namespace("ns1").label("service", "securityscan").node("node1").obj();
const unrelatedAssignedPod = () =>
  makePod().name("lbp").namespace("unrelated").label("unrelated", "unrelated").node("node1").obj();

describe("TestPriorityQueue_AssignedPodAdded_", () => {
  const tests: {
    name: string;
    unschedPod: () => Pod;
    unschedPlugin: string;
    updatedAssignedPod: () => Pod;
    wantToRequeue: boolean;
  }[] = [
    {
      name: "Pod rejected by pod affinity is requeued with matching Pod's update",
      unschedPod: affinityPod,
      unschedPlugin: "InterPodAffinity",
      updatedAssignedPod: matchingAssignedPod,
      wantToRequeue: true,
    },
    {
      name: "Pod rejected by pod affinity isn't requeued with unrelated Pod's update",
      unschedPod: affinityPod,
      unschedPlugin: "InterPodAffinity",
      updatedAssignedPod: unrelatedAssignedPod,
      wantToRequeue: false,
    },
    {
      name: "Pod rejected by pod topology spread is requeued with Pod's update in the same namespace",
      unschedPod: spreadPod,
      unschedPlugin: "PodTopologySpread",
      updatedAssignedPod: matchingAssignedPod,
      wantToRequeue: true,
    },
    {
      name: "Pod rejected by pod topology spread isn't requeued with unrelated Pod's update",
      unschedPod: affinityPod,
      unschedPlugin: "PodTopologySpread",
      updatedAssignedPod: unrelatedAssignedPod,
      wantToRequeue: false,
    },
    {
      name: "Pod rejected by other plugins isn't requeued with any Pod's update",
      unschedPod: () => makePod().name("afp").namespace("ns1").uid("afp").annotation("annot2", "val2").obj(),
      unschedPlugin: "fakePlugin",
      updatedAssignedPod: unrelatedAssignedPod,
      wantToRequeue: false,
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue({
        queueingHintMap: hintMap([
          [
            EventAssignedPodAdd,
            [
              ["fakePlugin", queueHintReturnQueue],
              ["InterPodAffinity", queueHintReturnQueue],
              ["PodTopologySpread", queueHintReturnQueue],
            ],
          ],
        ]),
      });
      const unschedPod = tc.unschedPod();
      q.add(unschedPod);
      popPod(q, unschedPod);
      q.addUnschedulableIfNotPresent(
        newQueuedPodInfo(clock, unschedPod, tc.unschedPlugin),
        q.schedulingCycle(),
      );
      // Complete the backoff.
      clock.advance(DefaultPodInitialBackoffMs + 1000);

      q.assignedPodAdded(tc.updatedAssignedPod());

      expect(whereIs(q, unschedPod) === "activeQ").toBe(tc.wantToRequeue);
    });
  }
});

describe("TestPriorityQueue_AssignedPodUpdated", () => {
  const podLabelUpdate: ClusterEvent = { resource: EventResource.Pod, actionType: ActionType.UpdatePodLabel };
  const tests: {
    name: string;
    unschedPod: () => Pod;
    unschedPlugin: string;
    updatedAssignedPod: () => Pod;
    event: ClusterEvent;
    wantToRequeue: boolean;
  }[] = [
    {
      name: "Pod rejected by pod affinity is requeued with matching Pod's update",
      unschedPod: affinityPod,
      unschedPlugin: "InterPodAffinity",
      event: podLabelUpdate,
      updatedAssignedPod: matchingAssignedPod,
      wantToRequeue: true,
    },
    {
      name: "Pod rejected by pod affinity isn't requeued with unrelated Pod's update",
      unschedPod: affinityPod,
      unschedPlugin: "InterPodAffinity",
      event: podLabelUpdate,
      updatedAssignedPod: unrelatedAssignedPod,
      wantToRequeue: false,
    },
    {
      name: "Pod rejected by pod topology spread is requeued with Pod's update in the same namespace",
      unschedPod: spreadPod,
      unschedPlugin: "PodTopologySpread",
      event: podLabelUpdate,
      updatedAssignedPod: matchingAssignedPod,
      wantToRequeue: true,
    },
    {
      name: "Pod rejected by pod topology spread isn't requeued with unrelated Pod's update",
      unschedPod: affinityPod,
      unschedPlugin: "PodTopologySpread",
      event: podLabelUpdate,
      updatedAssignedPod: unrelatedAssignedPod,
      wantToRequeue: false,
    },
    {
      name: "Pod rejected by resource fit is requeued with assigned Pod's scale down",
      unschedPod: () =>
        makePod().name("rp").namespace("ns1").uid("afp").annotation("annot2", "val2").req({ cpu: "1" }).obj(),
      unschedPlugin: "NodeResourcesFit",
      event: { resource: EventResource.AssignedPod, actionType: ActionType.UpdatePodScaleDown },
      updatedAssignedPod: () => makePod().name("lbp").namespace("ns2").node("node1").obj(),
      wantToRequeue: true,
    },
    {
      name: "Pod rejected by other plugins isn't requeued with any Pod's update",
      unschedPod: () => makePod().name("afp").namespace("ns1").uid("afp").annotation("annot2", "val2").obj(),
      unschedPlugin: "fakePlugin",
      event: podLabelUpdate,
      updatedAssignedPod: unrelatedAssignedPod,
      wantToRequeue: false,
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue({
        queueingHintMap: hintMap([
          [
            podLabelUpdate,
            [
              ["fakePlugin", queueHintReturnQueue],
              ["InterPodAffinity", queueHintReturnQueue],
              ["PodTopologySpread", queueHintReturnQueue],
            ],
          ],
          [
            { resource: EventResource.Pod, actionType: ActionType.UpdatePodScaleDown },
            [["NodeResourcesFit", queueHintReturnQueue]],
          ],
        ]),
      });
      const unschedPod = tc.unschedPod();
      q.add(unschedPod);
      popPod(q, unschedPod);
      q.addUnschedulableIfNotPresent(
        newQueuedPodInfo(clock, unschedPod, tc.unschedPlugin),
        q.schedulingCycle(),
      );
      // Complete the backoff.
      clock.advance(DefaultPodInitialBackoffMs + 1000);

      // upstream passes a nil old pod; the queue only hands it to the hint functions.
      const assigned = tc.updatedAssignedPod();
      q.assignedPodUpdated(assigned, assigned, tc.event);

      expect(whereIs(q, unschedPod) === "activeQ").toBe(tc.wantToRequeue);
    });
  }
});
