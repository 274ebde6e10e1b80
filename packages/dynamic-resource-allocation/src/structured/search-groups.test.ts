// Search groups (pool-cache.ts, PoolCache's search groups; allocator.ts, SearchTable): nodes
// without ResourceSlices of their own that reach the same slices without a node name, none of
// which reads the node during a search (per-device node selection, `bindsToNode`), share one
// NodePools object and so one kept search and one set of in-use verdicts. Upstream searches per
// node: the property test allocates on every node of random clusters, across allocations and
// deallocations, and requires the same results as an allocator without a pool cache.
import type {
  AllocationResult,
  Device,
  DeviceClass,
  Node,
  ResourceClaim,
  ResourceSlice,
} from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type Allocator,
  type Features,
  featuresAll,
  makeDeviceID,
  newAllocator,
  PoolCache,
  VersionedDeviceSet,
} from "@kubesched/dynamic-resource-allocation/structured";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classLister } from "./allocator-testing";

const driver = "dra.example.com";
const features: Features = { ...featuresAll };

function node(name: string, labels: Record<string, string>, declared?: string[]): Node {
  return { metadata: { name, labels }, ...(declared ? { status: { declaredFeatures: declared } } : {}) };
}

function devices(n: number, extra: Partial<Device> = {}): Device[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `gpu-${i}`,
    attributes: { index: { int: i } },
    ...extra,
  }));
}

function selectorSlice(pool: string, zone: string, n: number, extra: Partial<Device> = {}): ResourceSlice {
  return {
    metadata: { name: `${pool}-slice` },
    spec: {
      driver,
      nodeSelector: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: [zone] }] }],
      },
      pool: { name: pool, generation: 1, resourceSliceCount: 1 },
      devices: devices(n, extra),
    },
  };
}

function nodeSlice(nodeName: string, n: number): ResourceSlice {
  return {
    metadata: { name: `${nodeName}-slice` },
    spec: {
      driver,
      nodeName,
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      devices: devices(n),
    },
  };
}

const gpu: DeviceClass = {
  metadata: { name: "gpu" },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
};

function claim(name: string, count = 1): ResourceClaim {
  return {
    metadata: { name, namespace: "default", uid: name },
    spec: { devices: { requests: [{ name: "req", exactly: { deviceClassName: "gpu", count } }] } },
  };
}

interface World {
  slices: ResourceSlice[];
  allocated: VersionedDeviceSet;
  poolCache: PoolCache;
  allocator(): Allocator;
}

function world(slices: ResourceSlice[], f: Features = features, classes: DeviceClass[] = [gpu]): World {
  const poolCache = new PoolCache();
  const celCache = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false });
  const w: World = {
    slices,
    allocated: new VersionedDeviceSet(),
    poolCache,
    allocator: () =>
      newAllocator({
        features: f,
        allocatedState: { allocatedDevices: w.allocated },
        classLister: classLister(classes),
        slices: w.slices,
        celCache,
        poolCache,
      }),
  };
  return w;
}

/** Allocates in a new allocator (a new cycle): the results and whether a search ran. */
function cycle(w: World, n: Node, claims: ResourceClaim[]) {
  const a = w.allocator();
  const results = a.allocate(n, claims);
  return { results, searched: a.stats().numAllocateOneInvocations > 0 };
}

function picked(results: readonly AllocationResult[] | null): string[] | null {
  return results === null
    ? null
    : results.flatMap((r) => (r.devices?.results ?? []).map((d) => `${d.pool}/${d.device}`));
}

/** The node's NodePools object as the allocator gets it, for the world's slices. */
function nodePoolsOf(w: World, n: Node, f: Features = features) {
  const own = w.slices.filter((s) => s.spec.nodeName === n.metadata?.name);
  const shared = w.slices.filter((s) => (s.spec.nodeName ?? "") === "");
  const versions = w.poolCache.versions(f, w.slices, shared);
  return w.poolCache.nodePools(n, own, shared, w.slices, f, versions);
}

describe("search groups", () => {
  it("nodes without slices of their own reaching the same slices share one search", () => {
    const w = world([selectorSlice("zone-a", "a", 2), selectorSlice("zone-b", "b", 2)]);
    const [n1, n2, n3] = ["n1", "n2", "n3"].map((name) => node(name, { zone: "a" }));
    const first = cycle(w, n1!, [claim("c1")]);
    expect(picked(first.results)).toEqual(["zone-a/gpu-0"]);
    expect(first.searched).toBe(true);
    // Another node of the group, another claim object of the same shape: no search, the same
    // frozen results (the node selector comes from the slice, not the node).
    const second = cycle(w, n2!, [claim("c2")]);
    expect(second.searched).toBe(false);
    expect(second.results).toBe(first.results);
    expect(first.results![0]!.nodeSelector).toEqual({
      nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }],
    });
    expect(nodePoolsOf(w, n3!)).toBe(nodePoolsOf(w, n1!));
    expect(nodePoolsOf(w, n1!).group).toBeDefined();
    // A device of the group's pools allocated: the group searches again once.
    w.allocated.add(makeDeviceID(driver, "zone-a", "gpu-0"));
    const third = cycle(w, n3!, [claim("c3")]);
    expect(third.searched).toBe(true);
    expect(picked(third.results)).toEqual(["zone-a/gpu-1"]);
    const fourth = cycle(w, n1!, [claim("c4")]);
    expect(fourth.searched).toBe(false);
    expect(fourth.results).toBe(third.results);
    // A device of a pool the group does not reach changes nothing.
    w.allocated.add(makeDeviceID(driver, "zone-b", "gpu-0"));
    expect(cycle(w, n2!, [claim("c5")]).searched).toBe(false);
  });

  it("two nodes with different labels reaching different slices do not share", () => {
    const w = world([selectorSlice("zone-a", "a", 2), selectorSlice("zone-b", "b", 1)]);
    const na = node("na", { zone: "a" });
    const nb = node("nb", { zone: "b" });
    expect(nodePoolsOf(w, na)).not.toBe(nodePoolsOf(w, nb));
    expect(nodePoolsOf(w, na).group).not.toBe(nodePoolsOf(w, nb).group);
    const a = cycle(w, na, [claim("c1")]);
    const b = cycle(w, nb, [claim("c2")]);
    expect(b.searched).toBe(true);
    expect(picked(a.results)).toEqual(["zone-a/gpu-0"]);
    expect(picked(b.results)).toEqual(["zone-b/gpu-0"]);
    // Two devices: only zone-a has them.
    expect(picked(cycle(w, na, [claim("c3", 2)]).results)).toEqual(["zone-a/gpu-0", "zone-a/gpu-1"]);
    expect(cycle(w, nb, [claim("c4", 2)]).results).toBeNull();
    // Relabelled (a new Node object): nb now reaches zone-a and joins its group.
    const moved = node("nb", { zone: "a" });
    expect(nodePoolsOf(w, moved)).toBe(nodePoolsOf(w, na));
    const again = cycle(w, moved, [claim("c5", 2)]);
    expect(again.searched).toBe(false);
    expect(picked(again.results)).toEqual(["zone-a/gpu-0", "zone-a/gpu-1"]);
  });

  it("a node with slices of its own keeps its own search", () => {
    const w = world([selectorSlice("zone-a", "a", 1), nodeSlice("n2", 1)]);
    const n1 = node("n1", { zone: "a" });
    const n2 = node("n2", { zone: "a" });
    expect(nodePoolsOf(w, n2).group).toBeUndefined();
    expect(picked(cycle(w, n1, [claim("c1", 2)]).results)).toBeNull();
    const own = cycle(w, n2, [claim("c2", 2)]);
    expect(own.searched).toBe(true);
    expect(picked(own.results)).toEqual(["n2/gpu-0", "zone-a/gpu-0"]);
    expect(own.results![0]!.nodeSelector).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n2"] }] }],
    });
  });

  it("per-device node selection and devices binding to their node keep each node's own search", () => {
    const perDevice: ResourceSlice = {
      metadata: { name: "per-device" },
      spec: {
        driver,
        perDeviceNodeSelection: true,
        pool: { name: "per-device", generation: 1, resourceSliceCount: 1 },
        devices: [
          { name: "gpu-0", nodeName: "n1" },
          { name: "gpu-1", allNodes: true },
        ],
      },
    };
    const w = world([perDevice]);
    const n1 = node("n1", { zone: "a" });
    const n2 = node("n2", { zone: "a" });
    expect(nodePoolsOf(w, n1).group).toBeUndefined();
    expect(picked(cycle(w, n1, [claim("c1")]).results)).toEqual(["per-device/gpu-0"]);
    const other = cycle(w, n2, [claim("c2")]);
    expect(other.searched).toBe(true);
    expect(picked(other.results)).toEqual(["per-device/gpu-1"]);

    const binds = world([selectorSlice("zone-a", "a", 1, { bindsToNode: true })]);
    expect(nodePoolsOf(binds, n1).group).toBeUndefined();
    const on = (n: Node) => cycle(binds, n, [claim(`c-${n.metadata!.name}`)]);
    expect(on(n1).results![0]!.nodeSelector!.nodeSelectorTerms![0]!.matchFields![0]!.values).toEqual(["n1"]);
    const b2 = on(n2);
    expect(b2.searched).toBe(true);
    expect(b2.results![0]!.nodeSelector!.nodeSelectorTerms![0]!.matchFields![0]!.values).toEqual(["n2"]);
  });

  it("with DRAOptionalNodeOperations, nodes declaring it and nodes not are two groups", () => {
    const skipping = selectorSlice("zone-a", "a", 1);
    skipping.spec.skipNodeOperations = ["Prepare"];
    const f: Features = { ...features, optionalNodeOperations: true };
    const w = world([skipping], f);
    const declares = [
      node("d1", { zone: "a" }, ["DRAOptionalNodeOperations"]),
      node("d2", { zone: "a" }, ["DRAOptionalNodeOperations"]),
    ];
    const plain = [node("p1", { zone: "a" }), node("p2", { zone: "a" })];
    expect(nodePoolsOf(w, declares[0]!, f)).toBe(nodePoolsOf(w, declares[1]!, f));
    expect(nodePoolsOf(w, plain[0]!, f)).toBe(nodePoolsOf(w, plain[1]!, f));
    expect(nodePoolsOf(w, plain[0]!, f)).not.toBe(nodePoolsOf(w, declares[0]!, f));
    expect(picked(cycle(w, declares[0]!, [claim("c1")]).results)).toEqual(["zone-a/gpu-0"]);
    expect(cycle(w, declares[1]!, [claim("c2")]).searched).toBe(false);
    const p = cycle(w, plain[0]!, [claim("c3")]);
    expect(p.searched).toBe(true);
    expect(p.results).toBeNull();
    expect(cycle(w, plain[1]!, [claim("c4")]).searched).toBe(false);
  });

  it("property: every node's results equal a fresh allocator's without a pool cache", () => {
    // Random clusters: per node maybe a slice of its own; slices with a zone node selector, for
    // all nodes, with per-device node selection, with devices binding to their node, and a
    // partitionable pool (a counter-set slice for all nodes, its devices behind a zone selector).
    const zones = ["a", "b"];
    const sliceGen = fc.oneof(
      fc.record({
        kind: fc.constant("zone" as const),
        zone: fc.integer({ min: 0, max: 1 }),
        n: fc.integer({ min: 1, max: 3 }),
        binds: fc.boolean(),
        skip: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("all" as const), n: fc.integer({ min: 1, max: 2 }) }),
      fc.record({
        kind: fc.constant("perDevice" as const),
        on: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constant("counters" as const),
        zone: fc.integer({ min: 0, max: 1 }),
        counter: fc.integer({ min: 1, max: 3 }),
      }),
    );
    // Most nodes without slices of their own (the search groups' members).
    const nodeGen = fc.record({
      zone: fc.integer({ min: 0, max: 2 }),
      own: fc.constantFrom(0, 0, 0, 1, 2),
      declares: fc.boolean(),
    });
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("allocate" as const),
        count: fc.integer({ min: 1, max: 3 }),
        match: fc.boolean(),
        odd: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("take" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("free" as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant("relabel" as const),
        node: fc.integer({ min: 0, max: 4 }),
        zone: fc.integer({ min: 0, max: 2 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(sliceGen, { minLength: 1, maxLength: 5 }),
        fc.array(nodeGen, { minLength: 2, maxLength: 5 }),
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (sliceSpecs, nodeSpecs, ops, optional) => {
          // DRAOptionalNodeOperations on or off; slices that skip node operations either way.
          const f: Features = { ...features, optionalNodeOperations: optional };
          const nodeNames = nodeSpecs.map((_, i) => `n${i}`);
          const labels = (zone: number): Record<string, string> => (zone < 2 ? { zone: zones[zone]! } : {});
          const declared = (i: number) =>
            nodeSpecs[i]!.declares ? ["DRAOptionalNodeOperations"] : undefined;
          const nodes = nodeSpecs.map((s, i) => node(nodeNames[i]!, labels(s.zone), declared(i)));
          const slices: ResourceSlice[] = [];
          nodeSpecs.forEach((s, i) => {
            if (s.own > 0) slices.push(nodeSlice(nodeNames[i]!, s.own));
          });
          sliceSpecs.forEach((s, i) => {
            const pool = `p${i}`;
            if (s.kind === "zone") {
              const slice = selectorSlice(pool, zones[s.zone]!, s.n, s.binds ? { bindsToNode: true } : {});
              if (s.skip) slice.spec.skipNodeOperations = ["Prepare"];
              slices.push(slice);
            } else if (s.kind === "all") {
              slices.push({
                metadata: { name: pool },
                spec: {
                  driver,
                  allNodes: true,
                  pool: { name: pool, generation: 1, resourceSliceCount: 1 },
                  devices: devices(s.n),
                },
              });
            } else if (s.kind === "perDevice") {
              slices.push({
                metadata: { name: pool },
                spec: {
                  driver,
                  perDeviceNodeSelection: true,
                  pool: { name: pool, generation: 1, resourceSliceCount: 1 },
                  devices: s.on.map((n, d) =>
                    n < nodeNames.length
                      ? { name: `gpu-${d}`, attributes: { index: { int: d } }, nodeName: nodeNames[n] }
                      : { name: `gpu-${d}`, attributes: { index: { int: d } }, allNodes: true },
                  ),
                },
              });
            } else {
              slices.push({
                metadata: { name: `${pool}-counters` },
                spec: {
                  driver,
                  allNodes: true,
                  pool: { name: pool, generation: 1, resourceSliceCount: 2 },
                  sharedCounters: [{ name: "set", counters: { mem: { value: String(s.counter) } } }],
                },
              });
              const deviceSlice = selectorSlice(pool, zones[s.zone]!, 3, {
                consumesCounters: [{ counterSet: "set", counters: { mem: { value: "1" } } }],
              });
              deviceSlice.spec.pool.resourceSliceCount = 2;
              slices.push(deviceSlice);
            }
          });
          const ids = slices.flatMap((s) =>
            (s.spec.devices ?? []).map((d) => makeDeviceID(driver, s.spec.pool.name, d.name)),
          );
          const odd: DeviceClass = {
            metadata: { name: "odd" },
            spec: { selectors: [{ cel: { expression: `device.attributes["${driver}"].index % 2 == 1` } }] },
          };
          const classes = [gpu, odd];
          const w = world(slices, f, classes);
          const fresh = (n: Node, claims: ResourceClaim[]) => {
            try {
              return newAllocator({
                features: f,
                allocatedState: { allocatedDevices: new Set(w.allocated) },
                classLister: classLister(classes),
                slices,
                celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
              }).allocate(n, claims);
            } catch (err) {
              return (err as Error).message;
            }
          };
          const kept = (n: Node, claims: ResourceClaim[]) => {
            try {
              return w.allocator().allocate(n, claims);
            } catch (err) {
              return (err as Error).message;
            }
          };
          let claims = 0;
          for (const o of ops) {
            if (o.kind === "allocate") {
              const c = claim(`c${claims++}`, o.count);
              if (o.odd) c.spec!.devices!.requests![0]!.exactly!.deviceClassName = "odd";
              if (o.match && o.count > 1) {
                c.spec!.devices!.constraints = [{ matchAttribute: `${driver}/index` }];
              }
              // Node by node, each in a new allocator (a scheduling cycle's Filter), twice: the
              // second round reads what the first kept.
              for (let round = 0; round < 2; round++) {
                for (const n of nodes) {
                  const got = kept(n, [c]);
                  expect(got).toEqual(fresh(n, [c]));
                }
              }
            } else if (o.kind === "take" || o.kind === "free") {
              const id = ids[o.pick % ids.length];
              if (id === undefined) continue;
              if (o.kind === "take") w.allocated.add(id);
              else w.allocated.delete(id);
            } else if (o.node < nodes.length) {
              nodes[o.node] = node(nodeNames[o.node]!, labels(o.zone), declared(o.node));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
