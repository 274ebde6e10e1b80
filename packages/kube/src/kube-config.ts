// Building the client configuration as kube-scheduler does (upstream
// clientcmd.BuildConfigFromFlags(master, kubeconfig)): the kubeconfig file if one is named, else
// the in-cluster service account, else (a kubesched addition for running outside a cluster)
// $KUBECONFIG; with none of them, a clear error at once rather than a default server.
import { existsSync } from "node:fs";
import { delimiter } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";

export type { KubeConfig } from "@kubernetes/client-node";

/** Where a pod's service account credentials are mounted. */
export const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

export interface BuildKubeConfigOptions {
  /** Prefix of the service account directory (tests; default ""). */
  inClusterRoot?: string;
  /** The environment (default process.env): KUBERNETES_SERVICE_HOST/PORT, KUBECONFIG. */
  env?: Record<string, string | undefined>;
}

/** A missing or unusable client configuration: a sentence for the user. */
export class KubeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KubeConfigError";
  }
}

/** Whether the process runs in a pod with a service account (upstream rest.InClusterConfig's checks). */
export function inClusterAvailable(opts: BuildKubeConfigOptions = {}): boolean {
  const env = opts.env ?? process.env;
  return (
    !!env.KUBERNETES_SERVICE_HOST &&
    !!env.KUBERNETES_SERVICE_PORT &&
    existsSync(`${opts.inClusterRoot ?? ""}${serviceAccountDir}/token`)
  );
}

/**
 * The kubeconfig file at `kubeconfigPath`, with `master` overriding its server; `master` alone
 * is that server without credentials; neither means the in-cluster service account (token, CA,
 * KUBERNETES_SERVICE_HOST/PORT), else the files of $KUBECONFIG. Throws a KubeConfigError when
 * none exists, and when the file cannot be read or names no current cluster. A plain-HTTP server
 * gets skipTLSVerify, without which @kubernetes/client-node refuses http:// (it has no meaning
 * there).
 */
export function buildKubeConfig(
  kubeconfigPath?: string,
  master?: string,
  opts: BuildKubeConfigOptions = {},
): KubeConfig {
  const env = opts.env ?? process.env;
  const kc = new KubeConfig();
  if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
  else if (master) {
    kc.loadFromClusterAndUser(
      { name: "master", server: master, skipTLSVerify: false },
      { name: "anonymous" },
    );
  } else if (inClusterAvailable(opts)) {
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
  } else if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(delimiter).filter((f) => f !== "" && existsSync(f));
    if (files.length === 0) {
      throw new KubeConfigError(`$KUBECONFIG names no existing file (${env.KUBECONFIG})`);
    }
    kc.loadFromFile(files[0] as string);
    for (const f of files.slice(1)) {
      const more = new KubeConfig();
      more.loadFromFile(f);
      kc.mergeConfig(more, true);
    }
  } else {
    throw new KubeConfigError(
      "no configuration has been provided: give --kubeconfig (or clientConnection.kubeconfig) or --master, " +
        `run in a pod with a service account (KUBERNETES_SERVICE_HOST/PORT and ${serviceAccountDir}/token), or set $KUBECONFIG`,
    );
  }
  const current = kc.getCurrentCluster();
  if (!current) throw new KubeConfigError("the kubeconfig has no current cluster");
  const server = master || current.server;
  const plain = server.startsWith("http:");
  if (server !== current.server || (plain && !current.skipTLSVerify)) {
    kc.clusters = kc.clusters.map((c) =>
      c.name === current.name ? { ...c, server, skipTLSVerify: c.skipTLSVerify || plain } : c,
    );
  }
  return kc;
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
