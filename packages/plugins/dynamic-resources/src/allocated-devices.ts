// upstream: pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go
// (foreachAllocatedDevice with the consumable-capacity callbacks) and the AllocatedState the
// plugin gathers in PreFilter (dra_manager.go GatherAllocatedState, structured.AllocatedState
// with its ConsumedCapacityCollection), kept mutable for the preemption dry run.
import { Quantity, type ResourceClaim } from "@kubesched/api";
import {
  type DeviceID,
  makeDeviceID,
  makeSharedDeviceID,
  type SharedDeviceID,
} from "@kubesched/dynamic-resource-allocation/structured";

/**
 * What allocated claims use (upstream structured.AllocatedState): devices allocated exclusively,
 * the shares of devices that allow multiple allocations, and the capacity those shares consume
 * per device. Mutable: the preemption dry run takes victims' claims out and puts them back.
 */
export interface MutableAllocatedState {
  allocatedDevices: Set<DeviceID>;
  allocatedSharedDeviceIDs: Set<SharedDeviceID>;
  aggregatedCapacity: Map<DeviceID, Map<string, Quantity>>;
}

export function newAllocatedState(): MutableAllocatedState {
  return { allocatedDevices: new Set(), allocatedSharedDeviceIDs: new Set(), aggregatedCapacity: new Map() };
}

/** A copy whose sets and per-device capacities can change without touching `s`. */
export function cloneAllocatedState(s: MutableAllocatedState): MutableAllocatedState {
  const capacity = new Map<DeviceID, Map<string, Quantity>>();
  for (const [id, consumed] of s.aggregatedCapacity) capacity.set(id, new Map(consumed));
  return {
    allocatedDevices: new Set(s.allocatedDevices),
    allocatedSharedDeviceIDs: new Set(s.allocatedSharedDeviceIDs),
    aggregatedCapacity: capacity,
  };
}

/**
 * Calls back for each device of the claim's allocation (nothing when it is not allocated):
 * `dedicated` for a device allocated exclusively; with consumable capacity, `shared` for an
 * allocation with a share ID and `consumed` for the capacity it consumes. Admin access takes no
 * device and is skipped.
 */
export function foreachAllocatedDevice(
  claim: ResourceClaim,
  enableConsumableCapacity: boolean,
  dedicated: (id: DeviceID) => void,
  shared: (id: SharedDeviceID) => void,
  consumed: (id: DeviceID, capacity: Readonly<Record<string, string>>) => void,
): void {
  for (const r of claim.status?.allocation?.devices?.results ?? []) {
    if (r.adminAccess === true) continue;
    const id = makeDeviceID(r.driver, r.pool, r.device);
    if (enableConsumableCapacity && r.shareID !== undefined) {
      shared(makeSharedDeviceID(id, r.shareID));
      if (r.consumedCapacity !== undefined) consumed(id, r.consumedCapacity);
      continue;
    }
    dedicated(id);
  }
}

/** Adds the claim's devices, shares and consumed capacity to `state` (upstream addClaimToAllocatedState). */
export function addClaimToAllocatedState(
  state: MutableAllocatedState,
  claim: ResourceClaim,
  enableConsumableCapacity: boolean,
): void {
  changeAllocatedState(state, claim, enableConsumableCapacity, 1);
}

/**
 * Takes the claim's devices, shares and consumed capacity out of `state` (upstream
 * removeClaimFromAllocatedState); a device whose consumed capacity drops to zero leaves the
 * collection.
 */
export function removeClaimFromAllocatedState(
  state: MutableAllocatedState,
  claim: ResourceClaim,
  enableConsumableCapacity: boolean,
): void {
  changeAllocatedState(state, claim, enableConsumableCapacity, -1);
}

function changeAllocatedState(
  state: MutableAllocatedState,
  claim: ResourceClaim,
  enableConsumableCapacity: boolean,
  sign: 1 | -1,
): void {
  foreachAllocatedDevice(
    claim,
    enableConsumableCapacity,
    (id) => (sign > 0 ? state.allocatedDevices.add(id) : state.allocatedDevices.delete(id)),
    (id) => (sign > 0 ? state.allocatedSharedDeviceIDs.add(id) : state.allocatedSharedDeviceIDs.delete(id)),
    (id, capacity) => {
      let total = state.aggregatedCapacity.get(id);
      if (!total) {
        if (sign < 0) return;
        total = new Map();
        state.aggregatedCapacity.set(id, total);
      }
      for (const [name, value] of Object.entries(capacity)) {
        const q = Quantity.parse(value);
        const current = total.get(name);
        if (sign > 0) total.set(name, current === undefined ? q : current.add(q));
        else if (current !== undefined) total.set(name, current.sub(q));
      }
      if (sign < 0 && [...total.values()].every((v) => v.sign() === 0)) state.aggregatedCapacity.delete(id);
    },
  );
}
