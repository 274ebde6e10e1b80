// The counters of partitionable devices as plain numbers (DRAPartitionableDevices). kubesched's
// own representation of upstream's exact decimal accounting:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/allocator_incubating.go
// (kubernetes/kubernetes 03ab440c) checkAvailableCounters / deallocateCountersForDevice add
// resource.Quantity values into maps and compare them with Cmp. Here each pool numbers its
// (counter set, counter) pairs once, every counter of the pool is an integer multiple of one
// power of ten (the pool's scale), and the search adds and compares Float64Array entries. A pool
// whose counters are not all exactly representable that way keeps the Quantity path
// (allocator.ts): the answers are the same either way.
import type { Counter, CounterSet, Device, ResourceSlice } from "@kubesched/api";
import { Quantity } from "@kubesched/api";
import { type Candidate, type NodePools, sameObjects } from "./pool-cache";
import type { Pool } from "./pools";

const parsedCounters = new WeakMap<Counter, Quantity>();

/** The counter's quantity, parsed once per Counter object (throws QuantityParseError). */
export function parseCounter(counter: Counter): Quantity {
  let q = parsedCounters.get(counter);
  if (q === undefined) {
    q = Quantity.parse(counter.value);
    parsedCounters.set(counter, q);
  }
  return q;
}

/** What one device consumes of its pool's counters: per slot (each at most once), the amount. */
export interface DeviceCounterSlots {
  readonly slots: Int32Array;
  /** Integers at the pool's scale, each in [0, Number.MAX_SAFE_INTEGER]. */
  readonly amounts: Float64Array;
}

/**
 * One pool's counters numbered: `slot(set, counter)` in the order of the pool's counter sets and
 * their counters. Every value the pool declares (its counter sets' counters, its devices'
 * consumptions) is `integer × 10^scale` with the integer a safe integer, and no device consumes a
 * negative amount. Built once per Pool object.
 */
export interface PoolCounterSlots {
  readonly size: number;
  /** The power of ten every value is an integer multiple of. */
  readonly scale: number;
  /** The counter sets' counters at the scale, per slot. */
  readonly totals: Float64Array;
  /** Per device of the pool (targeting the node or not) that consumes counters. */
  readonly devices: WeakMap<Device, DeviceCounterSlots>;
}

/**
 * The counters a run of the allocator starts from in one pool: the totals less what the devices
 * whose allocation has completed consume. `blocked`: some counter is already over-consumed, so no
 * device of the pool fits (upstream compares every counter of the pool, not only the device's).
 */
export interface AvailableCounterSlots {
  readonly available: Float64Array;
  readonly blocked: boolean;
}

const layouts = new WeakMap<Pool, PoolCounterSlots | null>();

/** A layout and the slice and counter-set objects it was built from. */
interface KeptLayout {
  readonly layout: PoolCounterSlots | null;
  readonly targeting: readonly ResourceSlice[];
  readonly notTargeting: readonly ResourceSlice[];
  readonly counterSets: readonly (readonly [string, CounterSet])[];
}

/**
 * Per first device slice of a pool: the layout last built for a pool of those slice objects, so
 * that allocators gathering their pools afresh (no PoolCache: new Pool objects per Allocate) do not
 * number the same counters again.
 */
const bySlice = new WeakMap<ResourceSlice, KeptLayout>();

/** The pool's numbered counters, or undefined when they are not all exactly representable. */
export function poolCounterSlots(pool: Pool): PoolCounterSlots | undefined {
  let layout = layouts.get(pool);
  if (layout === undefined) {
    const key = pool.deviceSlicesTargetingNode[0] ?? pool.deviceSlicesNotTargetingNode[0];
    const kept = key === undefined ? undefined : bySlice.get(key);
    if (kept !== undefined && builtFrom(kept, pool)) {
      layout = kept.layout;
    } else {
      layout = buildPoolCounterSlots(pool);
      if (key !== undefined) {
        bySlice.set(key, {
          layout,
          targeting: pool.deviceSlicesTargetingNode,
          notTargeting: pool.deviceSlicesNotTargetingNode,
          counterSets: [...pool.counterSets],
        });
      }
    }
    layouts.set(pool, layout);
  }
  return layout ?? undefined;
}

/** Whether the pool has the same slice and counter-set objects, in the same order (objects do not change). */
function builtFrom(kept: KeptLayout, pool: Pool): boolean {
  if (!sameObjects(kept.targeting, pool.deviceSlicesTargetingNode)) return false;
  if (!sameObjects(kept.notTargeting, pool.deviceSlicesNotTargetingNode)) return false;
  if (kept.counterSets.length !== pool.counterSets.size) return false;
  let i = 0;
  for (const [name, counterSet] of pool.counterSets) {
    const [keptName, keptSet] = kept.counterSets[i++]!;
    if (name !== keptName || counterSet !== keptSet) return false;
  }
  return true;
}

/** {@link CandidateCounterSlots.first}: not looked up yet. */
export const notLookedUp = -1;
/** {@link CandidateCounterSlots.first}: the candidate's pool keeps Quantities. */
export const quantityPath = -2;

/**
 * The counters of a node's candidates (NodePools.candidates), by position, in flat typed arrays
 * the search reads in candidate order (per-device objects scattered over the heap made the check
 * wait for memory): pools are numbered in candidate order and their slots placed one after
 * another (`offsets`, `size`: one array holds a run's consumption of all of them); a candidate's
 * entries — the absolute slots it consumes and the amounts — are appended when a search first
 * reaches it (most searches end in the first pools).
 */
export class CandidateCounterSlots {
  /** Per candidate: its pool's number. */
  readonly pools: Int32Array;
  /** Per pool number: where its slots start. */
  readonly offsets: Int32Array;
  readonly size: number;
  /** The candidate list it was made for (equal lists share it). */
  readonly candidates: readonly Candidate[];
  /** Per candidate: where its entries start, {@link notLookedUp} or {@link quantityPath}. */
  readonly first: Int32Array;
  /** Per candidate: how many entries it has. */
  readonly count: Int32Array;
  /** The entries: absolute slots (offset + the pool's slot) and amounts; re-read after {@link lookUp}. */
  entrySlots: Int32Array;
  entryAmounts: Float64Array;
  #entries = 0;
  readonly #poolObjects: Pool[];
  /** Per pool number: its layout, null for the Quantity path, undefined until looked up. */
  readonly #layouts: (PoolCounterSlots | null | undefined)[];

  constructor(candidates: readonly Candidate[]) {
    this.candidates = candidates;
    this.pools = new Int32Array(candidates.length);
    this.first = new Int32Array(candidates.length).fill(notLookedUp);
    this.count = new Int32Array(candidates.length);
    this.entrySlots = new Int32Array(64);
    this.entryAmounts = new Float64Array(64);
    const poolObjects: Pool[] = [];
    const offsets: number[] = [];
    const numberOf = new Map<Pool, number>();
    let size = 0;
    let last: Pool | undefined;
    let number = -1;
    for (let c = 0; c < candidates.length; c++) {
      const pool = candidates[c]!.pool;
      if (pool !== last) {
        last = pool;
        let n = numberOf.get(pool);
        if (n === undefined) {
          n = poolObjects.length;
          numberOf.set(pool, n);
          poolObjects.push(pool);
          offsets.push(size);
          for (const counterSet of pool.counterSets.values()) size += Object.keys(counterSet.counters).length;
        }
        number = n;
      }
      this.pools[c] = number;
    }
    this.#poolObjects = poolObjects;
    this.#layouts = new Array(poolObjects.length);
    this.offsets = Int32Array.from(offsets);
    this.size = size;
  }

  /** The layout of the pool numbered `n` (after a {@link lookUp} of one of its candidates gave entries). */
  layout(n: number): PoolCounterSlots {
    return this.#layouts[n]!;
  }

  /** The pool numbered `n`. */
  pool(n: number): Pool {
    return this.#poolObjects[n]!;
  }

  /** Fills `first[c]` and `count[c]` and returns `first[c]`. */
  lookUp(c: number): number {
    const n = this.pools[c]!;
    let layout = this.#layouts[n];
    if (layout === undefined) {
      layout = poolCounterSlots(this.#poolObjects[n]!) ?? null;
      this.#layouts[n] = layout;
    }
    if (layout === null) {
      this.first[c] = quantityPath;
      return quantityPath;
    }
    const device = layout.devices.get(this.candidates[c]!.device);
    const length = device?.slots.length ?? 0;
    const start = this.#entries;
    if (start + length > this.entrySlots.length) {
      const capacity = Math.max(2 * this.entrySlots.length, start + length);
      const slots = new Int32Array(capacity);
      slots.set(this.entrySlots);
      const amounts = new Float64Array(capacity);
      amounts.set(this.entryAmounts);
      this.entrySlots = slots;
      this.entryAmounts = amounts;
    }
    const offset = this.offsets[n]!;
    for (let i = 0; i < length; i++) {
      this.entrySlots[start + i] = offset + device!.slots[i]!;
      this.entryAmounts[start + i] = device!.amounts[i]!;
    }
    this.#entries = start + length;
    this.first[c] = start;
    this.count[c] = length;
    return start;
  }
}

const byCandidates = new WeakMap<readonly Candidate[], CandidateCounterSlots>();
/** Per list of pools (a PoolCache gives nodes reaching the same slices the same list). */
const byPools = new WeakMap<readonly Pool[], CandidateCounterSlots>();

/**
 * The node's candidates' counters by position: one object per candidate list, shared by the
 * nodes whose pools are the same list object and whose candidates are the same objects in the
 * same order (checked once per candidate list), so that their searches read the same memory.
 */
export function candidateCounterSlots(nodePools: NodePools): CandidateCounterSlots {
  const candidates = nodePools.candidates;
  let slots = byCandidates.get(candidates);
  if (slots !== undefined) return slots;
  slots = byPools.get(nodePools.pools);
  if (slots === undefined || !sameObjects(slots.candidates, candidates)) {
    slots = new CandidateCounterSlots(candidates);
    byPools.set(nodePools.pools, slots);
  }
  byCandidates.set(candidates, slots);
  return slots;
}

/** Scales tried for a value: parsing rounds every quantity to a multiple of 10^-9. */
const minScale = -9;
const maxScale = 18;
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** The largest scale in [minScale, maxScale] at which q is an integer (NaN: none). */
function integralScale(q: Quantity): number {
  if (q.isZero()) return maxScale;
  if (!integralAt(q, minScale)) return Number.NaN;
  let scale = minScale;
  while (scale < maxScale && integralAt(q, scale + 1)) scale++;
  return scale;
}

function integralAt(q: Quantity, scale: number): boolean {
  return Quantity.of(q.scaledValueBig(scale), scale).cmp(q) === 0;
}

/** The value at the scale as a number, or undefined when it is not a safe integer. */
function atScale(q: Quantity, scale: number): number | undefined {
  const v = q.scaledValueBig(scale);
  if (v > maxSafe || v < -maxSafe) return undefined;
  return Number(v);
}

function* poolDevices(pool: Pool): Generator<Device> {
  for (const slices of [pool.deviceSlicesTargetingNode, pool.deviceSlicesNotTargetingNode]) {
    for (const slice of slices) yield* slice.spec.devices ?? [];
  }
}

function buildPoolCounterSlots(pool: Pool): PoolCounterSlots | null {
  const slotOf = new Map<string, Map<string, number>>();
  const totalQuantities: Quantity[] = [];
  const consumptions: [Device, [number, Quantity][]][] = [];
  let scale = maxScale;
  try {
    for (const [setName, counterSet] of pool.counterSets) {
      const slots = new Map<string, number>();
      for (const [name, counter] of Object.entries(counterSet.counters)) {
        const q = parseCounter(counter);
        slots.set(name, totalQuantities.length);
        totalQuantities.push(q);
        scale = Math.min(scale, integralScale(q));
      }
      slotOf.set(setName, slots);
    }
    for (const device of poolDevices(pool)) {
      const consumes = device.consumesCounters;
      if (consumes === undefined || consumes.length === 0) continue;
      const entries: [number, Quantity][] = [];
      for (const consumption of consumes) {
        const slots = slotOf.get(consumption.counterSet);
        for (const [name, counter] of Object.entries(consumption.counters)) {
          const q = parseCounter(counter);
          // A negative consumption can lower what is consumed: the Quantity path handles it.
          if (q.sign() < 0) return null;
          // Counters the pool does not declare are never compared (such a pool is invalid).
          const slot = slots?.get(name);
          if (slot === undefined) continue;
          entries.push([slot, q]);
          scale = Math.min(scale, integralScale(q));
        }
      }
      consumptions.push([device, entries]);
    }
  } catch {
    // A counter that does not parse fails where the Quantity path reaches it, as before.
    return null;
  }
  if (Number.isNaN(scale)) return null;
  const totals = new Float64Array(totalQuantities.length);
  for (let i = 0; i < totalQuantities.length; i++) {
    const v = atScale(totalQuantities[i]!, scale);
    if (v === undefined) return null;
    totals[i] = v;
  }
  const devices = new WeakMap<Device, DeviceCounterSlots>();
  for (const [device, entries] of consumptions) {
    // One entry per slot: a device naming a counter twice (two consumptions of one set) adds both.
    const perSlot = new Map<number, Quantity>();
    for (const [slot, q] of entries) {
      const existing = perSlot.get(slot);
      perSlot.set(slot, existing === undefined ? q : existing.add(q));
    }
    const slots = new Int32Array(perSlot.size);
    const amounts = new Float64Array(perSlot.size);
    let i = 0;
    for (const [slot, q] of perSlot) {
      const v = atScale(q, scale);
      if (v === undefined) return null;
      slots[i] = slot;
      amounts[i] = v;
      i++;
    }
    devices.set(device, { slots, amounts });
  }
  return { size: totals.length, scale, totals, devices };
}

/**
 * The pool's counters less what the devices of `allocated` consume (each device once). Exact: the
 * totals are safe integers and every amount is a non-negative safe integer, so a running value
 * stays exact while it is a safe integer; once it drops below -2^53 it may round, but it stays
 * negative, which is all the check needs (what a run consumes is never negative).
 */
export function availableCounterSlots(
  layout: PoolCounterSlots,
  allocated: Iterable<Device>,
): AvailableCounterSlots {
  const available = layout.totals.slice();
  for (const device of allocated) {
    const consumes = layout.devices.get(device);
    if (consumes === undefined) continue;
    const { slots, amounts } = consumes;
    for (let i = 0; i < slots.length; i++) available[slots[i]!]! -= amounts[i]!;
  }
  let blocked = false;
  for (let i = 0; i < available.length; i++) if (available[i]! < 0) blocked = true;
  return { available, blocked };
}

/** {@link AvailableCounterTable.state}: a pool's counters not copied in yet, fitting, blocked. */
export const poolNotCopied = 0;
export const poolOpen = 1;
export const poolBlocked = 2;

/**
 * One allocator's available counters for the pools of one {@link CandidateCounterSlots}, by
 * absolute slot, with each pool's state: what every run on those candidates reads.
 */
export interface AvailableCounterTable {
  readonly values: Float64Array;
  readonly state: Uint8Array;
}

export function newAvailableCounterTable(counters: CandidateCounterSlots): AvailableCounterTable {
  return { values: new Float64Array(counters.size), state: new Uint8Array(counters.offsets.length) };
}

/** Copies pool `n`'s available counters into the table; returns its state. */
export function copyAvailableCounters(
  table: AvailableCounterTable,
  counters: CandidateCounterSlots,
  n: number,
  available: AvailableCounterSlots,
): number {
  table.values.set(available.available, counters.offsets[n]!);
  const state = available.blocked ? poolBlocked : poolOpen;
  table.state[n] = state;
  return state;
}

/**
 * upstream checkAvailableCounters on numbers: adds the amounts of entries `from`..`to` to
 * `consumed` at their slots when every counter of the pool stays within `available` (both indexed
 * by absolute slot); changes nothing otherwise. The caller has checked that the pool is not
 * blocked ({@link AvailableCounterSlots}).
 *
 * Why checking only the device's slots is the full check: amounts are never negative, so
 * `consumed` never is; a run's consumed values only grow through this function, which keeps every
 * slot at most its available value, and shrink through {@link releaseCounterEntries}. So, unless
 * the pool is blocked (then nothing fits, as upstream), the slots the device does not consume
 * already fit. Exact: `consumed[s]` and `available[s]` are safe integers with consumed ≤ available;
 * a sum beyond 2^53 may round, but only to a number ≥ 2^53 > available, so it fails either way, and
 * failing sums are never stored.
 */
export function takeCounterEntries(
  available: Float64Array,
  consumed: Float64Array,
  slots: Int32Array,
  amounts: Float64Array,
  from: number,
  to: number,
): boolean {
  for (let i = from; i < to; i++) {
    const slot = slots[i]!;
    if (consumed[slot]! + amounts[i]! > available[slot]!) return false;
  }
  for (let i = from; i < to; i++) consumed[slots[i]!]! += amounts[i]!;
  return true;
}

/** upstream deallocateCountersForDevice on numbers: undoes a {@link takeCounterEntries} (exact). */
export function releaseCounterEntries(
  consumed: Float64Array,
  slots: Int32Array,
  amounts: Float64Array,
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) consumed[slots[i]!]! -= amounts[i]!;
}
