// Collecting the resource pools a node can use. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/pools_incubating.go
// (the 1.37 form: counter sets in slices of their own, slices not targeting the node kept for
// counter accounting; slices sorted by name and pools by ID, pools with binding conditions last,
// as experimental/pools_experimental.go at 008b3652 and the table at 03ab440c expect).
import type {
  CounterSet,
  Device,
  Node,
  NodeSelector,
  NodeSelectorMatcher,
  ResourceSlice,
} from "@kubesched/api";
import { NodeSelectorError, newNodeSelector } from "@kubesched/api";
import type { Features } from "./types";

/** The devices of one pool that the allocator may use on one node (upstream Pool). */
export interface Pool {
  readonly driver: string;
  readonly pool: string;
  /** `<driver>/<pool>` (upstream PoolID.String()). */
  readonly id: string;
  readonly isIncomplete: boolean;
  readonly isInvalid: boolean;
  readonly invalidReason: string;
  readonly deviceSlicesTargetingNode: readonly ResourceSlice[];
  readonly deviceSlicesNotTargetingNode: readonly ResourceSlice[];
  readonly counterSets: ReadonlyMap<string, CounterSet>;
}

/** How a node selector prints in errors (upstream prints the Go struct; JSON here). */
function selectorString(selector: NodeSelector): string {
  return JSON.stringify(selector);
}

/**
 * Where the node selectors of slices and devices are matched: a source may keep the parsed
 * selectors (the PoolCache, the scoring) or parse each one when asked ({@link parsingNodeSelectors}).
 * `matches` throws upstream's "failed to parse node selector" error for an invalid selector.
 */
export interface NodeSelectorSource {
  matches(selector: NodeSelector, node: Node | undefined): boolean;
}

/** The selector parsed for matching (strict, as upstream); upstream's error when it is invalid. */
export function parseNodeSelector(selector: NodeSelector): NodeSelectorMatcher {
  try {
    return newNodeSelector(selector, { strict: true });
  } catch (err) {
    const detail = err instanceof NodeSelectorError ? err.message : String(err);
    throw new Error(`failed to parse node selector ${selectorString(selector)}: ${detail}`);
  }
}

/** A {@link NodeSelectorSource} that parses each selector when asked (nothing kept). */
export const parsingNodeSelectors: NodeSelectorSource = {
  matches: (selector, node) => parseNodeSelector(selector).match(node),
};

/** More distinct selectors than this start a {@link NodeSelectorCache}'s table afresh. */
const maxCachedSelectors = 1024;

/**
 * A {@link NodeSelectorSource} keeping each selector parsed: per selector object, and per
 * selector content for equal selectors in other objects (a bounded table). A selector that fails
 * to parse is parsed again (and fails again) when asked again.
 */
export class NodeSelectorCache implements NodeSelectorSource {
  #byContent = new Map<string, NodeSelectorMatcher>();
  #byObject = new WeakMap<NodeSelector, NodeSelectorMatcher>();

  matches(selector: NodeSelector, node: Node | undefined): boolean {
    return this.matcher(selector).match(node);
  }

  /** The parsed selector; throws as {@link parseNodeSelector}. */
  matcher(selector: NodeSelector): NodeSelectorMatcher {
    const kept = this.#byObject.get(selector);
    if (kept !== undefined) return kept;
    const json = JSON.stringify(selector);
    let matcher = this.#byContent.get(json);
    if (matcher === undefined) {
      matcher = parseNodeSelector(selector);
      if (this.#byContent.size > maxCachedSelectors) this.#byContent.clear();
      this.#byContent.set(json, matcher);
    }
    this.#byObject.set(selector, matcher);
    return matcher;
  }
}

/**
 * Whether a node is selected by a node name, "all nodes", or a node selector (upstream
 * NodeMatches). An invalid node selector is an error.
 */
export function nodeMatches(
  node: Node | undefined,
  nodeNameToMatch: string,
  allNodesMatch: boolean,
  nodeSelector: NodeSelector | undefined,
  selectors: NodeSelectorSource = parsingNodeSelectors,
): boolean {
  if (nodeNameToMatch !== "") return node !== undefined && node.metadata?.name === nodeNameToMatch;
  if (allNodesMatch) return true;
  if (nodeSelector !== undefined) return selectors.matches(nodeSelector, node);
  return false;
}

/**
 * Whether the device of a slice with per-device node selection is on the node (its node name,
 * all nodes, or its node selector; upstream NodeMatches on the device's fields).
 */
export function deviceReachesNode(
  device: Device,
  node: Node | undefined,
  selectors: NodeSelectorSource = parsingNodeSelectors,
): boolean {
  return nodeMatches(node, device.nodeName ?? "", device.allNodes ?? false, device.nodeSelector, selectors);
}

/**
 * Whether a slice reaches the node, as upstream GatherPools selects slices: without
 * `partitionableDevices`, a slice with per-device node selection or shared counters reaches no
 * node; a slice with shared counters reaches every node (its counters are needed wherever the
 * pool is used); a slice's node name, "all nodes" or node selector decides; with per-device node
 * selection, the slice reaches a node one of its devices is on. A slice setting none of these
 * (a future extension) reaches no node. An invalid node selector throws upstream's error naming
 * the slice (and the device).
 *
 * The one decision of reach: gatherPools, the PoolCache's key of the slices without a node name
 * and NodeResourcesFit's DRA-backed scoring (plugin-helpers) all call it.
 */
export function sliceReachesNode(
  slice: ResourceSlice,
  node: Node | undefined,
  partitionableDevices: boolean,
  selectors: NodeSelectorSource = parsingNodeSelectors,
): boolean {
  const spec = slice.spec;
  const nodeName = spec.nodeName ?? "";
  // The common case first: a slice of one node (no shared counters, no per-device selection).
  if (nodeName !== "" && spec.sharedCounters === undefined && spec.perDeviceNodeSelection === undefined) {
    return node !== undefined && node.metadata?.name === nodeName;
  }
  const hasSharedCounters = (spec.sharedCounters?.length ?? 0) > 0;
  if (!partitionableDevices && (spec.perDeviceNodeSelection !== undefined || hasSharedCounters)) return false;
  if (hasSharedCounters) return true;
  const name = slice.metadata?.name ?? "";
  const allNodes = spec.allNodes ?? false;
  if (nodeName !== "" || allNodes || spec.nodeSelector !== undefined) {
    try {
      return nodeMatches(node, nodeName, allNodes, spec.nodeSelector, selectors);
    } catch (err) {
      throw new Error(`failed to perform node selection for slice ${name}: ${(err as Error).message}`);
    }
  }
  if (spec.perDeviceNodeSelection !== true) return false;
  for (const device of spec.devices ?? []) {
    let match: boolean;
    try {
      match = deviceReachesNode(device, node, selectors);
    } catch (err) {
      throw new Error(
        `failed to perform node selection for device ${device.name} in slice ${name}: ${(err as Error).message}`,
      );
    }
    if (match) return true;
  }
  return false;
}

function poolKey(driver: string, pool: string): string {
  return `${driver}/${pool}`;
}

function addSlice(pools: Map<string, ResourceSlice[]>, slice: ResourceSlice): void {
  const id = poolKey(slice.spec.driver, slice.spec.pool.name);
  const slicesForPool = pools.get(id);
  if (slicesForPool === undefined) {
    pools.set(id, [slice]);
    return;
  }
  const generation = slicesForPool[0]!.spec.pool.generation;
  if (slice.spec.pool.generation < generation) return; // Out-dated.
  if (slice.spec.pool.generation > generation) {
    // Newer, replaces all old slices.
    pools.set(id, [slice]);
    return;
  }
  slicesForPool.push(slice);
}

/**
 * The pools with devices accessible from the node (upstream GatherPools). Out-dated slices are
 * ignored; pools may be incomplete (not all slices of the current generation are known) or
 * invalid (duplicate device names, counters that do not exist): both are recorded.
 *
 * `slicesForNode` may be all slices or a prefiltered list (the node's own slices and those
 * without a node name); `allSlices` is every slice, consulted to decide completeness.
 */
export function gatherPools(
  slicesForNode: readonly ResourceSlice[],
  node: Node | undefined,
  features: Features,
  allSlices: readonly ResourceSlice[] = slicesForNode,
): Pool[] {
  return gatherPoolsReading(slicesForNode, node, features, allSlices, undefined);
}

/**
 * {@link gatherPools}, telling `readsAllSlices` whether the result depended on slices beyond
 * `slicesForNode` (a pool whose slices for the node are not all of its generation): the node's
 * pools can then change when any slice changes.
 */
export function gatherPoolsReading(
  slicesForNode: readonly ResourceSlice[],
  node: Node | undefined,
  features: Features,
  allSlices: readonly ResourceSlice[],
  readsAllSlices: { value: boolean } | undefined,
): Pool[] {
  const pools = new Map<string, ResourceSlice[]>();
  for (const slice of slicesForNode) {
    // Slices with SharedCounters are needed to use a pool regardless of their node selection; a
    // slice setting nothing known (some future extension) is skipped, other pools may be usable.
    if (sliceReachesNode(slice, node, features.partitionableDevices === true)) addSlice(pools, slice);
  }

  const result: Pool[] = [];
  for (const [id, slicesForPool] of pools) {
    const first = slicesForPool[0]!.spec;
    const driver = first.driver;
    const poolName = first.pool.name;
    if (slicesForPool.length === first.pool.resourceSliceCount) {
      result.push(buildPool(driver, poolName, id, slicesForPool, features, undefined));
      continue;
    }
    // Look for slices that were filtered out because their node selection did not match: a
    // pool is complete only when every slice of its generation exists.
    if (readsAllSlices !== undefined) readsAllSlices.value = true;
    const allSlicesForPool = checkSlicesInPool(allSlices, driver, poolName, first.pool.generation);
    if (allSlicesForPool === undefined) continue; // Obsolete: a newer generation is being published.
    if (allSlicesForPool.length !== first.pool.resourceSliceCount) {
      result.push(emptyPool(driver, poolName, id, { isIncomplete: true }));
      continue;
    }
    result.push(buildPool(driver, poolName, id, slicesForPool, features, allSlicesForPool));
  }
  return orderPools(result);
}

/**
 * The allocator's pool order: a deterministic first-fit order that lets driver authors prioritize
 * by naming; pools with devices that have binding conditions come last. Pool IDs must be unique.
 */
export function orderPools(pools: readonly Pool[]): Pool[] {
  const result: Pool[] = [];
  const withBindingConditions: Pool[] = [];
  for (const pool of pools) {
    if (poolHasBindingConditions(pool)) withBindingConditions.push(pool);
    else result.push(pool);
  }
  result.sort(comparePools);
  withBindingConditions.sort(comparePools);
  return withBindingConditions.length > 0 ? [...result, ...withBindingConditions] : result;
}

function comparePools(a: Pool, b: Pool): number {
  return compareStrings(a.driver, b.driver) || compareStrings(a.pool, b.pool);
}

/** Go's cmp.Compare on strings: byte order, not locale order. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function poolHasBindingConditions(pool: Pool): boolean {
  for (const slice of pool.deviceSlicesTargetingNode) {
    for (const device of slice.spec.devices ?? []) {
      if (device.bindingConditions !== undefined) return true;
    }
  }
  return false;
}

function emptyPool(
  driver: string,
  pool: string,
  id: string,
  flags: { isIncomplete?: boolean; isInvalid?: boolean; invalidReason?: string },
): Pool {
  return {
    driver,
    pool,
    id,
    isIncomplete: flags.isIncomplete ?? false,
    isInvalid: flags.isInvalid ?? false,
    invalidReason: flags.invalidReason ?? "",
    deviceSlicesTargetingNode: [],
    deviceSlicesNotTargetingNode: [],
    counterSets: new Map(),
  };
}

function buildPool(
  driver: string,
  pool: string,
  id: string,
  slices: readonly ResourceSlice[],
  features: Features,
  allSlicesForPool: readonly ResourceSlice[] | undefined,
): Pool {
  const invalid = (reason: string): Pool =>
    emptyPool(driver, pool, id, { isInvalid: true, invalidReason: reason });
  // Sorted by name: a deterministic first-fit order that lets driver authors prioritize.
  const sorted = [...slices].sort((a, b) => compareStrings(a.metadata?.name ?? "", b.metadata?.name ?? ""));
  let deviceSlices: ResourceSlice[] = [];
  const counterSetSlices: ResourceSlice[] = [];
  if (features.partitionableDevices) {
    for (const slice of sorted) {
      if ((slice.spec.sharedCounters?.length ?? 0) === 0) deviceSlices.push(slice);
    }
    // Counter sets belong to the whole pool: also those published in slices for other nodes
    // (the table at 03ab440c allocates on a node whose counter slice names another node).
    for (const slice of allSlicesForPool ?? sorted) {
      if ((slice.spec.sharedCounters?.length ?? 0) > 0) counterSetSlices.push(slice);
    }
  } else {
    deviceSlices = sorted;
  }
  const duplicate = validateDeviceNames(deviceSlices);
  if (duplicate !== undefined) return invalid(duplicate);
  const base = {
    driver,
    pool,
    id,
    isIncomplete: false,
    isInvalid: false,
    invalidReason: "",
    deviceSlicesTargetingNode: deviceSlices,
    deviceSlicesNotTargetingNode: [] as ResourceSlice[],
    counterSets: new Map<string, CounterSet>(),
  };
  if (!features.partitionableDevices) return base;

  const counterSets = new Map<string, CounterSet>();
  for (const slice of counterSetSlices) {
    for (const counterSet of slice.spec.sharedCounters ?? []) {
      if (counterSets.has(counterSet.name)) return invalid(`duplicate counter set name ${counterSet.name}`);
      counterSets.set(counterSet.name, counterSet);
    }
  }
  const consumption = validateDeviceCounterConsumption(counterSets, slices);
  if (consumption !== undefined) return invalid(consumption);
  base.counterSets = counterSets;
  if (allSlicesForPool === undefined || slices.length === allSlicesForPool.length) return base;

  // Slices that did not target the node may hold devices consuming the pool's counters: the
  // allocator needs them to know which counters are available.
  const targeting = new Set(slices);
  const notTargeting = allSlicesForPool.filter((slice) => !targeting.has(slice));
  const notTargetingConsumption = validateDeviceCounterConsumption(counterSets, notTargeting);
  if (notTargetingConsumption !== undefined) return invalid(notTargetingConsumption);
  base.deviceSlicesNotTargetingNode = notTargeting;
  return base;
}

function validateDeviceNames(slices: readonly ResourceSlice[]): string | undefined {
  const names = new Set<string>();
  for (const slice of slices) {
    for (const device of slice.spec.devices ?? []) {
      if (names.has(device.name)) return `duplicate device name ${device.name}`;
      names.add(device.name);
    }
  }
  return undefined;
}

function validateDeviceCounterConsumption(
  counterSets: ReadonlyMap<string, CounterSet>,
  slices: readonly ResourceSlice[],
): string | undefined {
  for (const slice of slices) {
    for (const device of slice.spec.devices ?? []) {
      for (const consumption of device.consumesCounters ?? []) {
        const counterSet = counterSets.get(consumption.counterSet);
        if (counterSet === undefined) return `counter set ${consumption.counterSet} not found`;
        for (const counterName of Object.keys(consumption.counters)) {
          if (counterSet.counters[counterName] === undefined) {
            return `counter ${counterName} not found in counter set ${counterSet.name}`;
          }
        }
      }
    }
  }
  return undefined;
}

/** Every slice of the pool at the generation, or undefined when a newer generation exists. */
function checkSlicesInPool(
  slices: readonly ResourceSlice[],
  driver: string,
  pool: string,
  generation: number,
): ResourceSlice[] | undefined {
  const allSlicesForPool: ResourceSlice[] = [];
  for (const slice of slices) {
    if (slice.spec.driver !== driver || slice.spec.pool.name !== pool) continue;
    if (slice.spec.pool.generation === generation) allSlicesForPool.push(slice);
    else if (slice.spec.pool.generation > generation) return undefined;
  }
  return allSlicesForPool;
}
