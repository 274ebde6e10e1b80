// The counters of partitionable devices as numbers (counter-slots.ts): which pools take the
// numeric path, and a property test that it and the Quantity path (upstream's exact decimal
// accounting, allocator_incubating.go checkAvailableCounters at kubernetes/kubernetes 03ab440c)
// give the same allocations.
import type { AllocationResult, ResourceSlice } from "@kubesched/api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Cache } from "../cel/cache";
import { newAllocator } from "./allocator";
import {
  claimWithRequests,
  deviceClass as class_,
  classLister,
  counterSet,
  device,
  deviceCounterConsumption,
  driverA,
  node,
  node1,
  pool1,
  region1,
  req0,
  request,
  resourcePool,
  sliceWithCounterSets,
  sliceWithDevices,
  unwrapResourceSlices,
} from "./allocator-testing";
import {
  availableCounterSlots,
  type DeviceCounterSlots,
  poolCounterSlots,
  takeCounterEntries,
} from "./counter-slots";
import { PoolCache } from "./pool-cache";
import { gatherPools, type Pool } from "./pools";
import { type DeviceID, type Features, makeDeviceID } from "./types";

const features: Features = { partitionableDevices: true };
const classA = "class-a";

/** One pool: a slice with the devices (name → set → counter → value), one with the counter sets. */
function poolSlices(
  sets: Record<string, Record<string, string>>,
  devices: Record<string, Record<string, Record<string, string>>>,
): ResourceSlice[] {
  return unwrapResourceSlices(
    sliceWithDevices(
      "slice-devices",
      node1,
      resourcePool(pool1, 2),
      driverA,
      ...Object.entries(devices).map(([name, consumes]) =>
        device(name, null, null).withDeviceCounterConsumption(
          ...Object.entries(consumes).map(([set, counters]) => deviceCounterConsumption(set, counters)),
        ),
      ),
    ),
    sliceWithCounterSets(
      "slice-counters",
      node1,
      resourcePool(pool1, 2),
      driverA,
      ...Object.entries(sets).map(([name, counters]) => counterSet(name, counters)),
    ),
  );
}

function thePool(slices: ResourceSlice[]): Pool {
  const pools = gatherPools(slices, node(node1, region1), features);
  expect(pools).toHaveLength(1);
  expect(pools[0]!.isInvalid, pools[0]!.invalidReason).toBe(false);
  return pools[0]!;
}

describe("poolCounterSlots", () => {
  it("numbers the pool's counters at the coarsest scale every value is an integer of", () => {
    const cases: [Record<string, string>, Record<string, string>, number, number[], number[]][] = [
      // counters, one device's consumption, scale, totals, the device's amounts
      [{ a: "1", b: "2" }, { a: "1" }, 0, [1, 2], [1]],
      [{ a: "1Gi", b: "4" }, { a: "500m", b: "1.5" }, -1, [10737418240, 40], [5, 15]],
      [{ a: "1Gi", b: "4" }, { a: "125m" }, -3, [1073741824000, 4000], [125]],
      [{ a: "1e3", b: "2k" }, { a: "1e3" }, 3, [1, 2], [1]],
      [{ a: "1e30" }, { a: "1e18" }, 18, [1e12], [1]],
      [{ a: "3n", b: "1" }, { b: "1u" }, -9, [3, 1e9], [1000]],
      [{ a: "0", b: "7" }, { a: "0", b: "7" }, 0, [0, 7], [0, 7]],
    ];
    for (const [counters, consumes, scale, totals, amounts] of cases) {
      const pool = thePool(poolSlices({ set: counters }, { d: { set: consumes } }));
      const layout = poolCounterSlots(pool);
      expect(layout, JSON.stringify(counters)).toBeDefined();
      expect(layout!.scale).toBe(scale);
      expect([...layout!.totals]).toEqual(totals);
      const d = pool.deviceSlicesTargetingNode[0]!.spec.devices![0]!;
      expect([...layout!.devices.get(d)!.amounts]).toEqual(amounts);
      // Kept per Pool object.
      expect(poolCounterSlots(pool)).toBe(layout);
    }
  });

  it("is built once for pools gathered again from the same slice objects, again for new ones", () => {
    const slices = poolSlices({ set: { a: "4" } }, { d: { set: { a: "1" } } });
    const first = poolCounterSlots(thePool(slices));
    expect(first).toBeDefined();
    // No PoolCache: every Allocate gathers new Pool objects.
    expect(poolCounterSlots(thePool(slices))).toBe(first);
    // A new counter-set slice object (an update) numbers the counters again.
    const updated = poolSlices({ set: { a: "4", b: "2" } }, { d: { set: { a: "1" } } });
    const again = poolCounterSlots(thePool([slices[0]!, updated[1]!]));
    expect(again).not.toBe(first);
    expect([...again!.totals]).toEqual([4, 2]);
  });

  it("leaves pools to the Quantity path when a value is not a safe integer at the pool's scale", () => {
    const quantityPath: [Record<string, string>, Record<string, string>][] = [
      [{ a: "9007199254740993" }, { a: "1" }], // 2^53 + 1
      [{ a: "1e30", b: "1" }, { a: "1" }],
      [{ a: "1Ei", b: "1m" }, { b: "1m" }],
      [{ a: "4" }, { a: "-1" }], // negative consumption
    ];
    for (const [counters, consumes] of quantityPath) {
      const pool = thePool(poolSlices({ set: counters }, { d: { set: consumes } }));
      expect(poolCounterSlots(pool), JSON.stringify([counters, consumes])).toBeUndefined();
    }
    // 2^53 - 1 is the largest that is exact.
    const pool = thePool(poolSlices({ set: { a: "9007199254740991" } }, { d: { set: { a: "1" } } }));
    expect(poolCounterSlots(pool)?.totals[0]).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("compares sums beyond 2^53 correctly and stores only fitting ones", () => {
    const max = "9007199254740991";
    const pool = thePool(
      poolSlices({ set: { a: max } }, { big: { set: { a: max } }, one: { set: { a: "1" } } }),
    );
    const layout = poolCounterSlots(pool)!;
    const [big, one] = pool.deviceSlicesTargetingNode[0]!.spec.devices!.map((d) => layout.devices.get(d)!);
    const available = availableCounterSlots(layout, []).available;
    const consumed = new Float64Array(layout.size);
    const take = (d: DeviceCounterSlots) =>
      takeCounterEntries(available, consumed, d.slots, d.amounts, 0, d.slots.length);
    expect(take(big!)).toBe(true);
    // 2^53 - 1 + 1 = 2^53 is exact and more than available; 2^53 + 1 would round to 2^53.
    expect(take(one!)).toBe(false);
    expect(take(big!)).toBe(false);
    expect(consumed[0]).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("blocks a pool whose allocated devices over-consume any counter, as upstream compares them all", () => {
    const pool = thePool(
      poolSlices({ set: { a: "1", b: "5" } }, { x: { set: { a: "2" } }, y: { set: { b: "1" } } }),
    );
    const layout = poolCounterSlots(pool)!;
    const [x, y] = pool.deviceSlicesTargetingNode[0]!.spec.devices!;
    const available = availableCounterSlots(layout, [x!]);
    expect(available.blocked).toBe(true);
    // y's own counter fits: only the blocked state rejects it.
    const d = layout.devices.get(y!)!;
    const consumed = new Float64Array(layout.size);
    expect(takeCounterEntries(available.available, consumed, d.slots, d.amounts, 0, 1)).toBe(true);
    expect(availableCounterSlots(layout, []).blocked).toBe(false);
  });
});

// The property: the same problem with and without an extra counter set no device consumes whose
// counter (2^53 + 1) no scale makes a safe integer. The extra set changes no answer (it is never
// consumed and never negative), but it sends the pool to the Quantity path.
/** Fractional, binary-suffixed and exponent forms next to plain integers. */
const quantities = ["0", "1", "2", "1.5", "500m", "250m", "1Gi", "512Mi", "1e3", "2k", "1G"];
/** Values that are not safe integers at some scales: the pool may fall back. */
const huge = ["9007199254740991", "9007199254740993", "4503599627370496", "1e20", "1Ei", "3n"];
const counterNames = ["c0", "c1", "c2"];
const setNames = ["s0", "s1"];
/** Half the problems draw from the huge values too. */
const problem = fc.boolean().chain((withHuge) => {
  const hugeWeight = withHuge ? 1 : 0;
  const consumed = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 3 }).map(String) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => `${n}m`) },
    { weight: 3, arbitrary: fc.constantFrom(...quantities) },
    { weight: hugeWeight, arbitrary: fc.constantFrom(...huge) },
  );
  // Counter sets hold more than one device takes, most of the time.
  const declared = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 2, max: 12 }).map(String) },
    { weight: 3, arbitrary: fc.constantFrom("8Gi", "16Gi", "7500m", "4e3", "2k", "3G", ...quantities) },
    { weight: hugeWeight, arbitrary: fc.constantFrom(...huge) },
  );
  const counters = (value: fc.Arbitrary<string>, maxKeys: number) =>
    fc.dictionary(fc.constantFrom(...counterNames), value, { minKeys: 1, maxKeys });
  return fc.record({
    sets: fc.dictionary(fc.constantFrom(...setNames), counters(declared, 3), { minKeys: 1 }),
    devices: fc.array(
      fc.record({
        consumes: fc.dictionary(fc.constantFrom(...setNames), counters(consumed, 2), { minKeys: 1 }),
        allocated: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      }),
      { minLength: 2, maxLength: 8 },
    ),
    requests: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 3 }),
  });
});
type Problem = typeof problem extends fc.Arbitrary<infer T> ? T : never;

/** The problem's slices (consumptions limited to the pool's counters: others make it invalid). */
function problemSlices(p: Problem, extraSet: boolean): ResourceSlice[] {
  const devices: Record<string, Record<string, Record<string, string>>> = {};
  p.devices.forEach((d, i) => {
    const consumes: Record<string, Record<string, string>> = {};
    for (const [set, cs] of Object.entries(d.consumes)) {
      const declared = p.sets[set];
      if (declared === undefined) continue;
      const kept = Object.fromEntries(Object.entries(cs).filter(([name]) => declared[name] !== undefined));
      if (Object.keys(kept).length > 0) consumes[set] = kept;
    }
    if (Object.keys(consumes).length === 0)
      consumes[Object.keys(p.sets)[0]!] = { [Object.keys(Object.values(p.sets)[0]!)[0]!]: "1" };
    devices[`device-${i}`] = consumes;
  });
  const sets = extraSet ? { ...p.sets, "zz-unconsumed": { huge: "9007199254740993" } } : p.sets;
  return poolSlices(sets, devices);
}

function allocateProblem(
  p: Problem,
  slices: ResourceSlice[],
  poolCache?: PoolCache,
): AllocationResult[] | null | string {
  const allocatedDevices = new Set<DeviceID>();
  p.devices.forEach((d, i) => {
    if (d.allocated) allocatedDevices.add(makeDeviceID(driverA, pool1, `device-${i}`));
  });
  const claim = claimWithRequests(
    "claim-0",
    null,
    ...p.requests.map((count, i) => request(`req-${i}`, classA, count)),
  ).obj();
  const allocator = newAllocator({
    features,
    allocatedState: { allocatedDevices },
    classLister: classLister([class_(classA, driverA)]),
    slices,
    celCache: new Cache(1, { enableConsumableCapacity: false, enableListTypeAttributes: false }),
    poolCache,
  });
  try {
    return allocator.allocate(node(node1, region1), [claim]);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe("counters by candidate position", () => {
  it("are shared by the nodes a PoolCache gives the same pools, with the same allocations", () => {
    // Two pools on every node labelled dra=true; each claim takes two devices of one pool.
    const selector = {
      nodeSelectorTerms: [{ matchExpressions: [{ key: "dra", operator: "In", values: ["true"] }] }],
    };
    const slices = ["pool-a", "pool-b"].flatMap((pool) =>
      unwrapResourceSlices(
        sliceWithDevices(
          `${pool}-devices`,
          selector,
          resourcePool(pool, 2),
          driverA,
          ...["d0", "d1", "d2"].map((name) =>
            device(name, null, null).withDeviceCounterConsumption(
              deviceCounterConsumption("set", { mem: "3Gi" }),
            ),
          ),
        ),
        sliceWithCounterSets(
          `${pool}-counters`,
          selector,
          resourcePool(pool, 2),
          driverA,
          counterSet("set", { mem: "8Gi" }),
        ),
      ),
    );
    const nodes = ["n1", "n2", "n3"].map((name) => ({ metadata: { name, labels: { dra: "true" } } }));
    const poolCache = new PoolCache();
    const allocated = new Set<DeviceID>();
    const outcomes: string[] = [];
    for (let round = 0; round < 3; round++) {
      const allocator = newAllocator({
        features,
        allocatedState: { allocatedDevices: allocated },
        classLister: classLister([class_(classA, driverA)]),
        slices,
        celCache: new Cache(1, { enableConsumableCapacity: false, enableListTypeAttributes: false }),
        poolCache,
      });
      const claim = claimWithRequests(`claim-${round}`, null, request(req0, classA, 2)).obj();
      const perNode = nodes.map((n) => allocator.allocate(n, [claim]));
      // Every node has the same answer.
      for (const result of perNode) expect(result).toEqual(perNode[0]);
      const devices = perNode[0]?.[0]?.devices?.results?.map((r) => `${r.pool}/${r.device}`) ?? [];
      outcomes.push(devices.join(","));
      for (const r of perNode[0]?.[0]?.devices?.results ?? [])
        allocated.add(makeDeviceID(r.driver, r.pool, r.device));
    }
    // Two devices of 3Gi fit a pool's 8Gi, three do not.
    expect(outcomes).toEqual(["pool-a/d0,pool-a/d1", "pool-b/d0,pool-b/d1", ""]);
  });
});

describe("numeric counters and Quantity counters agree", () => {
  it("on allocate outcomes for random counter sets and consumptions", () => {
    let numeric = 0;
    let fallback = 0;
    let allocated = 0;
    let numericAllocated = 0;
    fc.assert(
      fc.property(problem, (p) => {
        const plain = problemSlices(p, false);
        const padded = problemSlices(p, true);
        const plainPool = thePool(plain);
        expect(poolCounterSlots(thePool(padded))).toBeUndefined();
        const isNumeric = poolCounterSlots(plainPool) !== undefined;
        if (isNumeric) numeric++;
        else fallback++;
        const want = allocateProblem(p, padded);
        expect(allocateProblem(p, plain)).toEqual(want);
        // Through a pool cache: a second allocator reuses the Pool objects and their layouts.
        const cache = new PoolCache();
        expect(allocateProblem(p, plain, cache)).toEqual(want);
        expect(allocateProblem(p, plain, cache)).toEqual(want);
        if (Array.isArray(want)) {
          allocated++;
          if (isNumeric) numericAllocated++;
        }
      }),
      { seed: 2311, numRuns: 400 },
    );
    // Both paths and both outcomes were exercised.
    expect(numeric).toBeGreaterThan(150);
    expect(fallback).toBeGreaterThan(50);
    expect(allocated).toBeGreaterThan(100);
    expect(numericAllocated).toBeGreaterThan(80);
    expect(400 - allocated).toBeGreaterThan(100);
  });
});
