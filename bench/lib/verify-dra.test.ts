// The DRA decision checks catch what a wrong allocation looks like: a device given twice, a device
// outside the class's selector, a claim of a bound pod that is not reserved for it or sits on
// another node's device, an unmet matchAttribute constraint, partitionable devices consuming more
// of a counter than their pool publishes, a firstAvailable request's results not naming one
// subrequest with its count and class, consumable-capacity shares over a device's capacity or off
// their request and requestPolicy, a device whose NoSchedule taint the request does not tolerate,
// devices on one counter set whose compatibility groups do not intersect.
import type { ExactDeviceRequest, Pod, ResourceClaim } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { makeCompatibilityGroupsDevices } from "./dra-compatibilitygroups";
import {
  makeConsumableCapacityClass,
  makeConsumableCapacitySlice,
  makeConsumableCapacityTemplate,
} from "./dra-consumablecapacity";
import {
  makePartitionableCounterSets,
  makePartitionableDevices,
  makeTwoDeviceTemplate,
} from "./dra-partitionable";
import { makeFirstAvailableTemplate, makeNoDevicesClass } from "./dra-prioritizedlist";
import {
  makeDRANode,
  makeDriverSlice,
  makeTestClaim,
  makeTestDeviceClass,
  testClass,
  testDriver,
} from "./dra-templates";
import { checkDRAAllocations } from "./verify-dra";

const slices = [0, 1].map((i) => makeDriverSlice(testDriver, makeDRANode(i).metadata!.name!, 2));
const deviceClasses = [makeTestDeviceClass()];

function allocated(index: number, node: string, device: string, driver = testDriver): ResourceClaim {
  const c = makeTestClaim("test", index);
  return {
    ...c,
    status: {
      allocation: { devices: { results: [{ request: "req-0", driver, pool: node, device }] } },
      reservedFor: [{ resource: "pods", name: `p${index}`, uid: `test/p${index}` }],
    },
  };
}

function podOf(index: number, node: string): Pod {
  return {
    metadata: { name: `p${index}`, namespace: "test", uid: `test/p${index}` },
    spec: {
      nodeName: node,
      containers: [{ name: "c" }],
      resourceClaims: [{ name: "resource", resourceClaimName: `test-claim-${index}` }],
    },
  };
}

const n0 = "scheduler-perf-dra-0";
const n1 = "scheduler-perf-dra-1";

describe("checkDRAAllocations", () => {
  it("accepts distinct devices matching the class, reserved for pods on their nodes", () => {
    const r = checkDRAAllocations({
      pods: [podOf(0, n0), podOf(1, n1)],
      resourceClaims: [allocated(0, n0, "instance-0"), allocated(1, n1, "instance-1")],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r).toMatchObject({ claims: 2, devices: 2, pods: 2, problemCount: 0 });
  });

  it("finds a device allocated twice", () => {
    const r = checkDRAAllocations({
      pods: [],
      resourceClaims: [allocated(0, n0, "instance-0"), allocated(1, n0, "instance-0")],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r.problems).toEqual([
      `device ${testDriver}/${n0}/instance-0 allocated twice: to test/test-claim-0 and test/test-claim-1`,
    ]);
  });

  it("evaluates the class's CEL selector with the allocator's environment", () => {
    const other = makeDriverSlice("other.example.com", n0, 1);
    const r = checkDRAAllocations({
      pods: [],
      resourceClaims: [allocated(0, n0, "instance-0", "other.example.com")],
      resourceSlices: [...slices, other],
      deviceClasses,
    });
    expect(r.problems).toEqual([
      `claim test/test-claim-0: device other.example.com/${n0}/instance-0 does not match selector "device.driver == \\"${testDriver}\\""`,
    ]);
  });

  it("finds a bound pod whose claim is on another node or not reserved for it", () => {
    const claim = allocated(0, n1, "instance-0");
    const r = checkDRAAllocations({
      pods: [podOf(0, n0)],
      resourceClaims: [{ ...claim, status: { ...claim.status, reservedFor: [] } }],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r.problems).toEqual([
      "pod test/p0: claim test-claim-0 not reserved for it",
      `pod test/p0 on ${n0}: claim test-claim-0 has device instance-0 of node ${n1}`,
    ]);
  });

  it("checks matchAttribute constraints and request counts", () => {
    const c = makeTestClaim("test", 0);
    const claim: ResourceClaim = {
      ...c,
      spec: {
        devices: {
          requests: [{ name: "req-0", exactly: { deviceClassName: "test-class", count: 2 } }],
          constraints: [{ matchAttribute: "dra.example.com/numa" }],
        },
      },
      status: {
        allocation: {
          devices: {
            results: ["instance-0", "instance-1"].map((device) => ({
              request: "req-0",
              driver: testDriver,
              pool: n0,
              device,
            })),
          },
        },
      },
    };
    // numa is the device's index: the two differ.
    const r = checkDRAAllocations({
      pods: [],
      resourceClaims: [claim],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r.problems).toEqual([
      `claim test/test-claim-0: matchAttribute dra.example.com/numa not matched ({"int":0}, {"int":1})`,
    ]);
  });

  describe("compatibility groups (dra/compatibilitygroups)", () => {
    const pool = (groups: [string[], string[]]) => {
      const devices = makeCompatibilityGroupsDevices(0);
      devices.spec.devices!.forEach((d, i) => {
        d.consumesCounters![0]!.compatibilityGroups = groups[i];
      });
      return [makePartitionableCounterSets(0), devices];
    };
    const claim: ResourceClaim = {
      ...makeTestClaim("test", 0),
      spec: makeTwoDeviceTemplate("test").spec?.spec,
      status: {
        allocation: {
          devices: {
            results: ["device-1", "device-2"].map((device) => ({
              request: "req-0",
              driver: testDriver,
              pool: "resourceslice-0",
              device,
            })),
          },
        },
      },
    };
    const check = (groups: [string[], string[]]) =>
      checkDRAAllocations({ pods: [], resourceClaims: [claim], resourceSlices: pool(groups), deviceClasses });

    it("accepts the workload's outcome: both mig devices of a node together", () => {
      expect(check([["mig"], ["mig"]])).toMatchObject({ devices: 2, problemCount: 0 });
    });

    it("finds devices on one counter set with disjoint groups", () => {
      expect(check([["mig"], ["vgpu"]]).problems).toEqual([
        `counter set ${testDriver}/resourceslice-0/counter-set: ${testDriver}/resourceslice-0/device-1, ${testDriver}/resourceslice-0/device-2 share no compatibility group`,
      ]);
    });

    it("finds a device without groups beside one with groups", () => {
      expect(check([["mig"], []]).problems).toEqual([
        `counter set ${testDriver}/resourceslice-0/counter-set: devices with and without compatibility groups allocated together`,
      ]);
    });
  });

  describe("partitionable devices (dra/partitionabledevices)", () => {
    const pool = [makePartitionableCounterSets(0), makePartitionableDevices(0)];
    const claimOf = (index: number, devices: string[]): ResourceClaim => ({
      ...makeTestClaim("test", index),
      status: {
        allocation: {
          devices: {
            results: devices.map((device) => ({
              request: "req-0",
              driver: testDriver,
              pool: "resourceslice-0",
              device,
            })),
          },
        },
      },
    });
    const check = (claims: ResourceClaim[]) =>
      checkDRAAllocations({ pods: [], resourceClaims: claims, resourceSlices: pool, deviceClasses });

    it("accepts devices whose counters fit the pool's counter set together", () => {
      // The workload's outcome per pool: the preallocated 2-counter device, then the two 1-counter
      // devices of the other counters.
      const r = check([
        claimOf(0, ["device-2-counters-1"]),
        claimOf(1, ["device-1-counter-3"]),
        claimOf(2, ["device-1-counter-4"]),
      ]);
      expect(r).toMatchObject({ claims: 3, devices: 3, problemCount: 0 });
    });

    it("finds two claims' devices consuming one counter twice", () => {
      const r = check([claimOf(0, ["device-2-counters-1"]), claimOf(1, ["device-1-counter-2"])]);
      expect(r.problems).toEqual([
        `counter ${testDriver}/resourceslice-0/counter-set/counter2: consumed 2 of 1`,
      ]);
    });

    it("finds a counter no counter set of the pool publishes", () => {
      const r = checkDRAAllocations({
        pods: [],
        resourceClaims: [claimOf(0, ["device-1-counter-1"])],
        resourceSlices: [makePartitionableDevices(0)],
        deviceClasses,
      });
      expect(r.problems).toEqual([
        `counter ${testDriver}/resourceslice-0/counter-set/counter1: consumed 1, no counter set publishes it`,
      ]);
    });
  });

  describe("firstAvailable (dra/prioritizedlist)", () => {
    const spec = makeFirstAvailableTemplate("test").spec?.spec;
    const claimOf = (
      requests: string[],
      devices = requests.map((_, i) => `instance-${i}`),
    ): ResourceClaim => ({
      ...makeTestClaim("test", 0),
      spec,
      status: {
        allocation: {
          devices: {
            results: requests.map((request, i) => ({
              request,
              driver: testDriver,
              pool: n0,
              device: devices[i] ?? "",
            })),
          },
        },
      },
    });
    const check = (claim: ResourceClaim) =>
      checkDRAAllocations({
        pods: [],
        resourceClaims: [claim],
        resourceSlices: slices,
        deviceClasses: [...deviceClasses, makeNoDevicesClass()],
      });

    it("accepts the second subrequest's device, named <request>/<subrequest>", () => {
      expect(check(claimOf(["req-0/sub-1"]))).toMatchObject({ claims: 1, devices: 1, problemCount: 0 });
    });

    it("finds a result naming the request without its subrequest", () => {
      expect(check(claimOf(["req-0"])).problems).toEqual([
        "claim test/test-claim-0: result for unknown request req-0",
        "claim test/test-claim-0: result for firstAvailable request req-0 names no subrequest",
        "claim test/test-claim-0: firstAvailable request req-0 has no devices",
      ]);
    });

    it("finds a device outside the chosen subrequest's class, and a subrequest's count not met", () => {
      expect(check(claimOf(["req-0/sub-0"])).problems).toEqual([
        `claim test/test-claim-0: device ${testDriver}/${n0}/instance-0 does not match selector "device.driver == \\"no-such-driver.cdi.k8s.io\\""`,
      ]);
      expect(check(claimOf(["req-0/sub-1", "req-0/sub-1"])).problems).toEqual([
        "claim test/test-claim-0: subrequest req-0/sub-1 has 2 devices, wants 1",
      ]);
    });

    it("finds results mixing subrequests", () => {
      expect(check(claimOf(["req-0/sub-1", "req-0/sub-0"], ["instance-0", "instance-1"])).problems).toContain(
        "claim test/test-claim-0: request req-0 mixes subrequests sub-1, sub-0",
      );
    });
  });

  describe("consumable capacity (dra/consumablecapacity)", () => {
    const spec = makeConsumableCapacityTemplate("test").spec?.spec;
    const share = (request: string, memory: string | undefined, n: number) => ({
      request,
      driver: testDriver,
      pool: "resourceslice-0",
      device: "shareable-device",
      shareID: `share-${n}`,
      ...(memory ? { consumedCapacity: { memory } } : {}),
    });
    const claimOf = (index: number, results: ReturnType<typeof share>[]): ResourceClaim => ({
      ...makeTestClaim("test", index),
      spec,
      status: { allocation: { devices: { results } } },
    });
    const check = (claims: ResourceClaim[]) =>
      checkDRAAllocations({
        pods: [],
        resourceClaims: claims,
        resourceSlices: [makeConsumableCapacitySlice(0)],
        deviceClasses: [makeConsumableCapacityClass()],
      });

    it("accepts two 40Gi shares of the 80Gi device", () => {
      const r = check([claimOf(0, [share("req-0", "40Gi", 0), share("req-1", "40Gi", 1)])]);
      expect(r).toMatchObject({ claims: 1, devices: 2, problemCount: 0 });
    });

    it("finds shares over the device's capacity", () => {
      const r = check([
        claimOf(0, [share("req-0", "40Gi", 0), share("req-1", "40Gi", 1)]),
        claimOf(1, [share("req-0", "40Gi", 2), share("req-1", "40Gi", 3)]),
      ]);
      expect(r.problems).toEqual([
        `device ${testDriver}/resourceslice-0/shareable-device: memory consumed ${160 * 2 ** 30} of ${80 * 2 ** 30}`,
      ]);
    });

    it("finds a share that is not what the request and the requestPolicy give", () => {
      const r = check([claimOf(0, [share("req-0", "1Gi", 0), share("req-1", undefined, 1)])]);
      expect(r.problems).toEqual([
        `claim test/test-claim-0: device ${testDriver}/resourceslice-0/shareable-device share of memory is 1Gi, the request and policy give ${40 * 2 ** 30}`,
        `claim test/test-claim-0: device ${testDriver}/resourceslice-0/shareable-device share of memory is missing, the request and policy give ${40 * 2 ** 30}`,
      ]);
    });

    it("rounds a request up by the policy's step", () => {
      const slice = makeConsumableCapacitySlice(0);
      const device = slice.spec.devices?.[0];
      if (device?.capacity?.memory)
        device.capacity.memory.requestPolicy = { validRange: { min: "1Gi", step: "4Gi" } };
      const run = (memory: string, ask: string) =>
        checkDRAAllocations({
          pods: [],
          resourceClaims: [
            {
              ...claimOf(0, [share("req-0", memory, 0)]),
              spec: {
                devices: {
                  requests: [
                    {
                      name: "req-0",
                      exactly: { deviceClassName: testClass, capacity: { requests: { memory: ask } } },
                    },
                  ],
                },
              },
            },
          ],
          resourceSlices: [slice],
          deviceClasses: [makeConsumableCapacityClass()],
        }).problems;
      // 2Gi asked: 1Gi + one 4Gi step.
      expect(run("5Gi", "2Gi")).toEqual([]);
      expect(run("2Gi", "2Gi")).toEqual([
        `claim test/test-claim-0: device ${testDriver}/resourceslice-0/shareable-device share of memory is 2Gi, the request and policy give ${5 * 2 ** 30}`,
      ]);
    });
  });

  describe("device taints (dra/devicetaints)", () => {
    // A slice of two devices, `instance-0` tainted NoSchedule as devicetaintrule.yaml taints them.
    const tainted = makeDriverSlice(testDriver, n0, 2);
    const first = tainted.spec.devices?.[0];
    if (first) first.taints = [{ key: "example.com/taint", value: "tainted", effect: "NoSchedule" }];
    const claimOf = (device: string, tolerations?: ExactDeviceRequest["tolerations"]): ResourceClaim => {
      const c = allocated(0, n0, device);
      return {
        ...c,
        spec: {
          devices: {
            requests: [
              {
                name: "req-0",
                exactly: { deviceClassName: testClass, ...(tolerations ? { tolerations } : {}) },
              },
            ],
          },
        },
      };
    };
    const check = (claim: ResourceClaim) =>
      checkDRAAllocations({ pods: [], resourceClaims: [claim], resourceSlices: [tainted], deviceClasses })
        .problems;

    it("accepts a tainted device the request tolerates (resourceclaimtemplate-toleration.yaml), and an untainted one", () => {
      expect(check(claimOf("instance-0", [{ key: "example.com/taint", operator: "Exists" }]))).toEqual([]);
      expect(
        check(claimOf("instance-0", [{ key: "example.com/taint", value: "tainted", effect: "NoSchedule" }])),
      ).toEqual([]);
      expect(check(claimOf("instance-1"))).toEqual([]);
    });

    it("finds a device a DeviceTaintRule taints that the request does not tolerate (devicetaintrule.yaml: every device)", () => {
      const untainted = makeDriverSlice(testDriver, n0, 2);
      const rule = (deviceSelector?: { pool?: string; device?: string }) => ({
        metadata: { name: "taint-all-devices" },
        spec: {
          ...(deviceSelector ? { deviceSelector } : {}),
          taint: { key: "example.com/taint", value: "tainted", effect: "NoSchedule" },
        },
      });
      const checkWith = (claim: ResourceClaim, r: ReturnType<typeof rule>) =>
        checkDRAAllocations({
          pods: [],
          resourceClaims: [claim],
          resourceSlices: [untainted],
          deviceClasses,
          deviceTaintRules: [r],
        }).problems;
      expect(checkWith(claimOf("instance-1"), rule())).toEqual([
        `claim test/test-claim-0: device ${testDriver}/${n0}/instance-1 has taint example.com/taint=tainted:NoSchedule its request does not tolerate`,
      ]);
      expect(
        checkWith(claimOf("instance-1", [{ key: "example.com/taint", operator: "Exists" }]), rule()),
      ).toEqual([]);
      // A rule selecting another device or pool does not taint it.
      expect(checkWith(claimOf("instance-1"), rule({ device: "instance-0" }))).toEqual([]);
      expect(checkWith(claimOf("instance-1"), rule({ pool: "other" }))).toEqual([]);
    });

    it("finds a tainted device the request does not tolerate", () => {
      const line = `claim test/test-claim-0: device ${testDriver}/${n0}/instance-0 has taint example.com/taint=tainted:NoSchedule its request does not tolerate`;
      expect(check(claimOf("instance-0"))).toEqual([line]);
      expect(check(claimOf("instance-0", [{ key: "example.com/taint", value: "other" }]))).toEqual([line]);
      expect(
        check(claimOf("instance-0", [{ key: "example.com/taint", operator: "Exists", effect: "NoExecute" }])),
      ).toEqual([line]);
    });
  });
});

describe("checkDRAAllocations with list attributes (DRAListTypeAttributes)", () => {
  // Two devices of node 0 with list attributes: instance-0 [a, b], instance-1 [b, c].
  const listSlice = {
    ...slices[0]!,
    spec: {
      ...slices[0]!.spec,
      devices: [
        { name: "instance-0", attributes: { "dra.example.com/match": { strings: ["a", "b"] } } },
        { name: "instance-1", attributes: { "dra.example.com/match": { strings: ["b", "c"] } } },
      ],
    },
  };
  const claimOfTwo = (constraint: {
    matchAttribute?: string;
    distinctAttribute?: string;
  }): ResourceClaim => ({
    metadata: { name: "two", namespace: "test" },
    spec: {
      devices: {
        constraints: [constraint],
        requests: [{ name: "req-0", exactly: { deviceClassName: "test-class", count: 2 } }],
      },
    },
    status: {
      allocation: {
        devices: {
          results: ["instance-0", "instance-1"].map((device) => ({
            request: "req-0",
            driver: testDriver,
            pool: n0,
            device,
          })),
        },
      },
    },
  });
  const run = (c: ResourceClaim) =>
    checkDRAAllocations({ pods: [], resourceClaims: [c], resourceSlices: [listSlice], deviceClasses });
  it("matchAttribute holds when the lists intersect; distinctAttribute fails when they do", () => {
    expect(run(claimOfTwo({ matchAttribute: "dra.example.com/match" })).problemCount).toBe(0);
    expect(run(claimOfTwo({ distinctAttribute: "dra.example.com/match" })).problems).toEqual([
      'claim test/two: distinctAttribute dra.example.com/match not distinct ({"strings":["a","b"]}, {"strings":["b","c"]})',
    ]);
  });
});
