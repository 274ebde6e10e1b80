// upstream: pkg/scheduler/backend/queue/scheduling_queue_test.go — Add/Update/Delete/Activate/Pop,
// PreEnqueue on entering activeQ/backoffQ, the nominator and introspection.
import type { Pod } from "@kubesched/api";
import {
  ManualClock,
  NominatingMode,
  PodInfo,
  type PreEnqueuePlugin,
  type QueuedPodInfo,
  SpecialEvents,
} from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { EventForceActivate, EventUnschedulableTimeout } from "./events";
import type { PriorityQueue } from "./scheduling-queue";
import {
  AllowlistPreEnqueuePlugin,
  DenyingPreEnqueuePlugin,
  EventTargetPodUpdate,
  highPriNominatedPod,
  highPriority,
  highPriorityPod,
  hintMap,
  medPriorityPod,
  newQueuedPodInfo,
  newQueuedPodInfoForLookup,
  newTestQueue,
  nonExistentPod,
  podListerOf,
  popPod,
  queuedPodInfo,
  queueHintReturnQueue,
  queueHintReturnSkip,
  SchedulingGatesPreEnqueuePlugin,
  scheduledPod,
  start,
  unschedulablePod,
  whereIs,
} from "./scheduling-queue.test-util";

/** The queue's private moves, as upstream's tests call them. */
interface QueueInternals {
  moveToActiveQ(pInfo: QueuedPodInfo, event: string, movesFromBackoffQ: boolean): boolean;
  moveToBackoffQ(pInfo: QueuedPodInfo, event: string): boolean;
}
const internals = (q: PriorityQueue): QueueInternals => q as unknown as QueueInternals;

const nominatorState = (q: PriorityQueue) => ({
  nominatedPodToNode: Object.fromEntries(q.nominator.nominatedPodToNode),
  nominatedPods: Object.fromEntries([...q.nominator.nominatedPods].map(([node, refs]) => [node, [...refs]])),
});
const podToRef = (pod: Pod) => ({
  name: pod.metadata?.name ?? "",
  namespace: pod.metadata?.namespace ?? "",
  uid: pod.metadata?.uid ?? "",
});

describe("TestPriorityQueue_AddNominatedGatedPod", () => {
  it("records the nomination of a pod gated on Add", () => {
    const gatedPod = makePod()
      .name("pod-gated")
      .namespace("ns1")
      .uid("pod-gated")
      .nominatedNodeName("node1")
      .obj();
    const { q } = newTestQueue({
      objs: [gatedPod],
      preEnqueuePluginMap: new Map([["", [new AllowlistPreEnqueuePlugin(["allow"])]]]),
    });
    q.add(gatedPod);
    const pInfo = q.unschedulablePods.getByKey("ns1/pod-gated");
    expect(pInfo?.gatingPlugin).not.toBe("");
    expect(q.nominator.nominatedPods.get("node1")).toHaveLength(1);
    expect(q.nominator.nominatedPodToNode.get("pod-gated")).toBe("node1");
  });
});

describe("TestPriorityQueue_AddWithReversePriorityLessFunc", () => {
  it("pops the higher priority pod first", () => {
    const mpp = medPriorityPod();
    const hpp = highPriorityPod();
    const { q } = newTestQueue({ objs: [mpp, hpp] });
    q.add(mpp);
    q.add(hpp);
    expect(q.pop()?.podInfo.pod).toBe(hpp);
    expect(q.pop()?.podInfo.pod).toBe(mpp);
  });
});

describe("TestPriorityQueue_AddUnschedulablePodIfNotPresent_Backoff", () => {
  it("pods that failed while a move request happened go to backoffQ", () => {
    const { q } = newTestQueue();
    const totalNum = 10;
    const expectedPods: Pod[] = [];
    for (let i = 0; i < totalNum; i++) {
      const p = makePod().name(`pod${i}`).namespace(`ns${i}`).uid(`upns${i}`).priority(i).obj();
      expectedPods.push(p);
      q.add(p);
    }
    // Pop all pods except for the first one.
    for (let i = totalNum - 1; i > 0; i--) expect(q.pop()?.podInfo.pod).toBe(expectedPods[i]);
    // Move all pods to the active queue while they are being scheduled.
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
    const oldCycle = q.schedulingCycle();
    expect(q.pop()?.podInfo.pod).toBe(expectedPods[0]);
    // Mark pods[1] ~ pods[totalNum-1] as unschedulable and add them back.
    for (let i = 1; i < totalNum; i++) {
      const unschedulable: Pod = {
        ...structuredClone(expectedPods[i] as Pod),
        status: { conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable" }] },
      };
      q.addUnschedulableIfNotPresent(newQueuedPodInfoForLookup(unschedulable, "plugin"), oldCycle);
    }
    // A move request happened while they were in flight: backoffQ.
    for (let i = 1; i < totalNum; i++) expect(whereIs(q, expectedPods[i] as Pod)).toBe("backoffQ");
  });
});

describe("TestPriorityQueue_Pop", () => {
  const tests = [
    {
      name: "individual pod, GenericWorkload enabled, PopFromBackoffQ enabled, pops from both activeQ and backoffQ",
      popFromBackoffQ: true,
      wantPods: ["mpp", "hpp"],
    },
    {
      name: "individual pod, GenericWorkload enabled, PopFromBackoffQ disabled, pops only from activeQ",
      popFromBackoffQ: false,
      wantPods: ["mpp"],
    },
    {
      name: "individual pod, GenericWorkload disabled, PopFromBackoffQ enabled, pops from both activeQ and backoffQ",
      popFromBackoffQ: true,
      wantPods: ["mpp", "hpp"],
    },
    {
      name: "individual pod, GenericWorkload disabled, PopFromBackoffQ disabled, pops only from activeQ",
      popFromBackoffQ: false,
      wantPods: ["mpp"],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const medPod = medPriorityPod();
      const backoffPod = highPriorityPod();
      const errorBackoffPod = makePod()
        .name("hpp2")
        .namespace("ns1")
        .uid("hpp2ns1")
        .priority(highPriority)
        .obj();
      const unschedPod = unschedulablePod();
      const { q, clock } = newTestQueue({
        objs: [medPod, backoffPod, errorBackoffPod, unschedPod],
        popFromBackoffQ: tc.popFromBackoffQ,
      });
      // Medium priority pod in activeQ, high priority pods in backoffQ (rejected) and in the error
      // backoffQ, and one in the pool.
      q.activeQ.queue.addOrUpdate(newQueuedPodInfo(clock, medPod));
      q.backoffQ.add(newQueuedPodInfo(clock, backoffPod, "plugin"));
      q.backoffQ.add(newQueuedPodInfo(clock, errorBackoffPod));
      q.unschedulablePods.addOrUpdate(newQueuedPodInfo(clock, unschedPod, "plugin"));

      const got: string[] = [];
      for (let i = 0; i < tc.wantPods.length + 1; i++) {
        const p = q.pop();
        if (!p) break;
        got.push(p.podInfo.pod.metadata?.name ?? "");
      }
      expect(got).toEqual(tc.wantPods);
    });
  }
});

describe("TestPriorityQueue_Update", () => {
  const queuePlugin = "queuePlugin";
  const skipPlugin = "skipPlugin";
  const withGate = (p: Pod): Pod => {
    const c = structuredClone(p);
    c.metadata = { ...c.metadata, labels: { deny: "true" } };
    return c;
  };
  const withAnnotation = (p: Pod, v: string): Pod => {
    const c = structuredClone(p);
    c.metadata = { ...c.metadata, annotations: { ...c.metadata?.annotations, foo: v } };
    return c;
  };
  type Prepare = (q: PriorityQueue, clock: ManualClock) => [Pod, Pod];
  const tests: {
    name: string;
    wantQ: "activeQ" | "backoffQ" | "unschedulableQ" | "none";
    wantAddedToNominated?: boolean;
    prepareFunc: Prepare;
  }[] = [
    {
      name: "Update pod that didn't exist in the queue",
      wantQ: "activeQ",
      prepareFunc: () => [medPriorityPod(), withAnnotation(medPriorityPod(), "test")],
    },
    {
      name: "Update gated pod that didn't exist in the queue",
      wantQ: "unschedulableQ",
      prepareFunc: () => [withGate(medPriorityPod()), withAnnotation(withGate(medPriorityPod()), "test")],
    },
    {
      name: "Update non-existent highPriorityPodInfo and add a nominatedNodeName to it",
      wantQ: "activeQ",
      wantAddedToNominated: true,
      prepareFunc: () => [highPriorityPod(), highPriNominatedPod()],
    },
    {
      name: "Update non-existent gated highPriorityPodInfo and add a nominatedNodeName to it",
      wantQ: "unschedulableQ",
      wantAddedToNominated: true,
      prepareFunc: () => [withGate(highPriorityPod()), withGate(highPriNominatedPod())],
    },
    {
      name: "When updating a pod that is already in activeQ, the pod should remain in activeQ after Update()",
      wantQ: "activeQ",
      prepareFunc: (q) => {
        const hpp = highPriorityPod();
        q.add(hpp);
        return [hpp, hpp];
      },
    },
    {
      name: "When updating a pod that is in backoff queue and is still backing off, it will be updated in backoff queue",
      wantQ: "backoffQ",
      prepareFunc: (q, clock) => {
        const podInfo = newQueuedPodInfo(clock, medPriorityPod());
        q.backoffQ.add(podInfo);
        return [podInfo.podInfo.pod, podInfo.podInfo.pod];
      },
    },
    {
      name: "when updating a pod in unschedulableEntities, if its backoff timer has not yet expired, it moves to backoffQ",
      wantQ: "backoffQ",
      prepareFunc: (q, clock) => {
        const pInfo = newQueuedPodInfo(clock, medPriorityPod(), queuePlugin);
        // needs to increment to make the pod backing off
        pInfo.unschedulableCount++;
        q.unschedulablePods.addOrUpdate(pInfo);
        return [medPriorityPod(), withAnnotation(medPriorityPod(), "test")];
      },
    },
    {
      name: "when updating a pod in unschedulableEntities, if its backoff timer has expired, it moves to activeQ",
      wantQ: "activeQ",
      prepareFunc: (q, clock) => {
        const pInfo = newQueuedPodInfo(clock, medPriorityPod(), queuePlugin);
        pInfo.unschedulableCount++;
        q.unschedulablePods.addOrUpdate(pInfo);
        // After podMaxBackoffDuration the pod no longer backs off: activeQ.
        clock.advance(q.backoffQ.podMaxBackoffMs);
        return [medPriorityPod(), withAnnotation(medPriorityPod(), "test1")];
      },
    },
    {
      name: "when updating a pod in unschedulableEntities, if the scheduling hint returns QueueSkip, it remains in unschedulableEntities",
      wantQ: "unschedulableQ",
      prepareFunc: (q, clock) => {
        q.unschedulablePods.addOrUpdate(newQueuedPodInfo(clock, medPriorityPod(), skipPlugin));
        return [medPriorityPod(), withAnnotation(medPriorityPod(), "test1")];
      },
    },
    {
      name: "when updating a pod which is in flightPods, the pod will not be added to any queue",
      wantQ: "none",
      prepareFunc: (q) => {
        // Add and Pop it so that it is registered in inFlightPods.
        const mpp = medPriorityPod();
        q.add(mpp);
        expect(q.pop()?.podInfo.pod).toBe(mpp);
        return [mpp, withAnnotation(mpp, "bar")];
      },
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q, clock } = newTestQueue({
        objs: [highPriorityPod(), unschedulablePod(), medPriorityPod()],
        queueingHintMap: hintMap([
          [
            EventTargetPodUpdate,
            [
              [queuePlugin, queueHintReturnQueue],
              [skipPlugin, queueHintReturnSkip],
            ],
          ],
        ]),
        preEnqueuePluginMap: new Map([["", [new DenyingPreEnqueuePlugin(["deny"])]]]),
      });
      const [oldPod, newPod] = tc.prepareFunc(q, clock);

      q.update(oldPod, newPod);

      expect(whereIs(q, newPod)).toBe(tc.wantQ);
      if (tc.wantQ === "none") return;
      expect(q.getPod(newPod)?.podInfo.pod).toEqual(newPod);
      if (tc.wantAddedToNominated) expect(q.nominator.nominatedPods.size).toBe(1);
    });
  }
});

describe("TestPriorityQueue_UpdateWhenInflight", () => {
  it("requeues a pod updated while being scheduled when the update may make it schedulable", () => {
    // fakePlugin could change its result on any update of the pod.
    const { q } = newTestQueue({
      queueingHintMap: hintMap([[EventTargetPodUpdate, [["fakePlugin", queueHintReturnQueue]]]]),
    });
    const testPod = makePod().name("test-pod").namespace("test-ns").uid("test-uid").obj();
    q.add(testPod);
    expect(q.pop()?.podInfo.pod).toBe(testPod);

    // Updated while being scheduled.
    const updatedPod = structuredClone(testPod);
    updatedPod.spec = {
      ...updatedPod.spec,
      containers: [],
      tolerations: [{ key: "foo", effect: "NoSchedule" }],
    };
    q.update(testPod, updatedPod);
    // Rejected by fakePlugin, but the update may change that: activeQ/backoffQ.
    q.addUnschedulableIfNotPresent(newQueuedPodInfoForLookup(updatedPod, "fakePlugin"), q.schedulingCycle());

    const pInfo = q.backoffQ.getByKey("test-ns/test-pod");
    expect(pInfo).toBeDefined();
    expect(pInfo?.podInfo.pod).toEqual(updatedPod);
  });
});

describe("TestPriorityQueue_Delete", () => {
  type Operation = "add" | "popAndRequeueAsBackoff" | "popAndRequeueAsUnschedulable";
  const pod1 = () => makePod().name("pod1").namespace("ns1").uid("pod1").obj();
  const pod2 = () => makePod().name("pod2").namespace("ns1").uid("pod2").obj();
  const operands: Record<string, () => { pod: Pod; unschedulable: string[]; pending: string[] }> = {
    pInfo1: () => ({ pod: pod1(), unschedulable: ["fakePlugin"], pending: ["fakePendingPlugin"] }),
    pInfo2: () => ({ pod: pod2(), unschedulable: ["fakePlugin2"], pending: [] }),
    highPriNominated: () => ({ pod: highPriNominatedPod(), unschedulable: [], pending: [] }),
  };
  const tests: {
    name: string;
    operations: Operation[];
    operands: string[];
    podToDelete: () => Pod;
    expectedAbsentPods: (() => Pod)[];
    expectedPresentPods: (() => Pod)[];
  }[] = [
    {
      name: "Delete pod from activeQ",
      operations: ["add", "add"],
      operands: ["pInfo1", "pInfo2"],
      podToDelete: pod1,
      expectedAbsentPods: [pod1],
      expectedPresentPods: [pod2],
    },
    {
      name: "Delete pod from backoffQ",
      operations: ["popAndRequeueAsBackoff", "add"],
      operands: ["pInfo1", "pInfo2"],
      podToDelete: pod1,
      expectedAbsentPods: [pod1],
      expectedPresentPods: [pod2],
    },
    {
      name: "Delete pod from unschedulablePods",
      operations: ["popAndRequeueAsUnschedulable", "popAndRequeueAsUnschedulable"],
      operands: ["pInfo1", "pInfo2"],
      podToDelete: pod1,
      expectedAbsentPods: [pod1],
      expectedPresentPods: [pod2],
    },
    {
      name: "Delete nominated pod from activeQ",
      operations: ["add"],
      operands: ["highPriNominated"],
      podToDelete: highPriNominatedPod,
      expectedAbsentPods: [highPriNominatedPod],
      expectedPresentPods: [],
    },
    {
      name: "Delete non-existing pod",
      operations: ["popAndRequeueAsUnschedulable"],
      operands: ["pInfo1"],
      podToDelete: pod2,
      expectedAbsentPods: [pod2],
      expectedPresentPods: [pod1],
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q } = newTestQueue();
      tc.operations.forEach((op, i) => {
        const { pod, unschedulable, pending } = (
          operands[tc.operands[i] as string] as () => {
            pod: Pod;
            unschedulable: string[];
            pending: string[];
          }
        )();
        q.add(pod);
        if (op === "add") return;
        const p = popPod(q, pod);
        if (op === "popAndRequeueAsBackoff") {
          // No unschedulable plugin: always backoffQ.
          p.unschedulableCount++;
        } else {
          // Simulate plugins waiting for some events.
          p.unschedulablePlugins = new Set(unschedulable);
          p.pendingPlugins = new Set(pending);
        }
        q.addUnschedulableIfNotPresent(p, 1);
      });

      q.delete(tc.podToDelete());

      for (const pod of tc.expectedAbsentPods) expect(whereIs(q, pod())).toBe("none");
      for (const pod of tc.expectedPresentPods) expect(whereIs(q, pod())).not.toBe("none");
      // upstream also checks the per-plugin scheduler_unschedulable_pods gauge, which the queue does not report.
      expect(q.nominator.nominatedPods.size).toBe(0);
      expect(q.nominator.nominatedPodToNode.size).toBe(0);
    });
  }
});

describe("TestPriorityQueue_Activate", () => {
  const tests: {
    name: string;
    qPodInfoInUnschedulableEntities?: boolean;
    qPodInfoInBackoffQ?: boolean;
    qPodInActiveQ?: boolean;
    qPodInInFlightPod?: () => Pod;
    expectedInFlightEvent?: boolean;
    want: number;
  }[] = [
    { name: "pod already in activeQ", qPodInActiveQ: true, want: 1 },
    { name: "pod not in unschedulableEntities/backoffQ", want: 0 },
    {
      name: "pod not in unschedulableEntities/backoffQ but in-flight",
      qPodInInFlightPod: highPriNominatedPod,
      expectedInFlightEvent: true,
      want: 0,
    },
    {
      name: "pod not in unschedulableEntities/backoffQ and not in-flight",
      qPodInInFlightPod: medPriorityPod, // a different pod is in flight
      want: 0,
    },
    { name: "pod in unschedulableEntities", qPodInfoInUnschedulableEntities: true, want: 1 },
    { name: "pod in backoffQ", qPodInfoInBackoffQ: true, want: 1 },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const { q } = newTestQueue();
      const toActivate = highPriNominatedPod();
      if (tc.qPodInInFlightPod) {
        // Put -> Pop the pod to register it in inFlightPods.
        const inFlight = tc.qPodInInFlightPod();
        q.activeQ.queue.addOrUpdate(newQueuedPodInfoForLookup(inFlight));
        expect(q.pop()?.podInfo.pod.metadata?.name).toBe(inFlight.metadata?.name);
        expect(q.activeQ.listInFlightEvents()).toHaveLength(1);
      }
      if (tc.qPodInActiveQ) q.add(toActivate);
      if (tc.qPodInfoInUnschedulableEntities) q.unschedulablePods.addOrUpdate(queuedPodInfo(toActivate));
      if (tc.qPodInfoInBackoffQ) q.backoffQ.add(queuedPodInfo(toActivate));

      q.activate(new Map([["test_pod", toActivate]]));

      expect(q.activeQ.queue.len()).toBe(tc.want);
      if (tc.expectedInFlightEvent) {
        const events = q.activeQ.listInFlightEvents();
        expect(events).toHaveLength(2);
        const recorded = events.filter((e) => "event" in e);
        expect(recorded).toEqual([{ event: EventForceActivate, oldObj: null, newObj: toActivate }]);
      }
      if (tc.want > 0) expect(whereIs(q, toActivate)).toBe("activeQ");
    });
  }
});

describe("TestPriorityQueue_moveToActiveQ", () => {
  const tests: {
    name: string;
    plugins?: () => PreEnqueuePlugin[];
    pod: () => Pod;
    event: string;
    movesFromBackoffQ?: boolean;
    popFromBackoffQEnabled?: boolean[];
    wantUnschedulablePods: number;
    wantSuccess: boolean;
  }[] = [
    {
      name: "no plugins registered",
      pod: () => makePod().name("p").label("p", "").obj(),
      event: SpecialEvents.UnscheduledPodAdd,
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
    {
      name: "preEnqueue plugin registered, pod name not in allowlists",
      plugins: () => [new AllowlistPreEnqueuePlugin()],
      pod: () => makePod().name("p").label("p", "").obj(),
      event: SpecialEvents.UnscheduledPodAdd,
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: "preEnqueue plugin registered, pod failed one preEnqueue plugin",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      event: SpecialEvents.UnscheduledPodAdd,
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: "preEnqueue plugin registered, preEnqueue rejects the pod, even if it is after backoff",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      event: SpecialEvents.BackoffComplete,
      popFromBackoffQEnabled: [false],
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      // With PopFromBackoffQ the pod passed PreEnqueue on entering backoffQ: not run again.
      name: "preEnqueue plugin registered, pod would fail one preEnqueue plugin, but it is moved from backoffQ after completing backoff, so preEnqueue is not executed",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      event: SpecialEvents.BackoffComplete,
      movesFromBackoffQ: true,
      popFromBackoffQEnabled: [true],
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
    {
      name: "preEnqueue plugin registered, pod failed one preEnqueue plugin when activated from unschedulableEntities",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      event: SpecialEvents.ForceActivate,
      movesFromBackoffQ: false,
      popFromBackoffQEnabled: [true],
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: "preEnqueue plugin registered, pod would fail one preEnqueue plugin, but was activated from backoffQ, so preEnqueue is not executed",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      event: SpecialEvents.ForceActivate,
      movesFromBackoffQ: true,
      popFromBackoffQEnabled: [true],
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
    {
      name: "preEnqueue plugin registered, pod passed all preEnqueue plugins",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["bar"], "allowBar"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      event: SpecialEvents.UnscheduledPodAdd,
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
  ];

  for (const tc of tests) {
    for (const popFromBackoffQ of tc.popFromBackoffQEnabled ?? [true, false]) {
      it(`${tc.name} popFromBackoffQEnabled(${popFromBackoffQ})`, () => {
        const pod = tc.pod();
        const { q, clock } = newTestQueue({
          objs: [pod],
          popFromBackoffQ,
          preEnqueuePluginMap: new Map([["", tc.plugins?.() ?? []]]),
          podInitialBackoffMs: 30_000,
          podMaxBackoffMs: 60_000,
        });
        const got = internals(q).moveToActiveQ(
          newQueuedPodInfo(clock, pod),
          tc.event,
          tc.movesFromBackoffQ ?? false,
        );
        expect(got).toBe(tc.wantSuccess);
        expect(q.unschedulablePods.size).toBe(tc.wantUnschedulablePods);

        // An update keeps the pod where it is.
        const clone = structuredClone(pod);
        clone.metadata = { ...clone.metadata, annotations: { foo: "" } };
        q.update(pod, clone);
        expect(q.unschedulablePods.size).toBe(tc.wantUnschedulablePods);
      });
    }
  }
});

describe("TestPriorityQueue_moveToBackoffQ", () => {
  const tests: {
    name: string;
    plugins?: () => PreEnqueuePlugin[];
    pod: () => Pod;
    popFromBackoffQEnabled?: boolean[];
    wantSuccess: boolean;
  }[] = [
    { name: "no plugins registered", pod: () => makePod().name("p").label("p", "").obj(), wantSuccess: true },
    {
      name: "preEnqueue plugin registered, pod name would not be in allowlists",
      plugins: () => [new AllowlistPreEnqueuePlugin()],
      pod: () => makePod().name("p").label("p", "").obj(),
      popFromBackoffQEnabled: [false],
      wantSuccess: true,
    },
    {
      name: "preEnqueue plugin registered, pod name not in allowlists",
      plugins: () => [new AllowlistPreEnqueuePlugin()],
      pod: () => makePod().name("p").label("p", "").obj(),
      popFromBackoffQEnabled: [true],
      wantSuccess: false,
    },
    {
      name: "preEnqueue plugin registered, preEnqueue plugin would reject the pod, but isn't run",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      popFromBackoffQEnabled: [false],
      wantSuccess: true,
    },
    {
      name: "preEnqueue plugin registered, pod failed one preEnqueue plugin",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["foo"], "allowFoo"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      popFromBackoffQEnabled: [true],
      wantSuccess: false,
    },
    {
      name: "preEnqueue plugin registered, pod passed all preEnqueue plugins",
      plugins: () => [
        new AllowlistPreEnqueuePlugin(["foo", "bar"], "allowFooBar"),
        new AllowlistPreEnqueuePlugin(["bar"], "allowBar"),
      ],
      pod: () => makePod().name("bar").label("bar", "").obj(),
      wantSuccess: true,
    },
  ];

  for (const tc of tests) {
    for (const popFromBackoffQ of tc.popFromBackoffQEnabled ?? [true, false]) {
      it(`${tc.name} popFromBackoffQEnabled(${popFromBackoffQ})`, () => {
        const pod = tc.pod();
        const { q, clock } = newTestQueue({
          objs: [pod],
          popFromBackoffQ,
          preEnqueuePluginMap: new Map([["", tc.plugins?.() ?? []]]),
          podInitialBackoffMs: 30_000,
          podMaxBackoffMs: 60_000,
        });
        const pInfo = newQueuedPodInfo(clock, pod);
        const got = internals(q).moveToBackoffQ(pInfo, SpecialEvents.UnscheduledPodAdd);
        expect(got).toBe(tc.wantSuccess);
        expect(q.backoffQ.has(pInfo)).toBe(tc.wantSuccess);
        expect(q.unschedulablePods.get(pInfo) !== undefined).toBe(!tc.wantSuccess);
      });
    }
  }
});

describe("TestPriorityQueue_NominatedPodsForNode", () => {
  it("returns the queued pods nominated to the node", () => {
    const mpp = medPriorityPod();
    const up = unschedulablePod();
    const hpp = highPriorityPod();
    const { q } = newTestQueue({ objs: [mpp, up, hpp] });
    q.add(mpp);
    q.add(up);
    q.add(hpp);
    expect(q.pop()?.podInfo.pod).toBe(hpp);
    expect(q.nominatedPodsForNode("node1").map((pi) => pi.pod)).toEqual([mpp, up]);
    // upstream then mutates the returned copies and checks the queue is unaffected; PodInfos are
    // immutable here and shared instead of deep-copied (README deviation).
    expect(q.nominatedPodsForNode("node2")).toHaveLength(0);
  });
});

describe("TestPriorityQueue_NominatedPodDeleted", () => {
  const tests = [
    { name: "alive pod gets added into PodNominator", pod: medPriorityPod, wantLen: 1 },
    {
      name: "deleted pod shouldn't be added into PodNominator",
      pod: highPriNominatedPod,
      deletePod: true,
      wantLen: 0,
    },
    {
      name: "pod without .status.nominatedPodName specified shouldn't be added into PodNominator",
      pod: highPriorityPod,
      wantLen: 0,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const pod = tc.pod();
      const lister = podListerOf([pod]);
      const { q } = newTestQueue({ podLister: lister });
      // Simulate that the pod gets deleted physically.
      if (tc.deletePod) lister.pods = [];
      q.addNominatedPod(new PodInfo(pod), null);
      expect(q.nominatedPodsForNode(pod.status?.nominatedNodeName ?? "")).toHaveLength(tc.wantLen);
    });
  }
});

describe("TestPriorityQueue_NominatedNodeNameEmptyNodeKey", () => {
  const tests: {
    name: string;
    initialNominatedNode?: string;
    podNominatedNode?: string;
    nominatingMode: NominatingMode;
    nominatingNodeName?: string;
    wantNominatedNode?: string;
  }[] = [
    { name: "ModeOverride empty without prior nomination", nominatingMode: NominatingMode.Override },
    {
      name: "nominated then cleared with ModeOverride empty",
      initialNominatedNode: "node1",
      nominatingMode: NominatingMode.Override,
    },
    { name: "ModeNoop empty without prior nomination", nominatingMode: NominatingMode.Noop },
    {
      name: "nominated then cleared with ModeNoop empty",
      initialNominatedNode: "node1",
      nominatingMode: NominatingMode.Noop,
    },
    {
      name: "ModeNoop with non-empty nominatingInfo NNN ignored when pod NNN empty",
      nominatingMode: NominatingMode.Noop,
      nominatingNodeName: "node1",
    },
    {
      name: "ModeNoop with non-empty nominatingInfo NNN uses pod NNN",
      nominatingMode: NominatingMode.Noop,
      podNominatedNode: "node2",
      nominatingNodeName: "node1",
      wantNominatedNode: "node2",
    },
    {
      name: "ModeNoop empty nominatingInfo NNN with non-empty pod NNN",
      nominatingMode: NominatingMode.Noop,
      podNominatedNode: "node2",
      wantNominatedNode: "node2",
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      let builder = makePod().name("hpp").namespace("ns1").uid("hppns1").priority(highPriority);
      if (tc.podNominatedNode) builder = builder.nominatedNodeName(tc.podNominatedNode);
      const podInfo = new PodInfo(builder.obj());
      const { q } = newTestQueue({ objs: [podInfo.pod] });
      if (tc.initialNominatedNode) {
        q.addNominatedPod(podInfo, {
          nominatingMode: NominatingMode.Override,
          nominatedNodeName: tc.initialNominatedNode,
        });
        expect(q.nominator.nominatedPods.get(tc.initialNominatedNode)).toHaveLength(1);
      }

      q.addNominatedPod(podInfo, {
        nominatingMode: tc.nominatingMode,
        nominatedNodeName: tc.nominatingNodeName ?? "",
      });

      expect(q.nominator.nominatedPods.get("") ?? []).toHaveLength(0);
      if (!tc.wantNominatedNode) {
        expect(q.nominator.nominatedPods.size).toBe(0);
        expect(q.nominator.nominatedPodToNode.size).toBe(0);
      } else {
        expect(q.nominator.nominatedPods.get(tc.wantNominatedNode)).toHaveLength(1);
        expect(q.nominator.nominatedPodToNode.get("hppns1")).toBe(tc.wantNominatedNode);
      }
    });
  }
});

describe("TestPriorityQueue_PendingPods", () => {
  it("lists the pending pods with a summary of the queue sizes", () => {
    const { q, clock } = newTestQueue();
    const up = unschedulablePod();
    const hpp = highPriorityPod();
    const mpp = medPriorityPod();
    q.add(up);
    popPod(q, up);
    q.add(hpp);
    popPod(q, hpp);
    q.add(mpp);
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, up, "plugin"), q.schedulingCycle());
    q.addUnschedulableIfNotPresent(newQueuedPodInfo(clock, hpp, "plugin"), q.schedulingCycle());

    const expectedSet = new Set([mpp, up, hpp]);
    let { pods, summary } = q.pendingPods();
    expect(new Set(pods)).toEqual(expectedSet);
    expect(summary).toBe("activeQ:1; backoffQ:0; unschedulableEntities:2");
    // Move all to the active queue: still the same set of pods.
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, null, null);
    ({ pods, summary } = q.pendingPods());
    expect(new Set(pods)).toEqual(expectedSet);
    expect(summary).toBe("activeQ:1; backoffQ:2; unschedulableEntities:0");
  });
});

describe("TestPriorityQueue_UpdateNominatedPodForNode", () => {
  it("overrides, keeps across Pop, ignores gone or bound pods, deletes", () => {
    const mpp = medPriorityPod();
    const up = unschedulablePod();
    const hpp = highPriorityPod();
    const sp = scheduledPod();
    // The informer cache holds its own copies (upstream's fake clientset copies the objects).
    const { q } = newTestQueue({ objs: [mpp, up, hpp, sp].map((p) => structuredClone(p)) });
    q.add(mpp);
    // Nominate unschedulablePod on a different node than the pod says.
    q.addNominatedPod(new PodInfo(up), {
      nominatingMode: NominatingMode.Override,
      nominatedNodeName: "node5",
    });
    // Nominate a pod whose object carries no nominated node.
    q.addNominatedPod(new PodInfo(hpp), {
      nominatingMode: NominatingMode.Override,
      nominatedNodeName: "node2",
    });
    let expected: ReturnType<typeof nominatorState> = {
      nominatedPodToNode: { mppns2: "node1", hppns1: "node2", upns1: "node5" },
      nominatedPods: { node1: [podToRef(mpp)], node2: [podToRef(hpp)], node5: [podToRef(up)] },
    };
    expect(nominatorState(q)).toEqual(expected);
    expect(q.pop()?.podInfo.pod).toBe(mpp);
    // Popping does not change the nominations.
    expect(nominatorState(q)).toEqual(expected);
    // Update a nominated pod without nominatedNodeName in its object.
    q.addNominatedPod(new PodInfo(hpp), {
      nominatingMode: NominatingMode.Override,
      nominatedNodeName: "node4",
    });
    expected = {
      nominatedPodToNode: { mppns2: "node1", hppns1: "node4", upns1: "node5" },
      nominatedPods: { node1: [podToRef(mpp)], node4: [podToRef(hpp)], node5: [podToRef(up)] },
    };
    expect(nominatorState(q)).toEqual(expected);

    // A pod deleted from the informer cache: nothing changes.
    q.addNominatedPod(new PodInfo(nonExistentPod()), {
      nominatingMode: NominatingMode.Override,
      nominatedNodeName: "node1",
    });
    expect(nominatorState(q)).toEqual(expected);
    // A pod already scheduled in the informer cache: nothing changes.
    const scheduledPodCopy = structuredClone(sp);
    if (sp.spec) sp.spec.nodeName = "";
    q.addNominatedPod(new PodInfo(scheduledPodCopy), {
      nominatingMode: NominatingMode.Override,
      nominatedNodeName: "node1",
    });
    expect(nominatorState(q)).toEqual(expected);

    // Delete a nominated pod whose object carries no nominatedNodeName.
    q.deleteNominatedPodIfExists(hpp);
    expect(nominatorState(q)).toEqual({
      nominatedPodToNode: { mppns2: "node1", upns1: "node5" },
      nominatedPods: { node1: [podToRef(mpp)], node5: [podToRef(up)] },
    });
  });
});

describe("TestPriorityQueue_NewWithOptions", () => {
  it("applies the backoff options", () => {
    const { q } = newTestQueue({ podInitialBackoffMs: 2000, podMaxBackoffMs: 20_000 });
    expect(q.backoffQ.podInitialBackoffMs).toBe(2000);
    expect(q.backoffQ.podMaxBackoffMs).toBe(20_000);
  });
});

describe("Test_queuedPodInfo_gatedSetUponCreationAndUnsetUponUpdate", () => {
  it("gated on creation, ungated by the update removing the gates", () => {
    const { q } = newTestQueue({
      preEnqueuePluginMap: new Map([["", [new SchedulingGatesPreEnqueuePlugin()]]]),
    });
    const gatedPod = makePod().schedulingGates(["hello world"]).obj();
    q.add(gatedPod);
    expect(q.unschedulablePods.getByKey("/")?.gatingPlugin).not.toBe("");

    const ungatedPod = structuredClone(gatedPod);
    if (ungatedPod.spec) delete ungatedPod.spec.schedulingGates;
    q.update(gatedPod, ungatedPod);

    expect(q.pop()?.gatingPlugin).toBe("");
  });
});

describe("TestPriorityQueue_GetPod", () => {
  const activeQPod = makePod().name("pod1").namespace("default").obj();
  const backoffQPod = makePod().name("pod2").namespace("default").obj();
  const unschedPod = makePod().name("pod3").namespace("default").obj();
  const { q } = newTestQueue();
  q.activeQ.queue.addOrUpdate(newQueuedPodInfoForLookup(activeQPod));
  q.backoffQ.add(newQueuedPodInfoForLookup(backoffQPod));
  q.unschedulablePods.addOrUpdate(newQueuedPodInfoForLookup(unschedPod));

  const tests = [
    { name: "pod is found in activeQ", podName: "pod1", expectedPod: activeQPod },
    { name: "pod is found in backoffQ", podName: "pod2", expectedPod: backoffQPod },
    { name: "pod is found in unschedulableEntities", podName: "pod3", expectedPod: unschedPod },
    { name: "pod is not found", podName: "pod4", expectedPod: undefined },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const pInfo = q.getPod(makePod().name(tc.podName).namespace("default").obj());
      expect(pInfo !== undefined).toBe(tc.expectedPod !== undefined);
      expect(pInfo?.podInfo.pod).toBe(tc.expectedPod);
    });
  }
});

describe("TestSchedulingQueue_Close", () => {
  it("pop returns nothing after close", () => {
    const { q, clock } = newTestQueue({ clock: new ManualClock(start) });
    q.run();
    q.close();
    expect(q.pop()).toBeNull();
    expect(clock.pendingTimers()).toBe(0);
  });
});
