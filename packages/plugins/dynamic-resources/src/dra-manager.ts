// upstream: pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go (DefaultDRAManager,
// claimTracker: the assume cache of ResourceClaims and the in-flight allocations) and
// pkg/scheduler/util/assumecache (objects newer than the informer's win until it catches up).
import { ExtendedResourceClaimAnnotation, type Pod, type ResourceClaim } from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";
import { ListFollower } from "@kubesched/plugin-helpers";
import {
  AllocatedStateCounter,
  addClaimToAllocatedState,
  type MutableAllocatedState,
  newAllocatedState,
} from "./allocated-devices";
import { findExtendedResourceClaim } from "./extended-resources";

/**
 * The allocated state of the claims the plugin sees (the informer's through the assume cache,
 * and the in-flight allocations), kept from one PreFilter to the next instead of gathered anew
 * from every claim. The informer's listing is compared with the previous one in one pass
 * (plugin-helpers' ListFollower). The assumed objects and the in-flight allocations are
 * applied on top and taken off again at the next update. The state changes only in
 * {@link update}: a cycle reads it from PreFilter to its end as a gather would have built it.
 */
class ClaimsAllocatedState {
  private readonly counter: AllocatedStateCounter;
  private readonly claims: ListFollower<ResourceClaim>;
  /** What {@link update} applied on top of the informer's claims: taken off at the next one. */
  private replaced: readonly ResourceClaim[] = [];
  private added: readonly ResourceClaim[] = [];

  constructor(enableConsumableCapacity: boolean) {
    const counter = new AllocatedStateCounter(enableConsumableCapacity);
    this.counter = counter;
    this.claims = new ListFollower(
      (c) => counter.remove(c),
      (c) => counter.add(c),
    );
  }

  /**
   * The state of `list`'s claims with `replaced` (informer objects the assume cache has newer
   * ones for) taken out and `added` (those newer objects, the in-flight allocations) put in.
   */
  update(
    list: readonly ResourceClaim[],
    replaced: readonly ResourceClaim[],
    added: readonly ResourceClaim[],
  ): MutableAllocatedState {
    const counter = this.counter;
    for (const c of this.added) counter.remove(c);
    for (const c of this.replaced) counter.add(c);
    this.claims.follow(list);
    for (const c of replaced) counter.remove(c);
    for (const c of added) counter.add(c);
    this.replaced = replaced;
    this.added = added;
    return counter.state;
  }
}

/**
 * The special claims for extended resources (DRAExtendedResource) by the uid of the pod that
 * controls them, kept from the informer's listing as it changes (upstream scans every claim of
 * the pod's namespace per pod in findExtendedResourceClaim; this finds the same claim).
 */
class ExtendedResourceClaimIndex {
  private readonly byOwner = new Map<string, Set<ResourceClaim>>();
  private readonly claims = new ListFollower<ResourceClaim>(
    (c) => this.change(c, -1),
    (c) => this.change(c, 1),
  );

  /** The claim upstream's findExtendedResourceClaim finds in `list` for the pod. */
  find(list: readonly ResourceClaim[], pod: Pod): ResourceClaim | undefined {
    this.claims.follow(list);
    const found = this.byOwner.get(pod.metadata?.uid ?? "");
    if (found === undefined) return undefined;
    // Usually one; more (the same uid owning claims in several namespaces, or two special claims)
    // are resolved in the listing's order, as upstream's scan does.
    if (found.size === 1) {
      const [only] = found;
      return only && findExtendedResourceClaim(pod, [only]);
    }
    return findExtendedResourceClaim(
      pod,
      list.filter((c) => found.has(c)),
    );
  }

  private change(c: ResourceClaim, sign: 1 | -1): void {
    if (c.metadata?.annotations?.[ExtendedResourceClaimAnnotation] !== "true") return;
    for (const o of c.metadata?.ownerReferences ?? []) {
      if (o.controller !== true) continue;
      let set = this.byOwner.get(o.uid);
      if (sign > 0) {
        if (set === undefined) {
          set = new Set();
          this.byOwner.set(o.uid, set);
        }
        set.add(c);
      } else if (set !== undefined) {
        set.delete(c);
        if (set.size === 0) this.byOwner.delete(o.uid);
      }
    }
  }
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
 * The claims the plugin sees between cycles (upstream claimTracker):
 *
 * - the **assume cache**: the claim PreBind wrote, kept until the informer delivers that version
 *   or a newer one, so that the devices it allocated are not handed out again meanwhile;
 * - the **in-flight allocations**: claims Reserve allocated whose PreBind has not written them
 *   yet. Their devices count as allocated in the next cycles, and a pod sharing such a claim waits
 *   (PreFilter: "is in the process of being allocated").
 */
export class DraManager {
  private readonly assumed = new Map<string, ResourceClaim>();
  private readonly inFlight = new Map<string, ResourceClaim>();
  /** The allocated state kept between cycles, per consumable-capacity setting (made when first asked for). */
  private readonly states = new Map<boolean, ClaimsAllocatedState>();
  /** The special claims for extended resources by owner (made when first asked for). */
  private extendedIndex: ExtendedResourceClaimIndex | undefined;

  constructor(private readonly listers: ClusterListers) {}

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

  /**
   * upstream findExtendedResourceClaim over the informer's claims: the pod's special claim for
   * extended resources (annotated, controlled by the pod), found through an index by owner uid.
   */
  extendedResourceClaim(pod: Pod): ResourceClaim | undefined {
    this.extendedIndex ??= new ExtendedResourceClaimIndex();
    return this.extendedIndex.find(this.listers.resourceClaims.list(), pod);
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

  /** The claims whose allocation is in flight (tests). */
  inFlightClaims(): ResourceClaim[] {
    return [...this.inFlight.values()];
  }

  /** The claims the assume cache holds newer than the informer (tests). */
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
    let state = this.states.get(enableConsumableCapacity);
    if (!state) {
      state = new ClaimsAllocatedState(enableConsumableCapacity);
      this.states.set(enableConsumableCapacity, state);
    }
    const list = this.listers.resourceClaims.list();
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
    return state.update(list, replaced, added);
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
