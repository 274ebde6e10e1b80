// The verdicts an allocator keeps per device object for all the nodes it runs on: whether a
// request's capacity fits what the allocated shares leave of a shareable device
// (DRAConsumableCapacity), and whether a device's counters fit what the allocated devices leave of
// its pool's counter sets (DRAPartitionableDevices). Each is computed once per allocator (the
// allocated state it was built with does not change while it lives), not once per node; each part
// of what a verdict depends on changing changes the answer.
import type { Device, DeviceClass, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Quantity } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type AllocatedState,
  type Features,
  featuresAll,
  newAllocator,
  PoolCache,
} from "@kubesched/dynamic-resource-allocation/structured";
import { describe, expect, it } from "vitest";

const driver = "dra.example.com";
const features: Features = { ...featuresAll, listTypeAttributes: false };
const nodes: Node[] = ["node-a", "node-b", "node-c"].map((name) => ({
  metadata: { name, labels: { dra: "true" } },
}));
const anyDevice: DeviceClass = { metadata: { name: "any" }, spec: {} };
const classLister = { list: () => [anyDevice], get: () => anyDevice };

/** The device, with reads of `property` (of the device or of its consumesCounters entries) counted. */
function counting<T extends object>(object: T, property: string, reads: { n: number }): T {
  return new Proxy(object, {
    get(target, key, receiver) {
      if (key === property) reads.n++;
      return Reflect.get(target, key, receiver);
    },
  });
}

function sharedSlice(
  name: string,
  devices: Device[],
  extra: Partial<ResourceSlice["spec"]> = {},
): ResourceSlice {
  return {
    metadata: { name },
    spec: {
      driver,
      nodeSelector: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "dra", operator: "In", values: ["true"] }] }],
      },
      pool: { name, generation: 1, resourceSliceCount: 1 },
      devices,
      ...extra,
    },
  };
}

function allocator(slices: ResourceSlice[], allocatedState: AllocatedState) {
  return newAllocator({
    features,
    allocatedState,
    classLister,
    slices,
    celCache: new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false }),
    poolCache: new PoolCache(),
  });
}

function devicesOf(results: ReturnType<ReturnType<typeof allocator>["allocate"]>): string[] | null {
  return results === null
    ? null
    : results.flatMap((r) => (r.devices?.results ?? []).map((d) => `${d.pool}/${d.device}`));
}

describe("consumable capacity: a request's fit on a shareable device, kept per allocator", () => {
  const shareable = (name: string): Device => ({
    name,
    allowMultipleAllocations: true,
    capacity: { memory: { value: "80Gi", requestPolicy: { default: "1Gi", validRange: { min: "1Gi" } } } },
  });
  const claim = (name: string, ...memory: string[]): ResourceClaim => ({
    metadata: { name, namespace: "default", uid: name },
    spec: {
      devices: {
        requests: memory.map((m, i) => ({
          name: `req-${i}`,
          exactly: { deviceClassName: "any", capacity: { requests: { memory: m } } },
        })),
      },
    },
  });
  const used = (gi: number) => new Map([["memory", Quantity.parse(`${gi}Gi`)]]);
  const state = (perDevice: Record<string, number>): AllocatedState => ({
    allocatedDevices: new Set(),
    allocatedSharedDeviceIDs: new Set(),
    aggregatedCapacity: new Map(Object.entries(perDevice).map(([id, gi]) => [id, used(gi)])),
  });

  it("a full shareable device's capacity is compared with the request once, not on every node", () => {
    const reads = { n: 0 };
    const full = counting(shareable("dev"), "capacity", reads);
    const a = allocator([sharedSlice("pool-0", [full])], state({ [`${driver}/pool-0/dev`]: 80 }));
    const c = claim("c", "40Gi");
    expect(a.allocate(nodes[0]!, [c])).toBeNull();
    const afterFirstNode = reads.n;
    expect(afterFirstNode).toBeGreaterThan(0);
    expect(a.allocate(nodes[1]!, [c])).toBeNull();
    expect(a.allocate(nodes[2]!, [c])).toBeNull();
    expect(reads.n).toBe(afterFirstNode);
  });

  it("two requests for different amounts get their own answer on the same device and allocator", () => {
    const a = allocator([sharedSlice("pool-0", [shareable("dev")])], state({ [`${driver}/pool-0/dev`]: 50 }));
    expect(devicesOf(a.allocate(nodes[0]!, [claim("big", "40Gi")]))).toBeNull();
    expect(devicesOf(a.allocate(nodes[0]!, [claim("small", "20Gi")]))).toEqual(["pool-0/dev"]);
    expect(devicesOf(a.allocate(nodes[1]!, [claim("big-again", "40Gi")]))).toBeNull();
  });

  it("each device gets its own answer for the same request", () => {
    const slice = sharedSlice("pool-0", [shareable("full"), shareable("free")]);
    const a = allocator([slice], state({ [`${driver}/pool-0/full`]: 80 }));
    const c = claim("c", "40Gi");
    expect(devicesOf(a.allocate(nodes[0]!, [c]))).toEqual(["pool-0/free"]);
    expect(devicesOf(a.allocate(nodes[1]!, [c]))).toEqual(["pool-0/free"]);
  });

  it("an allocator built over another allocated state answers anew", () => {
    const slices = [sharedSlice("pool-0", [shareable("dev")])];
    const c = claim("c", "40Gi");
    expect(
      devicesOf(allocator(slices, state({ [`${driver}/pool-0/dev`]: 80 })).allocate(nodes[0]!, [c])),
    ).toBeNull();
    expect(devicesOf(allocator(slices, state({})).allocate(nodes[0]!, [c]))).toEqual(["pool-0/dev"]);
  });

  it("the shares being allocated in the run still count: a third 30Gi share moves to the next device", () => {
    const a = allocator([sharedSlice("pool-0", [shareable("dev-0"), shareable("dev-1")])], state({}));
    expect(devicesOf(a.allocate(nodes[0]!, [claim("c", "30Gi", "30Gi", "30Gi")]))).toEqual([
      "pool-0/dev-0",
      "pool-0/dev-0",
      "pool-0/dev-1",
    ]);
  });
});

describe("partitionable devices: a device's counters against its pool's, kept per allocator", () => {
  const counterSet = (values: Record<string, string>): ResourceSlice =>
    sharedSlice("counters", [], {
      pool: { name: "pool-0", generation: 1, resourceSliceCount: 2 },
      devices: undefined,
      sharedCounters: [
        {
          name: "set",
          counters: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
        },
      ],
    });
  const partition = (name: string, counters: Record<string, string>, reads?: { n: number }): Device => {
    const consumption = {
      counterSet: "set",
      counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, { value: v }])),
    };
    return {
      name,
      attributes: { name: { string: name } },
      consumesCounters: [reads === undefined ? consumption : counting(consumption, "counters", reads)],
    };
  };
  const deviceSlice = (devices: Device[]): ResourceSlice =>
    sharedSlice("devices", devices, { pool: { name: "pool-0", generation: 1, resourceSliceCount: 2 } });
  const claim = (...names: (string | undefined)[]): ResourceClaim => ({
    metadata: { name: "c", namespace: "default", uid: "c" },
    spec: {
      devices: {
        requests: names.map((name, i) => ({
          name: `req-${i}`,
          exactly: {
            deviceClassName: "any",
            ...(name === undefined
              ? {}
              : { selectors: [{ cel: { expression: `device.attributes["${driver}"].name == "${name}"` } }] }),
          },
        })),
      },
    },
  });
  const allocated = (...devices: string[]): AllocatedState => ({
    allocatedDevices: new Set(devices.map((d) => `${driver}/pool-0/${d}`)),
  });

  it("a device whose counters are used up is compared with its pool's counters once, not on every node", () => {
    const reads = { n: 0 };
    const slices = [
      counterSet({ c1: "1", c2: "1" }),
      deviceSlice([partition("big", { c1: "1", c2: "1" }), partition("half", { c1: "1" }, reads)]),
    ];
    const a = allocator(slices, allocated("big"));
    const c = claim(undefined);
    expect(a.allocate(nodes[0]!, [c])).toBeNull();
    const afterFirstNode = reads.n;
    expect(afterFirstNode).toBeGreaterThan(0);
    expect(a.allocate(nodes[1]!, [c])).toBeNull();
    expect(a.allocate(nodes[2]!, [c])).toBeNull();
    expect(reads.n).toBe(afterFirstNode);
  });

  it("each device gets its own answer: the one consuming a free counter is allocated", () => {
    const slices = [
      counterSet({ c1: "1", c2: "1" }),
      deviceSlice([
        partition("first", { c1: "1" }),
        partition("on-c1", { c1: "1" }),
        partition("on-c2", { c2: "1" }),
      ]),
    ];
    const a = allocator(slices, allocated("first"));
    expect(devicesOf(a.allocate(nodes[0]!, [claim(undefined)]))).toEqual(["pool-0/on-c2"]);
    expect(devicesOf(a.allocate(nodes[1]!, [claim(undefined)]))).toEqual(["pool-0/on-c2"]);
  });

  it("an allocator built over another allocated state answers anew", () => {
    const slices = [
      counterSet({ c1: "1" }),
      deviceSlice([partition("first", { c1: "1" }), partition("second", { c1: "1" })]),
    ];
    expect(
      devicesOf(allocator(slices, allocated("first")).allocate(nodes[0]!, [claim("second")])),
    ).toBeNull();
    expect(devicesOf(allocator(slices, allocated()).allocate(nodes[0]!, [claim("second")]))).toEqual([
      "pool-0/second",
    ]);
  });

  it("a device consuming more than is left fits after one consuming a negative amount, as the full check decides", () => {
    const slices = [
      counterSet({ c1: "1" }),
      deviceSlice([partition("giver", { c1: "-1" }), partition("taker", { c1: "2" })]),
    ];
    const a = allocator(slices, allocated());
    expect(devicesOf(a.allocate(nodes[0]!, [claim("giver", "taker")]))).toEqual([
      "pool-0/giver",
      "pool-0/taker",
    ]);
  });

  it("the counters being consumed in the run still count: the second 1-counter device does not fit", () => {
    const slices = [
      counterSet({ c1: "1" }),
      deviceSlice([partition("a", { c1: "1" }), partition("b", { c1: "1" })]),
    ];
    expect(
      devicesOf(allocator(slices, allocated()).allocate(nodes[0]!, [claim(undefined, undefined)])),
    ).toBeNull();
  });
});
