// The allocated state the DRA manager keeps between cycles equals a full gather (upstream
// GatherAllocatedState: every claim through the assume cache, then the in-flight allocations)
// after random sequences of claim events: claims added, allocated (exclusive devices, shares of
// devices with consumed capacity, admin access), updated, deallocated and deleted, assumed newer
// than the informer and restored, allocations in flight and done; with the informer's order kept
// (as the in-memory cluster's store keeps it) and shuffled. Equal states mean equal decisions:
// the allocator reads nothing else of the claims.
import { Quantity, type ResourceClaim } from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { addClaimToAllocatedState, type MutableAllocatedState, newAllocatedState } from "./allocated-devices";
import { DraManager } from "./dra-manager";

/** mulberry32: a small seeded generator, so that a failing seed can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Result = NonNullable<NonNullable<ResourceClaim["status"]>["allocation"]>["devices"] extends infer D
  ? D extends { results?: (infer R)[] }
    ? R
    : never
  : never;

const capacities = ["1Gi", "512Mi", "0", "250m", "3", "1G"];

function randomResult(r: () => number): Result {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const device = `dev-${Math.floor(r() * 6)}`;
  const res: Result = {
    request: "req",
    driver: pick(["gpu.example.com", "nic.example.com"]),
    pool: "p",
    device,
  };
  const kind = r();
  if (kind < 0.15) res.adminAccess = true;
  else if (kind < 0.55) {
    res.shareID = `share-${Math.floor(r() * 3)}`;
    if (r() < 0.8) {
      const consumed: Record<string, string> = {};
      if (r() < 0.8) consumed.memory = pick(capacities);
      if (r() < 0.5) consumed.cores = pick(capacities);
      res.consumedCapacity = consumed;
    }
  }
  return res;
}

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

function fullGather(m: DraManager, enableConsumableCapacity: boolean): MutableAllocatedState {
  const state = newAllocatedState();
  for (const c of m.list()) addClaimToAllocatedState(state, c, enableConsumableCapacity);
  for (const c of m.inFlightClaims()) addClaimToAllocatedState(state, c, enableConsumableCapacity);
  return state;
}

describe("the DRA manager's allocated state", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("equals a full gather after random claim events (seed %i)", (seed) => {
    const r = rng(seed);
    const s = store();
    const m = new DraManager(s.listers);
    const names = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const uids = new Map<string, string>();
    const results = (): Result[] => Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomResult(r));
    for (let step = 0; step < 400; step++) {
      const name = names[Math.floor(r() * names.length)] as string;
      const current = s.items.get(`ns/${name}`);
      const op = r();
      if (!current) {
        // Added, maybe already allocated (a claim the snapshot had).
        const uid = `${name}-${step}`;
        uids.set(name, uid);
        s.set(claim(name, uid, r() < 0.5 ? results() : null));
      } else if (op < 0.2) {
        s.set(claim(name, current.metadata?.uid ?? "", results()));
      } else if (op < 0.3) {
        s.set(claim(name, current.metadata?.uid ?? "", null));
      } else if (op < 0.4) {
        s.delete(name);
      } else if (op < 0.5) {
        // PreBind's write, answered newer than the informer's object.
        m.assumeClaimAfterAPICall(claim(name, current.metadata?.uid ?? "", results()));
      } else if (op < 0.55) {
        m.assumedClaimRestore("ns", name);
      } else if (op < 0.65) {
        m.signalClaimPendingAllocation(
          current.metadata?.uid ?? "",
          claim(name, current.metadata?.uid ?? "", results()),
        );
      } else if (op < 0.75) {
        m.removeClaimPendingAllocation(uids.get(name) ?? "");
      } else if (op < 0.78) {
        s.shuffle();
      } else if (op < 0.85) {
        // The informer delivers the assumed object (or a newer one): the assume cache lets go.
        const assumed = m.get("ns", name);
        if (assumed && assumed !== current) s.set(claim(name, assumed.metadata?.uid ?? "", results()));
      }
      // Asked for every few events (PreFilter does not run after each one).
      if (r() < 0.4) {
        expect(normalized(m.allocatedState(true))).toEqual(normalized(fullGather(m, true)));
        expect(normalized(m.allocatedState(false))).toEqual(normalized(fullGather(m, false)));
        expect(normalized(m.gatherAllocatedState())).toEqual(normalized(fullGather(m, true)));
      }
    }
  });

  it("keeps a capacity sum's exact value when claims leave in another order than they came", () => {
    const s = store();
    const m = new DraManager(s.listers);
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
