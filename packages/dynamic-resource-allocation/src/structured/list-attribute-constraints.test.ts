// matchAttribute and distinctAttribute over list attributes (DRAListTypeAttributes) compare the
// values as numbers: each list object's values are numbered once for the allocators sharing a
// PoolCache, not read again on every node and pod. TestAllocator's list-attribute cases
// (allocator.test.ts) pin the semantics; these pin what the numbering keys on.
import type { Device, DeviceClass, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type Features,
  featuresAll,
  newAllocator,
  PoolCache,
} from "@kubesched/dynamic-resource-allocation/structured";
import { describe, expect, it } from "vitest";

const driver = "dra.example.com";
const features: Features = { ...featuresAll, listTypeAttributes: true };
const nodes: Node[] = ["node-a", "node-b", "node-c"].map((name) => ({ metadata: { name } }));
const anyDevice: DeviceClass = { metadata: { name: "any" }, spec: {} };

/** A list whose element reads are counted. */
function counted(values: string[], reads: { n: number }): string[] {
  return new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads.n++;
      return Reflect.get(target, key, receiver);
    },
  });
}

function device(name: string, attribute: Device["attributes"]): Device {
  return { name, attributes: attribute };
}

function slice(devices: Device[]): ResourceSlice {
  return {
    metadata: { name: "all" },
    spec: { driver, allNodes: true, pool: { name: "all", generation: 1, resourceSliceCount: 1 }, devices },
  };
}

function claim(count: number, constraint: "matchAttribute" | "distinctAttribute"): ResourceClaim {
  return {
    metadata: { name: "c", namespace: "default", uid: "c" },
    spec: {
      devices: {
        requests: [{ name: "req", exactly: { deviceClassName: "any", count } }],
        constraints: [{ [constraint]: `${driver}/numa` }],
      },
    },
  };
}

function allocatorOver(slices: ResourceSlice[], poolCache = new PoolCache()) {
  return newAllocator({
    features,
    allocatedState: { allocatedDevices: new Set() },
    classLister: { list: () => [anyDevice], get: () => anyDevice },
    slices,
    celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: true }),
    poolCache,
  });
}

const picked = (a: ReturnType<typeof allocatorOver>, node: Node, c: ResourceClaim) =>
  a.allocate(node, [c])?.[0]?.devices?.results?.map((r) => r.device) ?? null;

describe("list attribute constraints", () => {
  it("a device's list is read once for every node and allocator sharing a PoolCache", () => {
    const reads = { n: 0 };
    const slices = [
      slice([
        device("d0", { numa: { strings: counted(["n0", "n1"], reads) } }),
        device("d1", { numa: { strings: ["n2"] } }),
        device("d2", { numa: { strings: ["n1", "n3"] } }),
      ]),
    ];
    const poolCache = new PoolCache();
    const a = allocatorOver(slices, poolCache);
    expect(picked(a, nodes[0]!, claim(2, "matchAttribute"))).toEqual(["d0", "d2"]);
    const afterFirst = reads.n;
    expect(afterFirst).toBeGreaterThan(0);
    expect(picked(a, nodes[1]!, claim(2, "matchAttribute"))).toEqual(["d0", "d2"]);
    expect(picked(allocatorOver(slices, poolCache), nodes[2]!, claim(2, "distinctAttribute"))).toEqual([
      "d0",
      "d1",
    ]);
    expect(reads.n).toBe(afterFirst);
  });

  it("an updated list (a new slice object) is numbered anew", () => {
    const poolCache = new PoolCache();
    const before = slice([
      device("d0", { numa: { strings: ["n0"] } }),
      device("d1", { numa: { strings: ["n1"] } }),
    ]);
    expect(picked(allocatorOver([before], poolCache), nodes[0]!, claim(2, "matchAttribute"))).toBeNull();
    const after = slice([
      device("d0", { numa: { strings: ["n0"] } }),
      device("d1", { numa: { strings: ["n1", "n0"] } }),
    ]);
    expect(picked(allocatorOver([after], poolCache), nodes[0]!, claim(2, "matchAttribute"))).toEqual([
      "d0",
      "d1",
    ]);
  });

  it("values of different kinds never match, also when they print alike", () => {
    const poolCache = new PoolCache();
    const mixed = slice([
      device("d0", { numa: { ints: [1, 2] } }),
      device("d1", { numa: { strings: ["1", "2"] } }),
    ]);
    expect(picked(allocatorOver([mixed], poolCache), nodes[0]!, claim(2, "matchAttribute"))).toBeNull();
    expect(picked(allocatorOver([mixed], poolCache), nodes[0]!, claim(2, "distinctAttribute"))).toEqual([
      "d0",
      "d1",
    ]);
  });

  it("a scalar counts as a list of one value, in the intersection carried to the next device", () => {
    const poolCache = new PoolCache();
    const devices = slice([
      device("d0", { numa: { ints: [1, 2, 3] } }),
      device("d1", { numa: { int: 2 } }),
      device("d2", { numa: { ints: [1, 3] } }),
      device("d3", { numa: { ints: [2, 4] } }),
    ]);
    // d0 ∩ d1 = {2}; d2 shares nothing with it; d3 does.
    expect(picked(allocatorOver([devices], poolCache), nodes[0]!, claim(3, "matchAttribute"))).toEqual([
      "d0",
      "d1",
      "d3",
    ]);
  });

  describe("devices a list matchAttribute would reject are skipped, with the same outcome", () => {
    const twoRequests = (
      constraints: NonNullable<NonNullable<ResourceClaim["spec"]>["devices"]>["constraints"],
      secondSelector?: string,
    ): ResourceClaim => ({
      metadata: { name: "c", namespace: "default", uid: "c" },
      spec: {
        devices: {
          requests: [
            { name: "req-0", exactly: { deviceClassName: "any" } },
            {
              name: "req-1",
              exactly: {
                deviceClassName: "any",
                ...(secondSelector === undefined
                  ? {}
                  : { selectors: [{ cel: { expression: secondSelector } }] }),
              },
            },
          ],
          constraints,
        },
      },
    });
    const numa = [{ matchAttribute: `${driver}/numa` }];

    it("after the first run on a node, only the devices sharing a value are looked at", () => {
      const reads = { n: 0 };
      const devices = Array.from({ length: 8 }, (_, i) =>
        counting(
          device(`d${i}`, { numa: { strings: i < 4 ? [`own-${i}`] : ["shared", `own-${i}`] } }),
          reads,
        ),
      );
      const poolCache = new PoolCache();
      const slices = [slice(devices)];
      const c = claim(3, "matchAttribute");
      expect(picked(allocatorOver(slices, poolCache), nodes[0]!, c)).toEqual(["d4", "d5", "d6"]);
      reads.n = 0;
      expect(picked(allocatorOver(slices, poolCache), nodes[0]!, c)).toEqual(["d4", "d5", "d6"]);
      // d0..d4 tried first; then only d5 and d6 (d7 is not needed). 1602e5b read 29.
      expect(reads.n).toBe(7);
    });

    it("the same search steps as without skipping: a device before the search's start is not tried again", () => {
      const slices = [
        slice([
          device("d0", { numa: { strings: ["a", "b"] } }),
          device("d1", { numa: { strings: ["a", "c"] } }),
          device("d2", { numa: { strings: ["c"] } }),
          device("d3", { numa: { strings: ["c"] } }),
        ]),
      ];
      const poolCache = new PoolCache();
      for (let run = 0; run < 2; run++) {
        const a = allocatorOver(slices, poolCache);
        expect(picked(a, nodes[0]!, claim(3, "matchAttribute"))).toEqual(["d1", "d2", "d3"]);
        // As counted on 1602e5b, which tried every device.
        expect(a.stats().numAllocateOneInvocations).toBe(8);
      }
    });

    /** Every device's selector verdict known on the node, and its attribute index made. */
    const warm = (slices: ResourceSlice[], poolCache: PoolCache) => {
      const all: ResourceClaim = {
        metadata: { name: "all", namespace: "default", uid: "all" },
        spec: {
          devices: {
            requests: [{ name: "req", exactly: { deviceClassName: "any", allocationMode: "All" } }],
          },
        },
      };
      expect(allocatorOver(slices, poolCache).allocate(nodes[0]!, [all])).not.toBeNull();
    };

    it("a device whose attribute has no value still fails the allocation when reached", () => {
      const slices = [
        slice([
          device("d0", { numa: { strings: ["a"] } }),
          device("d1", { numa: { strings: [] } }),
          device("d2", { numa: { strings: ["a"] } }),
        ]),
      ];
      const poolCache = new PoolCache();
      warm(slices, poolCache);
      for (let run = 0; run < 2; run++) {
        expect(() => allocatorOver(slices, poolCache).allocate(nodes[0]!, [twoRequests(numa)])).toThrow(
          "unsupported attribute value",
        );
      }
    });

    it("another constraint on the request is still checked first for every device", () => {
      const slices = [
        slice([
          device("d0", { numa: { strings: ["a"] }, x: { strings: ["1"] } }),
          device("d1", { numa: { strings: ["b"] }, x: { strings: [] } }),
          device("d2", { numa: { strings: ["a"] }, x: { strings: ["2"] } }),
        ]),
      ];
      const constraints = [{ distinctAttribute: `${driver}/x` }, ...numa];
      const poolCache = new PoolCache();
      warm(slices, poolCache);
      for (let run = 0; run < 2; run++) {
        expect(() =>
          allocatorOver(slices, poolCache).allocate(nodes[0]!, [twoRequests(constraints)]),
        ).toThrow("unsupported attribute value");
      }
    });

    it("a selector not evaluated yet for a device still raises its error", () => {
      const slices = [
        slice([
          device("d0", { numa: { strings: ["a"] }, model: { string: "m" } }),
          device("d1", { numa: { strings: ["b"] } }),
          device("d2", { numa: { strings: ["a"] }, model: { string: "m" } }),
        ]),
      ];
      const poolCache = new PoolCache();
      // Warm the node's index and req-0's verdicts.
      expect(picked(allocatorOver(slices, poolCache), nodes[0]!, claim(2, "matchAttribute"))).toEqual([
        "d0",
        "d2",
      ]);
      const c = twoRequests(numa, `device.attributes["${driver}"].model == "m"`);
      expect(() => allocatorOver(slices, poolCache).allocate(nodes[0]!, [c])).toThrow("CEL runtime error");
    });

    it("counters a rejected device consumed stay consumed, as upstream: the pool's last counter is gone", () => {
      const slices: ResourceSlice[] = [
        {
          metadata: { name: "counters" },
          spec: {
            driver,
            allNodes: true,
            pool: { name: "all", generation: 1, resourceSliceCount: 2 },
            sharedCounters: [{ name: "set", counters: { c1: { value: "1" } } }],
          },
        },
        {
          metadata: { name: "devices" },
          spec: {
            driver,
            allNodes: true,
            pool: { name: "all", generation: 1, resourceSliceCount: 2 },
            devices: [
              device("d0", { numa: { strings: ["a"] } }),
              {
                ...device("d1", { numa: { strings: ["b"] } }),
                consumesCounters: [{ counterSet: "set", counters: { c1: { value: "1" } } }],
              },
              {
                ...device("d2", { numa: { strings: ["a"] } }),
                consumesCounters: [{ counterSet: "set", counters: { c1: { value: "1" } } }],
              },
            ],
          },
        },
      ];
      const poolCache = new PoolCache();
      for (let run = 0; run < 2; run++) {
        expect(picked(allocatorOver(slices, poolCache), nodes[0]!, twoRequests(numa))).toBeNull();
      }
    });
  });
});

/** The device, with reads of its attributes counted. */
function counting(d: Device, reads: { n: number }): Device {
  return new Proxy(d, {
    get(target, key, receiver) {
      if (key === "attributes") reads.n++;
      return Reflect.get(target, key, receiver);
    },
  });
}
