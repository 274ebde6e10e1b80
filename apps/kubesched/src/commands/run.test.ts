import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli";
import { runScheduler } from "./run";

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

function config(): KubeSchedulerConfiguration {
  const c = defaultConfig({ registry: inTreeRegistry });
  // Short leader-election timings (ms): lease 1 s, renew deadline 400 ms, retry 100 ms.
  c.leaderElection = { ...c.leaderElection, leaseDuration: 1000, renewDeadline: 400, retryPeriod: 100 };
  return c;
}

const bound = () => server.requestsTo("POST", "/api/v1/namespaces/default/pods/p1/binding").length > 0;
const lease = () => server.get("Lease", "kube-system", "kube-scheduler");

describe("runScheduler", () => {
  it("schedules without leader election and serves /metrics and /healthz", async () => {
    const ac = new AbortController();
    const logger = recordingLogger();
    let port = 0;
    const done = runScheduler({
      config: config(),
      registry: inTreeRegistry,
      kubeConfig: server.kubeConfig(),
      signal: ac.signal,
      leaderElect: false,
      metricsPort: 0,
      logger,
      onListening: (p) => {
        port = p;
      },
    });
    await waitFor(bound, 5000, "the binding");
    await waitFor(() =>
      logger.entries.some(
        (e) =>
          e.msg === "Successfully bound pod to node" &&
          e.fields.pod === "default/p1" &&
          e.fields.node === "n1",
      ),
    );
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain(
      'scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1',
    );
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/nope`)).status).toBe(404);
    ac.abort();
    expect(await done).toBe(0);
    expect(server.requestsTo("POST", "/apis/coordination.k8s.io/")).toEqual([]);
    await waitFor(() => server.openWatches("Pod") === 0, 2000, "the watches to close");
  });

  it("schedules only once it holds the Lease, and releases it on shutdown", async () => {
    const ac = new AbortController();
    const logger = recordingLogger();
    const done = runScheduler({
      config: config(),
      registry: inTreeRegistry,
      kubeConfig: server.kubeConfig(),
      signal: ac.signal,
      metricsPort: null,
      logger,
      identity: "me",
    });
    await waitFor(bound, 5000, "the binding");
    expect(lease()?.spec.holderIdentity).toBe("me");
    expect(logger.entries.map((e) => e.msg)).toContain(
      "successfully acquired lease kube-system/kube-scheduler; scheduling",
    );
    ac.abort();
    expect(await done).toBe(0);
    expect(lease()?.spec).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1 });
  });

  it("with delayCacheUntilActive, starts the informers only once it leads", async () => {
    const c = config();
    c.delayCacheUntilActive = true;
    const ac = new AbortController();
    const done = runScheduler({
      config: c,
      registry: inTreeRegistry,
      kubeConfig: server.kubeConfig(),
      signal: ac.signal,
      metricsPort: null,
      logger: recordingLogger(),
      identity: "me",
    });
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
    const done = runScheduler({
      config: config(),
      registry: inTreeRegistry,
      kubeConfig: server.kubeConfig(),
      signal: new AbortController().signal,
      metricsPort: null,
      logger,
      identity: "me",
    });
    await waitFor(() => lease()?.spec.holderIdentity === "me", 5000, "the lease");
    const now = new Date().toISOString().replace("Z", "000Z");
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
    expect(await done).toBe(1);
    expect(logger.entries.at(-1)).toMatchObject({ level: "error", msg: "leaderelection lost" });
  });
});

describe("kubesched run", () => {
  function cli(argv: string[]) {
    let stdout = "";
    let stderr = "";
    const code = runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: dir });
    return { code, out: () => stdout, err: () => stderr };
  }

  it("runs against the kubeconfig's server until SIGTERM", async () => {
    writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML());
    const r = cli(["run", "--kubeconfig", "kubeconfig", "--metrics-port", "-1", "--leader-elect=false"]);
    await waitFor(bound, 5000, "the binding");
    process.emit("SIGTERM");
    expect(await r.code).toBe(0);
    expect(r.err()).toContain("scheduling (leader election disabled)");
    expect(process.listenerCount("SIGTERM")).toBe(0);
  });

  it("--master overrides the kubeconfig's server", async () => {
    writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML().replace(server.url, "http://127.0.0.1:1"));
    const r = cli([
      "run",
      "--kubeconfig",
      "kubeconfig",
      "--master",
      server.url,
      "--metrics-port=-1",
      "--leader-elect",
      "false",
    ]);
    await waitFor(bound, 5000, "the binding");
    process.emit("SIGINT");
    expect(await r.code).toBe(0);
  });

  it("rejects bad flags and unreadable kubeconfigs with a message", async () => {
    const port = cli(["run", "--metrics-port", "http"]);
    expect(await port.code).toBe(2);
    expect(port.err()).toContain('invalid value "http" for --metrics-port');
    const le = cli(["run", "--leader-elect", "maybe"]);
    expect(await le.code).toBe(2);
    const missing = cli(["run", "--kubeconfig", "missing.yaml", "--metrics-port", "-1"]);
    expect(await missing.code).toBe(1);
    expect(missing.err()).toMatch(/^error: cannot load the kubeconfig .*missing\.yaml: ENOENT/);
  });

  it("is listed in the help", async () => {
    const r = cli(["--help"]);
    expect(await r.code).toBe(0);
    expect(r.out()).toMatch(/\n {2}run +Run the scheduler in a cluster/);
  });
});
