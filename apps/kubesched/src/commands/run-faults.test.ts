// The fault-injection suite: `kubesched run`'s code path (runScheduler, as the command calls it)
// against the API-server emulator while it misbehaves. Outcomes only — every pod bound exactly
// once, exit codes, a run that ends — with generous deadlines that only bound a hang.
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { FakeApiServer, type RecordedRequest, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, type RecordingLogger, recordingLogger } from "@kubesched/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type RunOptions, runScheduler } from "./run";

// Deadlines that only bound a hang (a scenario takes a few seconds).
vi.setConfig({ testTimeout: 90_000 });

let server: FakeApiServer;

afterEach(async () => {
  await server?.close();
});

const fastBackoff = { durationMs: 50, capMs: 400, steps: 4, factor: 2, jitter: 1 };

function config(o: { leaderElect?: boolean; qps?: number; burst?: number } = {}): KubeSchedulerConfiguration {
  const c = defaultConfig({ registry: inTreeRegistry });
  // Short leader-election timings (ms): lease 2 s, renew deadline 1 s, retry 200 ms.
  c.leaderElection = {
    ...c.leaderElection,
    leaderElect: o.leaderElect ?? false,
    leaseDuration: 2000,
    renewDeadline: 1000,
    retryPeriod: 200,
  };
  c.clientConnection = { ...c.clientConnection, qps: o.qps ?? 500, burst: o.burst ?? 500 };
  return c;
}

async function cluster(nodes: number, pods: number): Promise<void> {
  server ??= await FakeApiServer.start();
  for (let i = 0; i < nodes; i++) {
    server.put("Node", makeNode().name(`n${i}`).capacity({ cpu: "64", memory: "256Gi", pods: "500" }).obj());
  }
  for (let i = 0; i < pods; i++) {
    server.put("Pod", makePod().name(`p${i}`).namespace("default").req({ cpu: "100m" }).obj());
  }
}

function start(
  o: Partial<RunOptions> & {
    config: KubeSchedulerConfiguration;
    signal?: AbortSignal;
    logger?: RecordingLogger;
  },
) {
  const ac = new AbortController();
  const logger = o.logger ?? recordingLogger(0);
  const done = runScheduler({
    registry: inTreeRegistry,
    kubeConfig: server.kubeConfig(),
    signal: o.signal ?? ac.signal,
    logger,
    serving: null,
    backoff: fastBackoff,
    eventRetrySleepMs: 50,
    bindingGracePeriodMs: 500,
    ...o,
  });
  return { ac, done, logger };
}

const pending = () => server.list("Pod").filter((p) => !p.spec?.nodeName).length;

/** Every pod is on a node, and the server accepted exactly one binding for each. */
function expectEachBoundOnce(pods: number): void {
  expect(pending()).toBe(0);
  expect(server.bindings.size).toBe(pods);
  const twice = [...server.bindings].filter(([, n]) => n !== 1);
  expect(twice).toEqual([]);
}

const allBound = (pods: number, ms = 30_000) =>
  waitFor(() => server.bindings.size === pods && pending() === 0, ms, `${pods} pods bound`);

describe("watch drops after N events", () => {
  for (const n of [1, 3, 20, 100]) {
    it(`binds every pod exactly once when every watch ends after ${n} event(s)`, async () => {
      server = await FakeApiServer.start();
      server.setCloseWatchesAfter(n);
      await cluster(10, 200);
      const { ac, done } = start({ config: config() });
      await allBound(200);
      ac.abort();
      expect(await done).toBe(0);
      expectEachBoundOnce(200);
      // Re-watched at once from where each watch ended: one list per kind, no relist.
      const podLists = server.requestsTo("GET", "/api/v1/pods").filter((r) => r.query.watch !== "true");
      expect(podLists).toHaveLength(1);
    });
  }

  it("relists after 410 Gone and after a watch ERROR mid-run, and still binds each pod once", async () => {
    server = await FakeApiServer.start();
    await cluster(10, 300);
    const { ac, done } = start({ config: config({ qps: 100, burst: 20 }) });
    await waitFor(() => server.bindings.size >= 50, 30_000, "50 bindings");
    server.expire("Pod");
    await waitFor(() => server.bindings.size >= 150, 30_000, "150 bindings");
    server.errorWatches("Pod", 500);
    server.resetWatches("Node");
    await allBound(300);
    ac.abort();
    expect(await done).toBe(0);
    expectEachBoundOnce(300);
  });
});

describe("binding failures", () => {
  const isBinding = (r: RecordedRequest) => r.path.endsWith("/binding");
  for (const status of [409, 500, 404]) {
    it(`retries bindings answered ${status} and binds each pod once`, async () => {
      server = await FakeApiServer.start();
      await cluster(10, 100);
      server.fail({ method: "POST", path: /\/binding$/, status, times: 40, match: isBinding });
      const { ac, done } = start({ config: config() });
      await allBound(100);
      ac.abort();
      expect(await done).toBe(0);
      expectEachBoundOnce(100);
      expect(server.requestsTo("POST", /\/binding$/).length).toBeGreaterThanOrEqual(140);
    });
  }

  it("retries bindings that time out, including ones the server applied after the client gave up", async () => {
    server = await FakeApiServer.start();
    await cluster(10, 60);
    // 20 never answered, 20 applied but answered too late: the retries of those get 409.
    server.fail({ method: "POST", path: /\/binding$/, hang: true, times: 20 });
    server.fail({ method: "POST", path: /\/binding$/, delayMs: 1500, times: 20 });
    const { ac, done } = start({ config: config(), requestTimeoutMs: 500 });
    await allBound(60);
    ac.abort();
    expect(await done).toBe(0);
    expectEachBoundOnce(60);
  });
});

describe("bindings applied whose answer is lost", () => {
  for (const lost of ["answered 500", "cut the connection"] as const) {
    it(`binds each pod once when the server applied the binding but ${lost}`, async () => {
      server = await FakeApiServer.start();
      await cluster(5, 40);
      server.fail({
        method: "POST",
        path: /\/binding$/,
        applied: true,
        ...(lost === "answered 500" ? { status: 500 } : { reset: true }),
        times: 20,
      });
      const { ac, done, logger } = start({ config: config(), logger: recordingLogger(4) });
      await allBound(40);
      ac.abort();
      expect(await done).toBe(0);
      expectEachBoundOnce(40);
      // What the scheduler saw of a pod whose answer was lost, as upstream logs it at V(3)/V(4).
      const first = server.requestsTo("POST", /\/binding$/)[0];
      const pod = `default/${first?.path.split("/")[6]}`;
      const seen = logger.entries.filter((e) => e.fields?.pod === pod).map((e) => e.msg);
      expect(seen).toEqual(
        expect.arrayContaining([
          "Add event for unscheduled pod",
          "Attempting to bind pod to node",
          "Failed to bind pod",
          "Add event for scheduled pod",
        ]),
      );
      // Either the informer had the pod bound when the failure was handled, or it was requeued and
      // left the queue when the informer saw it bound (or a retry was refused with 409).
      expect(
        seen.includes("Pod has been assigned to node. Abort adding it back to queue.") ||
          seen.includes("Delete event for unscheduled pod"),
      ).toBe(true);
    });
  }
});

describe("shutdown", () => {
  it("exits 0 soon after SIGTERM while bindings and events hang, and does not release the lease", async () => {
    server = await FakeApiServer.start();
    await cluster(5, 50);
    server.fail({ method: "POST", path: /\/binding$/, hang: true, times: Number.POSITIVE_INFINITY });
    server.fail({
      method: "POST",
      path: "/apis/events.k8s.io/",
      hang: true,
      times: Number.POSITIVE_INFINITY,
    });
    const { ac, done, logger } = start({ config: config({ leaderElect: true }), identity: "me" });
    await waitFor(
      () => server.hungRequests().filter((r) => r.path.endsWith("/binding")).length >= 10,
      10_000,
    );
    ac.abort();
    expect(await done).toBe(0);
    expect(logger.entries.map((e) => e.msg)).toContain(
      "Not releasing the lease: bindings were abandoned; it expires on its own",
    );
    expect(server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity).toBe("me");
    expect(server.bindings.size).toBe(0);
  });

  it("releases the lease when the bindings in flight finish within the grace period", async () => {
    server = await FakeApiServer.start();
    await cluster(5, 50);
    server.fail({ method: "POST", path: /\/binding$/, delayMs: 300, times: Number.POSITIVE_INFINITY });
    const { ac, done } = start({
      config: config({ leaderElect: true }),
      identity: "me",
      bindingGracePeriodMs: 5000,
    });
    await waitFor(() => server.requestsTo("POST", /\/binding$/).length >= 10, 10_000);
    ac.abort();
    expect(await done).toBe(0);
    expect(server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity).toBe("");
  });

  it("exits 1 at once when the lease is lost while bindings hang", async () => {
    server = await FakeApiServer.start();
    await cluster(5, 50);
    server.fail({ method: "POST", path: /\/binding$/, hang: true, times: Number.POSITIVE_INFINITY });
    const { done, logger } = start({ config: config({ leaderElect: true }), identity: "me" });
    await waitFor(() => server.hungRequests().length >= 10, 10_000);
    server.stealLease("kube-system", "kube-scheduler", "other");
    expect(await done).toBe(1);
    expect(logger.entries.some((e) => e.msg === "Leaderelection lost")).toBe(true);
    expect(server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity).toBe("other");
  });
});

describe("two schedulers with leader election", () => {
  it("only the leader schedules; the other takes over after a release and every pod is bound once", async () => {
    server = await FakeApiServer.start();
    await cluster(10, 200);
    // A scheduler slowed by its API rate: the takeover happens mid-run.
    const a = start({ config: config({ leaderElect: true, qps: 40, burst: 10 }), identity: "a" });
    await waitFor(() => server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity === "a");
    const b = start({ config: config({ leaderElect: true }), identity: "b" });
    await waitFor(() => server.bindings.size >= 30, 30_000, "30 bindings by a");
    const byA = (r: RecordedRequest) => r.path.endsWith("/binding");
    const before = server.requests.filter(byA).length;
    a.ac.abort();
    expect(await a.done).toBe(0);
    await allBound(200);
    expect(server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity).toBe("b");
    expect(server.requests.filter(byA).length).toBeGreaterThan(before);
    b.ac.abort();
    expect(await b.done).toBe(0);
    expectEachBoundOnce(200);
  });
});

describe("client-side rate limiting", () => {
  it("keeps the API request rate within clientConnection.qps/burst under a 2000-pod burst", async () => {
    server = await FakeApiServer.start();
    await cluster(50, 2000);
    const qps = 500;
    const burst = 50;
    const { ac, done } = start({ config: config({ qps, burst }) });
    await allBound(2000, 60_000);
    await waitFor(() => server.list("Event").length === 2000, 30_000, "2000 Scheduled events");
    ac.abort();
    expect(await done).toBe(0);
    expectEachBoundOnce(2000);
    for (const agent of ["kubesched/scheduler", "kubesched/events"]) {
      const times = server.requests.filter((r) => r.userAgent === agent).map((r) => r.at);
      // A token bucket admits at most burst + qps * T requests in any window of T; arrival times
      // at the server can bunch a little, hence the 10% margin.
      let maxInSecond = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while ((times[i] as number) - (times[j] as number) >= 1000) j++;
        maxInSecond = Math.max(maxInSecond, i - j + 1);
      }
      expect(maxInSecond, agent).toBeLessThanOrEqual(Math.ceil((burst + qps) * 1.1));
      expect(times.length, agent).toBeGreaterThanOrEqual(2000);
    }
  });
});
