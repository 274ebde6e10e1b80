import { formatMicroTime } from "@kubesched/api";
import { Registry } from "prom-client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LeaderCallbacks, LeaderElector, type LeaderElectorOptions } from "./leader-election";
import { ClientMetrics } from "./metrics";
import { RawClient } from "./raw-client";
import { FakeApiServer, waitFor } from "./testing";

let server: FakeApiServer;

beforeEach(async () => {
  server = await FakeApiServer.start();
});

afterEach(async () => {
  await server.close();
});

const leasePath = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases";

interface Trace {
  log: string[];
  leading: AbortSignal | null;
  callbacks: LeaderCallbacks;
}

function trace(): Trace {
  const t: Trace = {
    log: [],
    leading: null,
    callbacks: {
      onStartedLeading: (signal) => {
        t.leading = signal;
        t.log.push("started");
      },
      onStoppedLeading: () => t.log.push("stopped"),
      onNewLeader: (id) => t.log.push(`leader ${id}`),
    },
  };
  return t;
}

// Short timings: lease 1 s (the API's granularity), renew deadline 400 ms, retry 100 ms.
function elector(t: Trace, identity = "me", extra: Partial<LeaderElectorOptions> = {}): LeaderElector {
  return new LeaderElector({
    client: new RawClient(server.kubeConfig()),
    name: "kube-scheduler",
    namespace: "kube-system",
    identity,
    leaseDuration: 1000,
    renewDeadline: 400,
    retryPeriod: 100,
    callbacks: t.callbacks,
    ...extra,
  });
}

function lease() {
  return server.get("Lease", "kube-system", "kube-scheduler");
}

describe("LeaderElector", () => {
  it("creates the Lease, renews it with resourceVersion preconditions, and releases it when stopped", async () => {
    const t = trace();
    const le = elector(t);
    const ac = new AbortController();
    const run = le.run(ac.signal);
    await waitFor(() => t.log.includes("started"));
    expect(le.isLeader()).toBe(true);
    const [created] = server.requestsTo("POST", leasePath);
    if (!created) throw new Error("no Lease was created");
    expect(created.body).toMatchObject({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "kube-scheduler", namespace: "kube-system" },
      spec: { holderIdentity: "me", leaseDurationSeconds: 1, leaseTransitions: 0 },
    });
    const spec = (created.body as { spec: { acquireTime: string; renewTime: string } }).spec;
    expect(spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // Renewals: PUTs carrying the resourceVersion last seen, the acquire time kept.
    await waitFor(() => server.requestsTo("PUT", `${leasePath}/kube-scheduler`).length >= 2);
    const puts = server.requestsTo("PUT", `${leasePath}/kube-scheduler`);
    for (const p of puts) {
      const body = p.body as { metadata: { resourceVersion?: string }; spec: { acquireTime: string } };
      expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(body.spec.acquireTime).toBe(spec.acquireTime);
    }
    // One GET (404, then create); renewals take the fast path, without a GET.
    expect(server.requestsTo("GET", leasePath)).toHaveLength(1);
    ac.abort();
    await run;
    expect(t.leading?.aborted).toBe(true);
    expect(t.log).toEqual(["leader me", "started", "stopped"]);
    expect(lease()?.spec).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1, leaseTransitions: 0 });
  });

  it("waits while another holder's lease is valid, then takes over with leaseTransitions + 1", async () => {
    const now = formatMicroTime(Date.now());
    server.put("Lease", {
      metadata: { name: "kube-scheduler", namespace: "kube-system" },
      spec: {
        holderIdentity: "other",
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 3,
      },
    });
    const t = trace();
    const le = elector(t);
    const ac = new AbortController();
    const started = Date.now();
    const run = le.run(ac.signal);
    await waitFor(() => t.log.includes("leader other"));
    expect(le.isLeader()).toBe(false);
    expect(le.getLeader()).toBe("other");
    await waitFor(() => t.log.includes("started"), 4000);
    // Expiry is judged from when the record was first observed, by the local clock.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(lease()?.spec).toMatchObject({ holderIdentity: "me", leaseTransitions: 4 });
    ac.abort();
    await run;
    expect(t.log).toEqual(["leader other", "leader me", "started", "stopped"]);
  });

  it("keeps waiting while the other holder renews", async () => {
    const renew = () => {
      const now = formatMicroTime(Date.now());
      const cur = lease();
      server.put("Lease", {
        metadata: { name: "kube-scheduler", namespace: "kube-system" },
        spec: {
          ...cur?.spec,
          holderIdentity: "other",
          leaseDurationSeconds: 1,
          acquireTime: now,
          renewTime: now,
        },
      });
    };
    renew();
    const timer = setInterval(renew, 200);
    const t = trace();
    const ac = new AbortController();
    const run = elector(t).run(ac.signal);
    await new Promise((r) => setTimeout(r, 1500));
    clearInterval(timer);
    expect(t.log).toEqual(["leader other"]);
    ac.abort();
    await run;
    expect(t.log).toEqual(["leader other", "stopped"]);
    expect(lease()?.spec.holderIdentity).toBe("other");
  });

  it("stops leading when another candidate takes the lease and renewals fail until the renew deadline", async () => {
    const t = trace();
    const errors: string[] = [];
    const le = elector(t, "me", { onError: (e) => errors.push(e.message) });
    const ac = new AbortController();
    const run = le.run(ac.signal);
    await waitFor(() => t.log.includes("started"));
    // Someone else writes the lease (a new resourceVersion): our optimistic update conflicts,
    // the slow path sees a valid lease held by "other".
    const now = formatMicroTime(Date.now());
    server.put("Lease", {
      metadata: { name: "kube-scheduler", namespace: "kube-system" },
      spec: {
        holderIdentity: "other",
        leaseDurationSeconds: 15,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 1,
      },
    });
    await run; // ends by itself: leadership lost
    expect(t.leading?.aborted).toBe(true);
    expect(t.log).toEqual(["leader me", "started", "leader other", "stopped"]);
    expect(errors.some((e) => e.includes("the object has been modified"))).toBe(true);
    expect(errors.at(-1)).toBe("failed to renew lease kube-system/kube-scheduler");
    expect(lease()?.spec.holderIdentity).toBe("other"); // not released: we no longer held it
    ac.abort();
  });

  it("loses leadership within the renew deadline while the API server hangs the Lease requests", async () => {
    const t = trace();
    const le = elector(t);
    const run = le.run(new AbortController().signal);
    await waitFor(() => t.log.includes("started"));
    server.fail({ method: "PUT", path: leasePath, hang: true, times: Number.POSITIVE_INFINITY });
    server.fail({ method: "GET", path: leasePath, hang: true, times: Number.POSITIVE_INFINITY });
    await run;
    expect(t.leading?.aborted).toBe(true);
    expect(t.log.at(-1)).toBe("stopped");
  });

  it("does not release the lease when beforeRelease says it is not safe", async () => {
    const t = trace();
    const ac = new AbortController();
    let asked = 0;
    const run = elector(t, "me", {
      beforeRelease: async () => {
        asked++;
        return false;
      },
    }).run(ac.signal);
    await waitFor(() => t.log.includes("started"));
    ac.abort();
    await run;
    expect(asked).toBe(1);
    expect(lease()?.spec.holderIdentity).toBe("me");
  });

  it("reports leader_election_master_status and the slow path", async () => {
    const registry = new Registry();
    const metrics = new ClientMetrics(registry);
    const t = trace();
    const ac = new AbortController();
    const le = elector(t, "me", { metrics, metricsName: "kube-scheduler" });
    const run = le.run(ac.signal);
    await waitFor(() => t.log.includes("started"));
    expect(await registry.getSingleMetricAsString("leader_election_master_status")).toContain(
      'leader_election_master_status{name="kube-scheduler"} 1',
    );
    // A write by someone else that keeps us as holder: the fast path conflicts, the slow path renews.
    const cur = lease();
    server.put("Lease", { ...cur, spec: { ...cur?.spec } });
    await waitFor(async () =>
      (await registry.getSingleMetricAsString("leader_election_slowpath_total")).includes("} 1"),
    );
    ac.abort();
    await run;
    expect(await registry.getSingleMetricAsString("leader_election_master_status")).toContain(
      'leader_election_master_status{name="kube-scheduler"} 0',
    );
  });

  it("retries the Lease API after errors", async () => {
    server.fail({ method: "GET", path: leasePath, status: 500, times: 2 });
    const t = trace();
    const ac = new AbortController();
    const run = elector(t).run(ac.signal);
    await waitFor(() => t.log.includes("started"), 3000);
    expect(server.requestsTo("GET", leasePath).length).toBe(3);
    ac.abort();
    await run;
  });

  it("reports an unhealthy leader that has not renewed for leaseDuration + tolerance", async () => {
    let now = Date.now();
    const t = trace();
    const le = elector(t, "me", {
      clock: {
        now: () => now,
        setTimeout: (fn, ms) => {
          const h = setTimeout(fn, ms);
          return { cancel: () => clearTimeout(h) };
        },
      },
    });
    expect(le.check(10_000)).toBeNull(); // not leading: nothing to check
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(le.check(10_000)).toBeNull();
    now += 1000 + 10_001;
    expect(le.check(10_000)).toBe("failed election to renew leadership on lease kube-scheduler");
  });

  it("rejects timings client-go rejects", () => {
    const base = { client: new RawClient(server.kubeConfig()), name: "l", namespace: "ns", identity: "me" };
    const callbacks = trace().callbacks;
    expect(
      () => new LeaderElector({ ...base, callbacks, leaseDuration: 10_000, renewDeadline: 10_000 }),
    ).toThrow("leaseDuration must be greater than renewDeadline");
    expect(() => new LeaderElector({ ...base, callbacks, renewDeadline: 2_000, retryPeriod: 2_000 })).toThrow(
      "renewDeadline must be greater than retryPeriod*JitterFactor",
    );
    expect(() => new LeaderElector({ ...base, callbacks, identity: "" })).toThrow(
      "identity must not be empty",
    );
  });
});
