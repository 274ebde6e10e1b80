// The cluster and node pools of `pnpm bench`'s `cli/plan` row (issue 26: "a 1000-node snapshot
// with 3 pools and 2000 pending pods (spread, anti-affinity, taints)"): nodes in two zones, each
// with a running pod that leaves 1 cpu / 4Gi free; pending, in this order, a cache Deployment
// with hostname anti-affinity, a web Deployment spread over the zones (maxSkew 1, DoNotSchedule)
// and an Indexed-less Job of gpu pods that tolerate the gpu pool's taint and select its label.
// The pools: general nodes in each zone and tainted gpu nodes (8 GPUs each).
import { writeFileSync } from "node:fs";

export interface PlanClusterOptions {
  nodes: number;
  /** Pending pods in all: 3% cache, 70% web, the rest gpu. */
  pendingPods: number;
}

/** The row's size at scale 1. */
export const planCluster1000: PlanClusterOptions = { nodes: 1000, pendingPods: 2000 };

export function planClusterAt(scale: number): PlanClusterOptions {
  return {
    nodes: Math.max(2, Math.round(planCluster1000.nodes * scale)),
    pendingPods: Math.max(3, Math.round(planCluster1000.pendingPods * scale)),
  };
}

/** The pending pods per workload. */
export function planWorkloads(o: PlanClusterOptions): { cache: number; web: number; gpu: number } {
  const cache = Math.max(1, Math.round(o.pendingPods * 0.03));
  const web = Math.max(1, Math.round(o.pendingPods * 0.7));
  return { cache, web, gpu: Math.max(1, o.pendingPods - cache - web) };
}

/** Writes the snapshot (`cluster`) and the NodePools file (`pools`). */
export function writePlanCluster(cluster: string, pools: string, o: PlanClusterOptions): void {
  const items: unknown[] = [];
  const zones = ["a", "b"];
  for (let i = 0; i < o.nodes; i++) {
    const name = `node-${i}`;
    const zone = zones[i % 2] as string;
    items.push({
      apiVersion: "v1",
      kind: "Node",
      metadata: { name, labels: { "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone } },
      status: { allocatable: { cpu: "4", memory: "16Gi", pods: "110" } },
    });
    items.push({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: `base-${i}`, namespace: "running" },
      spec: {
        nodeName: name,
        containers: [{ name: "c", image: "x", resources: { requests: { cpu: "3", memory: "12Gi" } } }],
      },
      status: { phase: "Running" },
    });
  }
  const w = planWorkloads(o);
  const deployment = (name: string, replicas: number, cpu: string, memory: string, extra: object) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: "shop" },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          ...extra,
          containers: [{ name, image: name, resources: { requests: { cpu, memory } } }],
        },
      },
    },
  });
  items.push(
    deployment("cache", w.cache, "500m", "1Gi", {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: { app: "cache" } } },
          ],
        },
      },
    }),
    deployment("web", w.web, "1", "2Gi", {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: "topology.kubernetes.io/zone",
          whenUnsatisfiable: "DoNotSchedule",
          labelSelector: { matchLabels: { app: "web" } },
        },
      ],
    }),
    {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "train", namespace: "ml" },
      spec: {
        parallelism: w.gpu,
        completions: w.gpu,
        template: {
          spec: {
            restartPolicy: "Never",
            nodeSelector: { accelerator: "a100" },
            tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }],
            containers: [
              {
                name: "train",
                image: "train",
                resources: { requests: { cpu: "1", memory: "4Gi", "nvidia.com/gpu": "1" } },
              },
            ],
          },
        },
      },
    },
  );
  writeFileSync(cluster, JSON.stringify({ apiVersion: "v1", kind: "List", items }));
  const general = (zone: string) => ({
    name: `general-${zone}`,
    maxCount: 200,
    price: 0.4,
    node: {
      metadata: { labels: { "topology.kubernetes.io/zone": zone } },
      status: { allocatable: { cpu: "8", memory: "32Gi", pods: "110" } },
    },
  });
  writeFileSync(
    pools,
    JSON.stringify({
      apiVersion: "kubesched.io/v1alpha1",
      kind: "NodePools",
      pools: [
        general("a"),
        general("b"),
        {
          name: "gpu",
          maxCount: 200,
          price: 3,
          node: {
            metadata: { labels: { "topology.kubernetes.io/zone": "a", accelerator: "a100" } },
            spec: { taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }] },
            status: { allocatable: { cpu: "8", memory: "64Gi", pods: "110", "nvidia.com/gpu": "8" } },
          },
        },
      ],
    }),
  );
}
