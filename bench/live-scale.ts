// Live mode at the size of a real cluster: `kubesched run --kubeconfig …` as a process of its own
// against the API-server emulator holding 10,000 nodes and 150,000 running pods as an API server
// returns them (managedFields, last-applied-configuration, full status: bench/lib/snapshot-files.ts)
// plus 1,000 pending pods. The emulator runs in this process, the scheduler in the child, so the
// child's peak RSS (/proc/PID/status VmHWM) is the scheduler's alone. Lists are paged (the emulator
// is told to page lists at resourceVersion 0 too, as a watch cache with pagination does).
// Reported: the time to sync the informer caches, to bind the pending pods, the scheduler's peak
// RSS, and against the same CLI connected to an empty cluster. Decisions are checked before any
// number is printed: each pending pod bound exactly once, no running pod bound again.
// What trimming saves: the informer transform has no switch, so the heap of the objects as parsed
// from the wire is measured with and without trimObject on a sample (a child with --expose-gc)
// and scaled to the cluster.
//   pnpm bench:live-scale [--nodes N] [--pods N] [--pending N] [--json FILE]
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FakeApiServer } from "@kubesched/kube/testing";
import { trimObject } from "@kubesched/scheduler";
import { apiServerCluster, pendingPodKeys } from "./lib/api-server-cluster";
import { apiServerNode, apiServerPod } from "./lib/snapshot-files";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "10000" },
    pods: { type: "string", default: "150000" },
    pending: { type: "string", default: "1000" },
    json: { type: "string" },
    "estimate-child": { type: "boolean" },
  },
});

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), "..");
const bin = join(root, "apps", "kubesched", "src", "bin.ts");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => bytes / 2 ** 20;

/** VmHWM and VmRSS of a process, in MiB (Linux). */
function memoryOf(pid: number): { hwm: number; rss: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
    return { hwm: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
  } catch {
    return null;
  }
}

interface RunResult {
  /** From spawn to the first request the process sent (start-up: node, tsx, the CLI). */
  startS: number;
  /** From the first request to both Node and Pod watches open (the lists done, the caches synced). */
  syncS: number;
  /** From the sync to the last pending pod bound. */
  bindS: number;
  hwmAfterSyncMB: number;
  hwmMB: number;
  rssEndMB: number;
  listRequests: number;
  exitCode: number | null;
}

/** `kubesched run` against `server` until `pending` bindings are done, then SIGTERM. */
async function runCli(server: FakeApiServer, pending: number): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), "kubesched-live-scale-"));
  const kubeconfig = join(dir, "kubeconfig");
  writeFileSync(kubeconfig, server.kubeConfigYAML());
  let stderr = "";
  const t0 = Date.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", bin, "run", "--kubeconfig", kubeconfig, "--secure-port=0", "--leader-elect=false"],
    // (from the package, where `tsx` resolves; node's own heap limit, whatever this process was given)
    { cwd: dirname(bin), stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } },
  );
  child.stderr?.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-20_000);
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let exited = false;
  void exit.then(() => {
    exited = true;
  });
  const pid = child.pid as number;
  let hwm = 0;
  const sample = () => {
    const m = memoryOf(pid);
    if (m) hwm = Math.max(hwm, m.hwm);
    return m;
  };
  const until = async (what: string, fn: () => boolean, timeoutMs = 30 * 60_000): Promise<number> => {
    const deadline = Date.now() + timeoutMs;
    while (!fn()) {
      if (exited) throw new Error(`kubesched run exited waiting for ${what}; stderr:\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr:\n${stderr}`);
      sample();
      await sleep(100);
    }
    sample();
    return Date.now();
  };
  try {
    const first = await until("the first request", () => server.requests.length > 0);
    const synced = await until(
      "the caches to sync",
      () => server.openWatches("Pod") > 0 && server.openWatches("Node") > 0,
    );
    const hwmAfterSync = hwm;
    const bound = await until("the pending pods' bindings", () => server.bindings.size >= pending);
    // Anything bound twice or a running pod bound again would show in the next seconds.
    await sleep(3000);
    const end = sample();
    child.kill("SIGTERM");
    const exitCode = await exit;
    return {
      startS: (first - t0) / 1000,
      syncS: (synced - first) / 1000,
      bindS: (bound - synced) / 1000,
      hwmAfterSyncMB: hwmAfterSync,
      hwmMB: hwm,
      rssEndMB: end?.rss ?? 0,
      listRequests: server.requests.filter((r) => r.info.verb === "list").length,
      exitCode,
    };
  } finally {
    if (!exited) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each pending pod bound exactly once, no running pod bound. */
function verify(server: FakeApiServer, running: number, pending: number, nodes: number): void {
  const twice = [...server.bindings.values()].filter((n) => n !== 1).length;
  const unbound = server.list("Pod").filter((p) => !p.spec?.nodeName).length;
  const pendingKeys = new Set(pendingPodKeys({ nodes, running, pending }));
  const strangers = [...server.bindings.keys()].filter((k) => !pendingKeys.has(k)).length;
  if (server.bindings.size !== pending || twice !== 0 || unbound !== 0 || strangers !== 0) {
    throw new Error(
      `bad decisions: ${server.bindings.size} bound of ${pending}, ${twice} bound twice, ${unbound} unbound, ${strangers} bindings of running pods`,
    );
  }
}

interface Estimate {
  kind: string;
  sample: number;
  wireBytes: number;
  wireBytesTrimmed: number;
  heapBytes: number;
  heapBytesTrimmed: number;
}

/** In the child (--expose-gc): heap per object parsed from the wire, before and after trimObject. */
function estimateChild(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc");
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const out: Estimate[] = [];
  for (const [kind, sample, make] of [
    ["Node", 2000, (i: number) => apiServerNode(i)],
    ["Pod", 10_000, (i: number) => apiServerPod(i, `node-${String(i % 2000).padStart(5, "0")}`)],
  ] as const) {
    const wire = Array.from({ length: sample }, (_, i) => JSON.stringify(make(i)));
    const wireBytes = wire.reduce((n, s) => n + s.length, 0);
    const before = heap();
    const objs = wire.map((s) => JSON.parse(s) as unknown);
    const parsed = heap();
    for (const o of objs) trimObject(o);
    const trimmed = heap();
    const wireBytesTrimmed = objs.reduce((n: number, o) => n + JSON.stringify(o).length, 0);
    out.push({
      kind,
      sample,
      wireBytes,
      wireBytesTrimmed,
      heapBytes: parsed - before,
      heapBytesTrimmed: trimmed - before,
    });
    objs.length = 0;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function estimate(): Estimate[] {
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", self, "--estimate-child"], {
    encoding: "utf8",
    cwd: root,
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`estimate failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string) as Estimate[];
}

async function main(): Promise<void> {
  const nodes = Number(values.nodes);
  const running = Number(values.pods);
  const pending = Number(values.pending);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
  process.stderr.write(`machine: ${machine}; load average at start ${load()}\n`);

  process.stderr.write("estimate: object heap with and without trimming ...\n");
  const est = estimate();

  process.stderr.write("baseline: kubesched run against an empty cluster ...\n");
  const empty = await FakeApiServer.start({ watchCacheIgnoresLimit: false });
  const base = await runCli(empty, 0);
  await empty.close();

  process.stderr.write(`cluster: ${nodes} nodes, ${running} running pods, ${pending} pending ...\n`);
  const tFill = Date.now();
  const server = await apiServerCluster({ nodes, running, pending });
  process.stderr.write(
    `  emulator filled in ${((Date.now() - tFill) / 1000).toFixed(0)} s; load ${load()}\n`,
  );
  const r = await runCli(server, pending);
  verify(server, running, pending, nodes);
  await server.close();
  const loadEnd = load();

  const perObject = (
    e: Estimate | undefined,
    key: "heapBytes" | "heapBytesTrimmed" | "wireBytes" | "wireBytesTrimmed",
  ) => (e ? e[key] / e.sample : 0);
  const [en, ep] = [est.find((e) => e.kind === "Node"), est.find((e) => e.kind === "Pod")];
  const objs = (key: "heapBytes" | "heapBytesTrimmed" | "wireBytes" | "wireBytesTrimmed") =>
    mb(nodes * perObject(en, key) + (running + pending) * perObject(ep, key));
  const rows: [string, string, string][] = [
    ["machine", machine, `load average ${loadEnd} (1/5/15 min) at the end`],
    [
      "cluster",
      `${nodes} nodes, ${running} running pods, ${pending} pending`,
      `wire JSON ${objs("wireBytes").toFixed(0)} MB (${objs("wireBytesTrimmed").toFixed(0)} MB trimmed); ${r.listRequests} list requests, all kinds (500 a page)`,
    ],
    ["start-up (node, tsx, CLI)", `${r.startS.toFixed(1)} s`, "spawn to the first request"],
    ["informer caches synced", `${r.syncS.toFixed(1)} s`, "first request to the Node and Pod watches open"],
    [
      `${pending} pending pods bound`,
      `${r.bindS.toFixed(1)} s`,
      `after the sync; each exactly once (qps 50, burst 100: clientConnection defaults)`,
    ],
    [
      "peak RSS of kubesched run",
      `${r.hwmMB.toFixed(0)} MB`,
      `VmHWM; ${r.hwmAfterSyncMB.toFixed(0)} MB at the sync, RSS ${r.rssEndMB.toFixed(0)} MB at the end; exit ${r.exitCode}`,
    ],
    [
      "peak RSS against an empty cluster",
      `${base.hwmMB.toFixed(0)} MB`,
      `the process itself (node, tsx compiling the CLI); exit ${base.exitCode}`,
    ],
    [
      "heap of the cached objects, trimmed",
      `${objs("heapBytesTrimmed").toFixed(0)} MB`,
      `${perObject(ep, "heapBytesTrimmed").toFixed(0)} B a pod, ${perObject(en, "heapBytesTrimmed").toFixed(0)} B a node (sample parsed, trimObject, scaled)`,
    ],
    [
      "heap of the same objects, untrimmed",
      `${objs("heapBytes").toFixed(0)} MB`,
      `${perObject(ep, "heapBytes").toFixed(0)} B a pod, ${perObject(en, "heapBytes").toFixed(0)} B a node: what trimming saves is the difference`,
    ],
  ];
  process.stdout.write(`\n| measure | result | detail |\n| --- | --- | --- |\n`);
  for (const [a, b, c] of rows) process.stdout.write(`| ${a} | ${b} | ${c} |\n`);
  if (values.json)
    writeFileSync(values.json, JSON.stringify({ run: r, baseline: base, estimate: est, rows }, null, 2));
}

if (values["estimate-child"]) estimateChild();
else await main();
