// The searches an allocator keeps between allocators (scheduling cycles) given the same PoolCache
// and a VersionedDeviceSet (allocator.ts, SearchTable): a search for claims of the same shape on
// the same node returns the kept outcome — the same frozen results object, no search step — while
// nothing it depends on changed, and searches again when one input did: the Node object, a device
// of the node's pools allocated or freed (also from a pool the node shares with others), a slice
// (also one a DeviceTaintRule patched), a DeviceClass, the features, the claims' spec, the
// allocated-device set itself (the preemption dry run's copy). A run that throws (an aborted
// signal) is not kept, unless a filter timeout stopped it: then it is kept as timed out. The property test compares with an allocator that keeps nothing.
import type {
  AllocationResult,
  Device,
  DeviceClass,
  DeviceTaintRule,
  Node,
  ResourceClaim,
  ResourceSlice,
} from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type Allocator,
  applyDeviceTaintRules,
  DeadlineExceeded,
  type Features,
  featuresAll,
  makeDeviceID,
  newAllocator,
  PoolCache,
  VersionedDeviceSet,
} from "@kubesched/dynamic-resource-allocation/structured";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const driver = "dra.example.com";
const features: Features = { ...featuresAll, listTypeAttributes: false };

function node(name: string, labels: Record<string, string> = { dra: "true" }): Node {
  return { metadata: { name, labels } };
}

function devices(n: number, model = "a"): Device[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `gpu-${i}`,
    attributes: { model: { string: model }, index: { int: i } },
  }));
}

function nodeSlice(nodeName: string, n: number, model = "a"): ResourceSlice {
  return {
    metadata: { name: `${nodeName}-slice` },
    spec: {
      driver,
      nodeName,
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      devices: devices(n, model),
    },
  };
}

/** A pool every node labelled dra=true reaches. */
function sharedSlice(pool: string, n: number): ResourceSlice {
  return {
    metadata: { name: `${pool}-slice` },
    spec: {
      driver,
      nodeSelector: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "dra", operator: "In", values: ["true"] }] }],
      },
      pool: { name: pool, generation: 1, resourceSliceCount: 1 },
      devices: devices(n),
    },
  };
}

function deviceClass(name: string, expression = `device.driver == "${driver}"`): DeviceClass {
  return { metadata: { name }, spec: { selectors: [{ cel: { expression } }] } };
}

function claim(name: string, count = 1, className = "gpu", extra: { selector?: string } = {}): ResourceClaim {
  return {
    metadata: { name, namespace: "default", uid: name },
    spec: {
      devices: {
        requests: [
          {
            name: "req",
            exactly: {
              deviceClassName: className,
              count,
              ...(extra.selector ? { selectors: [{ cel: { expression: extra.selector } }] } : {}),
            },
          },
        ],
      },
    },
  };
}

interface World {
  slices: ResourceSlice[];
  classes: DeviceClass[];
  features: Features;
  allocated: VersionedDeviceSet;
  allocator(allocatedDevices?: ReadonlySet<string>): Allocator;
}

/** A scheduler's caches between cycles: one allocator per cycle, built from the current inputs. */
function world(init: { slices: ResourceSlice[]; classes: DeviceClass[]; features?: Features }): World {
  const poolCache = new PoolCache();
  const celCache = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false });
  const w: World = {
    slices: init.slices,
    classes: init.classes,
    features: init.features ?? features,
    allocated: new VersionedDeviceSet(),
    allocator(allocatedDevices: ReadonlySet<string> = w.allocated): Allocator {
      const classes = w.classes;
      return newAllocator({
        features: w.features,
        allocatedState: { allocatedDevices },
        classLister: {
          list: () => classes,
          get: (n: string) => {
            const c = classes.find((c) => c.metadata?.name === n);
            if (c === undefined) throw new Error(`deviceclass "${n}" not found`);
            return c;
          },
        },
        slices: w.slices,
        celCache,
        poolCache,
      });
    },
  };
  return w;
}

function picked(results: readonly AllocationResult[] | null): string[] | null {
  return results === null
    ? null
    : results.flatMap((r) => (r.devices?.results ?? []).map((d) => `${d.pool}/${d.device}`));
}

/** Allocates in a new allocator (a new cycle): the results and whether the search ran. */
function cycle(w: World, n: Node, claims: ResourceClaim[], allocatedDevices?: ReadonlySet<string>) {
  const a = w.allocator(allocatedDevices);
  const results = a.allocate(n, claims);
  return { results, devices: picked(results), searched: a.stats().numAllocateOneInvocations > 0 };
}

describe("kept searches", () => {
  it("a search for claims of the same shape on an unchanged node is kept across allocators", () => {
    const w = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    const first = cycle(w, nodeA, [claim("c1")]);
    expect(first.devices).toEqual(["node-a/gpu-0"]);
    expect(first.searched).toBe(true);
    // Another claim object of the same spec (another pod's), in the next cycle.
    const second = cycle(w, nodeA, [claim("c2")]);
    expect(second.searched).toBe(false);
    expect(second.results).toBe(first.results);
    // Read-only: shared by every caller that gets them.
    expect(Object.isFrozen(second.results)).toBe(true);
    expect(Object.isFrozen(second.results![0]!.devices!.results![0])).toBe(true);
    expect(() => {
      (second.results![0]!.devices!.results![0] as { device: string }).device = "x";
    }).toThrow(TypeError);
    // A failed search is kept too.
    expect(cycle(w, nodeA, [claim("c3", 3)]).searched).toBe(true);
    const failed = cycle(w, nodeA, [claim("c4", 3)]);
    expect(failed.results).toBeNull();
    expect(failed.searched).toBe(false);
  });

  it("a new Node object searches again", () => {
    const w = world({ slices: [sharedSlice("shared", 2)], classes: [deviceClass("gpu")] });
    expect(cycle(w, node("node-a"), [claim("c1")]).devices).toEqual(["shared/gpu-0"]);
    // The node's labels changed: it no longer reaches the shared pool.
    const relabelled = cycle(w, node("node-a", { dra: "false" }), [claim("c2")]);
    expect(relabelled.searched).toBe(true);
    expect(relabelled.devices).toBeNull();
  });

  it("a device of the node's pool allocated or freed searches again; another node's pool does not", () => {
    const w = world({
      slices: [nodeSlice("node-a", 2), nodeSlice("node-b", 2)],
      classes: [deviceClass("gpu")],
    });
    const nodeA = node("node-a");
    expect(cycle(w, nodeA, [claim("c1")]).devices).toEqual(["node-a/gpu-0"]);
    w.allocated.add(makeDeviceID(driver, "node-b", "gpu-0"));
    expect(cycle(w, nodeA, [claim("c2")]).searched).toBe(false);
    w.allocated.add(makeDeviceID(driver, "node-a", "gpu-0"));
    const afterAdd = cycle(w, nodeA, [claim("c3")]);
    expect(afterAdd.searched).toBe(true);
    expect(afterAdd.devices).toEqual(["node-a/gpu-1"]);
    w.allocated.add(makeDeviceID(driver, "node-a", "gpu-1"));
    expect(cycle(w, nodeA, [claim("c4")]).devices).toBeNull();
    w.allocated.delete(makeDeviceID(driver, "node-a", "gpu-0"));
    const afterDelete = cycle(w, nodeA, [claim("c5")]);
    expect(afterDelete.searched).toBe(true);
    expect(afterDelete.devices).toEqual(["node-a/gpu-0"]);
    expect(cycle(w, nodeA, [claim("c6", 2)]).devices).toBeNull();
    w.allocated.clear();
    expect(cycle(w, nodeA, [claim("c7", 2)]).devices).toEqual(["node-a/gpu-0", "node-a/gpu-1"]);
  });

  it("a device allocated from a pool the node shares with other nodes searches again on each", () => {
    const w = world({ slices: [sharedSlice("shared", 2)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    const nodeB = node("node-b");
    expect(cycle(w, nodeA, [claim("c1")]).devices).toEqual(["shared/gpu-0"]);
    expect(cycle(w, nodeB, [claim("c1")]).devices).toEqual(["shared/gpu-0"]);
    // Allocated for a pod on node-b: node-a's kept search no longer holds either.
    w.allocated.add(makeDeviceID(driver, "shared", "gpu-0"));
    expect(cycle(w, nodeA, [claim("c2")]).devices).toEqual(["shared/gpu-1"]);
    expect(cycle(w, nodeB, [claim("c2")]).devices).toEqual(["shared/gpu-1"]);
  });

  it("a changed slice searches again, also one a DeviceTaintRule patched", () => {
    const original = nodeSlice("node-a", 2);
    const w = world({ slices: [original], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    expect(cycle(w, nodeA, [claim("c1")]).devices).toEqual(["node-a/gpu-0"]);
    // An update: a new slice object with other devices.
    w.slices = [{ ...original, spec: { ...original.spec, devices: devices(2).slice(1) } }];
    expect(cycle(w, nodeA, [claim("c2")]).devices).toEqual(["node-a/gpu-1"]);
    w.slices = [original];
    expect(cycle(w, nodeA, [claim("c3")]).devices).toEqual(["node-a/gpu-0"]);
    // A DeviceTaintRule tainting gpu-0: the tracker hands out a patched copy of the slice.
    const rule: DeviceTaintRule = {
      metadata: { name: "rule" },
      spec: {
        deviceSelector: { driver, pool: "node-a", device: "gpu-0" },
        taint: { key: "broken", effect: "NoSchedule" },
      },
    };
    const patched = applyDeviceTaintRules(original, [rule]);
    expect(patched).not.toBe(original);
    w.slices = [patched];
    expect(cycle(w, nodeA, [claim("c4")]).devices).toEqual(["node-a/gpu-1"]);
  });

  it("a changed DeviceClass searches again", () => {
    const w = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    expect(cycle(w, nodeA, [claim("c1")]).devices).toEqual(["node-a/gpu-0"]);
    w.classes = [deviceClass("gpu", "device.attributes['dra.example.com'].index == 1")];
    expect(cycle(w, nodeA, [claim("c2")]).devices).toEqual(["node-a/gpu-1"]);
    // The class's config is part of the results.
    w.classes = [
      {
        ...deviceClass("gpu"),
        spec: { ...deviceClass("gpu").spec, config: [{ opaque: { driver, parameters: { a: 1 } } }] },
      },
    ];
    const withConfig = cycle(w, nodeA, [claim("c3")]);
    expect(withConfig.searched).toBe(true);
    expect(withConfig.results![0]!.devices!.config).toHaveLength(1);
  });

  it("classes that differ only in name share their searches, unless the claim's class names group differently", () => {
    const config = [{ opaque: { driver, parameters: { a: 1 } } }];
    const named = (name: string, extendedResourceName?: string): DeviceClass => ({
      metadata: { name },
      spec: { ...deviceClass(name).spec, config, ...(extendedResourceName ? { extendedResourceName } : {}) },
    });
    const w = world({
      slices: [nodeSlice("node-a", 3)],
      classes: [named("gpu-0", "example.com/gpu-0"), named("gpu-1", "example.com/gpu-1"), named("gpu-2")],
    });
    const nodeA = node("node-a");
    const first = cycle(w, nodeA, [claim("c1", 1, "gpu-0")]);
    const other = cycle(w, nodeA, [claim("c2", 1, "gpu-1")]);
    expect(other.searched).toBe(false);
    expect(other.results).toBe(first.results);
    // Two requests: one class twice (one config entry for both) or two classes of equal
    // content (one entry per class).
    const twoRequests = (name: string, a: string, b: string): ResourceClaim => ({
      metadata: { name, namespace: "default", uid: name },
      spec: {
        devices: {
          requests: [
            { name: "r0", exactly: { deviceClassName: a } },
            { name: "r1", exactly: { deviceClassName: b } },
          ],
        },
      },
    });
    const configs = (r: ReturnType<typeof cycle>) =>
      r.results![0]!.devices!.config!.map((c) => c.requests ?? "all");
    expect(configs(cycle(w, nodeA, [twoRequests("c3", "gpu-0", "gpu-0")]))).toEqual(["all"]);
    const split = cycle(w, nodeA, [twoRequests("c4", "gpu-0", "gpu-1")]);
    expect(split.searched).toBe(true);
    expect(configs(split)).toEqual([["r0"], ["r1"]]);
    expect(configs(cycle(w, nodeA, [twoRequests("c5", "gpu-1", "gpu-2")]))).toEqual([["r0"], ["r1"]]);
    expect(cycle(w, nodeA, [twoRequests("c6", "gpu-1", "gpu-2")]).searched).toBe(false);
    expect(configs(cycle(w, nodeA, [twoRequests("c7", "gpu-2", "gpu-2")]))).toEqual(["all"]);
    // Content that differs: its own search.
    w.classes = [...w.classes, { metadata: { name: "gpu-3" }, spec: { ...deviceClass("gpu-3").spec } }];
    const noConfig = cycle(w, nodeA, [claim("c8", 1, "gpu-3")]);
    expect(noConfig.searched).toBe(true);
    expect(noConfig.results![0]!.devices!.config).toBeUndefined();
  });

  it("changed features search again", () => {
    const tainted = nodeSlice("node-a", 2);
    tainted.spec.devices![0] = {
      ...tainted.spec.devices![0]!,
      taints: [{ key: "broken", effect: "NoSchedule" }],
    };
    const w = world({
      slices: [tainted],
      classes: [deviceClass("gpu")],
      features: { ...features, deviceTaints: false },
    });
    const nodeA = node("node-a");
    expect(cycle(w, nodeA, [claim("c1")]).devices).toEqual(["node-a/gpu-0"]);
    w.features = { ...features, deviceTaints: true };
    expect(cycle(w, nodeA, [claim("c2")]).devices).toEqual(["node-a/gpu-1"]);
    w.features = { ...features, deviceTaints: false };
    expect(cycle(w, nodeA, [claim("c3")]).devices).toEqual(["node-a/gpu-0"]);
  });

  it("a changed claim spec searches again: count, selectors, class, request name, constraints, config", () => {
    const w = world({
      slices: [nodeSlice("node-a", 3)],
      classes: [deviceClass("gpu"), deviceClass("other", "device.attributes['dra.example.com'].index == 2")],
    });
    const nodeA = node("node-a");
    expect(cycle(w, nodeA, [claim("c1")]).devices).toEqual(["node-a/gpu-0"]);
    expect(cycle(w, nodeA, [claim("c2", 2)]).devices).toEqual(["node-a/gpu-0", "node-a/gpu-1"]);
    expect(
      cycle(w, nodeA, [claim("c3", 1, "gpu", { selector: "device.attributes['dra.example.com'].index > 0" })])
        .devices,
    ).toEqual(["node-a/gpu-1"]);
    expect(cycle(w, nodeA, [claim("c4", 1, "other")]).devices).toEqual(["node-a/gpu-2"]);
    const renamed = claim("c5");
    renamed.spec!.devices!.requests![0]!.name = "other-name";
    expect(cycle(w, nodeA, [renamed]).results![0]!.devices!.results![0]!.request).toBe("other-name");
    const withConfig = claim("c6");
    withConfig.spec!.devices!.config = [{ opaque: { driver, parameters: { b: 2 } } }];
    expect(cycle(w, nodeA, [withConfig]).results![0]!.devices!.config).toEqual([
      { source: "FromClaim", opaque: { driver, parameters: { b: 2 } } },
    ]);
    // Two claims: their order and each one's shape count.
    expect(cycle(w, nodeA, [claim("c7"), claim("c8", 2)]).devices).toEqual([
      "node-a/gpu-0",
      "node-a/gpu-1",
      "node-a/gpu-2",
    ]);
    expect(cycle(w, nodeA, [claim("c9", 2), claim("c10")]).devices).toEqual([
      "node-a/gpu-0",
      "node-a/gpu-1",
      "node-a/gpu-2",
    ]);
    expect(cycle(w, nodeA, [claim("c11", 2), claim("c12", 2)]).devices).toBeNull();
  });

  it("the preemption dry run's copy of the allocated devices does not read the real state's searches", () => {
    const w = world({ slices: [nodeSlice("node-a", 1)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    const id = makeDeviceID(driver, "node-a", "gpu-0");
    w.allocated.add(id);
    expect(cycle(w, nodeA, [claim("c1")]).devices).toBeNull();
    // The dry run removes the victim using gpu-0 from a copy of the set.
    const copy = new VersionedDeviceSet();
    for (const d of w.allocated) copy.add(d);
    copy.delete(id);
    expect(cycle(w, nodeA, [claim("c2")], copy).devices).toEqual(["node-a/gpu-0"]);
    // The real state's outcome is unchanged.
    expect(cycle(w, nodeA, [claim("c3")]).devices).toBeNull();
    // A plain set (no versions) keeps nothing.
    const plain = new Set<string>();
    const a = cycle(w, nodeA, [claim("c4")], plain);
    const b = cycle(w, nodeA, [claim("c5")], plain);
    expect(b.devices).toEqual(["node-a/gpu-0"]);
    expect(b.searched).toBe(true);
    expect(b.results).not.toBe(a.results);
  });

  it("a search stopped by its signal is not kept, and a kept outcome is not returned to an aborted signal", () => {
    const w = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    const aborted = AbortSignal.abort(new Error("deadline"));
    expect(() => w.allocator().allocate(nodeA, [claim("c1")], aborted)).toThrow(/filter operation aborted/);
    expect(cycle(w, nodeA, [claim("c2")]).searched).toBe(true);
    expect(cycle(w, nodeA, [claim("c3")]).searched).toBe(false);
    expect(() => w.allocator().allocate(nodeA, [claim("c4")], aborted)).toThrow(/filter operation aborted/);
  });

  it("a search stopped by its filter timeout is kept as timed out: the same claims abort at once under a deadline, until an input changes", () => {
    const w = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    /** A filter timeout's signal: expired, or (`expired` false) not yet, its reason read early. */
    const deadline = (expired: boolean) => {
      const reason = new DeadlineExceeded();
      return { signal: { aborted: expired, reason } as AbortSignal, reason };
    };
    const run = (claims: ResourceClaim[], signal?: AbortSignal, devices?: ReadonlySet<string>) => {
      const a = w.allocator(devices);
      try {
        return {
          results: picked(a.allocate(nodeA, claims, signal)),
          searched: a.stats().numAllocateOneInvocations > 0,
        };
      } catch (err) {
        return { error: err as Error, searched: a.stats().numAllocateOneInvocations > 0 };
      }
    };
    const first = deadline(true);
    expect(run([claim("c1")], first.signal).error?.cause).toBe(first.reason);
    // Kept: a fresh deadline gets the same abort without a search, with its own reason as cause.
    const second = deadline(false);
    const replayed = run([claim("c2")], second.signal);
    expect(replayed.error?.message).toBe("filter operation aborted: context deadline exceeded");
    expect(replayed.error?.cause).toBe(second.reason);
    expect(replayed.searched).toBe(false);
    // A signal that is not a deadline (no filter timeout, or the cycle's cancellation) searches.
    expect(run([claim("c3")], AbortSignal.timeout(60_000))).toEqual({
      results: ["node-a/gpu-0"],
      searched: true,
    });
    // A cancellation is not kept as timed out.
    const w2 = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    expect(() => w2.allocator().allocate(nodeA, [claim("c4")], AbortSignal.abort(new Error("stop")))).toThrow(
      /filter operation aborted: stop/,
    );
    expect(cycle(w2, nodeA, [claim("c5")]).searched).toBe(true);
    // A device of the node's pool allocated: the kept timeout no longer holds.
    const w3 = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    const expired = deadline(true);
    expect(() => w3.allocator().allocate(nodeA, [claim("c6")], expired.signal)).toThrow(/aborted/);
    w3.allocated.add(makeDeviceID(driver, "node-a", "gpu-0"));
    const after = w3.allocator();
    expect(picked(after.allocate(nodeA, [claim("c7")], deadline(false).signal))).toEqual(["node-a/gpu-1"]);
    expect(after.stats().numAllocateOneInvocations).toBeGreaterThan(0);
  });

  it("a missing class is reported by the search every time", () => {
    const w = world({ slices: [nodeSlice("node-a", 2)], classes: [deviceClass("gpu")] });
    const nodeA = node("node-a");
    for (const name of ["c1", "c2"]) {
      expect(() => w.allocator().allocate(nodeA, [claim(name, 1, "missing")])).toThrow(
        /could not retrieve device class missing/,
      );
    }
  });

  it("property: the same outcomes as an allocator that keeps nothing", () => {
    const nodeNames = ["node-a", "node-b", "node-c"];
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("allocate" as const),
        node: fc.integer({ min: 0, max: 2 }),
        count: fc.integer({ min: 1, max: 3 }),
        cls: fc.integer({ min: 0, max: 1 }),
        newNode: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("free" as const), device: fc.integer({ min: 0, max: 11 }) }),
      fc.record({ kind: fc.constant("take" as const), device: fc.integer({ min: 0, max: 11 }) }),
      fc.record({
        kind: fc.constant("slice" as const),
        node: fc.integer({ min: 0, max: 2 }),
        n: fc.integer({ min: 1, max: 3 }),
      }),
      fc.record({ kind: fc.constant("class" as const), index: fc.integer({ min: 0, max: 2 }) }),
    );
    const deviceIDs = [
      ...nodeNames.flatMap((n) => [0, 1, 2].map((i) => makeDeviceID(driver, n, `gpu-${i}`))),
      ...[0, 1, 2].map((i) => makeDeviceID(driver, "shared", `gpu-${i}`)),
    ];
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const classes = [
          deviceClass("gpu"),
          deviceClass("odd", "device.attributes['dra.example.com'].index != 1"),
        ];
        const w = world({
          slices: [...nodeNames.map((n) => nodeSlice(n, 3)), sharedSlice("shared", 3)],
          classes,
        });
        const nodes = nodeNames.map((n) => node(n));
        let claims = 0;
        for (const o of ops) {
          if (o.kind === "allocate") {
            if (o.newNode) nodes[o.node] = node(nodeNames[o.node]!);
            const c = claim(`c${claims++}`, o.count, o.cls === 0 ? "gpu" : "odd");
            const kept = picked(w.allocator().allocate(nodes[o.node]!, [c]));
            const fresh = picked(
              newAllocator({
                features: w.features,
                allocatedState: { allocatedDevices: new Set(w.allocated) },
                classLister: {
                  list: () => w.classes,
                  get: (n: string) => w.classes.find((x) => x.metadata?.name === n)!,
                },
                slices: w.slices,
                celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
              }).allocate(nodes[o.node]!, [c]),
            );
            expect(kept).toEqual(fresh);
          } else if (o.kind === "free") {
            w.allocated.delete(deviceIDs[o.device]!);
          } else if (o.kind === "take") {
            w.allocated.add(deviceIDs[o.device]!);
          } else if (o.kind === "slice") {
            w.slices = w.slices.map((s) =>
              s.spec.nodeName === nodeNames[o.node] ? nodeSlice(nodeNames[o.node]!, o.n) : s,
            );
          } else {
            w.classes = w.classes.map((c) =>
              c.metadata?.name === "odd"
                ? deviceClass("odd", `device.attributes['dra.example.com'].index != ${o.index}`)
                : c,
            );
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
