// Each node's pools and candidate devices, kept from one allocator to the next while their inputs
// do not change. kubesched's own: upstream's allocator gathers, builds and validates the pools on
// every Allocate call and checks each device's selectors again per call
// (structured/internal/incubating/allocator_incubating.go at kubernetes/kubernetes 03ab440c).
import type { Device, DeviceClass, DeviceSelector, Node, ResourceSlice } from "@kubesched/api";
import { gatherPoolsReading, type Pool } from "./pools";
import { type DeviceID, type Features, featureSet, makeDeviceID } from "./types";

/** One device the node can use, at a fixed position in the search order. */
export interface Candidate {
  readonly id: DeviceID;
  readonly pool: Pool;
  readonly slice: ResourceSlice;
  readonly device: Device;
}

/** What one node can use: its pools and their devices in search order. */
export interface NodePools {
  readonly pools: readonly Pool[];
  readonly candidates: readonly Candidate[];
  /**
   * Per DeviceClass object, then per request selectors ({@link selectorsKey}): for each
   * candidate 0 not checked yet, 1 selectable, 2 not (class and request selectors, per-device
   * node selection). Filled by the allocator as it checks candidates.
   */
  readonly selectable: Map<DeviceClass, Map<string, Uint8Array>>;
}

/** What an allocator was built from, as the cache numbers it. */
export interface SliceVersions {
  /** The enabled features ({@link featureSet}). */
  readonly features: string;
  /** Numbers the slices without a node name; equal numbers mean identical slice objects. */
  readonly shared: number;
  /** Numbers the list of all slices. */
  readonly all: number;
}

interface Entry extends NodePools {
  readonly features: string;
  readonly ownSlices: readonly ResourceSlice[];
  readonly sharedVersion: number;
  /** The all-slices version the pools depended on, or -1 when they depend only on their own. */
  readonly allVersion: number;
  /**
   * The all-slices version at which the entry was last found valid: an allocator built from the
   * same list of slices needs no comparison.
   */
  checkedAll: number;
}

/** More classes or selector sets per node than this start that node's table afresh. */
const maxSelectableKeys = 64;

/**
 * The pools each node can use (gathered, built, validated), its candidate devices and which of
 * them each (DeviceClass, request selectors) selects, kept between allocators: an allocator given
 * the same cache (AllocatorOptions.poolCache) reuses them while nothing they depend on changed.
 *
 * An entry is keyed by the Node object, the enabled features and the identity of the node's own
 * ResourceSlices and of the slices without a node name (allNodes, nodeSelector, per-device node
 * selection), plus every slice when a pool of the node was incomplete with the node's slices
 * alone. Informer objects are never changed in place (an update is a new object), so identical
 * objects give identical pools; selectors are evaluated against the device objects of those
 * slices, per DeviceClass object (an updated class is a new object) and request selector
 * expressions. Errors are not kept: they are raised again on the next call.
 */
export class PoolCache {
  #features: string | undefined;
  #entries = new WeakMap<Node, Entry>();
  #all: readonly ResourceSlice[] = [];
  #allVersion = 0;
  #shared: readonly ResourceSlice[] = [];
  #sharedVersion = 0;

  /** @internal Numbers the slices an allocator is built from. */
  versions(
    features: Features,
    all: readonly ResourceSlice[],
    shared: readonly ResourceSlice[],
  ): SliceVersions {
    const key = featureSet(features).join(",");
    if (key !== this.#features) {
      this.#features = key;
      this.#entries = new WeakMap();
    }
    // Copies: the caller's arrays may be reused.
    if (!sameSlices(all, this.#all)) {
      this.#all = [...all];
      this.#allVersion++;
    }
    if (!sameSlices(shared, this.#shared)) {
      this.#shared = [...shared];
      this.#sharedVersion++;
    }
    return { features: key, shared: this.#sharedVersion, all: this.#allVersion };
  }

  /** @internal The node's pools for an allocator built at `versions`, computed when not kept. */
  nodePools(
    node: Node,
    ownSlices: readonly ResourceSlice[],
    sharedSlices: readonly ResourceSlice[],
    allSlices: readonly ResourceSlice[],
    features: Features,
    versions: SliceVersions,
  ): NodePools {
    const kept = this.#entries.get(node);
    if (
      kept !== undefined &&
      kept.features === versions.features &&
      (kept.checkedAll === versions.all ||
        (kept.sharedVersion === versions.shared &&
          (kept.allVersion === -1 || kept.allVersion === versions.all) &&
          sameSlices(kept.ownSlices, ownSlices)))
    ) {
      kept.checkedAll = versions.all;
      if (kept.selectable.size > maxSelectableKeys) kept.selectable.clear();
      return kept;
    }
    const readsAllSlices = { value: false };
    const computed = computeNodePools(node, ownSlices, sharedSlices, allSlices, features, readsAllSlices);
    this.#entries.set(node, {
      ...computed,
      features: versions.features,
      ownSlices: [...ownSlices],
      sharedVersion: versions.shared,
      allVersion: readsAllSlices.value ? versions.all : -1,
      checkedAll: versions.all,
    });
    return computed;
  }
}

/** The node's pools and candidates (upstream GatherPools and the candidate order of allocateOne). */
export function computeNodePools(
  node: Node,
  ownSlices: readonly ResourceSlice[],
  sharedSlices: readonly ResourceSlice[],
  allSlices: readonly ResourceSlice[],
  features: Features,
  readsAllSlices: { value: boolean } | undefined,
): NodePools {
  const slicesForNode = sharedSlices.length === 0 ? ownSlices : [...ownSlices, ...sharedSlices];
  const pools = gatherPoolsReading(slicesForNode, node, features, allSlices, readsAllSlices);
  const candidates: Candidate[] = [];
  for (const pool of pools) {
    for (const slice of pool.deviceSlicesTargetingNode) {
      for (const device of slice.spec.devices ?? []) {
        candidates.push({ id: makeDeviceID(pool.driver, pool.pool, device.name), pool, slice, device });
      }
    }
  }
  return { pools, candidates, selectable: new Map() };
}

/** The per-candidate selectable table of a class and request selectors, made on first use. */
export function selectableFor(
  nodePools: NodePools,
  deviceClass: DeviceClass,
  selectors: readonly DeviceSelector[],
): Uint8Array {
  let perClass = nodePools.selectable.get(deviceClass);
  if (perClass === undefined) {
    perClass = new Map();
    nodePools.selectable.set(deviceClass, perClass);
  } else if (perClass.size > maxSelectableKeys) {
    perClass.clear();
  }
  const key = selectorsKey(selectors);
  let table = perClass.get(key);
  if (table === undefined) {
    table = new Uint8Array(nodePools.candidates.length);
    perClass.set(key, table);
  }
  return table;
}

const keys = new WeakMap<readonly DeviceSelector[], string>();

/** The request selectors' expressions as one string (kept per selectors array). */
function selectorsKey(selectors: readonly DeviceSelector[]): string {
  if (selectors.length === 0) return "";
  let key = keys.get(selectors);
  if (key === undefined) {
    key = JSON.stringify(selectors.map((s) => s.cel?.expression ?? null));
    keys.set(selectors, key);
  }
  return key;
}

function sameSlices(a: readonly ResourceSlice[], b: readonly ResourceSlice[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
