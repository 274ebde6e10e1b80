import type { Node, Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import type { ClusterEventHandlers } from "@kubesched/scheduler";
import { Scheduler } from "@kubesched/scheduler";
import { makeNode, makePod, makeService, recordingLogger } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeClusterSource } from "./kube-cluster-source";
import { FakeApiServer, waitFor } from "./testing";

let server: FakeApiServer;
let source: KubeClusterSource;
const errors: string[] = [];

function newSource(): KubeClusterSource {
  return new KubeClusterSource({
    kubeConfig: server.kubeConfig(),
    host: "test-host",
    backoff: { durationMs: 20, capMs: 80, steps: 3, factor: 2, jitter: 0 },
    onError: (e) => errors.push(e.message),
  });
}

beforeEach(async () => {
  errors.length = 0;
  server = await FakeApiServer.start();
});

afterEach(async () => {
  await source?.stop();
  await server.close();
});

type Recorded = [string, ...string[]];

/** Records handler calls as [callback, name(s)...], with the node/phase of pods. */
function recorder(): { calls: Recorded[]; handlers: ClusterEventHandlers } {
  const calls: Recorded[] = [];
  const pod = (p: Pod) => `${p.metadata?.name}@${p.spec?.nodeName ?? ""}:${p.status?.phase ?? ""}`;
  return {
    calls,
    handlers: {
      onNodeAdd: (n: Node) => calls.push(["onNodeAdd", n.metadata?.name ?? ""]),
      onNodeUpdate: (a: Node, b: Node) =>
        calls.push(["onNodeUpdate", a.metadata?.labels?.v ?? "", b.metadata?.labels?.v ?? ""]),
      onNodeDelete: (n: Node) => calls.push(["onNodeDelete", n.metadata?.name ?? ""]),
      onPodAdd: (p: Pod) => calls.push(["onPodAdd", pod(p)]),
      onPodUpdate: (a: Pod, b: Pod) => calls.push(["onPodUpdate", pod(a), pod(b)]),
      onPodDelete: (p: Pod) => calls.push(["onPodDelete", pod(p)]),
      onOtherEvent: (kind, action, _o, n) =>
        calls.push(["onOtherEvent", kind, action, (n as Pod | undefined)?.metadata?.name ?? ""]),
    },
  };
}

async function startScheduler(): Promise<{ sched: Scheduler; stop: () => Promise<void> }> {
  source = newSource();
  source.start();
  await source.waitForCacheSync();
  const sched = await Scheduler.create({
    config: defaultConfig({ registry: inTreeRegistry }),
    registry: inTreeRegistry,
    source,
    logger: recordingLogger(),
    metrics: false,
  });
  const ac = new AbortController();
  const loop = sched.run(ac.signal);
  return {
    sched,
    stop: async () => {
      ac.abort();
      await loop;
      await sched.waitForBindings();
      await source.flushEvents();
    },
  };
}

describe("KubeClusterSource with the scheduler", () => {
  it("lists, then binds a pending pod through the pods/binding subresource", async () => {
    server.put("Node", makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi" }).obj());
    const pod = server.put("Pod", makePod().name("p1").namespace("default").req({ cpu: "1" }).obj());
    const { stop } = await startScheduler();
    const bind = await waitFor(
      () => server.requestsTo("POST", "/api/v1/namespaces/default/pods/p1/binding")[0],
      3000,
      "the binding",
    );
    expect(bind.body).toEqual({
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name: "p1", namespace: "default", uid: pod.metadata.uid },
      target: { apiVersion: "v1", kind: "Node", name: "n1" },
    });
    expect(bind.authorization).toBe("Bearer fake-token");
    // The watch delivers the bound pod: the informer cache and the scheduler cache agree.
    await waitFor(() => source.listers().pods.get("default", "p1")?.spec?.nodeName === "n1");
    // The Scheduled event, posted in the background.
    const scheduled = await waitFor(() =>
      server.list("Event").find((e) => e.reason === "Scheduled" && e.regarding?.name === "p1"),
    );
    expect(scheduled).toMatchObject({
      type: "Normal",
      action: "Binding",
      note: "Successfully assigned default/p1 to n1",
      reportingController: "default-scheduler",
      reportingInstance: "default-scheduler-test-host",
      regarding: { apiVersion: "v1", kind: "Pod", namespace: "default", name: "p1", uid: pod.metadata.uid },
    });
    expect(scheduled.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await stop();
  });

  it("async preemption: deletes the victims through the API, then binds the preemptor once", async () => {
    server.put("Node", makeNode().name("n1").capacity({ cpu: "3", memory: "8Gi", pods: "10" }).obj());
    for (const v of ["v1", "v2", "v3"]) {
      server.put(
        "Pod",
        makePod().name(v).namespace("default").node("n1").priority(0).req({ cpu: "1" }).obj(),
      );
    }
    server.put("Pod", makePod().name("high").namespace("default").priority(100).req({ cpu: "3" }).obj());
    const { stop } = await startScheduler();
    await waitFor(
      () => server.requestsTo("POST", "/api/v1/namespaces/default/pods/high/binding").length > 0,
      20_000,
      "the preemptor's binding",
    );
    // Each victim was deleted (200). A later DELETE may find it gone (404, tolerated): the
    // emulator deletes at once, and a watch event that arrives after the preemption finished
    // can send the preemptor through another cycle before the informer saw every deletion, as
    // upstream's with zero-grace victims.
    const deleted = server.requests
      .filter((r) => r.method === "DELETE" && r.status === 200)
      .map((r) => r.path);
    expect(deleted.sort()).toEqual(["v1", "v2", "v3"].map((v) => `/api/v1/namespaces/default/pods/${v}`));
    expect(
      server.requests.filter((r) => r.method === "DELETE" && r.status !== 200 && r.status !== 404),
    ).toEqual([]);
    // The preemptor waited for its victims: bound after the last successful DELETE.
    const lastDelete = Math.max(
      ...server.requests.flatMap((r, i) => (r.method === "DELETE" && r.status === 200 ? [i] : [])),
    );
    const binding = server.requests.findIndex((r) => r.method === "POST" && r.path.endsWith("/high/binding"));
    expect(binding).toBeGreaterThan(lastDelete);
    await waitFor(() => source.listers().pods.get("default", "high")?.spec?.nodeName === "n1");
    await stop();
    expect(server.requestsTo("POST", /\/binding$/).map((r) => r.path)).toEqual([
      "/api/v1/namespaces/default/pods/high/binding",
    ]);
    expect(server.list("Pod").map((p) => p.metadata?.name)).toEqual(["high"]);
  });

  it("patches PodScheduled=False on the status subresource and posts FailedScheduling", async () => {
    server.put("Node", makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi" }).obj());
    server.put("Pod", makePod().name("big").namespace("default").req({ cpu: "100" }).obj());
    const { stop } = await startScheduler();
    const patch = await waitFor(
      () => server.requestsTo("PATCH", "/api/v1/namespaces/default/pods/big/status")[0],
      3000,
      "the status patch",
    );
    expect(patch.contentType).toBe("application/strategic-merge-patch+json");
    const message = (patch.body as { status: { conditions: { message: string }[] } }).status.conditions[0]
      ?.message;
    expect(message).toMatch(/^0\/1 nodes are available: 1 Insufficient cpu\. .*preemption: /);
    expect(patch.body).toEqual({
      status: {
        conditions: [
          {
            type: "PodScheduled",
            status: "False",
            reason: "Unschedulable",
            message,
            lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          },
        ],
      },
    });
    const event = await waitFor(() => server.list("Event").find((e) => e.reason === "FailedScheduling"));
    expect(event).toMatchObject({
      apiVersion: "events.k8s.io/v1",
      type: "Warning",
      action: "Scheduling",
      note: message,
      reportingController: "default-scheduler",
      regarding: { kind: "Pod", name: "big", namespace: "default" },
    });
    expect(event.metadata.name).toMatch(/^big\.[0-9a-f]+$/);
    // The server applied the patch and the informer delivered it.
    await waitFor(
      () =>
        source
          .listers()
          .pods.get("default", "big")
          ?.status?.conditions?.find((c) => c.type === "PodScheduled")?.status === "False",
    );
    await stop();
  });
});

describe("KubeClusterSource informers", () => {
  it("keeps the wire shape: apiVersion/kind on list items, string timestamps, no managedFields", async () => {
    server.put("Node", {
      metadata: {
        name: "n1",
        managedFields: [{ manager: "kubectl" }],
        creationTimestamp: "2024-01-02T03:04:05Z",
      },
      status: {},
    });
    source = newSource();
    source.start();
    await source.waitForCacheSync();
    const n = source.listers().nodes.get("n1");
    expect(n).toMatchObject({
      apiVersion: "v1",
      kind: "Node",
      metadata: { creationTimestamp: "2024-01-02T03:04:05Z" },
    });
    expect(n?.metadata?.managedFields).toBeUndefined();
    const list = server.requestsTo("GET", "/api/v1/pods")[0];
    expect(list?.query.fieldSelector).toBe("status.phase!=Succeeded,status.phase!=Failed");
    expect(list?.authorization).toBe("Bearer fake-token");
  });

  it("trims what the scheduler never reads as objects arrive (last-applied-configuration, pod status)", async () => {
    const lastApplied = "kubectl.kubernetes.io/last-applied-configuration";
    server.put("Node", makeNode().name("n0").obj());
    const base = makePod().name("p").namespace("ns").node("n0").phase("Running").obj();
    server.put("Pod", {
      ...base,
      metadata: {
        ...base.metadata,
        annotations: { [lastApplied]: "{}", keep: "me" },
        managedFields: [{ manager: "kubectl" }],
      },
      status: {
        phase: "Running",
        podIP: "10.0.0.9",
        hostIP: "10.0.0.1",
        containerStatuses: [{ name: "c", image: "x", imageID: "sha", ready: true, state: { running: {} } }],
      },
    });
    source = newSource();
    source.start();
    await source.waitForCacheSync();
    const p = source.listers().pods.get("ns", "p");
    expect(p?.metadata?.annotations).toEqual({ keep: "me" });
    expect(p?.metadata?.managedFields).toBeUndefined();
    expect(p?.status).toEqual({ phase: "Running", containerStatuses: [{ name: "c" }] });
  });

  it("delivers watch events (ADDED, MODIFIED, DELETED) to the handlers with old and new objects", async () => {
    server.put("Node", makeNode().name("n0").obj());
    source = newSource();
    source.start();
    await source.waitForCacheSync();
    const { calls, handlers } = recorder();
    source.subscribe(handlers);
    expect(calls).toEqual([["onNodeAdd", "n0"]]);
    await waitFor(() => server.openWatches("Node") === 1 && server.openWatches("Pod") === 1);
    server.put("Node", makeNode().name("n1").label("v", "1").obj());
    server.put("Node", makeNode().name("n1").label("v", "2").obj());
    server.remove("Node", undefined, "n1");
    server.put("Pod", makePod().name("p").namespace("ns").obj());
    server.put("Pod", makePod().name("p").namespace("ns").node("n0").phase("Running").obj());
    // Leaving the field selector (terminal phase) arrives as DELETED with the event's object, the
    // final state (client-go hands handlers the event's object).
    server.put("Pod", makePod().name("p").namespace("ns").node("n0").phase("Succeeded").obj());
    server.put("Service", makeService().name("svc").namespace("ns").obj());
    await waitFor(() => calls.length === 8, 3000, "8 handler calls");
    // Each informer delivers its own watch in order; across kinds (separate watch streams, as
    // client-go's informers) there is no order to assert.
    const of = (prefix: string) => calls.filter((c) => c[0].startsWith(prefix));
    expect(of("onNode")).toEqual([
      ["onNodeAdd", "n0"],
      ["onNodeAdd", "n1"],
      ["onNodeUpdate", "1", "2"],
      ["onNodeDelete", "n1"],
    ]);
    expect(of("onPod")).toEqual([
      ["onPodAdd", "p@:"],
      ["onPodUpdate", "p@:", "p@n0:Running"],
      ["onPodDelete", "p@n0:Succeeded"],
    ]);
    expect(of("onOther")).toEqual([["onOtherEvent", "Service", "Add", "svc"]]);
    expect(source.listers().pods.list()).toEqual([]);
    expect(source.listers().services.get("ns", "svc")?.metadata?.name).toBe("svc");
  });

  it("relists on 410 Gone and reconciles what the watch missed", async () => {
    server.put("Pod", makePod().name("stays").namespace("ns").obj());
    server.put("Pod", makePod().name("goes").namespace("ns").obj());
    source = newSource();
    source.start();
    await source.waitForCacheSync();
    const { calls, handlers } = recorder();
    source.subscribe(handlers);
    await waitFor(() => server.openWatches("Pod") === 1);
    expect(source.informers.Pod.lists).toBe(1);
    // Changes the watch never sees, then the history is compacted: ERROR 410 on the watch.
    server.remove("Pod", "ns", "goes", { silent: true });
    server.put("Pod", makePod().name("new").namespace("ns").obj(), { silent: true });
    server.put("Pod", makePod().name("stays").namespace("ns").node("n1").obj(), { silent: true });
    server.expire("Pod");
    await waitFor(() => source.informers.Pod.lists === 2, 3000, "the relist");
    // The relist's deletions first (as DeletedFinalStateUnknown, the last state seen), then
    // the list in key order.
    expect(calls.slice(2)).toEqual([
      ["onPodDelete", "goes@:"],
      ["onPodAdd", "new@:"],
      ["onPodUpdate", "stays@:", "stays@n1:"],
    ]);
    // A watch resuming from a compacted resourceVersion also relists.
    await waitFor(() => server.openWatches("Pod") === 1);
    server.put("Pod", makePod().name("later").namespace("ns").obj(), { silent: true });
    server.expire("Pod");
    await waitFor(() => source.informers.Pod.lists === 3, 3000, "the second relist");
    expect(calls.at(-1)).toEqual(["onPodAdd", "later@:"]);
    expect(errors).toEqual([]);
  });

  it("resumes a watch the server ended from the last resourceVersion, without relisting", async () => {
    source = newSource();
    source.start();
    await source.waitForCacheSync();
    const { calls, handlers } = recorder();
    source.subscribe(handlers);
    await waitFor(() => server.openWatches("Node") === 1);
    // A watch that delivered an event and then ended is re-opened at once, from that event.
    server.put("Node", makeNode().name("n0").obj());
    await waitFor(() => calls.length === 1, 3000, "the first add");
    server.closeWatches("Node");
    server.put("Node", makeNode().name("n1").obj());
    await waitFor(() => calls.length === 2, 3000, "the add after the resumed watch");
    const resumed = server.requestsTo("GET", "/api/v1/nodes").filter((r) => r.query.watch === "true")[1];
    expect(resumed?.query.resourceVersion).toBe(source.listers().nodes.get("n0")?.metadata?.resourceVersion);
    const watches = server.requestsTo("GET", "/api/v1/nodes").filter((r) => r.query.watch === "true");
    expect(watches.length).toBeGreaterThanOrEqual(2);
    expect(source.informers.Node.lists).toBe(1);
  });

  it("retries with backoff after errors and still syncs", async () => {
    server.fail({ method: "GET", path: "/api/v1/nodes", status: 500, times: 2 });
    server.put("Node", makeNode().name("n1").obj());
    source = newSource();
    source.start();
    await source.waitForCacheSync();
    expect(source.listers().nodes.get("n1")).toBeDefined();
    expect(errors.filter((e) => e.startsWith("Node informer:"))).toHaveLength(2);
    expect(source.informers.Node.lists).toBe(1);
  });

  it("waitForCacheSync returns false when aborted before the caches sync", async () => {
    server.fail({ method: "GET", path: "/api/v1/nodes", status: 503, times: 1000 });
    source = newSource();
    source.start();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect(await source.waitForCacheSync(ac.signal)).toBe(false);
    expect(source.unsyncedKinds()).toContain("Node");
  });
});

describe("KubeClusterSource client", () => {
  it("deletes pods; a pod that is already gone is not an error", async () => {
    source = newSource();
    const pod = server.put("Pod", makePod().name("victim").namespace("ns").obj()) as Pod;
    await source.client().deletePod(pod);
    expect(server.get("Pod", "ns", "victim")).toBeUndefined();
    await expect(source.client().deletePod(pod)).resolves.toBeUndefined();
  });

  it("surfaces binding conflicts as errors with the API server's message", async () => {
    source = newSource();
    const pod = server.put("Pod", makePod().name("p").namespace("ns").node("n2").obj()) as Pod;
    await expect(source.client().bindPod(pod, "n1")).rejects.toThrow(
      'pod p is already assigned to node "n2"',
    );
  });

  it("clears nominatedNodeName with null and keeps lastTransitionTime when the status does not flip", async () => {
    source = newSource();
    const pod = server.put(
      "Pod",
      makePod()
        .name("p")
        .namespace("ns")
        .nominatedNodeName("n1")
        .conditions([
          {
            type: "PodScheduled",
            status: "False",
            reason: "Unschedulable",
            lastTransitionTime: "2024-01-01T00:00:00Z",
          },
        ])
        .obj(),
    ) as Pod;
    await source.client().patchPodStatus(pod, {
      conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable", message: "again" }],
      nominatedNodeName: null,
    });
    const req = server.requestsTo("PATCH", "/api/v1/namespaces/ns/pods/p/status")[0];
    expect(req?.body).toEqual({
      status: {
        conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable", message: "again" }],
        nominatedNodeName: null,
      },
    });
    const stored = server.get("Pod", "ns", "p");
    expect(stored?.status.nominatedNodeName).toBeUndefined();
    expect(stored?.status.conditions).toEqual([
      {
        type: "PodScheduled",
        status: "False",
        reason: "Unschedulable",
        message: "again",
        lastTransitionTime: "2024-01-01T00:00:00Z",
      },
    ]);
  });

  it("writes nodeAllocatableResourceClaimStatuses (DynamicResources' PreBind) and clears them with the pod's uid as precondition", async () => {
    source = newSource();
    const pod = server.put("Pod", makePod().name("p").namespace("ns").uid("p-uid").obj()) as Pod;
    const statuses = [
      { resourceClaimName: "c", containers: ["main"], mapping: [{ name: "cpu", quantity: "16" }] },
    ];
    await source.client().patchPodStatus(pod, { nodeAllocatableResourceClaimStatuses: statuses });
    await source.client().patchPodStatus(pod, { nodeAllocatableResourceClaimStatuses: [] });
    const reqs = server.requestsTo("PATCH", "/api/v1/namespaces/ns/pods/p/status");
    expect(reqs.map((r) => r.body)).toEqual([
      { status: { nodeAllocatableResourceClaimStatuses: statuses } },
      { metadata: { uid: "p-uid" }, status: { nodeAllocatableResourceClaimStatuses: [] } },
    ]);
  });
});
