// A real cluster's objects in the API-server emulator, for live mode at scale: nodes and running
// pods as an API server returns them (managedFields, last-applied-configuration, full status; the
// objects of bench/lib/snapshot-files.ts) plus pending pods, with every list paged.
import { FakeApiServer } from "@kubesched/kube/testing";
import { apiServerNode, apiServerPod } from "./snapshot-files";

export interface ApiServerClusterOptions {
  nodes: number;
  /** Running pods, spread over the nodes. */
  running: number;
  pending: number;
}

const nodeName = (i: number) => `node-${String(i).padStart(5, "0")}`;

/** "namespace/name" of the pending pods (the keys of FakeApiServer.bindings). */
export function pendingPodKeys(o: ApiServerClusterOptions): string[] {
  return Array.from({ length: o.pending }, (_, i) => {
    const md = apiServerPod(o.running + i, null).metadata as { namespace: string; name: string };
    return `${md.namespace}/${md.name}`;
  });
}

/**
 * The emulator holding the cluster. Lists at resourceVersion 0 are paged too (the emulator's
 * watchCacheIgnoresLimit off), so the informers' lists come 500 objects a page.
 */
export async function apiServerCluster(o: ApiServerClusterOptions): Promise<FakeApiServer> {
  const server = await FakeApiServer.start({ watchCacheIgnoresLimit: false });
  for (let i = 0; i < o.nodes; i++) server.put("Node", apiServerNode(i), { silent: true });
  for (let i = 0; i < o.running; i++)
    server.put("Pod", apiServerPod(i, nodeName(i % o.nodes)), { silent: true });
  for (let i = 0; i < o.pending; i++) server.put("Pod", apiServerPod(o.running + i, null), { silent: true });
  // The history of the fill is not needed: nothing resumes from before it.
  server.compact();
  return server;
}
