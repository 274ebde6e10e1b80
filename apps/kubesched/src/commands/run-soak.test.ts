// The live-mode soak: `kubesched run`'s code path (runScheduler, as the command calls it) against
// the API-server emulator, 20 rounds of a 500-pod burst while a sibling process keeps a core busy.
// Each round mixes what can make a scheduler bind a pod twice: watches that end after a few events,
// relists (410 Gone, watch ERRORs, resets), bindings answered 409/500 or cut before their write,
// bindings the server applied whose answer was lost (500, connection reset), a pod informer kept
// blind from the first binding until one of those is retried and refused, and in some rounds a
// leader-election handover with bindings in flight. Per round, at the emulator: every pod bound exactly once; at most one successful answer
// per pod; a Scheduled event for exactly the pods whose binding the scheduler saw succeed; the
// attempts metric equal to the binding answers. A failure prints what the scheduler saw of the
// pods in question: its log at V(4) (informer events, binding attempts and failures, requeues)
// and the emulator's record of their requests with the answers.
//
// The paths by which a pod could be bound twice, and what guards each (here, and where else):
// - a binding the server applied whose answer was lost (500, reset), retried: the server refuses
//   the retry with 409 (emulator: writes.test.ts, fake-api-server.test.ts; run-faults.test.ts
//   "bindings applied whose answer is lost"); the failure handler does not requeue a pod the
//   informer already has bound ("Pod has been assigned to node").
// - a watch drop or relist delivering the pod unscheduled while its binding is in flight or not
//   yet seen: updates of an assumed pod do not reach the queue, a relist delivers known pods as
//   updates, and an update of a pod in flight is only recorded for replay (informer.test.ts,
//   scheduling-queue tests; here: watches ending after 1–100 events, 410/ERROR/reset relists,
//   the blind informer rounds, where every retry must be, and is, refused with 409).
// - a leader handover with bindings in flight: the old leader stops at its renew deadline, before
//   the lease can expire for the new one, and a binding of its that lands late is refused with
//   409 (here: the handover rounds; run-faults.test.ts's leader-election cases).
//
// No timed assertion: the deadlines only bound a hang.
import { type ChildProcess, spawn } from "node:child_process";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { FakeApiServer, type RecordedRequest, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, type RecordingLogger, recordingLogger } from "@kubesched/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScheduler } from "./run";

const rounds = 20;
const pods = 500;
const nodes = 50;

let hog: ChildProcess;

beforeAll(() => {
  // The CPU contention: a busy sibling process for the whole soak.
  // It exits by itself once its parent is gone (a killed test worker leaves no busy orphan).
  hog = spawn(
    process.execPath,
    [
      "-e",
      "const p = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== p) process.exit(); }",
    ],
    { stdio: "ignore" },
  );
});

afterAll(() => {
  hog.kill();
});

interface Round {
  /** Every pod watch ends after this many events. */
  closeWatchesAfter: number;
  qps: number;
  /** The pod informer sees nothing from the first binding until a retried binding is refused. */
  blind: boolean;
  /** Two schedulers; the leader stops renewing its lease mid-burst. */
  handover: boolean;
}

function round(i: number): Round {
  return {
    closeWatchesAfter: [1, 5, 20, 100][i % 4] as number,
    qps: [200, 1000, 5000][i % 3] as number,
    blind: i % 2 === 1,
    handover: i % 5 === 4,
  };
}

function config(r: Round): KubeSchedulerConfiguration {
  const c = defaultConfig({ registry: inTreeRegistry });
  // Leader election timings (ms) with room for a loaded machine: lease 4 s, renew 3 s, retry 0.5 s.
  c.leaderElection = {
    ...c.leaderElection,
    leaderElect: r.handover,
    leaseDuration: 4000,
    renewDeadline: 3000,
    retryPeriod: 500,
  };
  c.clientConnection = { ...c.clientConnection, qps: r.qps, burst: 100 };
  // Failed bindings are retried after 1 s, not after a backoff doubling up to 10 s.
  c.podMaxBackoffSeconds = c.podInitialBackoffSeconds;
  return c;
}

const isBinding = (r: RecordedRequest) => r.method === "POST" && r.path.endsWith("/binding");
/** "default/p1" of /api/v1/namespaces/default/pods/p1/binding. */
const podOf = (r: RecordedRequest) => {
  const s = r.path.split("/");
  return `${s[4]}/${s[6]}`;
};
const count = (keys: string[]) => {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
};

/** What the scheduler saw of these pods, and what the emulator served them: the failure message. */
function trace(server: FakeApiServer, loggers: RecordingLogger[], keys: string[], t0: number): string {
  const lines: string[] = [];
  for (const key of keys.slice(0, 5)) {
    lines.push(`--- ${key}`);
    loggers.forEach((logger, n) => {
      for (const e of logger.entries) {
        if (e.fields?.pod !== key) continue;
        const { pod: _p, err, ...rest } = e.fields;
        const why = err instanceof Error ? ` err=${err.message}` : err ? ` err=${String(err)}` : "";
        lines.push(`  scheduler ${n}: ${e.msg} ${JSON.stringify(rest)}${why}`);
      }
    });
    const [ns, name] = key.split("/");
    for (const r of server.requests) {
      if (!r.path.startsWith(`/api/v1/namespaces/${ns}/pods/${name}/`)) continue;
      lines.push(
        `  emulator +${r.at - t0} ms: ${r.method} ${r.path.split("/").pop()} -> ${r.status ?? "none"}`,
      );
    }
  }
  return lines.join("\n");
}

async function metric(port: number, result: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const m = new RegExp(
    `^scheduler_schedule_attempts_total\\{result="${result}",profile="default-scheduler"\\} (\\d+)$`,
    "m",
  ).exec(text);
  return Number(m?.[1] ?? 0);
}

describe(`live-mode soak: ${rounds} rounds of a ${pods}-pod burst under CPU contention`, () => {
  for (let i = 0; i < rounds; i++) {
    const r = round(i);
    const what = [
      `watches end after ${r.closeWatchesAfter} event(s)`,
      `qps ${r.qps}`,
      ...(r.blind ? ["a blind pod informer"] : []),
      ...(r.handover ? ["a leader handover"] : []),
    ].join(", ");
    it(`round ${i + 1} (${what}): every pod bound exactly once`, { timeout: 120_000 }, async () => {
      const t0 = Date.now();
      const server = await FakeApiServer.start();
      const stops: AbortController[] = [];
      let chaos: NodeJS.Timeout | undefined;
      try {
        for (let n = 0; n < nodes; n++) {
          server.put(
            "Node",
            makeNode().name(`n${n}`).capacity({ cpu: "64", memory: "256Gi", pods: "500" }).obj(),
          );
        }
        for (let p = 0; p < pods; p++) {
          server.put("Pod", makePod().name(`p${p}`).namespace("default").req({ cpu: "100m" }).obj());
        }
        server.setCloseWatchesAfter(r.closeWatchesAfter, "Pod");
        // A blind pod informer: from the moment the first binding arrives (before it is served) its
        // watches are cut and its lists and watches hang (released as 503), until a binding retried
        // after a lost answer is refused by the server (the informer had not seen the pod bound).
        let blind = false;
        let blinded = false;
        const blindAtFirstBinding = () => {
          if (r.blind && !blinded) {
            blinded = true;
            blind = true;
            server.resetWatches("Pod");
          }
          return true;
        };
        if (r.blind) {
          server.fail({
            method: "GET",
            path: "/api/v1/pods",
            hang: true,
            times: Number.POSITIVE_INFINITY,
            match: () => blind,
          });
        }
        // Bindings applied by the server whose answer is lost, then ones failed before their write
        // (no injected 409 with a blind informer: there every 409 is the server's refusal).
        server.fail({
          method: "POST",
          path: /\/binding$/,
          applied: true,
          status: 500,
          times: 15,
          match: blindAtFirstBinding,
        });
        server.fail({ method: "POST", path: /\/binding$/, applied: true, reset: true, times: 15 });
        if (!r.blind) server.fail({ method: "POST", path: /\/binding$/, status: 409, times: 15 });
        server.fail({ method: "POST", path: /\/binding$/, status: 500, times: 15 });
        server.fail({ method: "POST", path: /\/binding$/, reset: true, times: 10 });

        const start = (id: string) => {
          const ac = new AbortController();
          stops.push(ac);
          const logger = recordingLogger(4);
          let port = 0;
          const done = runScheduler({
            config: config(r),
            registry: inTreeRegistry,
            kubeConfig: server.kubeConfig(),
            signal: ac.signal,
            logger,
            identity: id,
            serving: {
              bindAddress: "127.0.0.1",
              securePort: 0,
              insecurePort: -1,
              tls: {},
              alwaysAllowPaths: [],
            },
            onListening: (s) => {
              port = s.insecurePort;
            },
            backoff: { durationMs: 50, capMs: 400, steps: 4, factor: 2, jitter: 1 },
            eventRetrySleepMs: 50,
            bindingGracePeriodMs: 2000,
          });
          return { ac, done, logger, port: () => port };
        };
        const a = start("a");
        const schedulers = [a];
        if (r.handover) {
          const lease = () => server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity;
          await waitFor(() => lease() === "a", 60_000, "a to lead");
          schedulers.push(start("b"));
        }
        const loggers = schedulers.map((s) => s.logger);
        const pending = () => server.list("Pod").filter((p) => !p.spec?.nodeName).length;
        const bindings = () => server.requests.filter(isBinding);
        const explain = (keys: string[]) => trace(server, loggers, keys, t0);

        // Relists while the burst is bound: 410 Gone, a watch ERROR, TCP resets, a node watch end.
        let k = 0;
        chaos = setInterval(() => {
          const step = k++ % 4;
          if (step === 0) server.expire("Pod");
          else if (step === 1) server.errorWatches("Pod", 500);
          else if (step === 2) server.resetWatches("Pod");
          else server.closeWatches("Node");
        }, 300);

        await waitFor(() => bindings().length > 0, 60_000, "the first binding");
        if (r.blind) {
          await waitFor(() => bindings().some((b) => b.status === 409), 60_000, "a retried binding refused");
          blind = false;
          server.releaseHung();
        }
        if (r.handover) {
          await waitFor(() => server.bindings.size >= 150, 60_000, "150 bindings");
          // a can no longer renew its lease (as if it stopped): it gives up after its renew deadline
          // without releasing, abandoning its bindings in flight; b waits out the lease.
          server.fail({
            method: "PUT",
            path: "/apis/coordination.k8s.io/",
            hang: true,
            times: Number.POSITIVE_INFINITY,
            match: (q) => (q.body as { spec?: { holderIdentity?: string } })?.spec?.holderIdentity === "a",
          });
        }
        await waitFor(
          () => server.bindings.size === pods && pending() === 0,
          90_000,
          `${pods} pods bound`,
        ).catch((e: Error) => {
          const stuck = server
            .list("Pod")
            .filter((p) => !p.spec?.nodeName)
            .map((p) => `default/${p.metadata.name}`);
          throw new Error(`${e.message}; ${stuck.length} pending\n${explain(stuck)}`);
        });
        clearInterval(chaos);

        // The pods the scheduler saw bound (a 201), their Scheduled events, the server's bindings.
        const ok = count(
          bindings()
            .filter((b) => b.status === 201)
            .map(podOf),
        );
        const scheduledEvents = () => server.list("Event").filter((e) => e.reason === "Scheduled");
        if (!r.handover) {
          await waitFor(() => scheduledEvents().length >= ok.size, 30_000, "the Scheduled events").catch(
            () => undefined,
          );
        }
        const events = count(scheduledEvents().map((e) => `${e.regarding.namespace}/${e.regarding.name}`));
        const twice = [...server.bindings].filter(([, n]) => n !== 1).map(([key]) => key);
        expect(twice, `pods bound more than once\n${explain(twice)}`).toEqual([]);
        const okTwice = [...ok].filter(([, n]) => n > 1).map(([key]) => key);
        expect(okTwice, `pods whose binding succeeded twice\n${explain(okTwice)}`).toEqual([]);
        const eventTwice = [...events].filter(([, n]) => n > 1).map(([key]) => key);
        expect(eventTwice, `pods with two Scheduled events\n${explain(eventTwice)}`).toEqual([]);
        const eventWithoutBinding = [...events.keys()].filter((key) => !ok.has(key));
        expect(
          eventWithoutBinding,
          `Scheduled events without a successful binding\n${explain(eventWithoutBinding)}`,
        ).toEqual([]);

        if (r.handover) {
          expect(await a.done).toBe(1);
          const b = schedulers[1]!;
          b.ac.abort();
          expect(await b.done).toBe(0);
        } else {
          // The scheduler saw each success once: one event each, the attempts metric counting them;
          // every other binding answer (or its absence) is one failed attempt.
          const bindingEvents = [...ok.keys()].filter((key) => !events.has(key));
          expect(
            bindingEvents,
            `successful bindings without a Scheduled event\n${explain(bindingEvents)}`,
          ).toEqual([]);
          expect(await metric(a.port(), "scheduled")).toBe(ok.size);
          expect(await metric(a.port(), "error")).toBe(bindings().length - ok.size);
          a.ac.abort();
          expect(await a.done).toBe(0);
        }
      } finally {
        clearInterval(chaos);
        for (const s of stops) s.abort();
        await server.close();
      }
    });
  }
});
