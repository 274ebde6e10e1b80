// The structured parameters allocator. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/allocator.go (variant selection) and
// structured/internal/incubating/allocator_incubating.go (read at kubernetes/kubernetes 03ab440c:
// the variant 1.37 runs with its default feature gates). One implementation here; the variant
// upstream would pick is reported as `channel` and stable's narrower behaviour is kept where the
// input can reach it (no distinctAttribute constraints); with DRAListTypeAttributes (only
// upstream's experimental variant has it) constraints compare list values as sets.
import type {
  AllocationResult,
  CapacityRequirements,
  Device,
  DeviceAllocationConfiguration,
  DeviceAttribute,
  DeviceClass,
  DeviceCounterConsumption,
  DeviceRequest,
  DeviceRequestAllocationResult,
  DeviceSelector,
  DeviceSubRequest,
  DeviceToleration,
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  ResourceClaim,
  ResourceSlice,
} from "@kubesched/api";
import { AllocationResultsMaxSize, CELSelectorExpressionMaxCost, Quantity } from "@kubesched/api";
import type { Cache } from "../cel/cache";
import type { DerivedAttributeCompilationResult } from "../cel/compile";
import {
  addCompatibilityGroups,
  admitsCompatibilityGroups,
  type CompatibilityGroupIntersection,
  compatibilityGroupSet,
  noCompatibilityGroupMembers,
} from "./compatibility-groups";
import {
  AttributeValueIDs,
  type Constraint,
  DistinctAttributeConstraint,
  DistinctListAttributeConstraint,
  MatchAttributeConstraint,
  MatchListAttributeConstraint,
} from "./constraint";
import { addConsumed, CapacityRequestError, consumeCapacity, shareID } from "./consumable-capacity";
import {
  type AvailableCounterSlots,
  type AvailableCounterTable,
  availableCounterSlots,
  type CandidateCounterSlots,
  candidateCounterSlots,
  copyAvailableCounters,
  newAvailableCounterTable,
  notLookedUp,
  type PoolCounterSlots,
  parseCounter,
  poolBlocked,
  poolNotCopied,
  quantityPath,
  releaseCounterEntries,
  takeCounterEntries,
} from "./counter-slots";
import { taintPreventsAllocation } from "./device-taints";
import { nodeDeclaresOptionalNodeOperations } from "./optional-node-operations";
import {
  attributeIndexFor,
  type Candidate,
  computeNodePools,
  groupSlicesByNode,
  type NodePools,
  type PoolCache,
  type SliceVersions,
  selectableFor,
} from "./pool-cache";
import { nodeMatches, type Pool } from "./pools";
import {
  type AllocatedState,
  type AllocatorChannel,
  DeadlineExceeded,
  type DeviceClassLister,
  type DeviceID,
  FailedAllocationOnNodeError,
  type Features,
  featureBits,
  featureSet,
  makeDeviceID,
} from "./types";
import { type PoolChanges, VersionedDeviceSet } from "./versioned-device-set";

/** What {@link newAllocator} needs (upstream NewAllocator's parameters). */
export interface AllocatorOptions {
  features: Features;
  allocatedState: AllocatedState;
  classLister: DeviceClassLister;
  slices: readonly ResourceSlice[];
  celCache: Cache;
  /**
   * Keeps each node's pools, candidate devices and selector results between allocators given
   * the same cache (kubesched's own; see {@link PoolCache}). Without one they are computed per
   * call, as upstream does.
   */
  poolCache?: PoolCache;
}

/** Statistics of the allocation process (upstream Stats). */
export interface AllocatorStats {
  /** How often the search step ran, over every allocate() call (upstream NumAllocateOneInvocations). */
  numAllocateOneInvocations: number;
}

/**
 * Allocates devices for the claims of one pod on one node (upstream Allocator).
 *
 * `allocate` returns one AllocationResult per claim, in the order of the claims, or null when
 * the claims cannot be allocated on the node (including when pools are being updated). It
 * throws for problems that make every node fail (invalid input such as a CEL selector with a
 * runtime error, a missing DeviceClass) and a {@link FailedAllocationOnNodeError} for problems
 * of this node only. An aborted `signal` stops the search with `filter operation aborted: …`.
 * The claims must not be allocated yet; the caller persists the results. The results are
 * read-only: with a pool cache and a {@link VersionedDeviceSet} they may be a kept search's frozen
 * objects, shared with other callers (copy before changing them).
 */
export interface Allocator {
  readonly channel: AllocatorChannel;
  allocate(node: Node, claims: readonly ResourceClaim[], signal?: AbortSignal): AllocationResult[] | null;
  stats(): AllocatorStats;
}

type FeatureName = keyof Features;

const stableFeatures: readonly FeatureName[] = [
  "adminAccess",
  "prioritizedList",
  "partitionableDevices",
  "deviceTaints",
];
const incubatingFeatures: readonly FeatureName[] = [
  ...stableFeatures,
  "deviceBindingAndStatus",
  "consumableCapacity",
  "fractionalCapacityRange",
];

/** The features each of upstream's variants supports, most stable first (SupportedFeatures). */
const channels: readonly { name: AllocatorChannel; supported: readonly FeatureName[] }[] = [
  { name: "stable", supported: stableFeatures },
  { name: "incubating", supported: incubatingFeatures },
  {
    name: "experimental",
    supported: [
      ...incubatingFeatures,
      "listTypeAttributes",
      "deviceCompatibilityGroups",
      "derivedAttributes",
      "optionalNodeOperations",
    ],
  },
];

const channelOfBits = new Map<number, AllocatorChannel>();

/** The variant upstream's NewAllocator picks for these features: the first covering them all. */
export function allocatorChannel(features: Features): AllocatorChannel {
  const bits = featureBits(features);
  let channel = channelOfBits.get(bits);
  if (channel === undefined) {
    channel = pickChannel(features);
    channelOfBits.set(bits, channel);
  }
  return channel;
}

function pickChannel(features: Features): AllocatorChannel {
  for (const channel of channels) {
    const uncovered = (Object.keys(features) as FeatureName[]).some(
      (name) => features[name] === true && !channel.supported.includes(name),
    );
    if (!uncovered) return channel.name;
  }
  throw new Error(
    `internal error: no allocator available for feature set ${featureSet(features).join(",")}, enabled allocators: ${channels.map((c) => c.name).join(", ")}`,
  );
}

/** An allocator for the slices and the already allocated devices (upstream NewAllocator). */
export function newAllocator(options: AllocatorOptions): Allocator {
  return new StructuredAllocator(options);
}

/** The ways a claim's request can ask for devices, normalized (upstream requestAccessor). */
interface RequestData {
  /** The request's name, or the subrequest's. */
  readonly name: string;
  /** The parent request's name for a subrequest, else "". */
  readonly parentName: string;
  /** `request` or `request/subrequest`. */
  readonly fullName: string;
  readonly class: DeviceClass;
  readonly all: boolean;
  readonly adminAccess: boolean;
  readonly selectors: readonly DeviceSelector[];
  readonly tolerations: readonly DeviceToleration[] | undefined;
  readonly capacity: CapacityRequirements | undefined;
  numDevices: number;
  /** Candidate indices of an "All" request. */
  allDevices: number[];
  /** Per candidate: 0 not checked yet, 1 selectable, 2 not (shared per class and selectors). */
  readonly selectable: Uint8Array;
  /** Per device object: whether the class and request selectors select it (with a PoolCache). */
  readonly deviceVerdicts: WeakMap<Device, boolean> | undefined;
  /** The request's derived attributes, compiled (DRADerivedAttributes; undefined: none). */
  readonly derived: readonly { name: string; compiled: DerivedAttributeCompilationResult }[] | undefined;
  /** Per candidate: the device as constraints see it, its derived attributes added. */
  derivedDevices: (Device | undefined)[] | undefined;
}

interface DeviceResult {
  readonly request: RequestData;
  readonly candidate: Candidate;
  /** Set for a device that allows multiple allocations (DRAConsumableCapacity). */
  readonly shareID?: string;
  readonly consumedCapacity?: ReadonlyMap<string, Quantity>;
  /** What the device changed in the counter sets' compatibility groups (DRADeviceCompatibilityGroups). */
  readonly compatibilityGroupsUndo?: CompatibilityGroupsUndo;
}

/** Per counter set the device joined: the running state before it (undefined: none yet). */
type CompatibilityGroupsUndo = readonly [
  Map<string, CompatibilityGroupIntersection>,
  string,
  CompatibilityGroupIntersection | undefined,
][];

/** Signals that a claim needs more results than the API allows (upstream errAllocationResultMaxSizeExceeded). */
const maxSizeExceeded = Symbol("allocation max size exceeded");
type Outcome = boolean | typeof maxSizeExceeded;

function claimName(claim: ResourceClaim): string {
  const ns = claim.metadata?.namespace;
  const name = claim.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

class StructuredAllocator implements Allocator {
  readonly channel: AllocatorChannel;
  readonly #features: Features;
  readonly #allocatedState: AllocatedState;
  readonly #classLister: DeviceClassLister;
  readonly #celCache: Cache;
  readonly #slicesOnNode: ReadonlyMap<string, readonly ResourceSlice[]>;
  readonly #slicesShared: readonly ResourceSlice[];
  readonly #allSlices: readonly ResourceSlice[];
  readonly #poolCache: PoolCache | undefined;
  readonly #versions: SliceVersions | undefined;
  /** @internal Numbers list attribute values for the constraints (DRAListTypeAttributes). */
  readonly valueIDs: AttributeValueIDs;
  /** Counters left in each pool after the allocated devices (`driver/pool` → set → counter). */
  readonly #availableCounters = new Map<string, Map<string, Map<string, Quantity>>>();
  /** The same for pools whose counters are numbers ({@link PoolCounterSlots}), per layout. */
  readonly #availableCounterSlots = new Map<PoolCounterSlots, AvailableCounterSlots>();
  /** The same by absolute slot, for the runs on nodes sharing one {@link CandidateCounterSlots}. */
  readonly #availableCounterTables = new WeakMap<CandidateCounterSlots, AvailableCounterTable>();
  /**
   * Per request capacity (the claim's object, or {@link noCapacityRequest}) and device object:
   * whether the request fits what the allocated shares leave of the device.
   */
  readonly #fitsAllocated = new WeakMap<CapacityRequirements, WeakMap<Device, boolean>>();
  /** Per device object: whether its counters fit what the allocated devices leave of its pool's. */
  readonly #countersFitAllocated = new WeakMap<Device, boolean>();
  /** Per pool (`driver/pool`): whether some device of the pool consumes a negative counter value. */
  readonly #negativeConsumption = new Map<string, boolean>();
  /** Per pool: the compatibility groups the allocated devices declare per counter set. */
  readonly #compatibilityGroupsBaseline = new Map<string, Map<string, CompatibilityGroupIntersection>>();
  #numAllocateOneInvocations = 0;
  /** Claims validated by a run of this allocator: the devices they need at least ({@link validated}). */
  readonly #validatedNeeds = new WeakMap<ResourceClaim, number>();
  readonly #classes = new Map<string, DeviceClass>();
  /** The claims {@link #searches} looked up last, and their table. */
  #lastClaims: readonly ResourceClaim[] | undefined;
  #lastSearches: SearchTable | undefined;

  constructor(options: AllocatorOptions) {
    this.channel = allocatorChannel(options.features);
    this.#features = { ...options.features };
    this.#allocatedState = options.allocatedState;
    this.#classLister = options.classLister;
    this.#celCache = options.celCache;
    this.#allSlices = options.slices;
    // Grouped once per list of slices with a pool cache, per allocator without.
    const grouped = options.poolCache?.slicesByNode(options.slices) ?? groupSlicesByNode(options.slices);
    this.#slicesOnNode = grouped.onNode;
    this.#slicesShared = grouped.shared;
    this.#poolCache = options.poolCache;
    this.#versions = options.poolCache?.versions(this.#features, options.slices, this.#slicesShared);
    this.valueIDs = options.poolCache?.valueIDs() ?? new AttributeValueIDs();
  }

  stats(): AllocatorStats {
    return { numAllocateOneInvocations: this.#numAllocateOneInvocations };
  }

  allocate(node: Node, claims: readonly ResourceClaim[], signal?: AbortSignal): AllocationResult[] | null {
    // Read first: a signal that is a deadline starts its clock at its first read.
    const aborted = signal?.aborted === true;
    const nodeName = node.metadata?.name ?? "";
    // The outcome of an earlier search for claims of the same shape on this node (or on a node
    // of its search group), while nothing it depends on changed (SearchTable).
    const devices = this.#keptDevices();
    const searches = devices !== undefined ? this.#searches(claims) : undefined;
    const nodeRow = searches !== undefined ? rowSize * this.#poolCache!.slot(nodeName) : -1;
    if (searches !== undefined && searches[nodeRow] === node && !aborted) {
      const kept = replay(keptSearchAt(searches, nodeRow, this.#versions!, devices!), signal);
      if (kept !== notKept) return kept;
    }
    const ownSlices = this.#slicesOnNode.get(nodeName) ?? noSlices;
    let nodePools: NodePools;
    try {
      nodePools =
        this.#poolCache !== undefined && this.#versions !== undefined
          ? this.#poolCache.nodePools(
              node,
              ownSlices,
              this.#slicesShared,
              this.#allSlices,
              this.#features,
              this.#versions,
            )
          : computeNodePools(node, ownSlices, this.#slicesShared, this.#allSlices, this.#features, undefined);
    } catch (err) {
      throw new Error(`gather pool information: ${errorMessage(err)}`);
    }
    // Where the search is kept: the node's row, or its search group's (the node's row then
    // names the group's).
    let row = nodeRow;
    let owner: object = node;
    if (searches !== undefined && nodePools.group !== undefined) {
      row = rowSize * this.#poolCache!.slot(nodePools.group);
      owner = nodePools;
      keepGroup(searches, nodeRow, node, this.#versions!, nodePools, row);
      if (searches[row] === nodePools && !aborted) {
        const kept = replay(keptSearch(searches, row, this.#versions!, devices!), signal);
        if (kept !== notKept) return kept;
      }
    }
    const verdicts = allocatedVerdicts(this.#allocatedState.allocatedDevices, nodePools);
    // Claims this allocator validated before, which need more devices than the node has free:
    // the search cannot succeed (validation passes again: it does not depend on the node). Only
    // with at most a few free devices, where the search is short too: with many, it can run past
    // filterTimeout, and upstream's outcome is then the timeout (test/integration/dra's
    // testFilterTimeout).
    if (
      verdicts.free >= 0 &&
      verdicts.free <= maxFreeForEarlyFailure &&
      !verdicts.invalid &&
      signal?.aborted !== true &&
      this.#leastDevices(claims) > verdicts.free
    ) {
      if (searches !== undefined)
        keepSearch(searches, row, owner, this.#versions!, verdicts as KeptVerdicts, null);
      return null;
    }
    const run = new AllocationRun(this, node, claims, nodePools, verdicts, signal);
    let done: boolean;
    try {
      done = run.run();
    } catch (err) {
      // Stopped by a filter timeout: kept as timed out (not a cancellation, not an error).
      if (
        searches !== undefined &&
        signal?.aborted === true &&
        signal.reason instanceof DeadlineExceeded &&
        err instanceof Error &&
        err.cause === signal.reason
      ) {
        keepSearch(searches, row, owner, this.#versions!, verdicts as KeptVerdicts, timedOut);
      }
      throw err;
    } finally {
      this.#numAllocateOneInvocations += run.numAllocateOneInvocations;
    }
    if (done) {
      const results = run.results();
      if (searches === undefined || !keepable(results)) return results;
      const frozen = freezeResults(results);
      keepSearch(searches, row, owner, this.#versions!, verdicts as KeptVerdicts, frozen);
      return frozen as AllocationResult[];
    }
    // Invalid pools only fail this node: allocation on other nodes may proceed.
    if (verdicts.invalid) {
      throw new FailedAllocationOnNodeError("invalid resource pools were encountered");
    }
    if (searches !== undefined)
      keepSearch(searches, row, owner, this.#versions!, verdicts as KeptVerdicts, null);
    return null;
  }

  /**
   * The allocated-device set when searches may be kept (kubesched's own, see SearchTable): with
   * a pool cache, a set that versions its changes per pool ({@link VersionedDeviceSet}) and no
   * consumable-capacity shares in the allocated state (those are not versioned).
   */
  #keptDevices(): VersionedDeviceSet | undefined {
    const state = this.#allocatedState;
    const devices = state.allocatedDevices;
    return this.#versions !== undefined &&
      devices instanceof VersionedDeviceSet &&
      (state.aggregatedCapacity?.size ?? 0) === 0 &&
      (state.allocatedSharedDeviceIDs?.size ?? 0) === 0
      ? devices
      : undefined;
  }

  /**
   * The kept searches for the claims' shape ({@link shapeNumber}), or undefined when a class they
   * name cannot be resolved (the search reports it). Remembered for the last claims (Filter asks
   * for the same claims on node after node).
   */
  #searches(claims: readonly ResourceClaim[]): SearchTable | undefined {
    const last = this.#lastClaims;
    if (last !== undefined && last.length === claims.length) {
      let same = true;
      for (let i = 0; i < claims.length; i++) {
        if (last[i] !== claims[i]) {
          same = false;
          break;
        }
      }
      if (same) return this.#lastSearches;
    }
    let searches: SearchTable | undefined;
    try {
      const shape = shapeNumber(this.#versions!.features, claims, (name) => this.deviceClass(name));
      searches = searchTable(this.#poolCache!, shape);
    } catch {
      searches = undefined;
    }
    this.#lastClaims = [...claims];
    this.#lastSearches = searches;
    return searches;
  }

  /**
   * The devices the claims need at least when each was validated by an earlier run of this
   * allocator and asks only for exact counts of devices without admin access (each such device
   * a request of its own, unless it allows multiple allocations); 0 otherwise.
   */
  #leastDevices(claims: readonly ResourceClaim[]): number {
    let sum = 0;
    for (const claim of claims) {
      const n = this.#validatedNeeds.get(claim);
      if (n === undefined) return 0;
      sum += n;
    }
    return sum;
  }

  /**
   * @internal A run validated the claim (class, selectors, counts: nothing of it depends on the
   * node); remembered with the devices it needs when every request is `exactly` ExactCount
   * without admin access.
   */
  validated(claim: ResourceClaim): void {
    if (this.#validatedNeeds.has(claim)) return;
    let need = 0;
    for (const request of claim.spec?.devices?.requests ?? []) {
      const exactly = request.exactly;
      if (
        exactly === undefined ||
        (request.firstAvailable?.length ?? 0) > 0 ||
        (exactly.allocationMode ?? "ExactCount") !== "ExactCount" ||
        exactly.adminAccess !== undefined
      ) {
        return;
      }
      need += exactly.count ?? 1;
    }
    this.#validatedNeeds.set(claim, need);
  }

  /** @internal */
  get features(): Features {
    return this.#features;
  }
  /** @internal */
  get allocatedState(): AllocatedState {
    return this.#allocatedState;
  }
  /**
   * @internal The class, looked up once per allocator (one scheduling cycle; upstream looks it
   * up per request and node); a failed lookup is not kept.
   */
  deviceClass(className: string): DeviceClass {
    let c = this.#classes.get(className);
    if (c === undefined) {
      c = this.#classLister.get(className);
      this.#classes.set(className, c);
    }
    return c;
  }

  /** @internal */
  get classLister(): DeviceClassLister {
    return this.#classLister;
  }
  /** @internal */
  get celCache(): Cache {
    return this.#celCache;
  }
  /** @internal */
  get poolCache(): PoolCache | undefined {
    return this.#poolCache;
  }

  /** @internal The counters of the pool the allocated devices leave (computed once per pool). */
  availableCounters(pool: Pool): Map<string, Map<string, Quantity>> {
    const cached = this.#availableCounters.get(pool.id);
    if (cached !== undefined) return cached;
    const available = new Map<string, Map<string, Quantity>>();
    for (const [name, counterSet] of pool.counterSets) {
      const counters = new Map<string, Quantity>();
      for (const [counterName, counter] of Object.entries(counterSet.counters)) {
        counters.set(counterName, parseCounter(counter));
      }
      available.set(name, counters);
    }
    // Devices whose allocation has completed consume counters; this never changes while the
    // allocator lives.
    for (const consumption of this.#allocatedConsumptions(pool)) {
      const counters = available.get(consumption.counterSet);
      if (counters === undefined) continue;
      for (const [counterName, counter] of Object.entries(consumption.counters)) {
        const existing = counters.get(counterName);
        // Negative is fine: no counters available.
        if (existing !== undefined) counters.set(counterName, existing.sub(parseCounter(counter)));
      }
    }
    this.#availableCounters.set(pool.id, available);
    return available;
  }

  /**
   * @internal {@link availableCounters} for a pool whose counters are numbers (computed once per
   * pool layout).
   */
  availableCounterSlots(pool: Pool, layout: PoolCounterSlots): AvailableCounterSlots {
    let available = this.#availableCounterSlots.get(layout);
    if (available === undefined) {
      // Kept from an earlier allocator while no device of the pool was added to or removed from
      // the allocated-device set since (kubesched's own: upstream derives them per Allocate call).
      const devices = this.#keptDevices();
      const kept = devices !== undefined ? keptAvailableCounters.get(layout) : undefined;
      if (
        kept !== undefined &&
        kept.devices === devices &&
        kept.changes.version <= kept.version &&
        devices!.cleared <= kept.version
      ) {
        available = kept.available;
      } else {
        available = availableCounterSlots(layout, this.#allocatedDevices(pool));
        if (devices !== undefined) {
          keptAvailableCounters.set(layout, {
            devices,
            version: devices.version,
            changes: devices.pool(pool.id),
            available,
          });
        }
      }
      this.#availableCounterSlots.set(layout, available);
    }
    return available;
  }

  /** @internal {@link availableCounterSlots} for the pools of `counters`, filled per pool when asked. */
  availableCounterTable(counters: CandidateCounterSlots): AvailableCounterTable {
    let table = this.#availableCounterTables.get(counters);
    if (table === undefined) {
      table = newAvailableCounterTable(counters);
      this.#availableCounterTables.set(counters, table);
    }
    return table;
  }

  /**
   * Whether the device's counters fit its pool's available counters with nothing else being
   * allocated in the run (upstream checkAvailableCounters' comparison with only this device
   * consumed). When it does not, the device cannot be allocated in any run of this allocator:
   * devices being allocated only consume more — unless some device of the pool consumes a
   * negative amount, then this answers true and the full check decides.
   */
  countersFitAllocated(candidate: Candidate): boolean {
    const device = candidate.device;
    let fits = this.#countersFitAllocated.get(device);
    if (fits !== undefined) return fits;
    const pool = candidate.pool;
    let negative = this.#negativeConsumption.get(pool.id);
    if (negative === undefined) {
      negative = consumesNegative(pool);
      this.#negativeConsumption.set(pool.id, negative);
    }
    fits = negative || countersFit(this.availableCounters(pool), device);
    this.#countersFitAllocated.set(device, fits);
    return fits;
  }

  /**
   * Whether the request's capacity fits the device with nothing else being allocated in the
   * run: consumeCapacity over the allocated shares, kept per capacity and device object (the
   * allocated state never changes while the allocator lives; every node's run asks again).
   */
  capacityFitsAllocated(capacity: CapacityRequirements | undefined, candidate: Candidate): boolean {
    const key = capacity ?? noCapacityRequest;
    let perDevice = this.#fitsAllocated.get(key);
    if (perDevice === undefined) {
      perDevice = new WeakMap();
      this.#fitsAllocated.set(key, perDevice);
    }
    let fits = perDevice.get(candidate.device);
    if (fits === undefined) {
      try {
        fits =
          consumeCapacity(
            capacity,
            candidate.pool.driver,
            candidate.device,
            this.#allocatedState.aggregatedCapacity?.get(candidate.id),
            undefined,
            this.#features.fractionalCapacityRange === true,
          ) !== undefined;
      } catch (error) {
        // An unrepresentable request aborts when the search reaches the device (not kept).
        if (error instanceof CapacityRequestError) throw error;
        fits = false;
      }
      perDevice.set(candidate.device, fits);
    }
    return fits;
  }

  /**
   * @internal Per counter set of the pool, the compatibility groups of the devices already
   * allocated from it, read from the slices (upstream compatibilityGroupsBaselineForPool;
   * computed once per pool).
   */
  compatibilityGroupsBaseline(pool: Pool): Map<string, CompatibilityGroupIntersection> {
    const cached = this.#compatibilityGroupsBaseline.get(pool.id);
    if (cached !== undefined) return cached;
    const baseline = new Map<string, CompatibilityGroupIntersection>();
    for (const consumption of this.#allocatedConsumptions(pool)) {
      const current = baseline.get(consumption.counterSet) ?? noCompatibilityGroupMembers;
      baseline.set(
        consumption.counterSet,
        addCompatibilityGroups(current, compatibilityGroupSet(consumption.compatibilityGroups)),
      );
    }
    this.#compatibilityGroupsBaseline.set(pool.id, baseline);
    return baseline;
  }

  /**
   * The counter consumptions of the pool's devices whose allocation has completed (targeting the
   * node or not): what they take from the pool's counter sets. Read once per pool per allocator.
   */
  *#allocatedConsumptions(pool: Pool): Generator<DeviceCounterConsumption> {
    for (const device of this.#allocatedDevices(pool)) yield* device.consumesCounters ?? [];
  }

  /** The pool's devices whose allocation has completed (targeting the node or not). */
  *#allocatedDevices(pool: Pool): Generator<Device> {
    for (const slices of [pool.deviceSlicesTargetingNode, pool.deviceSlicesNotTargetingNode]) {
      for (const slice of slices) {
        for (const device of slice.spec.devices ?? []) {
          if (!this.isDeviceAllocated(makeDeviceID(slice.spec.driver, slice.spec.pool.name, device.name)))
            continue;
          yield device;
        }
      }
    }
  }

  /** Allocated exclusively, or shared, or with consumed capacity (upstream IsDeviceAllocated). */
  isDeviceAllocated(id: DeviceID): boolean {
    const state = this.#allocatedState;
    if (state.allocatedDevices.has(id)) return true;
    if (state.aggregatedCapacity?.has(id)) return true;
    if (state.allocatedSharedDeviceIDs !== undefined) {
      const prefix = `${id}/`;
      for (const shared of state.allocatedSharedDeviceIDs) {
        if (shared === id || shared.startsWith(prefix)) return true;
      }
    }
    return false;
  }
}

const noSlices: readonly ResourceSlice[] = [];

/**
 * A pool's available counters (read-only: runs copy them) as an allocator derived them from the
 * allocated-device set `devices` at its `version`, per pool layout (one per Pool object): they
 * hold for the next allocators while the set is the same object, not cleared since and no
 * device of the pool (`changes`) was added or removed since.
 */
const keptAvailableCounters = new WeakMap<
  PoolCounterSlots,
  {
    readonly devices: VersionedDeviceSet;
    readonly version: number;
    readonly changes: PoolChanges;
    readonly available: AvailableCounterSlots;
  }
>();

/**
 * The CEL cost one claim's derived attributes share in one allocation (DRADerivedAttributes). The
 * 1.37 API documents that budget without naming it, and the code-search index holds no upstream
 * allocator that enforces it: kubesched takes the only DRA CEL cost constant of the API,
 * CELSelectorExpressionMaxCost, the limit of a single evaluation.
 */
export const derivedAttributesCostBudget = CELSelectorExpressionMaxCost;
/** The key of requests without capacity requirements. */
const noCapacityRequest: CapacityRequirements = {};

/** Restores the counter sets' compatibility groups a device changed, last change first. */
function undoCompatibilityGroups(undo: CompatibilityGroupsUndo): void {
  for (let i = undo.length - 1; i >= 0; i--) {
    const [running, counterSet, previous] = undo[i]!;
    if (previous === undefined) running.delete(counterSet);
    else running.set(counterSet, previous);
  }
}

const zero = Quantity.of(0);

/** Whether some device of the pool (targeting the node or not) consumes a negative counter value. */
function consumesNegative(pool: Pool): boolean {
  for (const slices of [pool.deviceSlicesTargetingNode, pool.deviceSlicesNotTargetingNode]) {
    for (const slice of slices) {
      for (const device of slice.spec.devices ?? []) {
        for (const consumption of device.consumesCounters ?? []) {
          for (const counter of Object.values(consumption.counters)) {
            if (parseCounter(counter).sign() < 0) return true;
          }
        }
      }
    }
  }
  return false;
}

/**
 * checkAvailableCounters' comparison with only this device's consumption: every counter of the
 * pool's sets at least what the device consumes of it (zero for the others).
 */
function countersFit(available: Map<string, Map<string, Quantity>>, device: Device): boolean {
  const consumes = device.consumesCounters ?? [];
  for (const [setName, counters] of available) {
    for (const [name, value] of counters) {
      let consumed = zero;
      for (const consumption of consumes) {
        if (consumption.counterSet !== setName) continue;
        const counter = consumption.counters[name];
        if (counter !== undefined) consumed = consumed.add(parseCounter(counter));
      }
      if (value.cmp(consumed) < 0) return false;
    }
  }
  return true;
}

/**
 * The most free devices a node may have for a validated claim needing more to fail without a
 * search: the search over them tries at most 2^4 combinations, far within any filterTimeout.
 */
const maxFreeForEarlyFailure = 4;

/** Which candidates of a node are allocated, and how many devices are left for a request. */
interface AllocatedVerdicts {
  /** Per candidate: 1 in the allocated-device set, 2 not, 0 not looked up yet. */
  readonly allocated: Uint8Array;
  /**
   * How many candidates are not in the set (infinite when one allows multiple allocations), or
   * -1 when not counted (a plain set: looked up as the search needs).
   */
  readonly free: number;
  /** Whether a pool of the node is invalid. */
  readonly invalid: boolean;
}

/** The verdicts kept with a NodePools object (its `kept`) while no device of its pools changes. */
interface KeptVerdicts extends AllocatedVerdicts {
  readonly devices: VersionedDeviceSet;
  readonly version: number;
  /** The changes of each of the node's pools. */
  readonly pools: readonly PoolChanges[];
  /** The changes of the node's pool when it has one (most nodes): pools[0], read without the array. */
  readonly onlyPool: PoolChanges | undefined;
  /** The node's pools' indexes in the set ({@link VersionedDeviceSet.poolIndex}). */
  readonly poolIndexes: readonly number[];
}

/**
 * What searches for claims of one shape ({@link shapeNumber}) found, per node slot
 * (PoolCache.slot), in rows of {@link rowSize}: the Node object and the number of the list of
 * slices (SliceVersions.all) the search ran with, the allocated-device set and its version then,
 * the index of the node's pool in the set ({@link VersionedDeviceSet.poolIndex}; an array of them
 * for several pools), and the results (frozen: shared by every caller that gets them) or null.
 *
 * A node of a search group (NodePools.group: no slices of its own, and its reached slices without
 * a node name hold nothing a search reads the node through, PoolCache's `nodeFreePools`) keeps no
 * search in its row: the row holds the Node object, the slice list's number, the group's NodePools
 * object and the group's row, and the group's row (at the slot of the group's name) holds the
 * group's search as a node's row does, under the NodePools object instead of the Node. The
 * group's NodePools object is the same for the group's nodes while the node, the slice list and
 * the features are (the reach key is a function of them), so a node row naming it holds as long
 * as the Node object and the slice list's number are the same. Upstream searches per node; on a
 * group's nodes its searches read the same pools, candidates, allocated devices, claims and
 * classes and nothing else of the node, so each would find what the group's search found.
 *
 * kubesched's own (upstream searches on every Allocate call). A search is a function of the node
 * object, the node's pools and candidates (its slices and the slices without a node name it
 * reaches, given by the node, the list of slices and the features), the allocated state of those
 * pools, the features, the content of the DeviceClasses the requests name and the claims' device
 * specs (requests, constraints, config; the claims' names only appear in errors, which are not
 * kept, and in shareIDs, whose results are not kept). A row holds while the node object and the
 * slice list's number are the same and no device of the node's pools was added to or removed
 * from the set since; the shape number stands for the rest (the features included). An array per
 * shape, read at the node's slot, rather than state per node: Filter reads one shape on node
 * after node, and a kept outcome is read without touching the node's other objects.
 */
type SearchTable = unknown[];

/** Slots per node in a {@link SearchTable} (6 used; a group member's row uses 0, 1, 6 and 7). */
const rowSize = 8;

/** Per pool cache: the search tables by shape number. */
const searchTables = new WeakMap<PoolCache, Map<number, SearchTable>>();
/** More shapes than this start a pool cache's search tables afresh. */
const maxSearchTables = 128;

function searchTable(poolCache: PoolCache, shape: number): SearchTable {
  let tables = searchTables.get(poolCache);
  if (tables === undefined) {
    tables = new Map();
    searchTables.set(poolCache, tables);
  }
  let table = tables.get(shape);
  if (table === undefined) {
    if (tables.size >= maxSearchTables) tables.clear();
    table = new Array<undefined>(rowSize * poolCache.slots).fill(undefined);
    tables.set(shape, table);
  }
  return table;
}

/** A kept outcome: the search ran into its filter timeout ({@link DeadlineExceeded}). */
const timedOut = Symbol("timed out");

/** The allocator's error when its signal aborts (its reason as `cause`). */
function abortError(reason: unknown): Error {
  return new Error(`filter operation aborted: ${errorMessage(reason)}`, { cause: reason });
}

/** The kept outcome at `row` (whose node the caller checked), or undefined when it does not hold. */
function keptSearch(
  table: SearchTable,
  row: number,
  versions: SliceVersions,
  devices: VersionedDeviceSet,
): readonly AllocationResult[] | null | typeof timedOut | undefined {
  if (table[row + 1] !== versions.all || table[row + 2] !== devices) {
    return undefined;
  }
  const version = table[row + 3] as number;
  if (devices.cleared > version) return undefined;
  const pools = table[row + 4];
  if (typeof pools === "number") {
    if (devices.poolVersion(pools) > version) return undefined;
  } else {
    for (const pool of pools as readonly number[]) if (devices.poolVersion(pool) > version) return undefined;
  }
  return table[row + 5] as readonly AllocationResult[] | null | typeof timedOut;
}

/**
 * The kept outcome for the node whose row is at `row` (the caller checked the node): its own
 * search, or its search group's when the row names a group that still holds it.
 */
function keptSearchAt(
  table: SearchTable,
  row: number,
  versions: SliceVersions,
  devices: VersionedDeviceSet,
): readonly AllocationResult[] | null | typeof timedOut | undefined {
  const group = table[row + 6];
  if (group === undefined) return keptSearch(table, row, versions, devices);
  if (table[row + 1] !== versions.all) return undefined;
  const groupRow = table[row + 7] as number;
  return table[groupRow] === group ? keptSearch(table, groupRow, versions, devices) : undefined;
}

/** Returned by {@link replay} when the search must run. */
const notKept = Symbol("not kept");

/**
 * What a kept outcome gives the caller: the results (or null), the abort of a kept timeout when
 * the caller's signal is a deadline too, else {@link notKept} (search).
 */
function replay(
  kept: readonly AllocationResult[] | null | typeof timedOut | undefined,
  signal: AbortSignal | undefined,
): AllocationResult[] | null | typeof notKept {
  if (kept === undefined) return notKept;
  if (kept === timedOut) {
    // The search ran into its deadline; with a deadline again, it would again.
    const reason = signal?.reason;
    if (reason instanceof DeadlineExceeded) throw abortError(reason);
    return notKept;
  }
  return kept as AllocationResult[] | null;
}

/** Grows the table (one slot at a time, so that the array stays packed) to hold `row`. */
function growTable(table: SearchTable, row: number): void {
  while (table.length < row + rowSize) table.push(undefined);
}

/**
 * Keeps a search's outcome at `row` for `owner` (the Node, or the search group's NodePools),
 * under the verdicts it ran with (current: no device of the pools changed since their version).
 */
function keepSearch(
  table: SearchTable,
  row: number,
  owner: object,
  versions: SliceVersions,
  verdicts: KeptVerdicts,
  results: readonly AllocationResult[] | null | typeof timedOut,
): void {
  growTable(table, row);
  table[row] = owner;
  table[row + 1] = versions.all;
  table[row + 2] = verdicts.devices;
  table[row + 3] = verdicts.version;
  table[row + 4] = verdicts.poolIndexes.length === 1 ? verdicts.poolIndexes[0] : verdicts.poolIndexes;
  table[row + 5] = results;
  table[row + 6] = undefined;
  table[row + 7] = undefined;
}

/** Makes the node's row name its search group's row (the group's NodePools object and its row). */
function keepGroup(
  table: SearchTable,
  row: number,
  node: Node,
  versions: SliceVersions,
  group: NodePools,
  groupRow: number,
): void {
  growTable(table, row);
  if (table[row] === node && table[row + 6] === group && table[row + 1] === versions.all) return;
  table[row] = node;
  table[row + 1] = versions.all;
  table[row + 2] = undefined;
  table[row + 3] = undefined;
  table[row + 4] = undefined;
  table[row + 5] = undefined;
  table[row + 6] = group;
  table[row + 7] = groupRow;
}

/**
 * Each claim object's spec.devices as JSON without the class names (the shape names the classes
 * by their content), made once per claim object.
 */
const claimSpecKeys = new WeakMap<ResourceClaim, string>();
/** Each DeviceClass object's content number (informer objects are replaced, never changed in place). */
const classNumbers = new WeakMap<DeviceClass, number>();
/** Class contents and their numbers; numbers are never reused (a cleared table only renumbers). */
let classContentNumbers = new Map<string, number>();
let nextClassNumber = 0;
/** Shape keys and their numbers; numbers are never reused (a cleared table only renumbers). */
let shapeNumbers = new Map<string, number>();
let nextShapeNumber = 0;
/** More shapes, or class contents, than this start their numbering afresh. */
const maxShapeNumbers = 100_000;

/** JSON.stringify's replacer for {@link claimSpecKeys}: drops the class names. */
function withoutClassNames(key: string, value: unknown): unknown {
  return key === "deviceClassName" ? undefined : value;
}

/**
 * A number for the claims' shape: equal numbers mean equal features, equal device specs of the
 * claims (as JSON, in order, without class names) and, for the classes the search resolves (a
 * request's subrequests', else its own), in order, classes of equal content
 * ({@link classNumber}) with the same pattern of equal names within each claim (the class
 * configs are grouped by class name). The search reads a class only through its content and
 * that grouping (its name appears in errors only, which are not kept), so classes that differ
 * only in name and extended resource name share their searches. `resolve` throws for a missing
 * class.
 */
function shapeNumber(
  features: string,
  claims: readonly ResourceClaim[],
  resolve: (className: string) => DeviceClass,
): number {
  let key = features;
  for (const claim of claims) {
    let spec = claimSpecKeys.get(claim);
    if (spec === undefined) {
      spec = JSON.stringify(claim.spec?.devices ?? null, withoutClassNames);
      claimSpecKeys.set(claim, spec);
    }
    key += "\n";
    const names: string[] = [];
    const add = (name: string): void => {
      const first = names.indexOf(name);
      key += `${classNumber(resolve(name))}:${first === -1 ? names.length : first},`;
      names.push(name);
    };
    for (const request of claim.spec?.devices?.requests ?? []) {
      const subs = request.firstAvailable ?? [];
      if (subs.length > 0) for (const sub of subs) add(sub.deviceClassName);
      else add(request.exactly?.deviceClassName ?? "");
    }
    key += spec;
  }
  let n = shapeNumbers.get(key);
  if (n === undefined) {
    if (shapeNumbers.size >= maxShapeNumbers) shapeNumbers = new Map();
    n = nextShapeNumber++;
    shapeNumbers.set(key, n);
  }
  return n;
}

/**
 * The number of the class's content: its spec without extendedResourceName (which only the
 * scheduler's extended-resource mapping reads), as JSON; kept per class object.
 */
function classNumber(deviceClass: DeviceClass): number {
  let n = classNumbers.get(deviceClass);
  if (n === undefined) {
    const { extendedResourceName: _, ...content } = deviceClass.spec ?? {};
    const json = JSON.stringify(content);
    n = classContentNumbers.get(json);
    if (n === undefined) {
      if (classContentNumbers.size >= maxShapeNumbers) classContentNumbers = new Map();
      n = nextClassNumber++;
      classContentNumbers.set(json, n);
    }
    classNumbers.set(deviceClass, n);
  }
  return n;
}

/** Whether results may be kept: none carries a share of a device (its ID names the claim). */
function keepable(results: readonly AllocationResult[]): boolean {
  for (const result of results) {
    for (const r of result.devices?.results ?? []) {
      if (r.shareID !== undefined || r.consumedCapacity !== undefined) return false;
    }
  }
  return true;
}

/** Freezes what results() made (not the objects it took from slices and classes). */
function freezeResults(results: AllocationResult[]): readonly AllocationResult[] {
  for (const result of results) {
    const devices = result.devices;
    if (devices !== undefined) {
      for (const r of devices.results ?? []) {
        if (r.tolerations !== undefined) Object.freeze(r.tolerations);
        if (r.bindingConditions !== undefined) Object.freeze(r.bindingConditions);
        if (r.bindingFailureConditions !== undefined) Object.freeze(r.bindingFailureConditions);
        if (r.skipNodeOperations !== undefined) Object.freeze(r.skipNodeOperations);
        Object.freeze(r);
      }
      for (const c of devices.config ?? []) {
        if (c.requests !== undefined) Object.freeze(c.requests);
        Object.freeze(c);
      }
      if (devices.results !== undefined) Object.freeze(devices.results);
      if (devices.config !== undefined) Object.freeze(devices.config);
      Object.freeze(devices);
    }
    const selector = result.nodeSelector;
    if (selector !== undefined) {
      for (const term of selector.nodeSelectorTerms ?? []) {
        if (term.matchFields !== undefined) Object.freeze(term.matchFields);
        if (term.matchExpressions !== undefined) Object.freeze(term.matchExpressions);
        Object.freeze(term);
      }
      if (selector.nodeSelectorTerms !== undefined) Object.freeze(selector.nodeSelectorTerms);
      Object.freeze(selector);
    }
    Object.freeze(result);
  }
  return Object.freeze(results);
}

/**
 * The candidates' verdicts for `devices`. With a {@link VersionedDeviceSet}, every candidate is
 * looked up and the verdicts are reused by later runs for the node while no device of the node's
 * pools was added or removed since; with any other set, they are looked up as the search needs.
 */
function allocatedVerdicts(devices: ReadonlySet<DeviceID>, nodePools: NodePools): AllocatedVerdicts {
  const kept = nodePools.kept as KeptVerdicts | undefined;
  if (kept !== undefined && kept.devices === devices && kept.devices.cleared <= kept.version) {
    const only = kept.onlyPool;
    if (only !== undefined) {
      if (only.version <= kept.version) return kept;
    } else {
      let current = true;
      for (const pool of kept.pools) {
        if (pool.version > kept.version) {
          current = false;
          break;
        }
      }
      if (current) return kept;
    }
  }
  const candidates = nodePools.candidates;
  const invalid = nodePools.pools.some((pool) => pool.isInvalid);
  if (!(devices instanceof VersionedDeviceSet))
    return { allocated: new Uint8Array(candidates.length), free: -1, invalid };
  const allocated = new Uint8Array(candidates.length);
  let free = 0;
  for (let c = 0; c < candidates.length; c++) {
    const candidate = candidates[c]!;
    const inSet = devices.has(candidate.id);
    allocated[c] = inSet ? 1 : 2;
    // A device allowing multiple allocations may serve several requests.
    if (candidate.device.allowMultipleAllocations === true) free = Number.POSITIVE_INFINITY;
    else if (!inSet) free++;
  }
  const same = kept?.devices === devices;
  const pools = same ? kept!.pools : nodePools.pools.map((p) => devices.pool(p.id));
  const poolIndexes = same ? kept!.poolIndexes : nodePools.pools.map((p) => devices.poolIndex(p.id));
  const verdicts: KeptVerdicts = {
    devices,
    version: devices.version,
    pools,
    onlyPool: pools.length === 1 ? pools[0] : undefined,
    poolIndexes,
    allocated,
    free,
    invalid,
  };
  nodePools.kept = verdicts;
  return verdicts;
}

/** One Allocate call (upstream's unexported allocator type). */
class AllocationRun {
  numAllocateOneInvocations = 0;
  readonly #a: StructuredAllocator;
  readonly #features: Features;
  readonly #node: Node;
  readonly #claims: readonly ResourceClaim[];
  readonly #nodePools: NodePools;
  readonly #pools: readonly Pool[];
  readonly #signal: AbortSignal | undefined;
  readonly #candidates: readonly Candidate[];
  /** Per candidate: 0 not looked up yet, 1 in allocatedState.allocatedDevices, 2 not (maybe kept from an earlier run: never changed once set). */
  readonly #allocated: Uint8Array;
  /** requestData[claim][request][subrequest] (one entry when there are no subrequests). */
  readonly #requestData: RequestData[][][] = [];
  /** The subrequest picked per claim and request. */
  readonly #selectedSubRequest: number[][] = [];
  readonly #constraints: Constraint[][] = [];
  // The state of devices being allocated is made when the first one is: most runs on a full
  // node find every candidate in use and allocate none.
  /** Per candidate: the claims the device is being allocated for in this attempt. */
  #allocating: (number[] | undefined)[] | undefined;
  /** Counters consumed by the devices being allocated (`driver/pool` → set → counter). */
  #consumedCounters: Map<string, Map<string, Map<string, Quantity>>> | undefined;
  /** The candidates' counters by position ({@link CandidateCounterSlots}). */
  #candidateCounters: CandidateCounterSlots | undefined;
  /** What the allocator's runs on these candidates start from ({@link AvailableCounterTable}). */
  #availableCounters: AvailableCounterTable | undefined;
  /** What this run's devices consume of the pools' counters (at CandidateCounterSlots.offsets). */
  #consumedCounterSlots: Float64Array | undefined;
  readonly #results: DeviceResult[][] = [];
  /** Per candidate: capacity consumed by the shares being allocated, and how many shares. */
  #allocatingCapacity: (Map<string, Quantity> | undefined)[] | undefined;
  #allocatingShares: Uint32Array | undefined;
  /**
   * Whether devices of slices with `skipNodeOperations` may be allocated: DRAOptionalNodeOperations
   * is on and the node declares the feature (the KEP's allocator change).
   */
  readonly #skipNodeOperationsAllowed: boolean;
  /** Per claim: the CEL cost its derived attributes used in this run (DRADerivedAttributes). */
  #derivedCost: number[] | undefined;
  /** Per pool and counter set: the compatibility groups of the devices placed so far. */
  #compatibilityGroups: Map<string, Map<string, CompatibilityGroupIntersection>> | undefined;

  constructor(
    a: StructuredAllocator,
    node: Node,
    claims: readonly ResourceClaim[],
    nodePools: NodePools,
    verdicts: AllocatedVerdicts,
    signal: AbortSignal | undefined,
  ) {
    this.#a = a;
    this.#features = a.features;
    this.#node = node;
    this.#claims = claims;
    this.#nodePools = nodePools;
    this.#pools = nodePools.pools;
    this.#signal = signal;
    this.#candidates = nodePools.candidates;
    this.#allocated = verdicts.allocated;
    this.#skipNodeOperationsAllowed =
      this.#features.optionalNodeOperations === true && nodeDeclaresOptionalNodeOperations(node);
  }

  /** Whether the device allows multiple allocations (only with DRAConsumableCapacity). */
  #multi(c: number): boolean {
    return (
      this.#features.consumableCapacity === true &&
      this.#candidates[c]!.device.allowMultipleAllocations === true
    );
  }

  /**
   * With DRAConsumableCapacity, whether the request's capacity fits what remains of the device
   * (upstream CmpRequestOverCapacity). A request the device's range arithmetic cannot represent
   * aborts the allocation (kubernetes/kubernetes#140441), as does a negative consumed value.
   */
  #capacityFits(claim: ResourceClaim, data: RequestData, c: number): boolean {
    try {
      return this.#capacityFitsUnchecked(data, c);
    } catch (error) {
      throw this.#capacityRequestError(claim, data, c, error);
    }
  }

  /** An allocation error for a CapacityRequestError (upstream: the allocator aborts with it). */
  #capacityRequestError(claim: ResourceClaim, data: RequestData, c: number, error: unknown): unknown {
    if (!(error instanceof CapacityRequestError)) return error;
    return new Error(
      `claim ${claimName(claim)}, request ${data.fullName}: device ${this.#candidates[c]!.id}: ${error.message}`,
      { cause: error },
    );
  }

  #capacityFitsUnchecked(data: RequestData, c: number): boolean {
    if (!this.#features.consumableCapacity) return true;
    // Fast path: a dedicated device without request policies, asked for no capacity, always
    // fits (all of its capacity, nothing consumed before).
    if (data.capacity === undefined && !this.#multi(c) && !this.#hasRequestPolicy(c)) {
      if (this.#a.allocatedState.aggregatedCapacity?.has(this.#candidates[c]!.id) !== true) return true;
    }
    if (this.#allocatingCapacity?.[c] === undefined) {
      return this.#a.capacityFitsAllocated(data.capacity, this.#candidates[c]!);
    }
    return this.#consumedCapacity(data, c) !== undefined;
  }

  #hasRequestPolicy(c: number): boolean {
    const capacity = this.#candidates[c]!.device.capacity;
    if (capacity === undefined) return false;
    for (const name in capacity) {
      if (capacity[name]!.requestPolicy !== undefined) return true;
    }
    return false;
  }

  /** consumeCapacity for the candidate; a CapacityRequestError propagates (the caller wraps it). */
  #consumedCapacity(data: RequestData, c: number): Map<string, Quantity> | undefined {
    const candidate = this.#candidates[c]!;
    try {
      return consumeCapacity(
        data.capacity,
        candidate.pool.driver,
        candidate.device,
        this.#a.allocatedState.aggregatedCapacity?.get(candidate.id),
        this.#allocatingCapacity?.[c],
        this.#features.fractionalCapacityRange === true,
      );
    } catch (error) {
      if (error instanceof CapacityRequestError) throw error;
      return undefined;
    }
  }

  run(): boolean {
    const features = this.#features;
    for (let claimIndex = 0; claimIndex < this.#claims.length; claimIndex++) {
      const claim = this.#claims[claimIndex]!;
      const requests = claim.spec?.devices?.requests ?? [];
      const perClaim: RequestData[][] = [];
      let minDevicesPerClaim = 0;
      for (const request of requests) {
        const firstAvailable = request.firstAvailable ?? [];
        const hasSubRequests = firstAvailable.length > 0;
        if (!features.prioritizedList && hasSubRequests) {
          throw new Error(
            `claim ${claimName(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`,
          );
        }
        if (!features.consumableCapacity) {
          if (request.exactly?.capacity !== undefined) {
            throw new Error(
              `claim ${claimName(claim)}, request ${request.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`,
            );
          }
          for (const subRequest of firstAvailable) {
            if (subRequest.capacity !== undefined) {
              throw new Error(
                `claim ${claimName(claim)}, subrequest ${subRequest.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`,
              );
            }
          }
        }
        if (hasSubRequests) {
          let minDevicesPerRequest = Number.MAX_SAFE_INTEGER;
          const subs: RequestData[] = [];
          for (const subRequest of firstAvailable) {
            const data = this.#validateDeviceRequest(claim, subRequest, request);
            subs.push(data);
            minDevicesPerRequest = Math.min(minDevicesPerRequest, data.numDevices);
          }
          perClaim.push(subs);
          minDevicesPerClaim += minDevicesPerRequest;
        } else {
          const data = this.#validateDeviceRequest(claim, request, undefined);
          perClaim.push([data]);
          minDevicesPerClaim += data.numDevices;
        }
      }
      this.#requestData.push(perClaim);
      this.#selectedSubRequest.push(perClaim.length === 1 ? [0] : new Array(perClaim.length).fill(0));
      // A lower bound: allocation checks the limit again.
      if (minDevicesPerClaim > AllocationResultsMaxSize) {
        throw new Error(
          `claim ${claimName(claim)}: number of requested devices ${minDevicesPerClaim} exceeds the claim limit of ${AllocationResultsMaxSize}`,
        );
      }
      this.#results.push([]);
      this.#constraints.push(this.#buildConstraints(claim));
    }
    for (const claim of this.#claims) this.#a.validated(claim);
    const outcome = this.#allocateOne(0, 0, 0, 0, false, 0);
    return outcome === true;
  }

  #buildConstraints(claim: ResourceClaim): Constraint[] {
    const constraints: Constraint[] = [];
    const list = claim.spec?.devices?.constraints ?? [];
    for (let i = 0; i < list.length; i++) {
      const constraint = list[i]!;
      const requestNames = new Set(constraint.requests ?? []);
      // DRAListTypeAttributes: list values, compared as sets (the experimental variant).
      const lists = this.#features.listTypeAttributes === true;
      if (constraint.matchAttribute !== undefined) {
        const name = constraint.matchAttribute;
        constraints.push(
          lists
            ? new MatchListAttributeConstraint(requestNames, name, this.#a.valueIDs)
            : new MatchAttributeConstraint(requestNames, name),
        );
      } else if (constraint.distinctAttribute !== undefined && this.#a.channel !== "stable") {
        const name = constraint.distinctAttribute;
        constraints.push(
          lists
            ? new DistinctListAttributeConstraint(requestNames, name, this.#a.valueIDs)
            : new DistinctAttributeConstraint(requestNames, name),
        );
      } else {
        throw new Error(
          `claim ${claimName(claim)}, constraint #${i}: empty constraint (unsupported constraint type?)`,
        );
      }
    }
    return constraints;
  }

  /** upstream validateDeviceRequest: class, count, and the devices of an "All" request. */
  #validateDeviceRequest(
    claim: ResourceClaim,
    request: DeviceRequest | DeviceSubRequest,
    parent: DeviceRequest | undefined,
  ): RequestData {
    const exact = parent === undefined ? (request as DeviceRequest).exactly : undefined;
    const spec = parent === undefined ? exact : (request as DeviceSubRequest);
    const name = request.name;
    const selectors = spec?.selectors ?? [];
    for (let i = 0; i < selectors.length; i++) {
      if (selectors[i]!.cel === undefined) {
        throw new Error(
          `claim ${claimName(claim)}, request ${name}, selector #${i}: CEL expression empty (unsupported selector type?)`,
        );
      }
    }
    const hasAdminAccess = exact?.adminAccess !== undefined;
    if (!this.#features.adminAccess && hasAdminAccess) {
      throw new Error(
        `claim ${claimName(claim)}, request ${name}: admin access is requested, but the feature is disabled`,
      );
    }
    const className = spec?.deviceClassName ?? "";
    if (className === "") {
      throw new Error(
        `claim ${claimName(claim)}, request ${name}: missing device class name (unsupported request type?)`,
      );
    }
    let deviceClass: DeviceClass;
    try {
      deviceClass = this.#a.deviceClass(className);
    } catch (err) {
      throw new Error(
        `claim ${claimName(claim)}, request ${name}: could not retrieve device class ${className}: ${errorMessage(err)}`,
      );
    }
    const mode = spec?.allocationMode ?? "ExactCount";
    const parentName = parent?.name ?? "";
    const data: RequestData = {
      name,
      parentName,
      fullName: parent === undefined ? name : `${parentName}/${name}`,
      class: deviceClass,
      all: mode === "All",
      adminAccess: exact?.adminAccess === true,
      selectors,
      tolerations: spec?.tolerations,
      capacity: spec?.capacity,
      numDevices: 0,
      allDevices: [],
      selectable: selectableFor(this.#nodePools, deviceClass, selectors),
      deviceVerdicts: this.#a.poolCache?.deviceVerdicts(this.#a.celCache, deviceClass, selectors),
      derived: this.#features.derivedAttributes
        ? this.#compileDerived(claim, name, spec?.derivedAttributes)
        : undefined,
      derivedDevices: undefined,
    };
    if (mode === "ExactCount") {
      data.numDevices = spec?.count ?? 1;
    } else if (mode === "All") {
      let c = 0;
      for (const pool of this.#pools) {
        if (pool.isIncomplete) {
          throw new Error(
            `claim ${claimName(claim)}, request ${name}: asks for all devices, but resource pool ${pool.id} is currently being updated`,
          );
        }
        if (pool.isInvalid) {
          throw new Error(
            `claim ${claimName(claim)}, request ${name}: asks for all devices, but resource pool ${pool.id} is currently invalid`,
          );
        }
        // The candidates are in pool order.
        for (; c < this.#candidates.length && this.#candidates[c]!.pool === pool; c++) {
          if (this.#isSelectable(claim, data, c) && this.#capacityFits(claim, data, c))
            data.allDevices.push(c);
        }
      }
      data.numDevices = data.allDevices.length;
    } else {
      throw new Error(`claim ${claimName(claim)}, request ${name}: unsupported count mode ${mode}`);
    }
    return data;
  }

  /** A request's derived attributes, compiled (DRADerivedAttributes). */
  #compileDerived(
    claim: ResourceClaim,
    request: string,
    attributes: readonly { name: string; expression: string }[] | undefined,
  ): RequestData["derived"] {
    if (attributes === undefined || attributes.length === 0) return undefined;
    return attributes.map(({ name, expression }) => {
      const compiled = this.#a.celCache.getOrCompileDerivedAttribute(expression);
      if (compiled.error !== null) {
        throw new Error(
          `claim ${claimName(claim)}, request ${request}: derived attribute ${name}: CEL compile error: ${compiled.error.detail}`,
        );
      }
      return { name, compiled };
    });
  }

  /**
   * The device as the claim's constraints see it for this request: with DRADerivedAttributes, the
   * request's derived attributes evaluated for it and added to (or shadowing) its attributes. A
   * runtime error aborts the allocation, as the API documents. The evaluations of one claim's
   * derived attributes in this run share one CEL cost budget (the API: "the combined cost of all
   * derived attributes in a claim is capped by a shared CEL cost budget"): each runs with what is
   * left of it as its runtime limit, so the one that passes the budget fails with cel-go's
   * limit error.
   */
  #constraintDevice(claimIndex: number, data: RequestData, c: number): Device {
    const candidate = this.#candidates[c]!;
    if (data.derived === undefined) return candidate.device;
    data.derivedDevices ??= new Array(this.#candidates.length);
    const kept = data.derivedDevices[c];
    if (kept !== undefined) return kept;
    const device = candidate.device;
    const attributes: Record<string, DeviceAttribute> = { ...device.attributes };
    this.#derivedCost ??= new Array<number>(this.#claims.length).fill(0);
    for (const { name, compiled } of data.derived) {
      const used = this.#derivedCost[claimIndex]!;
      const costLimit = derivedAttributesCostBudget - used;
      const { value, actualCost, error } = compiled.evaluate(
        {
          driver: candidate.pool.driver,
          allowMultipleAllocations: device.allowMultipleAllocations ?? false,
          attributes: device.attributes,
          capacity: device.capacity,
        },
        this.#signal === undefined ? { costLimit } : { signal: this.#signal, costLimit },
      );
      this.#derivedCost[claimIndex] = used + actualCost;
      if (error !== null || value === undefined) {
        const budget =
          // By name: the cel and structured entry points are bundled apart (no shared class).
          error?.name === "CostLimitExceededError" && costLimit < CELSelectorExpressionMaxCost
            ? ` (the claim's derived attributes share a CEL cost budget of ${derivedAttributesCostBudget}, ${used} used before)`
            : "";
        throw new Error(
          `claim ${claimName(this.#claims[claimIndex]!)}, request ${data.fullName}: derived attribute ${name} on device ${candidate.id}: CEL runtime error: ${error?.message ?? "no value"}${budget}`,
          { cause: error },
        );
      }
      attributes[name] = value;
    }
    const derived: Device = { ...device, attributes };
    data.derivedDevices[c] = derived;
    return derived;
  }

  /**
   * One search step (upstream allocateOne): allocate the device `deviceIndex` of the request
   * or subrequest, trying candidates from `start` on so that each combination of devices is
   * tried once.
   */
  #allocateOne(
    claimIndex: number,
    requestIndex: number,
    subRequestIndex: number,
    deviceIndex: number,
    allocateSubRequest: boolean,
    start: number,
  ): Outcome {
    this.numAllocateOneInvocations++;
    const signal = this.#signal;
    if (signal?.aborted) {
      throw abortError(signal.reason);
    }
    if (claimIndex >= this.#claims.length) return true; // The first full solution wins.

    const perClaim = this.#requestData[claimIndex]!;
    if (requestIndex >= perClaim.length) {
      // Done with the claim, continue with the next one. Exceeding the limit is not passed on:
      // a different allocation of an earlier claim may let a subrequest with fewer devices fit.
      const outcome = this.#allocateOne(claimIndex + 1, 0, 0, 0, false, 0);
      return outcome === maxSizeExceeded ? false : outcome;
    }
    const subs = perClaim[requestIndex]!;
    if (!allocateSubRequest && subs[0]!.parentName !== "") {
      let allAllocationExceeded = true;
      for (let sub = 0; sub < subs.length; sub++) {
        const outcome = this.#allocateOne(claimIndex, requestIndex, sub, deviceIndex, true, 0);
        if (outcome === maxSizeExceeded) continue;
        allAllocationExceeded = false;
        if (outcome) {
          this.#selectedSubRequest[claimIndex]![requestIndex] = sub;
          return true;
        }
      }
      return allAllocationExceeded ? maxSizeExceeded : false;
    }

    const data = subs[subRequestIndex]!;
    if (data.all && data.allDevices.length === 0) return false; // "All" needs at least one device.
    if (deviceIndex >= data.numDevices) {
      // Done with the request, continue with the next one.
      return this.#allocateOne(claimIndex, requestIndex + 1, 0, 0, false, 0);
    }
    const results = this.#results[claimIndex]!;
    if (results.length + data.numDevices - deviceIndex > AllocationResultsMaxSize) return maxSizeExceeded;

    if (data.all) {
      // The devices are known; the order does not matter, so only the next one is tried.
      const candidate = data.allDevices[deviceIndex]!;
      if (!this.#allocateDevice(claimIndex, data, candidate, true)) return false;
      const outcome = this.#allocateOne(
        claimIndex,
        requestIndex,
        subRequestIndex,
        deviceIndex + 1,
        allocateSubRequest,
        0,
      );
      if (outcome !== true) this.#deallocateDevice(claimIndex, data, candidate);
      return outcome;
    }

    const claim = this.#claims[claimIndex]!;
    const candidates = this.#candidates;
    // With a list matchAttribute constraint, only the candidates it would not reject (the
    // others fail allocateDevice without side effects): the same devices in the same order.
    const only = this.#constrainedCandidates(claimIndex, data, start);
    const end = only === undefined ? candidates.length : only.length;
    for (let i = only === undefined ? start : 0; i < end; i++) {
      const c = only === undefined ? i : only[i]!;
      // Checking for "in use" is cheap and thus gets done first.
      if (data.adminAccess ? this.#allocatingForClaim(c, claimIndex) : this.#inUse(c)) continue;
      if (!this.#isSelectable(claim, data, c)) continue;
      if (!this.#capacityFits(claim, data, c)) continue;
      if (!this.#allocateDevice(claimIndex, data, c, false)) continue;
      const outcome = this.#allocateOne(
        claimIndex,
        requestIndex,
        subRequestIndex,
        deviceIndex + 1,
        allocateSubRequest,
        c + 1,
      );
      if (outcome === true) return true;
      this.#deallocateDevice(claimIndex, data, c);
      if (outcome === maxSizeExceeded) return outcome;
    }
    return false;
  }

  /**
   * The candidates from `start` on that the request's list matchAttribute constraint would not
   * reject, or undefined to try them all: when it is the only constraint of the claim concerning
   * the request, every candidate's selector verdict is known (no evaluation, and so no error, is
   * skipped), no candidate consumes counters (allocateDevice consumes them before the
   * constraint rejects a device) and the request derives no attributes (DRADerivedAttributes).
   */
  #constrainedCandidates(
    claimIndex: number,
    data: RequestData,
    start: number,
  ): ArrayLike<number> | undefined {
    if (this.#features.listTypeAttributes !== true) return undefined;
    // Derived attributes may shadow the published attribute the index is built from.
    if (data.derived !== undefined) return undefined;
    const baseName = data.parentName === "" ? data.name : data.parentName;
    const subName = data.parentName === "" ? "" : data.name;
    let only: Constraint | undefined;
    for (const constraint of this.#constraints[claimIndex]!) {
      if (!constraint.applies(baseName, subName)) continue;
      if (only !== undefined) return undefined;
      only = constraint;
    }
    if (!(only instanceof MatchListAttributeConstraint)) return undefined;
    if (data.selectable.indexOf(0, start) !== -1) return undefined;
    const index = attributeIndexFor(this.#nodePools, only.attribute, this.#a.valueIDs);
    if (index.consumesCounters && this.#features.partitionableDevices) return undefined;
    return only.candidatesFrom(index, start);
  }

  #inUse(c: number): boolean {
    let allocated = this.#allocated[c]!;
    if (allocated === 0) {
      allocated = this.#a.allocatedState.allocatedDevices.has(this.#candidates[c]!.id) ? 1 : 2;
      this.#allocated[c] = allocated;
    }
    return allocated === 1 || (this.#allocating?.[c]?.length ?? 0) > 0;
  }

  #allocatingForClaim(c: number, claimIndex: number): boolean {
    return this.#allocating?.[c]?.includes(claimIndex) ?? false;
  }

  /** Class and request selectors, and per-device node selection (upstream isSelectable; cached). */
  #isSelectable(claim: ResourceClaim, data: RequestData, c: number): boolean {
    const candidate = this.#candidates[c]!;
    const device = candidate.device;
    // Devices with binding conditions need the feature.
    if (!this.#features.deviceBindingAndStatus && (device.bindingConditions?.length ?? 0) > 0) return false;
    // Devices of a slice that skips node operations need the feature and a node declaring it.
    if (!this.#skipNodeOperationsAllowed && (candidate.slice.spec.skipNodeOperations?.length ?? 0) > 0)
      return false;
    const cached = data.selectable[c]!;
    if (cached !== 0) return cached === 1;
    let selected = data.deviceVerdicts?.get(device);
    if (selected === undefined) {
      selected =
        this.#selectorsMatch(claim, candidate, data.class, data.class.spec?.selectors ?? []) &&
        this.#selectorsMatch(claim, candidate, undefined, data.selectors);
      data.deviceVerdicts?.set(device, selected);
    }
    const selectable =
      selected &&
      (candidate.slice.spec.perDeviceNodeSelection !== true ||
        nodeMatches(this.#node, device.nodeName ?? "", device.allNodes ?? false, device.nodeSelector));
    data.selectable[c] = selectable ? 1 : 2;
    return selectable;
  }

  #selectorsMatch(
    claim: ResourceClaim,
    candidate: Candidate,
    deviceClass: DeviceClass | undefined,
    selectors: readonly DeviceSelector[],
  ): boolean {
    const owner =
      deviceClass !== undefined ? `class ${deviceClass.metadata?.name ?? ""}` : `claim ${claimName(claim)}`;
    for (let i = 0; i < selectors.length; i++) {
      const expression = selectors[i]!.cel?.expression ?? "";
      const compiled = this.#a.celCache.getOrCompile(expression);
      if (compiled.error !== null) {
        throw new Error(`${owner}: selector #${i}: CEL compile error: ${compiled.error.detail}`);
      }
      const { matches, error } = this.#a.celCache.deviceMatches(
        compiled,
        candidate.device,
        candidate.pool.driver,
        this.#signal === undefined ? undefined : { signal: this.#signal },
      );
      if (error !== null) {
        throw new Error(`${owner}: selector #${i}: CEL runtime error: ${error.message}`, {
          cause: error,
        });
      }
      if (!matches) return false;
    }
    return true;
  }

  /**
   * Checks availability, counters, taints and constraints for a selectable candidate and records
   * it as allocated when they pass (upstream allocateDevice). `must`: the request needs exactly
   * this device, so a violated constraint is an error.
   */
  #allocateDevice(claimIndex: number, data: RequestData, c: number, must: boolean): boolean {
    const candidate = this.#candidates[c]!;
    const device = candidate.device;
    const multi = this.#multi(c);
    if (!multi && data.adminAccess && this.#allocatingForClaim(c, claimIndex)) return false;
    if (!data.adminAccess && this.#inUse(c)) return false;
    const consumes = device.consumesCounters ?? [];
    // Devices consuming counters need the partitionable devices feature.
    if (!this.#features.partitionableDevices && consumes.length > 0) return false;
    // A shared device whose capacity is already in use has its counters consumed already.
    const skipCounterCheck =
      multi &&
      (this.#a.allocatedState.aggregatedCapacity?.has(candidate.id) === true ||
        (this.#allocatingShares?.[c] ?? 0) > 0);
    if (!skipCounterCheck && consumes.length > 0 && !this.#takeCounters(c)) return false;
    // Devices on a counter set go together only while their compatibility groups intersect.
    let compatibilityGroupsUndo: CompatibilityGroupsUndo | undefined;
    if (this.#features.deviceCompatibilityGroups && !skipCounterCheck && consumes.length > 0) {
      compatibilityGroupsUndo = this.#checkCompatibilityGroups(candidate);
      if (compatibilityGroupsUndo === undefined) {
        this.#deallocateCounters(c);
        return false;
      }
    }
    // Might be tainted, in which case the taint has to be tolerated.
    // As upstream, counters consumed above stay consumed when a taint or a constraint rejects
    // the device (allocator_incubating.go returns without deallocateCountersForDevice).
    if (this.#features.deviceTaints && taintPreventsAllocation(device, data.tolerations)) {
      if (compatibilityGroupsUndo !== undefined) undoCompatibilityGroups(compatibilityGroupsUndo);
      return false;
    }
    const baseName = data.parentName === "" ? data.name : data.parentName;
    const subName = data.parentName === "" ? "" : data.name;
    const constraints = this.#constraints[claimIndex]!;
    const constrained = constraints.length > 0 ? this.#constraintDevice(claimIndex, data, c) : device;
    for (let i = 0; i < constraints.length; i++) {
      if (constraints[i]!.add(baseName, subName, constrained, candidate.pool.driver)) continue;
      if (must) {
        throw new Error(
          `claim ${claimName(this.#claims[claimIndex]!)}, request ${data.name}: cannot add device ${candidate.id} because a claim constraint would not be satisfied`,
        );
      }
      for (let e = 0; e < i; e++)
        constraints[e]!.remove(baseName, subName, constrained, candidate.pool.driver);
      if (compatibilityGroupsUndo !== undefined) undoCompatibilityGroups(compatibilityGroupsUndo);
      return false;
    }
    if (!multi) {
      this.#allocating ??= new Array(this.#candidates.length);
      let allocating = this.#allocating[c];
      if (allocating === undefined) {
        allocating = [];
        this.#allocating[c] = allocating;
      }
      allocating.push(claimIndex);
    }
    const results = this.#results[claimIndex]!;
    if (!this.#features.consumableCapacity) {
      results.push(
        compatibilityGroupsUndo === undefined
          ? { request: data, candidate }
          : { request: data, candidate, compatibilityGroupsUndo },
      );
      return true;
    }
    // As upstream, a failure here (checked before, so not expected) returns without undoing the above.
    if (!multi) {
      if (!this.#capacityFits(this.#claims[claimIndex]!, data, c)) return false;
      results.push(
        compatibilityGroupsUndo === undefined
          ? { request: data, candidate }
          : { request: data, candidate, compatibilityGroupsUndo },
      );
      return true;
    }
    let consumed: Map<string, Quantity> | undefined;
    try {
      consumed = this.#consumedCapacity(data, c);
    } catch (error) {
      throw this.#capacityRequestError(this.#claims[claimIndex]!, data, c, error);
    }
    if (consumed === undefined) return false;
    this.#allocatingCapacity ??= new Array(this.#candidates.length);
    let allocatingCapacity = this.#allocatingCapacity[c];
    if (allocatingCapacity === undefined) {
      allocatingCapacity = new Map();
      this.#allocatingCapacity[c] = allocatingCapacity;
    }
    addConsumed(allocatingCapacity, consumed, 1);
    this.#allocatingShares ??= new Uint32Array(this.#candidates.length);
    this.#allocatingShares[c]!++;
    const claim = this.#claims[claimIndex]!;
    results.push({
      request: data,
      candidate,
      shareID: shareID(
        claimName(claim),
        claim.metadata?.uid ?? "",
        data.fullName,
        candidate.id,
        String(results.length),
      ),
      consumedCapacity: consumed.size > 0 ? consumed : undefined,
      compatibilityGroupsUndo,
    });
    return true;
  }

  /** Undoes the last {@link #allocateDevice} of the claim (upstream's deallocate closure). */
  #deallocateDevice(claimIndex: number, data: RequestData, c: number): void {
    const candidate = this.#candidates[c]!;
    const device = candidate.device;
    const baseName = data.parentName === "" ? data.name : data.parentName;
    const subName = data.parentName === "" ? "" : data.name;
    const constraints = this.#constraints[claimIndex]!;
    const constrained = constraints.length > 0 ? this.#constraintDevice(claimIndex, data, c) : device;
    for (const constraint of constraints) {
      constraint.remove(baseName, subName, constrained, candidate.pool.driver);
    }
    const result = this.#results[claimIndex]!.pop()!;
    if (result.compatibilityGroupsUndo !== undefined) undoCompatibilityGroups(result.compatibilityGroupsUndo);
    if (this.#multi(c)) {
      if (result.consumedCapacity !== undefined)
        addConsumed(this.#allocatingCapacity![c]!, result.consumedCapacity, -1);
      if (--this.#allocatingShares![c]! === 0) this.#allocatingCapacity![c] = undefined;
    } else {
      const allocating = this.#allocating![c]!;
      allocating.splice(allocating.lastIndexOf(claimIndex), 1);
      if (this.#features.partitionableDevices && (device.consumesCounters?.length ?? 0) > 0) {
        this.#deallocateCounters(c);
      }
    }
  }

  /**
   * Adds the device's counters to the consumed ones if they fit (upstream checkAvailableCounters):
   * on numbers where the pool's counters are ({@link PoolCounterSlots}), else on Quantities.
   */
  #takeCounters(c: number): boolean {
    this.#candidateCounters ??= candidateCounterSlots(this.#nodePools);
    const counters = this.#candidateCounters;
    let first = counters.first[c]!;
    if (first === notLookedUp) first = counters.lookUp(c);
    if (first !== quantityPath) {
      const n = counters.pools[c]!;
      this.#availableCounters ??= this.#a.availableCounterTable(counters);
      const table = this.#availableCounters;
      let state = table.state[n]!;
      if (state === poolNotCopied) {
        const available = this.#a.availableCounterSlots(counters.pool(n), counters.layout(n));
        state = copyAvailableCounters(table, counters, n, available);
      }
      if (state === poolBlocked) return false;
      this.#consumedCounterSlots ??= new Float64Array(counters.size);
      const to = first + counters.count[c]!;
      return takeCounterEntries(
        table.values,
        this.#consumedCounterSlots,
        counters.entrySlots,
        counters.entryAmounts,
        first,
        to,
      );
    }
    const candidate = this.#candidates[c]!;
    return this.#a.countersFitAllocated(candidate) && this.#checkAvailableCounters(candidate);
  }

  /** Adds the device's counters to the consumed ones if they fit, on Quantities. */
  #checkAvailableCounters(candidate: Candidate): boolean {
    const pool = candidate.pool;
    const available = this.#a.availableCounters(pool);
    this.#consumedCounters ??= new Map();
    let consumedForPool = this.#consumedCounters.get(pool.id);
    if (consumedForPool === undefined) {
      consumedForPool = new Map();
      this.#consumedCounters.set(pool.id, consumedForPool);
    }
    for (const consumption of candidate.device.consumesCounters ?? []) {
      let consumedForSet = consumedForPool.get(consumption.counterSet);
      if (consumedForSet === undefined) {
        consumedForSet = new Map();
        consumedForPool.set(consumption.counterSet, consumedForSet);
      }
      for (const [name, counter] of Object.entries(consumption.counters)) {
        const value = parseCounter(counter);
        const consumed = consumedForSet.get(name);
        consumedForSet.set(name, consumed === undefined ? value : consumed.add(value));
      }
    }
    for (const [setName, counters] of available) {
      const consumedForSet = consumedForPool.get(setName);
      for (const [name, value] of counters) {
        if (value.cmp(consumedForSet?.get(name) ?? zero) < 0) {
          this.#deallocateQuantityCounters(candidate);
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Folds the device's compatibility groups into each counter set it consumes when every one of
   * them admits it (upstream checkAndConsumeCompatibilityGroups): the first device of a counter
   * set in this attempt starts from the allocated devices' groups. Returns how to undo it, or
   * `undefined` (nothing changed) when a counter set's devices declare groups the device does
   * not share.
   */
  #checkCompatibilityGroups(candidate: Candidate): CompatibilityGroupsUndo | undefined {
    const pool = candidate.pool;
    this.#compatibilityGroups ??= new Map();
    let running = this.#compatibilityGroups.get(pool.id);
    if (running === undefined) {
      running = new Map();
      this.#compatibilityGroups.set(pool.id, running);
    }
    const baseline = this.#a.compatibilityGroupsBaseline(pool);
    const saved: [
      Map<string, CompatibilityGroupIntersection>,
      string,
      CompatibilityGroupIntersection | undefined,
    ][] = [];
    for (const consumption of candidate.device.consumesCounters ?? []) {
      const existing = running.get(consumption.counterSet);
      const current = existing ?? baseline.get(consumption.counterSet) ?? noCompatibilityGroupMembers;
      const groups = compatibilityGroupSet(consumption.compatibilityGroups);
      if (!admitsCompatibilityGroups(current, groups)) {
        undoCompatibilityGroups(saved);
        return undefined;
      }
      saved.push([running, consumption.counterSet, existing]);
      running.set(consumption.counterSet, addCompatibilityGroups(current, groups));
    }
    return saved;
  }

  /** upstream deallocateCountersForDevice (after a {@link #takeCounters} of the candidate). */
  #deallocateCounters(c: number): void {
    const counters = this.#candidateCounters!;
    const first = counters.first[c]!;
    if (first >= 0) {
      const to = first + counters.count[c]!;
      releaseCounterEntries(
        this.#consumedCounterSlots!,
        counters.entrySlots,
        counters.entryAmounts,
        first,
        to,
      );
      return;
    }
    this.#deallocateQuantityCounters(this.#candidates[c]!);
  }

  #deallocateQuantityCounters(candidate: Candidate): void {
    const consumedForPool = this.#consumedCounters?.get(candidate.pool.id);
    if (consumedForPool === undefined) return;
    for (const consumption of candidate.device.consumesCounters ?? []) {
      const consumedForSet = consumedForPool.get(consumption.counterSet);
      if (consumedForSet === undefined) continue;
      for (const [name, counter] of Object.entries(consumption.counters)) {
        const consumed = consumedForSet.get(name) ?? zero;
        consumedForSet.set(name, consumed.sub(parseCounter(counter)));
      }
    }
  }

  /** The AllocationResults of a successful search. */
  results(): AllocationResult[] {
    const out: AllocationResult[] = [];
    const nodeName = this.#node.metadata?.name ?? "";
    for (let claimIndex = 0; claimIndex < this.#claims.length; claimIndex++) {
      const claim = this.#claims[claimIndex]!;
      const devices = this.#results[claimIndex]!;
      const results: DeviceRequestAllocationResult[] = devices.map(
        ({ request, candidate, shareID, consumedCapacity }) => {
          const r: DeviceRequestAllocationResult = {
            request: request.fullName,
            driver: candidate.pool.driver,
            pool: candidate.pool.pool,
            device: candidate.device.name,
          };
          if (request.adminAccess) r.adminAccess = true;
          if (request.tolerations !== undefined && request.tolerations.length > 0)
            r.tolerations = [...request.tolerations];
          if (shareID !== undefined) r.shareID = shareID;
          if (consumedCapacity !== undefined) {
            r.consumedCapacity = Object.fromEntries(
              [...consumedCapacity].map(([name, q]) => [name, q.toString()]),
            );
          }
          if (this.#features.deviceBindingAndStatus) {
            const bc = candidate.device.bindingConditions;
            const bfc = candidate.device.bindingFailureConditions;
            if (bc !== undefined) r.bindingConditions = [...bc];
            if (bfc !== undefined) r.bindingFailureConditions = [...bfc];
          }
          const skip = candidate.slice.spec.skipNodeOperations;
          if (skip !== undefined && skip.length > 0) r.skipNodeOperations = [...skip];
          return r;
        },
      );
      const allocation: AllocationResult = { devices: { results } };
      const config = this.#configs(claimIndex, claim);
      if (config.length > 0) allocation.devices!.config = config;
      let nodeSelector: NodeSelector | undefined;
      try {
        nodeSelector = createNodeSelector(devices, nodeName);
      } catch (err) {
        throw new Error(`create NodeSelector for claim ${claim.metadata?.name ?? ""}: ${errorMessage(err)}`);
      }
      if (nodeSelector !== undefined) allocation.nodeSelector = nodeSelector;
      out.push(allocation);
    }
    return out;
  }

  /** The class configs once per class, then the claim's configs that apply (upstream's "Populate configs"). */
  #configs(claimIndex: number, claim: ResourceClaim): DeviceAllocationConfiguration[] {
    const config: DeviceAllocationConfiguration[] = [];
    const perClaim = this.#requestData[claimIndex]!;
    const selected = this.#selectedSubRequest[claimIndex]!;
    const classRanges = new Map<string, [number, number]>();
    for (let requestIndex = 0; requestIndex < perClaim.length; requestIndex++) {
      const data = perClaim[requestIndex]![selected[requestIndex]!]!;
      const className = data.class.metadata?.name ?? "";
      const range = classRanges.get(className);
      if (range !== undefined) {
        for (let i = range[0]; i < range[1]; i++) config[i]!.requests!.push(data.fullName);
        continue;
      }
      const startLen = config.length;
      for (const classConfig of data.class.spec?.config ?? []) {
        config.push({ ...classConfig, source: "FromClass", requests: [data.fullName] });
      }
      classRanges.set(className, [startLen, config.length]);
    }
    const requests = claim.spec?.devices?.requests ?? [];
    for (const claimConfig of claim.spec?.devices?.config ?? []) {
      const { requests: configRequests, ...deviceConfiguration } = claimConfig;
      const entry = (): DeviceAllocationConfiguration => {
        const e: DeviceAllocationConfiguration = { ...deviceConfiguration, source: "FromClaim" };
        if (configRequests !== undefined) e.requests = [...configRequests];
        return e;
      };
      if (configRequests === undefined || configRequests.length === 0) {
        config.push(entry());
        continue;
      }
      for (let i = 0; i < requests.length; i++) {
        const request = requests[i]!;
        if (configRequests.includes(request.name)) {
          config.push(entry());
          continue;
        }
        const data = perClaim[i]![selected[i]!]!;
        if (data.parentName === "") continue;
        if (configRequests.includes(data.fullName)) config.push(entry());
      }
    }
    // A config for every request: "empty means all".
    for (const c of config) {
      if (c.requests !== undefined && c.requests.length === requests.length) delete c.requests;
    }
    return config;
  }
}

/** The node selector of an allocation (upstream createNodeSelector). */
function createNodeSelector(
  devices: readonly DeviceResult[],
  targetNodeName: string,
): NodeSelector | undefined {
  const matchFields: NodeSelectorRequirement[] = [];
  const matchExpressions: NodeSelectorRequirement[] = [];
  for (const { candidate } of devices) {
    const sliceSpec = candidate.slice.spec;
    const perDevice = sliceSpec.perDeviceNodeSelection === true;
    const nodeName = perDevice ? candidate.device.nodeName : sliceSpec.nodeName;
    const nodeSelector = perDevice ? candidate.device.nodeSelector : sliceSpec.nodeSelector;
    if (nodeName !== undefined || candidate.device.bindsToNode === true) {
      // Local to one node or bound to it: the allocation is for that node.
      return {
        nodeSelectorTerms: [
          { matchFields: [{ key: "metadata.name", operator: "In", values: [targetNodeName] }] },
        ],
      };
    }
    if (nodeSelector === undefined) continue;
    const terms = nodeSelector.nodeSelectorTerms ?? [];
    if (terms.length === 0) continue;
    if (terms.length > 1) {
      // Validation prevents such slices.
      throw new Error(`unsupported ResourceSlice.NodeSelector with ${terms.length} terms`);
    }
    addNewNodeSelectorRequirements(terms[0]!.matchFields ?? [], matchFields);
    addNewNodeSelectorRequirements(terms[0]!.matchExpressions ?? [], matchExpressions);
  }
  if (matchFields.length === 0 && matchExpressions.length === 0) return undefined; // Available everywhere.
  const term: { matchFields?: NodeSelectorRequirement[]; matchExpressions?: NodeSelectorRequirement[] } = {};
  if (matchFields.length > 0) term.matchFields = matchFields;
  if (matchExpressions.length > 0) term.matchExpressions = matchExpressions;
  return { nodeSelectorTerms: [term] };
}

function addNewNodeSelectorRequirements(
  from: readonly NodeSelectorRequirement[],
  to: NodeSelectorRequirement[],
): void {
  for (const requirement of from) {
    const values = new Set(requirement.values ?? []);
    const present = to.some(
      (existing) =>
        existing.key === requirement.key &&
        existing.operator === requirement.operator &&
        (existing.values ?? []).length === values.size &&
        (existing.values ?? []).every((v) => values.has(v)),
    );
    if (!present) to.push(requirement);
  }
}
