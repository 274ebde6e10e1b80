// VersionedDeviceSet and what the allocator keeps with it: each node's in-use verdicts reused
// between allocators while none of the node's pools changed, and the early "cannot allocate" for
// validated claims that need more devices than the node has free. Every answer must equal a fresh
// allocator's over a plain Set without a pool cache (upstream's way), after random sequences of
// devices allocated and freed (fast-check); a verdict kept too long fails.
import type { DeviceClass, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type Features,
  featuresAll,
  newAllocator,
  PoolCache,
  VersionedDeviceSet,
} from "@kubesched/dynamic-resource-allocation/structured";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const driver = "gpu.example.com";
const features: Features = { ...featuresAll };
const nodes: Node[] = ["node-a", "node-b", "node-c"].map((name) => ({ metadata: { name } }));
const gpu: DeviceClass = {
  metadata: { name: "gpu" },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
};
// node-c's pool name has a slash (pool names may): its DeviceIDs are `driver/pool/part/device`.
const poolOf = (node: string) => (node === "node-c" ? "rack-1/node-c" : node);
const slices: ResourceSlice[] = nodes.map((n) => {
  const nodeName = n.metadata?.name ?? "";
  return {
    metadata: { name: `${nodeName}-slice` },
    spec: {
      driver,
      nodeName,
      pool: { name: poolOf(nodeName), generation: 1, resourceSliceCount: 1 },
      devices: [0, 1, 2].map((i) => ({ name: `gpu-${i}` })),
    },
  };
});
const deviceIDs = nodes.flatMap((n) =>
  [0, 1, 2].map((i) => `${driver}/${poolOf(n.metadata?.name ?? "")}/gpu-${i}`),
);

function claim(
  name: string,
  requests: NonNullable<NonNullable<ResourceClaim["spec"]>["devices"]>["requests"],
) {
  return { metadata: { name, namespace: "default", uid: name }, spec: { devices: { requests } } };
}
const claims: ResourceClaim[] = [
  claim("one", [{ name: "r", exactly: { deviceClassName: "gpu" } }]),
  claim("two", [{ name: "r", exactly: { deviceClassName: "gpu", allocationMode: "ExactCount", count: 2 } }]),
  claim("admin", [{ name: "r", exactly: { deviceClassName: "gpu", adminAccess: true } }]),
  claim("missing-class", [{ name: "r", exactly: { deviceClassName: "missing" } }]),
];

const classLister = {
  list: () => [gpu],
  get: (name: string) => {
    if (name !== "gpu") throw new Error(`deviceclass.resource.k8s.io "${name}" not found`);
    return gpu;
  },
};

/** The devices allocated (or the error's message) for claim sets on each node. */
function outcome(allocate: () => unknown): unknown {
  try {
    const results = allocate() as { devices?: { results?: { device: string; pool: string }[] } }[] | null;
    return results?.map((r) => (r.devices?.results ?? []).map((d) => `${d.pool}/${d.device}`)) ?? null;
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

describe("VersionedDeviceSet", () => {
  it("numbers each change of membership per pool, a clear changing every pool", () => {
    const s = new VersionedDeviceSet();
    const a = s.pool(`${driver}/node-a`);
    const c = s.pool(`${driver}/rack-1/node-c`);
    s.add(`${driver}/node-a/gpu-0`);
    expect([s.version, a.version, c.version]).toEqual([1, 1, 0]);
    // Adding a member again or deleting a non-member is no change.
    s.add(`${driver}/node-a/gpu-0`);
    s.delete(`${driver}/node-a/gpu-1`);
    expect([s.version, a.version]).toEqual([1, 1]);
    s.add(`${driver}/rack-1/node-c/gpu-2`);
    expect([s.version, a.version, c.version, s.pool(`${driver}/rack-1/node-c`) === c]).toEqual([
      2,
      1,
      2,
      true,
    ]);
    s.delete(`${driver}/node-a/gpu-0`);
    expect([s.version, a.version, s.has(`${driver}/node-a/gpu-0`)]).toEqual([3, 3, false]);
    s.clear();
    expect([s.version, s.cleared, s.size]).toEqual([4, 4, 0]);
  });

  it("numbers its pools: a pool's version read by its index is its object's", () => {
    const s = new VersionedDeviceSet();
    const a = s.poolIndex(`${driver}/node-a`);
    const b = s.poolIndex(`${driver}/node-b`);
    expect([a, b, s.poolIndex(`${driver}/node-a`)]).toEqual([0, 1, 0]);
    s.add(`${driver}/node-b/gpu-0`);
    s.add(`${driver}/node-a/gpu-0`);
    // A pool first seen through a change gets the next number.
    s.add(`${driver}/node-c/gpu-0`);
    expect([s.poolVersion(a), s.poolVersion(b), s.poolVersion(s.poolIndex(`${driver}/node-c`))]).toEqual([
      2, 1, 3,
    ]);
    expect(s.poolIndex(`${driver}/node-c`)).toBe(2);
    s.delete(`${driver}/node-b/gpu-0`);
    expect(s.poolVersion(b)).toBe(s.pool(`${driver}/node-b`).version);
    expect(s.poolVersion(b)).toBe(4);
  });

  it("the allocator's kept verdicts and early failures answer as upstream's lookups, as devices come and go", () => {
    const stepArb = fc.record({
      device: fc.integer({ min: 0, max: deviceIDs.length - 1 }),
      op: fc.constantFrom("add", "add", "delete", "clear"),
      claimSet: fc.constantFrom([0], [1], [0, 1], [2], [3], [0, 3], [1, 2]),
    });
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 30 }), (steps) => {
        const devices = new VersionedDeviceSet();
        const poolCache = new PoolCache();
        const celCache = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false });
        const oracleCel = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false });
        for (const step of steps) {
          const id = deviceIDs[step.device] as string;
          if (step.op === "add") devices.add(id);
          else if (step.op === "delete") devices.delete(id);
          else if (devices.size > 4) devices.clear();
          const set = step.claimSet.map((i) => claims[i] as ResourceClaim);
          // One allocator per cycle, as the plugin builds them: every node, twice (the second
          // pass meets claims the first validated).
          const kept = newAllocator({
            features,
            allocatedState: { allocatedDevices: devices },
            classLister,
            slices,
            celCache,
            poolCache,
          });
          for (const pass of [0, 1]) {
            for (const node of nodes) {
              const upstream = newAllocator({
                features,
                allocatedState: { allocatedDevices: new Set(devices) },
                classLister,
                slices,
                celCache: oracleCel,
              });
              expect({
                pass,
                node: node.metadata?.name,
                got: outcome(() => kept.allocate(node, set)),
              }).toEqual({
                pass,
                node: node.metadata?.name,
                got: outcome(() => upstream.allocate(node, set)),
              });
            }
          }
        }
      }),
      { numRuns: 80 },
    );
    // Generous: a loaded CI machine runs the 80 sequences far slower than an idle one.
  }, 60_000);

  it("a node with fewer free devices than a validated claim needs fails without a search step", () => {
    const devices = new VersionedDeviceSet();
    for (let i = 0; i < 3; i++) devices.add(`${driver}/node-b/gpu-${i}`);
    const allocator = newAllocator({
      features,
      allocatedState: { allocatedDevices: devices },
      classLister,
      slices,
      celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
      poolCache: new PoolCache(),
    });
    const one = [claims[0] as ResourceClaim];
    expect(allocator.allocate(nodes[0] as Node, one)).not.toBeNull();
    const steps = allocator.stats().numAllocateOneInvocations;
    // node-b: every device allocated.
    expect(allocator.allocate(nodes[1] as Node, one)).toBeNull();
    expect(allocator.stats().numAllocateOneInvocations).toBe(steps);
    // A claim not validated yet is searched for (and its class error raised) as upstream does.
    expect(() => allocator.allocate(nodes[1] as Node, [claims[3] as ResourceClaim])).toThrow(
      'claim default/missing-class, request r: could not retrieve device class missing: deviceclass.resource.k8s.io "missing" not found',
    );
  });

  it("with more than a few free devices the search runs (as upstream's, which may run past filterTimeout)", () => {
    const wide = (nodeName: string, n: number): ResourceSlice => ({
      metadata: { name: `${nodeName}-wide` },
      spec: {
        driver,
        nodeName,
        pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
        devices: Array.from({ length: n }, (_v, i) => ({ name: `gpu-${i}` })),
      },
    });
    const allocator = newAllocator({
      features,
      allocatedState: { allocatedDevices: new VersionedDeviceSet() },
      classLister,
      slices: [wide("node-a", 7), wide("node-b", 6)],
      celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
      poolCache: new PoolCache(),
    });
    const seven = [
      claim("seven", [
        { name: "r", exactly: { deviceClassName: "gpu", allocationMode: "ExactCount", count: 7 } },
      ]),
    ];
    expect(allocator.allocate(nodes[0] as Node, seven)).not.toBeNull();
    const steps = allocator.stats().numAllocateOneInvocations;
    expect(allocator.allocate(nodes[1] as Node, seven)).toBeNull();
    expect(allocator.stats().numAllocateOneInvocations).toBeGreaterThan(steps);
  });
});
