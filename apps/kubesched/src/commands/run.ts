// kubesched run: a live scheduler in a real cluster, as kube-scheduler is deployed (upstream
// cmd/kube-scheduler/app/server.go Run and options/options.go): kube-scheduler's flags, informers
// and cache sync, leader election on a Lease, the scheduling loop while leading, secure serving
// of /healthz /livez /readyz /metrics /configz.
//
// Stopping is bounded, whatever the API server does:
// - SIGTERM/SIGINT: stop popping pods, give the bindings in flight a grace period (5 s), release
//   the lease if they all finished (if not, abort them and let the lease expire: an aborted
//   binding may still land), stop the informers and the event recorder, exit 0.
// - Lost leadership: exit 1 at once (bindings in flight are aborted), as upstream's
//   OnStoppedLeading does.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import {
  configToYAML,
  encodeConfig,
  type KubeSchedulerConfiguration,
  parseDuration,
  validateConfig,
} from "@kubesched/config";
import {
  customResourcesOf,
  defaultFeatures,
  type Features,
  formatFieldError,
  type Logger,
  type Registry,
} from "@kubesched/framework";
import type { BackoffConfig, KubeConfig } from "@kubesched/kube";
import { Scheduler, SchedulerMetrics } from "@kubesched/scheduler";
import pkg from "../../package.json" with { type: "json" };
import type { CommandContext, CommandSpec, FlagSpec } from "../cli";
import { loadConfigFlag, pluginFlag, resolvePath } from "./common";
import { parseFeatureGates } from "./feature-gates";
import {
  defaultAlwaysAllowPaths,
  defaultSecurePort,
  type HealthCheck,
  type Serving,
  ServingError,
  startServing,
  type TLSFiles,
} from "./serving";

/** upstream: leaderelection.NewLeaderHealthzAdaptor(time.Second * 20) in options.go. */
export const maxTolerableExpiredLease = 20_000;
/** How long in-flight bindings get to finish at shutdown. */
export const defaultBindingGracePeriodMs = 5_000;
/** Binding cycles in flight at most (the API client's burst). */
export const defaultMaxInFlightBindings = 100;

export interface ServingFlags {
  bindAddress: string;
  /** 0: off; -1: any free port (tests). */
  securePort: number;
  /** Plain HTTP without authentication; 0: off; -1: any free port (tests). */
  insecurePort: number;
  tls: TLSFiles;
  alwaysAllowPaths: string[];
}

export interface RunOptions {
  /** The effective configuration (flags applied). */
  config: KubeSchedulerConfiguration;
  registry: Registry;
  kubeConfig: KubeConfig;
  /** Stops the scheduler (SIGINT/SIGTERM in the command). */
  signal: AbortSignal;
  /** Where the scheduler, informers and leader election log. */
  logger: Logger;
  /** --feature-gates over the release's defaults. */
  features?: Partial<Features>;
  /** The endpoints' servers; null: none. */
  serving: ServingFlags | null;
  /** Called once the servers listen. */
  onListening?: (serving: Serving) => void;
  /** Leader election identity; default `<hostname>_<uuid>` as kube-scheduler. */
  identity?: string;
  /** Grace period of in-flight bindings at shutdown (default 5 s). */
  bindingGracePeriodMs?: number;
  /** Binding cycles in flight at most (default 100). */
  maxInFlightBindings?: number;
  /** Deadline of every API request (default 60 s). */
  requestTimeoutMs?: number;
  /** Informer retry backoff (tests shorten it). */
  backoff?: BackoffConfig;
  /** Event write retry delay (tests shorten it). */
  eventRetrySleepMs?: number;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Runs until `signal` aborts (exit code 0) or leadership is lost (1), as kube-scheduler does;
 * 1 also when the servers cannot start. Informers start and sync first (unless
 * delayCacheUntilActive); with leader election, the loop runs only while leading.
 */
export async function runScheduler(opts: RunOptions): Promise<number> {
  const { config, logger, signal } = opts;
  const le = config.leaderElection;
  const leaderElect = le.leaderElect;
  const metrics = new SchedulerMetrics();
  // Loaded here, not at start-up: only `run` and --kubeconfig need @kubernetes/client-node.
  const { ClientMetrics, KubeClusterSource, LeaderElector } = await import("@kubesched/kube");
  const clientMetrics = new ClientMetrics(metrics.registry);
  const source = new KubeClusterSource({
    kubeConfig: opts.kubeConfig,
    qps: config.clientConnection.qps,
    burst: config.clientConnection.burst,
    metrics: clientMetrics,
    logger,
    onError: (e) => logger.warn(e.message),
    customResources: customResourcesOf(opts.registry),
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    ...(opts.eventRetrySleepMs !== undefined ? { eventRetrySleepMs: opts.eventRetrySleepMs } : {}),
  });
  logger.info("Starting Kubernetes Scheduler", { version: `kubesched ${pkg.version}` });

  let synced = false;
  let elector: InstanceType<typeof LeaderElector> | null = null;
  // upstream: /healthz and /readyz include the leader-election watchdog; /readyz also fails once
  // shutting down and until the handlers have synced.
  const leaderCheck: HealthCheck = {
    name: "leaderElection",
    check: () => elector?.check(maxTolerableExpiredLease) ?? null,
  };
  let serving: Serving | null = null;
  if (opts.serving) {
    const s = opts.serving;
    try {
      serving = await startServing({
        bindAddress: s.bindAddress,
        securePort: s.securePort,
        insecurePort: s.insecurePort,
        tls: s.tls,
        alwaysAllowPaths: s.alwaysAllowPaths,
        authClient: source.makeClient("auth-delegator"),
        endpoints: {
          healthz: leaderElect ? [leaderCheck] : [],
          livez: [],
          readyz: [
            ...(leaderElect ? [leaderCheck] : []),
            { name: "shutdown", check: () => (signal.aborted ? "process is shutting down" : null) },
            {
              name: "sched-handler-sync",
              check: () => (synced ? null : "handlers are not fully synchronized"),
            },
          ],
          metrics: async () => ({ contentType: metrics.registry.contentType, text: await metrics.text() }),
          configz: () => encodeConfig(config, opts.registry),
          profiling: config.enableProfiling,
          logger,
        },
      });
    } catch (e) {
      if (!(e instanceof ServingError)) throw e;
      logger.error(e.message);
      return 1;
    }
    opts.onListening?.(serving);
  }

  const maxInFlightBindings = opts.maxInFlightBindings ?? defaultMaxInFlightBindings;
  let cacheMetrics: ReturnType<typeof setInterval> | null = null;
  // (assigned in prepare(), which may run in the election callback)
  let sched = null as Scheduler | null;
  // Start the informers, wait for the caches, build the scheduler (once); null if aborted first.
  const prepare = async (sig: AbortSignal): Promise<Scheduler | null> => {
    if (sched) return sched;
    source.start();
    logger.info("Waiting for the informer caches to sync");
    if (!(await source.waitForCacheSync(sig))) return null;
    synced = true;
    const s = await Scheduler.create({
      config,
      registry: opts.registry,
      source,
      logger,
      metrics,
      ...(opts.features ? { features: opts.features } : {}),
    });
    sched = s;
    cacheMetrics = setInterval(() => s.updateCacheMetrics(), 1000);
    cacheMetrics.unref();
    return s;
  };
  // The scheduling loop has stopped: give its bindings the grace period; true when none is left.
  const finishBindings = async (s: Scheduler): Promise<boolean> => {
    if (s.inflightBindings() === 0) return true;
    const grace = opts.bindingGracePeriodMs ?? defaultBindingGracePeriodMs;
    logger.info("Waiting for in-flight bindings", { bindings: s.inflightBindings(), gracePeriodMs: grace });
    if (await s.waitForBindings(AbortSignal.timeout(grace))) return true;
    logger.warn("Giving up on bindings still in flight after the grace period", {
      bindings: s.inflightBindings(),
    });
    source.abortWrites("the scheduler is shutting down");
    return false;
  };
  try {
    if (!leaderElect) {
      const s = await prepare(signal);
      if (!s) return 0;
      logger.info("Scheduling (leader election disabled)");
      await s.run(signal, { maxInFlightBindings });
      await finishBindings(s);
      return 0;
    }
    // upstream: informers start before the election unless delayCacheUntilActive.
    if (!config.delayCacheUntilActive && !(await prepare(signal))) return 0;
    let loop: Promise<void> | null = null;
    const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
    elector = new LeaderElector({
      client: source.makeClient("leader-election"),
      name: le.resourceName,
      namespace: le.resourceNamespace,
      identity,
      leaseDuration: le.leaseDuration,
      renewDeadline: le.renewDeadline,
      retryPeriod: le.retryPeriod,
      releaseOnCancel: true,
      metrics: clientMetrics,
      metricsName: "kube-scheduler",
      // Release the lease only once nothing done under it can still land.
      beforeRelease: async () => {
        await loop;
        const s = sched;
        if (!s || (await finishBindings(s))) return true;
        logger.warn("Not releasing the lease: bindings were abandoned; it expires on its own", {
          lease: `${le.resourceNamespace}/${le.resourceName}`,
        });
        return false;
      },
      callbacks: {
        onStartedLeading: (leading) => {
          logger.info("Successfully acquired lease", { lock: `${le.resourceNamespace}/${le.resourceName}` });
          loop = prepare(leading).then((s) => s?.run(leading, { maxInFlightBindings }));
        },
        onStoppedLeading: () => undefined,
        onNewLeader: (id) => {
          if (id && id !== identity) logger.info("New leader elected", { identity: id });
        },
      },
      onError: (e) => logger.warn(e.message),
    });
    logger.info("Attempting to acquire leader lease...", {
      lock: `${le.resourceNamespace}/${le.resourceName}`,
      identity,
    });
    await elector.run(signal);
    if (!signal.aborted) {
      // upstream: klog.FlushAndExit(1) — nothing waits; writes in flight are abandoned.
      logger.error("Leaderelection lost");
      source.abortWrites("leadership lost");
      return 1;
    }
    logger.info("Requested to terminate, exiting");
    return 0;
  } finally {
    if (cacheMetrics) clearInterval(cacheMetrics);
    (sched as Scheduler | null)?.close();
    source.abortWrites("the scheduler stopped");
    await source.stop();
    await serving?.close();
  }
}

const durationFlag = (name: string, description: string): FlagSpec => ({
  name,
  value: "DURATION",
  description,
});

export const runCommand: CommandSpec = {
  name: "run",
  summary: "Run the scheduler in a cluster: informers, pods/binding, events, leader election, metrics.",
  flags: [
    {
      name: "config",
      value: "FILE",
      description:
        "The path to the configuration file (a KubeSchedulerConfiguration); default: upstream's defaults.",
    },
    pluginFlag,
    {
      name: "write-config-to",
      value: "FILE",
      description: "If set, write the configuration values to this file and exit.",
    },
    {
      name: "kubeconfig",
      value: "PATH",
      description:
        "kubeconfig file; default: clientConnection.kubeconfig, else the in-cluster service account, else $KUBECONFIG.",
    },
    {
      name: "master",
      value: "URL",
      description: "The address of the Kubernetes API server (overrides any value in kubeconfig).",
    },
    {
      name: "feature-gates",
      value: "A=true,B=false",
      description: "Feature gates over v1.37's defaults (the gates the plugins read; see the README).",
    },
    {
      name: "bind-address",
      value: "IP",
      default: "0.0.0.0",
      description: "The address the secure port (and --port) listen on.",
    },
    {
      name: "secure-port",
      value: "N",
      default: String(defaultSecurePort),
      description:
        "HTTPS port of /healthz, /livez, /readyz, /metrics and /configz, with delegated authentication and authorization (0: off).",
    },
    {
      name: "cert-dir",
      value: "DIR",
      description:
        "Where the generated self-signed certificate (kube-scheduler.crt/.key) is written and reused; default: in memory.",
    },
    { name: "tls-cert-file", value: "FILE", description: "The serving certificate (PEM, chain allowed)." },
    { name: "tls-private-key-file", value: "FILE", description: "The serving certificate's private key." },
    {
      name: "authorization-always-allow-paths",
      value: "PATHS",
      default: defaultAlwaysAllowPaths.join(","),
      description: "Paths served without authorization (a trailing * matches a prefix).",
    },
    {
      name: "port",
      value: "N",
      default: "0",
      description: "Also serve the endpoints over plain HTTP on this port, without authentication (0: off).",
    },
    {
      name: "leader-elect",
      description:
        "Elect a leader (a Lease) before scheduling; --leader-elect=false to run without (default: leaderElection.leaderElect, true).",
    },
    durationFlag("leader-elect-lease-duration", "How long a lease lasts without renewal (default 15s)."),
    durationFlag(
      "leader-elect-renew-deadline",
      "How long the leader retries renewing before giving up (default 10s).",
    ),
    durationFlag("leader-elect-retry-period", "How long candidates wait between tries (default 2s)."),
    { name: "leader-elect-resource-lock", value: "TYPE", description: 'The lock type; only "leases".' },
    {
      name: "leader-elect-resource-name",
      value: "NAME",
      description: "The Lease's name (default kube-scheduler).",
    },
    {
      name: "leader-elect-resource-namespace",
      value: "NS",
      description: "The Lease's namespace (default kube-system).",
    },
    {
      name: "kube-api-qps",
      value: "QPS",
      description: "DEPRECATED: clientConnection.qps (ignored with --config, as upstream).",
    },
    {
      name: "kube-api-burst",
      value: "N",
      description: "DEPRECATED: clientConnection.burst (ignored with --config, as upstream).",
    },
  ],
  async run(ctx) {
    const parsed = parseRunFlags(ctx);
    if (typeof parsed === "number") return parsed;
    const { config, features, serving, kubeconfigPath, master } = parsed;
    const writeTo = ctx.flags["write-config-to"];
    if (typeof writeTo === "string") {
      try {
        writeFileSync(resolvePath(ctx, writeTo), configToYAML(config, ctx.registry));
      } catch (e) {
        ctx.io.stderr(`error: cannot write ${writeTo}: ${message(e)}\n`);
        return 1;
      }
      ctx.logger.info("Wrote configuration", { file: writeTo });
      return 0;
    }
    let kubeConfig: KubeConfig;
    try {
      const { buildKubeConfig } = await import("@kubesched/kube");
      kubeConfig = buildKubeConfig(kubeconfigPath, master);
    } catch (e) {
      ctx.io.stderr(
        kubeconfigPath
          ? `error: cannot load the kubeconfig ${kubeconfigPath}: ${message(e)}\n`
          : `error: ${message(e)}\n`,
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
        features,
        serving,
        logger: ctx.logger,
      });
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  },
};

interface ParsedRun {
  config: KubeSchedulerConfiguration;
  features: Partial<Features>;
  serving: ServingFlags | null;
  kubeconfigPath: string | undefined;
  master: string | undefined;
}

function portFlag(ctx: CommandContext, name: string, fallback: number): number | null {
  const raw = ctx.flags[name];
  const port = typeof raw === "string" ? Number(raw) : fallback;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    ctx.io.stderr(
      `error: invalid value "${String(raw)}" for --${name}: must be an integer from 0 to 65535\n`,
    );
    return null;
  }
  return port;
}

/** The flags of `run` applied to the configuration, as kube-scheduler's options.ApplyTo; an exit code on error. */
export function parseRunFlags(ctx: CommandContext): ParsedRun | number {
  const str = (name: string) =>
    typeof ctx.flags[name] === "string" ? (ctx.flags[name] as string) : undefined;
  let features: Partial<Features> = {};
  const gates = str("feature-gates");
  if (gates !== undefined) {
    try {
      const parsed = parseFeatureGates(gates);
      features = parsed.features;
      for (const w of parsed.warnings) ctx.io.stderr(`warning: ${w}\n`);
    } catch (e) {
      ctx.io.stderr(`error: invalid argument "${gates}" for "--feature-gates" flag: ${message(e)}\n`);
      return 2;
    }
  }
  const securePort = portFlag(ctx, "secure-port", defaultSecurePort);
  const insecurePort = portFlag(ctx, "port", 0);
  if (securePort === null || insecurePort === null) return 2;
  const config = loadConfigFlag(ctx, ctx.flags.config, features);
  if (config === null) return 1;
  const le = config.leaderElection;
  // upstream ApplyLeaderElectionTo: the leader-election flags override the file.
  const leaderElect = ctx.lists["leader-elect"]?.at(-1);
  if (leaderElect !== undefined) le.leaderElect = leaderElect === "true";
  for (const [flag, field] of [
    ["leader-elect-lease-duration", "leaseDuration"],
    ["leader-elect-renew-deadline", "renewDeadline"],
    ["leader-elect-retry-period", "retryPeriod"],
  ] as const) {
    const v = str(flag);
    if (v === undefined) continue;
    const ms = parseDuration(v);
    if (ms === undefined || ms <= 0) {
      ctx.io.stderr(`error: invalid value "${v}" for --${flag}: must be a positive duration such as "15s"\n`);
      return 2;
    }
    le[field] = ms;
  }
  const lock = str("leader-elect-resource-lock");
  if (lock !== undefined) le.resourceLock = lock;
  const leName = str("leader-elect-resource-name");
  if (leName !== undefined) le.resourceName = leName;
  const leNs = str("leader-elect-resource-namespace");
  if (leNs !== undefined) le.resourceNamespace = leNs;
  // upstream ApplyDeprecated: honoured only without --config.
  for (const [flag, field] of [
    ["kube-api-qps", "qps"],
    ["kube-api-burst", "burst"],
  ] as const) {
    const v = str(flag);
    if (v === undefined) continue;
    const n = Number(v);
    if (!Number.isFinite(n) || (field === "burst" && (!Number.isInteger(n) || n < 0))) {
      ctx.io.stderr(`error: invalid value "${v}" for --${flag}\n`);
      return 2;
    }
    if (typeof ctx.flags.config === "string") {
      ctx.io.stderr(`warning: --${flag} is ignored with --config (set clientConnection.${field})\n`);
    } else config.clientConnection[field] = n;
  }
  const errors = validateConfig(config, ctx.registry, { ...defaultFeatures, ...features });
  if (errors.length > 0) {
    for (const e of errors) ctx.io.stderr(`error: ${formatFieldError(e)}\n`);
    return 1;
  }
  if (le.leaderElect && le.leaseDuration <= le.renewDeadline) {
    ctx.io.stderr("error: leaderElection.leaseDuration must be greater than leaderElection.renewDeadline\n");
    return 1;
  }
  const kubeconfigFlag = str("kubeconfig");
  const kubeconfigPath =
    kubeconfigFlag !== undefined
      ? resolvePath(ctx, kubeconfigFlag)
      : config.clientConnection.kubeconfig || undefined;
  const serving: ServingFlags | null =
    securePort === 0 && insecurePort === 0
      ? null
      : {
          bindAddress: str("bind-address") ?? "0.0.0.0",
          securePort,
          insecurePort,
          tls: {
            ...(str("cert-dir") ? { certDir: resolvePath(ctx, str("cert-dir") as string) } : {}),
            ...(str("tls-cert-file") ? { certFile: resolvePath(ctx, str("tls-cert-file") as string) } : {}),
            ...(str("tls-private-key-file")
              ? { keyFile: resolvePath(ctx, str("tls-private-key-file") as string) }
              : {}),
          },
          alwaysAllowPaths: (str("authorization-always-allow-paths") ?? defaultAlwaysAllowPaths.join(","))
            .split(",")
            .map((p) => p.trim())
            .filter(Boolean),
        };
  return { config, features, serving, kubeconfigPath, master: str("master") };
}
