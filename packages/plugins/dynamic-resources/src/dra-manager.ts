// upstream: pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go (DefaultDRAManager,
// claimTracker: the assume cache of ResourceClaims and the in-flight allocations) and
// pkg/scheduler/util/assumecache (objects newer than the informer's win until it catches up).
import type { ResourceClaim } from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";
import { addClaimToAllocatedState, type MutableAllocatedState, newAllocatedState } from "./allocated-devices";

/** `driver/pool/device`, as upstream's structured.DeviceID prints. */
export function deviceID(driver: string, pool: string, device: string): string {
  return `${driver}/${pool}/${device}`;
}

/**
 * The devices a claim object's allocation takes (admin access takes none). Claim objects are
 * never changed in place (an update replaces the object), so the IDs are kept per object: every
 * PreFilter lists the devices of every claim.
 */
const allocatedIDs = new WeakMap<ResourceClaim, readonly string[]>();
function allocatedDeviceIDs(c: ResourceClaim): readonly string[] {
  let ids = allocatedIDs.get(c);
  if (ids === undefined) {
    const results = c.status?.allocation?.devices?.results ?? [];
    ids = results.filter((r) => r.adminAccess !== true).map((r) => deviceID(r.driver, r.pool, r.device));
    allocatedIDs.set(c, ids);
  }
  return ids;
}

/**
 * The devices the informer's claims take, kept from one listing to the next: a lister hands out
 * the same array while nothing changed, and the in-memory cluster's (and an informer's) order keeps
 * an updated claim in its place and appends new ones. So a listing is compared with the previous
 * one position by position; a claim replaced in place or appended changes the device counts; any
 * other difference (a claim deleted, an order that moved) counts everything again.
 */
class InformerAllocatedDevices {
  private claims: readonly ResourceClaim[] = [];
  private readonly counts = new Map<string, number>();
  private readonly ids = new Set<string>();

  /** The devices of `list`'s claims. The set is this tracker's own: read it, do not change it. */
  devices(list: readonly ResourceClaim[]): ReadonlySet<string> {
    if (list === this.claims) return this.ids;
    const prev = this.claims;
    if (list.length < prev.length) return this.rebuild(list);
    for (let i = 0; i < prev.length; i++) {
      const before = prev[i] as ResourceClaim;
      const after = list[i] as ResourceClaim;
      if (before === after) continue;
      if (
        before.metadata?.name !== after.metadata?.name ||
        before.metadata?.namespace !== after.metadata?.namespace
      )
        return this.rebuild(list);
      this.remove(before);
      this.add(after);
    }
    for (let i = prev.length; i < list.length; i++) this.add(list[i] as ResourceClaim);
    this.claims = list;
    return this.ids;
  }

  private rebuild(list: readonly ResourceClaim[]): ReadonlySet<string> {
    this.counts.clear();
    this.ids.clear();
    for (const c of list) this.add(c);
    this.claims = list;
    return this.ids;
  }

  private add(c: ResourceClaim): void {
    for (const id of allocatedDeviceIDs(c)) {
      const n = this.counts.get(id) ?? 0;
      this.counts.set(id, n + 1);
      if (n === 0) this.ids.add(id);
    }
  }

  private remove(c: ResourceClaim): void {
    for (const id of allocatedDeviceIDs(c)) {
      const n = (this.counts.get(id) ?? 0) - 1;
      if (n > 0) this.counts.set(id, n);
      else {
        this.counts.delete(id);
        this.ids.delete(id);
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
  private readonly informerDevices = new InformerAllocatedDevices();

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
   * The devices {@link listAllAllocatedDevices} lists, as a set to read and not keep: while no
   * claim is assumed or in flight it is the tracker's own (no copy per cycle).
   */
  allocatedDevices(): ReadonlySet<string> {
    const list = this.listers.resourceClaims.list();
    if (this.assumed.size === 0) {
      // The informer's claims as they are: their devices kept from the last call.
      const informer = this.informerDevices.devices(list);
      if (this.inFlight.size === 0) return informer;
      const ids = new Set(informer);
      for (const c of this.inFlight.values()) for (const id of allocatedDeviceIDs(c)) ids.add(id);
      return ids;
    }
    const ids = new Set<string>();
    for (const c of list) for (const id of allocatedDeviceIDs(this.viaAssumeCache(c))) ids.add(id);
    for (const c of this.inFlight.values()) for (const id of allocatedDeviceIDs(c)) ids.add(id);
    return ids;
  }

  /**
   * upstream GatherAllocatedState (used with DRAConsumableCapacity): like
   * listAllAllocatedDevices, with the shares of devices that allow multiple allocations and the
   * capacity they consume kept apart from devices allocated exclusively.
   */
  gatherAllocatedState(): MutableAllocatedState {
    const state = newAllocatedState();
    for (const c of this.list()) addClaimToAllocatedState(state, c, true);
    for (const c of this.inFlight.values()) addClaimToAllocatedState(state, c, true);
    return state;
  }
}
