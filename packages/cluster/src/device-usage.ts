// The devices of a simulation's result: per pod, its claims and the devices their allocations
// name (status.allocation.devices.results, as the DynamicResources plugin's PreBind writes them);
// per node, the devices its ResourceSlices publish and how many of them claims hold.
import type { Pod, ResourceClaim, ResourceSlice } from "@kubesched/api";
import type { InMemoryCluster } from "./in-memory-cluster";

/** One device of a claim's allocation. */
export interface AllocatedDevice {
  /** The claim's request (`<request>` or `<request>/<subrequest>`). */
  request: string;
  driver: string;
  pool: string;
  device: string;
}

/** One of a pod's spec.resourceClaims, and its ResourceClaim when the simulation ended. */
export interface PodClaimResult {
  /** The pod's name for the claim (`spec.resourceClaims[].name`). */
  name: string;
  /**
   * The ResourceClaim: `resourceClaimName`, or the one generated from the template (the pod's
   * `status.resourceClaimStatuses`); null while it is not created.
   */
  resourceClaim: string | null;
  /** Whether the claim exists and has `status.allocation`. */
  allocated: boolean;
  /** The allocated devices, in the order of `status.allocation.devices.results`. */
  devices: AllocatedDevice[];
}

/** The devices one driver's pool publishes on a node (ResourceSlices with `spec.nodeName`). */
export interface NodeDeviceResult {
  driver: string;
  pool: string;
  /** Devices in the pool's slices of its newest generation. */
  published: number;
  /** Of those, the devices some claim's allocation holds when the simulation ended. */
  allocated: number;
  /** The same before the simulation (the snapshot's allocated claims). */
  allocatedBefore: number;
}

/** upstream resourceclaim.Name: the claim a pod's entry refers to (null: not created, or not needed). */
function claimNameOf(
  pod: Pod,
  podClaim: { name: string; resourceClaimName?: string; resourceClaimTemplateName?: string },
): string | null {
  if (podClaim.resourceClaimName) return podClaim.resourceClaimName;
  return pod.status?.resourceClaimStatuses?.find((s) => s.name === podClaim.name)?.resourceClaimName ?? null;
}

function devicesOf(claim: ResourceClaim | undefined): AllocatedDevice[] {
  return (claim?.status?.allocation?.devices?.results ?? []).map((r) => ({
    request: r.request,
    driver: r.driver,
    pool: r.pool,
    device: r.device,
  }));
}

/** The pod's claims as the cluster holds them; undefined for a pod without spec.resourceClaims. */
export function podClaimResults(cluster: InMemoryCluster, pod: Pod): PodClaimResult[] | undefined {
  const podClaims = pod.spec?.resourceClaims ?? [];
  if (podClaims.length === 0) return undefined;
  const ns = pod.metadata?.namespace ?? "default";
  return podClaims.map((pc) => {
    const name = claimNameOf(pod, pc);
    const claim = name === null ? undefined : cluster.resourceClaims.get(ns, name);
    return {
      name: pc.name,
      resourceClaim: name,
      allocated: claim?.status?.allocation !== undefined,
      devices: devicesOf(claim),
    };
  });
}

const deviceKey = (driver: string, pool: string, device: string) => `${driver}\u0000${pool}\u0000${device}`;

/** The devices the cluster's claims hold (driver, pool, device), each once. */
export function allocatedDeviceKeys(cluster: InMemoryCluster): Set<string> {
  const out = new Set<string>();
  for (const c of cluster.resourceClaims.list()) {
    for (const d of devicesOf(c)) out.add(deviceKey(d.driver, d.pool, d.device));
  }
  return out;
}

/**
 * Per node, the pools its ResourceSlices (`spec.nodeName`) publish, each pool's slices of its
 * newest generation only (upstream's allocator ignores older ones), sorted by driver and pool.
 */
export function nodeDeviceResults(
  slices: readonly ResourceSlice[],
  after: ReadonlySet<string>,
  before: ReadonlySet<string>,
): Map<string, NodeDeviceResult[]> {
  const newest = new Map<string, number>();
  for (const s of slices) {
    const k = `${s.spec.driver}\u0000${s.spec.pool.name}`;
    newest.set(k, Math.max(newest.get(k) ?? Number.NEGATIVE_INFINITY, s.spec.pool.generation));
  }
  const byNode = new Map<string, Map<string, NodeDeviceResult>>();
  for (const s of slices) {
    const node = s.spec.nodeName;
    if (!node) continue;
    const { driver, pool } = { driver: s.spec.driver, pool: s.spec.pool.name };
    if (newest.get(`${driver}\u0000${pool}`) !== s.spec.pool.generation) continue;
    let pools = byNode.get(node);
    if (!pools) byNode.set(node, (pools = new Map()));
    const k = `${driver}\u0000${pool}`;
    let r = pools.get(k);
    if (!r) pools.set(k, (r = { driver, pool, published: 0, allocated: 0, allocatedBefore: 0 }));
    for (const d of s.spec.devices ?? []) {
      const key = deviceKey(driver, pool, d.name);
      r.published++;
      if (after.has(key)) r.allocated++;
      if (before.has(key)) r.allocatedBefore++;
    }
  }
  const out = new Map<string, NodeDeviceResult[]>();
  for (const [node, pools] of byNode) {
    out.set(
      node,
      [...pools.values()].sort((a, b) =>
        a.driver !== b.driver
          ? a.driver < b.driver
            ? -1
            : 1
          : a.pool < b.pool
            ? -1
            : a.pool > b.pool
              ? 1
              : 0,
      ),
    );
  }
  return out;
}
