// Building the client configuration as kube-scheduler does (upstream
// clientcmd.BuildConfigFromFlags(master, kubeconfig)).
import { KubeConfig } from "@kubernetes/client-node";

export type { KubeConfig } from "@kubernetes/client-node";

/**
 * The kubeconfig file at `kubeconfigPath`, with `master` overriding its server; `master` alone
 * is that server without credentials; neither means the default loading rules ($KUBECONFIG,
 * ~/.kube/config, then the in-cluster service account). Throws when the file cannot be read or
 * names no current cluster. A plain-HTTP server gets skipTLSVerify, without which
 * @kubernetes/client-node refuses http:// (it has no meaning there).
 */
export function buildKubeConfig(kubeconfigPath?: string, master?: string): KubeConfig {
  const kc = new KubeConfig();
  if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
  else if (master) {
    kc.loadFromClusterAndUser(
      { name: "master", server: master, skipTLSVerify: false },
      { name: "anonymous" },
    );
  } else kc.loadFromDefault();
  const current = kc.getCurrentCluster();
  if (!current) throw new Error("the kubeconfig has no current cluster");
  const server = master || current.server;
  const plain = server.startsWith("http:");
  if (server !== current.server || (plain && !current.skipTLSVerify)) {
    kc.clusters = kc.clusters.map((c) =>
      c.name === current.name ? { ...c, server, skipTLSVerify: c.skipTLSVerify || plain } : c,
    );
  }
  return kc;
}
