import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseArgs, runCli } from "../cli";
import { readFlags } from "../flags";
import type { Serving } from "../serving/secure-serving";
import { applyRunFlags, type RunOptions, runCommand, runScheduler } from "./run";

let server: FakeApiServer;
let dir: string;

beforeEach(async () => {
  server = await FakeApiServer.start();
  dir = mkdtempSync(join(tmpdir(), "kubesched-run-"));
  server.put("Node", makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi" }).obj());
  server.put("Pod", makePod().name("p1").namespace("default").req({ cpu: "1" }).obj());
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(leaderElect = true): KubeSchedulerConfiguration {
  const c = defaultConfig({ registry: inTreeRegistry });
  // Short leader-election timings (ms): lease 1 s, renew deadline 400 ms, retry 100 ms.
  c.leaderElection = {
    ...c.leaderElection,
    leaderElect,
    leaseDuration: 1000,
    renewDeadline: 400,
    retryPeriod: 100,
  };
  return c;
}

const bound = () => server.bindings.get("default/p1") === 1;
const lease = () => server.get("Lease", "kube-system", "kube-scheduler");

function options(extra: Partial<RunOptions> & { signal: AbortSignal }): RunOptions {
  return {
    config: config(),
    registry: inTreeRegistry,
    kubeConfig: server.kubeConfig(),
    logger: recordingLogger(),
    serving: null,
    ...extra,
  };
}

/** GET over TLS, trusting the scheduler's generated certificate. */
function get(
  port: number,
  path: string,
  opts: { ca: string; token?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        path,
        servername: "localhost",
        ca: opts.ca,
        headers: opts.token ? { Authorization: `Bearer ${opts.token}` } : {},
      },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

// The waits inside go up to 5 s each: a loaded 2-core machine needs more than the 5 s default per test.
describe("runScheduler", { timeout: 20_000 }, () => {
  it("schedules without leader election and serves the endpoints over TLS with delegated auth", async () => {
    const ac = new AbortController();
    let serving: Serving | undefined;
    const done = runScheduler(
      options({
        config: config(false),
        signal: ac.signal,
        serving: {
          bindAddress: "127.0.0.1",
          securePort: -1,
          insecurePort: 0,
          tls: {},
          alwaysAllowPaths: ["/healthz", "/readyz", "/livez"],
        },
        onListening: (s) => {
          serving = s;
        },
      }),
    );
    await waitFor(bound, 5000, "the binding");
    await waitFor(() => serving);
    const s = serving as Serving;
    const ca = s.certificate as string;
    expect(await get(s.securePort, "/healthz", { ca })).toEqual({ status: 200, body: "ok" });
    expect((await get(s.securePort, "/livez", { ca })).status).toBe(200);
    await waitFor(async () => (await get(s.securePort, "/readyz", { ca })).status === 200);
    expect(await get(s.securePort, "/readyz?verbose", { ca })).toEqual({
      status: 200,
      body: "[+]shutdown ok\n[+]sched-handler-sync ok\nreadyz check passed\n",
    });
    // /metrics needs authorization: anonymous is forbidden, an unknown token unauthorized.
    const anon = await get(s.securePort, "/metrics", { ca });
    expect(anon.status).toBe(403);
    expect(JSON.parse(anon.body).message).toBe(
      'forbidden: User "system:anonymous" cannot get path "/metrics"',
    );
    expect((await get(s.securePort, "/metrics", { ca, token: "nope" })).status).toBe(401);
    server.addToken("prom", "system:serviceaccount:monitoring:prometheus");
    server.allow("system:serviceaccount:monitoring:prometheus", "/metrics");
    const metrics = await get(s.securePort, "/metrics", { ca, token: "prom" });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain(
      'scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1',
    );
    expect(metrics.body).toMatch(
      /rest_client_requests_total\{code="201",method="POST",host="127\.0\.0\.1:\d+"\} \d/,
    );
    expect(metrics.body).toContain("rest_client_rate_limiter_duration_seconds_bucket");
    expect(metrics.body).toContain("# TYPE scheduler_scheduler_cache_size gauge");
    // Decisions are cached for 10 s, as upstream's delegating authorizer does.
    expect((await get(s.securePort, "/configz", { ca })).status).toBe(403);
    server.allow("system:anonymous", "/configz");
    expect((await get(s.securePort, "/configz", { ca })).status).toBe(403);
    server.allow("system:serviceaccount:monitoring:prometheus", "/configz");
    const configz = JSON.parse((await get(s.securePort, "/configz", { ca, token: "prom" })).body);
    expect(configz.componentconfig).toMatchObject({
      kind: "KubeSchedulerConfiguration",
      leaderElection: { leaderElect: false },
    });
    ac.abort();
    expect(await done).toBe(0);
    expect(server.requestsTo("POST", "/apis/coordination.k8s.io/")).toEqual([]);
    await waitFor(() => server.openWatches("Pod") === 0, 2000, "the watches to close");
  });

  it("schedules only once it holds the Lease, and releases it on shutdown", async () => {
    const ac = new AbortController();
    const logger = recordingLogger();
    const done = runScheduler(options({ signal: ac.signal, logger, identity: "me" }));
    await waitFor(bound, 5000, "the binding");
    expect(lease()?.spec.holderIdentity).toBe("me");
    expect(logger.entries.map((e) => e.msg)).toContain("Successfully acquired lease");
    ac.abort();
    expect(await done).toBe(0);
    expect(lease()?.spec).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1 });
  });

  it("with delayCacheUntilActive, starts the informers only once it leads", async () => {
    const c = config();
    c.delayCacheUntilActive = true;
    const ac = new AbortController();
    const done = runScheduler(options({ config: c, signal: ac.signal, identity: "me" }));
    await waitFor(bound, 5000, "the binding");
    const paths = server.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.indexOf("POST /apis/coordination.k8s.io/v1/namespaces/kube-system/leases")).toBeLessThan(
      paths.indexOf("GET /api/v1/nodes"),
    );
    ac.abort();
    expect(await done).toBe(0);
  });

  it("exits with 1 when leadership is lost", async () => {
    const logger = recordingLogger();
    const done = runScheduler(options({ signal: new AbortController().signal, logger, identity: "me" }));
    await waitFor(() => lease()?.spec.holderIdentity === "me", 5000, "the lease");
    server.stealLease("kube-system", "kube-scheduler", "other");
    expect(await done).toBe(1);
    expect(logger.entries.some((e) => e.level === "error" && e.msg === "Leaderelection lost")).toBe(true);
  });

  it("serves plain HTTP without authentication only when asked (--port)", async () => {
    const ac = new AbortController();
    let serving: Serving | undefined;
    const done = runScheduler(
      options({
        config: config(false),
        signal: ac.signal,
        serving: { bindAddress: "127.0.0.1", securePort: 0, insecurePort: -1, tls: {}, alwaysAllowPaths: [] },
        onListening: (s) => {
          serving = s;
        },
      }),
    );
    await waitFor(bound, 5000, "the binding");
    const s = serving as Serving;
    expect(s.securePort).toBe(0);
    const res = await fetch(`http://127.0.0.1:${s.insecurePort}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("scheduler_schedule_attempts_total");
    ac.abort();
    expect(await done).toBe(0);
  });

  it("fails with 1 when the secure port is taken", async () => {
    const logger = recordingLogger();
    const blocker = https.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as { port: number }).port;
    const code = await runScheduler(
      options({
        signal: new AbortController().signal,
        logger,
        serving: {
          bindAddress: "127.0.0.1",
          securePort: port,
          insecurePort: 0,
          tls: {},
          alwaysAllowPaths: [],
        },
      }),
    );
    blocker.close();
    expect(code).toBe(1);
    expect(logger.entries.at(-1)?.msg).toMatch(
      /^failed to listen on 127\.0\.0\.1:\d+ \(--secure-port\): EADDRINUSE/,
    );
  });
});

describe("kubesched run", { timeout: 20_000 }, () => {
  function cli(argv: string[]) {
    let stdout = "";
    let stderr = "";
    const code = runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: dir });
    return { code, out: () => stdout, err: () => stderr };
  }

  it("runs against the kubeconfig's server until SIGTERM", async () => {
    writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML());
    const r = cli(["run", "--kubeconfig", "kubeconfig", "--secure-port=0", "--leader-elect=false"]);
    await waitFor(bound, 5000, "the binding");
    process.emit("SIGTERM");
    expect(await r.code).toBe(0);
    expect(r.err()).toContain("Scheduling (leader election disabled)");
    expect(process.listenerCount("SIGTERM")).toBe(0);
  });

  it("--master overrides the kubeconfig's server; a bare --leader-elect elects", async () => {
    writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML().replace(server.url, "http://127.0.0.1:1"));
    const r = cli([
      "run",
      "--kubeconfig",
      "kubeconfig",
      "--master",
      server.url,
      "--secure-port",
      "0",
      "--leader-elect",
      "--leader-elect-lease-duration=2s",
      "--leader-elect-renew-deadline=1s",
      "--leader-elect-retry-period=100ms",
      "--leader-elect-resource-name=my-scheduler",
    ]);
    await waitFor(bound, 5000, "the binding");
    expect(server.get("Lease", "kube-system", "my-scheduler")?.spec.leaseDurationSeconds).toBe(2);
    process.emit("SIGINT");
    expect(await r.code).toBe(0);
  });

  it("--write-config-to writes the effective configuration and exits without a cluster", async () => {
    const r = cli([
      "run",
      "--write-config-to",
      "out.yaml",
      "--leader-elect=false",
      "--kube-api-qps=200",
      "--feature-gates=SchedulerPopFromBackoffQ=true,DynamicResourceAllocation=true",
    ]);
    expect(await r.code).toBe(0);
    const written = parse(readFileSync(join(dir, "out.yaml"), "utf8"));
    expect(written).toMatchObject({
      apiVersion: "kubescheduler.config.k8s.io/v1",
      leaderElection: { leaderElect: false },
      clientConnection: { qps: 200, burst: 100 },
    });
    expect(r.err()).toContain(
      "warning: feature gate SchedulerPopFromBackoffQ=true has no effect in kubesched",
    );
  });

  it("--feature-gates feeds the plugins' defaults (VolumeBinding's shape needs StorageCapacityScoring)", async () => {
    const shape = async (gates: string[]) => {
      const r = cli(["run", "--write-config-to", "c.yaml", ...gates]);
      expect(await r.code).toBe(0);
      const cfg = parse(readFileSync(join(dir, "c.yaml"), "utf8"));
      return cfg.profiles[0].pluginConfig.find((p: { name: string }) => p.name === "VolumeBinding").args
        .shape;
    };
    expect(await shape([])).toHaveLength(2);
    expect(await shape(["--feature-gates=StorageCapacityScoring=false"])).toBeUndefined();
  });

  it("--feature-gates takes every gate of the release, as kube-scheduler (issue 27)", async () => {
    // A 1.37 gate the plugins do not read: accepted, with the warning that it changes nothing here.
    const taints = cli([
      "run",
      "--write-config-to",
      "g.yaml",
      "--feature-gates",
      "kube:DRADeviceTaintRules=true",
    ]);
    expect(await taints.code).toBe(0);
    expect(taints.err()).toContain(
      "warning: setting GA feature gate DRADeviceTaintRules=true. It will be removed in a future release.",
    );
    // Locked in 1.37: upstream's refusal.
    const locked = cli(["run", "--feature-gates", "DRAPrioritizedList=false"]);
    expect(await locked.code).toBe(2);
    expect(locked.err()).toBe(
      'error: invalid argument "DRAPrioritizedList=false" for "--feature-gates" flag: cannot set feature gate DRAPrioritizedList to false, feature is locked to true\n',
    );
    // The gates of the emulated release: DRAPrioritizedList was not locked yet in 1.35.
    const older = cli([
      "run",
      "--write-config-to",
      "h.yaml",
      "--emulated-version",
      "1.35",
      "--feature-gates",
      "DRAPrioritizedList=false",
    ]);
    expect(await older.code).toBe(0);
    const notYet = cli([
      "run",
      "--emulated-version=kube=1.34",
      "--feature-gates",
      "OpportunisticBatching=false",
    ]);
    expect(await notYet.code).toBe(2);
    expect(notYet.err()).toContain(
      "cannot set feature gate OpportunisticBatching to false, feature is PreAlpha at emulated version 1.34, min compatibility version 1.33",
    );
    const range = cli(["run", "--emulated-version", "1.32"]);
    expect(await range.code).toBe(2);
    expect(range.err()).toBe(
      'error: invalid argument "1.32" for "--emulated-version" flag: emulation version 1.32 is not between [1.33, 1.37.0]\n',
    );
  });

  it("rejects bad flags and unreadable kubeconfigs with a message", async () => {
    const port = cli(["run", "--secure-port", "http"]);
    expect(await port.code).toBe(2);
    expect(port.err()).toContain('invalid value "http" for --secure-port');
    const le = cli(["run", "--leader-elect", "maybe"]);
    expect(await le.code).toBe(2);
    expect(le.err()).toContain('unexpected argument "maybe"');
    const gate = cli(["run", "--feature-gates", "NoSuchGate=true"]);
    expect(await gate.code).toBe(2);
    expect(gate.err()).toContain(
      'error: invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate',
    );
    const locked = cli(["run", "--feature-gates", "DynamicResourceAllocation=false"]);
    expect(await locked.code).toBe(2);
    expect(locked.err()).toContain(
      "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true",
    );
    const dur = cli(["run", "--leader-elect-lease-duration", "soon"]);
    expect(await dur.code).toBe(2);
    const missing = cli(["run", "--kubeconfig", "missing.yaml", "--secure-port", "0"]);
    expect(await missing.code).toBe(1);
    expect(missing.err()).toBe("error: missing.yaml: no such file or directory\n");
  });

  it("fails at once with a clear error when there is no kubeconfig and no service account", async () => {
    const saved = { ...process.env };
    delete process.env.KUBECONFIG;
    delete process.env.KUBERNETES_SERVICE_HOST;
    // No ~/.kube/config either.
    process.env.HOME = dir;
    try {
      const r = cli(["run", "--secure-port=0"]);
      expect(await r.code).toBe(1);
      expect(r.err()).toMatch(/^error: no configuration has been provided: give --kubeconfig/);
    } finally {
      process.env = saved;
    }
  });

  it("--port listens on 127.0.0.1 unless --bind-address is given (issue 22: it shared 0.0.0.0)", async () => {
    const free = await new Promise<number>((resolve) => {
      const probe = https.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML());
    const r = cli([
      "run",
      "--kubeconfig",
      "kubeconfig",
      "--secure-port=0",
      `--port=${free}`,
      "--leader-elect=false",
    ]);
    await waitFor(() => r.err().includes("Serving insecurely"), 10_000, "the plain listener");
    expect(r.err()).toContain(`address="127.0.0.1:${free}"`);
    expect((await fetch(`http://127.0.0.1:${free}/debug/pprof/heap`)).status).toBe(403);
    process.emit("SIGTERM");
    expect(await r.code).toBe(0);

    // The flags as `run` applies them.
    const applied = (...argv: string[]) => {
      const p = parseArgs(["run", ...argv]);
      if (!runCommand.flags) throw new Error("run has flags");
      const { values } = readFlags(runCommand.flags, p.lists);
      const io = {
        stdout: () => undefined,
        stderr: () => undefined,
        cwd: dir,
        env: {},
        stderrTerminal: false,
        stderrDrawing: () => undefined,
      };
      const ctx = {
        flags: values,
        args: [],
        io,
        registry: inTreeRegistry,
        pluginPackages: [],
        logger: recordingLogger(),
      };
      return applyRunFlags(ctx)?.serving;
    };
    expect(applied("--port=10251")).toMatchObject({
      bindAddress: "0.0.0.0",
      insecureBindAddress: "127.0.0.1",
    });
    expect(applied("--port=10251", "--bind-address=10.0.0.7")).toMatchObject({
      bindAddress: "10.0.0.7",
      insecureBindAddress: "10.0.0.7",
    });
    expect(
      applied(
        "--authentication-token-webhook-cache-ttl=1m",
        "--authorization-webhook-cache-authorized-ttl=0s",
        "--authorization-webhook-cache-unauthorized-ttl=2s",
      )?.authCacheTTLs,
    ).toEqual({ tokenMs: 60_000, authorizedMs: 0, unauthorizedMs: 2_000 });
    expect(applied()?.authCacheTTLs).toEqual({
      tokenMs: 10_000,
      authorizedMs: 10_000,
      unauthorizedMs: 10_000,
    });
  });

  it("is listed in the help", async () => {
    const r = cli(["--help"]);
    expect(await r.code).toBe(0);
    expect(r.out()).toMatch(/\n {2}run +Run the scheduler in a cluster/);
  });
});
