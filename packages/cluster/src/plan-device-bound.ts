// The device part of plan's capacity pre-check: devices are a resource. Per DeviceClass, the
// devices the pending pods' claims ask for must not exceed the devices of that class the snapshot
// has free plus those the vector's pool nodes publish. A class's devices are those its CEL
// selectors match (the allocator's CEL environment, `deviceClassMatcher`, shared with the
// simulator's device output).
//
// It is a necessary condition, so a vector it rules out cannot host the pods. What keeps it so:
//   - asked: only `exactly` requests in ExactCount mode without adminAccess, `count` devices each
//     (an All request, a firstAvailable list, an admin-access request count nothing); a claim
//     shared by several pods counts once; an allocated claim counts nothing; a request's own
//     selectors and constraints are ignored (they only narrow the devices that fit);
//   - offered: every device of the class in each pool's newest generation of slices that no
//     claim's allocation holds, wherever the slice says it is (node, nodeSelector, allNodes); a
//     device that may be allocated more than once (allowMultipleAllocations) makes the class
//     unbounded; counters (partitionable devices) are ignored (they only take devices away); a
//     device with a NoSchedule/NoExecute taint (its slice's, or a DeviceTaintRule's with
//     DRADeviceTaintRules) that no counted request's tolerations tolerate is not offered (the
//     allocator skips it for every such request).
//
// The same counts, per pod and per pool node, size the expanders' proposals (plan-expanders.ts),
// and tell before the search which devices no addition can provide (`planDeviceFindings`).
import {
  type DeviceClass,
  type DeviceTaintRule,
  type DeviceToleration,
  type Pod,
  podKey,
  type ResourceClaim,
  type ResourceClaimSpec,
  type ResourceClaimTemplate,
  type ResourceSlice,
} from "@kubesched/api";
import {
  applyDeviceTaintRules,
  taintPreventsAllocation,
} from "@kubesched/dynamic-resource-allocation/structured";
import { defaultFeatures, type Features } from "@kubesched/framework";
import { currentSlices, deviceClassMatcher } from "./device-usage";
import type { SourcedObject } from "./load";
import type { PlanPool } from "./plan";
import { resourceSlicesOn } from "./pool-resource-slices";

/** Devices per class: what the pods ask, what the snapshot has free, what one node of each pool adds. */
export interface PlanDeviceBound {
  /** Per DeviceClass, the devices the pods' claims ask for (classes asked for only). */
  need: Map<string, number>;
  /** Per pod (`namespace/name`) asking for devices of those classes: its part of `need`. */
  perPod: Map<string, Map<string, number>>;
  /** Per DeviceClass, the devices of the snapshot no claim holds. */
  free: Map<string, number>;
  /** Per pool (in order), per DeviceClass, the devices one node of the pool publishes. */
  perNode: Map<string, number>[];
}

const objectsOf = <T>(objects: readonly SourcedObject[], kind: string): T[] =>
  objects.filter((o) => o.kind === kind).map((o) => o.obj as T);

/**
 * Per pod (`namespace/name`), the claim specs it asks through: a claim shared by several pods is
 * the first one's, an allocated claim nobody's.
 */
function claimSpecs(
  objects: readonly SourcedObject[],
  pods: readonly Pod[],
): Map<string, ResourceClaimSpec[]> {
  const claims = new Map<string, ResourceClaim>();
  for (const c of objectsOf<ResourceClaim>(objects, "ResourceClaim"))
    claims.set(`${c.metadata?.namespace ?? "default"}/${c.metadata?.name ?? ""}`, c);
  const templates = new Map<string, ResourceClaimTemplate>();
  for (const t of objectsOf<ResourceClaimTemplate>(objects, "ResourceClaimTemplate"))
    templates.set(`${t.metadata?.namespace ?? "default"}/${t.metadata?.name ?? ""}`, t);
  const seen = new Set<string>();
  const out = new Map<string, ResourceClaimSpec[]>();
  for (const pod of pods) {
    const ns = pod.metadata?.namespace ?? "default";
    const specs: ResourceClaimSpec[] = [];
    for (const pc of pod.spec?.resourceClaims ?? []) {
      const generated = pod.status?.resourceClaimStatuses?.find((s) => s.name === pc.name)?.resourceClaimName;
      const claimName = pc.resourceClaimName ?? generated ?? undefined;
      if (claimName) {
        const key = `${ns}/${claimName}`;
        const claim = claims.get(key);
        if (seen.has(key) || claim === undefined) continue;
        seen.add(key);
        if (claim.status?.allocation === undefined && claim.spec) specs.push(claim.spec);
      } else if (pc.resourceClaimTemplateName) {
        const spec = templates.get(`${ns}/${pc.resourceClaimTemplateName}`)?.spec?.spec;
        if (spec) specs.push(spec);
      }
    }
    if (specs.length > 0) out.set(podKey(pod), specs);
  }
  return out;
}

/** How taints decide which devices are offered: the rules to apply and the tolerations of any request. */
interface TaintView {
  /** DeviceTaintRules to add to the slices (none with DRADeviceTaintRules off). */
  rules: readonly DeviceTaintRule[];
  /** Every counted request's tolerations; null with DRADeviceTaints off (taints are ignored). */
  tolerations: DeviceToleration[] | null;
}

/** The devices per class that `slices` offer, less `held` (driver, pool, device keys). */
function offered(
  classes: readonly DeviceClass[],
  slices: readonly ResourceSlice[],
  held: ReadonlySet<string>,
  taints: TaintView,
): Map<string, number> {
  const out = new Map<string, number>();
  const current = currentSlices(slices).map((s) => applyDeviceTaintRules(s, taints.rules));
  for (const c of classes) {
    const matches = deviceClassMatcher(c);
    let n = 0;
    for (const s of current)
      for (const d of s.spec.devices ?? []) {
        if (!matches(s, d)) continue;
        if (taints.tolerations !== null && taintPreventsAllocation(d, taints.tolerations)) continue;
        if (d.allowMultipleAllocations) n = Number.POSITIVE_INFINITY;
        else if (!held.has(`${s.spec.driver}\u0000${s.spec.pool.name}\u0000${d.name}`)) n++;
      }
    out.set(c.metadata?.name ?? "", n);
  }
  return out;
}

/**
 * The device counts of the bound for the pods (see the file's header); `features` decide whether
 * device taints and DeviceTaintRules count (default: 1.37's gates).
 */
export function planDeviceBound(
  objects: readonly SourcedObject[],
  pods: readonly Pod[],
  pools: readonly PlanPool[],
  features: Pick<Features, "enableDRADeviceTaints" | "enableDRADeviceTaintRules"> = defaultFeatures,
): PlanDeviceBound {
  const perPod = new Map<string, Map<string, number>>();
  const need = new Map<string, number>();
  const tolerations: DeviceToleration[] = [];
  for (const [pod, specs] of claimSpecs(objects, pods)) {
    const asked = new Map<string, number>();
    for (const spec of specs)
      for (const r of spec.devices?.requests ?? []) {
        const e = r.exactly;
        if (e === undefined || e.adminAccess || (e.allocationMode ?? "ExactCount") !== "ExactCount") continue;
        asked.set(e.deviceClassName, (asked.get(e.deviceClassName) ?? 0) + (e.count ?? 1));
        tolerations.push(...(e.tolerations ?? []));
      }
    if (asked.size > 0) perPod.set(pod, asked);
    for (const [c, n] of asked) need.set(c, (need.get(c) ?? 0) + n);
  }
  const classes = objectsOf<DeviceClass>(objects, "DeviceClass").filter((c) =>
    need.has(c.metadata?.name ?? ""),
  );
  // A class the snapshot lacks: no device can be allocated for it, the pods are excluded already.
  for (const k of need.keys())
    if (!classes.some((c) => c.metadata?.name === k)) {
      need.delete(k);
      for (const asked of perPod.values()) asked.delete(k);
    }
  if (need.size === 0)
    return { need, perPod: new Map(), free: new Map(), perNode: pools.map(() => new Map()) };
  const held = new Set<string>();
  for (const c of objectsOf<ResourceClaim>(objects, "ResourceClaim"))
    for (const d of c.status?.allocation?.devices?.results ?? [])
      held.add(`${d.driver}\u0000${d.pool}\u0000${d.device}`);
  const taints: TaintView = {
    rules:
      features.enableDRADeviceTaints && features.enableDRADeviceTaintRules
        ? objectsOf<DeviceTaintRule>(objects, "DeviceTaintRule")
        : [],
    tolerations: features.enableDRADeviceTaints ? tolerations : null,
  };
  const free = offered(classes, objectsOf<ResourceSlice>(objects, "ResourceSlice"), held, taints);
  const perNode = pools.map((p) =>
    offered(classes, resourceSlicesOn(p, `${p.name}-new-1`), new Set(), taints),
  );
  return { need, perPod, free, perNode };
}

/** Whether the vector's pool nodes, with the snapshot's free devices, can hold what the pods ask. */
export function devicesFit(bound: PlanDeviceBound, v: readonly number[]): boolean {
  for (const [cls, n] of bound.need) {
    let have = bound.free.get(cls) ?? 0;
    v.forEach((c, i) => {
      if (c > 0) have += c * (bound.perNode[i]?.get(cls) ?? 0);
    });
    if (n > have) return false;
  }
  return true;
}

/** What a plan can tell about devices before any run (`planDeviceFindings`). */
export interface PlanDeviceFindings {
  /** A pool's slice template (indexes) publishing devices no DeviceClass of the snapshot matches. */
  unmatchedSlices: { pool: number; slice: number; driver: string; devices: number }[];
  /**
   * A DeviceClass the pods' claims ask for of which the snapshot has no free device and no pool's
   * node publishes one: the pods asking (`namespace/name`), which no addition can schedule.
   */
  unoffered: { deviceClass: string; pods: string[] }[];
}

/**
 * The device input a plan cannot use, known before its search: the pools' slices whose devices
 * no class matches (no claim can be allocated from them), and the classes asked for that nothing
 * offers. Class membership as the bound's: `deviceClassMatcher`, the allocator's CEL.
 */
export function planDeviceFindings(
  objects: readonly SourcedObject[],
  pods: readonly Pod[],
  pools: readonly PlanPool[],
  features?: Pick<Features, "enableDRADeviceTaints" | "enableDRADeviceTaintRules">,
): PlanDeviceFindings {
  const matchers = objectsOf<DeviceClass>(objects, "DeviceClass").map((c) => deviceClassMatcher(c));
  const unmatchedSlices = pools.flatMap((p, i) =>
    resourceSlicesOn(p, `${p.name}-new-1`).flatMap((s, j) => {
      const devices = s.spec.devices ?? [];
      if (devices.length === 0 || devices.some((d) => matchers.some((m) => m(s, d)))) return [];
      return [{ pool: i, slice: j, driver: s.spec.driver, devices: devices.length }];
    }),
  );
  const bound = planDeviceBound(objects, pods, pools, features);
  const unoffered = [...bound.need.keys()]
    .filter((c) => (bound.free.get(c) ?? 0) === 0 && bound.perNode.every((m) => (m.get(c) ?? 0) === 0))
    .sort()
    .map((deviceClass) => ({
      deviceClass,
      pods: [...bound.perPod].flatMap(([pod, asked]) => ((asked.get(deviceClass) ?? 0) > 0 ? [pod] : [])),
    }));
  return { unmatchedSlices, unoffered };
}
