// DRADeviceCompatibilityGroups. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/compatibility_groups_test.go
// (kubernetes/kubernetes 65b832c30cc6: TestCompatibilityGroupSet,
// TestCompatibilityGroupIntersectionAdmits, ...Rolling, ...NoGroupsStacking, every case), then the
// allocator with the feature on and off (kubesched's cases: the stored allocator_testing.go copies
// hold none for this feature that fit the 1.37 design, see the README).
import type { DeviceCounterConsumption } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { allocatorChannel } from "./allocator";
import {
  type AllocatorTestCase,
  allocationResult,
  claim0,
  claimWithRequests,
  deviceClass as class_,
  classA,
  counterSet,
  counterSet1,
  counterSet2,
  device,
  device0,
  device1,
  device2,
  device3,
  deviceAllocationResult,
  driverA,
  fromCounters,
  localNodeSelector,
  node,
  node1,
  pool1,
  region1,
  req0,
  request,
  resourcePool,
  runAllocatorTestCase,
  slice1,
  slice2,
  sliceWithCounterSets,
  sliceWithDevices,
  unwrapResourceSlices,
} from "./allocator-testing";
import {
  addCompatibilityGroups,
  admitsCompatibilityGroups,
  type CompatibilityGroupIntersection,
  compatibilityGroupSet,
  noCompatibilityGroupMembers,
} from "./compatibility-groups";
import { makeDeviceID } from "./types";

const set = (...groups: string[]): ReadonlySet<string> | undefined =>
  groups.length === 0 ? undefined : new Set(groups);
const empty = noCompatibilityGroupMembers;

describe("TestCompatibilityGroupSet", () => {
  it("nil and empty lists give no set, [mig] gives {mig}", () => {
    expect(compatibilityGroupSet(undefined)).toBeUndefined();
    expect(compatibilityGroupSet([])).toBeUndefined();
    expect(compatibilityGroupSet(["mig"])).toEqual(new Set(["mig"]));
  });
});

describe("TestCompatibilityGroupIntersectionAdmits", () => {
  const cases: Record<
    string,
    {
      intersection: CompatibilityGroupIntersection;
      candidate: ReadonlySet<string> | undefined;
      want: boolean;
    }
  > = {
    "empty-intersection-admits-grouped": { intersection: empty, candidate: set("mig"), want: true },
    "empty-intersection-admits-nil": { intersection: empty, candidate: set(), want: true },
    "no-group-members-admit-no-group-candidate (nil-vs-nil)": {
      intersection: addCompatibilityGroups(empty, set()),
      candidate: set(),
      want: true,
    },
    "no-group-members-reject-grouped-candidate (nil-vs-set)": {
      intersection: addCompatibilityGroups(empty, set()),
      candidate: set("mig"),
      want: false,
    },
    "grouped-members-reject-no-group-candidate (set-vs-nil)": {
      intersection: addCompatibilityGroups(empty, set("mig")),
      candidate: set(),
      want: false,
    },
    "grouped-members-admit-overlapping-candidate (set-vs-set)": {
      intersection: addCompatibilityGroups(empty, set("mig")),
      candidate: set("mig"),
      want: true,
    },
    "grouped-members-reject-disjoint-candidate": {
      intersection: addCompatibilityGroups(empty, set("mig")),
      candidate: set("vgpu"),
      want: false,
    },
    "multi-group-candidate-overlaps": {
      intersection: addCompatibilityGroups(empty, set("foo", "foobar")),
      candidate: set("bar", "foobar"),
      want: true,
    },
    "multi-group-candidate-disjoint": {
      intersection: addCompatibilityGroups(empty, set("foo", "foobar")),
      candidate: set("baz"),
      want: false,
    },
  };
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => {
      expect(admitsCompatibilityGroups(tc.intersection, tc.candidate)).toBe(tc.want);
    });
  }
});

describe("TestCompatibilityGroupIntersectionRolling", () => {
  it("narrows as devices are folded in (KEP example 4)", () => {
    let i = empty;
    expect(admitsCompatibilityGroups(i, set("foo", "foobar"))).toBe(true);
    i = addCompatibilityGroups(i, set("foo", "foobar"));
    expect(admitsCompatibilityGroups(i, set("bar", "foobar"))).toBe(true);
    const before = i;
    i = addCompatibilityGroups(i, set("bar", "foobar"));
    expect(i.groups).toEqual(new Set(["foobar"]));
    // A value taken before add is a snapshot: add never changes it in place.
    expect(before.groups).toEqual(new Set(["foo", "foobar"]));
    expect(admitsCompatibilityGroups(i, set("baz"))).toBe(false);
    expect(admitsCompatibilityGroups(i, set("qux", "foobar"))).toBe(true);
  });
});

describe("TestCompatibilityGroupIntersectionNoGroupsStacking", () => {
  it("no-group devices stack; a grouped one is then rejected", () => {
    let i = empty;
    for (let n = 0; n < 3; n++) {
      expect(admitsCompatibilityGroups(i, undefined), `no-group device #${n}`).toBe(true);
      i = addCompatibilityGroups(i, undefined);
    }
    expect(admitsCompatibilityGroups(i, set("mig"))).toBe(false);
  });
});

/** A device of counterSet1 consuming half of it ("mem": 4 of 8) and declaring `groups`. */
function groupedDevice(name: string, groups: string[] | undefined, set = counterSet1) {
  const consumption: DeviceCounterConsumption = { counterSet: set, counters: { mem: { value: "4" } } };
  if (groups !== undefined) consumption.compatibilityGroups = groups;
  return device(name, fromCounters, null).withDeviceCounterConsumption(consumption);
}

/** The pool of upstream's integration test: a counter set slice and a device slice. */
function pool(...devices: ReturnType<typeof groupedDevice>[]) {
  return unwrapResourceSlices(
    sliceWithCounterSets(
      slice1,
      node1,
      resourcePool(pool1, 2),
      driverA,
      counterSet(counterSet1, { mem: "8" }),
      counterSet(counterSet2, { mem: "8" }),
    ),
    sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, ...devices),
  );
}

const on = { partitionableDevices: true, deviceCompatibilityGroups: true };
const off = { partitionableDevices: true };
const twoDevices = [claimWithRequests(claim0, null, request(req0, classA, 2))];
const oneDevice = [claimWithRequests(claim0, null, request(req0, classA, 1))];
const classes = [class_(classA, driverA)];

function allocated(...devices: string[]) {
  return allocationResult(
    localNodeSelector(node1),
    ...devices.map((d) => deviceAllocationResult(req0, driverA, pool1, d, false)),
  );
}

const allocatorCases: Record<string, AllocatorTestCase> = {
  "compatible-devices-co-allocated": {
    features: on,
    claimsToAllocate: twoDevices,
    classes,
    slices: pool(groupedDevice(device0, ["mig"]), groupedDevice(device1, ["mig"])),
    node: node(node1, region1),
    expectResults: [allocated(device0, device1)],
  },
  "incompatible-devices-not-co-allocated": {
    features: on,
    claimsToAllocate: twoDevices,
    classes,
    slices: pool(groupedDevice(device0, ["mig"]), groupedDevice(device1, ["vgpu"])),
    node: node(node1, region1),
    expectResults: null,
  },
  "incompatible-devices-co-allocated-with-the-feature-off": {
    features: off,
    claimsToAllocate: twoDevices,
    classes,
    slices: pool(groupedDevice(device0, ["mig"]), groupedDevice(device1, ["vgpu"])),
    node: node(node1, region1),
    expectResults: [allocated(device0, device1)],
  },
  "backtracks-past-an-incompatible-device": {
    // device-0 and device-1 are tried first and do not go together; the search goes on to
    // device-0 + device-2. Counters leave room for any two, so only the groups decide.
    features: on,
    claimsToAllocate: twoDevices,
    classes,
    slices: pool(
      groupedDevice(device0, ["mig"]),
      groupedDevice(device1, ["vgpu"]),
      groupedDevice(device2, ["mig", "vgpu"]),
    ),
    node: node(node1, region1),
    expectResults: [allocated(device0, device2)],
  },
  "multi-group-intersection-narrows": {
    // {foo, foobar} then {bar, foobar}: the counter set's groups narrow to {foobar}, so a third
    // device {foo} is refused although it shares a group with the first.
    features: on,
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 3))],
    classes,
    slices: unwrapResourceSlices(
      sliceWithCounterSets(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { mem: "8" }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        ...[
          [device0, ["foo", "foobar"]],
          [device1, ["bar", "foobar"]],
          [device2, ["foo"]],
        ].map(([name, groups]) =>
          device(name as string, fromCounters, null).withDeviceCounterConsumption({
            counterSet: counterSet1,
            counters: { mem: { value: "2" } },
            compatibilityGroups: groups as string[],
          }),
        ),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "no-group-devices-stack-but-refuse-a-grouped-one": {
    features: on,
    claimsToAllocate: twoDevices,
    classes,
    slices: pool(
      groupedDevice(device0, undefined),
      groupedDevice(device1, ["mig"]),
      groupedDevice(device2, undefined),
    ),
    node: node(node1, region1),
    expectResults: [allocated(device0, device2)],
  },
  "allocated-device-groups-apply": {
    // device-0 (mig) is allocated: of the free devices on the counter set only the mig one fits.
    features: on,
    claimsToAllocate: oneDevice,
    classes,
    slices: pool(
      groupedDevice(device0, ["mig"]),
      groupedDevice(device1, ["vgpu"]),
      groupedDevice(device2, ["mig"]),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device0)],
    node: node(node1, region1),
    expectResults: [allocated(device2)],
  },
  "allocated-no-group-device-refuses-grouped-ones": {
    features: on,
    claimsToAllocate: oneDevice,
    classes,
    slices: pool(groupedDevice(device0, undefined), groupedDevice(device1, ["mig"])),
    allocatedDevices: [makeDeviceID(driverA, pool1, device0)],
    node: node(node1, region1),
    expectResults: null,
  },
  "other-counter-sets-are-independent": {
    // device-1 (vgpu) draws from counter-set-2, which no mig device uses.
    features: on,
    claimsToAllocate: oneDevice,
    classes,
    slices: pool(groupedDevice(device0, ["mig"]), groupedDevice(device1, ["vgpu"], counterSet2)),
    allocatedDevices: [makeDeviceID(driverA, pool1, device0)],
    node: node(node1, region1),
    expectResults: [allocated(device1)],
  },
  "rejected-device-leaves-counters-free": {
    // device-1 is refused for its groups after its counters were checked: they must not stay
    // consumed, or device-2 would not fit in what device-0 leaves.
    features: on,
    claimsToAllocate: twoDevices,
    classes,
    slices: pool(
      groupedDevice(device0, ["mig"]),
      groupedDevice(device1, ["vgpu"]),
      groupedDevice(device3, ["mig"]),
    ),
    node: node(node1, region1),
    expectResults: [allocated(device0, device3)],
  },
};

describe("the allocator with DRADeviceCompatibilityGroups", () => {
  for (const [name, tc] of Object.entries(allocatorCases)) {
    it(name, () => {
      runAllocatorTestCase(tc);
    });
  }

  it("is the experimental variant's feature", () => {
    expect(allocatorChannel(on)).toBe("experimental");
    expect(allocatorChannel(off)).toBe("stable");
  });
});
