// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go at
// kubernetes/kubernetes@04f5fdea (AddPod, RemovePod: DRAPreemption, KEP-5690): how the
// preemption dry run sees the devices of claims that only victims use as freed.
import type { Pod, ResourceClaim } from "@kubesched/api";
import {
  asStatus,
  type DRAAllocatedState,
  type ResourceClaimTracker,
  type Status,
} from "@kubesched/framework";
import {
  addClaimToAllocatedState,
  cloneAllocatedState,
  type MutableAllocatedState,
  removeClaimFromAllocatedState,
} from "@kubesched/plugin-helpers";
import { ErrClaimNotFound } from "./reasons";
import { claimName } from "./resource-claim";

/** The dry-run fields of the cycle's state that AddPod and RemovePod change. */
export interface PreemptionSimulationState {
  /** The DRA manager's state (shared, read only) or the state's own copy (see allocatedStateShared). */
  allocatedState: DRAAllocatedState | null;
  /** Whether `allocatedState` is shared: copied before the first change. */
  allocatedStateShared: boolean;
  simulatedReleasedClaims: Set<string>;
  simulatedRemovedPodsForClaim: Map<string, Set<string>>;
}

/** The state's allocated state to change: its own copy (made at the first change). */
function writableAllocatedState(s: PreemptionSimulationState): MutableAllocatedState | null {
  if (s.allocatedState === null) return null;
  if (s.allocatedStateShared) {
    const own = cloneAllocatedState(s.allocatedState);
    s.allocatedState = own;
    s.allocatedStateShared = false;
    return own;
  }
  // Not shared: the copy made above at an earlier change.
  return s.allocatedState as MutableAllocatedState;
}

/**
 * Each distinct existing claim of `pod`: claims not created yet (a template's claim missing from
 * the status, or deliberately not created) and claims gone from the cluster are skipped, as they
 * hold no devices. Returns an error status for a pod resource claim that cannot be named.
 */
function forEachExistingClaim(
  pod: Pod,
  draManager: ResourceClaimTracker,
  cb: (claim: ResourceClaim, uid: string) => void,
): Status | null {
  const ns = pod.metadata?.namespace ?? "";
  const seen = new Set<string>();
  for (const pc of pod.spec?.resourceClaims ?? []) {
    let n: string | null;
    try {
      n = claimName(pod, pc).name;
    } catch (e) {
      if (e instanceof Error && e.message.endsWith(ErrClaimNotFound)) continue;
      return asStatus(e);
    }
    if (n === null) continue;
    const claim = draManager.get(ns, n);
    if (!claim) continue;
    const uid = claim.metadata?.uid ?? "";
    if (seen.has(uid)) continue;
    seen.add(uid);
    cb(claim, uid);
  }
  return null;
}

/**
 * The dry run removes `pod`: it is recorded as removed for each of its claims, and a claim all of
 * whose `reservedFor` entries are removed pods is released — its devices leave the allocated
 * state. A claim reserved for anything but a pod (a PodGroup) is never released.
 */
export function simulateRemovePod(
  s: PreemptionSimulationState,
  pod: Pod,
  draManager: ResourceClaimTracker,
  enableConsumableCapacity: boolean,
): Status | null {
  const podUID = pod.metadata?.uid ?? "";
  return forEachExistingClaim(pod, draManager, (claim, uid) => {
    let removed = s.simulatedRemovedPodsForClaim.get(uid);
    if (!removed) {
      removed = new Set();
      s.simulatedRemovedPodsForClaim.set(uid, removed);
    }
    removed.add(podUID);
    const reservedFor = claim.status?.reservedFor ?? [];
    if (removed.size < reservedFor.length) return;
    const released = reservedFor.every(
      (r) => r.resource === "pods" && (r.apiGroup ?? "") === "" && removed.has(r.uid),
    );
    if (!released) return;
    s.simulatedReleasedClaims.add(uid);
    const state = writableAllocatedState(s);
    if (state) removeClaimFromAllocatedState(state, claim, enableConsumableCapacity);
  });
}

/**
 * The dry run puts `pod` back: it is no longer removed for its claims, and a claim it had
 * released is allocated again.
 */
export function simulateAddPod(
  s: PreemptionSimulationState,
  pod: Pod,
  draManager: ResourceClaimTracker,
  enableConsumableCapacity: boolean,
): Status | null {
  const podUID = pod.metadata?.uid ?? "";
  return forEachExistingClaim(pod, draManager, (claim, uid) => {
    s.simulatedRemovedPodsForClaim.get(uid)?.delete(podUID);
    if (!s.simulatedReleasedClaims.delete(uid)) return;
    const state = writableAllocatedState(s);
    if (state) addClaimToAllocatedState(state, claim, enableConsumableCapacity);
  });
}
