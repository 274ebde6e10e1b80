// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go
// (TestIsSchedulableAfterNodeChange, TestIsSchedulableAfterPodTolerationChange)
import type { Pod } from "@kubesched/api";
import {
  ActionType,
  defaultFeatures,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { TaintNodeUnschedulable } from "./events";
import { NodeUnschedulable } from "./node-unschedulable";

function hint(resource: string): QueueingHintFn {
  const e = new NodeUnschedulable(defaultFeatures)
    .eventsToRegister()
    .find((x) => x.event.resource === resource);
  if (!e?.queueingHintFn) throw new Error(`no hint for ${resource}`);
  return e.queueingHintFn;
}

interface HintCase {
  name: string;
  pod: Pod;
  oldObj?: unknown;
  newObj?: unknown;
  expectedHint: QueueingHint;
  expectedErr?: boolean;
}

function runHintCases(resource: string, cases: HintCase[]): void {
  for (const tc of cases) {
    it(tc.name, () => {
      const fn = hint(resource);
      if (tc.expectedErr) {
        // A hint that throws counts as Queue.
        expect(() => fn(tc.pod, tc.oldObj, tc.newObj)).toThrow();
        return;
      }
      expect(fn(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
    });
  }
}

describe("EventsToRegister", () => {
  it("registers Node Add|UpdateNodeTaint and Pod UpdatePodToleration with QueueingHints on", () => {
    expect(new NodeUnschedulable(defaultFeatures).eventsToRegister().map((e) => e.event)).toEqual([
      { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeTaint },
      { resource: EventResource.Pod, actionType: ActionType.UpdatePodToleration },
    ]);
  });

  it("registers Node Add|UpdateNodeTaint|UpdateNodeLabel only with QueueingHints off", () => {
    const pl = new NodeUnschedulable({ ...defaultFeatures, enableSchedulingQueueHint: false });
    expect(pl.eventsToRegister().map((e) => e.event)).toEqual([
      {
        resource: EventResource.Node,
        actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
      },
    ]);
  });
});

describe("TestIsSchedulableAfterNodeChange", () => {
  const pod = makePod().obj();
  const notReady = { key: "node.kubernetes.io/not-ready", effect: "NoExecute" };
  runHintCases(EventResource.Node, [
    {
      name: "error-wrong-new-object",
      pod,
      newObj: "not-a-node",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "error-wrong-old-object",
      pod,
      newObj: makeNode().unschedulable(true).obj(),
      oldObj: "not-a-node",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "skip-queue-on-unschedulable-node-added",
      pod,
      newObj: makeNode().unschedulable(true).obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "queue-on-schedulable-node-added",
      pod,
      newObj: makeNode().unschedulable(false).obj(),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "skip-unrelated-change-unschedulable-true",
      pod,
      newObj: makeNode().unschedulable(true).taints([notReady]).obj(),
      oldObj: makeNode().unschedulable(true).obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "skip-unrelated-change-unschedulable-false",
      pod,
      newObj: makeNode().unschedulable(false).taints([notReady]).obj(),
      oldObj: makeNode().unschedulable(false).obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "queue-on-unschedulable-field-change",
      pod,
      newObj: makeNode().unschedulable(false).obj(),
      oldObj: makeNode().unschedulable(true).obj(),
      expectedHint: QueueingHint.Queue,
    },
  ]);
});

describe("TestIsSchedulableAfterPodTolerationChange", () => {
  runHintCases(EventResource.Pod, [
    {
      name: "error-wrong-new-object",
      pod: makePod().obj(),
      newObj: "not-a-pod",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "error-wrong-old-object",
      pod: makePod().obj(),
      newObj: makePod().obj(),
      oldObj: "not-a-pod",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "skip-different-pod-update",
      pod: makePod().uid("uid").obj(),
      newObj: makePod().uid("different-uid").toleration(TaintNodeUnschedulable).obj(),
      oldObj: makePod().uid("different-uid").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "queue-when-the-unsched-pod-gets-toleration",
      pod: makePod().uid("uid").obj(),
      newObj: makePod().uid("uid").toleration(TaintNodeUnschedulable).obj(),
      oldObj: makePod().uid("uid").obj(),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "skip-when-the-unsched-pod-gets-unrelated-toleration",
      pod: makePod().uid("uid").obj(),
      newObj: makePod().uid("uid").toleration("unrelated-key").obj(),
      oldObj: makePod().uid("uid").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
  ]);
});
