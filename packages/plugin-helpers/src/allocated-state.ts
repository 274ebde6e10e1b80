// upstream: pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go
// (foreachAllocatedDevice with the consumable-capacity callbacks) and the AllocatedState the
// plugin gathers in PreFilter (dra_manager.go GatherAllocatedState, structured.AllocatedState
// with its ConsumedCapacityCollection), kept mutable for the preemption dry run. Here (not in the
// DynamicResources plugin) because the scheduler's one DRA manager (dra-manager.ts) keeps it.
import { Quantity, type ResourceClaim } from "@kubesched/api";
import {
  type DeviceID,
  makeDeviceID,
  makeSharedDeviceID,
  type SharedDeviceID,
  VersionedDeviceSet,
} from "@kubesched/dynamic-resource-allocation/structured";
import type { DRAAllocatedState } from "@kubesched/framework";

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
export function cloneAllocatedState(s: DRAAllocatedState): MutableAllocatedState {
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
  shared: (id: SharedDeviceID, device: DeviceID) => void,
  consumed: (id: DeviceID, capacity: Readonly<Record<string, string>>) => void,
): void {
  for (const r of claim.status?.allocation?.devices?.results ?? []) {
    if (r.adminAccess === true) continue;
    const id = makeDeviceID(r.driver, r.pool, r.device);
    if (enableConsumableCapacity && r.shareID !== undefined) {
      shared(makeSharedDeviceID(id, r.shareID), id);
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

/** What one claim object adds to an allocated state, parsed once per object. */
interface Contribution {
  readonly dedicated: readonly DeviceID[];
  readonly shared: readonly SharedDeviceID[];
  /** The devices of the shares (with consumable capacity; one per share). */
  readonly sharedDevices: readonly DeviceID[];
  readonly consumed: readonly (readonly [DeviceID, readonly (readonly [string, Quantity])[]])[];
}

/**
 * An allocated state kept up to date as claims come and go: the same sets and sums a full gather
 * ({@link addClaimToAllocatedState} over every claim) builds, with how many claims contribute
 * each entry, so that removing a claim takes out exactly what it added (a device, share or
 * capacity name two claims list stays while one of them does). The sums are exact (Quantity is
 * a decimal of arbitrary precision); a sum's format may differ from a full gather's.
 */
export class AllocatedStateCounter {
  /** The state; read it, do not change it (only {@link add} and {@link remove} do). */
  readonly state: MutableAllocatedState = {
    ...newAllocatedState(),
    // Numbers its changes per pool: the allocator keeps each node's in-use verdicts between cycles.
    allocatedDevices: new VersionedDeviceSet(),
  };
  /**
   * The devices some claim holds, exclusively or by a share (upstream IsDeviceAllocated over the
   * state): without consumable capacity the state's own device set; with it, one of its own
   * that numbers its changes per pool (DRA-backed scoring keeps its counts between cycles).
   */
  readonly heldDevices: VersionedDeviceSet;
  private readonly held: Map<DeviceID, number> | null;
  private readonly devices = new Map<DeviceID, number>();
  private readonly shares = new Map<SharedDeviceID, number>();
  /** Per device: how many results consume its capacity, and how many each capacity name. */
  private readonly capacityUsers = new Map<DeviceID, { results: number; names: Map<string, number> }>();
  /** Claim objects are replaced, never changed in place: their contribution is kept per object. */
  private readonly contributions = new WeakMap<ResourceClaim, Contribution>();

  constructor(readonly enableConsumableCapacity: boolean) {
    this.held = enableConsumableCapacity ? new Map() : null;
    this.heldDevices = enableConsumableCapacity
      ? new VersionedDeviceSet()
      : (this.state.allocatedDevices as VersionedDeviceSet);
  }

  add(claim: ResourceClaim): void {
    const c = this.contribution(claim);
    for (const id of c.dedicated) increment(this.devices, this.state.allocatedDevices, id);
    for (const id of c.shared) increment(this.shares, this.state.allocatedSharedDeviceIDs, id);
    const held = this.held;
    if (held !== null) {
      for (const id of c.dedicated) increment(held, this.heldDevices, id);
      for (const id of c.sharedDevices) increment(held, this.heldDevices, id);
    }
    for (const [id, capacity] of c.consumed) {
      let users = this.capacityUsers.get(id);
      let total = this.state.aggregatedCapacity.get(id);
      if (!users || !total) {
        users = { results: 0, names: new Map() };
        this.capacityUsers.set(id, users);
        total = new Map();
        this.state.aggregatedCapacity.set(id, total);
      }
      users.results++;
      for (const [name, q] of capacity) {
        users.names.set(name, (users.names.get(name) ?? 0) + 1);
        const current = total.get(name);
        total.set(name, current === undefined ? q : current.add(q));
      }
    }
  }

  /** Takes out what {@link add} added for an equal claim object. */
  remove(claim: ResourceClaim): void {
    const c = this.contribution(claim);
    for (const id of c.dedicated) decrement(this.devices, this.state.allocatedDevices, id);
    for (const id of c.shared) decrement(this.shares, this.state.allocatedSharedDeviceIDs, id);
    const held = this.held;
    if (held !== null) {
      for (const id of c.dedicated) decrement(held, this.heldDevices, id);
      for (const id of c.sharedDevices) decrement(held, this.heldDevices, id);
    }
    for (const [id, capacity] of c.consumed) {
      const users = this.capacityUsers.get(id);
      const total = this.state.aggregatedCapacity.get(id);
      if (!users || !total) continue;
      for (const [name, q] of capacity) {
        const n = (users.names.get(name) ?? 0) - 1;
        if (n > 0) {
          users.names.set(name, n);
          const current = total.get(name);
          if (current !== undefined) total.set(name, current.sub(q));
        } else {
          users.names.delete(name);
          total.delete(name);
        }
      }
      if (--users.results <= 0) {
        this.capacityUsers.delete(id);
        this.state.aggregatedCapacity.delete(id);
      }
    }
  }

  /** Forgets every claim. */
  clear(): void {
    this.devices.clear();
    this.shares.clear();
    this.capacityUsers.clear();
    this.held?.clear();
    this.heldDevices.clear();
    this.state.allocatedDevices.clear();
    this.state.allocatedSharedDeviceIDs.clear();
    this.state.aggregatedCapacity.clear();
  }

  private contribution(claim: ResourceClaim): Contribution {
    let c = this.contributions.get(claim);
    if (c === undefined) {
      const dedicated: DeviceID[] = [];
      const shared: SharedDeviceID[] = [];
      const sharedDevices: DeviceID[] = [];
      const consumed: [DeviceID, [string, Quantity][]][] = [];
      foreachAllocatedDevice(
        claim,
        this.enableConsumableCapacity,
        (id) => dedicated.push(id),
        (id, device) => {
          shared.push(id);
          sharedDevices.push(device);
        },
        (id, capacity) =>
          consumed.push([id, Object.entries(capacity).map(([name, v]) => [name, Quantity.parse(v)])]),
      );
      c = { dedicated, shared, sharedDevices, consumed };
      this.contributions.set(claim, c);
    }
    return c;
  }
}

function increment<K>(counts: Map<K, number>, set: Set<K>, k: K): void {
  const n = counts.get(k) ?? 0;
  counts.set(k, n + 1);
  if (n === 0) set.add(k);
}

function decrement<K>(counts: Map<K, number>, set: Set<K>, k: K): void {
  const n = (counts.get(k) ?? 0) - 1;
  if (n > 0) counts.set(k, n);
  else {
    counts.delete(k);
    set.delete(k);
  }
}
