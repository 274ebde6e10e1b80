import { makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeEventRecorder, maxNoteLength, truncateNote } from "./event-recorder";
import { RawClient } from "./raw-client";
import { FakeApiServer } from "./testing";

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

  it("truncates notes to the API's 1 kB limit", () => {
    expect(truncateNote("a".repeat(2000))).toHaveLength(maxNoteLength);
    expect(truncateNote("a".repeat(2000)).endsWith("...")).toBe(true);
    expect(truncateNote("short")).toBe("short");
  });
});
