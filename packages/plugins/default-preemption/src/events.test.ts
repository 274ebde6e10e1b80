import { ActionType, EventResource, QueueingHint } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { eventsToRegister } from "./events";

describe("EventsToRegister", () => {
  it("registers Pod/Delete with a QueueSkip hint when SchedulerAsyncPreemption is on", () => {
    const evs = eventsToRegister(true);
    expect(evs.map((e) => e.event)).toEqual([{ resource: EventResource.Pod, actionType: ActionType.Delete }]);
    const pod = makePod().name("p").obj();
    expect(evs[0]?.queueingHintFn?.(pod, pod, undefined)).toBe(QueueingHint.QueueSkip);
  });

  it("registers nothing when SchedulerAsyncPreemption is off", () => {
    expect(eventsToRegister(false)).toEqual([]);
  });
});
