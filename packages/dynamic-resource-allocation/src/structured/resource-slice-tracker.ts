// The ResourceSlices with the taints of matching DeviceTaintRules added, as the scheduler's DRA
// manager reads them when DRADeviceTaintRules is on. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/resourceslice/tracker/tracker.go (applyPatches,
// read at kubernetes/kubernetes 030880a5; its test table at 008b3652, where the rules come from the
// v1beta2 informer). Since 1.35 a rule selects by driver, pool and device name only (KEP-5055; the
// class and CEL selectors of 1.33–1.34's v1alpha3 are gone). Upstream keeps the patched slices in a
// store updated by informer events; here they are computed when listed and kept per slice object
// while the rules are the same objects, so an unchanged slice stays the same object (the
// PoolCache keys on slice identity) and a rule change gives the slices it touches new objects.
import type { DeviceTaint, DeviceTaintRule, ResourceSlice } from "@kubesched/api";
import { sameObjects } from "./pool-cache";

/** What the tracker reads: informer caches of slices and rules (ClusterScopedLister). */
export interface SliceTrackerSources {
  readonly resourceSlices: { list(): readonly ResourceSlice[]; get(name: string): ResourceSlice | undefined };
  readonly deviceTaintRules: { list(): readonly DeviceTaintRule[] };
}

/**
 * The slice with the taint of every rule that selects one of its devices appended to that
 * device's own taints, in rule order (upstream applyPatches). The slice itself when no rule
 * applies; otherwise a copy (the input is not modified).
 */
export function applyDeviceTaintRules(
  slice: ResourceSlice,
  rules: readonly DeviceTaintRule[],
): ResourceSlice {
  let devices: ResourceSlice["spec"]["devices"];
  for (const rule of rules) {
    const selector = rule.spec.deviceSelector;
    if (selector?.driver !== undefined && selector.driver !== slice.spec.driver) continue;
    if (selector?.pool !== undefined && selector.pool !== slice.spec.pool.name) continue;
    const original = slice.spec.devices ?? [];
    for (let i = 0; i < original.length; i++) {
      const device = original[i];
      if (device === undefined) continue;
      if (selector?.device !== undefined && selector.device !== device.name) continue;
      devices ??= [...original];
      const current = devices[i] ?? device;
      devices[i] = { ...current, taints: [...(current.taints ?? []), taintOf(rule)] };
    }
  }
  return devices === undefined ? slice : { ...slice, spec: { ...slice.spec, devices } };
}

/** Whether the rule selects at least one device of the slice (upstream sliceNamesForPatch's index). */
function selectsSome(rule: DeviceTaintRule, slice: ResourceSlice): boolean {
  const selector = rule.spec.deviceSelector;
  if (selector?.driver !== undefined && selector.driver !== slice.spec.driver) return false;
  if (selector?.pool !== undefined && selector.pool !== slice.spec.pool.name) return false;
  if (selector?.device === undefined) return (slice.spec.devices ?? []).length > 0;
  return (slice.spec.devices ?? []).some((d) => d.name === selector.device);
}

/** upstream taintsEqual: key, effect, value and timeAdded. */
function taintsEqual(a: DeviceTaint, b: DeviceTaint): boolean {
  return (
    a.key === b.key &&
    a.effect === b.effect &&
    (a.value ?? "") === (b.value ?? "") &&
    (a.timeAdded === undefined || b.timeAdded === undefined
      ? a.timeAdded === b.timeAdded
      : Date.parse(a.timeAdded) === Date.parse(b.timeAdded))
  );
}

/** A patched slice before and after a DeviceTaintRule event. */
export interface RetaintedSlice {
  readonly oldSlice: ResourceSlice;
  readonly newSlice: ResourceSlice;
}

/**
 * The slices whose devices' taints change when the rules go from `before` to `after` (one
 * DeviceTaintRule added, updated or deleted: `changed` holds its old and new object), each
 * patched before and after: upstream's tracker (deviceTaintAdd/Update/Delete → syncSlice) syncs
 * the slices the old or new rule selects and sends a ResourceSlice update only for those whose
 * devices' taints differ. An update that changes no taint (labels, status) changes no slice.
 */
export function slicesRetainted(
  slices: readonly ResourceSlice[],
  before: readonly DeviceTaintRule[],
  after: readonly DeviceTaintRule[],
  changed: { readonly old?: DeviceTaintRule | undefined; readonly new?: DeviceTaintRule | undefined },
): RetaintedSlice[] {
  const out: RetaintedSlice[] = [];
  for (const slice of slices) {
    const touched =
      (changed.old !== undefined && selectsSome(changed.old, slice)) ||
      (changed.new !== undefined && selectsSome(changed.new, slice));
    if (!touched) continue;
    const oldSlice = applyDeviceTaintRules(slice, before);
    const newSlice = applyDeviceTaintRules(slice, after);
    const oldDevices = oldSlice.spec.devices ?? [];
    const newDevices = newSlice.spec.devices ?? [];
    const differs = newDevices.some((d, i) => {
      const a = oldDevices[i]?.taints ?? [];
      const b = d.taints ?? [];
      return a.length !== b.length || a.some((t, j) => !taintsEqual(t, b[j] as DeviceTaint));
    });
    if (differs) out.push({ oldSlice, newSlice });
  }
  return out;
}

/** The rule's taint as a device taint (upstream copies key, value, effect and timeAdded). */
function taintOf(rule: DeviceTaintRule): DeviceTaint {
  const { key, value, effect, timeAdded } = rule.spec.taint;
  return {
    key,
    ...(value !== undefined ? { value } : {}),
    effect,
    ...(timeAdded !== undefined ? { timeAdded } : {}),
  };
}

interface Patched {
  readonly rules: readonly DeviceTaintRule[];
  readonly slice: ResourceSlice;
}

/**
 * A ResourceSlice lister whose slices carry the taints of the DeviceTaintRules (upstream
 * `tracker.ListPatchedResourceSlices`). Without rules it lists the slices as they are.
 */
export class ResourceSliceTracker {
  readonly #sources: SliceTrackerSources;
  #patched = new WeakMap<ResourceSlice, Patched>();
  #lastIn: readonly ResourceSlice[] = [];
  #lastRules: readonly DeviceTaintRule[] = [];
  #lastOut: readonly ResourceSlice[] = [];

  constructor(sources: SliceTrackerSources) {
    this.#sources = sources;
  }

  /** Every slice, patched. The same array while neither the slices nor the rules changed. */
  list(): readonly ResourceSlice[] {
    const slices = this.#sources.resourceSlices.list();
    const rules = this.#sources.deviceTaintRules.list();
    if (rules.length === 0) return slices;
    if (sameObjects(slices, this.#lastIn) && sameObjects(rules, this.#lastRules)) return this.#lastOut;
    const kept = sameObjects(rules, this.#lastRules) ? this.#lastRules : [...rules];
    const out = slices.map((s) => this.#patch(s, kept));
    this.#lastIn = [...slices];
    this.#lastRules = kept;
    this.#lastOut = out;
    return out;
  }

  /** The slice `name`, patched. */
  get(name: string): ResourceSlice | undefined {
    const slice = this.#sources.resourceSlices.get(name);
    if (slice === undefined) return undefined;
    const rules = this.#sources.deviceTaintRules.list();
    if (rules.length === 0) return slice;
    return this.#patch(slice, sameObjects(rules, this.#lastRules) ? this.#lastRules : [...rules]);
  }

  #patch(slice: ResourceSlice, rules: readonly DeviceTaintRule[]): ResourceSlice {
    const kept = this.#patched.get(slice);
    if (kept !== undefined && (kept.rules === rules || sameObjects(kept.rules, rules))) return kept.slice;
    const patched = applyDeviceTaintRules(slice, rules);
    this.#patched.set(slice, { rules, slice: patched });
    return patched;
  }
}
