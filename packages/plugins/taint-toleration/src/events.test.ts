// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// (TestIsSchedulableAfterNodeChange, Test_isSchedulableAfterPodChange)
import type { Node, Pod, Taint, Toleration } from "@kubesched/api";
import {
  ActionType,
  defaultFeatures,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { TaintToleration } from "./taint-toleration";

function nodeWithTaints(nodeName: string, taints: Taint[]): Node {
  return makeNode().name(nodeName).taints(taints).obj();
}

function podWithTolerations(podName: string, tolerations: Toleration[]): Pod {
  return makePod().name(podName).tolerations(tolerations).obj();
}

function hint(resource: string): QueueingHintFn {
  const e = new TaintToleration(defaultFeatures)
    .eventsToRegister()
    .find((x) => x.event.resource === resource);
  if (!e?.queueingHintFn) throw new Error(`no hint for ${resource}`);
  return e.queueingHintFn;
}

describe("EventsToRegister", () => {
  it("registers Node Add|UpdateNodeTaint and Pod UpdatePodToleration with QueueingHints on", () => {
    const events = new TaintToleration(defaultFeatures).eventsToRegister().map((e) => e.event);
    expect(events).toEqual([
      { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeTaint },
      { resource: EventResource.Pod, actionType: ActionType.UpdatePodToleration },
    ]);
  });

  it("registers Node Add|UpdateNodeTaint|UpdateNodeLabel only with QueueingHints off", () => {
    const pl = new TaintToleration({ ...defaultFeatures, enableSchedulingQueueHint: false });
    expect(pl.eventsToRegister().map((e) => e.event)).toEqual([
      {
        resource: EventResource.Node,
        actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
      },
    ]);
  });
});

describe("TestIsSchedulableAfterNodeChange", () => {
  const anyPod = makePod().obj();
  const tests: {
    name: string;
    pod?: Pod;
    oldObj?: unknown;
    newObj?: unknown;
    expectedHint: QueueingHint;
    wantErr?: boolean;
  }[] = [
    {
      name: "backoff-wrong-new-object",
      newObj: "not-a-node",
      expectedHint: QueueingHint.Queue,
      wantErr: true,
    },
    {
      name: "backoff-wrong-old-object",
      newObj: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
      oldObj: "not-a-node",
      expectedHint: QueueingHint.Queue,
      wantErr: true,
    },
    {
      name: "skip-queue-on-untoleratedtaint-node-added",
      pod: podWithTolerations("pod1", [
        { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
      ]),
      newObj: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "queue-on-toleratedtaint-node-added",
      pod: podWithTolerations("pod1", [
        { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
      ]),
      newObj: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user2", effect: "NoSchedule" }]),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "skip-unrelated-change",
      pod: podWithTolerations("pod1", [
        { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
      ]),
      newObj: nodeWithTaints("nodeA", [
        { key: "dedicated", value: "user1", effect: "NoSchedule" },
        { key: "dedicated", value: "user3", effect: "NoSchedule" },
      ]),
      oldObj: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "queue-on-taint-change",
      pod: podWithTolerations("pod1", [
        { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
      ]),
      newObj: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user2", effect: "NoSchedule" }]),
      oldObj: nodeWithTaints("nodeA", [{ key: "dedicated", value: "user1", effect: "NoSchedule" }]),
      expectedHint: QueueingHint.Queue,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const fn = hint(EventResource.Node);
      if (tc.wantErr) {
        // A hint that throws counts as Queue.
        expect(() => fn(tc.pod ?? anyPod, tc.oldObj, tc.newObj)).toThrow();
        return;
      }
      expect(fn(tc.pod ?? anyPod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
    });
  }
});

describe("Test_isSchedulableAfterPodChange", () => {
  const tests: Record<
    string,
    { pod: Pod; oldObj?: unknown; newObj?: unknown; expectedHint: QueueingHint; expectedErr?: boolean }
  > = {
    "backoff-wrong-new-object": {
      pod: makePod().obj(),
      newObj: "not-a-pod",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "backoff-wrong-old-object": {
      pod: makePod().obj(),
      oldObj: "not-a-pod",
      newObj: makePod().obj(),
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "skip-updates-other-pod": {
      pod: makePod().name("pod-1").namespace("ns-1").uid("uid0").obj(),
      oldObj: makePod().name("pod-2").namespace("ns-1").uid("uid1").obj(),
      newObj: makePod()
        .name("pod-2")
        .namespace("ns-1")
        .uid("uid1")
        .toleration({ key: "foo", effect: "NoSchedule" })
        .obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    // The newest upstream hint (isSchedulableAfterPodTolerationChange) only compares UIDs: the
    // queue delivers it UpdatePodToleration events only, so any update of the pod itself queues
    // it. The older upstream case expected QueueSkip for this label-only update.
    "skip-updates-not-toleration": {
      pod: makePod().name("pod-1").namespace("ns-1").obj(),
      oldObj: makePod().name("pod-1").namespace("ns-1").obj(),
      newObj: makePod().name("pod-1").namespace("ns-1").label("foo", "bar").obj(),
      expectedHint: QueueingHint.Queue,
    },
    "queue-on-toleration-added": {
      pod: makePod().name("pod-1").namespace("ns-1").obj(),
      oldObj: makePod().name("pod-1").namespace("ns-1").obj(),
      newObj: makePod()
        .name("pod-1")
        .namespace("ns-1")
        .toleration({ key: "foo", effect: "NoSchedule" })
        .obj(),
      expectedHint: QueueingHint.Queue,
    },
  };
  for (const [name, tc] of Object.entries(tests)) {
    it(name, () => {
      const fn = hint(EventResource.Pod);
      if (tc.expectedErr) {
        expect(() => fn(tc.pod, tc.oldObj, tc.newObj)).toThrow();
        return;
      }
      expect(fn(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
    });
  }
});
