// The client configuration, resolved once for every command that talks to a cluster, in the two
// orders upstream uses:
// - kubectl's (clientcmd's default loading rules, loader.go): `--kubeconfig` alone; else the
//   files of $KUBECONFIG merged (missing files skipped; the first file to define a cluster, user
//   or context by name, or current-context, wins); else ~/.kube/config; the in-cluster service
//   account only when none of them holds a configuration. `--context` picks a context.
// - kube-scheduler's (clientcmd.BuildConfigFromFlags(master, kubeconfig)): the kubeconfig file if
//   one is named (with `--master` overriding its server), `--master` alone, else the in-cluster
//   service account; then (a kubesched addition for running outside a cluster) kubectl's files.
// With nothing to use, a clear error at once rather than a default server.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";

export type { KubeConfig } from "@kubernetes/client-node";

/** Where a pod's service account credentials are mounted. */
export const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

export interface ResolveKubeConfigOptions {
  /** Prefix of the service account directory (tests; default ""). */
  inClusterRoot?: string;
  /** The environment (default process.env): KUBERNETES_SERVICE_HOST/PORT, KUBECONFIG, HOME. */
  env?: Record<string, string | undefined>;
  /** Relative paths (the kubeconfig flag, $KUBECONFIG's entries) are resolved against it (default process.cwd()). */
  cwd?: string;
}

/** What the command line says about the client configuration. */
export interface KubeConfigFlags {
  /** A kubeconfig file (`--kubeconfig`, `clientConnection.kubeconfig`): only this file is read. */
  kubeconfig?: string | undefined;
  /** The API server's address (`--master`): overrides the kubeconfig's server, or alone: that server, no credentials. */
  master?: string | undefined;
  /** The context to use instead of the kubeconfig's current-context (`--context`). */
  context?: string | undefined;
  /**
   * Where the in-cluster service account comes in: "first", as kube-scheduler (before
   * $KUBECONFIG and ~/.kube/config), or "last", as kubectl (when no file holds a configuration).
   */
  inCluster: "first" | "last";
}

export interface ResolvedKubeConfig {
  kubeConfig: KubeConfig;
  /**
   * Where it came from, for messages: the `--kubeconfig` file as given, `$KUBECONFIG (a:b)`,
   * the ~/.kube/config path, `the in-cluster service account` or `--master URL`.
   */
  source: string;
}

/** A missing or unusable client configuration: a sentence for the user, naming where it came from. */
export class KubeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KubeConfigError";
  }
}

/** Whether the process runs in a pod with a service account (upstream rest.InClusterConfig's checks). */
export function inClusterAvailable(opts: ResolveKubeConfigOptions = {}): boolean {
  const env = opts.env ?? process.env;
  return (
    !!env.KUBERNETES_SERVICE_HOST &&
    !!env.KUBERNETES_SERVICE_PORT &&
    existsSync(`${opts.inClusterRoot ?? ""}${serviceAccountDir}/token`)
  );
}

function inClusterConfig(opts: ResolveKubeConfigOptions): KubeConfig {
  const env = opts.env ?? process.env;
  const kc = new KubeConfig();
  const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
  // client-node reads the service address from process.env.
  process.env.KUBERNETES_SERVICE_HOST = env.KUBERNETES_SERVICE_HOST;
  process.env.KUBERNETES_SERVICE_PORT = env.KUBERNETES_SERVICE_PORT;
  try {
    kc.loadFromCluster(opts.inClusterRoot ?? "");
  } finally {
    restoreEnv("KUBERNETES_SERVICE_HOST", saved.host);
    restoreEnv("KUBERNETES_SERVICE_PORT", saved.port);
  }
  return kc;
}

/** One kubeconfig file (relative paths in it made absolute); null when it is empty. */
function loadFile(path: string, name: string): KubeConfig | null {
  try {
    if (readFileSync(path, "utf8").trim() === "") return null;
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    return kc;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file or directory"
        : code === "EISDIR"
          ? "is a directory"
          : e instanceof Error
            ? e.message
            : String(e);
    throw new KubeConfigError(`${name}: ${why}`);
  }
}

/**
 * kubectl's merge of several kubeconfig files (clientcmd loader.go): the first file to define a
 * cluster, user or context by name wins, and so does the first current-context.
 */
function merge(configs: readonly KubeConfig[]): KubeConfig {
  const firstByName = <T extends { name: string }>(lists: T[][]): T[] => {
    const seen = new Map<string, T>();
    for (const list of lists) for (const item of list) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: firstByName(configs.map((c) => c.clusters)),
    users: firstByName(configs.map((c) => c.users)),
    contexts: firstByName(configs.map((c) => c.contexts)),
    currentContext: configs.map((c) => c.currentContext).find((c) => !!c) ?? "",
  });
  return kc;
}

/** kubectl's files: the existing files of $KUBECONFIG when it is set, else ~/.kube/config if it exists. */
function kubectlFiles(opts: ResolveKubeConfigOptions): { files: string[]; source: string } {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(delimiter)
      .filter((f) => f !== "")
      .map((f) => resolve(cwd, f))
      .filter((f) => existsSync(f));
    return { files, source: `$KUBECONFIG (${env.KUBECONFIG})` };
  }
  const home = env.HOME || env.USERPROFILE || homedir();
  const file = join(home, ".kube", "config");
  return { files: existsSync(file) ? [file] : [], source: file };
}

function noConfiguration(flags: KubeConfigFlags): KubeConfigError {
  const explicit =
    flags.inCluster === "first"
      ? "--kubeconfig (or clientConnection.kubeconfig) or --master"
      : "--kubeconfig";
  return new KubeConfigError(
    `no configuration has been provided: give ${explicit}, set $KUBECONFIG, create ~/.kube/config, ` +
      `or run in a pod with a service account (KUBERNETES_SERVICE_HOST/PORT and ${serviceAccountDir}/token)`,
  );
}

/**
 * The client configuration of a command (see the file header for the two orders), with `master`
 * overriding the server and `context` selected. Throws a KubeConfigError naming the source when
 * nothing provides a configuration, a file cannot be read, the context does not exist or no
 * cluster is current. A plain-HTTP server gets skipTLSVerify, without which
 * @kubernetes/client-node refuses http:// (it has no meaning there).
 */
export function resolveKubeConfig(
  flags: KubeConfigFlags,
  opts: ResolveKubeConfigOptions = {},
): ResolvedKubeConfig {
  let kc: KubeConfig | null = null;
  let source = "";
  if (flags.kubeconfig) {
    source = flags.kubeconfig;
    kc = loadFile(resolve(opts.cwd ?? process.cwd(), flags.kubeconfig), source) ?? new KubeConfig();
  } else if (flags.master && flags.inCluster === "first") {
    source = `--master ${flags.master}`;
    kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: "master", server: flags.master, skipTLSVerify: false },
      { name: "anonymous" },
    );
  } else if (flags.inCluster === "first" && inClusterAvailable(opts)) {
    source = "the in-cluster service account";
    kc = inClusterConfig(opts);
  } else {
    const found = kubectlFiles(opts);
    const loaded = found.files.map((f) => loadFile(f, found.source)).filter((c) => c !== null);
    if (loaded.length > 0) {
      source = found.source;
      kc = merge(loaded);
    } else if (flags.inCluster === "last" && inClusterAvailable(opts)) {
      source = "the in-cluster service account";
      kc = inClusterConfig(opts);
    } else {
      throw noConfiguration(flags);
    }
  }
  if (flags.context !== undefined) {
    if (!kc.getContextObject(flags.context)) {
      throw new KubeConfigError(`${source}: no context named "${flags.context}"`);
    }
    kc.setCurrentContext(flags.context);
  }
  const current = kc.getCurrentCluster();
  if (!current) throw new KubeConfigError(`${source}: the kubeconfig has no current cluster`);
  const server = flags.master || current.server;
  const plain = server.startsWith("http:");
  if (server !== current.server || (plain && !current.skipTLSVerify)) {
    kc.clusters = kc.clusters.map((c) =>
      c.name === current.name ? { ...c, server, skipTLSVerify: c.skipTLSVerify || plain } : c,
    );
  }
  return { kubeConfig: kc, source };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
