// upstream: pkg/scheduler/eventhandlers.go addAssignedPodToCache / updateAssignedPodInCache. With
// queueing hints (locked on upstream), an assigned pod's Add and Update events go through every
// unschedulable pod's hints (MoveAllToActiveOrBackoffQueue); the queue's own pre-filter
// (AssignedPodAdded / AssignedPodUpdated) only knows in-tree cross-topology plugins and would
// strand pods rejected by an out-of-tree plugin that subscribes to assigned-pod events.
import {
  ActionType,
  type ClusterEventWithHint,
  Code,
  definePlugin,
  EventResource,
  QueueingHint,
  Status,
} from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { newTestScheduler, profile } from "./fake-source.test-util";

const name = "WaitsForAssignedPod";
/** Rejects every node; asks to be retried when an assigned pod is added or relabelled. */
const waitsForAssignedPod = definePlugin<unknown>({
  name,
  factory: () => ({
    name: () => name,
    filter: () => new Status(Code.Unschedulable, "waiting for an assigned pod"),
    eventsToRegister: (): ClusterEventWithHint[] => [
      {
        event: {
          resource: EventResource.AssignedPod,
          actionType: ActionType.Add | ActionType.UpdatePodLabel,
        },
        queueingHintFn: () => QueueingHint.Queue,
      },
    ],
  }),
});

async function rejectedPod() {
  const ts = await newTestScheduler({
    plugins: [waitsForAssignedPod],
    profiles: [profile({ filter: [name] })],
    nodes: [makeNode().name("node").obj()],
    pods: [makePod().name("bound").namespace("default").uid("bound").label("app", "a").node("node").obj()],
    config: { podInitialBackoffSeconds: 0, podMaxBackoffSeconds: 0 },
  });
  await ts.schedule(makePod().name("pending").namespace("default").uid("pending").obj());
  expect(ts.failures.map((f) => f.pod.metadata?.name)).toEqual(["pending"]);
  expect(ts.sched.queue.podsInActiveQ()).toEqual([]);
  return ts;
}

describe("assigned-pod events and out-of-tree queueing hints", () => {
  it("an assigned pod added requeues a pod rejected by an out-of-tree plugin", async () => {
    const ts = await rejectedPod();
    ts.source.addPod(makePod().name("new").namespace("default").uid("new").node("node").obj());
    expect(ts.sched.queue.podsInActiveQ().map((p) => p.metadata?.name)).toEqual(["pending"]);
  });

  it("an assigned pod relabelled requeues a pod rejected by an out-of-tree plugin", async () => {
    const ts = await rejectedPod();
    const bound = ts.source.store.pods.get("default", "bound");
    if (!bound) throw new Error("bound pod missing");
    ts.source.updatePod(bound, {
      ...bound,
      metadata: { ...bound.metadata, resourceVersion: "2", labels: { app: "b" } },
    });
    expect(ts.sched.queue.podsInActiveQ().map((p) => p.metadata?.name)).toEqual(["pending"]);
  });
});
