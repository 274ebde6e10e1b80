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

function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
