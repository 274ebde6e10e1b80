// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go (Test_isSchedulableAfterNodeChange)
import type { Pod } from "@kubesched/api";
import {
  ActionType,
  defaultFeatures,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { makeNode, makePod, NodeSelectorTypeMatchExpressions } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { NodeAffinityArgs } from "./args";
import { NodeAffinity } from "./node-affinity";

function hint(args: NodeAffinityArgs): QueueingHintFn {
  const fn = new NodeAffinity(args, defaultFeatures).eventsToRegister()[0]?.queueingHintFn;
  if (!fn) throw new Error("no hint");
  return fn;
}

describe("EventsToRegister", () => {
  it("registers Node Add|UpdateNodeLabel with QueueingHints on", () => {
    expect(new NodeAffinity({}, defaultFeatures).eventsToRegister().map((e) => e.event)).toEqual([
      { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeLabel },
    ]);
  });

  it("also registers UpdateNodeTaint with QueueingHints off", () => {
    const pl = new NodeAffinity({}, { ...defaultFeatures, enableSchedulingQueueHint: false });
    expect(pl.eventsToRegister().map((e) => e.event)).toEqual([
      {
        resource: EventResource.Node,
        actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
      },
    ]);
  });
});

describe("Test_isSchedulableAfterNodeChange", () => {
  const podWithNodeAffinity = makePod().nodeAffinityIn("foo", ["bar"], NodeSelectorTypeMatchExpressions);
  const enforced: NodeAffinityArgs = {
    addedAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] }],
      },
    },
  };
  const testcases: Record<
    string,
    {
      args: NodeAffinityArgs;
      pod: Pod;
      oldObj?: unknown;
      newObj?: unknown;
      expectedHint: QueueingHint;
      expectedErr?: boolean;
    }
  > = {
    "backoff-wrong-new-object": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      newObj: "not-a-node",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "backoff-wrong-old-object": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      oldObj: "not-a-node",
      newObj: makeNode().obj(),
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "skip-queue-on-add": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      newObj: makeNode().obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-add": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      newObj: makeNode().label("foo", "bar").obj(),
      expectedHint: QueueingHint.Queue,
    },
    "skip-unrelated-changes": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      oldObj: makeNode().obj(),
      newObj: makeNode().capacity({}).obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-unrelated-changes-on-labels": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      oldObj: makeNode().obj(),
      newObj: makeNode().label("k", "v").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-labels-changes-on-node-from-suitable-to-unsuitable": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      oldObj: makeNode().label("foo", "bar").obj(),
      newObj: makeNode().label("k", "v").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-labels-change-makes-pod-schedulable": {
      args: {},
      pod: podWithNodeAffinity.obj(),
      oldObj: makeNode().obj(),
      newObj: makeNode().label("foo", "bar").obj(),
      expectedHint: QueueingHint.Queue,
    },
    "skip-queue-on-add-scheduler-enforced-node-affinity": {
      args: enforced,
      pod: podWithNodeAffinity.obj(),
      newObj: makeNode().obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-add-scheduler-enforced-node-affinity": {
      args: enforced,
      pod: podWithNodeAffinity.obj(),
      newObj: makeNode().label("foo", "bar").obj(),
      expectedHint: QueueingHint.Queue,
    },
  };
  for (const [name, tc] of Object.entries(testcases)) {
    it(name, () => {
      const fn = hint(tc.args);
      if (tc.expectedErr) {
        // A hint that throws counts as Queue.
        expect(() => fn(tc.pod, tc.oldObj, tc.newObj)).toThrow();
        return;
      }
      expect(fn(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
    });
  }
});
