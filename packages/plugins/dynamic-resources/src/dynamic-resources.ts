// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (the 1.36/1.37
// development version with SignPod, Score for prioritized lists and the bindingTimeout arg), as
// described in the package README (what is ported, what is not).
import {
  type AllocationResult,
  formatTime,
  type NodeAllocatableResourceClaimStatus,
  type NodeSelectorMatcher,
  newNodeSelector,
  type Pod,
  type ResourceClaim,
  ResourceClaimFinalizer,
  type ResourceSlice,
} from "@kubesched/api";
import { Cache as CelCache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type AllocatedState,
  type Allocator,
  allocationSkipsNodeOperations,
  DeadlineExceeded,
  type Features,
  isFailedAllocationOnNode,
  newAllocator,
  nodeDeclaresOptionalNodeOperations,
  PoolCache,
} from "@kubesched/dynamic-resource-allocation/structured";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type DeviceClassResolver,
  type DRAAllocatedState,
  defaultKubernetesVersion,
  defaultNormalizeScore,
  type EnqueueExtensions,
  type FilterPlugin,
  type Handle,
  MaxNodeScore,
  minorOf,
  monotonicNow,
  type NodeAllocatableClaimStatusesSource,
  type NodeInfo,
  type NodeScore,
  type NodeToStatus,
  type PodInfo,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ReservePlugin,
  type ResourceClaimTracker,
  type ResourceSliceLister,
  type ScoreExtensions,
  type ScorePlugin,
  type SharedDRAManager,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { DynamicResourcesArgs } from "./args";
import { simulateAddPod, simulateRemovePod } from "./dra-preemption";
import { eventsToRegister } from "./events";
import { ExtendedResourceClaimIndex } from "./extended-resource-claim-index";
import {
  deleteClaim,
  filterExtendedResources,
  isSpecialClaimName,
  type NodeExtendedResourceClaim,
  type PodExtendedResources,
  preFilterExtendedResources,
} from "./extended-resources";
import {
  buildNodeAllocatableDRAInfo,
  type ClaimAllocation,
  hasNodeAllocatableResources,
  nodeFitsResources,
  podDemandWithDRA,
  SliceDevices,
  sameNodeAllocatableStatuses,
  validateNodeAllocatableDRAClaimSharing,
  validatePodLevelResourcesCoverDRA,
} from "./node-allocatable";
import {
  ErrReasonCannotAllocateAllClaims,
  ErrReasonClaimNotAvailable,
  ErrReasonDeallocationCompleted,
  ErrReasonDeletionCompleted,
  ErrReasonNoNewClaimsToDeallocate,
  ErrReasonOptionalNodeOperationsUnsupported,
  ErrReasonResourceClaimInUse,
  ErrReasonStillNotSchedulable,
  ErrReasonTimedOut,
} from "./reasons";
import { canBeReserved, checkIsForPod, claimName, isReservedForPod, kObj } from "./resource-claim";

export const name = "DynamicResources";

/** upstream resourceapi.FirstAvailableDeviceRequestMaxSize: Score's base for a prioritized list. */
const FirstAvailableDeviceRequestMaxSize = 8;

/** upstream retry.DefaultRetry: how often PreBind retries a write that hit a conflict. */
const conflictRetries = 5;

/** What Filter found on one node (upstream nodeAllocation). */
interface NodeFilterResult {
  readonly allocations: AllocationResult[];
  readonly extended: NodeExtendedResourceClaim | null;
}

/**
 * The cycle's state (upstream stateData): the pod's claims and what Filter found per node.
 * Exported for the package's tests (not from the index).
 */
export class DynamicResourcesState implements StateData, NodeAllocatableClaimStatusesSource {
  /** The pod's claims (1:1 with the claims it needs), replaced by PreBind's writes. */
  claims: ResourceClaim[] = [];
  /** Per claim: the allocated claim's node selector, and the allocation Reserve chose. */
  informationsForClaim: {
    availableOnNodes: NodeSelectorMatcher | null;
    allocation: AllocationResult | null;
  }[] = [];
  /** The allocator of this cycle, when some claim needs allocating. */
  allocator: Allocator | null = null;
  /** Indices of allocated claims that were not available on at least one node (PostFilter). */
  unavailableClaims = new Set<number>();
  /**
   * What Filter found per node (upstream nodeAllocations): the allocation results, in the order
   * of the claims to allocate, and the node's variant of the special claim (one entry per node:
   * Filter runs on every node of every cycle).
   */
  nodeResults = new Map<string, NodeFilterResult>();
  /** The slices PreFilter read, for allocators built again during the preemption dry run. */
  resourceSlices: readonly ResourceSlice[] = [];
  /**
   * What allocated claims use, gathered in PreFilter (upstream allocatedState), with
   * DRAPreemption only (null without). The preemption dry run takes the claims of removed
   * victims out of its copy (RemovePod) and puts them back (AddPod); Filter then allocates
   * against it instead of the cycle's allocator.
   */
  allocatedState: DRAAllocatedState | null = null;
  /**
   * Whether `allocatedState` is shared (the DRA manager's, or another copy of this state's):
   * the dry run copies it before its first change.
   */
  allocatedStateShared = false;
  /** UIDs of claims every user of which the dry run removed: their devices count as free. */
  simulatedReleasedClaims = new Set<string>();
  /** Per claim UID, the UIDs of the pods using it that the dry run removed. */
  simulatedRemovedPodsForClaim = new Map<string, Set<string>>();
  /**
   * DRAExtendedResource: the index in `claims` of the special claim for the pod's extended
   * resources backed by DeviceClasses (the last one), or -1.
   */
  extendedIndex = -1;
  /** The special claim's uid at PreFilter: its in-flight key (PreBind replaces the claim). */
  initialExtendedUID = "";
  /** The pod's non-zero extended resource requests (upstream draExtendedResource.podScalarResources) as PreFilter read them. */
  podExtendedResources: PodExtendedResources | null = null;
  /**
   * The claims Filter allocates, per node variant of the special claim (null: none), while the
   * preemption dry run released none: made once per cycle, not per node (a copy starts afresh).
   */
  filterClaims = new Map<NodeExtendedResourceClaim | null, ResourceClaim[]>();
  /** The claims Score reads, and whether a request of theirs has a prioritized list (PreScore). */
  scoreClaims: { claims: ResourceClaim[]; prioritizedLists: boolean } | null = null;
  /**
   * DRANodeAllocatableResources: per node, the pod's claim statuses Filter computed (upstream
   * nodeAllocation.nodeAllocatableResourceClaimStatuses); the scheduler's assume puts them on
   * the assumed pod and PreBind writes them to the pod's status.
   */
  nodeAllocatableStatuses = new Map<string, NodeAllocatableResourceClaimStatus[]>();
  /** DRANodeAllocatableResources: the devices of the cycle's slices, indexed at first use. */
  sliceDevices: SliceDevices | null = null;

  nodeAllocatableResourceClaimStatuses(
    nodeName: string,
  ): readonly NodeAllocatableResourceClaimStatus[] | undefined {
    return this.nodeAllocatableStatuses.get(nodeName);
  }

  /** Filter's allocation results on the node, in the order of the claims to allocate. */
  allocationsOn(nodeName: string): AllocationResult[] | undefined {
    return this.nodeResults.get(nodeName)?.allocations;
  }

  /** Filter's variant of the special claim for the node, with its container mappings. */
  extendedClaimOn(nodeName: string): NodeExtendedResourceClaim | undefined {
    return this.nodeResults.get(nodeName)?.extended ?? undefined;
  }

  /** The special claim for extended resources, or null (upstream claimStore.extendedResourceClaim). */
  extendedClaim(): ResourceClaim | null {
    return this.extendedIndex >= 0 ? (this.claims[this.extendedIndex] ?? null) : null;
  }

  /** Whether the pod has no claim of its own (only, maybe, the special one). */
  noUserClaim(): boolean {
    return this.claims.length - (this.extendedIndex >= 0 ? 1 : 0) === 0;
  }

  /** Indices of the claims the scheduler allocates (no allocation yet). */
  toAllocate(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.claims.length; i++) if (!this.claims[i]?.status?.allocation) out.push(i);
    return out;
  }

  /**
   * Indices of the claims Filter allocates: those without allocation and, in the preemption dry
   * run, those whose allocation the removed victims released.
   */
  toAllocateInFilter(): number[] {
    if (this.simulatedReleasedClaims.size === 0) return this.toAllocate();
    const out: number[] = [];
    for (let i = 0; i < this.claims.length; i++) {
      const c = this.claims[i];
      if (!c?.status?.allocation || this.simulatedReleasedClaims.has(c.metadata?.uid ?? "")) out.push(i);
    }
    return out;
  }

  /**
   * A copy for a preemption dry run or a pass with nominated pods: what the dry run changes
   * (the allocated state, the released claims, the removed pods) is copied; the rest is shared,
   * so that the binding cycle sees what Reserve stored and Reserve finds what Filter found even
   * when Filter ran on a copy (a pod nominated to the node filters it on one). Upstream's Clone
   * (04f5fdea) copies nodeAllocations too, which loses Filter's result for a nominated pod.
   */
  clone(): StateData {
    const c = new DynamicResourcesState();
    c.claims = this.claims;
    c.allocator = this.allocator;
    c.resourceSlices = this.resourceSlices;
    c.informationsForClaim = this.informationsForClaim;
    c.unavailableClaims = this.unavailableClaims;
    c.nodeResults = this.nodeResults;
    c.extendedIndex = this.extendedIndex;
    c.initialExtendedUID = this.initialExtendedUID;
    c.podExtendedResources = this.podExtendedResources;
    c.nodeAllocatableStatuses = this.nodeAllocatableStatuses;
    c.sliceDevices = this.sliceDevices;
    // Copied on the dry run's first change (most copies, a pass with nominated pods, change nothing).
    c.allocatedState = this.allocatedState;
    c.allocatedStateShared = true;
    this.allocatedStateShared = true;
    c.simulatedReleasedClaims = new Set(this.simulatedReleasedClaims);
    for (const [uid, pods] of this.simulatedRemovedPodsForClaim) {
      c.simulatedRemovedPodsForClaim.set(uid, new Set(pods));
    }
    return c;
  }
}

/** Where the cycle's state is stored (exported for the package's tests). */
export const stateKeyName = stateKey<DynamicResourcesState>(name);

/**
 * An abort signal for the allocator's synchronous search that turns aborted once `ms` of wall
 * time have passed (upstream context.WithTimeout(filterTimeout)): a timer-based AbortSignal could
 * not fire while the search holds the thread, so `aborted` reads the clock (not at every read). One object per Filter
 * call, itself the signal (the allocator reads `aborted` and `reason` only).
 */
class Deadline {
  #ms = 0;
  /** When the deadline passes: set by the first read of {@link aborted}, which starts the clock. */
  #end = Number.NaN;
  #parent: AbortSignal | undefined;
  #reason: Error | undefined;
  #reads = 0;
  #expired = false;

  /**
   * Starts the deadline afresh for one Filter call (the plugin keeps one and arms it per call:
   * Filter is synchronous and the allocator keeps nothing of it). `parent`: the cycle's
   * cancellation; once it is aborted, so is the deadline, with its reason.
   */
  arm(ms: number, parent: AbortSignal | undefined): this {
    this.#ms = ms;
    this.#parent = parent;
    this.#end = Number.NaN;
    this.#reason = undefined;
    this.#reads = 0;
    this.#expired = false;
    return this;
  }

  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  /**
   * The first read starts the clock (the allocator reads it first thing, microseconds into
   * Filter: a search answered from what was kept reads the clock once); the second read and
   * every 16th after it read the clock again (the search reads it at each step, and a step takes
   * microseconds, so a timeout is seen at most 15 steps late); once past, always.
   */
  get aborted(): boolean {
    if (this.#expired || this.#parent?.aborted === true) return true;
    const reads = this.#reads++;
    if (reads === 0) {
      this.#end = monotonicNow() + this.#ms;
      return false;
    }
    if ((reads & 15) !== 1) return false;
    this.#expired = monotonicNow() > this.#end;
    return this.#expired;
  }

  /**
   * Made when first read (the allocator reads it once the deadline passed, or to answer a search
   * it keeps as timed out): an Error per Filter call, with its stack trace, was a tenth of a DRA
   * workload's CPU time.
   */
  get reason(): unknown {
    if (this.#parent?.aborted === true) return this.#parent.reason;
    this.#reason ??= new DeadlineExceeded();
    return this.#reason;
  }
}

/** `list` with `i` appended (a new list for null). */
function appended(list: number[] | null, i: number): number[] {
  if (list === null) return [i];
  list.push(i);
  return list;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Dynamic Resource Allocation: allocates the devices of a pod's ResourceClaims from the
 * ResourceSlices through the structured allocator, keeps allocations in flight visible to the
 * next cycles, and writes the allocation and `reservedFor` to each claim in PreBind.
 */
export class DynamicResources
  implements
    PreEnqueuePlugin,
    PreFilterPlugin,
    PreFilterExtensions,
    FilterPlugin,
    PostFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ReservePlugin,
    PreBindPlugin,
    EnqueueExtensions,
    SignPlugin
{
  /** Whether PostFilter's no-op outcomes carry their reasons (1.34–1.36; gone in 1.37, #140222). */
  private readonly postFilterReasons: boolean;
  /** Whether Filter's timeout is an Error naming the node (1.36 on, #137607) rather than unschedulable. */
  private readonly timeoutIsError: boolean;
  /** The DynamicResourceAllocation gate: off, the plugin does nothing (upstream `enabled`). */
  private readonly enabled: boolean;
  /**
   * DRADeviceBindingConditions and DRAResourceClaimDeviceStatus (both on by default from 1.36):
   * devices with binding conditions are allocated and PreBind waits for their conditions.
   */
  private readonly bindingConditions: boolean;
  /**
   * DRAPreemption (alpha, off by default): the preemption dry run frees the devices of claims
   * only victims use (AddPod/RemovePod).
   */
  private readonly preemption: boolean;
  /**
   * The code of the plugin's "not schedulable" statuses (upstream statusUnschedulable):
   * UnschedulableAndUnresolvable as in 1.37; with DRAPreemption, Unschedulable as at
   * kubernetes/kubernetes@04f5fdea, so that preemption tries the nodes Filter rejected.
   */
  private readonly unschedulable: Code;
  /** DRAConsumableCapacity: shares of multi-allocation devices are tracked apart. */
  private readonly consumableCapacity: boolean;
  /** DRASchedulerFilterTimeout: Filter stops the allocator after the `filterTimeout` arg. */
  private readonly filterTimeout: boolean;
  /** DRAOptionalNodeOperations: allocated devices that skip node operations need a declaring node. */
  private readonly optionalNodeOperations: boolean;
  /**
   * DRANodeAllocatableResources (alpha from 1.36): the node allocatable resources the pod's
   * devices map to or cost count against the node's allocatable in Filter, a claim with a mapped
   * device serves one pod only, and PreBind writes `status.nodeAllocatableResourceClaimStatuses`.
   */
  private readonly nodeAllocatable: boolean;
  /** PodLevelResources: the pod's demand with its DRA resources uses its pod-level requests. */
  private readonly podLevelResources: boolean;
  /**
   * The scheduler's one DRA state, shared by every profile (`handle.sharedDRAManager()`, upstream
   * SharedDRAManager); null only with DynamicResourceAllocation off (the plugin does nothing).
   */
  private readonly sharedDRA: SharedDRAManager | null;
  /** The special claims for extended resources by owner (DRAExtendedResource). */
  private readonly extendedClaims = new ExtendedResourceClaimIndex();
  /** Filter's timeout, armed per call. */
  private readonly deadline = new Deadline();
  /** NormalizeScore: upstream's defaultNormalizeScore (made once, per node: no columnar form). */
  private readonly normalizer: ScoreExtensions = {
    normalizeScore: (_state: CycleState, _pod: Pod, scores: NodeScore[]) => {
      defaultNormalizeScore(MaxNodeScore, false, scores);
      return null;
    },
  };
  /** Compiled CEL selectors, the 10 most recent reused across cycles (upstream cel.NewCache(10)). */
  private readonly celCache: CelCache;
  /**
   * Each node's pools, candidate devices and selector results, kept between cycles while the
   * node's slices, the slices without a node name and the classes do not change (kubesched's own:
   * upstream gathers them per Filter call).
   */
  private readonly poolCache = new PoolCache();
  /** The allocator's features, made on first use ({@link allocatorFeatures}). */
  #allocatorFeatures: Readonly<Features> | undefined;
  /** DRAExtendedResource: the DeviceClasses backing extended resources (null with the gate off). */
  private readonly deviceClassResolver: DeviceClassResolver | null;

  constructor(
    readonly args: DynamicResourcesArgs,
    private readonly handle: Handle,
    /** The release behaved as (`handle.kubernetesVersion()`): PostFilter's wording and the timeout's status depend on it. */
    kubernetesVersion: string = defaultKubernetesVersion,
  ) {
    this.postFilterReasons = minorOf(kubernetesVersion) < 37;
    this.timeoutIsError = minorOf(kubernetesVersion) >= 36;
    this.enabled = handle.features().enableDynamicResourceAllocation;
    const features = handle.features();
    this.bindingConditions =
      features.enableDRADeviceBindingConditions && features.enableDRAResourceClaimDeviceStatus;
    this.preemption = features.enableDRAPreemption;
    this.unschedulable = this.preemption ? Code.Unschedulable : Code.UnschedulableAndUnresolvable;
    this.consumableCapacity = features.enableConsumableCapacity;
    this.filterTimeout = features.enableDRASchedulerFilterTimeout;
    this.optionalNodeOperations = features.enableDRAOptionalNodeOperations;
    this.nodeAllocatable = features.enableDRANodeAllocatableResources;
    this.podLevelResources = features.enablePodLevelResources;
    this.celCache = new CelCache(10, {
      enableConsumableCapacity: features.enableConsumableCapacity,
      enableListTypeAttributes: features.enableDRAListTypeAttributes,
    });
    this.sharedDRA = handle.sharedDRAManager();
    if (this.enabled && this.sharedDRA === null) {
      throw new Error(
        `${name}: the scheduler has no shared DRA manager (handle.sharedDRAManager() is null); build the profiles with newProfileMap`,
      );
    }
    this.deviceClassResolver =
      features.enableDRAExtendedResource && this.sharedDRA !== null
        ? this.sharedDRA.deviceClassResolver()
        : null;
  }

  /** The claims between cycles: the assume cache and the in-flight allocations (the shared manager's). */
  get draManager(): ResourceClaimTracker {
    return this.manager().resourceClaims();
  }

  /**
   * The ResourceSlices the allocator reads: with DRADeviceTaintRules, with the taints of the
   * DeviceTaintRules added (the shared manager's ResourceSlice tracker).
   */
  private get resourceSlices(): ResourceSliceLister {
    return this.manager().resourceSlices();
  }

  private manager(): SharedDRAManager {
    if (this.sharedDRA === null) throw new Error(`${name}: DynamicResourceAllocation is off`);
    return this.sharedDRA;
  }

  name(): string {
    return name;
  }

  /**
   * Whether a claim is used on one node only or by many is not simple to tell, so pods with
   * claims are not signed (upstream SignPod; kubernetes/kubernetes#134986); others add nothing.
   */
  signPod(pod: Pod): SignPodResult {
    if ((pod.spec?.resourceClaims?.length ?? 0) > 0) {
      return {
        fragments: [],
        status: new Status(Code.Unschedulable, "pods with dra resource claims are not signable"),
      };
    }
    return { fragments: [], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    if (!this.enabled) return [];
    return eventsToRegister(this.handle.features().enableSchedulingQueueHint, (pod, cb) =>
      this.foreachPodResourceClaim(pod, cb),
    );
  }

  /**
   * upstream foreachPodResourceClaim: each claim the pod needs must exist (through the assume
   * cache), not be being deleted and, when generated from a template, be owned by the pod.
   * Throws the first problem (upstream's message).
   */
  foreachPodResourceClaim(pod: Pod, cb?: (podClaimName: string, claim: ResourceClaim) => void): void {
    const ns = pod.metadata?.namespace ?? "";
    for (const pc of pod.spec?.resourceClaims ?? []) {
      const { name: n, mustCheckOwner } = claimName(pod, pc);
      if (n === null) continue;
      const claim = this.draManager.get(ns, n);
      if (!claim) throw new Error(`resourceclaim.resource.k8s.io "${n}" not found`);
      if (claim.metadata?.deletionTimestamp) throw new Error(`resourceclaim "${n}" is being deleted`);
      if (mustCheckOwner) checkIsForPod(pod, claim);
      cb?.(pc.name, claim);
    }
  }

  /** Gates a pod whose claims are missing or being deleted. */
  preEnqueue(pod: Pod): Status | null {
    if (!this.enabled) return null;
    try {
      this.foreachPodResourceClaim(pod);
    } catch (e) {
      return new Status(this.unschedulable, message(e));
    }
    return null;
  }

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    if (!this.enabled) return new Status(Code.Skip);
    const s = new DynamicResourcesState();
    state.write(stateKeyName, s);
    const claims: ResourceClaim[] = [];
    try {
      this.foreachPodResourceClaim(pod, (_n, c) => claims.push(c));
    } catch (e) {
      return new Status(this.unschedulable, message(e));
    }
    // Extended resources backed by DeviceClasses: one special claim, after the pod's own.
    const extended = this.deviceClassResolver
      ? preFilterExtendedResources(pod, this.deviceClassResolver, (p) =>
          this.extendedClaims.find(this.handle.listers().resourceClaims, p),
        )
      : null;
    if (extended) {
      if (!isSpecialClaimName(extended.claim.metadata?.name)) {
        const m = extended.claim.metadata;
        extended.claim = this.draManager.get(m?.namespace ?? "", m?.name ?? "") ?? extended.claim;
      }
      s.extendedIndex = claims.length;
      s.initialExtendedUID = extended.claim.metadata?.uid ?? "";
      s.podExtendedResources = extended.resources;
      claims.push(extended.claim);
    }
    if (claims.length === 0) return new Status(Code.Skip);

    const prioritizedList = this.handle.features().enableDRAPrioritizedList;
    let numClaimsToAllocate = 0;
    s.informationsForClaim = claims.map(() => ({ availableOnNodes: null, allocation: null }));
    for (const [index, claim] of claims.entries()) {
      const allocation = claim.status?.allocation;
      if (allocation && !canBeReserved(claim) && !isReservedForPod(pod, claim)) {
        // Resource is in use. The pod has to wait.
        return new Status(this.unschedulable, ErrReasonResourceClaimInUse);
      }
      if (allocation) {
        if (this.nodeAllocatable) {
          const status = validateNodeAllocatableDRAClaimSharing(pod, claim, this.sliceDevices(s));
          if (status) return status;
        }
        if (allocation.nodeSelector) {
          const info = s.informationsForClaim[index];
          if (info) info.availableOnNodes = newNodeSelector(allocation.nodeSelector);
        }
        continue;
      }
      numClaimsToAllocate++;
      // Allocation in flight? Better wait for that to finish.
      if (this.draManager.claimHasPendingAllocation(claim.metadata?.uid ?? "")) {
        return new Status(
          this.unschedulable,
          `resource claim ${kObj(claim)} is in the process of being allocated`,
        );
      }
      // The special claim is not validated: made in memory it has no requests yet; from an
      // earlier cycle, Filter rejects it.
      if (index === s.extendedIndex) continue;
      // A class that does not exist stops scheduling, no matter how the claim is allocated.
      for (const request of claim.spec?.devices?.requests ?? []) {
        let status: Status | null = null;
        if (request.exactly) {
          status = this.validateDeviceClass(request.exactly.deviceClassName, request.name);
        } else if ((request.firstAvailable?.length ?? 0) > 0) {
          if (!prioritizedList) {
            return new Status(
              this.unschedulable,
              `resource claim ${kObj(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`,
            );
          }
          for (const sub of request.firstAvailable ?? []) {
            status ??= this.validateDeviceClass(sub.deviceClassName, `${request.name}/${sub.name}`);
          }
        } else {
          status = new Status(
            this.unschedulable,
            `resource claim ${kObj(claim)}, request ${request.name}: unknown request type`,
          );
        }
        if (status) return status;
      }
    }

    // With DRAPreemption, an allocator is needed even when every claim is allocated: the dry run
    // may release a claim the pod shares with victims, which Filter then allocates again.
    if (numClaimsToAllocate > 0 || this.preemption) {
      // The devices of claims in the assume cache or in flight count as allocated: the state the
      // DRA manager keeps between cycles (equal to upstream's GatherAllocatedState) is read as it
      // is; the preemption dry run changes only copies of it (the cycle state's clone()).
      const allocatedState = this.draManager.allocatedState(this.consumableCapacity);
      const slices = this.resourceSlices.list();
      try {
        s.allocator = this.newAllocator(allocatedState, slices);
      } catch (e) {
        return asStatus(e);
      }
      // Only the preemption dry run (DRAPreemption) reads it from the cycle's state; it changes
      // a copy of its own (allocatedStateShared).
      s.allocatedState = this.preemption ? allocatedState : null;
      s.allocatedStateShared = true;
      s.resourceSlices = slices;
    }
    s.claims = claims;
    return null;
  }

  private newAllocator(allocatedState: AllocatedState, slices: readonly ResourceSlice[]): Allocator {
    return newAllocator({
      features: this.allocatorFeatures(),
      allocatedState,
      classLister: this.classLister(),
      slices,
      celCache: this.celCache,
      poolCache: this.poolCache,
    });
  }

  /** The allocator's features from the profile's gates (made once: the gates do not change). */
  private allocatorFeatures(): Readonly<Features> {
    if (this.#allocatorFeatures !== undefined) return this.#allocatorFeatures;
    const features = this.handle.features();
    this.#allocatorFeatures = Object.freeze({
      adminAccess: features.enableDRAAdminAccess,
      prioritizedList: features.enableDRAPrioritizedList,
      deviceTaints: features.enableDRADeviceTaints,
      partitionableDevices: features.enableDRAPartitionableDevices,
      consumableCapacity: features.enableConsumableCapacity,
      deviceBindingAndStatus: this.bindingConditions,
      listTypeAttributes: features.enableDRAListTypeAttributes,
      deviceCompatibilityGroups: features.enableDRADeviceCompatibilityGroups,
      derivedAttributes: features.enableDRADerivedAttributes,
      optionalNodeOperations: features.enableDRAOptionalNodeOperations,
      fractionalCapacityRange: features.enableDRAFractionalCapacityRange,
    });
    return this.#allocatorFeatures;
  }

  private classLister() {
    const classes = this.manager().deviceClasses();
    return {
      list: () => classes.list(),
      get: (className: string) => {
        const c = classes.get(className);
        if (!c) throw new Error(`deviceclass.resource.k8s.io "${className}" not found`);
        return c;
      },
    };
  }

  private validateDeviceClass(deviceClassName: string, requestName: string): Status | null {
    if (!deviceClassName) return asStatus(new Error(`request ${requestName}: unsupported request type`));
    if (!this.manager().deviceClasses().get(deviceClassName)) {
      // Unschedulable until a DeviceClass event.
      return new Status(
        this.unschedulable,
        `request ${requestName}: device class ${deviceClassName} does not exist`,
      );
    }
    return null;
  }

  /** AddPod/RemovePod for the preemption dry run, with DRAPreemption (upstream returns them always; off, they do nothing). */
  preFilterExtensions(): PreFilterExtensions | null {
    return this.enabled && this.preemption ? this : null;
  }

  /** The dry run puts a victim back: the claims it released are allocated again. */
  addPod(state: CycleState, _podToSchedule: Pod, podInfoToAdd: PodInfo, _nodeInfo: NodeInfo): Status | null {
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    return simulateAddPod(s, podInfoToAdd.pod, this.draManager, this.consumableCapacity);
  }

  /**
   * The dry run removes a victim: a claim all of whose `reservedFor` pods are removed is released
   * and its devices count as free (a claim reserved for anything but pods never is).
   */
  removePod(
    state: CycleState,
    _podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    _nodeInfo: NodeInfo,
  ): Status | null {
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    return simulateRemovePod(s, podInfoToRemove.pod, this.draManager, this.consumableCapacity);
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    if (!this.enabled) return null;
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    if (s.claims.length === 0) return null;
    const node = nodeInfo.node;
    if (!node) return asStatus(new Error("node not found"));

    let nodeExtended: NodeExtendedResourceClaim | null = null;
    const extendedClaim = s.extendedClaim();
    if (extendedClaim && this.deviceClassResolver && s.podExtendedResources) {
      const r = filterExtendedResources(
        extendedClaim,
        s.podExtendedResources,
        pod,
        nodeInfo,
        this.deviceClassResolver,
        s.noUserClaim(),
      );
      if (r instanceof Status) return r;
      nodeExtended = r;
    }
    // Only extended resources, all from device plugins on this node: nothing left to do.
    if (!nodeExtended && s.noUserClaim()) return null;

    // Made when a claim is unavailable (rarely): Filter runs on node after node.
    let unavailableClaims: number[] | null = null;
    for (let index = 0; index < s.claims.length; index++) {
      const claim = s.claims[index]!;
      // Only set for allocated claims.
      const selector = s.informationsForClaim[index]?.availableOnNodes;
      if (selector && !selector.match(node)) {
        unavailableClaims = appended(unavailableClaims, index);
        continue;
      }
      // KEP-5945: an allocated device that skips node operations needs a node whose kubelet
      // declares DRAOptionalNodeOperations (the allocator checks this for new allocations).
      const allocation = claim.status?.allocation;
      if (
        this.optionalNodeOperations &&
        allocation &&
        allocationSkipsNodeOperations(allocation) &&
        !nodeDeclaresOptionalNodeOperations(node)
      ) {
        return new Status(this.unschedulable, ErrReasonOptionalNodeOperationsUnsupported);
      }
      if (!claim.status?.allocation || !this.bindingConditions) continue;
      // An allocated claim whose binding failed or timed out: PostFilter may deallocate it so
      // that other devices can be tried.
      let ready: boolean;
      try {
        ready = isClaimReadyForBinding(claim);
      } catch {
        unavailableClaims = appended(unavailableClaims, index);
        continue;
      }
      if (!ready && this.isClaimTimeout(claim)) unavailableClaims = appended(unavailableClaims, index);
    }

    let allocations: AllocationResult[] = [];
    if (s.allocator) {
      // The special claim is replaced by the node's variant of it.
      const released = s.simulatedReleasedClaims.size > 0;
      let claimsToAllocate = released ? undefined : s.filterClaims.get(nodeExtended);
      if (claimsToAllocate === undefined) {
        claimsToAllocate = s
          .toAllocateInFilter()
          .map((i) =>
            i === s.extendedIndex && nodeExtended ? nodeExtended.claim : (s.claims[i] as ResourceClaim),
          );
        if (!released) s.filterClaims.set(nodeExtended, claimsToAllocate);
      }
      // upstream: only with DRASchedulerFilterTimeout on (fts.EnableDRASchedulerFilterTimeout).
      // The cycle's cancellation (upstream: Filter's ctx), under the timeout when there is one.
      const cancel = state.signal;
      const timeout =
        this.filterTimeout && this.args.filterTimeoutMs > 0
          ? this.deadline.arm(this.args.filterTimeoutMs, cancel)
          : undefined;
      let a: AllocationResult[] | null;
      try {
        // In the preemption dry run, with claims released: an allocator over what is left.
        const allocator =
          s.simulatedReleasedClaims.size > 0 && s.allocatedState
            ? this.newAllocator(s.allocatedState, s.resourceSlices)
            : s.allocator;
        a = allocator.allocate(node, claimsToAllocate, timeout?.signal ?? cancel);
      } catch (e) {
        if (cancel?.aborted && e instanceof Error && e.cause !== undefined && e.cause === cancel.reason) {
          return new Status(
            this.unschedulable,
            `asked by caller to stop allocating devices: ${message(cancel.reason)}`,
          );
        }
        if (timeout && e instanceof Error && e.cause !== undefined && e.cause === timeout.reason) {
          // From 1.36 a timeout is an Error naming the node (kubernetes/kubernetes#137607): the
          // attempt ends and the pod retries from the backoff queue, as timeouts are transient.
          return this.timeoutIsError
            ? asStatus(new Error(`node ${node.metadata?.name ?? ""}: ${ErrReasonTimedOut}`))
            : new Status(Code.UnschedulableAndUnresolvable, ErrReasonTimedOut);
        }
        // Not fatal: allocation on other nodes may proceed.
        if (isFailedAllocationOnNode(e)) return new Status(this.unschedulable, e.message);
        // Something is wrong with the claim or class: abort scheduling this pod.
        return asStatus(e);
      }
      // All-or-nothing in practice.
      if (!a || a.length !== claimsToAllocate.length) {
        return new Status(this.unschedulable, ErrReasonCannotAllocateAllClaims);
      }
      allocations = a;
    }

    if (unavailableClaims !== null) {
      for (const i of unavailableClaims) s.unavailableClaims.add(i);
      return new Status(this.unschedulable, ErrReasonClaimNotAvailable);
    }
    if (this.nodeAllocatable) {
      const checked = this.calculateAndCheckNodeAllocatableResources(
        s,
        pod,
        nodeInfo,
        allocations,
        nodeExtended,
      );
      if (checked instanceof Status) return checked;
      if (checked) s.nodeAllocatableStatuses.set(node.metadata?.name ?? "", checked);
      else s.nodeAllocatableStatuses.delete(node.metadata?.name ?? "");
    }
    if (s.allocator) {
      s.nodeResults.set(node.metadata?.name ?? "", { allocations, extended: nodeExtended });
    }
    return null;
  }

  /** The devices of the cycle's slices (PreFilter's, else the lister's), indexed once per cycle. */
  private sliceDevices(s: DynamicResourcesState): SliceDevices {
    s.sliceDevices ??= new SliceDevices(
      s.resourceSlices.length > 0 ? s.resourceSlices : this.resourceSlices.list(),
    );
    return s.sliceDevices;
  }

  /**
   * upstream calculateAndCheckNodeAllocatableResources: the claim statuses of the pod's claims
   * whose devices (Filter's new allocations, or the allocations they have) map to or cost node
   * allocatable resources, and whether the pod's demand with them fits the node. undefined when
   * no claim has such a device.
   */
  private calculateAndCheckNodeAllocatableResources(
    s: DynamicResourcesState,
    pod: Pod,
    nodeInfo: NodeInfo,
    allocations: readonly AllocationResult[],
    nodeExtended: NodeExtendedResourceClaim | null,
  ): NodeAllocatableResourceClaimStatus[] | Status | undefined {
    const node = nodeInfo.node ?? null;
    const newAllocations = new Map<number, AllocationResult>();
    if (s.allocator) {
      const indices = s.toAllocateInFilter();
      for (const [i, index] of indices.entries()) {
        const a = allocations[i];
        if (a) newAllocations.set(index, a);
      }
    }
    const devices = this.sliceDevices(s);
    const claims: ClaimAllocation[] = [];
    for (const [index, stored] of s.claims.entries()) {
      const claim = index === s.extendedIndex && nodeExtended ? nodeExtended.claim : stored;
      const allocation = newAllocations.get(index) ?? claim.status?.allocation;
      if (!allocation) continue;
      const relevant = (allocation.devices?.results ?? []).some((r) => {
        try {
          return hasNodeAllocatableResources(devices.find(r, node));
        } catch (e) {
          // upstream logs the error and goes on with the next result.
          this.handle.logger().error("Failed to get device from manager", {
            err: message(e),
            claim: kObj(claim),
            device: r.device,
            pool: r.pool,
            driver: r.driver,
          });
          return false;
        }
      });
      if (!relevant) continue;
      claims.push({
        namespace: claim.metadata?.namespace ?? "",
        name: claim.metadata?.name ?? "",
        uid: claim.metadata?.uid ?? "",
        allocation,
      });
    }
    if (claims.length === 0) return undefined;
    const claimUIDOfPodClaim = new Map<string, string>();
    let statuses: NodeAllocatableResourceClaimStatus[];
    try {
      this.foreachPodResourceClaim(pod, (podClaimName, claim) =>
        claimUIDOfPodClaim.set(podClaimName, claim.metadata?.uid ?? ""),
      );
      statuses = buildNodeAllocatableDRAInfo(pod, claims, claimUIDOfPodClaim, devices, node);
    } catch (e) {
      return asStatus(e);
    }
    // The pod as it will be: its status with the claims' resources (a shallow copy).
    const withStatuses: Pod = {
      ...pod,
      status: { ...pod.status, nodeAllocatableResourceClaimStatuses: statuses },
    };
    const demand = podDemandWithDRA(withStatuses, this.podLevelResources);
    // API validation checks pod-level resources against the containers' only: it cannot see the
    // DRA resources, known after allocation.
    const podLevel = validatePodLevelResourcesCoverDRA(withStatuses, this.podLevelResources);
    if (podLevel) return podLevel;
    const fit = nodeFitsResources(nodeInfo, demand);
    if (fit) return fit;
    return statuses;
  }

  /**
   * Deallocates one allocated claim that was not available on some node and that no other pod
   * uses, so that the next attempt can allocate it anew.
   */
  async postFilter(state: CycleState, pod: Pod, _m: NodeToStatus): Promise<PostFilterOutput> {
    if (!this.enabled) return { result: null, status: this.noOpPostFilter("plugin disabled") };
    const s = state.read(stateKeyName);
    if (!s) return { result: null, status: asStatus(new Error("not found")) };
    if (s.claims.length === 0)
      return { result: null, status: this.noOpPostFilter(ErrReasonNoNewClaimsToDeallocate) };
    const uid = pod.metadata?.uid;
    const extendedClaim = s.extendedClaim();
    for (const index of s.unavailableClaims) {
      const claim = s.claims[index];
      if (!claim) continue;
      // The special claim is deleted below, not deallocated.
      if (index === s.extendedIndex) {
        if (!isSpecialClaimName(extendedClaim?.metadata?.name)) break;
        continue;
      }
      const reservedFor = claim.status?.reservedFor ?? [];
      if (reservedFor.length === 0 || (reservedFor.length === 1 && reservedFor[0]?.uid === uid)) {
        const next: ResourceClaim = { ...claim, status: {} };
        const update = this.handle.client().updateResourceClaimStatus;
        if (!update)
          return {
            result: null,
            status: asStatus(new Error("the cluster client cannot update ResourceClaims")),
          };
        try {
          await update.call(this.handle.client(), next);
        } catch (e) {
          return { result: null, status: asStatus(e) };
        }
        return { result: null, status: new Status(Code.Unschedulable, ErrReasonDeallocationCompleted) };
      }
    }
    if (extendedClaim && !isSpecialClaimName(extendedClaim.metadata?.name)) {
      // The special claim reserved or allocated in an earlier cycle is deleted; the next attempt
      // makes a new one.
      try {
        await deleteClaim(
          this.handle.client(),
          (ns, n) => this.handle.listers().resourceClaims.get(ns, n),
          extendedClaim,
        );
      } catch (e) {
        return { result: null, status: asStatus(e) };
      }
      return { result: null, status: new Status(Code.Unschedulable, ErrReasonDeletionCompleted) };
    }
    return { result: null, status: this.noOpPostFilter(ErrReasonStillNotSchedulable) };
  }

  /**
   * PostFilter's outcome when it did nothing: Unschedulable, with `reason` in 1.34–1.36; from
   * 1.37 without it (kubernetes/kubernetes#140222: `plugin disabled` and `no new claims to
   * deallocate` went to V(5) logs, `still not schedulable` was dropped), so FitErrors no longer
   * carry the clause.
   */
  private noOpPostFilter(reason: string): Status {
    return this.postFilterReasons ? new Status(Code.Unschedulable, reason) : new Status(Code.Unschedulable);
  }

  preScore(state: CycleState, _pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    const s = state.read(stateKeyName);
    if (!s || s.claims.length === 0) return new Status(Code.Skip);
    s.scoreClaims = scoreClaims(s);
    return null;
  }

  /** Prioritized lists: the node whose allocation uses earlier alternatives scores higher. */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    if (!this.enabled) return 0;
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    const allocations = s.allocationsOn(nodeInfo.node?.metadata?.name ?? "");
    if (s.claims.length === 0 || !allocations) return 0;
    s.scoreClaims ??= scoreClaims(s);
    try {
      // Without prioritized lists every node scores 0 (computeScore's check of the count stays).
      if (!s.scoreClaims.prioritizedLists)
        return computeScore(noClaims, allocations, s.scoreClaims.claims.length);
      return computeScore(s.scoreClaims.claims, allocations);
    } catch (e) {
      return asStatus(e);
    }
  }

  scoreExtensions(): ScoreExtensions {
    return this.normalizer;
  }

  /**
   * Records the allocation Filter found for the chosen node and marks each claim's allocation
   * as in flight: the next cycles count its devices as taken until PreBind has written it.
   */
  reserve(state: CycleState, _pod: Pod, nodeName: string): Status | null {
    if (!this.enabled) return null;
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    const toAllocate = s.toAllocate();
    if (s.claims.length === 0 || toAllocate.length === 0 || !s.allocator) return null;
    const allocations = s.allocationsOn(nodeName);
    if (!allocations || allocations.length === 0) {
      // Only the special claim, and the node's device plugins provide its resources.
      if (toAllocate.every((i) => i === s.extendedIndex)) return null;
      return asStatus(new Error("claim allocation not found for node"));
    }
    if (allocations.length !== toAllocate.length) {
      return asStatus(
        new Error(
          `internal error, have ${allocations.length} allocations, ${toAllocate.length} claims to allocate, want ${toAllocate.length} claims`,
        ),
      );
    }
    for (const [i, index] of toAllocate.entries()) {
      // Read-only (the allocator's results are frozen, shared by the pods it kept them for):
      // claims are made of it, never changed in place.
      const allocation = allocations[i] as AllocationResult;
      const info = s.informationsForClaim[index];
      if (info) info.allocation = allocation;
      // The special claim becomes the node's variant of it (with its requests). A new object
      // over the claim's parts (upstream: a DeepCopy it then changes; here nothing is changed).
      const base =
        (index === s.extendedIndex ? s.extendedClaimOn(nodeName)?.claim : undefined) ??
        (s.claims[index] as ResourceClaim);
      const finalizers = base.metadata?.finalizers ?? [];
      const claim: ResourceClaim = {
        ...base,
        metadata: {
          ...base.metadata,
          finalizers: finalizers.includes(ResourceClaimFinalizer)
            ? finalizers
            : [...finalizers, ResourceClaimFinalizer],
        },
        status: { ...base.status, allocation },
      };
      this.draManager.signalClaimPendingAllocation(claim.metadata?.uid ?? "", claim);
    }
    return null;
  }

  /**
   * Ends the in-flight allocations and takes the pod out of `reservedFor` of the claims PreBind
   * reserved (upstream: a strategic-merge patch; here a status update of the current claim).
   */
  unreserve(state: CycleState, pod: Pod, _nodeName: string): void {
    if (!this.enabled) return;
    const s = state.read(stateKeyName);
    if (!s || s.claims.length === 0) return;
    for (const [index, claim] of s.claims.entries()) {
      // The special claim for extended resources is handled below.
      if (index === s.extendedIndex) continue;
      const ns = claim.metadata?.namespace ?? "";
      const n = claim.metadata?.name ?? "";
      if (this.draManager.removeClaimPendingAllocation(claim.metadata?.uid ?? "")) {
        this.draManager.assumedClaimRestore(ns, n);
      }
      if (claim.status?.allocation && isReservedForPod(pod, claim)) {
        const cur = this.draManager.get(ns, n);
        const update = this.handle.client().updateResourceClaimStatus;
        if (!cur || !update) continue;
        const next: ResourceClaim = {
          ...cur,
          status: {
            ...cur.status,
            reservedFor: (cur.status?.reservedFor ?? []).filter((r) => r.uid !== pod.metadata?.uid),
          },
        };
        // Retried with the pod's next attempt when it fails.
        update.call(this.handle.client(), next).catch((e: unknown) => {
          this.handle.logger().error("unreserve", { err: message(e), resourceclaim: kObj(claim) });
        });
      }
    }
    this.unreserveExtendedResourceClaim(s);
    if (this.nodeAllocatable) this.clearNodeAllocatableResourceClaimStatus(pod);
  }

  /**
   * upstream patchNodeAllocatableResourceClaimStatus: writes the claim statuses Filter computed
   * to the pod's status (pods/status patch). The assumed pod must carry the same statuses (the
   * scheduler's assume put them there); the in-memory name of the claim for extended resources
   * becomes the name of the claim PreBind created.
   */
  private async patchNodeAllocatableResourceClaimStatus(
    pod: Pod,
    computed: readonly NodeAllocatableResourceClaimStatus[],
    extendedClaim: ResourceClaim | null,
  ): Promise<void> {
    const ns = pod.metadata?.namespace ?? "";
    const name = pod.metadata?.name ?? "";
    if (!sameNodeAllocatableStatuses(pod.status?.nodeAllocatableResourceClaimStatuses ?? [], computed)) {
      throw new Error("assumed pod status does not match calculated status to be patched");
    }
    // upstream replaceSpecialClaimNameInStatus, after the comparison (assume copied the
    // in-memory name).
    const realName =
      extendedClaim && !isSpecialClaimName(extendedClaim.metadata?.name)
        ? extendedClaim.metadata?.name
        : undefined;
    const statuses = computed.map((st) =>
      realName !== undefined && isSpecialClaimName(st.resourceClaimName)
        ? { ...st, resourceClaimName: realName }
        : st,
    );
    try {
      await this.handle.client().patchPodStatus(pod, { nodeAllocatableResourceClaimStatuses: statuses });
    } catch (e) {
      throw new Error(`updating pod ${ns}/${name} NodeAllocatableResourceClaimStatuses: ${message(e)}`);
    }
  }

  /**
   * upstream clearNodeAllocatableResourceClaimStatus: Unreserve empties the pod's claim statuses
   * (in the background, as Unreserve cannot wait; a failure is logged).
   */
  private clearNodeAllocatableResourceClaimStatus(pod: Pod): void {
    if ((pod.status?.nodeAllocatableResourceClaimStatuses?.length ?? 0) === 0) return;
    this.handle
      .client()
      .patchPodStatus(pod, { nodeAllocatableResourceClaimStatuses: [] })
      .catch((e: unknown) => {
        this.handle.logger().error("Failed to clear NodeAllocatableResourceClaimStatuses on Unreserve", {
          err: message(e),
          pod: `${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`,
        });
      });
  }

  /**
   * upstream unreserveExtendedResourceClaim: ends the special claim's in-flight allocation and,
   * when PreBind had created it, deletes it (in the background, as Unreserve cannot wait).
   */
  private unreserveExtendedResourceClaim(s: DynamicResourcesState): void {
    const claim = s.extendedClaim();
    if (!claim) return;
    const ns = claim.metadata?.namespace ?? "";
    if (this.draManager.removeClaimPendingAllocation(s.initialExtendedUID)) {
      this.draManager.assumedClaimRestore(ns, claim.metadata?.name ?? "");
    }
    // Only in memory: nothing to delete.
    if (isSpecialClaimName(claim.metadata?.name)) return;
    deleteClaim(
      this.handle.client(),
      (n, name) => this.handle.listers().resourceClaims.get(n, name),
      claim,
    ).catch((e: unknown) => {
      this.handle.logger().error("delete", { err: message(e), resourceclaim: kObj(claim) });
    });
  }

  preBindPreFlight(state: CycleState, _pod: Pod, _nodeName: string): Status | null {
    if (!this.enabled) return new Status(Code.Skip);
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    if (s.claims.length === 0) return new Status(Code.Skip);
    return null;
  }

  /** Writes the allocation (when Reserve chose one) and the pod's `reservedFor` entry to each claim. */
  async preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    if (!this.enabled) return null;
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error("not found"));
    for (const [index, claim] of s.claims.entries()) {
      if (isReservedForPod(pod, claim)) continue;
      try {
        s.claims[index] = await this.bindClaim(s, index, pod, nodeName);
      } catch (e) {
        return asStatus(e);
      }
    }
    // The special claim created for the pod's extended resources: the pod's status says which
    // request serves which container (upstream patchPodExtendedResourceClaimStatus).
    const extended = s.extendedClaim();
    if (extended && s.informationsForClaim[s.extendedIndex]?.allocation) {
      try {
        await this.patchPodExtendedResourceClaimStatus(s, pod, extended, nodeName);
      } catch (e) {
        return asStatus(e);
      }
    }
    if (this.nodeAllocatable) {
      const statuses = s.nodeAllocatableStatuses.get(nodeName);
      if (statuses && statuses.length > 0) {
        try {
          await this.patchNodeAllocatableResourceClaimStatus(pod, statuses, s.extendedClaim());
        } catch (e) {
          return asStatus(e);
        }
      }
    }
    if (!this.bindingConditions || !hasBindingConditions(s.claims)) return null;
    // Wait for the devices' binding conditions (e.g. a device attached to the node by its driver).
    this.handle
      .eventRecorder()
      .eventf(
        pod,
        null,
        "Normal",
        "BindingConditionsPending",
        "Scheduling",
        `waiting for binding conditions for device on node ${nodeName}`,
      );
    try {
      await this.pollUntil(() => this.isPodReadyForBinding(s), 5000, this.args.bindingTimeoutMs);
    } catch (e) {
      // The next attempt's Filter finds the failure or the timeout and PostFilter deallocates.
      return asStatus(e);
    }
    return null;
  }

  /** upstream wait.PollUntilContextTimeout(immediate): on the scheduler's clock. */
  private async pollUntil(done: () => boolean, intervalMs: number, timeoutMs: number): Promise<void> {
    const clock = this.handle.clock();
    const end = clock.now() + timeoutMs;
    for (;;) {
      if (done()) return;
      if (clock.now() >= end) throw new Error("device binding timeout");
      const wait = Math.min(intervalMs, end - clock.now());
      await new Promise<void>((resolve) => clock.setTimeout(resolve, wait));
    }
  }

  /** upstream isClaimTimeout: allocated longer than bindingTimeout ago with conditions pending. */
  private isClaimTimeout(claim: ResourceClaim): boolean {
    const allocation = claim.status?.allocation;
    if (!this.bindingConditions || !allocation?.allocationTimestamp) return false;
    const allocatedAt = Date.parse(allocation.allocationTimestamp);
    const pending = (allocation.devices?.results ?? []).some((r) => r.bindingConditions !== undefined);
    return pending && allocatedAt + this.args.bindingTimeoutMs < this.handle.clock().now();
  }

  /** upstream isPodReadyForBinding: every claim (re-read) is ready; a failure or timeout throws. */
  private isPodReadyForBinding(s: DynamicResourcesState): boolean {
    for (const [index, claim] of s.claims.entries()) {
      const cur = this.draManager.get(claim.metadata?.namespace ?? "", claim.metadata?.name ?? "");
      if (!cur) throw new Error(`resourceclaim.resource.k8s.io "${claim.metadata?.name ?? ""}" not found`);
      s.claims[index] = cur;
      if (!isClaimReadyForBinding(cur)) {
        if (this.isClaimTimeout(cur)) throw new Error(`claim ${cur.metadata?.name ?? ""} binding timeout`);
        return false;
      }
    }
    return true;
  }

  /** upstream patchPodExtendedResourceClaimStatus: the claim's name and the request mappings. */
  private async patchPodExtendedResourceClaimStatus(
    s: DynamicResourcesState,
    pod: Pod,
    claim: ResourceClaim,
    nodeName: string,
  ): Promise<void> {
    const ns = pod.metadata?.namespace ?? "";
    const name = pod.metadata?.name ?? "";
    const mappings = s.extendedClaimOn(nodeName)?.mappings ?? [];
    if (mappings.length === 0) {
      throw new Error(
        `nil or empty request mappings, no update of pod ${ns}/${name} ExtendedResourceClaimStatus`,
      );
    }
    try {
      await this.handle.client().patchPodStatus(pod, {
        extendedResourceClaimStatus: {
          requestMappings: mappings,
          resourceClaimName: claim.metadata?.name ?? "",
        },
      });
    } catch (e) {
      throw new Error(`update pod ${ns}/${name} ExtendedResourceClaimStatus: ${message(e)}`);
    }
  }

  /**
   * upstream createExtendedResourceClaimInAPI: creates the node's variant of the special claim
   * (without name, uid and allocation: the API server names it from its generateName).
   */
  private async createExtendedResourceClaim(
    s: DynamicResourcesState,
    nodeName: string,
  ): Promise<ResourceClaim> {
    const nodeClaim = s.extendedClaimOn(nodeName)?.claim;
    if (!nodeClaim) throw new Error(`extended resource claim not found for node ${nodeName}`);
    // A new object over the node variant's parts, which stay unchanged (shared by the nodes).
    const { status: _status, ...withoutStatus } = nodeClaim;
    const { uid: _uid, ...metadata } = nodeClaim.metadata ?? {};
    const claim: ResourceClaim = { ...withoutStatus, metadata: { ...metadata, name: "" } };
    const client = this.handle.client();
    if (!client.createResourceClaim) throw new Error("the cluster client cannot create ResourceClaims");
    try {
      return await client.createResourceClaim(claim);
    } catch (e) {
      throw new Error(`create claim for extended resources ${kObj(claim)}: ${message(e)}`);
    }
  }

  /** upstream bindClaim: finishes what Reserve started (allocation and reservation). */
  private async bindClaim(
    s: DynamicResourcesState,
    index: number,
    pod: Pod,
    nodeName: string,
  ): Promise<ResourceClaim> {
    // Never changed in place: each change makes a new object over the unchanged parts (upstream
    // changes a DeepCopy; the informer's objects and the API's answers are shared here).
    let claim = s.claims[index] as ResourceClaim;
    const uid = claim.metadata?.uid ?? "";
    const allocation = s.informationsForClaim[index]?.allocation ?? null;
    const isExtended = index === s.extendedIndex;
    // The special claim's resources all come from the node's device plugins: nothing to write.
    if (isExtended && !allocation && !claim.spec?.devices?.requests) return s.claims[index] as ResourceClaim;
    const client = this.handle.client();
    let modified = false;
    try {
      if (!client.updateResourceClaim || !client.updateResourceClaimStatus) {
        throw new Error("the cluster client cannot update ResourceClaims");
      }
      if (isExtended && isSpecialClaimName(claim.metadata?.name)) {
        claim = await this.createExtendedResourceClaim(s, nodeName);
        // From now on the real claim: Unreserve deletes it if the binding fails.
        s.claims[index] = claim;
      }
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          const cur = this.handle
            .listers()
            .resourceClaims.get(claim.metadata?.namespace ?? "", claim.metadata?.name ?? "");
          if (!cur)
            throw new Error(
              `get updated claim ${kObj(claim)} after conflict: resourceclaims.resource.k8s.io "${claim.metadata?.name ?? ""}" not found`,
            );
          claim = cur;
        }
        try {
          if (claim.metadata?.deletionTimestamp)
            throw new Error(`claim ${kObj(claim)} got deleted in the meantime`);
          if (allocation) {
            if (claim.status?.allocation)
              throw new Error(`claim ${kObj(claim)} got allocated elsewhere in the meantime`);
            // The finalizer needs a normal update; it may already be there from an earlier attempt.
            if (!(claim.metadata?.finalizers ?? []).includes(ResourceClaimFinalizer)) {
              const withFinalizer: ResourceClaim = {
                ...claim,
                metadata: {
                  ...claim.metadata,
                  finalizers: [...(claim.metadata?.finalizers ?? []), ResourceClaimFinalizer],
                },
              };
              try {
                claim = await client.updateResourceClaim(withFinalizer);
              } catch (e) {
                throw wrapConflict(e, `add finalizer to claim ${kObj(withFinalizer)}: ${message(e)}`);
              }
            }
            claim = { ...claim, status: { ...claim.status, allocation } };
          }
          const allocationNow = claim.status?.allocation;
          if (this.bindingConditions && allocationNow && !allocationNow.allocationTimestamp) {
            claim = {
              ...claim,
              status: {
                ...claim.status,
                allocation: { ...allocationNow, allocationTimestamp: formatTime(this.handle.clock().now()) },
              },
            };
          }
          claim = {
            ...claim,
            status: {
              ...claim.status,
              reservedFor: [
                ...(claim.status?.reservedFor ?? []),
                { resource: "pods", name: pod.metadata?.name ?? "", uid: pod.metadata?.uid ?? "" },
              ],
            },
          };
          try {
            claim = await client.updateResourceClaimStatus(claim);
          } catch (e) {
            throw wrapConflict(
              e,
              allocation
                ? `add allocation and reservation to claim ${kObj(claim)}: ${message(e)}`
                : `add reservation to claim ${kObj(claim)}: ${message(e)}`,
            );
          }
          modified = true;
          return claim;
        } catch (e) {
          if (!(e instanceof ConflictError) || attempt + 1 >= conflictRetries) throw e;
        }
      }
    } finally {
      if (modified) this.draManager.assumeClaimAfterAPICall(claim);
      if (allocation) this.draManager.removeClaimPendingAllocation(uid);
    }
  }
}

/**
 * upstream computeScore: for each claim (matching its allocation by position), every allocated
 * subrequest of a prioritized list adds 8 minus the subrequest's index in `firstAvailable`.
 * Throws when there are fewer allocations than claims.
 */
export function computeScore(
  claims: readonly ResourceClaim[],
  allocations: readonly AllocationResult[],
  numClaims = claims.length,
): number {
  if (allocations.length < numClaims) {
    throw new Error(`number of allocations ${allocations.length} is smaller than number of claims`);
  }
  let score = 0;
  for (const [i, claim] of claims.entries()) {
    const allocation = allocations[i];
    if (!allocation) {
      throw new Error(`number of allocations ${allocations.length} is smaller than number of claims`);
    }
    const allocated = new Set(
      (allocation.devices?.results ?? []).map((r) => r.request).filter((r) => r.includes("/")),
    );
    for (const req of claim.spec?.devices?.requests ?? []) {
      if (req.exactly) continue;
      for (const [j, sub] of (req.firstAvailable ?? []).entries()) {
        if (allocated.has(`${req.name}/${sub.name}`)) score += FirstAvailableDeviceRequestMaxSize - j;
      }
    }
  }
  return score;
}

const noClaims: readonly ResourceClaim[] = [];

/** The claims Score reads (those to allocate) and whether one has a request with a prioritized list. */
function scoreClaims(s: DynamicResourcesState): { claims: ResourceClaim[]; prioritizedLists: boolean } {
  const claims = s.toAllocate().map((i) => s.claims[i] as ResourceClaim);
  const prioritizedLists = claims.some((c) =>
    (c.spec?.devices?.requests ?? []).some((r) => (r.firstAvailable?.length ?? 0) > 0),
  );
  return { claims, prioritizedLists };
}

/**
 * upstream isClaimReadyForBinding: every device with binding conditions has them all True in
 * the claim's device status. Throws when a binding failure condition is True.
 */
export function isClaimReadyForBinding(claim: ResourceClaim): boolean {
  const allocation = claim.status?.allocation;
  if (!allocation) return false;
  for (const r of allocation.devices?.results ?? []) {
    if ((r.bindingConditions?.length ?? 0) === 0) continue;
    const status = (claim.status?.devices ?? []).find(
      (d) => d.device === r.device && d.driver === r.driver && d.pool === r.pool,
    );
    if (!status) return false;
    for (const cond of r.bindingFailureConditions ?? []) {
      const failed = status.conditions?.find((c) => c.type === cond);
      if (failed?.status === "True") {
        throw new Error(
          `claim ${claim.metadata?.name ?? ""} binding failed: reason=${failed.reason ?? ""}, message=${JSON.stringify(failed.message ?? "")}`,
        );
      }
    }
    for (const cond of r.bindingConditions ?? []) {
      if (status.conditions?.find((c) => c.type === cond)?.status !== "True") return false;
    }
  }
  return true;
}

/** upstream hasBindingConditions: some allocated device has binding conditions. */
function hasBindingConditions(claims: readonly ResourceClaim[]): boolean {
  return claims.some((c) =>
    (c.status?.allocation?.devices?.results ?? []).some((r) => (r.bindingConditions?.length ?? 0) > 0),
  );
}

/** A write that failed on a stale resourceVersion: retried with the current claim. */
class ConflictError extends Error {}

function wrapConflict(e: unknown, msg: string): Error {
  const conflict =
    e !== null &&
    typeof e === "object" &&
    ("reason" in e || "code" in e) &&
    ((e as { reason?: unknown }).reason === "Conflict" || (e as { code?: unknown }).code === 409);
  return conflict ? new ConflictError(msg) : new Error(msg);
}
