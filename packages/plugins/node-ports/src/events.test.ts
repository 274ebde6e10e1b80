// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports_test.go (Test_isSchedulableAfterPodDeleted)
import type { Pod } from "@kubesched/api";
import { ActionType, defaultFeatures, EventResource, QueueingHint } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { NodePorts } from "./node-ports";

describe("EventsToRegister", () => {
  it("registers Pod Delete (with a hint) and Node Add with QueueingHints on", () => {
    const events = new NodePorts(defaultFeatures).eventsToRegister();
    expect(events.map((e) => e.event)).toEqual([
      { resource: EventResource.Pod, actionType: ActionType.Delete },
      { resource: EventResource.Node, actionType: ActionType.Add },
    ]);
    expect(events[0]?.queueingHintFn).toBeTypeOf("function");
    expect(events[1]?.queueingHintFn).toBeUndefined();
  });

  it("also registers node taint and label updates with QueueingHints off", () => {
    const events = new NodePorts({ ...defaultFeatures, enableSchedulingQueueHint: false }).eventsToRegister();
    expect(events[1]?.event).toEqual({
      resource: EventResource.Node,
      actionType: ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    });
  });
});

describe("Test_isSchedulableAfterPodDeleted", () => {
  const podWithHostPort = makePod().hostPort(8080);
  const testcases: Record<
    string,
    { pod: Pod; oldObj: unknown; expectedHint: QueueingHint; expectedErr?: boolean }
  > = {
    "backoff-wrong-old-object": {
      pod: podWithHostPort.obj(),
      oldObj: "not-a-pod",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "skip-queue-on-unscheduled": {
      pod: podWithHostPort.obj(),
      oldObj: makePod().obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-non-hostport": {
      pod: podWithHostPort.obj(),
      oldObj: makePod().node("fake-node").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-unrelated-hostport": {
      pod: podWithHostPort.obj(),
      oldObj: makePod().node("fake-node").hostPort(8081).obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-released-hostport": {
      pod: podWithHostPort.obj(),
      oldObj: makePod().node("fake-node").hostPort(8080).obj(),
      expectedHint: QueueingHint.Queue,
    },
  };
  for (const [name, tc] of Object.entries(testcases)) {
    it(name, () => {
      const fn = new NodePorts(defaultFeatures).eventsToRegister()[0]!.queueingHintFn!;
      if (tc.expectedErr) {
        // A hint that throws counts as Queue.
        expect(() => fn(tc.pod, tc.oldObj, undefined)).toThrow();
        return;
      }
      expect(fn(tc.pod, tc.oldObj, undefined)).toBe(tc.expectedHint);
    });
  }
});
