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
import { hostname } from "node:os";
import {
  configToYAML,
  encodeConfig,
  featuresOf,
  type KubeSchedulerConfiguration,
  parseDuration,
  validateConfig,
} from "@kubesched/config";
import {
  customResourcesOf,
  defaultFeatures,
  defaultKubernetesVersion,
  type Features,
  formatFieldError,
  type Logger,
  type Registry,
} from "@kubesched/framework";
import type { BackoffConfig, KubeConfig } from "@kubesched/kube";
import { Scheduler, SchedulerMetrics } from "@kubesched/scheduler";
import pkg from "../../package.json" with { type: "json" };
import { type CommandContext, defineCommand, type FlagValues } from "../cli";
import { boolFlag, integer, invalidValue, valueFlag } from "../flags";
import {
  type AuthCacheTTLs,
  defaultAlwaysAllowPaths,
  defaultAuthCacheTTLs,
  defaultBindAddress,
  defaultInsecureBindAddress,
  defaultSecurePort,
  type HealthCheck,
  type Serving,
  ServingError,
  startServing,
  type TLSFiles,
} from "../serving/secure-serving";
import { loadConfigFlag, loadKubeConfig, resolvePath } from "./inputs";
import { writeFile } from "./outputs";
import { checkServedResources } from "./run-served";
import { emulationFlags, emulationOf, optionsFlag, pluginFlag, warnPluginReleases } from "./shared-flags";

/** upstream: leaderelection.NewLeaderHealthzAdaptor(time.Second * 20) in options.go. */
export const maxTolerableExpiredLease = 20_000;
/** How long in-flight bindings get to finish at shutdown. */
export const defaultBindingGracePeriodMs = 5_000;
/** How often `run` logs the caches it still waits for. */
export const defaultCacheSyncWarningMs = 30_000;
/** Binding cycles in flight at most (the API client's burst). */
export const defaultMaxInFlightBindings = 100;

/** upstream DelegatingAuthenticationOptions/DelegatingAuthorizationOptions: their client's limits. */
export const authClientQPS = 200;
export const authClientBurst = 400;
export const authClientTimeoutMs = 10_000;

export interface ServingFlags {
  /** Where the secure port listens (--bind-address). */
  bindAddress: string;
  /** 0: off; -1: any free port (tests). */
  securePort: number;
  /** Where the plain HTTP port listens: --bind-address when given, else 127.0.0.1 (the default). */
  insecureBindAddress?: string;
  /** Plain HTTP without authentication (no /debug/pprof); 0: off; -1: any free port (tests). */
  insecurePort: number;
  tls: TLSFiles;
  alwaysAllowPaths: string[];
  /** How long TokenReview and SubjectAccessReview answers are cached (default 10 s each). */
  authCacheTTLs?: AuthCacheTTLs;
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
  /** --emulated-version: the release plugins behave as. */
  kubernetesVersion?: string;
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
  /** How often the caches still unsynced are logged while `run` waits (default 30 s). */
  cacheSyncWarningMs?: number;
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
  const {
    ClientMetrics,
    deviceTaintRuleAPIVersionAt,
    KubeClusterSource,
    LeaderElector,
    RawClient,
    TokenBucketRateLimiter,
  } = await import("@kubesched/kube");
  const clientMetrics = new ClientMetrics(metrics.registry);
  // The release's gates with --feature-gates over them, as Scheduler.create derives them.
  const features = featuresOf(opts.kubernetesVersion, opts.features);
  const release = opts.kubernetesVersion ?? defaultKubernetesVersion;
  const source = new KubeClusterSource({
    kubeConfig: opts.kubeConfig,
    qps: config.clientConnection.qps,
    burst: config.clientConnection.burst,
    metrics: clientMetrics,
    logger,
    onError: (e) => logger.warn(e.message),
    customResources: customResourcesOf(opts.registry),
    // upstream: the DRA manager's ResourceSlice tracker watches DeviceTaintRules with the gate on.
    ...(features.enableDRADeviceTaintRules
      ? { deviceTaintRuleAPIVersion: deviceTaintRuleAPIVersionAt(release) }
      : {}),
    // upstream starts the DRA informers only with DynamicResourceAllocation on (off in 1.33).
    dynamicResourceAllocation: features.enableDynamicResourceAllocation,
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    ...(opts.eventRetrySleepMs !== undefined ? { eventRetrySleepMs: opts.eventRetrySleepMs } : {}),
  });
  logger.info("Starting Kubernetes Scheduler", { version: `kubesched ${pkg.version}` });
  // A collection the server does not serve would keep the caches from ever syncing: say so now.
  const unserved = await checkServedResources({
    client: source.rawClient,
    specs: source.watchedResources(),
    customKinds: new Set(customResourcesOf(opts.registry).map((r) => r.kind)),
    release,
    logger,
    signal,
  });
  if (unserved.length > 0) {
    for (const line of unserved) logger.error(line);
    await source.stop();
    return 1;
  }

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
        ...(s.insecureBindAddress ? { insecureBindAddress: s.insecureBindAddress } : {}),
        tls: s.tls,
        alwaysAllowPaths: s.alwaysAllowPaths,
        ...(s.authCacheTTLs ? { authCacheTTLs: s.authCacheTTLs } : {}),
        // Its own client, with upstream's delegating limits: reviews never wait behind the
        // scheduler's writes, nor these behind reviews.
        authClient: new RawClient(opts.kubeConfig, {
          rateLimiter: new TokenBucketRateLimiter(authClientQPS, authClientBurst),
          requestTimeoutMs: authClientTimeoutMs,
          metrics: clientMetrics,
          logger,
          userAgent: "kubesched/auth-delegator",
        }),
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
    // The informers log every failed list; this says which caches the scheduler still waits for.
    const waiting = setInterval(
      () =>
        logger.warn("Still waiting for the informer caches to sync", {
          kinds: source.unsyncedKinds().join(", "),
        }),
      opts.cacheSyncWarningMs ?? defaultCacheSyncWarningMs,
    );
    waiting.unref();
    try {
      if (!(await source.waitForCacheSync(sig))) return null;
    } finally {
      clearInterval(waiting);
    }
    synced = true;
    const s = await Scheduler.create({
      config,
      registry: opts.registry,
      source,
      logger,
      metrics,
      ...(opts.features ? { features: opts.features } : {}),
      ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
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

const durationFlag = <const N extends string>(name: N, description: string) =>
  valueFlag({
    name,
    value: "DURATION",
    description,
    parse: (raw, flag) => {
      const ms = parseDuration(raw);
      if (ms === undefined || ms <= 0)
        throw invalidValue(raw, flag, 'must be a positive duration such as "15s"');
      return ms;
    },
  });

/** A cache TTL: a duration, 0 for no caching. */
const cacheTTLFlag = <const N extends string>(name: N, what: string) =>
  valueFlag({
    name,
    value: "DURATION",
    description: `${what} (default 10s; 0s: not cached).`,
    parse: (raw, flag) => {
      const ms = parseDuration(raw);
      if (ms === undefined || ms < 0) throw invalidValue(raw, flag, 'must be a duration such as "10s"');
      return ms;
    },
  });

const portFlag = <const N extends string, const D extends string>(
  name: N,
  byDefault: D,
  description: string,
) =>
  valueFlag({
    name,
    value: "N",
    default: byDefault,
    description,
    parse: integer(0, 65535, "must be an integer from 0 to 65535"),
  });

/** kube-scheduler's flags (cmd/kube-scheduler/app/options), as `run` takes them. */
const runFlags = [
  valueFlag({
    name: "config",
    value: "FILE",
    description:
      "The path to the configuration file (a KubeSchedulerConfiguration); default: upstream's defaults.",
  }),
  pluginFlag,
  optionsFlag,
  valueFlag({
    name: "write-config-to",
    value: "FILE",
    description: "If set, write the configuration values to this file and exit.",
  }),
  valueFlag({
    name: "kubeconfig",
    value: "PATH",
    description:
      "kubeconfig file; default: clientConnection.kubeconfig, else the in-cluster service account, else $KUBECONFIG's files merged, else ~/.kube/config.",
  }),
  valueFlag({
    name: "master",
    value: "URL",
    description: "The address of the Kubernetes API server (overrides any value in kubeconfig).",
  }),
  ...emulationFlags,
  valueFlag({
    name: "bind-address",
    value: "IP",
    description: `The address the secure port listens on (default ${defaultBindAddress}); --port listens on it only when it is given, else on ${defaultInsecureBindAddress}.`,
  }),
  portFlag(
    "secure-port",
    `${defaultSecurePort}`,
    "HTTPS port of /healthz, /livez, /readyz, /metrics and /configz, with delegated authentication and authorization (0: off).",
  ),
  valueFlag({
    name: "cert-dir",
    value: "DIR",
    description:
      "Where the generated self-signed certificate (kube-scheduler.crt/.key) is written and reused; default: in memory.",
  }),
  valueFlag({
    name: "tls-cert-file",
    value: "FILE",
    description: "The serving certificate (PEM, chain allowed).",
  }),
  valueFlag({
    name: "tls-private-key-file",
    value: "FILE",
    description: "The serving certificate's private key.",
  }),
  valueFlag({
    name: "authorization-always-allow-paths",
    value: "PATHS",
    default: defaultAlwaysAllowPaths.join(","),
    description: "Paths served without authorization (a trailing * matches a prefix).",
    parse: (raw) =>
      raw
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
  }),
  portFlag(
    "port",
    "0",
    `Also serve the endpoints but /debug/pprof over plain HTTP on this port, without authentication, on ${defaultInsecureBindAddress} unless --bind-address is given (0: off).`,
  ),
  cacheTTLFlag(
    "authentication-token-webhook-cache-ttl",
    "How long TokenReview answers (authenticated or not) are cached",
  ),
  cacheTTLFlag(
    "authorization-webhook-cache-authorized-ttl",
    "How long SubjectAccessReview answers that allow are cached",
  ),
  cacheTTLFlag(
    "authorization-webhook-cache-unauthorized-ttl",
    "How long SubjectAccessReview answers that deny are cached",
  ),
  boolFlag({
    name: "leader-elect",
    description:
      "Elect a leader (a Lease) before scheduling; --leader-elect=false to run without (default: leaderElection.leaderElect, true).",
  }),
  durationFlag("leader-elect-lease-duration", "How long a lease lasts without renewal (default 15s)."),
  durationFlag(
    "leader-elect-renew-deadline",
    "How long the leader retries renewing before giving up (default 10s).",
  ),
  durationFlag("leader-elect-retry-period", "How long candidates wait between tries (default 2s)."),
  valueFlag({
    name: "leader-elect-resource-lock",
    value: "TYPE",
    description: 'The lock type; only "leases".',
  }),
  valueFlag({
    name: "leader-elect-resource-name",
    value: "NAME",
    description: "The Lease's name (default kube-scheduler).",
  }),
  valueFlag({
    name: "leader-elect-resource-namespace",
    value: "NS",
    description: "The Lease's namespace (default kube-system).",
  }),
  valueFlag({
    name: "kube-api-qps",
    value: "QPS",
    description: "DEPRECATED: clientConnection.qps (ignored with --config, as upstream).",
    parse: (raw, flag) => {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw invalidValue(raw, flag);
      return n;
    },
  }),
  valueFlag({
    name: "kube-api-burst",
    value: "N",
    description: "DEPRECATED: clientConnection.burst (ignored with --config, as upstream).",
    parse: integer(0, Number.POSITIVE_INFINITY),
  }),
] as const;

type RunContext = CommandContext<FlagValues<typeof runFlags>>;

export const runCommand = defineCommand({
  name: "run",
  summary: "Run the scheduler in a cluster: informers, pods/binding, events, leader election, metrics.",
  flags: runFlags,
  async run(ctx) {
    const applied = applyRunFlags(ctx);
    if (applied === null) return 1;
    const { config, features, kubernetesVersion, serving, kubeconfigPath, master } = applied;
    const writeTo = ctx.flags["write-config-to"];
    if (writeTo !== undefined) {
      if (!writeFile(ctx, writeTo, configToYAML(config, ctx.registry))) return 1;
      ctx.logger.info("Wrote configuration", { file: writeTo });
      return 0;
    }
    const resolved = await loadKubeConfig(ctx, { kubeconfig: kubeconfigPath, master, inCluster: "first" });
    if (resolved === null) return 1;
    const { kubeConfig } = resolved;
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
        kubernetesVersion,
        serving,
        logger: ctx.logger,
      });
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  },
});

interface AppliedRun {
  config: KubeSchedulerConfiguration;
  features: Partial<Features>;
  kubernetesVersion: string;
  serving: ServingFlags | null;
  kubeconfigPath: string | undefined;
  master: string | undefined;
}

/**
 * The flags of `run` applied to the configuration, as kube-scheduler's options.ApplyTo; null
 * after printing why the configuration cannot be used.
 */
export function applyRunFlags(ctx: RunContext): AppliedRun | null {
  const f = ctx.flags;
  // As kube-scheduler, its own release unless --emulated-version (not the server's).
  const emulation = warnPluginReleases(ctx, emulationOf(ctx));
  const { features } = emulation;
  const config = loadConfigFlag(ctx, f.config, emulation);
  if (config === null) return null;
  const le = config.leaderElection;
  // upstream ApplyLeaderElectionTo: the leader-election flags override the file.
  if (f["leader-elect"] !== undefined) le.leaderElect = f["leader-elect"];
  le.leaseDuration = f["leader-elect-lease-duration"] ?? le.leaseDuration;
  le.renewDeadline = f["leader-elect-renew-deadline"] ?? le.renewDeadline;
  le.retryPeriod = f["leader-elect-retry-period"] ?? le.retryPeriod;
  le.resourceLock = f["leader-elect-resource-lock"] ?? le.resourceLock;
  le.resourceName = f["leader-elect-resource-name"] ?? le.resourceName;
  le.resourceNamespace = f["leader-elect-resource-namespace"] ?? le.resourceNamespace;
  // upstream ApplyDeprecated: honoured only without --config.
  for (const [flag, field] of [
    ["kube-api-qps", "qps"],
    ["kube-api-burst", "burst"],
  ] as const) {
    const v = f[flag];
    if (v === undefined) continue;
    if (f.config !== undefined) {
      ctx.io.stderr(`warning: --${flag} is ignored with --config (set clientConnection.${field})\n`);
    } else config.clientConnection[field] = v;
  }
  const errors = validateConfig(config, ctx.registry, { ...defaultFeatures, ...features });
  if (errors.length > 0) {
    for (const e of errors) ctx.io.stderr(`error: ${formatFieldError(e)}\n`);
    return null;
  }
  if (le.leaderElect && le.leaseDuration <= le.renewDeadline) {
    ctx.io.stderr("error: leaderElection.leaseDuration must be greater than leaderElection.renewDeadline\n");
    return null;
  }
  const kubeconfigPath = f.kubeconfig ?? (config.clientConnection.kubeconfig || undefined);
  const securePort = f["secure-port"];
  const insecurePort = f.port;
  const tlsPath = (name: "cert-dir" | "tls-cert-file" | "tls-private-key-file") => {
    const v = f[name];
    return v ? resolvePath(ctx, v) : undefined;
  };
  const certDir = tlsPath("cert-dir");
  const certFile = tlsPath("tls-cert-file");
  const keyFile = tlsPath("tls-private-key-file");
  const bindAddress = f["bind-address"];
  const serving: ServingFlags | null =
    securePort === 0 && insecurePort === 0
      ? null
      : {
          bindAddress: bindAddress ?? defaultBindAddress,
          securePort,
          // upstream's insecure port is gone; ours stays on this machine unless told otherwise.
          insecureBindAddress: bindAddress ?? defaultInsecureBindAddress,
          insecurePort,
          tls: {
            ...(certDir ? { certDir } : {}),
            ...(certFile ? { certFile } : {}),
            ...(keyFile ? { keyFile } : {}),
          },
          alwaysAllowPaths: f["authorization-always-allow-paths"],
          authCacheTTLs: {
            tokenMs: f["authentication-token-webhook-cache-ttl"] ?? defaultAuthCacheTTLs.tokenMs,
            authorizedMs:
              f["authorization-webhook-cache-authorized-ttl"] ?? defaultAuthCacheTTLs.authorizedMs,
            unauthorizedMs:
              f["authorization-webhook-cache-unauthorized-ttl"] ?? defaultAuthCacheTTLs.unauthorizedMs,
          },
        };
  return {
    config,
    features,
    kubernetesVersion: emulation.release,
    serving,
    kubeconfigPath,
    master: f.master,
  };
}
