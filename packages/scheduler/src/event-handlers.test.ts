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

// upstream eventhandlers.go updatePodInSchedulingQueue: "Bypass update event that carries identical
// objects; otherwise, a duplicated Pod may go through scheduling and cause unexpected behavior" and
// `if isAssumed { return }`. A pod whose binding is in flight, or whose binding finished before the
// informer saw it bound (a watch drop, a relist), is assumed: its unscheduled updates must not
// queue it for a second binding.
describe("unscheduled-pod updates while the pod is assumed", () => {
  it("do not queue the pod again, during its binding or after it, and it is bound once", async () => {
    const binds: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const blockingBinder = definePlugin<unknown>({
      name: "BlockingBinder",
      factory: () => ({
        name: () => "BlockingBinder",
        bind: async (_state: unknown, pod: { metadata?: { name?: string } }, node: string) => {
          await gate;
          binds.push(`${pod.metadata?.name}@${node}`);
          return null;
        },
      }),
    });
    const ts = await newTestScheduler({
      plugins: [blockingBinder],
      profiles: [profile({ bind: ["BlockingBinder"] })],
      nodes: [makeNode().name("node").obj()],
    });
    const pod = makePod().name("p").namespace("default").uid("p").obj();
    ts.source.addPod(pod);
    await ts.sched.scheduleOne();
    expect(ts.sched.cache.isAssumedPod(pod)).toBe(true);
    const relabelled = (rv: string) => ({
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: rv, labels: { rv } },
    });
    ts.source.updatePod(pod, relabelled("2"));
    expect(ts.sched.queue.pendingPods().pods).toEqual([]);
    release();
    await ts.sched.waitForBindings();
    expect(binds).toEqual(["p@node"]);
    expect(ts.sched.cache.isAssumedPod(pod)).toBe(true);
    ts.source.updatePod(relabelled("2"), relabelled("3"));
    expect(ts.sched.queue.pendingPods().pods).toEqual([]);
    expect(await ts.sched.scheduleOne()).toBe(false);
    expect(binds).toEqual(["p@node"]);
  });
});
