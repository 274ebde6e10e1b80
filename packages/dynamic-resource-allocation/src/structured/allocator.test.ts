// upstream: staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go
// (TestAllocator, read at kubernetes/kubernetes 008b3652), ported case by case in upstream's
// order with upstream's names, inputs and expected values; the README lists what is not ported.
import { describe, it } from "vitest";
import {
  type AllocatorTestCase,
  allocationResult,
  cel,
  claim0,
  claim1,
  claimWithRequest,
  claimWithRequests,
  deviceClass as class_,
  classA,
  classB,
  device,
  device1,
  device2,
  deviceAllocationResult,
  driverA,
  driverB,
  localNodeSelector,
  node,
  node1,
  node2,
  pool1,
  pool2,
  region1,
  region2,
  req0,
  req1,
  request,
  resourcePool,
  runAllocatorTestCase,
  slice1,
  slice2,
  sliceWithDevices,
  sliceWithOneDevice,
  unwrapResourceSlices,
} from "./allocator-testing";

const testcases: Record<string, AllocatorTestCase> = {
  empty: {},
  simple: {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "other-node": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, node1, pool1, driverB),
      sliceWithOneDevice(slice2, node2, pool2, driverA),
    ),
    node: node(node2, region2),
    expectResults: [
      allocationResult(
        localNodeSelector(node2),
        deviceAllocationResult(req0, driverA, pool2, device1, false),
      ),
    ],
  },
  "small-and-large": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        request(req0, classA, 1, cel(`device.capacity["${driverA}"].memory.compareTo(quantity("1Gi")) >= 0`)),
        request(req1, classA, 1, cel(`device.capacity["${driverA}"].memory.compareTo(quantity("2Gi")) >= 0`)),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { memory: "1Gi" }, null),
        device(device2, { memory: "2Gi" }, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1, driverA, pool1, device2, false),
      ),
    ],
  },
  "small-and-large-backtrack-requests": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        request(req0, classA, 1, cel(`device.capacity["${driverA}"].memory.compareTo(quantity("1Gi")) >= 0`)),
        request(req1, classA, 1, cel(`device.capacity["${driverA}"].memory.compareTo(quantity("2Gi")) >= 0`)),
      ),
    ],
    classes: [class_(classA, driverA)],
    // Reversing the order in which the devices are listed causes the "large" device to
    // be allocated for the "small" request, leaving the "large" request unsatisfied.
    // The initial decision needs to be undone before a solution is found.
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device2, { memory: "2Gi" }, null),
        device(device1, { memory: "1Gi" }, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1, driverA, pool1, device2, false),
      ),
    ],
  },
  "small-and-large-backtrack-claims": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        request(req0, classA, 1, cel(`device.capacity["${driverA}"].memory.compareTo(quantity("1Gi")) >= 0`)),
      ),
      claimWithRequests(
        claim1,
        null,
        request(req1, classA, 1, cel(`device.capacity["${driverA}"].memory.compareTo(quantity("2Gi")) >= 0`)),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device2, { memory: "2Gi" }, null),
        device(device1, { memory: "1Gi" }, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req1, driverA, pool1, device2, false),
      ),
    ],
  },
  "devices-split-across-different-slices": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { count: 2, allocationMode: "ExactCount", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, node1, pool1, driverA),
      sliceWithOneDevice(slice2, node1, pool2, driverA),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool2, device1, false),
      ),
    ],
  },
  "obsolete-slice": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        "slice-1-obsolete",
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null),
      ),
      (() => {
        const s = sliceWithDevices(
          "slice-1-obsolete",
          node1,
          resourcePool(pool1, 2),
          driverA,
          device(device2, null, null),
        );
        // This makes the other slice obsolete.
        s.spec.pool.generation++;
        return s;
      })(),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "duplicate-slice": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: (() => {
      // This simulates the problem that can (theoretically) occur when the resource slice
      // controller wants to publish a pool with two slices but ends up creating some identical
      // slices under different names because its informer cache was out-dated on another sync.
      const sliceA = sliceWithOneDevice(slice1, node1, pool1, driverA).obj();
      sliceA.spec.pool.resourceSliceCount = 2;
      const sliceB = structuredClone(sliceA);
      sliceB.metadata!.name += "-2";
      return [sliceA, sliceB];
    })(),
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "no-slices": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: null,
    node: node(node1, region1),
    expectResults: null,
  },
  "not-enough-suitable-devices": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req1, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
  },
  "no-classes": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError: "could not retrieve device class class-a",
  },
  "unknown-class": {
    claimsToAllocate: [claimWithRequest(claim0, req0, "unknown-class")],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError: "could not retrieve device class unknown-class",
  },
  "empty-class": {
    claimsToAllocate: [claimWithRequest(claim0, req0, "")],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError: "claim claim-0, request req-0: missing device class name (unsupported request type?)",
  },
  "no-claims-to-allocate": {
    claimsToAllocate: [],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
  },
  "all-devices-single": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "all-devices-many": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, node1, pool1, driverA),
      sliceWithOneDevice(slice1, node1, pool2, driverA),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool2, device1, false),
      ),
    ],
  },
  "all-devices-of-the-incomplete-pool": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", count: 1, deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      (() => {
        const s = sliceWithOneDevice(slice1, node1, pool1, driverA);
        // This makes the pool incomplete, one other slice is missing.
        s.spec.pool.resourceSliceCount++;
        return s;
      })(),
    ),
    node: node(node1, region1),
    expectResults: null,
    expectError:
      "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated",
  },
  "all-devices-plus-another": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
      claimWithRequests(claim1, null, {
        name: req0,
        exactly: { allocationMode: "ExactCount", count: 1, deviceClassName: classB },
      }),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, node1, pool1, driverA),
      sliceWithOneDevice(slice1, node1, pool1, driverB),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverB, pool1, device1, false),
      ),
    ],
  },
  "all-devices-plus-another-reversed": {
    claimsToAllocate: [
      claimWithRequests(claim1, null, {
        name: req0,
        exactly: { allocationMode: "ExactCount", count: 1, deviceClassName: classB },
      }),
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, node1, pool1, driverA),
      sliceWithOneDevice(slice1, node1, pool1, driverB),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverB, pool1, device1, false),
      ),
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "all-devices-many-plus-another": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
      claimWithRequests(claim1, null, {
        name: req0,
        exactly: { allocationMode: "ExactCount", count: 1, deviceClassName: classB },
      }),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
      sliceWithOneDevice(slice1, node1, pool1, driverB),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverB, pool1, device1, false),
      ),
    ],
  },
};

describe("TestAllocator", () => {
  for (const [name, tc] of Object.entries(testcases)) {
    it(name, () => {
      runAllocatorTestCase(tc);
    });
  }
});
