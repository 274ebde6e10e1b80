// The structured allocator through the package's public subpath, as the DynamicResources plugin
// and the simulator import it: the variant rule, a GPU node at 1.37's default features, errors
// that only affect one node, and repeatable share IDs.
import type { DeviceClass, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type AllocatedState,
  allocatorChannel,
  FailedAllocationOnNodeError,
  type Features,
  featureSet,
  featuresAll,
  isFailedAllocationOnNode,
  makeDeviceID,
  newAllocator,
} from "@kubesched/dynamic-resource-allocation/structured";
import { describe, expect, it } from "vitest";

/** The allocator features 1.37's default feature gates enable (every one of them is on). */
const features137: Features = { ...featuresAll };

const driver = "gpu.example.com";
const gpuClass: DeviceClass = {
  metadata: { name: "gpu.example.com" },
  spec: {
    selectors: [{ cel: { expression: `device.driver == "${driver}"` } }],
    config: [{ opaque: { driver, parameters: { sharing: "none" } } }],
  },
};
const classes = {
  list: () => [gpuClass],
  get(name: string): DeviceClass {
    if (name === gpuClass.metadata?.name) return gpuClass;
    throw new Error(`deviceclass.resource.k8s.io "${name}" not found`);
  },
};
const nodeA: Node = { metadata: { name: "gpu-a", labels: { "topology.kubernetes.io/zone": "z1" } } };

/** A node with one 80Gi GPU partitioned MIG-style: whole GPU or two 40Gi halves, through counters. */
function gpuSlices(nodeName: string): ResourceSlice[] {
  const pool = { name: nodeName, generation: 1, resourceSliceCount: 2 };
  const part = (name: string, memory: string, slices: string[]) => ({
    name,
    attributes: { model: { string: "h100" }, profile: { string: name.replace(/^gpu-0-?/, "") || "full" } },
    capacity: { memory: { value: memory } },
    consumesCounters: [
      { counterSet: "gpu-0", counters: Object.fromEntries(slices.map((s) => [s, { value: "1" }])) },
    ],
  });
  return [
    {
      metadata: { name: `${nodeName}-counters` },
      spec: {
        driver,
        pool,
        nodeName,
        sharedCounters: [
          { name: "gpu-0", counters: { "slice-0": { value: "1" }, "slice-1": { value: "1" } } },
        ],
      },
    },
    {
      metadata: { name: `${nodeName}-devices` },
      spec: {
        driver,
        pool,
        nodeName,
        devices: [
          part("gpu-0", "80Gi", ["slice-0", "slice-1"]),
          part("gpu-0-mig-0", "40Gi", ["slice-0"]),
          part("gpu-0-mig-1", "40Gi", ["slice-1"]),
        ],
      },
    },
  ];
}

function claim(name: string, count: number, minMemory?: string): ResourceClaim {
  const selectors =
    minMemory === undefined
      ? undefined
      : [
          {
            cel: {
              expression: `device.capacity["${driver}"].memory.compareTo(quantity("${minMemory}")) >= 0`,
            },
          },
        ];
  return {
    metadata: { namespace: "ml", name, uid: `uid-${name}` },
    spec: {
      devices: {
        requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com", count, selectors } }],
      },
    },
  };
}

function allocator(state: AllocatedState = { allocatedDevices: new Set() }, slices = gpuSlices("gpu-a")) {
  return newAllocator({
    features: features137,
    allocatedState: state,
    classLister: classes,
    slices,
    celCache: new Cache(100, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
  });
}

describe("structured allocator (public subpath)", () => {
  it("picks upstream's variant: stable without the incubating features, incubating at 1.37's defaults", () => {
    expect(allocatorChannel({})).toBe("stable");
    expect(
      allocatorChannel({
        adminAccess: true,
        prioritizedList: true,
        partitionableDevices: true,
        deviceTaints: true,
      }),
    ).toBe("stable");
    expect(allocatorChannel({ deviceBindingAndStatus: true })).toBe("incubating");
    expect(allocatorChannel(features137)).toBe("incubating");
    expect(allocatorChannel({ ...features137, listTypeAttributes: true })).toBe("experimental");
    expect(allocator().channel).toBe("incubating");
    expect(featureSet(features137)).toEqual([
      "DRAAdminAccess",
      "DRAConsumableCapacity",
      "DRADeviceBindingConditions+DRAResourceClaimDeviceStatus",
      "DRADeviceTaints",
      "DRAPartitionableDevices",
      "DRAPrioritizedList",
    ]);
  });

  it("allocates a whole GPU, or both halves, but never a half and the whole (counters)", () => {
    const whole = allocator().allocate(nodeA, [claim("train", 1, "80Gi")]);
    expect(whole).toEqual([
      {
        devices: {
          results: [{ request: "gpu", driver, pool: "gpu-a", device: "gpu-0" }],
          config: [{ source: "FromClass", opaque: { driver, parameters: { sharing: "none" } } }],
        },
        nodeSelector: {
          nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["gpu-a"] }] }],
        },
      },
    ]);
    // Two 40Gi partitions for two claims: the whole GPU would leave no counters for the second.
    const halves = allocator().allocate(nodeA, [claim("a", 1, "40Gi"), claim("b", 1, "40Gi")]);
    expect(halves?.map((r) => r.devices?.results?.map((d) => d.device))).toEqual([
      ["gpu-0-mig-0"],
      ["gpu-0-mig-1"],
    ]);
    // One half in use: the whole GPU cannot be allocated any more.
    const inUse = { allocatedDevices: new Set([makeDeviceID(driver, "gpu-a", "gpu-0-mig-1")]) };
    expect(allocator(inUse).allocate(nodeA, [claim("train", 1, "80Gi")])).toBeNull();
    expect(
      allocator(inUse).allocate(nodeA, [claim("small", 1, "40Gi")])?.[0]?.devices?.results?.[0]?.device,
    ).toBe("gpu-0-mig-0");
  });

  it("reports a missing class and a failing selector as errors, an invalid pool as this node's failure", () => {
    const missing = claim("x", 1);
    missing.spec!.devices!.requests![0]!.exactly!.deviceClassName = "tpu";
    expect(() => allocator().allocate(nodeA, [missing])).toThrow(
      'claim ml/x, request gpu: could not retrieve device class tpu: deviceclass.resource.k8s.io "tpu" not found',
    );
    const bad = claim("y", 1);
    bad.spec!.devices!.requests![0]!.exactly!.selectors = [
      { cel: { expression: 'device.attributes["other"].model == "x"' } },
    ];
    expect(() => allocator().allocate(nodeA, [bad])).toThrow(
      "claim ml/y: selector #0: CEL runtime error: no such key: model",
    );
    const duplicate = gpuSlices("gpu-a");
    duplicate[1]!.spec.devices!.push({ name: "gpu-0" });
    let error: unknown;
    try {
      allocator(undefined, duplicate).allocate(nodeA, [claim("z", 1)]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(FailedAllocationOnNodeError);
    expect(isFailedAllocationOnNode(error)).toBe(true);
    expect((error as Error).message).toBe("invalid resource pools were encountered");
  });

  it("gives a shared device the same share ID for the same claim on every run", () => {
    const shared: ResourceSlice = {
      metadata: { name: "nic" },
      spec: {
        driver,
        pool: { name: "nic", generation: 1, resourceSliceCount: 1 },
        allNodes: true,
        devices: [
          { name: "nic-0", allowMultipleAllocations: true, capacity: { bandwidth: { value: "10G" } } },
        ],
      },
    };
    const request = (name: string): ResourceClaim => ({
      metadata: { namespace: "ml", name },
      spec: {
        devices: {
          requests: [
            {
              name: "nic",
              exactly: { deviceClassName: "gpu.example.com", capacity: { requests: { bandwidth: "4G" } } },
            },
          ],
        },
      },
    });
    const run = () => allocator(undefined, [shared]).allocate(nodeA, [request("a"), request("b")]);
    const first = run();
    const ids = first?.map((r) => r.devices?.results?.[0]?.shareID);
    expect(ids?.[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids?.[0]).not.toBe(ids?.[1]);
    expect(run()?.map((r) => r.devices?.results?.[0]?.shareID)).toEqual(ids);
    expect(first?.[0]?.devices?.results?.[0]?.consumedCapacity).toEqual({ bandwidth: "4G" });
    // 4G + 4G + 4G is more than the 10G the device has.
    expect(
      allocator(undefined, [shared]).allocate(nodeA, [request("a"), request("b"), request("c")]),
    ).toBeNull();
  });
});
