// The allocated devices the DRA manager lists stay right while claims are updated in place,
// added, deleted and assumed, whether or not the listing changed since the last call.
import type { ResourceClaim } from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { ClaimTracker } from "./dra-manager";

function claim(name: string, devices: string[], resourceVersion = "1"): ResourceClaim {
  return {
    metadata: { name, namespace: "ns", uid: `ns/${name}`, resourceVersion },
    spec: {},
    ...(devices.length
      ? {
          status: {
            allocation: {
              devices: {
                results: devices.map((device) => ({ request: "r", driver: "d", pool: "p", device })),
              },
            },
          },
        }
      : {}),
  };
}

/** A lister over an array that is replaced on every change (as the in-memory cluster's store). */
function listers(initial: ResourceClaim[]) {
  let all: readonly ResourceClaim[] = initial;
  const lister = {
    list: () => all,
    get: (ns: string, name: string) =>
      all.find((c) => c.metadata?.namespace === ns && c.metadata?.name === name),
  };
  return {
    listers: { resourceClaims: lister } as unknown as ClusterListers,
    set: (next: ResourceClaim[]) => {
      all = next;
    },
  };
}

const sorted = (s: ReadonlySet<string>) => [...s].sort();

describe("the claim tracker's allocated devices", () => {
  it("follow claims updated in place, appended, deleted, assumed and in flight", () => {
    const a = claim("a", ["d0"]);
    const b = claim("b", []);
    const l = listers([a, b]);
    const m = new ClaimTracker(l.listers);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0"]);
    // Same listing again.
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0"]);
    // b allocated in place, c appended with the device a also has (counted once, kept while one holds it).
    const b2 = claim("b", ["d1"], "2");
    const c = claim("c", ["d0", "d2"]);
    l.set([a, b2, c]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0", "d/p/d1", "d/p/d2"]);
    // a deallocated in place: d0 still held by c.
    l.set([claim("a", [], "3"), b2, c]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0", "d/p/d1", "d/p/d2"]);
    // c deleted.
    l.set([claim("a", [], "3"), b2]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d1"]);
    expect(sorted(m.listAllAllocatedDevices())).toEqual(["d/p/d1"]);
    // An in-flight allocation and an assumed claim newer than the informer's count too.
    m.signalClaimPendingAllocation("ns/x", claim("x", ["d5"]));
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d1", "d/p/d5"]);
    m.assumeClaimAfterAPICall(claim("b", ["d1", "d3"], "4"));
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d1", "d/p/d3", "d/p/d5"]);
    // The informer catches up; nothing in flight: the tracker's own set again.
    m.removeClaimPendingAllocation("ns/x");
    l.set([claim("a", [], "3"), claim("b", ["d3"], "5")]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d3"]);
  });
});

describe("the pool's change number", () => {
  // A device held before and after an update (the in-flight allocation the informer now has, an
  // assumed object the informer replaces, a claim updated in place with the same devices) never
  // leaves the set in between: its pool's change number stays, and so do the allocator's kept
  // searches and verdicts and the scoring's counts for the pool.
  it("stays while a device is held throughout", () => {
    const l = listers([claim("x", [])]);
    const m = new ClaimTracker(l.listers);
    const set = m.allocatedDevices() as ReadonlySet<string> & { pool(id: string): { version: number } };
    const pool = set.pool("d/p");
    // Reserve: the allocation in flight.
    m.signalClaimPendingAllocation("ns/x", claim("x", ["d0"], "1"));
    m.allocatedDevices();
    const held = pool.version;
    expect(held).toBeGreaterThan(0);
    // PreBind's write reaches the informer; the in-flight allocation ends in the same update.
    m.removeClaimPendingAllocation("ns/x");
    l.set([claim("x", ["d0"], "2")]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0"]);
    expect(pool.version).toBe(held);
    // The claim updated in place with the same device (its reservedFor changed).
    l.set([claim("x", ["d0"], "3")]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0"]);
    expect(pool.version).toBe(held);
    // An assumed object newer than the informer's, then the informer's own.
    m.assumeClaimAfterAPICall(claim("x", ["d0"], "4"));
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0"]);
    l.set([claim("x", ["d0"], "4")]);
    expect(sorted(m.allocatedDevices())).toEqual(["d/p/d0"]);
    expect(pool.version).toBe(held);
    // Deallocated: the pool changes.
    l.set([claim("x", [], "5")]);
    expect(sorted(m.allocatedDevices())).toEqual([]);
    expect(pool.version).toBeGreaterThan(held);
  });
});
