// The PoolCache: allocators given one cache reuse each node's pools, candidates and selector
// results while the node object, its slices, the slices without a node name, the features and the
// DeviceClass objects stay the same; any of them changing between two allocators changes the answer.
import type { DeviceClass, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type AllocatedState,
  type Features,
  featuresAll,
  newAllocator,
  PoolCache,
} from "@kubesched/dynamic-resource-allocation/structured";
import { describe, expect, it, vi } from "vitest";

const driver = "gpu.example.com";
const features: Features = { ...featuresAll };
const nodeA: Node = { metadata: { name: "node-a", labels: { zone: "z1" } } };
const nodeB: Node = { metadata: { name: "node-b", labels: { zone: "z2" } } };

function gpuClass(model: string): DeviceClass {
  return {
    metadata: { name: "gpu" },
    spec: { selectors: [{ cel: { expression: `device.attributes["${driver}"].model == "${model}"` } }] },
  };
}

function gpus(models: string[]) {
  return models.map((model, i) => ({ name: `gpu-${i}`, attributes: { model: { string: model } } }));
}

function nodeSlice(nodeName: string, models: string[], pool = nodeName, count = 1): ResourceSlice {
  return {
    metadata: { name: `${nodeName}-${pool}` },
    spec: {
      driver,
      nodeName,
      pool: { name: pool, generation: 1, resourceSliceCount: count },
      devices: gpus(models),
    },
  };
}

const claim: ResourceClaim = {
  metadata: { name: "claim", namespace: "default", uid: "claim-uid" },
  spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu" } }] } },
};

/** Allocates `claim` on the node with a new allocator over the slices and class, through `poolCache`. */
function allocate(
  poolCache: PoolCache,
  celCache: Cache,
  node: Node,
  slices: ResourceSlice[],
  deviceClass: DeviceClass,
  allocatedState: AllocatedState = { allocatedDevices: new Set() },
): string[] | null {
  const allocator = newAllocator({
    features,
    allocatedState,
    classLister: { list: () => [deviceClass], get: () => deviceClass },
    slices,
    celCache,
    poolCache,
  });
  const results = allocator.allocate(node, [claim]);
  return results === null
    ? null
    : results.flatMap((r) => (r.devices?.results ?? []).map((d) => `${d.pool}/${d.device}`));
}

function caches() {
  return {
    poolCache: new PoolCache(),
    celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
  };
}

describe("PoolCache", () => {
  it("a second allocator with the same cache reuses the node's pools and selector results", () => {
    const { poolCache, celCache } = caches();
    const compile = vi.spyOn(celCache, "getOrCompile");
    const slices = [nodeSlice("node-a", ["A100", "H100"]), nodeSlice("node-b", ["H100"])];
    const h100 = gpuClass("H100");
    expect(allocate(poolCache, celCache, nodeA, slices, h100)).toEqual(["node-a/gpu-1"]);
    expect(compile).toHaveBeenCalledTimes(2);
    // A new list with the same slice objects, as an informer lists them again.
    expect(allocate(poolCache, celCache, nodeA, [...slices], h100)).toEqual(["node-a/gpu-1"]);
    expect(compile).toHaveBeenCalledTimes(2);
    // What is allocated is read per allocator, not kept.
    const taken = { allocatedDevices: new Set([`${driver}/node-a/gpu-1`]) };
    expect(allocate(poolCache, celCache, nodeA, slices, h100, taken)).toBeNull();
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it("a node object replaced (a status update) gathers its pools again but keeps the devices' selector verdicts", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const evaluate = vi.spyOn(
      celCache.getOrCompile(h100.spec!.selectors![0]!.cel!.expression),
      "deviceMatches",
    );
    const slices = [nodeSlice("node-a", ["A100", "H100"])];
    expect(allocate(poolCache, celCache, nodeA, slices, h100)).toEqual(["node-a/gpu-1"]);
    expect(evaluate).toHaveBeenCalledTimes(2);
    const updated: Node = { ...nodeA, status: { conditions: [{ type: "Ready", status: "True" }] } };
    expect(allocate(poolCache, celCache, updated, slices, h100)).toEqual(["node-a/gpu-1"]);
    expect(evaluate).toHaveBeenCalledTimes(2);
  });

  it("a slice of the node updated between two allocators changes the answer", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const other = nodeSlice("node-b", ["H100"]);
    expect(allocate(poolCache, celCache, nodeA, [nodeSlice("node-a", ["A100"]), other], h100)).toBeNull();
    expect(
      allocate(poolCache, celCache, nodeA, [nodeSlice("node-a", ["A100", "H100"]), other], h100),
    ).toEqual(["node-a/gpu-1"]);
  });

  it("a slice of the node deleted between two allocators changes the answer", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const other = nodeSlice("node-b", ["H100"]);
    expect(allocate(poolCache, celCache, nodeA, [nodeSlice("node-a", ["H100"]), other], h100)).toEqual([
      "node-a/gpu-0",
    ]);
    expect(allocate(poolCache, celCache, nodeA, [other], h100)).toBeNull();
  });

  it("a DeviceClass updated between two allocators changes the answer", () => {
    const { poolCache, celCache } = caches();
    const slices = [nodeSlice("node-a", ["A100", "H100"])];
    expect(allocate(poolCache, celCache, nodeA, slices, gpuClass("H100"))).toEqual(["node-a/gpu-1"]);
    expect(allocate(poolCache, celCache, nodeA, slices, gpuClass("A100"))).toEqual(["node-a/gpu-0"]);
    expect(allocate(poolCache, celCache, nodeA, slices, gpuClass("B200"))).toBeNull();
  });

  it("a slice for all nodes changed between two allocators changes every node's answer", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const shared = (models: string[]): ResourceSlice => ({
      metadata: { name: "network-attached" },
      spec: {
        driver,
        allNodes: true,
        pool: { name: "shared", generation: 1, resourceSliceCount: 1 },
        devices: gpus(models),
      },
    });
    const own = nodeSlice("node-a", ["A100"]);
    expect(allocate(poolCache, celCache, nodeA, [own, shared(["A100"])], h100)).toBeNull();
    expect(allocate(poolCache, celCache, nodeA, [own, shared(["H100"])], h100)).toEqual(["shared/gpu-0"]);
    expect(allocate(poolCache, celCache, nodeA, [own], h100)).toBeNull();
  });

  it("a node whose labels changed is matched against node selectors again", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const zoned: ResourceSlice = {
      metadata: { name: "zone-z2" },
      spec: {
        driver,
        nodeSelector: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["z2"] }] }],
        },
        pool: { name: "zone-z2", generation: 1, resourceSliceCount: 1 },
        devices: gpus(["H100"]),
      },
    };
    expect(allocate(poolCache, celCache, nodeA, [zoned], h100)).toBeNull();
    const moved: Node = { metadata: { name: "node-a", labels: { zone: "z2" } } };
    expect(allocate(poolCache, celCache, moved, [zoned], h100)).toEqual(["zone-z2/gpu-0"]);
    expect(allocate(poolCache, celCache, nodeB, [zoned], h100)).toEqual(["zone-z2/gpu-0"]);
  });

  it("a pool whose slices span nodes is complete once another node's slice of it is published", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const first = nodeSlice("node-a", ["H100"], "spanning", 2);
    // Incomplete: one slice of two.
    expect(allocate(poolCache, celCache, nodeA, [first], h100)).toBeNull();
    const second: ResourceSlice = { ...nodeSlice("node-b", ["H100"], "spanning", 2) };
    second.spec = { ...second.spec, devices: [{ name: "gpu-9", attributes: { model: { string: "H100" } } }] };
    expect(allocate(poolCache, celCache, nodeA, [first, second], h100)).toEqual(["spanning/gpu-0"]);
    // And incomplete again once that slice is gone, though node-a's own slice did not change.
    expect(allocate(poolCache, celCache, nodeA, [first], h100)).toBeNull();
  });

  it("features changed between two allocators change the answer", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const perDevice: ResourceSlice = {
      metadata: { name: "per-device" },
      spec: {
        driver,
        perDeviceNodeSelection: true,
        pool: { name: "per-device", generation: 1, resourceSliceCount: 1 },
        devices: [{ name: "gpu-0", nodeName: "node-a", attributes: { model: { string: "H100" } } }],
      },
    };
    const run = (f: Features) =>
      newAllocator({
        features: f,
        allocatedState: { allocatedDevices: new Set() },
        classLister: { list: () => [h100], get: () => h100 },
        slices: [perDevice],
        celCache,
        poolCache,
      }).allocate(nodeA, [claim]);
    expect(run(features)).not.toBeNull();
    // Per-device node selection needs DRAPartitionableDevices.
    expect(run({ ...features, partitionableDevices: false })).toBeNull();
    expect(run(features)).not.toBeNull();
  });

  it("nodes reaching the same slices without a node name share those pools and evaluate each device's selectors once", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const evaluate = vi.spyOn(
      celCache.getOrCompile(h100.spec!.selectors![0]!.cel!.expression),
      "deviceMatches",
    );
    const zoned = (zone: string, models: string[]): ResourceSlice => ({
      metadata: { name: `zone-${zone}` },
      spec: {
        driver,
        nodeSelector: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: [zone] }] }],
        },
        pool: { name: `zone-${zone}`, generation: 1, resourceSliceCount: 1 },
        devices: gpus(models),
      },
    });
    const compile = vi.spyOn(celCache, "getOrCompile");
    const slices = [zoned("z1", ["A100", "H100"]), zoned("z2", ["A100"]), nodeSlice("node-c", ["A100"])];
    const nodeC: Node = { metadata: { name: "node-c", labels: { zone: "z1" } } };
    expect(allocate(poolCache, celCache, nodeA, slices, h100)).toEqual(["zone-z1/gpu-1"]);
    expect(allocate(poolCache, celCache, nodeC, slices, h100)).toEqual(["zone-z1/gpu-1"]);
    expect(allocate(poolCache, celCache, nodeB, slices, h100)).toBeNull();
    // zone-z1's two devices, zone-z2's one, node-c's own one: each once, and the class's
    // selector looked up once per device, not per node.
    expect(evaluate).toHaveBeenCalledTimes(4);
    expect(compile).toHaveBeenCalledTimes(4);
    const versions = poolCache.versions(features, slices, slices.slice(0, 2));
    const poolsOf = (node: Node, own: ResourceSlice[]) =>
      poolCache.nodePools(node, own, slices.slice(0, 2), slices, features, versions).pools;
    const [sharedA] = poolsOf(nodeA, []);
    const [, sharedC] = poolsOf(nodeC, [slices[2]!]);
    expect(sharedC).toBe(sharedA);
    expect(poolsOf(nodeC, [slices[2]!]).map((p) => p.id)).toEqual([`${driver}/node-c`, `${driver}/zone-z1`]);
    expect(poolsOf(nodeB, []).map((p) => p.id)).toEqual([`${driver}/zone-z2`]);
  });

  it("a node selector on the node's name, and per-device node selection, reach only the named node", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const byName: ResourceSlice = {
      metadata: { name: "by-name" },
      spec: {
        driver,
        nodeSelector: {
          nodeSelectorTerms: [
            { matchFields: [{ key: "metadata.name", operator: "In", values: ["node-b"] }] },
          ],
        },
        pool: { name: "by-name", generation: 1, resourceSliceCount: 1 },
        devices: gpus(["H100"]),
      },
    };
    const perDevice: ResourceSlice = {
      metadata: { name: "per-device" },
      spec: {
        driver,
        perDeviceNodeSelection: true,
        pool: { name: "per-device", generation: 1, resourceSliceCount: 1 },
        devices: [{ name: "gpu-0", nodeName: "node-a", attributes: { model: { string: "H100" } } }],
      },
    };
    const slices = [byName, perDevice];
    expect(allocate(poolCache, celCache, nodeA, slices, h100)).toEqual(["per-device/gpu-0"]);
    expect(allocate(poolCache, celCache, nodeB, slices, h100)).toEqual(["by-name/gpu-0"]);
    expect(allocate(poolCache, celCache, nodeA, [byName], h100)).toBeNull();
  });

  it("a pool with a slice of the node's own and one for all nodes is gathered as one pool", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const own = nodeSlice("node-a", ["A100"], "mixed", 2);
    const forAll: ResourceSlice = {
      metadata: { name: "mixed-all" },
      spec: {
        driver,
        allNodes: true,
        pool: { name: "mixed", generation: 1, resourceSliceCount: 2 },
        devices: [{ name: "gpu-1", attributes: { model: { string: "H100" } } }],
      },
    };
    expect(allocate(poolCache, celCache, nodeA, [own, forAll], h100)).toEqual(["mixed/gpu-1"]);
    // On node-b the pool is complete (both slices are published) and offers the slice for all
    // nodes; without node-a's slice it is incomplete.
    expect(allocate(poolCache, celCache, nodeB, [own, forAll], h100)).toEqual(["mixed/gpu-1"]);
    expect(allocate(poolCache, celCache, nodeB, [forAll], h100)).toBeNull();
  });

  it("two requests with different selectors get their own verdicts for the same devices", () => {
    const { poolCache, celCache } = caches();
    const anyGpu: DeviceClass = { metadata: { name: "gpu" }, spec: {} };
    const forAll: ResourceSlice = {
      metadata: { name: "all" },
      spec: {
        driver,
        allNodes: true,
        pool: { name: "all", generation: 1, resourceSliceCount: 1 },
        devices: gpus(["A100", "H100"]),
      },
    };
    const allocator = newAllocator({
      features,
      allocatedState: { allocatedDevices: new Set() },
      classLister: { list: () => [anyGpu], get: () => anyGpu },
      slices: [forAll],
      celCache,
      poolCache,
    });
    const wanting = (model: string): ResourceClaim => ({
      metadata: { name: model, namespace: "default", uid: model },
      spec: {
        devices: {
          requests: [
            {
              name: "gpu",
              exactly: {
                deviceClassName: "gpu",
                selectors: [{ cel: { expression: `device.attributes["${driver}"].model == "${model}"` } }],
              },
            },
          ],
        },
      },
    });
    const picked = (node: Node, c: ResourceClaim) =>
      allocator.allocate(node, [c])?.[0]?.devices?.results?.[0]?.device ?? null;
    expect(picked(nodeA, wanting("H100"))).toBe("gpu-1");
    expect(picked(nodeB, wanting("A100"))).toBe("gpu-0");
    expect(picked(nodeB, wanting("B200"))).toBeNull();
  });

  it("a pool whose device names repeat across the node's own slice and one for all nodes is invalid on that node only", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    const own = nodeSlice("node-a", ["A100"], "mixed", 2);
    const forAll: ResourceSlice = {
      metadata: { name: "mixed-all" },
      spec: {
        driver,
        allNodes: true,
        pool: { name: "mixed", generation: 1, resourceSliceCount: 2 },
        devices: gpus(["H100"]),
      },
    };
    expect(() => allocate(poolCache, celCache, nodeA, [own, forAll], h100)).toThrow(
      "invalid resource pools were encountered",
    );
    expect(allocate(poolCache, celCache, nodeB, [own, forAll], h100)).toEqual(["mixed/gpu-0"]);
  });

  it("per-device node selection reaches a node through a device's node name or node selector", () => {
    const { poolCache, celCache } = caches();
    const h100 = gpuClass("H100");
    // Invalid (a repeated device name): a node the slice reaches fails, the others do not see it.
    const perDevice = (device: Record<string, unknown>): ResourceSlice => ({
      metadata: { name: "per-device" },
      spec: {
        driver,
        perDeviceNodeSelection: true,
        pool: { name: "per-device", generation: 1, resourceSliceCount: 1 },
        devices: [
          { name: "gpu-0", ...device, attributes: { model: { string: "H100" } } },
          { name: "gpu-0", ...device, attributes: { model: { string: "A100" } } },
        ],
      },
    });
    const byName = perDevice({ nodeName: "node-a" });
    expect(() => allocate(poolCache, celCache, nodeA, [byName], h100)).toThrow("invalid resource pools");
    expect(allocate(poolCache, celCache, nodeB, [byName], h100)).toBeNull();
    const bySelector = perDevice({
      nodeSelector: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["z2"] }] }],
      },
    });
    expect(allocate(poolCache, celCache, nodeA, [bySelector], h100)).toBeNull();
    expect(() => allocate(poolCache, celCache, nodeB, [bySelector], h100)).toThrow("invalid resource pools");
  });
});
