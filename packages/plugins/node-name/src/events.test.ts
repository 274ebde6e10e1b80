// upstream: pkg/scheduler/framework/plugins/nodename/node_name.go (EventsToRegister)
import { ActionType, EventResource } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { NodeName } from "./node-name";

describe("EventsToRegister", () => {
  it("registers Node Add without a hint (always Queue)", () => {
    expect(new NodeName().eventsToRegister()).toEqual([
      { event: { resource: EventResource.Node, actionType: ActionType.Add } },
    ]);
  });
});
