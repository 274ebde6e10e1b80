import type { Node, Pod } from "@kubesched/api";
import { defineCustomResource, ManualClock } from "@kubesched/framework";
import type { ClusterEventHandlers } from "@kubesched/scheduler";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { ApiError, InMemoryCluster } from "./in-memory-cluster";

const epoch = Date.UTC(2026, 0, 1);

function recorder(cluster: InMemoryCluster, onEvent?: (e: string) => void) {
  const log: string[] = [];
  const push = (e: string) => {
    log.push(e);
    onEvent?.(e);
  };
  const h: ClusterEventHandlers = {
    onNodeAdd: (n: Node) => push(`node+ ${n.metadata?.name}`),
    onNodeUpdate: (_o, n) => push(`node~ ${n.metadata?.name}`),
    onNodeDelete: (n) => push(`node- ${n.metadata?.name}`),
    onPodAdd: (p: Pod) => push(`pod+ ${p.metadata?.name}`),
    onPodUpdate: (_o, p) => push(`pod~ ${p.metadata?.name} ${p.spec?.nodeName ?? ""}`),
    onPodDelete: (p) => push(`pod- ${p.metadata?.name}`),
    onOtherEvent: (kind, action, _o, n) =>
      push(`${kind} ${action} ${(n as { metadata?: { name?: string } } | undefined)?.metadata?.name ?? ""}`),
    onCustomResourceEvent: (r, action, o, n) =>
      push(`${r.kind} ${action} ${((n ?? o) as { metadata?: { name?: string } }).metadata?.name ?? ""}`),
  };
  cluster.subscribe(h);
  return log;
}

function newCluster() {
  return new InMemoryCluster(new ManualClock(epoch));
}

describe("InMemoryCluster", () => {
  it("replays nodes, then pods, on subscribe", () => {
    const c = newCluster();
    c.apply("Pod", makePod().name("p1").namespace("default").obj());
    c.apply("Node", makeNode().name("n1").obj());
    c.apply("Namespace", { metadata: { name: "ns" } });
    expect(recorder(c)).toEqual(["node+ n1", "pod+ p1"]);
  });

  it("apply emits add then update; delete emits delete; resourceVersion increases", () => {
    const c = newCluster();
    const log = recorder(c);
    c.apply("Node", makeNode().name("n1").obj());
    c.apply("Node", makeNode().name("n1").label("a", "b").obj());
    c.apply("PriorityClass", { metadata: { name: "high" } });
    expect(c.delete("Node", makeNode().name("n1").obj())).toBe(true);
    expect(c.delete("Node", makeNode().name("n1").obj())).toBe(false);
    expect(log).toEqual(["node+ n1", "node~ n1", "PriorityClass Add high", "node- n1"]);
    const rv1 = Number(c.priorityClasses.get("high")?.metadata?.resourceVersion);
    c.apply("PriorityClass", { metadata: { name: "high" } });
    expect(Number(c.priorityClasses.get("high")?.metadata?.resourceVersion)).toBeGreaterThan(rv1);
  });

  it("bindPod sets nodeName, PodScheduled=True and Running", async () => {
    const c = newCluster();
    c.apply("Pod", makePod().name("p").namespace("default").uid("u").obj());
    const log = recorder(c);
    await c.client().bindPod(makePod().name("p").namespace("default").uid("u").obj(), "n1");
    const p = c.pods.get("default", "p");
    expect(p?.spec?.nodeName).toBe("n1");
    expect(p?.status?.phase).toBe("Running");
    expect(p?.status?.startTime).toBe("2026-01-01T00:00:00Z");
    expect(p?.status?.conditions).toEqual([
      { type: "PodScheduled", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" },
    ]);
    expect(log).toEqual(["pod+ p", "pod~ p n1"]);
  });

  it("binding twice is a Conflict; a missing pod is NotFound; another UID is a Conflict", async () => {
    const c = newCluster();
    c.apply("Pod", makePod().name("p").namespace("default").uid("u").obj());
    const pod = makePod().name("p").namespace("default").uid("u").obj();
    await c.client().bindPod(pod, "n1");
    await expect(c.client().bindPod(pod, "n2")).rejects.toMatchObject({
      name: "ApiError",
      reason: "Conflict",
      message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "n1"',
    });
    await expect(
      c.client().bindPod(makePod().name("q").namespace("default").obj(), "n1"),
    ).rejects.toBeInstanceOf(ApiError);
    await expect(
      c.client().bindPod(makePod().name("q").namespace("default").obj(), "n1"),
    ).rejects.toMatchObject({
      reason: "NotFound",
      message: 'pods "q" not found',
    });
    c.apply("Pod", makePod().name("r").namespace("default").uid("r1").obj());
    await expect(
      c.client().bindPod(makePod().name("r").namespace("default").uid("other").obj(), "n1"),
    ).rejects.toMatchObject({ reason: "Conflict" });
  });

  it("status patches merge conditions by type and set/clear nominatedNodeName", async () => {
    const clock = new ManualClock(epoch);
    const c = new InMemoryCluster(clock);
    c.apply(
      "Pod",
      makePod()
        .name("p")
        .namespace("default")
        .conditions([{ type: "Ready", status: "False", lastTransitionTime: "t0" }])
        .obj(),
    );
    const pod = c.pods.get("default", "p")!;
    await c.client().patchPodStatus(pod, {
      conditions: [
        {
          type: "PodScheduled",
          status: "False",
          reason: "Unschedulable",
          message: "m1",
          lastTransitionTime: "t1",
        },
      ],
      nominatedNodeName: "n1",
    });
    let cur = c.pods.get("default", "p")!;
    expect(cur.status?.conditions?.map((x) => x.type)).toEqual(["Ready", "PodScheduled"]);
    expect(cur.status?.nominatedNodeName).toBe("n1");
    // Same status: the transition time is kept, the message replaced.
    await c.client().patchPodStatus(cur, {
      conditions: [
        {
          type: "PodScheduled",
          status: "False",
          reason: "Unschedulable",
          message: "m2",
          lastTransitionTime: "t2",
        },
      ],
    });
    cur = c.pods.get("default", "p")!;
    expect(cur.status?.conditions?.[1]).toEqual({
      type: "PodScheduled",
      status: "False",
      reason: "Unschedulable",
      message: "m2",
      lastTransitionTime: "t1",
    });
    expect(cur.status?.nominatedNodeName).toBe("n1");
    // A flip takes the new transition time.
    await c.client().patchPodStatus(cur, {
      conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: "t3" }],
      nominatedNodeName: null,
    });
    cur = c.pods.get("default", "p")!;
    expect(cur.status?.conditions?.[1]?.lastTransitionTime).toBe("t3");
    expect(cur.status?.nominatedNodeName).toBeUndefined();
    await expect(
      c.client().patchPodStatus(makePod().name("zz").namespace("default").obj(), { nominatedNodeName: "x" }),
    ).rejects.toMatchObject({ reason: "NotFound" });
  });

  it("deletePod removes the pod and emits the delete", async () => {
    const c = newCluster();
    c.apply("Pod", makePod().name("p").namespace("default").obj());
    const log = recorder(c);
    await c.client().deletePod(makePod().name("p").namespace("default").obj());
    expect(c.pods.get("default", "p")).toBeUndefined();
    expect(log).toEqual(["pod+ p", "pod- p"]);
  });

  it("requestDeletion: without finalizers the object goes at once", () => {
    const c = newCluster();
    c.apply("Pod", makePod().name("p").namespace("default").node("n1").obj());
    const log = recorder(c);
    expect(c.requestDeletion("Pod", makePod().name("p").namespace("default").obj())).toBe("Deleted");
    expect(c.pods.get("default", "p")).toBeUndefined();
    expect(c.requestDeletion("Pod", makePod().name("p").namespace("default").obj())).toBe("NotFound");
    expect(log).toEqual(["pod+ p", "pod- p"]);
  });

  it("requestDeletion: with finalizers the pod stays, marked, until they are removed", () => {
    const c = newCluster();
    const withFinalizer = (name: string) => {
      const p = makePod().name(name).namespace("default").obj();
      p.metadata!.finalizers = ["test.k8s.io/finalizer", "example.com/other"];
      return p;
    };
    c.apply("Pod", withFinalizer("pending"));
    const bound: Pod = { ...withFinalizer("bound"), spec: { containers: [], nodeName: "n1" } };
    c.apply("Pod", bound);
    const log = recorder(c);
    expect(c.requestDeletion("Pod", withFinalizer("pending"))).toBe("Terminating");
    expect(c.requestDeletion("Pod", withFinalizer("bound"))).toBe("Terminating");
    // An unscheduled pod gets no grace period; a bound one its terminationGracePeriodSeconds (30).
    expect(c.pods.get("default", "pending")?.metadata).toMatchObject({
      deletionTimestamp: "2026-01-01T00:00:00Z",
      deletionGracePeriodSeconds: 0,
    });
    expect(c.pods.get("default", "bound")?.metadata).toMatchObject({
      deletionTimestamp: "2026-01-01T00:00:30Z",
      deletionGracePeriodSeconds: 30,
    });
    // Asking again changes nothing.
    expect(c.requestDeletion("Pod", withFinalizer("bound"))).toBe("Terminating");
    expect(c.removeFinalizers("Pod", withFinalizer("bound"), ["example.com/other"])).toBe(true);
    expect(c.pods.get("default", "bound")?.metadata?.finalizers).toEqual(["test.k8s.io/finalizer"]);
    expect(c.removeFinalizers("Pod", withFinalizer("bound"))).toBe(true);
    expect(c.pods.get("default", "bound")).toBeUndefined();
    expect(c.removeFinalizers("Pod", withFinalizer("bound"))).toBe(false);
    expect(log).toEqual([
      "pod+ pending",
      "pod+ bound",
      "pod~ pending ",
      "pod~ bound n1",
      "pod~ bound n1",
      "pod- bound",
    ]);
  });

  it("removeFinalizers on an object not being deleted keeps it", () => {
    const c = newCluster();
    const p = makePod().name("p").namespace("default").obj();
    p.metadata!.finalizers = ["a"];
    c.apply("Pod", p);
    expect(c.removeFinalizers("Pod", p)).toBe(true);
    expect(c.pods.get("default", "p")?.metadata?.finalizers).toBeUndefined();
  });

  it("binding a pod being deleted fails as the API server's does", async () => {
    const c = newCluster();
    const p = makePod().name("p").namespace("default").obj();
    p.metadata!.finalizers = ["a"];
    c.apply("Pod", p);
    c.requestDeletion("Pod", p);
    await expect(c.client().bindPod(p, "n1")).rejects.toMatchObject({
      name: "ApiError",
      reason: "InternalError",
      message: "pod p is being deleted, cannot be assigned to a host",
    });
    expect(c.pods.get("default", "p")?.spec?.nodeName).toBeUndefined();
  });

  it("events are delivered in order, including writes made by handlers (re-entrant)", () => {
    const c = newCluster();
    const log: string[] = [];
    const second: string[] = [];
    const h = (tag: string[], react: boolean): ClusterEventHandlers => ({
      onNodeAdd: (n) => {
        tag.push(`node+ ${n.metadata?.name}`);
        // A handler that writes: its event must come after this one reached every handler.
        if (react && n.metadata?.name === "n1") c.apply("Node", makeNode().name("n2").obj());
      },
      onNodeUpdate: () => {},
      onNodeDelete: () => {},
      onPodAdd: () => {},
      onPodUpdate: () => {},
      onPodDelete: () => {},
      onOtherEvent: () => {},
    });
    c.subscribe(h(log, true));
    c.subscribe(h(second, false));
    c.apply("Node", makeNode().name("n1").obj());
    c.apply("Node", makeNode().name("n3").obj());
    expect(log).toEqual(["node+ n1", "node+ n2", "node+ n3"]);
    expect(second).toEqual(["node+ n1", "node+ n2", "node+ n3"]);
  });

  it("listers serve namespaced and cluster-scoped objects", () => {
    const c = newCluster();
    c.apply("Pod", makePod().name("a").namespace("x").obj());
    c.apply("Pod", makePod().name("b").namespace("y").obj());
    c.apply("Node", makeNode().name("n").obj());
    const l = c.listers();
    expect(l.pods.list().map((p) => p.metadata?.name)).toEqual(["a", "b"]);
    expect(l.pods.list("y").map((p) => p.metadata?.name)).toEqual(["b"]);
    expect(l.pods.get("x", "a")?.metadata?.name).toBe("a");
    expect(l.pods.get("y", "a")).toBeUndefined();
    expect(l.nodes.get("n")?.metadata?.name).toBe("n");
  });

  it("the event recorder stamps the simulated time", () => {
    const clock = new ManualClock(epoch);
    const c = new InMemoryCluster(clock);
    clock.advance(1500);
    const p = makePod().name("p").namespace("default").obj();
    c.eventRecorder().eventf(
      p,
      null,
      "Normal",
      "Scheduled",
      "Binding",
      "Successfully assigned default/p to n",
    );
    expect(c.events).toEqual([
      {
        type: "Normal",
        reason: "Scheduled",
        action: "Binding",
        note: "Successfully assigned default/p to n",
        regarding: "default/p",
        related: null,
        relatedUID: null,
        time: epoch + 1500,
      },
    ]);
  });
});

describe("InMemoryCluster custom resources", () => {
  const widgets = defineCustomResource({
    group: "example.com",
    version: "v1",
    resource: "widgets",
    kind: "Widget",
    namespaced: true,
  });

  it("holds objects of declared resources, serves them through listers().custom and emits events", () => {
    const c = new InMemoryCluster(new ManualClock(epoch), { customResources: [widgets] });
    const log = recorder(c);
    c.applyCustom(widgets, { metadata: { name: "w1", namespace: "ns" } });
    c.applyCustom(widgets, { metadata: { name: "w1", namespace: "ns", labels: { a: "b" } } });
    expect(c.listers().custom(widgets).get("ns", "w1")?.metadata?.labels).toEqual({ a: "b" });
    expect(c.deleteCustom(widgets, { metadata: { name: "w1", namespace: "ns" } })).toBe(true);
    expect(c.deleteCustom(widgets, { metadata: { name: "w1", namespace: "ns" } })).toBe(false);
    expect(log).toEqual(["Widget Add w1", "Widget Update w1", "Widget Delete w1"]);
    expect(c.listers().custom(widgets).list()).toEqual([]);
  });

  it("refuses resources no plugin declared", () => {
    const c = newCluster();
    expect(() => c.listers().custom(widgets)).toThrow(
      "custom resource example.com/v1/widgets (Widget) is not declared by any plugin of the registry",
    );
    expect(() => c.applyCustom(widgets, { metadata: { name: "w1" } })).toThrow("is not declared");
  });
});
