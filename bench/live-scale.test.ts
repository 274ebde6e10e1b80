// bench/live-scale.ts at a small scale (200 nodes, 2,000 running pods as an API server returns
// them, 50 pending): the informers `kubesched run` builds list page by page and cache the objects
// trimmed (no managedFields, no last-applied-configuration, pod status cut to what the scheduler
// reads), and runScheduler binds each pending pod exactly once and no running pod again.
import { runScheduler } from "@kubesched/cli";
import { defaultConfig } from "@kubesched/config";
import { KubeClusterSource } from "@kubesched/kube";
import { type FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createLogger, lastAppliedConfigAnnotation } from "@kubesched/scheduler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiServerCluster, pendingPodKeys } from "./lib/api-server-cluster";

const size = { nodes: 200, running: 2000, pending: 50 };
const logger = createLogger({ write: () => undefined });
let server: FakeApiServer;

beforeAll(async () => {
  server = await apiServerCluster(size);
});
afterAll(async () => {
  await server.close();
});

describe("live mode over a real cluster's objects (small scale)", { timeout: 120_000 }, () => {
  it("the informer caches hold trimmed objects, listed 500 a page", async () => {
    // What the emulator serves is the full object.
    const served = server.list("Pod").find((p) => p.spec?.nodeName);
    expect(served?.metadata.managedFields).toBeDefined();
    expect(served?.metadata.annotations?.[lastAppliedConfigAnnotation]).toBeDefined();
    expect(served?.status.podIP).toBeDefined();

    const before = server.requests.length;
    const source = new KubeClusterSource({ kubeConfig: server.kubeConfig(), logger, qps: -1 });
    source.start();
    try {
      expect(await source.waitForCacheSync()).toBe(true);
      const pods = source.informers.Pod.store.list();
      const nodes = source.informers.Node.store.list();
      expect(pods).toHaveLength(size.running + size.pending);
      expect(nodes).toHaveLength(size.nodes);
      for (const o of [...pods, ...nodes]) {
        expect(o.metadata?.managedFields).toBeUndefined();
        expect(o.metadata?.annotations?.[lastAppliedConfigAnnotation]).toBeUndefined();
      }
      const running = pods.find((p) => p.metadata?.name === served?.metadata.name);
      expect(Object.keys(running?.status ?? {}).sort()).toEqual([
        "conditions",
        "containerStatuses",
        "phase",
        "startTime",
      ]);
      expect(running?.status?.containerStatuses).toEqual([{ name: "app" }]);
      // What the scheduler reads stays.
      expect(running?.spec?.nodeName).toBe(served?.spec.nodeName);
      expect(running?.spec?.containers[0]?.resources?.requests).toEqual({ cpu: "250m", memory: "256Mi" });
      expect(nodes[0]?.status?.allocatable).toBeDefined();

      const podLists = server.requests
        .slice(before)
        .filter((r) => r.info.verb === "list" && r.info.resource === "pods");
      expect(podLists).toHaveLength(Math.ceil((size.running + size.pending) / 500));
      expect(podLists.every((r) => r.query.limit === "500")).toBe(true);
      expect(podLists.filter((r) => r.query.continue)).toHaveLength(podLists.length - 1);
    } finally {
      await source.stop();
    }
  });

  it("`kubesched run` (runScheduler) binds each pending pod exactly once", async () => {
    const config = defaultConfig({ registry: inTreeRegistry });
    config.leaderElection.leaderElect = false;
    const ac = new AbortController();
    const done = runScheduler({
      config,
      registry: inTreeRegistry,
      kubeConfig: server.kubeConfig(),
      signal: ac.signal,
      logger,
      serving: null,
    });
    try {
      await waitFor(() => server.bindings.size >= size.pending, 90_000, "the pending pods' bindings");
      // Nothing is left to schedule: the next watch events (the bound pods) bring no binding.
      await waitFor(
        () => server.list("Pod").every((p) => p.spec?.nodeName),
        30_000,
        "every pod on a node in the emulator",
      );
    } finally {
      ac.abort();
      expect(await done).toBe(0);
    }
    expect([...server.bindings.keys()].sort()).toEqual(pendingPodKeys(size).sort());
    expect([...server.bindings.values()].every((n) => n === 1)).toBe(true);
  });
});
