// Each node's pools and candidate devices, kept from one allocator to the next while their inputs
// do not change. kubesched's own: upstream's allocator gathers, builds and validates the pools on
// every Allocate call and checks each device's selectors again per call
// (structured/internal/incubating/allocator_incubating.go at kubernetes/kubernetes 03ab440c).
import type { Device, DeviceClass, DeviceSelector, Node, NodeSelector, ResourceSlice } from "@kubesched/api";
import type { Cache } from "../cel/cache";
import { type AttributeIndex, AttributeValueIDs, buildAttributeIndex } from "./constraint";
import { nodeDeclaresOptionalNodeOperations } from "./optional-node-operations";
import {
  gatherPoolsReading,
  NodeSelectorCache,
  type NodeSelectorSource,
  orderPools,
  type Pool,
  sliceReachesNode,
} from "./pools";
import { type DeviceID, type Features, featureKey, makeDeviceID } from "./types";

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
  /** Per attribute name: which candidates hold each of its values (made by the allocator on first use). */
  readonly attributeIndexes: Map<string, AttributeIndex>;
  /**
   * What the allocator keeps with this object: the candidates' in-use verdicts and the searches
   * made while they hold (its own type; a field rather than a WeakMap: read on every call).
   */
  kept: object | undefined;
  /**
   * Set when nothing a search on these pools reads depends on which node it runs for (see
   * {@link PoolCache}'s search groups): the name under which the allocator keeps the searches
   * of every node given this same object (a {@link PoolCache.slot} name, never a node name).
   * Undefined: the searches are the node's own.
   */
  readonly group: string | undefined;
}

/** What an allocator was built from, as the cache numbers it. */
export interface SliceVersions {
  /** The enabled features ({@link featureKey}). */
  readonly features: string;
  /** Numbers the slices without a node name; equal numbers mean identical slice objects. */
  readonly shared: number;
  /** Numbers the list of all slices. */
  readonly all: number;
}

interface Entry {
  /** The node's pools: its own object, or its search group's, shared with the group's nodes. */
  readonly nodePools: NodePools;
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
/** More distinct sets of reached slices than this start that table afresh. */
const maxReachKeys = 1024;
/** More node names than this start the slot numbering afresh. */
const maxSlots = 100_000;
/** More list attribute values than this start their numbering afresh. */
const maxValueIDs = 1_000_000;

/** The pools of the slices without a node name that some nodes reach (the same slices for each). */
interface Reached {
  readonly pools: readonly Pool[];
  readonly ids: ReadonlySet<string>;
  /** The all-slices version the pools depended on, or -1. */
  readonly allVersion: number;
  /**
   * Whether a search on these pools alone reads nothing of the node ({@link nodeFreePools}):
   * nodes without slices of their own reaching this set then share one NodePools object.
   */
  readonly nodeFree: boolean;
  /** The reach key ({@link PoolCache.#reachKey}). */
  readonly key: string;
  /** The pools' candidates in search order, made on first use. */
  candidates: readonly Candidate[] | undefined;
  /** The shared NodePools objects, by whether the node declares DRAOptionalNodeOperations (0/1). */
  readonly groups: (NodePools | undefined)[];
}

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
 *
 * Search groups: a node without ResourceSlices of its own whose reached slices without a node
 * name hold no per-device node selection and no device binding to its node gets the one NodePools
 * object of every such node reaching the same set of slices (and answering DRAOptionalNodeOperations
 * alike): a search on it reads nothing else of the node, so its outcome is the same for each of
 * them, and the allocator keeps it, with the candidates' in-use verdicts, once for the group
 * ({@link NodePools.group}) instead of once per node.
 */
export class PoolCache {
  #features: string | undefined;
  #entries = new WeakMap<Node, Entry>();
  #all: readonly ResourceSlice[] = [];
  #allVersion = 0;
  #shared: readonly ResourceSlice[] = [];
  #sharedVersion = 0;
  /** Per set of reached slices without a node name ({@link reachKey}), at #reachedVersion. */
  #reached = new Map<string, Reached>();
  #reachedVersion = "";
  /** The node selectors of the slices without a node name, parsed once. */
  #selectors = new NodeSelectorCache();
  /** Per CEL cache, DeviceClass object and request selectors: each device object's verdict. */
  #deviceVerdicts = new WeakMap<Cache, WeakMap<DeviceClass, Map<string, WeakMap<Device, boolean>>>>();
  /** Each pool's candidates, made once per Pool object (nodes reaching the same slices share them). */
  #poolCandidates = new WeakMap<Pool, readonly Candidate[]>();
  #valueIDs = new AttributeValueIDs();
  #slots = new Map<string, number>();
  readonly #grouped = new KeptSlicesByNode();

  /**
   * @internal The list attribute value numbering for the next allocator: kept between allocators,
   * renewed (for the allocators built after) once it holds more than a million values.
   */
  valueIDs(): AttributeValueIDs {
    if (this.#valueIDs.size > maxValueIDs) this.#valueIDs = new AttributeValueIDs();
    return this.#valueIDs;
  }

  /**
   * @internal The slices grouped by node name ({@link groupSlicesByNode}), kept while the list
   * holds the same slice objects (a scheduling cycle's allocator is built from the list the
   * previous one was, unless a slice changed).
   */
  slicesByNode(all: readonly ResourceSlice[]): SlicesByNode {
    return this.#grouped.get(all);
  }

  /**
   * @internal A small number for the node name, where the allocator's per-node tables hold the
   * node; numbering starts afresh past {@link maxSlots} names. Two names may share one: the
   * tables tell nodes apart by object identity.
   */
  slot(nodeName: string): number {
    let slot = this.#slots.get(nodeName);
    if (slot === undefined) {
      if (this.#slots.size >= maxSlots) this.#slots.clear();
      slot = this.#slots.size;
      this.#slots.set(nodeName, slot);
    }
    return slot;
  }

  /** @internal How many slots are given out (one more than the highest). */
  get slots(): number {
    return this.#slots.size;
  }

  /** @internal Numbers the slices an allocator is built from. */
  versions(
    features: Features,
    all: readonly ResourceSlice[],
    shared: readonly ResourceSlice[],
  ): SliceVersions {
    const key = featureKey(features);
    if (key !== this.#features) {
      this.#features = key;
      this.#entries = new WeakMap();
    }
    // Copies: the caller's arrays may be reused.
    if (!sameObjects(all, this.#all)) {
      this.#all = [...all];
      this.#allVersion++;
    }
    if (!sameObjects(shared, this.#shared)) {
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
          sameObjects(kept.ownSlices, ownSlices)))
    ) {
      kept.checkedAll = versions.all;
      return kept.nodePools;
    }
    const readsAllSlices = { value: false };
    const computed = this.#computeNodePools(
      node,
      ownSlices,
      sharedSlices,
      allSlices,
      features,
      versions,
      readsAllSlices,
    );
    // What the allocator keeps per NodePools object holds from the first call.
    const entry: Entry = {
      nodePools: computed,
      features: versions.features,
      ownSlices: [...ownSlices],
      sharedVersion: versions.shared,
      allVersion: readsAllSlices.value ? versions.all : -1,
      checkedAll: versions.all,
    };
    this.#entries.set(node, entry);
    return computed;
  }

  /**
   * The node's pools: those of its own slices, gathered per node, and those of the slices without
   * a node name that it reaches, gathered once per set of reached slices and shared by every node
   * reaching the same set (they depend only on which slices the node's labels and name select).
   * A pool with slices of both kinds, or a node selection that fails, takes the per-node path
   * (which reports the error as upstream does).
   */
  #computeNodePools(
    node: Node,
    ownSlices: readonly ResourceSlice[],
    sharedSlices: readonly ResourceSlice[],
    allSlices: readonly ResourceSlice[],
    features: Features,
    versions: SliceVersions,
    readsAllSlices: { value: boolean },
  ): NodePools {
    const key = sharedSlices.length === 0 ? undefined : this.#reachKey(node, sharedSlices, features);
    if (key === undefined) {
      return computeNodePools(node, ownSlices, sharedSlices, allSlices, features, readsAllSlices);
    }
    const reachedVersion = `${versions.features}|${versions.shared}`;
    if (reachedVersion !== this.#reachedVersion || this.#reached.size > maxReachKeys) {
      this.#reached = new Map();
      this.#reachedVersion = reachedVersion;
    }
    let reached = this.#reached.get(key);
    if (reached === undefined || (reached.allVersion !== -1 && reached.allVersion !== versions.all)) {
      const reads = { value: false };
      const slices = sharedSlices.filter((_, i) => key.charCodeAt(i) === reachedChar);
      const pools = gatherPoolsReading(slices, node, features, allSlices, reads);
      reached = {
        pools,
        ids: new Set(pools.map((p) => p.id)),
        allVersion: reads.value ? versions.all : -1,
        nodeFree: nodeFreePools(pools),
        key,
        candidates: undefined,
        groups: [],
      };
      this.#reached.set(key, reached);
    }
    if (ownSlices.length === 0 && reached.nodeFree) {
      if (reached.allVersion !== -1) readsAllSlices.value = true;
      return this.#group(reached, node, features);
    }
    const own = gatherPoolsReading(ownSlices, node, features, allSlices, readsAllSlices);
    if (own.some((pool) => reached.ids.has(pool.id))) {
      return computeNodePools(node, ownSlices, sharedSlices, allSlices, features, readsAllSlices);
    }
    if (reached.allVersion !== -1) readsAllSlices.value = true;
    const pools = own.length === 0 ? reached.pools : orderPools([...own, ...reached.pools]);
    return {
      pools,
      candidates: own.length === 0 ? this.#reachedCandidates(reached) : this.#candidates(pools),
      selectable: new Map(),
      attributeIndexes: new Map(),
      kept: undefined,
      group: undefined,
    };
  }

  /**
   * The search group of the nodes without slices of their own that reach `reached` (node-free
   * pools): one NodePools object for all of them, per answer to the one question about the node
   * a search on such pools still asks (with DRAOptionalNodeOperations: does the node declare
   * it). Its candidate tables, in-use verdicts and kept searches are then the group's.
   */
  #group(reached: Reached, node: Node, features: Features): NodePools {
    const variant =
      features.optionalNodeOperations === true && nodeDeclaresOptionalNodeOperations(node) ? 1 : 0;
    let group = reached.groups[variant];
    if (group === undefined) {
      group = {
        pools: reached.pools,
        candidates: this.#reachedCandidates(reached),
        selectable: new Map(),
        attributeIndexes: new Map(),
        kept: undefined,
        // Slot names of groups start with NUL, which no node name holds.
        group: `\0${variant}${reached.key}`,
      };
      reached.groups[variant] = group;
    }
    return group;
  }

  /** The candidates of the reached pools, made once per set of reached slices (read-only). */
  #reachedCandidates(reached: Reached): readonly Candidate[] {
    reached.candidates ??= this.#candidates(reached.pools);
    return reached.candidates;
  }

  /** The pools' candidates in search order (each pool's made once per Pool object). */
  #candidates(pools: readonly Pool[]): Candidate[] {
    const candidates: Candidate[] = [];
    for (const pool of pools) {
      let forPool = this.#poolCandidates.get(pool);
      if (forPool === undefined) {
        forPool = poolCandidates(pool);
        this.#poolCandidates.set(pool, forPool);
      }
      for (const candidate of forPool) candidates.push(candidate);
    }
    return candidates;
  }

  /**
   * Which of the slices without a node name the node reaches, one character per slice (as
   * upstream GatherPools selects them: sliceReachesNode), or undefined when a node selector fails
   * to parse (gatherPools then reports it). Each selector is matched once per node.
   */
  #reachKey(node: Node, sharedSlices: readonly ResourceSlice[], features: Features): string | undefined {
    const verdicts = new Map<NodeSelector, boolean>();
    const selectors = this.#selectors;
    const perNode: NodeSelectorSource = {
      matches(selector, n) {
        let verdict = verdicts.get(selector);
        if (verdict === undefined) {
          verdict = selectors.matches(selector, n);
          verdicts.set(selector, verdict);
        }
        return verdict;
      },
    };
    let key = "";
    try {
      for (const slice of sharedSlices) {
        key += sliceReachesNode(slice, node, features.partitionableDevices === true, perNode) ? "1" : "0";
      }
    } catch {
      return undefined;
    }
    return key;
  }

  /**
   * @internal Each device object's verdict for a DeviceClass object and request selectors
   * (class and request selectors through `celCache`; per-device node selection is the node's
   * own), shared by every node whose candidates hold the device.
   */
  deviceVerdicts(
    celCache: Cache,
    deviceClass: DeviceClass,
    selectors: readonly DeviceSelector[],
  ): WeakMap<Device, boolean> {
    let perCache = this.#deviceVerdicts.get(celCache);
    if (perCache === undefined) {
      perCache = new WeakMap();
      this.#deviceVerdicts.set(celCache, perCache);
    }
    let perClass = perCache.get(deviceClass);
    if (perClass === undefined || perClass.size > maxSelectableKeys) {
      perClass = new Map();
      perCache.set(deviceClass, perClass);
    }
    const key = selectorsKey(selectors);
    let verdicts = perClass.get(key);
    if (verdicts === undefined) {
      verdicts = new WeakMap();
      perClass.set(key, verdicts);
    }
    return verdicts;
  }
}

const reachedChar = "1".charCodeAt(0);

/**
 * Whether a search over these pools (of slices without a node name) reads nothing of the node it
 * runs for, beyond which slices the node reaches (the reach key) and whether it declares
 * DRAOptionalNodeOperations (the group's variant). The allocator reads the node in three places
 * (allocator.ts, AllocationRun): per-device node selection in isSelectable, the results' node
 * selector (createNodeSelector: a device with a node name, or `bindsToNode`, restricts the
 * allocation to the node's name) and the optional node operations check. So: no device slice
 * with per-device node selection, no device binding to its node. Slices without a node name carry
 * no `nodeName`, so the rest of a result's node selector comes from the slices' node selectors.
 */
function nodeFreePools(pools: readonly Pool[]): boolean {
  for (const pool of pools) {
    for (const slice of pool.deviceSlicesTargetingNode) {
      if (slice.spec.perDeviceNodeSelection === true || (slice.spec.nodeName ?? "") !== "") return false;
      for (const device of slice.spec.devices ?? []) if (device.bindsToNode === true) return false;
    }
  }
  return true;
}

/** Slices by the node they name, and those naming none (allNodes, nodeSelector, per-device node selection). */
export interface SlicesByNode {
  readonly onNode: ReadonlyMap<string, readonly ResourceSlice[]>;
  readonly shared: readonly ResourceSlice[];
}

/** Groups the slices by spec.nodeName, in list order. */
export function groupSlicesByNode(slices: readonly ResourceSlice[]): SlicesByNode {
  const onNode = new Map<string, ResourceSlice[]>();
  const shared: ResourceSlice[] = [];
  for (const slice of slices) {
    const nodeName = slice.spec.nodeName ?? "";
    if (nodeName === "") {
      shared.push(slice);
      continue;
    }
    let list = onNode.get(nodeName);
    if (list === undefined) {
      list = [];
      onNode.set(nodeName, list);
    }
    list.push(slice);
  }
  return { onNode, shared };
}

/** The pool's devices in search order. */
function poolCandidates(pool: Pool): Candidate[] {
  const candidates: Candidate[] = [];
  for (const slice of pool.deviceSlicesTargetingNode) {
    for (const device of slice.spec.devices ?? []) {
      candidates.push({ id: makeDeviceID(pool.driver, pool.pool, device.name), pool, slice, device });
    }
  }
  return candidates;
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
  return {
    pools,
    candidates: pools.flatMap(poolCandidates),
    selectable: new Map(),
    attributeIndexes: new Map(),
    kept: undefined,
    group: undefined,
  };
}

/** The per-candidate selectable table of a class and request selectors, made on first use. */
export function selectableFor(
  nodePools: NodePools,
  deviceClass: DeviceClass,
  selectors: readonly DeviceSelector[],
): Uint8Array {
  let perClass = nodePools.selectable.get(deviceClass);
  if (perClass === undefined) {
    if (nodePools.selectable.size >= maxSelectableKeys) nodePools.selectable.clear();
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

/** The node's index of an attribute for this value numbering, made on first use. */
export function attributeIndexFor(
  nodePools: NodePools,
  attributeName: string,
  valueIDs: AttributeValueIDs,
): AttributeIndex {
  let index = nodePools.attributeIndexes.get(attributeName);
  if (index === undefined || index.valueIDs !== valueIDs) {
    if (nodePools.attributeIndexes.size > maxSelectableKeys) nodePools.attributeIndexes.clear();
    index = buildAttributeIndex(nodePools.candidates, attributeName, valueIDs);
    nodePools.attributeIndexes.set(attributeName, index);
  }
  return index;
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

/**
 * Whether the two lists hold the same objects in the same order. Informer objects are replaced,
 * never changed in place, so what was derived from one list holds for the other.
 */
export function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The slices grouped by node name ({@link groupSlicesByNode}), kept while the listing holds the
 * same slice objects (a lister may hand out a new array for an unchanged listing).
 */
export class KeptSlicesByNode {
  #grouped: SlicesByNode | undefined;
  #of: readonly ResourceSlice[] = [];

  get(all: readonly ResourceSlice[]): SlicesByNode {
    if (this.#grouped === undefined || !sameObjects(all, this.#of)) {
      this.#grouped = groupSlicesByNode(all);
      // A copy: the caller's array may be reused.
      this.#of = [...all];
    }
    return this.#grouped;
  }
}
