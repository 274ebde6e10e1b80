// Live mode through the API-server emulator: `kubesched run`'s code path (runScheduler) over
// HTTP, list/watch, bindings and events, as in a cluster — its throughput and how long it takes
// to get over each fault. Decisions are checked before any number is printed: every pod bound
// exactly once, no node over its allocatable cpu or pod count.
//   pnpm bench:live [--only NAME] [--json FILE]
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type RunOptions, runScheduler } from "@kubesched/cli";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { FakeApiServer, type RecordedRequest } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createLogger } from "@kubesched/scheduler";
import { makeNode, makePod } from "./lib/templates";

const { values } = parseArgs({
  options: { only: { type: "string" }, json: { type: "string" } },
});

interface Row {
  scenario: string;
  value: string;
  detail: string;
}
const rows: Row[] = [];

const logger = createLogger({ write: () => undefined });

function config(o: { leaderElect?: boolean; qps?: number; burst?: number } = {}): KubeSchedulerConfiguration {
  const c = defaultConfig({ registry: inTreeRegistry });
  c.leaderElection.leaderElect = o.leaderElect ?? false;
  if (o.qps !== undefined) c.clientConnection.qps = o.qps;
  if (o.burst !== undefined) c.clientConnection.burst = o.burst;
  return c;
}

async function cluster(nodes: number, pods: number): Promise<FakeApiServer> {
  const server = await FakeApiServer.start();
  for (let i = 0; i < nodes; i++) server.put("Node", makeNode(), { silent: true });
  for (let i = 0; i < pods; i++) server.put("Pod", makePod("pod-default", "default"), { silent: true });
  return server;
}

function start(server: FakeApiServer, o: Partial<RunOptions> & { config: KubeSchedulerConfiguration }) {
  const ac = new AbortController();
  const done = runScheduler({
    registry: inTreeRegistry,
    kubeConfig: server.kubeConfig(),
    signal: ac.signal,
    logger,
    serving: null,
    ...o,
  });
  return { ac, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, fn: () => boolean, timeoutMs = 300_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
  return Date.now();
}

/** The decisions: each pod bound once, every node within its allocatable cpu and pods. */
function verify(server: FakeApiServer, pods: number): void {
  const all = server.list("Pod");
  const pending = all.filter((p) => !p.spec?.nodeName).length;
  const twice = [...server.bindings.values()].filter((n) => n !== 1).length;
  if (pending !== 0 || server.bindings.size !== pods || twice !== 0) {
    throw new Error(`bad decisions: ${pending} pending, ${server.bindings.size} bound, ${twice} bound twice`);
  }
  const perNode = new Map<string, { cpu: number; pods: number }>();
  for (const p of all) {
    const n = perNode.get(p.spec.nodeName) ?? { cpu: 0, pods: 0 };
    n.cpu += 100; // pod-default: 100m
    n.pods++;
    perNode.set(p.spec.nodeName, n);
  }
  for (const [node, n] of perNode) {
    if (n.cpu > 4000 || n.pods > 110) throw new Error(`node ${node} over capacity: ${JSON.stringify(n)}`);
  }
}

async function scenario(name: string, fn: () => Promise<void>): Promise<void> {
  if (values.only && !name.toLowerCase().includes(values.only.toLowerCase())) return;
  process.stderr.write(`${name} ...\n`);
  await fn();
}

function add(scenario: string, value: string, detail: string): void {
  rows.push({ scenario, value, detail });
  process.stderr.write(`  ${scenario}: ${value} (${detail})\n`);
}

/** Binds `pods` pods on `nodes` nodes; times from start and from the first to the last binding. */
async function bindAll(
  nodes: number,
  pods: number,
  cfg: KubeSchedulerConfiguration,
  prepare: (s: FakeApiServer) => void = () => undefined,
  extra: Partial<RunOptions> = {},
): Promise<{ total: number; firstToLast: number; server: FakeApiServer }> {
  const server = await cluster(nodes, pods);
  prepare(server);
  const t0 = Date.now();
  const { ac, done } = start(server, { config: cfg, ...extra });
  const first = await until("the first binding", () => server.bindings.size > 0);
  const last = await until(
    `${pods} bindings`,
    () => server.bindings.size === pods && server.list("Pod").every((p) => p.spec?.nodeName),
  );
  ac.abort();
  await done;
  verify(server, pods);
  await server.close();
  return { total: (last - t0) / 1000, firstToLast: (last - first) / 1000, server };
}

const isBinding = (r: RecordedRequest) => r.path.endsWith("/binding");

await scenario("throughput", async () => {
  for (const [label, qps, burst] of [
    ["clientConnection defaults (qps 50, burst 100)", 50, 100],
    ["qps 5000, burst 5000 (scheduler_perf's client)", 5000, 5000],
  ] as const) {
    const r = await bindAll(500, 5000, config({ qps, burst }), undefined, {
      maxInFlightBindings: Math.max(100, burst),
    });
    add(
      `5000 pods on 500 nodes, ${label}`,
      `${(5000 / r.firstToLast).toFixed(0)} pods/s`,
      `first to last binding ${r.firstToLast.toFixed(1)} s; ${r.total.toFixed(1)} s from start incl. list/sync`,
    );
  }
});

await scenario("watch drops", async () => {
  const base = await bindAll(50, 500, config());
  add("500 pods, 50 nodes, no fault (baseline)", `${base.total.toFixed(1)} s`, "all bound, from start");
  for (const n of [1, 3, 20, 100]) {
    const r = await bindAll(50, 500, config(), (s) => s.setCloseWatchesAfter(n));
    add(
      `watch ends after every ${n} event(s)`,
      `${r.total.toFixed(1)} s`,
      `all 500 bound (+${(r.total - base.total).toFixed(1)} s vs baseline)`,
    );
  }
});

await scenario("binding faults", async () => {
  const base = await bindAll(50, 500, config());
  for (const status of [409, 500, 404]) {
    const r = await bindAll(50, 500, config(), (s) =>
      s.fail({ method: "POST", path: /\/binding$/, status, times: 100, match: isBinding }),
    );
    add(
      `first 100 bindings answered ${status}`,
      `${r.total.toFixed(1)} s`,
      `all 500 bound (+${(r.total - base.total).toFixed(1)} s vs baseline ${base.total.toFixed(1)} s)`,
    );
  }
  const r = await bindAll(50, 500, config(), (s) =>
    s.fail({ method: "POST", path: /\/binding$/, hang: true, times: 20 }),
  );
  add(
    "first 20 bindings never answered (60 s request deadline)",
    `${r.total.toFixed(1)} s`,
    `all 500 bound; the 20 retried after their deadline (+${(r.total - base.total).toFixed(1)} s)`,
  );
});

await scenario("shutdown", async () => {
  const server = await cluster(50, 500);
  server.fail({ method: "POST", path: /\/binding$/, hang: true, times: Number.POSITIVE_INFINITY });
  server.fail({ method: "POST", path: "/apis/events.k8s.io/", hang: true, times: Number.POSITIVE_INFINITY });
  const { ac, done } = start(server, { config: config({ leaderElect: true }), identity: "a" });
  await until("hung bindings", () => server.hungRequests().length >= 50);
  const t = Date.now();
  ac.abort();
  const code = await done;
  add(
    "SIGTERM with bindings and events hanging",
    `${((Date.now() - t) / 1000).toFixed(1)} s to exit ${code}`,
    "5 s binding grace period, lease left to expire",
  );
  await server.close();
});

await scenario("lost lease", async () => {
  const server = await cluster(50, 500);
  server.fail({ method: "POST", path: /\/binding$/, hang: true, times: Number.POSITIVE_INFINITY });
  const { done } = start(server, { config: config({ leaderElect: true }), identity: "a" });
  await until("hung bindings", () => server.hungRequests().length >= 50);
  const t = Date.now();
  server.stealLease("kube-system", "kube-scheduler", "other");
  const code = await done;
  add(
    "lease taken by another holder while bindings hang",
    `${((Date.now() - t) / 1000).toFixed(1)} s to exit ${code}`,
    "lease 15 s / renew deadline 10 s / retry 2 s",
  );
  await server.close();
});

await scenario("leader takeover", async () => {
  for (const crash of [false, true]) {
    const server = await cluster(50, 2000);
    const a = start(server, { config: config({ leaderElect: true, qps: 20, burst: 20 }), identity: "a" });
    await until(
      "a leads",
      () => server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity === "a",
    );
    const b = start(server, { config: config({ leaderElect: true }), identity: "b" });
    await until("some bindings", () => server.bindings.size >= 100);
    const t = Date.now();
    if (crash) {
      // a can no longer write its lease (as if it stopped): it gives up after its renew deadline
      // without releasing; b waits out the lease it last saw change.
      server.fail({
        method: "PUT",
        path: "/apis/coordination.k8s.io/",
        hang: true,
        times: Number.POSITIVE_INFINITY,
        match: (r) => (r.body as { spec?: { holderIdentity?: string } })?.spec?.holderIdentity === "a",
      });
    } else a.ac.abort();
    await until(
      "b leads",
      () => server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity === "b",
      120_000,
    );
    const led = Date.now();
    const before = server.bindings.size;
    await until("b binds", () => server.bindings.size > before + 10);
    add(
      crash
        ? "leader takeover after the leader stops renewing"
        : "leader takeover after SIGTERM (lease released)",
      `${((led - t) / 1000).toFixed(1)} s to the new leader`,
      `${((Date.now() - t) / 1000).toFixed(1)} s to its bindings; a exited ${await a.done}`,
    );
    const progress = setInterval(
      () =>
        process.stderr.write(
          `    bound ${server.bindings.size}, pending ${server.list("Pod").filter((p) => !p.spec?.nodeName).length}, hung ${server.hungRequests().length}\n`,
        ),
      5000,
    );
    await until("all bound", () => server.bindings.size === 2000, 900_000);
    clearInterval(progress);
    b.ac.abort();
    await b.done;
    verify(server, 2000);
    await server.close();
  }
});

process.stdout.write(`\n| scenario | result | detail |\n| --- | --- | --- |\n`);
for (const r of rows) process.stdout.write(`| ${r.scenario} | ${r.value} | ${r.detail} |\n`);
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
