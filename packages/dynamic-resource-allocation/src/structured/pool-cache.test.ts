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
});
