// The allocated state the DRA manager keeps between cycles equals a full gather (upstream
// GatherAllocatedState: every claim through the assume cache, then the in-flight allocations)
// after random sequences of claim events: claims added, allocated (exclusive devices, shares of
// devices with consumed capacity, admin access), updated, deallocated and deleted, assumed newer
// than the informer and restored, allocations in flight and done; with the informer's order kept
// (as the in-memory cluster's store keeps it) and shuffled. Equal states mean equal decisions:
// the allocator reads nothing else of the claims. The sequences are fast-check's (a failure
// shrinks to a shortest sequence).
import { Quantity, type ResourceClaim } from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addClaimToAllocatedState, type MutableAllocatedState, newAllocatedState } from "./allocated-state";
import { ClaimTracker } from "./dra-manager";

type Result = NonNullable<NonNullable<ResourceClaim["status"]>["allocation"]>["devices"] extends infer D
  ? D extends { results?: (infer R)[] }
    ? R
    : never
  : never;

const capacities = ["1Gi", "512Mi", "0", "250m", "3", "1G"];

/** One allocation result: an exclusive device, a share (maybe consuming capacity) or admin access. */
const resultArb: fc.Arbitrary<Result> = fc
  .record({
    driver: fc.constantFrom("gpu.example.com", "nic.example.com"),
    device: fc.integer({ min: 0, max: 5 }),
    kind: fc.constantFrom("exclusive", "exclusive", "shared", "shared", "admin"),
    share: fc.integer({ min: 0, max: 2 }),
    memory: fc.option(fc.constantFrom(...capacities)),
    cores: fc.option(fc.constantFrom(...capacities)),
    consumes: fc.boolean(),
  })
  .map(({ driver, device, kind, share, memory, cores, consumes }) => {
    const r: Result = { request: "req", driver, pool: "p", device: `dev-${device}` };
    if (kind === "admin") r.adminAccess = true;
    if (kind === "shared") {
      r.shareID = `share-${share}`;
      if (consumes) {
        const consumed: Record<string, string> = {};
        if (memory !== null) consumed.memory = memory;
        if (cores !== null) consumed.cores = cores;
        r.consumedCapacity = consumed;
      }
    }
    return r;
  });
const resultsArb = fc.array(resultArb, { minLength: 1, maxLength: 3 });

/** A claim event (the claim by its index among 8 names) and whether PreFilter asks after it. */
const eventArb = fc.record({
  claim: fc.integer({ min: 0, max: 7 }),
  op: fc.constantFrom(
    "allocate",
    "allocate",
    "deallocate",
    "delete",
    "assume",
    "restore",
    "inFlight",
    "inFlightDone",
    "shuffle",
    "informerCatchesUp",
  ),
  results: resultsArb,
  addAllocated: fc.boolean(),
  ask: fc.boolean(),
});
type Event = typeof eventArb extends fc.Arbitrary<infer E> ? E : never;

let version = 0;
function claim(name: string, uid: string, results: Result[] | null): ResourceClaim {
  version++;
  return {
    metadata: { name, namespace: "ns", uid, resourceVersion: String(version) },
    spec: {},
    ...(results ? { status: { allocation: { devices: { results } } } } : {}),
  };
}

/** The informer's cache as the in-memory cluster's store keeps it: a Map, its list cached until a change. */
function store() {
  const items = new Map<string, ResourceClaim>();
  let all: readonly ResourceClaim[] | null = null;
  let shuffled = false;
  const lister = {
    list: () => {
      if (all === null) {
        const l = [...items.values()];
        if (shuffled) l.reverse();
        all = l;
      }
      return all;
    },
    get: (ns: string, name: string) => items.get(`${ns}/${name}`),
  };
  return {
    listers: { resourceClaims: lister } as unknown as ClusterListers,
    items,
    set(c: ResourceClaim) {
      items.set(`ns/${c.metadata?.name}`, c);
      all = null;
    },
    delete(name: string) {
      items.delete(`ns/${name}`);
      all = null;
    },
    /** Lists in another order from now on (an informer that does not keep the store's). */
    shuffle() {
      shuffled = !shuffled;
      all = null;
    },
  };
}

/** The state as comparable values: sorted IDs, capacity sums as numbers of milli-units. */
function normalized(s: Readonly<MutableAllocatedState>) {
  return {
    devices: [...s.allocatedDevices].sort(),
    shares: [...s.allocatedSharedDeviceIDs].sort(),
    capacity: [...s.aggregatedCapacity]
      .map(([id, m]) => [id, [...m].map(([n, q]) => [n, q.milliValue()] as const).sort()] as const)
      .sort(),
  };
}

function fullGather(m: ClaimTracker, enableConsumableCapacity: boolean): MutableAllocatedState {
  const state = newAllocatedState();
  for (const c of m.list()) addClaimToAllocatedState(state, c, enableConsumableCapacity);
  for (const c of m.inFlightClaims()) addClaimToAllocatedState(state, c, enableConsumableCapacity);
  return state;
}

describe("the DRA manager's allocated state", () => {
  /** Replays the events; after each one PreFilter asks about, the kept state equals a full gather. */
  function replay(events: readonly Event[]): void {
    const s = store();
    const m = new ClaimTracker(s.listers);
    const uids = new Map<string, string>();
    events.forEach((e, step) => {
      const name = `c${e.claim}`;
      const current = s.items.get(`ns/${name}`);
      const uid = current?.metadata?.uid ?? "";
      if (!current) {
        // Added, maybe already allocated (a claim the snapshot had).
        uids.set(name, `${name}-${step}`);
        s.set(claim(name, `${name}-${step}`, e.addAllocated ? e.results : null));
      } else if (e.op === "allocate") s.set(claim(name, uid, e.results));
      else if (e.op === "deallocate") s.set(claim(name, uid, null));
      else if (e.op === "delete") s.delete(name);
      // PreBind's write, answered newer than the informer's object.
      else if (e.op === "assume") m.assumeClaimAfterAPICall(claim(name, uid, e.results));
      else if (e.op === "restore") m.assumedClaimRestore("ns", name);
      else if (e.op === "inFlight") m.signalClaimPendingAllocation(uid, claim(name, uid, e.results));
      else if (e.op === "inFlightDone") m.removeClaimPendingAllocation(uids.get(name) ?? "");
      else if (e.op === "shuffle") s.shuffle();
      else {
        // The informer delivers the assumed object (or a newer one): the assume cache lets go.
        const assumed = m.get("ns", name);
        if (assumed && assumed !== current) s.set(claim(name, assumed.metadata?.uid ?? "", e.results));
      }
      if (!e.ask) return;
      expect(normalized(m.allocatedState(true))).toEqual(normalized(fullGather(m, true)));
      expect(normalized(m.allocatedState(false))).toEqual(normalized(fullGather(m, false)));
      expect(normalized(m.gatherAllocatedState())).toEqual(normalized(fullGather(m, true)));
      // Held: exclusively or by a share — without consumable capacity, every result is a device.
      const held = [...fullGather(m, false).allocatedDevices].sort();
      expect([...m.heldDevices(true)].sort()).toEqual(held);
      expect([...m.heldDevices(false)].sort()).toEqual(held);
    });
  }

  it("equals a full gather after random sequences of claim events", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 120 }), (events) => replay(events)),
      { numRuns: 150, seed: 23 },
    );
  });

  it("keeps a capacity sum's exact value when claims leave in another order than they came", () => {
    const s = store();
    const m = new ClaimTracker(s.listers);
    const shared = (name: string, memory: string): ResourceClaim =>
      claim(name, name, [
        {
          request: "r",
          driver: "d",
          pool: "p",
          device: "gpu",
          shareID: name,
          consumedCapacity: { memory },
        },
      ]);
    s.set(shared("a", "1Gi"));
    s.set(shared("b", "512Mi"));
    s.set(shared("c", "0"));
    expect(
      m.allocatedState(true).aggregatedCapacity.get("d/p/gpu")?.get("memory")?.cmp(Quantity.parse("1536Mi")),
    ).toBe(0);
    s.delete("a");
    expect(
      m.allocatedState(true).aggregatedCapacity.get("d/p/gpu")?.get("memory")?.cmp(Quantity.parse("512Mi")),
    ).toBe(0);
    s.delete("b");
    // A claim consuming zero still holds the entry, as a full gather has it.
    expect(normalized(m.allocatedState(true))).toEqual(normalized(fullGather(m, true)));
    expect(m.allocatedState(true).aggregatedCapacity.get("d/p/gpu")?.has("memory")).toBe(true);
    s.delete("c");
    expect(m.allocatedState(true).aggregatedCapacity.size).toBe(0);
    expect(m.allocatedState(true).allocatedSharedDeviceIDs.size).toBe(0);
  });
});
