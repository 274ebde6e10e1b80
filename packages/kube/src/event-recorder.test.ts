import { makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeEventRecorder, maxNoteLength, truncateNote } from "./event-recorder";
import { RawClient } from "./raw-client";
import { FakeApiServer, waitFor } from "./testing";

let server: FakeApiServer;

beforeEach(async () => {
  server = await FakeApiServer.start();
});

afterEach(async () => {
  await server.close();
});

describe("KubeEventRecorder", () => {
  it("posts events.k8s.io/v1 Events; Preempted reports the preemptor's profile and relates it", async () => {
    const errors: string[] = [];
    const rec = new KubeEventRecorder({
      client: new RawClient(server.kubeConfig()),
      host: "h",
      now: () => Date.UTC(2024, 0, 2, 3, 4, 5, 6),
      onError: (e) => errors.push(e.message),
    });
    const victim = makePod().name("victim").namespace("ns").schedulerName("other-scheduler").obj();
    const preemptor = makePod().name("big").namespace("ns").uid("u-big").schedulerName("my-scheduler").obj();
    rec.eventf(victim, preemptor, "Normal", "Preempted", "Preempting", "Preempted by pod u-big on node n1");
    await rec.flush();
    expect(errors).toEqual([]);
    const [req] = server.requestsTo("POST", "/apis/events.k8s.io/v1/namespaces/ns/events");
    expect(req?.body).toEqual({
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: expect.stringMatching(/^victim\.[0-9a-f]+$/), namespace: "ns" },
      eventTime: "2024-01-02T03:04:05.006000Z",
      reportingController: "my-scheduler",
      reportingInstance: "my-scheduler-h",
      action: "Preempting",
      reason: "Preempted",
      note: "Preempted by pod u-big on node n1",
      type: "Normal",
      regarding: { apiVersion: "v1", kind: "Pod", namespace: "ns", name: "victim", uid: "ns/victim" },
      related: { apiVersion: "v1", kind: "Pod", namespace: "ns", name: "big", uid: "u-big" },
    });
  });

  it("is best effort: failures are reported, never thrown", async () => {
    server.fail({ method: "POST", path: "/apis/events.k8s.io/", status: 500 });
    const errors: string[] = [];
    const rec = new KubeEventRecorder({
      client: new RawClient(server.kubeConfig()),
      host: "h",
      onError: (e) => errors.push(e.message),
    });
    const pod = makePod().name("p").namespace("ns").obj();
    expect(() => rec.eventf(pod, null, "Warning", "FailedScheduling", "Scheduling", "x")).not.toThrow();
    await rec.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("injected");
  });

  it("retries a write that got no answer, and gives up on hung writes at shutdown", async () => {
    server.fail({ method: "POST", path: "/apis/events.k8s.io/", hang: true, times: 2 });
    const errors: string[] = [];
    const rec = new KubeEventRecorder({
      client: new RawClient(server.kubeConfig(), { requestTimeoutMs: 100 }),
      host: "h",
      retrySleepMs: 10,
      onError: (e) => errors.push(e.message),
    });
    rec.eventf(makePod().name("p").namespace("ns").obj(), null, "Normal", "Scheduled", "Binding", "x");
    await rec.flush();
    expect(server.requestsTo("POST", "/apis/events.k8s.io/")).toHaveLength(3);
    expect(server.list("Event")).toHaveLength(1);
    expect(
      errors.filter((e) => e.startsWith("Unable to write event (may retry after sleeping)")),
    ).toHaveLength(2);

    server.fail({ method: "POST", path: "/apis/events.k8s.io/", hang: true, times: 1 });
    rec.eventf(makePod().name("q").namespace("ns").obj(), null, "Normal", "Scheduled", "Binding", "y");
    await waitFor(() => server.hungRequests().length === 1);
    await rec.shutdown();
    expect(server.list("Event")).toHaveLength(1);
  });

  it("truncates notes to the API's 1 kB limit", () => {
    expect(truncateNote("a".repeat(2000))).toHaveLength(maxNoteLength);
    expect(truncateNote("a".repeat(2000)).endsWith("...")).toBe(true);
    expect(truncateNote("short")).toBe("short");
  });
});

// upstream tools/events eventseries_test.go, against the emulator.
describe("TestEventSeriesf", () => {
  it("patches the series of an isomorphic event; a different action is a new event", async () => {
    const rec = new KubeEventRecorder({ client: new RawClient(server.kubeConfig()), host: "h" });
    const pod = makePod().name("foo").namespace("baz").uid("bar").obj();
    rec.eventf(pod, null, "Normal", "test", "started", "some verbose message: 1");
    await rec.flush();
    rec.eventf(pod, null, "Normal", "test", "started", "some verbose message: 1");
    await rec.flush();
    const [created] = server.requestsTo("POST", "/apis/events.k8s.io/v1/namespaces/baz/events");
    const name = (created?.body as { metadata: { name: string } } | undefined)?.metadata.name ?? "";
    const [patch] = server.requestsTo("PATCH", "/apis/events.k8s.io/v1/namespaces/baz/events/");
    expect(patch?.path).toBe(`/apis/events.k8s.io/v1/namespaces/baz/events/${name}`);
    expect(patch?.contentType).toBe("application/strategic-merge-patch+json");
    expect(patch?.body).toEqual({
      series: { count: 2, lastObservedTime: expect.stringMatching(/\.\d{6}Z$/) },
    });
    expect(server.get("Event", "baz", name)?.series.count).toBe(2);

    rec.eventf(pod, null, "Normal", "test", "stopped", "some verbose message: 1");
    await rec.flush();
    const creates = server.requestsTo("POST", "/apis/events.k8s.io/v1/namespaces/baz/events");
    expect(creates).toHaveLength(2);
    expect((creates[1]?.body as { series?: unknown } | undefined)?.series).toBeUndefined();
  });

  it("writes 8 identical events as one create and one patch; the rest is counted in memory", async () => {
    let now = Date.UTC(2024, 0, 1);
    const rec = new KubeEventRecorder({
      client: new RawClient(server.kubeConfig()),
      host: "h",
      now: () => now,
    });
    const pod = makePod().name("p").namespace("ns").obj();
    for (let i = 0; i < 8; i++) {
      rec.eventf(pod, null, "Warning", "FailedScheduling", "Scheduling", `0/3 nodes are available (${i})`);
      await rec.flush();
      now += 1000;
    }
    expect(rec.writes).toEqual({ create: 1, patch: 1 });
    expect(rec.cachedEvents()[0]?.series?.count).toBe(8);
  });
});

describe("TestFinishSeries", () => {
  it("patches the final count of a series quiet for 6 minutes and forgets it; keeps live ones", async () => {
    let now = Date.UTC(2024, 0, 1);
    const rec = new KubeEventRecorder({
      client: new RawClient(server.kubeConfig()),
      host: "h",
      now: () => now,
    });
    const a = makePod().name("a").namespace("ns").obj();
    const b = makePod().name("b").namespace("ns").obj();
    for (let i = 0; i < 10; i++) rec.eventf(a, null, "Normal", "test", "started", "x");
    await rec.flush();
    now += 9 * 60_000;
    rec.eventf(b, null, "Normal", "test", "started", "x");
    await rec.flush();
    rec.runSeriesTasks();
    await waitFor(() => rec.cachedEvents().length === 1, 3000, "the finished series to be forgotten");
    expect(rec.cachedEvents()[0]?.regarding.name).toBe("b");
    const patches = server.requestsTo("PATCH", "/apis/events.k8s.io/v1/namespaces/ns/events/");
    expect(patches.at(-1)?.body).toMatchObject({ series: { count: 10 } });
  });
});

describe("TestRefreshExistingEventSeries", () => {
  it("re-creates a series whose Event expired (PATCH 404)", async () => {
    const rec = new KubeEventRecorder({ client: new RawClient(server.kubeConfig()), host: "h" });
    const pod = makePod().name("p").namespace("ns").obj();
    rec.eventf(pod, null, "Normal", "test", "started", "x");
    await rec.flush();
    for (const e of server.list("Event")) server.remove("Event", "ns", e.metadata.name);
    rec.eventf(pod, null, "Normal", "test", "started", "x");
    await rec.flush();
    const [event] = server.list("Event");
    expect(event?.series).toMatchObject({ count: 2 });
  });
});
