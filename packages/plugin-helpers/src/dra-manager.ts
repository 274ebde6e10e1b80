// upstream: pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go (DefaultDRAManager:
// claimTracker, the assume cache of ResourceClaims and the in-flight allocations; the
// ResourceSlice tracker; the DeviceClass lister and resolver) at kubernetes/kubernetes@81810de6,
// and pkg/scheduler/util/assumecache (objects newer than the informer's win until it catches up).
// One per scheduler (upstream scheduler.go New: NewDRAManager, handed to every profile through
// WithSharedDRAManager): the runtime's newProfileMap makes it.
import type { DeviceClass, ResourceClaim } from "@kubesched/api";
import { ResourceSliceTracker, sameObjects } from "@kubesched/dynamic-resource-allocation/structured";
import type {
  ClusterListers,
  ClusterScopedLister,
  ResourceClaimTracker,
  ResourceSliceLister,
  SharedDRAManager,
} from "@kubesched/framework";
import {
  AllocatedStateCounter,
  addClaimToAllocatedState,
  type MutableAllocatedState,
  newAllocatedState,
} from "./allocated-state";
import { DeviceClassResolver } from "./device-class-resolver";
import { type FollowedSource, ListFollower } from "./sync-list";

/**
 * The allocated state of the claims the plugin sees (the informer's through the assume cache,
 * and the in-flight allocations), kept from one PreFilter to the next instead of gathered anew
 * from every claim. The informer's changes since the last update are followed (plugin-helpers'
 * ListFollower: the cache's change feed, or its listing). The assumed objects and the in-flight
 * allocations are applied on top, as the difference from those of the last update. The state
 * changes only in {@link update}: a cycle reads it from PreFilter to its end as a gather would
 * have built it.
 */
class ClaimsAllocatedState {
  readonly counter: AllocatedStateCounter;
  private readonly claims: ListFollower<ResourceClaim>;
  /** What {@link update} applied on top of the informer's claims (the next one applies the difference). */
  private replaced: readonly ResourceClaim[] = [];
  private added: readonly ResourceClaim[] = [];
  /** Claims the informer dropped or replaced, taken out after the update's additions. */
  private readonly removals: ResourceClaim[] = [];

  constructor(enableConsumableCapacity: boolean) {
    const counter = new AllocatedStateCounter(enableConsumableCapacity);
    this.counter = counter;
    // The informer's removals wait until the update's additions are in (see update).
    this.claims = new ListFollower(
      (c) => this.removals.push(c),
      (c) => counter.add(c),
    );
  }

  /**
   * The state of the informer's claims with `replaced` (informer objects the assume cache has
   * newer ones for) taken out and `added` (those newer objects, the in-flight allocations) put in.
   */
  update(
    claims: FollowedSource<ResourceClaim>,
    replaced: readonly ResourceClaim[],
    added: readonly ResourceClaim[],
  ): MutableAllocatedState {
    const counter = this.counter;
    // Additions first, removals last: the counter counts each device's holders, so a device held
    // before and after (an in-flight allocation the informer now has, an assumed object replaced
    // by the informer's) never drops to none in between, and its pool's change number stays: the
    // allocator's kept searches and verdicts and the scoring's counts for that pool stay valid.
    // The follower adds the informer's new objects at once and leaves its removals for the end.
    const informerChanged = this.claims.follow(claims);
    // Nothing changed since the last update (the same claims, the same objects on top): the
    // state is current, and its device set's change numbers stay (the scoring keeps its counts).
    if (!informerChanged && sameObjects(replaced, this.replaced) && sameObjects(added, this.added)) {
      return counter.state;
    }
    // Only what differs from the last update's objects on top (an object on top then and now
    // stays counted).
    for (const c of extras(added, this.added)) counter.add(c);
    for (const c of extras(this.replaced, replaced)) counter.add(c);
    for (const c of this.removals) counter.remove(c);
    this.removals.length = 0;
    for (const c of extras(this.added, added)) counter.remove(c);
    for (const c of extras(replaced, this.replaced)) counter.remove(c);
    this.replaced = replaced;
    this.added = added;
    return counter.state;
  }
}

const noObjects: readonly never[] = [];

/** The objects of `from` that `minus` does not hold as often (by identity; each occurrence counts). */
function extras<T>(from: readonly T[], minus: readonly T[]): readonly T[] {
  if (minus.length === 0 || from.length === 0) return from;
  if (from.length * minus.length <= 64) {
    // A few objects (the usual case): compared in place, nothing allocated when all are held.
    let out: T[] | null = null;
    for (let i = 0; i < from.length; i++) {
      const o = from[i] as T;
      let earlier = 0;
      for (let j = 0; j < i; j++) if (from[j] === o) earlier++;
      let held = 0;
      for (const m of minus) if (m === o) held++;
      if (earlier < held) continue;
      out ??= [];
      out.push(o);
    }
    return out ?? noObjects;
  }
  const left = new Map<T, number>();
  for (const o of minus) left.set(o, (left.get(o) ?? 0) + 1);
  const out: T[] = [];
  for (const o of from) {
    const n = left.get(o) ?? 0;
    if (n > 0) left.set(o, n - 1);
    else out.push(o);
  }
  return out;
}

function key(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** A resourceVersion as a number for the "newer than" comparison (upstream assumecache). */
function version(o: ResourceClaim | undefined): number {
  const n = Number(o?.metadata?.resourceVersion ?? "");
  return Number.isFinite(n) ? n : 0;
}

/**
 * The claims the scheduler sees between cycles (upstream claimTracker):
 *
 * - the **assume cache**: the claim PreBind wrote, kept until the informer delivers that version
 *   or a newer one, so that the devices it allocated are not handed out again meanwhile;
 * - the **in-flight allocations**: claims Reserve allocated whose PreBind has not written them
 *   yet. Their devices count as allocated in the next cycles, and a pod sharing such a claim waits
 *   (PreFilter: "is in the process of being allocated").
 */
export class ClaimTracker implements ResourceClaimTracker {
  private readonly assumed = new Map<string, ResourceClaim>();
  private readonly inFlight = new Map<string, ResourceClaim>();
  /** The allocated state kept between cycles, per consumable-capacity setting (made when first asked for). */
  private readonly states = new Map<boolean, ClaimsAllocatedState>();

  constructor(private readonly listers: Pick<ClusterListers, "resourceClaims">) {}

  /** The claim as the assume cache has it (the informer's object unless a newer one is assumed). */
  get(namespace: string, name: string): ResourceClaim | undefined {
    const informer = this.listers.resourceClaims.get(namespace, name);
    const k = key(namespace, name);
    const assumed = this.assumed.get(k);
    if (!assumed) return informer;
    if (
      !informer ||
      version(informer) >= version(assumed) ||
      informer.metadata?.uid !== assumed.metadata?.uid
    ) {
      this.assumed.delete(k);
      return informer;
    }
    return assumed;
  }

  /** Every claim, through the assume cache. */
  list(): ResourceClaim[] {
    const all = this.listers.resourceClaims.list();
    // Nothing assumed (the common case between PreBinds): the informer's objects, without a lookup each.
    if (this.assumed.size === 0) return [...all];
    return all.map((c) => this.viaAssumeCache(c));
  }

  /** The informer's `c`, or the newer object the assume cache holds for it. */
  private viaAssumeCache(c: ResourceClaim): ResourceClaim {
    const ns = c.metadata?.namespace ?? "";
    const name = c.metadata?.name ?? "";
    return this.assumed.has(key(ns, name)) ? (this.get(ns, name) ?? c) : c;
  }

  /** upstream ClaimHasPendingAllocation. */
  claimHasPendingAllocation(uid: string): boolean {
    return this.inFlight.has(uid);
  }

  /** upstream SignalClaimPendingAllocation: Reserve allocated the claim (not written yet). */
  signalClaimPendingAllocation(uid: string, allocatedClaim: ResourceClaim): void {
    this.inFlight.set(uid, allocatedClaim);
  }

  /** upstream RemoveClaimPendingAllocation; true when the claim was in flight. */
  removeClaimPendingAllocation(uid: string): boolean {
    return this.inFlight.delete(uid);
  }

  /** upstream AssumeClaimAfterAPICall: the object the API server answered PreBind's write with. */
  assumeClaimAfterAPICall(claim: ResourceClaim): void {
    const k = key(claim.metadata?.namespace ?? "", claim.metadata?.name ?? "");
    const informer = this.listers.resourceClaims.get(
      claim.metadata?.namespace ?? "",
      claim.metadata?.name ?? "",
    );
    if (informer && version(informer) >= version(claim)) return;
    this.assumed.set(k, claim);
  }

  /** upstream AssumedClaimRestore: drops an assumed object, the informer's is current again. */
  assumedClaimRestore(namespace: string, name: string): void {
    this.assumed.delete(key(namespace, name));
  }

  /** The claims whose allocation is in flight. */
  inFlightClaims(): ResourceClaim[] {
    return [...this.inFlight.values()];
  }

  /** The claims the assume cache holds newer than the informer. */
  assumedClaims(): ResourceClaim[] {
    return [...this.assumed.keys()].flatMap((k) => {
      const [ns = "", name = ""] = k.split("/");
      const c = this.get(ns, name);
      return c && this.assumed.get(k) === c ? [c] : [];
    });
  }

  /**
   * upstream ListAllAllocatedDevices: the devices of every allocated claim (assume cache) and of
   * every in-flight allocation; admin access allocations do not take a device.
   */
  listAllAllocatedDevices(): Set<string> {
    return new Set(this.allocatedDevices());
  }

  /**
   * The devices {@link listAllAllocatedDevices} lists, as a set to read and not keep (it is the
   * state kept between cycles, changed by the next call).
   */
  allocatedDevices(): ReadonlySet<string> {
    return this.allocatedState(false).allocatedDevices;
  }

  /**
   * What {@link gatherAllocatedState} gathers (without consumable capacity, only the devices),
   * kept up to date between calls rather than gathered: read it, do not change it (the preemption
   * dry run changes a copy); the next call changes it.
   */
  allocatedState(enableConsumableCapacity: boolean): Readonly<MutableAllocatedState> {
    return this.updatedCounter(enableConsumableCapacity).state;
  }

  /**
   * upstream IsDeviceAllocated over {@link allocatedState}: the devices some claim holds,
   * exclusively or by a share (admin access takes none), as a set numbering its changes per
   * pool. Kept with the allocated state of the same setting: asking for both costs one update.
   * Read it within the cycle, do not change it.
   */
  heldDevices(enableConsumableCapacity: boolean): ReadonlySet<string> {
    return this.updatedCounter(enableConsumableCapacity).heldDevices;
  }

  /** The kept state for the setting, brought up to date with the claims. */
  private updatedCounter(enableConsumableCapacity: boolean): AllocatedStateCounter {
    let state = this.states.get(enableConsumableCapacity);
    if (!state) {
      state = new ClaimsAllocatedState(enableConsumableCapacity);
      this.states.set(enableConsumableCapacity, state);
    }
    // The informer objects the assume cache holds newer ones for, and those newer ones.
    const replaced: ResourceClaim[] = [];
    const added: ResourceClaim[] = [];
    for (const k of [...this.assumed.keys()]) {
      const i = k.indexOf("/");
      const ns = k.slice(0, i);
      const name = k.slice(i + 1);
      const informer = this.listers.resourceClaims.get(ns, name);
      const current = this.get(ns, name);
      if (current === undefined || current === informer) continue;
      if (informer) replaced.push(informer);
      added.push(current);
    }
    for (const c of this.inFlight.values()) added.push(c);
    state.update(this.listers.resourceClaims, replaced, added);
    return state.counter;
  }

  /**
   * upstream GatherAllocatedState (used with DRAConsumableCapacity): like
   * listAllAllocatedDevices, with the shares of devices that allow multiple allocations and the
   * capacity they consume kept apart from devices allocated exclusively. Gathered from every
   * claim (PreFilter reads {@link allocatedState}, which equals it).
   */
  gatherAllocatedState(): MutableAllocatedState {
    const state = newAllocatedState();
    for (const c of this.list()) addClaimToAllocatedState(state, c, true);
    for (const c of this.inFlight.values()) addClaimToAllocatedState(state, c, true);
    return state;
  }
}

/** What the scheduler's DRA manager is made of. */
export interface DRAManagerOptions {
  /**
   * The informer caches: ResourceClaims, ResourceSlices, DeviceClasses and (with
   * `deviceTaintRules`) DeviceTaintRules.
   */
  listers: Pick<ClusterListers, "resourceClaims" | "resourceSlices" | "deviceClasses" | "deviceTaintRules">;
  /**
   * DRADeviceTaintRules: the slices are listed with the taints of the DeviceTaintRules added
   * (upstream: the ResourceSlice tracker); off, or where the source watches no DeviceTaintRules
   * (the listers have none), the informer's slices as they are.
   */
  deviceTaintRules: boolean;
}

/**
 * The scheduler's DRA state (upstream DefaultDRAManager), one per scheduler: the claims through
 * the assume cache with the in-flight allocations, the slices (patched by DeviceTaintRules) and
 * the DeviceClasses with the resolver of extended resource names.
 */
export class DefaultDRAManager implements SharedDRAManager {
  readonly #claims: ClaimTracker;
  readonly #slices: ResourceSliceLister;
  readonly #classes: ClusterScopedLister<DeviceClass>;
  readonly #resolver: DeviceClassResolver;

  constructor(options: DRAManagerOptions) {
    const { resourceClaims, resourceSlices, deviceClasses, deviceTaintRules } = options.listers;
    this.#claims = new ClaimTracker({ resourceClaims });
    this.#slices =
      options.deviceTaintRules && deviceTaintRules !== undefined
        ? new ResourceSliceTracker({ resourceSlices, deviceTaintRules })
        : resourceSlices;
    this.#classes = deviceClasses;
    this.#resolver = new DeviceClassResolver(deviceClasses);
  }

  resourceClaims(): ClaimTracker {
    return this.#claims;
  }

  resourceSlices(): ResourceSliceLister {
    return this.#slices;
  }

  deviceClasses(): ClusterScopedLister<DeviceClass> {
    return this.#classes;
  }

  deviceClassResolver(): DeviceClassResolver {
    return this.#resolver;
  }
}
