// kubesched run: a live scheduler in a real cluster, as kube-scheduler is deployed
// (upstream cmd/kube-scheduler/app/server.go Run): informers and cache sync, leader election on a
// Lease, the scheduling loop while leading, plain-HTTP /metrics and /healthz.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import type { KubeSchedulerConfiguration } from "@kubesched/config";
import { customResourcesOf, type Logger, type Registry } from "@kubesched/framework";
import type { KubeConfig } from "@kubesched/kube";
import { Scheduler, SchedulerMetrics } from "@kubesched/scheduler";
import type { CommandSpec } from "../cli";
import { loadConfigFlag, pluginFlag, resolvePath } from "./common";

/** upstream: kube-scheduler's leader-election health check tolerance (10 s). */
const maxTolerableExpiredLease = 10_000;

/** Where /metrics and /healthz are served unless --metrics-port says otherwise. */
export const defaultMetricsPort = 10251;

export interface RunOptions {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  kubeConfig: KubeConfig;
  /** Stops the scheduler (SIGINT/SIGTERM in the command). */
  signal: AbortSignal;
  /** Overrides config.leaderElection.leaderElect. */
  leaderElect?: boolean;
  /** Port for /metrics and /healthz (0: any free port); null: no HTTP server. */
  metricsPort: number | null;
  /** Where the scheduler, informers and leader election log. */
  logger: Logger;
  /** Called once the metrics server listens (with the port actually bound). */
  onListening?: (port: number) => void;
  /** Leader election identity; default `<hostname>_<uuid>` as kube-scheduler. */
  identity?: string;
  /** Informer retry backoff (tests shorten it). */
  backoff?: { initialMs: number; maxMs: number };
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The metrics and health endpoints (upstream serves them on the secure port 10259). */
function serveMetrics(
  metrics: SchedulerMetrics,
  healthy: (ready: boolean) => string | null,
  port: number,
  logger: Logger,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET") {
      res.writeHead(405).end();
    } else if (path === "/metrics") {
      metrics.text().then(
        (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType }).end(text),
        (e: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(message(e)),
      );
    } else if (path === "/healthz" || path === "/livez" || path === "/readyz") {
      const problem = healthy(path === "/readyz");
      res
        .writeHead(problem === null ? 200 : 500, { "Content-Type": "text/plain" })
        .end(problem === null ? "ok" : problem);
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolveServer, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      const bound = (server.address() as AddressInfo).port;
      logger.info(`serving /metrics and /healthz on http://0.0.0.0:${bound}`);
      resolveServer(server);
    });
  });
}

/**
 * Runs until `signal` aborts (exit code 0) or leadership is lost (1), as kube-scheduler does.
 * Informers start and sync first; with leader election, the loop runs only while leading.
 */
export async function runScheduler(opts: RunOptions): Promise<number> {
  const { config, logger, signal } = opts;
  const leaderElect = opts.leaderElect ?? config.leaderElection.leaderElect;
  // Loaded here, not at start-up: only `run` and --kubeconfig need @kubernetes/client-node.
  const { KubeClusterSource, LeaderElector } = await import("@kubesched/kube");
  const source = new KubeClusterSource({
    kubeConfig: opts.kubeConfig,
    onError: (e) => logger.warn(e.message),
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    customResources: customResourcesOf(opts.registry),
  });
  const metrics = new SchedulerMetrics();
  let synced = false;
  let elector: InstanceType<typeof LeaderElector> | null = null;
  // upstream: /healthz and /livez include the leader-election check (10 s tolerance); /readyz
  // also waits for the informers to sync.
  const healthy = (ready: boolean): string | null =>
    ready && !synced ? "informers have not synced yet" : (elector?.check(maxTolerableExpiredLease) ?? null);
  const metricsServer =
    opts.metricsPort === null ? null : await serveMetrics(metrics, healthy, opts.metricsPort, logger);
  if (metricsServer) opts.onListening?.((metricsServer.address() as AddressInfo).port);
  let cacheMetrics: ReturnType<typeof setInterval> | null = null;
  // (assigned in prepare(), which may run in the election callback)
  let sched = null as Scheduler | null;
  // Start the informers, wait for the caches, build the scheduler (once); null if aborted first.
  const prepare = async (sig: AbortSignal): Promise<Scheduler | null> => {
    if (sched) return sched;
    source.start();
    logger.info("waiting for the informer caches to sync");
    if (!(await source.waitForCacheSync(sig))) return null;
    synced = true;
    const s = await Scheduler.create({
      config,
      registry: opts.registry,
      source,
      logger,
      metrics,
    });
    sched = s;
    cacheMetrics = setInterval(() => s.updateCacheMetrics(), 1000);
    cacheMetrics.unref();
    return s;
  };
  try {
    if (!leaderElect) {
      const s = await prepare(signal);
      if (!s) return 0;
      logger.info("scheduling (leader election disabled)");
      await s.run(signal);
      return 0;
    }
    // upstream: informers start before the election unless delayCacheUntilActive.
    if (!config.delayCacheUntilActive && !(await prepare(signal))) return 0;
    const le = config.leaderElection;
    let loop: Promise<void> | null = null;
    const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
    elector = new LeaderElector({
      client: source.rawClient,
      name: le.resourceName,
      namespace: le.resourceNamespace,
      identity,
      leaseDuration: le.leaseDuration,
      renewDeadline: le.renewDeadline,
      retryPeriod: le.retryPeriod,
      callbacks: {
        onStartedLeading: (leading) => {
          logger.info(`successfully acquired lease ${le.resourceNamespace}/${le.resourceName}; scheduling`);
          loop = prepare(leading).then((s) => s?.run(leading));
        },
        onStoppedLeading: () => undefined,
        onNewLeader: (id) => {
          if (id && id !== identity) logger.info("new leader elected", { identity: id });
        },
      },
      onError: (e) => logger.warn(e.message),
    });
    logger.info(`attempting to acquire leader lease ${le.resourceNamespace}/${le.resourceName}`, {
      identity,
    });
    await elector.run(signal);
    if (loop) await loop;
    if (!signal.aborted) {
      logger.error("leaderelection lost");
      return 1;
    }
    return 0;
  } finally {
    if (cacheMetrics) clearInterval(cacheMetrics);
    if (sched) {
      sched.close();
      await sched.waitForBindings();
    }
    await source.stop();
    if (metricsServer) {
      await new Promise<void>((r) => {
        metricsServer.close(() => r());
        metricsServer.closeAllConnections();
      });
    }
  }
}

export const runCommand: CommandSpec = {
  name: "run",
  summary: "Run the scheduler in a cluster: informers, pods/binding, events, leader election, metrics.",
  flags: [
    {
      name: "config",
      value: "FILE",
      description:
        "A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); default: upstream's defaults.",
    },
    pluginFlag,
    {
      name: "kubeconfig",
      value: "PATH",
      description:
        "kubeconfig file; default: clientConnection.kubeconfig, else $KUBECONFIG, ~/.kube/config or the in-cluster service account.",
    },
    {
      name: "master",
      value: "URL",
      description: "The API server address; overrides the kubeconfig's server.",
    },
    {
      name: "metrics-port",
      value: "N",
      default: String(defaultMetricsPort),
      description: "Port for plain-HTTP /metrics, /healthz, /readyz and /livez (0: any free port; -1: none).",
    },
    {
      name: "leader-elect",
      value: "BOOL",
      values: ["true", "false"],
      description: "Override leaderElection.leaderElect (default true: a Lease in kube-system).",
    },
  ],
  async run(ctx) {
    const portFlag = typeof ctx.flags["metrics-port"] === "string" ? ctx.flags["metrics-port"] : "";
    const port = portFlag === "" ? defaultMetricsPort : Number(portFlag);
    if (!Number.isInteger(port) || port < -1 || port > 65535) {
      ctx.io.stderr(
        `error: invalid value "${portFlag}" for --metrics-port: must be an integer from -1 to 65535\n`,
      );
      return 2;
    }
    const config = loadConfigFlag(ctx);
    if (config === null) return 1;
    const kubeconfigFlag = ctx.flags.kubeconfig;
    const kubeconfigPath =
      typeof kubeconfigFlag === "string"
        ? resolvePath(ctx, kubeconfigFlag)
        : config.clientConnection.kubeconfig || undefined;
    const master = typeof ctx.flags.master === "string" ? ctx.flags.master : undefined;
    let kubeConfig: KubeConfig;
    try {
      const { buildKubeConfig } = await import("@kubesched/kube");
      kubeConfig = buildKubeConfig(kubeconfigPath, master);
    } catch (e) {
      ctx.io.stderr(
        `error: cannot load the kubeconfig${kubeconfigPath ? ` ${kubeconfigPath}` : ""}: ${message(e)}\n`,
      );
      return 1;
    }
    const ac = new AbortController();
    const stop = () => ac.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    try {
      return await runScheduler({
        config,
        registry: ctx.registry,
        kubeConfig,
        signal: ac.signal,
        ...(ctx.flags["leader-elect"] !== undefined
          ? { leaderElect: ctx.flags["leader-elect"] === "true" }
          : {}),
        metricsPort: port === -1 ? null : port,
        logger: ctx.logger,
      });
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  },
};
