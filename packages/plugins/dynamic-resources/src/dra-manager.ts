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
    return this.listers.resourceClaims
      .list()
      .map((c) => this.get(c.metadata?.namespace ?? "", c.metadata?.name ?? "") ?? c);
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
    const ids = new Set<string>();
    const add = (c: ResourceClaim) => {
      for (const r of c.status?.allocation?.devices?.results ?? []) {
        if (r.adminAccess === true) continue;
        ids.add(deviceID(r.driver, r.pool, r.device));
      }
    };
    for (const c of this.list()) add(c);
    for (const c of this.inFlight.values()) add(c);
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
