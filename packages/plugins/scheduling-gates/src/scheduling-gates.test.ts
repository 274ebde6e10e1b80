// upstream: pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates_test.go
import type { Pod } from "@kubesched/api";
import { ActionType, EventResource, QueueingHint } from "@kubesched/framework";
import { createPluginHarness, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { schedulingGatesPlugin } from "./index";
import type { SchedulingGates } from "./scheduling-gates";

async function newPlugin(enableSchedulingQueueHint = true): Promise<SchedulingGates> {
  const h = await createPluginHarness({
    plugin: schedulingGatesPlugin,
    features: { enableSchedulingQueueHint },
  });
  return h.plugin as SchedulingGates;
}

describe("TestPreEnqueue", () => {
  const cases = [
    {
      name: "pod does not carry scheduling gates",
      pod: makePod().name("p").obj(),
      want: { code: "Success", reasons: [] },
    },
    {
      name: "pod carries scheduling gates",
      pod: makePod().name("p").schedulingGates(["foo", "bar"]).obj(),
      want: { code: "UnschedulableAndUnresolvable", reasons: ["waiting for scheduling gates: [foo bar]"] },
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({ plugin: schedulingGatesPlugin });
    expect(statusSummary(h.preEnqueue(tc.pod))).toEqual(tc.want);
  });
});

describe("Test_isSchedulableAfterPodChange", () => {
  const cases: Record<
    string,
    { pod: Pod; oldObj?: unknown; newObj?: unknown; expectedHint: QueueingHint; expectedErr?: boolean }
  > = {
    "backoff-wrong-old-object": {
      pod: makePod().obj(),
      oldObj: "not-a-pod",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "backoff-wrong-new-object": {
      pod: makePod().obj(),
      newObj: "not-a-pod",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "skip-queue-on-other-pod-updated": {
      pod: makePod().name("p").schedulingGates(["foo", "bar"]).uid("uid0").obj(),
      oldObj: makePod().name("p1").schedulingGates(["foo", "bar"]).uid("uid1").obj(),
      newObj: makePod().name("p1").schedulingGates(["foo"]).uid("uid1").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-the-unsched-pod-updated": {
      pod: makePod().name("p").schedulingGates(["foo"]).obj(),
      oldObj: makePod().name("p").schedulingGates(["foo"]).obj(),
      newObj: makePod().name("p").schedulingGates([]).obj(),
      expectedHint: QueueingHint.Queue,
    },
  };
  it.each(Object.entries(cases))("%s", async (_name, tc) => {
    const [e] = (await newPlugin()).eventsToRegister();
    expect(e?.event).toEqual({
      resource: EventResource.Pod,
      actionType: ActionType.UpdatePodSchedulingGatesEliminated,
    });
    const fn = e!.queueingHintFn!;
    if (tc.expectedErr) {
      expect(() => fn(tc.pod, tc.oldObj, tc.newObj)).toThrow();
      return;
    }
    expect(fn(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
  });

  it("registers nothing with QueueingHints off", async () => {
    expect((await newPlugin(false)).eventsToRegister()).toEqual([]);
  });
});
