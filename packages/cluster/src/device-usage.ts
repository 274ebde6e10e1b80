// The devices of a simulation's result: per pod, its claims and the devices their allocations
// name (status.allocation.devices.results, as the DynamicResources plugin's PreBind writes them);
// per node, the devices its ResourceSlices publish and how many of them claims hold; per
// DeviceClass, the devices its selectors match and how many of them claims hold.
import type { Device, DeviceClass, DeviceTaintRule, Pod, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { getCompiler } from "@kubesched/dynamic-resource-allocation/cel";
import { applyDeviceTaintRules } from "@kubesched/dynamic-resource-allocation/structured";
import type { Features } from "@kubesched/framework";
import type { InMemoryCluster } from "./in-memory-cluster";

/** One device of a claim's allocation. */
export interface AllocatedDevice {
  /** The claim's request (`<request>` or `<request>/<subrequest>`). */
  request: string;
  driver: string;
  pool: string;
  device: string;
}

/**
 * One of a pod's spec.resourceClaims, and its ResourceClaim when the simulation ended; or the
 * claim the DynamicResources plugin created for the pod's extended resources backed by
 * DeviceClasses (`status.extendedResourceClaimStatus`, DRAExtendedResource).
 */
export interface PodClaimResult {
  /**
   * The pod's name for the claim (`spec.resourceClaims[].name`); for the extended-resource claim,
   * the extended resources it serves (`example.com/gpu`, comma-separated).
   */
  name: string;
  /** Set on the claim created for the pod's extended resources backed by DeviceClasses. */
  extendedResources?: true;
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
  /**
   * Of the published devices, those with a NoSchedule or NoExecute taint (their slice's, or with
   * DRADeviceTaintRules a DeviceTaintRule's): only requests tolerating it get them. Absent when
   * none is (or with DRADeviceTaints off).
   */
  tainted?: number;
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
  const extended = pod.status?.extendedResourceClaimStatus;
  if (podClaims.length === 0 && !extended) return undefined;
  const ns = pod.metadata?.namespace ?? "default";
  const out = podClaims.map((pc): PodClaimResult => {
    const name = claimNameOf(pod, pc);
    const claim = name === null ? undefined : cluster.resourceClaims.get(ns, name);
    return {
      name: pc.name,
      resourceClaim: name,
      allocated: claim?.status?.allocation !== undefined,
      devices: devicesOf(claim),
    };
  });
  if (extended) {
    const claim = cluster.resourceClaims.get(ns, extended.resourceClaimName);
    out.push({
      name: [...new Set(extended.requestMappings.map((m) => m.resourceName))].join(","),
      extendedResources: true,
      resourceClaim: extended.resourceClaimName,
      allocated: claim?.status?.allocation !== undefined,
      devices: devicesOf(claim),
    });
  }
  return out;
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
 * The slices of each pool's newest generation (upstream's allocator ignores the older ones: the
 * driver is replacing them).
 */
export function currentSlices(slices: readonly ResourceSlice[]): ResourceSlice[] {
  const poolOf = (s: ResourceSlice) => `${s.spec.driver}\u0000${s.spec.pool.name}`;
  const newest = new Map<string, number>();
  for (const s of slices) {
    newest.set(
      poolOf(s),
      Math.max(newest.get(poolOf(s)) ?? Number.NEGATIVE_INFINITY, s.spec.pool.generation),
    );
  }
  return slices.filter((s) => newest.get(poolOf(s)) === s.spec.pool.generation);
}

/** Counts `slice`'s devices that `matches` into `r`: published, allocated after and before. */
function count(
  r: { published: number; allocated: number; allocatedBefore: number },
  slice: ResourceSlice,
  after: ReadonlySet<string>,
  before: ReadonlySet<string>,
  matches: (d: NonNullable<ResourceSlice["spec"]["devices"]>[number]) => boolean = () => true,
): void {
  for (const d of slice.spec.devices ?? []) {
    if (!matches(d)) continue;
    const key = deviceKey(slice.spec.driver, slice.spec.pool.name, d.name);
    r.published++;
    if (after.has(key)) r.allocated++;
    if (before.has(key)) r.allocatedBefore++;
  }
}

/**
 * Per node, the pools its ResourceSlices (`spec.nodeName`) publish, in their newest generation,
 * sorted by driver and pool.
 */
export function nodeDeviceResults(
  slices: readonly ResourceSlice[],
  after: ReadonlySet<string>,
  before: ReadonlySet<string>,
  taints: {
    features: Pick<Features, "enableDRADeviceTaints" | "enableDRADeviceTaintRules">;
    rules: readonly DeviceTaintRule[];
  } = { features: { enableDRADeviceTaints: false, enableDRADeviceTaintRules: false }, rules: [] },
): Map<string, NodeDeviceResult[]> {
  const byNode = new Map<string, Map<string, NodeDeviceResult>>();
  const rules = taints.features.enableDRADeviceTaintRules ? taints.rules : [];
  for (const current of currentSlices(slices)) {
    const s = applyDeviceTaintRules(current, rules);
    const node = s.spec.nodeName;
    if (!node) continue;
    const pools = byNode.get(node) ?? new Map<string, NodeDeviceResult>();
    byNode.set(node, pools);
    const k = `${s.spec.driver}\u0000${s.spec.pool.name}`;
    const r = pools.get(k) ?? {
      driver: s.spec.driver,
      pool: s.spec.pool.name,
      published: 0,
      allocated: 0,
      allocatedBefore: 0,
    };
    pools.set(k, r);
    count(r, s, after, before);
    if (taints.features.enableDRADeviceTaints) {
      const n = (s.spec.devices ?? []).filter((d) =>
        (d.taints ?? []).some((t) => t.effect === "NoSchedule" || t.effect === "NoExecute"),
      ).length;
      if (n > 0) r.tainted = (r.tainted ?? 0) + n;
    }
  }
  const order = (a: NodeDeviceResult, b: NodeDeviceResult) =>
    a.driver < b.driver ? -1 : a.driver > b.driver ? 1 : a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0;
  const out = new Map<string, NodeDeviceResult[]>();
  for (const [node, pools] of byNode) out.set(node, [...pools.values()].sort(order));
  return out;
}

/** The devices a DeviceClass's selectors match, over every pool of the cluster. */
export interface DeviceClassResult {
  name: string;
  /** Devices (in each pool's newest generation) every selector of the class matches. */
  published: number;
  /** Of those, the devices some claim's allocation holds when the simulation ended. */
  allocated: number;
  /** The same before the simulation. */
  allocatedBefore: number;
}

/**
 * Per DeviceClass (sorted by name), the devices its CEL selectors match (all of them must; one
 * that does not compile or fails to evaluate matches nothing, as in the allocator) and how many
 * of those claims hold. The selectors are compiled as the DynamicResources plugin compiles them:
 * stored expressions, with the run's DRAConsumableCapacity (emulated release, --feature-gates) and
 * without DRAListTypeAttributes (upstream's stored-expression environment accepts every field
 * either way, so the counts equal what the plugin's allocator matches).
 */
export function deviceClassResults(
  classes: readonly DeviceClass[],
  slices: readonly ResourceSlice[],
  after: ReadonlySet<string>,
  before: ReadonlySet<string>,
  features: Pick<Features, "enableConsumableCapacity" | "enableDRAListTypeAttributes">,
): DeviceClassResult[] {
  const env = {
    enableConsumableCapacity: features.enableConsumableCapacity,
    enableListTypeAttributes: features.enableDRAListTypeAttributes,
  };
  const current = currentSlices(slices);
  return [...classes]
    .sort((a, b) => ((a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1))
    .map((c) => {
      const matches = deviceClassMatcher(c, env);
      const r: DeviceClassResult = {
        name: c.metadata?.name ?? "",
        published: 0,
        allocated: 0,
        allocatedBefore: 0,
      };
      for (const s of current) count(r, s, after, before, (d) => matches(s, d));
      return r;
    });
}

/**
 * Whether a device of a slice matches every CEL selector of the class (one that does not compile
 * or fails to evaluate matches nothing, as in the allocator). The selectors are compiled once, as
 * stored expressions, with every feature the newest release's environment knows unless `env` says
 * what the run's features are.
 */
export function deviceClassMatcher(
  c: DeviceClass,
  env: { enableConsumableCapacity: boolean; enableListTypeAttributes: boolean } = {
    enableConsumableCapacity: true,
    enableListTypeAttributes: true,
  },
): (slice: ResourceSlice, device: Device) => boolean {
  const compiler = getCompiler(env);
  const selectors = (c.spec?.selectors ?? []).map((sel) =>
    compiler.compileCELExpression(sel.cel?.expression ?? "", { disableCostEstimation: true }),
  );
  return (s, d) => {
    const device = {
      driver: s.spec.driver,
      ...(d.allowMultipleAllocations !== undefined
        ? { allowMultipleAllocations: d.allowMultipleAllocations }
        : {}),
      ...(d.attributes ? { attributes: d.attributes } : {}),
      ...(d.capacity ? { capacity: d.capacity } : {}),
    };
    return selectors.every((sel) => sel.error === null && sel.deviceMatches(device).matches);
  };
}
