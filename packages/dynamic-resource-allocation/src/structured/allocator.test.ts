// upstream: staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go
// (TestAllocator, read at kubernetes/kubernetes 03ab440c, the commit of the incubating allocator ported), ported case by case in upstream's
// order with upstream's names, inputs and expected values; the README lists what is not ported.

import type { DeviceTaint, DeviceToleration } from "@kubesched/api";
import { AllocationResultsMaxSize } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { Cache } from "../cel/cache";
import { newAllocator } from "./allocator";
import {
  type AllocatorTestCase,
  allDeviceRequest,
  allocationResult,
  allocationResultWithConfig,
  allocationResultWithConfigs,
  capacity0,
  capacity1,
  cel,
  claim,
  claim0,
  claim1,
  claimWithDeviceConfig,
  claimWithRequest,
  claimWithRequests,
  deviceClass as class_,
  classA,
  classB,
  classLister,
  classWithAllowMultipleAllocations,
  classWithConfig,
  counterSet,
  counterSet1,
  counterSet2,
  device,
  device0,
  device1,
  device2,
  device3,
  device4,
  deviceAllocationResult,
  deviceClaimConfig,
  deviceConfiguration,
  deviceCounterConsumption,
  deviceRequest,
  deviceRequestAllocationResult,
  deviceRequestAllocationResultWithBindingConditions,
  driverA,
  driverB,
  fieldNameKey,
  fixedShareID,
  fromCounters,
  localNodeSelector,
  multipleDeviceAllocationResults,
  node,
  node1,
  node2,
  nodeLabelSelector,
  nodeSelectionAll,
  nodeSelectionPerDevice,
  planetKey,
  planetValueEarth,
  pool1,
  pool2,
  pool3,
  pool4,
  region1,
  region2,
  regionKey,
  req0,
  req0SubReq0,
  req0SubReq1,
  req1,
  req1SubReq0,
  req1SubReq1,
  req2,
  req2SubReq0,
  req2SubReq1,
  req3,
  request,
  requestWithPrioritizedList,
  resourcePool,
  runAllocatorTestCase,
  slice1,
  slice2,
  slice3,
  slice4,
  sliceWithCounterSets,
  sliceWithDevices,
  sliceWithMultipleDevices,
  sliceWithNoDevices,
  sliceWithOneDevice,
  subReq0,
  subReq1,
  subRequest,
  unwrapResourceSlices,
} from "./allocator-testing";
import { PoolCache } from "./pool-cache";
import { makeDeviceID, makeSharedDeviceID } from "./types";
import { VersionedDeviceSet } from "./versioned-device-set";

const nonExistentAttribute = `${driverA}/NonExistentAttribute`;
const boolAttribute = `${driverA}/boolAttribute`;
const stringAttribute = `${driverA}/stringAttribute`;
const versionAttribute = `${driverA}/driverVersion`;
const intAttribute = `${driverA}/numa`;

/** upstream's `device.capacity["driver-a"].memory.compareTo(quantity("X")) >= 0` selector. */
const memoryAtLeast = (quantity: string) =>
  cel(`device.capacity["${driverA}"].memory.compareTo(quantity("${quantity}")) >= 0`);

/** upstream's `device.attributes["driver-a"].generation == "X"` selector. */
const generationIs = (generation: string) =>
  cel(`device.attributes["${driverA}"].generation == "${generation}"`);

/** upstream's deviceRequestAllocationResult(req, driverA, pool1, device).withConsumedCapacity(&fixedShareID, consumed). */
const share = (req: string, deviceName: string, consumed: Record<string, string> | null) =>
  deviceRequestAllocationResult(req, driverA, pool1, deviceName).withConsumedCapacity(fixedShareID, consumed);

const boolAttributeTrue = cel(`device.attributes["${driverA}"].boolAttribute`);

/** upstream's `device.attributes["driver-a"].type == "X"` selector. */
const typeIs = (type: string) => cel(`device.attributes["${driverA}"].type == "${type}"`);

/** A slice with its pool's generation and slice count set, as upstream's closures do. */
const withPool = (
  slice: ReturnType<typeof sliceWithDevices>,
  generation: number,
  resourceSliceCount: number,
) => {
  slice.spec.pool.generation = generation;
  slice.spec.pool.resourceSliceCount = resourceSliceCount;
  return slice;
};

const taintKey = "taint-key";
const taintValue = "taint-value";
const taintValue2 = "taint-value-2";
const taintNone: DeviceTaint = { key: taintKey, value: taintValue, effect: "None" };
const taintNoSchedule: DeviceTaint = { key: taintKey, value: taintValue, effect: "NoSchedule" };
const taintNoExecute: DeviceTaint = { key: taintKey, value: taintValue2, effect: "NoExecute" };
const tolerationNoSchedule: DeviceToleration = { operator: "Exists", key: taintKey, effect: "NoSchedule" };
const tolerationNoExecute: DeviceToleration = {
  operator: "Equal",
  key: taintKey,
  value: taintValue2,
  effect: "NoExecute",
};
const tolerationNoScheduleKey1: DeviceToleration = { operator: "Exists", key: "key1", effect: "NoSchedule" };

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
  "all-devices-with-consumed-counters": {
    features: { partitionableDevices: true },
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
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
  "all-devices-many-plus-another-reversed": {
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
        deviceAllocationResult(req0, driverB, pool1, device1, false),
      ),
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "all-devices-no-solution": {
    // One device, two claims both trying to allocate it.
    claimsToAllocate: [
      claimWithRequests(claim1, null, {
        name: req0,
        exactly: { allocationMode: "ExactCount", count: 1, deviceClassName: classA },
      }),
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
  },
  "all-devices-no-solution-reversed": {
    // One device, two claims both trying to allocate it.
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
      claimWithRequests(claim1, null, {
        name: req0,
        exactly: { allocationMode: "ExactCount", count: 1, deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
  },
  "all-devices-slice-without-devices": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithNoDevices(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
  },
  "all-devices-no-slices": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: null,
    node: node(node1, region1),
    expectResults: null,
  },
  "all-devices-some-allocated": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "all-devices-some-allocated-admin-access": {
    features: { adminAccess: true },
    claimsToAllocate: (() => {
      const c = claimWithRequest(claim0, req0, classA);
      c.requests[0]!.exactly!.adminAccess = true;
      c.requests[0]!.exactly!.allocationMode = "All";
      return [c];
    })(),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, true),
        deviceAllocationResult(req0, driverA, pool1, device2, true),
      ),
    ],
  },
  "all-devices-some-allocating-admin-access": {
    features: { adminAccess: true },
    claimsToAllocate: (() => {
      const c = claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1));
      c.requests[0]!.exactly!.adminAccess = true;
      // Second request for `All` cannot be fulfilled because
      // the first request claims a device.
      c.requests[1]!.exactly!.adminAccess = true;
      c.requests[1]!.exactly!.allocationMode = "All";
      return [c];
    })(),
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "count-devices-some-allocated-admin-access": {
    features: { adminAccess: true },
    claimsToAllocate: (() => {
      const c = claimWithRequest(claim0, req0, classA);
      c.requests[0]!.exactly!.adminAccess = true;
      c.requests[0]!.exactly!.allocationMode = "ExactCount";
      c.requests[0]!.exactly!.count = 2;
      return [c];
    })(),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, true),
        deviceAllocationResult(req0, driverA, pool1, device2, true),
      ),
    ],
  },
  "separate-claims-share-device-admin-access": {
    features: { adminAccess: true },
    claimsToAllocate: (() => {
      const c1 = claimWithRequest(claim0, req0, classA);
      c1.requests[0]!.exactly!.adminAccess = true;
      const c2 = claimWithRequest(claim1, req0, classA);
      c2.requests[0]!.exactly!.adminAccess = true;
      return [c1, c2];
    })(),
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
      allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
    ],
  },
  "admin-access-claims-device-allocating-for-non-admin-access": {
    features: { adminAccess: true },
    claimsToAllocate: (() => {
      const admin = claimWithRequest(claim1, req0, classA);
      admin.requests[0]!.exactly!.adminAccess = true;
      return [claimWithRequest(claim0, req0, classA), admin];
    })(),
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
      allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
    ],
  },
  "all-devices-slice-without-devices-prioritized-list": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      (() => {
        const c = claim(claim0).withRequests(
          requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)),
        );
        c.requests[0]!.firstAvailable![0]!.allocationMode = "All";
        c.requests[0]!.firstAvailable![0]!.count = 0;
        return c;
      })(),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithNoDevices(slice1, node1, pool1, driverA),
      sliceWithOneDevice(slice2, node1, pool2, driverB),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false),
      ),
    ],
  },
  "all-devices-no-slices-prioritized-list": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      (() => {
        const c = claim(claim0).withRequests(
          requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)),
        );
        c.requests[0]!.firstAvailable![0]!.allocationMode = "All";
        c.requests[0]!.firstAvailable![0]!.count = 0;
        return c;
      })(),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice2, node1, pool2, driverB)),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false),
      ),
    ],
  },
  "all-devices-some-allocated-prioritized-list": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      (() => {
        const c = claim(claim0).withRequests(
          requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)),
        );
        c.requests[0]!.firstAvailable![0]!.allocationMode = "All";
        c.requests[0]!.firstAvailable![0]!.count = 0;
        return c;
      })(),
    ],
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
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
      sliceWithOneDevice(slice2, node1, pool2, driverB),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false),
      ),
    ],
  },
  "network-attached-device": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        nodeLabelSelector(regionKey, region1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "unsuccessful-allocation-network-attached-device": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
    ),
    // Wrong region, no devices available.
    node: node(node2, region2),
    expectResults: null,
  },
  "many-network-attached-devices": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 4))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
      sliceWithOneDevice(slice1, nodeSelectionAll, pool2, driverA),
      sliceWithOneDevice(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool3, driverA),
      sliceWithOneDevice(slice1, localNodeSelector(node1), pool4, driverA),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        // A union of the individual selectors.
        {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: regionKey, operator: "In", values: [region1] },
                { key: planetKey, operator: "In", values: [planetValueEarth] },
              ],
              matchFields: [{ key: fieldNameKey, operator: "In", values: [node1] }],
            },
          ],
        },
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool2, device1, false),
        deviceAllocationResult(req0, driverA, pool3, device1, false),
        deviceAllocationResult(req0, driverA, pool4, device1, false),
      ),
    ],
  },
  "local-and-network-attached-devices": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 2))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
      sliceWithOneDevice(slice1, node1, pool2, driverA),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        // Once there is any node-local device, the selector is for that node.
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool2, device1, false),
      ),
    ],
  },
  "several-different-drivers": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req0, classB)],
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
      ),
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverB, pool1, device1, false),
      ),
    ],
  },
  "already-allocated-devices": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    allocatedDevices: [makeDeviceID(driverA, pool1, device1), makeDeviceID(driverA, pool1, device2)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
  },
  "admin-access-disabled": {
    features: { adminAccess: false },
    claimsToAllocate: (() => {
      const c = claimWithRequest(claim0, req0, classA);
      c.requests[0]!.exactly!.adminAccess = true;
      return [c];
    })(),
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError: "claim claim-0, request req-0: admin access is requested, but the feature is disabled",
  },
  "admin-access-enabled": {
    features: { adminAccess: true },
    claimsToAllocate: (() => {
      const c = claimWithRequest(claim0, req0, classA);
      c.requests[0]!.exactly!.adminAccess = true;
      return [c];
    })(),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1), makeDeviceID(driverA, pool1, device2)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
    ],
  },
  "with-constraint": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [
          { matchAttribute: intAttribute },
          { matchAttribute: versionAttribute },
          { matchAttribute: stringAttribute },
          { matchAttribute: boolAttribute },
        ],
        request(req0, classA, 1),
        request(req1, classA, 1),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, {
          driverVersion: { version: "1.0.0" },
          numa: { int: 1 },
          stringAttribute: { string: "stringAttributeValue" },
          boolAttribute: { bool: true },
        }),
        device(device2, null, {
          driverVersion: { version: "1.0.0" },
          numa: { int: 1 },
          stringAttribute: { string: "stringAttributeValue" },
          boolAttribute: { bool: true },
        }),
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
  "with-constraint-non-existent-attribute": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA, { matchAttribute: nonExistentAttribute })],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
  },
  "with-constraint-not-matching-int-attribute": {
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: intAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { numa: { int: 1 } }),
        device(device2, null, { numa: { int: 2 } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "with-constraint-not-matching-int-attribute-all-devices": {
    claimsToAllocate: [
      (() => {
        const c = claimWithRequests(claim0, [{ matchAttribute: intAttribute }], request(req0, classA, 0));
        c.requests[0]!.exactly!.allocationMode = "All";
        return c;
      })(),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { numa: { int: 1 } }),
        device(device2, null, { numa: { int: 2 } }),
      ),
    ),
    node: node(node1, region1),
    expectError:
      "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied",
  },
  "with-constraint-not-matching-string-attribute": {
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "stringAttributeValue" } }),
        device(device2, null, { stringAttribute: { string: "stringAttributeValue2" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "with-constraint-not-matching-bool-attribute": {
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: boolAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { boolAttribute: { bool: true } }),
        device(device2, null, { boolAttribute: { bool: false } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "with-constraint-not-matching-version-attribute": {
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: versionAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { driverVersion: { version: "1.0.0" } }),
        device(device2, null, { driverVersion: { version: "2.0.0" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "with-constraint-for-request": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [{ requests: [req0], matchAttribute: versionAttribute }],
        request(req0, classA, 1),
        request(req1, classA, 1),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { driverVersion: { version: "1.0.0" } }),
        device(device2, null, { driverVersion: { version: "2.0.0" } }),
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
  "with-constraint-for-request-retry": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [{ requests: [req0], matchAttribute: versionAttribute }, { matchAttribute: stringAttribute }],
        request(req0, classA, 1),
        request(req1, classA, 1),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        // This device does not satisfy the second match attribute, so the allocator must
        // backtrack.
        device(device1, null, { driverVersion: { version: "1.0.0" }, stringAttribute: { string: "a" } }),
        device(device2, null, { driverVersion: { version: "2.0.0" }, stringAttribute: { string: "b" } }),
        device(device3, null, { driverVersion: { version: "3.0.0" }, stringAttribute: { string: "b" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
        deviceAllocationResult(req1, driverA, pool1, device3, false),
      ),
    ],
  },
  "with-class-device-config": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [classWithConfig(classA, driverA, "classAttribute")],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResultWithConfigs(
        localNodeSelector(node1),
        [deviceAllocationResult(req0, driverA, pool1, device1, false)],
        [{ source: "FromClass", ...deviceConfiguration(driverA, "classAttribute") }],
      ),
    ],
  },
  "with-class-device-config-with-multiple-request-and-configs": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [],
        request(req0, classA, 1),
        request(req1, classA, 1),
        request(req2, classB, 1),
      ),
    ],
    classes: [
      classWithConfig(classA, driverA, "classAttribute-A"),
      classWithConfig(classB, driverB, "classAttribute-B"),
    ],
    slices: unwrapResourceSlices(
      sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2),
      sliceWithOneDevice(slice2, node1, pool1, driverB),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResultWithConfigs(
        localNodeSelector(node1),
        [
          deviceAllocationResult(req0, driverA, pool1, device0, false),
          deviceAllocationResult(req1, driverA, pool1, device1, false),
          deviceAllocationResult(req2, driverB, pool1, device1, false),
        ],
        [
          {
            source: "FromClass",
            requests: [req0, req1],
            ...deviceConfiguration(driverA, "classAttribute-A"),
          },
          { source: "FromClass", requests: [req2], ...deviceConfiguration(driverB, "classAttribute-B") },
        ],
      ),
    ],
  },
  "claim-with-device-config": {
    claimsToAllocate: [claimWithDeviceConfig(claim0, req0, classA, driverA, "deviceAttribute")],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResultWithConfig(
        localNodeSelector(node1),
        driverA,
        "FromClaim",
        "deviceAttribute",
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "unknown-selector": {
    claimsToAllocate: [
      (() => {
        const c = claimWithRequest(claim0, req0, classA);
        c.requests[0]!.exactly!.selectors = [
          {
            /* empty = unknown future selector */
          },
        ];
        return c;
      })(),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectError: "CEL expression empty (unsupported selector type?)",
  },
  "unknown-allocation-mode": {
    claimsToAllocate: [
      (() => {
        const c = claimWithRequest(claim0, req0, classA);
        c.requests[0]!.exactly!.allocationMode = "future-mode";
        return c;
      })(),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectError: "unsupported count mode future-mode",
  },
  "unknown-constraint": {
    claimsToAllocate: [
      (() => {
        const c = claimWithRequest(claim0, req0, classA);
        c.claim.spec!.devices!.constraints = [
          {
            /* empty = unknown */
          },
        ];
        return c;
      })(),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectError: "empty constraint (unsupported constraint type?)",
  },
  "invalid-CEL-one-device": {
    claimsToAllocate: [
      (() => {
        const c = claimWithRequest(claim0, req0, classA);
        c.requests[0]!.exactly!.selectors = [cel("noSuchVar")];
        return c;
      })(),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectError: "undeclared reference",
  },
  "invalid-CEL-one-device-class": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [
      (() => {
        const c = class_(classA, driverA);
        c.spec!.selectors![0]!.cel!.expression = "noSuchVar";
        return c;
      })(),
    ],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectError: "undeclared reference",
  },
  "invalid-CEL-all-devices": {
    claimsToAllocate: [
      (() => {
        const c = claimWithRequest(claim0, req0, classA);
        c.requests[0]!.exactly!.selectors = [cel("noSuchVar")];
        c.requests[0]!.exactly!.allocationMode = "All";
        return c;
      })(),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectError: "undeclared reference",
  },
  "too-many-devices-single-request": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 500))],
    classes: [class_(classA, driverA)],
    expectError: "exceeds the claim limit",
  },
  "many-devices-okay": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, AllocationResultsMaxSize))],
    classes: [class_(classA, driverA)],
  },
  "too-many-devices-total": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        request(req0, classA, AllocationResultsMaxSize),
        request(req1, classA, 1),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithMultipleDevices(slice1, node1, pool1, driverA, AllocationResultsMaxSize + 1),
    ),
    node: node(node1, region1),
    expectError: "exceeds the claim limit",
  },
  "all-devices-invalid-CEL": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 500))],
    classes: [class_(classA, driverA)],
    expectError: "exceeds the claim limit",
  },
  "prioritized-list-first-unavailable": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1)),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-non-available": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(req0, subRequest(subReq0, classB, 2), subRequest(subReq1, classA, 2)),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithOneDevice(slice1, node1, pool1, driverA),
      sliceWithOneDevice(slice2, node1, pool2, driverB),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "prioritized-list-device-config": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0)
        .withRequests(
          requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 2)),
        )
        .withConfigs([
          deviceClaimConfig([req0SubReq0], deviceConfiguration(driverA, "foo")),
          deviceClaimConfig([req0SubReq1], deviceConfiguration(driverB, "bar")),
        ]),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, pool1, driverB, device(device1, null, {}), device(device2, null, {})),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResultWithConfigs(
        localNodeSelector(node1),
        [
          deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false),
          deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false),
        ],
        [{ source: "FromClaim", ...deviceConfiguration(driverB, "bar") }],
      ),
    ],
  },
  "prioritized-list-class-config": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(req0, subRequest(subReq0, classA, 2), subRequest(subReq1, classB, 2)),
      ),
    ],
    classes: [classWithConfig(classA, driverA, "foo"), classWithConfig(classB, driverB, "bar")],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverB,
        device(device1, null, null),
        device(device2, null, null),
      ),
      sliceWithDevices(slice2, node1, pool2, driverA, device(device3, null, null)),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResultWithConfigs(
        localNodeSelector(node1),
        [
          deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false),
          deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false),
        ],
        [{ source: "FromClass", ...deviceConfiguration(driverB, "bar") }],
      ),
    ],
  },
  "prioritized-list-subrequests-with-expressions": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1).withSelectors(memoryAtLeast("1Gi")),
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, 1, memoryAtLeast("4Gi")),
          subRequest(subReq1, classA, 2, memoryAtLeast("2Gi")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { memory: "2Gi" }, null),
        device(device2, { memory: "2Gi" }, null),
        device(device3, { memory: "1Gi" }, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device1, false),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
      ),
    ],
  },
  "prioritized-list-subrequests-with-constraints-ref-parent-request": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ requests: [req0, req1], matchAttribute: versionAttribute })
        .withRequests(
          deviceRequest(req0, classA, 1).withSelectors(memoryAtLeast("8Gi")),
          requestWithPrioritizedList(
            req1,
            subRequest(subReq0, classA, 1, memoryAtLeast("2Gi")),
            subRequest(subReq1, classA, 1, memoryAtLeast("1Gi")),
          ),
        ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { memory: "8Gi" }, { driverVersion: { version: "1.0.0" } }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        pool2,
        driverA,
        device(device2, { memory: "2Gi" }, { driverVersion: { version: "2.0.0" } }),
        device(device3, { memory: "1Gi" }, { driverVersion: { version: "1.0.0" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1SubReq1, driverA, pool2, device3, false),
      ),
    ],
  },
  "prioritized-list-subrequests-with-constraints-ref-sub-request": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ requests: [req0, req1SubReq0], matchAttribute: versionAttribute })
        .withRequests(
          deviceRequest(req0, classA, 1).withSelectors(memoryAtLeast("8Gi")),
          requestWithPrioritizedList(
            req1,
            subRequest(subReq0, classA, 1, memoryAtLeast("2Gi")),
            subRequest(subReq1, classA, 1, memoryAtLeast("1Gi")),
          ),
        ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { memory: "8Gi" }, { driverVersion: { version: "1.0.0" } }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        pool2,
        driverA,
        device(device2, { memory: "2Gi" }, { driverVersion: { version: "2.0.0" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1SubReq1, driverA, pool2, device2, false),
      ),
    ],
  },
  "prioritized-list-subrequests-with-allocation-mode-all": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      (() => {
        const c = claim(claim0).withRequests(
          requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classA, 1)),
        );
        c.requests[0]!.firstAvailable![0]!.allocationMode = "All";
        c.requests[0]!.firstAvailable![0]!.count = 0;
        return c;
      })(),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false),
      ),
    ],
  },
  "prioritized-list-allocation-mode-all-multiple-requests": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1),
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, 0).withAllocationMode("All"),
          subRequest(subReq1, classA, 1),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
      ),
    ],
  },
  "prioritized-list-disabled": {
    features: { prioritizedList: false },
    claimsToAllocate: [
      claim(claim0).withRequests(requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1))),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError:
      "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is disabled",
  },
  "prioritized-list-multi-request": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req1, classA, 1).withSelectors(memoryAtLeast("8Gi")),
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1, memoryAtLeast("8Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, { memory: "8Gi" }, {})),
      sliceWithDevices(slice2, node1, pool2, driverA, device(device2, { memory: "4Gi" }, {})),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req1, driverA, pool1, device1, false),
        deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false),
      ),
    ],
  },
  "prioritized-list-with-backtracking": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1, memoryAtLeast("8Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")),
        ),
        deviceRequest(req1, classA, 1).withSelectors(memoryAtLeast("8Gi")),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, { memory: "8Gi" }, {})),
      sliceWithDevices(slice2, node1, pool2, driverA, device(device2, { memory: "4Gi" }, {})),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false),
        deviceAllocationResult(req1, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-too-many-in-first-subrequest": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(req0, subRequest(subReq0, classB, 500), subRequest(subReq1, classA, 1)),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "partitionable-devices-single-device": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "partitionable-devices-prioritized-list": {
    features: { prioritizedList: true, partitionableDevices: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1),
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
      ),
    ],
  },
  "partitionable-devices-multiple-devices": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1, driverA, pool1, device3, false),
      ),
    ],
  },
  "partitionable-devices-multiple-capacity-pools": {
    features: { prioritizedList: true, partitionableDevices: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1),
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
          deviceCounterConsumption(counterSet2, { cpus: "4" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
          deviceCounterConsumption(counterSet2, { cpus: "6" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
          deviceCounterConsumption(counterSet2, { cpus: "4" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "18Gi" }),
        counterSet(counterSet2, { cpus: "8" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
      ),
    ],
  },
  "partitionable-devices-multiple-counters": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi", cpus: "6" }),
          deviceCounterConsumption(counterSet2, { cpus: "4", memory: "2Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi", cpus: "4" }),
          deviceCounterConsumption(counterSet2, { cpus: "6", memory: "6Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi", cpus: "4" }),
          deviceCounterConsumption(counterSet2, { cpus: "4", memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { cpus: "8", memory: "18Gi" }),
        counterSet(counterSet2, { cpus: "12", memory: "18Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
        deviceAllocationResult(req1, driverA, pool1, device3, false),
      ),
    ],
  },
  "partitionable-devices-multiple-pools": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpus: "6", memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpus: "4", memory: "6Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpus: "4", memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { cpus: "8", memory: "18Gi" }),
      ),
      sliceWithDevices(
        slice3,
        node1,
        resourcePool(pool2, 2),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpus: "6", memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpus: "1", memory: "7Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpus: "1", memory: "7Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice4,
        node1,
        resourcePool(pool2, 2),
        driverA,
        counterSet(counterSet1, { cpus: "8", memory: "18Gi" }),
      ),
    ),
    allocatedDevices: [
      makeDeviceID(driverA, pool1, device2),
      makeDeviceID(driverA, pool1, device3),
      makeDeviceID(driverA, pool2, device1),
    ],
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool2, device2, false),
        deviceAllocationResult(req1, driverA, pool2, device3, false),
      ),
    ],
  },
  "partitionable-devices-unused-counters-in-counter-set": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 2))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "5Gi" }),
        ),
        device(device2, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
        device(device3, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi", unused: "1Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "partitionable-devices-no-capacity-available": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "16Gi" }),
        ),
      ),
      sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, { memory: "18Gi" })),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device2)],
    node: node(node1, region1),
    expectResults: null,
  },
  "partitionable-devices-overallocated-capacity-pool": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "20Gi" }),
        ),
      ),
      sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, { memory: "18Gi" })),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device2)],
    node: node(node1, region1),
    expectResults: null,
  },
  "partitionable-devices-disabled-device-consumes-counters": {
    features: { partitionableDevices: false },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, { memory: "18Gi" })),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "partitionable-devices-disabled-other-device-do-not-consume-counters": {
    features: { partitionableDevices: false },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
        device(device2, null, null),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "18Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "partitionable-devices-disabled-per-device-node-selection": {
    features: { partitionableDevices: false },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        nodeSelectionPerDevice,
        pool1,
        driverA,
        device(device2, null, null).withNodeSelection(node1),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "partitionable-devices-per-device-node-selection-nodename": {
    features: { partitionableDevices: true, prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        nodeSelectionPerDevice,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withNodeSelection(node1),
        device(device2, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "6Gi" }))
          .withNodeSelection(node2),
      ),
      sliceWithCounterSets(
        slice2,
        nodeSelectionPerDevice,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "18Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "partitionable-devices-per-device-node-selection-node-selector": {
    features: { partitionableDevices: true, prioritizedList: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        nodeSelectionPerDevice,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withNodeSelection(nodeLabelSelector(regionKey, region1)),
      ),
      sliceWithCounterSets(
        slice2,
        nodeSelectionPerDevice,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "18Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        {
          nodeSelectorTerms: [{ matchExpressions: [{ key: regionKey, operator: "In", values: [region1] }] }],
        },
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "partitionable-devices-per-device-node-selection-node-selector-multiple-devices": {
    features: { partitionableDevices: true, prioritizedList: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 3), request(req1, classB, 3))],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        nodeSelectionPerDevice,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withNodeSelection(nodeLabelSelector(regionKey, region1)),
        device(device2, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withNodeSelection(node1),
        device(device3, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withNodeSelection(nodeSelectionAll),
      ),
      sliceWithCounterSets(
        slice2,
        nodeSelectionPerDevice,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "18Gi" }),
      ),
      sliceWithDevices(
        slice3,
        node1,
        resourcePool(pool2, 2),
        driverB,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet2, { memory: "4Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet2, { memory: "4Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet2, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice4,
        node1,
        resourcePool(pool2, 2),
        driverB,
        counterSet(counterSet2, { memory: "12Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        { nodeSelectorTerms: [{ matchFields: [{ key: fieldNameKey, operator: "In", values: [node1] }] }] },
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
        deviceAllocationResult(req1, driverB, pool2, device1, false),
        deviceAllocationResult(req1, driverB, pool2, device2, false),
        deviceAllocationResult(req1, driverB, pool2, device3, false),
      ),
    ],
  },
  "tainted-two-devices": {
    features: { deviceTaints: true },
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
        device(device2, null, null).withTaints(taintNoExecute),
      ),
    ),
    node: node(node1, region1),
  },
  "tainted-one-device-two-taints": {
    features: { deviceTaints: true },
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule, taintNoExecute),
      ),
    ),
    node: node(node1, region1),
  },
  "tainted-two-devices-tolerated": {
    features: { deviceTaints: true },
    claimsToAllocate: [claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoExecute)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
        device(device2, null, null).withTaints(taintNoExecute),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false, tolerationNoExecute), // Only second device's taints are tolerated.
      ),
    ],
  },
  "tainted-two-devices-prioritized-list-tolerated": {
    features: { deviceTaints: true, prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1),
          subRequest(subReq1, classA, 1, tolerationNoExecute),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
        device(device2, null, null).withTaints(taintNoExecute),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false, tolerationNoExecute), // Only second device's taints are tolerated.
      ),
    ],
  },
  "tainted-no-effect": {
    features: { deviceTaints: true },
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNone)),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "tainted-one-device-two-taints-both-tolerated": {
    features: { deviceTaints: true },
    claimsToAllocate: [
      claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoSchedule, tolerationNoExecute),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule, taintNoExecute),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(
          req0,
          driverA,
          pool1,
          device1,
          false,
          tolerationNoSchedule,
          tolerationNoExecute,
        ),
      ),
    ],
  },
  "tainted-disabled": {
    features: { deviceTaints: false },
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule, taintNoExecute),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "tainted-prioritized-list": {
    features: { deviceTaints: true, prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1)),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
      ),
    ),
    node: node(node1, region1),
  },
  "tainted-prioritized-list-disabled": {
    features: { deviceTaints: false, prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1)),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "tainted-admin-access": {
    features: { deviceTaints: true, adminAccess: true },
    claimsToAllocate: (() => {
      const c = claimWithRequest(claim0, req0, classA);
      c.requests[0]!.exactly!.adminAccess = true;
      return [c];
    })(),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1), makeDeviceID(driverA, pool1, device2)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
      ),
    ),
    node: node(node1, region1),
  },
  "tainted-admin-access-disabled": {
    features: { deviceTaints: false, adminAccess: true },
    claimsToAllocate: (() => {
      const c = claimWithRequest(claim0, req0, classA);
      c.requests[0]!.exactly!.adminAccess = true;
      return [c];
    })(),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1), makeDeviceID(driverA, pool1, device2)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
    ],
  },
  "tainted-all-devices-single": {
    features: { deviceTaints: true },
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
      ),
    ),
    node: node(node1, region1),
  },
  "tainted-all-devices-single-disabled": {
    features: { deviceTaints: false },
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withTaints(taintNoSchedule),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-allocation-mode-all": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 0).withAllocationMode("All"),
          subRequest(subReq1, classA, 1),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device2)],
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-allocation-mode-all-with-selectors": {
    // When using allocationMode:All, at least one device must be allocated, otherwise
    // DRA will attempt the next subRequest.
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 0, generationIs("v6")).withAllocationMode("All"),
          subRequest(subReq1, classA, 0, generationIs("v5")).withAllocationMode("All"),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { generation: { string: "v5" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-allocation-mode-all-with-selectors-multiple-pools": {
    // All devices selected by the DeviceClass will be allocated, even if they
    // are spread across different resource pools.
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 0, generationIs("v6")).withAllocationMode("All"),
          subRequest(subReq1, classA, 0, generationIs("v5")).withAllocationMode("All"),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { generation: { string: "v5" } }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        pool2,
        driverA,
        device(device1, null, { generation: { string: "v5" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
        deviceAllocationResult(req0SubReq1, driverA, pool2, device1, false),
      ),
    ],
  },
  "prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes": {
    // All devices selected by the DeviceClass will be allocated, even if they
    // are spread across different resource pools, as long as they are available
    // on the node.
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 0, generationIs("v6")).withAllocationMode("All"),
          subRequest(subReq1, classA, 0, generationIs("v5")).withAllocationMode("All"),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { generation: { string: "v5" } }),
      ),
      sliceWithDevices(
        slice2,
        node2,
        pool2,
        driverA,
        device(device1, null, { generation: { string: "v5" } }),
        device(device2, null, { generation: { string: "v6" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset": {
    // Only devices selected by the deviceclass will be considered
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 0, generationIs("v6")).withAllocationMode("All"),
          subRequest(subReq1, classA, 0, generationIs("v5")).withAllocationMode("All"),
        ),
      ),
    ],
    classes: [
      {
        metadata: { name: classA },
        spec: {
          selectors: [cel(`device.driver == "${driverA}" && device.attributes["${driverA}"].selected`)],
        },
      },
    ],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { generation: { string: "v6" }, selected: { bool: false } }),
        device(device2, null, { generation: { string: "v5" }, selected: { bool: false } }),
        device(device3, null, { generation: { string: "v5" }, selected: { bool: true } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device3, false),
      ),
    ],
  },
  "max-number-devices": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, AllocationResultsMaxSize))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithMultipleDevices(slice1, node1, pool1, driverA, AllocationResultsMaxSize),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        ...multipleDeviceAllocationResults(req0, driverA, pool1, AllocationResultsMaxSize, 0),
      ),
    ],
  },
  "partitionable-devices-with-attribute-selector": {
    features: { partitionableDevices: true },
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        request(req0, classA, 2),
        request(req1, classA, 1, cel(`device.attributes["${driverA}"].special`)),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, { special: { bool: true } }).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpu1: "1" }),
          deviceCounterConsumption(counterSet2, { mem: "10Gi" }),
        ),
        device(device2, null, { special: { bool: false } }).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpu2: "1" }),
          deviceCounterConsumption(counterSet2, { mem: "10Gi" }),
        ),
        device(device3, null, { special: { bool: false } }).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { cpu3: "1" }),
          deviceCounterConsumption(counterSet2, { mem: "10Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { cpu1: "1", cpu2: "1", cpu3: "1" }),
        counterSet(counterSet2, { mem: "30Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
        deviceAllocationResult(req1, driverA, pool1, device1, false),
      ),
    ],
  },
  "prioritized-list-max-allocation-limit-request": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, AllocationResultsMaxSize),
          subRequest(subReq1, classA, AllocationResultsMaxSize / 2),
        ),
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, AllocationResultsMaxSize),
          subRequest(subReq1, classA, AllocationResultsMaxSize / 2),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithMultipleDevices(slice1, node1, pool1, driverA, AllocationResultsMaxSize * 2),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        ...multipleDeviceAllocationResults(req0SubReq1, driverA, pool1, AllocationResultsMaxSize / 2, 0),
        ...multipleDeviceAllocationResults(
          req1SubReq1,
          driverA,
          pool1,
          AllocationResultsMaxSize / 2,
          AllocationResultsMaxSize / 2,
        ),
      ),
    ],
    expectNumAllocateOneInvocations: 75,
  },
  "prioritized-list-max-allocation-allocation-mode-all": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 0).withAllocationMode("All"),
          subRequest(subReq1, classA, 2),
        ),
        deviceRequest(req1, classB, 2),
      ),
    ],
    classes: [class_(classA, driverA), class_(classB, driverB)],
    slices: unwrapResourceSlices(
      sliceWithMultipleDevices(slice1, node1, pool1, driverA, AllocationResultsMaxSize - 1),
      sliceWithMultipleDevices(slice2, node1, pool2, driverB, 2),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, "device-0", false),
        deviceAllocationResult(req0SubReq1, driverA, pool1, "device-1", false),
        deviceAllocationResult(req1, driverB, pool2, "device-0", false),
        deviceAllocationResult(req1, driverB, pool2, "device-1", false),
      ),
    ],
    expectNumAllocateOneInvocations: 42,
  },
  "device-binding-conditions": {
    features: { deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withBindingConditions(["IsPrepare"], ["BindingFailed"]),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "binding-conditions-multiple-devices": {
    features: { deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 2), request(req1, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withBindingConditions(["IsPrepare"], ["BindingFailed"]),
        device(device2, null, null).withBindingConditions(["IsPrepare2"], ["BindingFailed2"]),
        device(device3, null, null).withBindingConditions(["IsPrepare3"], ["BindingFailed3"]),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device2,
              ["IsPrepare2"],
              ["BindingFailed2"],
            ),
            deviceRequestAllocationResultWithBindingConditions(
              req1,
              driverA,
              pool1,
              device3,
              ["IsPrepare3"],
              ["BindingFailed3"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "binding-conditions-with-and-without": {
    features: { deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null).withBindingConditions(["IsPrepare"], ["BindingFailed"]),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceRequestAllocationResultWithBindingConditions(
              req1,
              driverA,
              pool1,
              device2,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "binding-conditions-without-feature-gate": {
    features: { deviceBindingAndStatus: false },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withBindingConditions(["IsPrepare"], ["BindingFailed"]),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "node-restriction": {
    features: { deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        nodeLabelSelector(planetKey, planetValueEarth),
        pool1,
        driverA,
        device(device1, null, null).withBindsToNode(true),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "partitionable-devices-with-binding-conditions": {
    features: { partitionableDevices: true, deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsPrepare"], ["BindingFailed"]),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "partitionable-devices-with-binding-conditions-multiple": {
    features: { partitionableDevices: true, deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 2))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsPrepare"], ["BindingFailed"]),
        device(device2, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsPrepare2"], ["BindingFailed2"]),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device2,
              ["IsPrepare2"],
              ["BindingFailed2"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "partitionable-devices-with-binding-conditions-some-devices-no-conditions": {
    features: { partitionableDevices: true, deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 3))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "2Gi" }))
          .withBindingConditions(["IsPrepare"], ["BindingFailed"]),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "2Gi" }),
        ),
        device(device3, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsReady"], ["BindingTimeout"]),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
            deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, null, null),
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device3,
              ["IsReady"],
              ["BindingTimeout"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "partitionable-devices-with-binding-conditions-multi-slices": {
    features: { partitionableDevices: true, deviceBindingAndStatus: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 2))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice4,
        node1,
        resourcePool(pool1, 4),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsPrepare"], ["BindingFailed"]),
      ),
      sliceWithCounterSets(
        slice3,
        node1,
        resourcePool(pool1, 4),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 4),
        driverA,
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet2, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice1,
        node1,
        resourcePool(pool1, 4),
        driverA,
        counterSet(counterSet2, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, null, null),
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "partitionable-devices-with-binding-conditions-and-taints": {
    features: { partitionableDevices: true, deviceBindingAndStatus: true, deviceTaints: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 2))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsPrepare"], ["BindingFailed"])
          .withTaints({ key: "key1", value: "value1", effect: "NoSchedule" }),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, { memory: "8Gi" })),
    ),
    node: node(node1, region1),
    expectResults: null,
  },
  "partitionable-devices-with-binding-conditions-and-taints-tolerated": {
    features: { partitionableDevices: true, deviceBindingAndStatus: true, deviceTaints: true },
    claimsToAllocate: [
      claimWithRequests(claim0, null, request(req0, classA, 2)).withTolerations(tolerationNoScheduleKey1),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withBindingConditions(["IsPrepare"], ["BindingFailed"])
          .withTaints({ key: "key1", value: "value1", effect: "NoSchedule" }),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "4Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      {
        devices: {
          results: [
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device1,
              ["IsPrepare"],
              ["BindingFailed"],
              tolerationNoScheduleKey1,
            ),
            deviceRequestAllocationResultWithBindingConditions(
              req0,
              driverA,
              pool1,
              device2,
              null,
              null,
              tolerationNoScheduleKey1,
            ),
          ],
        },
        nodeSelector: localNodeSelector(node1),
      },
    ],
  },
  "consumable-capacity-disabled-feature": {
    features: { deviceBindingAndStatus: true }, // add to forcefully use experimenting allocator
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError:
      "claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled",
  },
  "consumable-capacity-disabled-feature-with-prioritized-list": {
    features: { prioritizedList: true, deviceBindingAndStatus: true }, // add to forcefully use experimenting allocator
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1).withCapacityRequest("1"),
          subRequest(subReq1, classA, 1).withCapacityRequest("1"),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA)),
    node: node(node1, region1),
    expectResults: null,
    expectError:
      "claim claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is disabled",
  },
  "consumable-capacity-multi-allocatable-device-with-missing-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity1]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest("1"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity1]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1)),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      // both share the same device; no capacity is consumed since none is defined.
      allocationResult(localNodeSelector(node1), share(req0, device1, null)),
      allocationResult(localNodeSelector(node1), share(req0, device1, null)),
    ],
  },
  "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1)),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
        device(device2, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      // both should get full capacity for different devices
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "1" })),
      allocationResult(localNodeSelector(node1), share(req0, device2, { [capacity0]: "1" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1)),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "2" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [], // should not satisfy both
  },
  "consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "2" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "1" })),
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "1" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, null, request(req0, classA, 1)),
      claimWithRequests(claim1, null, request(req0, classA, 1)),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      // both requests applied the default request (two)
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" })),
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-with-zero-request-policy": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, null, request(req0, classA, 1)),
      claimWithRequests(claim1, null, request(req0, classA, 1)),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyValidValues("0", { [capacity0]: "1" }, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "0" })),
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "0" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-violates-zero-request-policy": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyValidValues("0", { [capacity0]: "1" }, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      // both requests allocated to the same device; capacity must be rounded up to default minimum (two)
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" })),
      allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-with-range-policy-step": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("3"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
    ),
    node: node(node1, region1),
    // capacity must be rounded up with Step (3 to 2+2 = 4)
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "4" }))],
  },
  "consumable-capacity-multi-allocatable-device-with-valid-values-policy": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyValidValues("1", { [capacity0]: "4" }, ["2"]),
      ),
    ),
    node: node(node1, region1),
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" }))],
  },
  "consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        // capacity value must be explicitly added
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyValidValues("1", { [capacity0]: "3" }, ["3"]),
      ),
    ),
    node: node(node1, region1),
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "3" }))],
  },
  "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2")),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("6"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "10" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [], // default max requestPolicy is 4, should not allocate even though 6 < 10
  },
  "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2"))],
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "2" } },
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" }))],
  },
  "consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2"))],
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "2" } },
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
        device(device2, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device2, { [capacity0]: "2" }))],
  },
  "consumable-capacity-with-multi-allocatable-device-backtrack": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      // 2 requests with two per each
      claim(claim0)
        .withConstraints({ matchAttribute: stringAttribute })
        .withRequests(
          deviceRequest(req0, classA, 1).withCapacityRequest("2"),
          deviceRequest(req1, classA, 1).withCapacityRequest("2"),
        ),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2")),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device2, null, { stringAttribute: { string: "stringAttributeValue1" } })
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
        device(device1, null, { stringAttribute: { string: "stringAttributeValue2" } })
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, { [capacity0]: "2" }),
        share(req1, device1, { [capacity0]: "2" }),
      ),
      allocationResult(localNodeSelector(node1), share(req0, device2, { [capacity0]: "2" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-with-subrequest": {
    features: { consumableCapacity: true, prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1).withCapacityRequest("4"),
          subRequest(subReq1, classA, 1).withCapacityRequest("2"),
          subRequest(subReq1, classA, 1),
        ),
      ),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(localNodeSelector(node1), share(req0SubReq1, device1, { [capacity0]: "2" })),
    ],
  },
  "consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2"))],
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "2" } },
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest("2"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "2" }, null).withAllowMultipleAllocations(),
        device(device2, null, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    // only match device is allocated
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" }))],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest("2"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "2" }, null).withAllowMultipleAllocations(),
        device(device2, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    // only match device is allocated
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device1, { [capacity0]: "2" }))],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1).withCapacityRequest("1"),
        allDeviceRequest(req1, classA).withCapacityRequest("1"),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "2" }, null).withAllowMultipleAllocations(),
        device(device2, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, { [capacity0]: "1" }),
        share(req1, device1, { [capacity0]: "1" }),
        share(req1, device2, { [capacity0]: "1" }),
      ),
    ],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient": {
    features: { consumableCapacity: true },
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "1" } },
    claimsToAllocate: [claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest("1"))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "2" }, null).withAllowMultipleAllocations(),
        device(device2, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, { [capacity0]: "1" }),
        share(req0, device2, { [capacity0]: "1" }),
      ),
    ],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1).withCapacityRequest("1"),
        allDeviceRequest(req1, classA).withCapacityRequest("1"),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
        device(device2, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient": {
    features: { consumableCapacity: true },
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "1" } },
    claimsToAllocate: [claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest("1"))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
        device(device2, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [allocationResult(localNodeSelector(node1), share(req0, device2, { [capacity0]: "1" }))],
  },
  "consumable-capacity-dedicated-device-with-consumable-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, false)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, { [capacity0]: "1" }, null)),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
      claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1")),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, false)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, false)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, { [capacity0]: "1" }, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated": {
    features: { consumableCapacity: true },
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null)
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable": {
    features: { consumableCapacity: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("1"))],
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "1" } },
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "allow-multiple-allocations-with-partitionable-device": {
    features: { prioritizedList: true, partitionableDevices: true, consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1),
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")),
        ),
      ),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withAllowMultipleAllocations(),
        device(device2, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "6Gi" }))
          .withAllowMultipleAllocations(),
        device(device3, fromCounters, null)
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { memory: "4Gi" }))
          .withAllowMultipleAllocations(),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, { memory: "4Gi" }),
        share(req1SubReq1, device3, { memory: "4Gi" }),
      ),
    ],
  },
  "allow-multiple-allocations-with-shared-device-counter-cross-cycle": {
    features: { partitionableDevices: true, consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1)
          .withCapacityRequest("1")
          .withSelectors(cel(`device.attributes["${driverA}"].mode == "b"`)),
      ),
    ],
    allocatedSharedDeviceIDs: [makeSharedDeviceID(makeDeviceID(driverA, pool1, device1), fixedShareID)],
    allocatedCapacityDevices: { [makeDeviceID(driverA, pool1, device1)]: { [capacity0]: "1" } },
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, { mode: { string: "a" } })
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { [capacity0]: "1" }))
          .withAllowMultipleAllocations(),
        device(device2, fromCounters, { mode: { string: "b" } })
          .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, { [capacity0]: "1" }))
          .withAllowMultipleAllocations(),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { [capacity0]: "1" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "consumable-capacity-with-partitionable-device-multiple-capacity-pools": {
    // This test case combines integration of PrioritizedList, PartitionableDevices, and ConsumableCapacity features.
    features: { prioritizedList: true, partitionableDevices: true, consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        deviceRequest(req0, classA, 1).withCapacityRequest("1"),
        deviceRequest(req2, classA, 1).withCapacityRequest("2"),
        requestWithPrioritizedList(
          req1,
          subRequest(
            subReq0,
            classA,
            1,
            cel(`device.capacity["${driverA}"]["${capacity0}"].compareTo(quantity("4")) >= 0`),
          ).withCapacityRequest("1"),
          subRequest(
            subReq1,
            classA,
            1,
            cel(`device.capacity["${driverA}"]["${capacity0}"].compareTo(quantity("2")) >= 0`),
          ).withCapacityRequest("1"),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, fromCounters, null)
          .withDeviceCounterConsumption(
            deviceCounterConsumption(counterSet1, { [capacity0]: "2" }),
            deviceCounterConsumption(counterSet2, { [capacity1]: "4" }),
          )
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity1]: "4" }),
        device(device2, fromCounters, null)
          .withDeviceCounterConsumption(
            deviceCounterConsumption(counterSet1, { [capacity0]: "4" }),
            deviceCounterConsumption(counterSet2, { [capacity1]: "4" }),
          )
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity1]: "4" }),
        device(device3, fromCounters, null)
          .withDeviceCounterConsumption(
            deviceCounterConsumption(counterSet1, { [capacity0]: "2" }),
            deviceCounterConsumption(counterSet2, { [capacity1]: "4" }),
          )
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity1]: "4" }),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { [capacity0]: "4" }),
        counterSet(counterSet2, { [capacity1]: "8" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, { [capacity0]: "1", [capacity1]: "2" }),
        share(req2, device3, { [capacity0]: "2", [capacity1]: "2" }),
        share(req1SubReq1, device1, { [capacity0]: "1", [capacity1]: "2" }),
      ),
    ],
  },
  "with-distinct-constraints": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints(
          { distinctAttribute: boolAttribute, requests: [req0, req1] },
          { distinctAttribute: versionAttribute, requests: [req0, req1, req2] },
          { distinctAttribute: intAttribute, requests: [req0, req1, req2, req3] },
        )
        .withRequests(
          deviceRequest(req0, classA, 1),
          deviceRequest(req1, classA, 1),
          deviceRequest(req2, classA, 1),
          deviceRequest(req3, classA, 1),
        ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, {
          driverVersion: { version: "1.0.0" },
          numa: { int: 0 },
          boolAttribute: { bool: true },
        }).withAllowMultipleAllocations(),
        device(device2, null, {
          driverVersion: { version: "1.0.1" },
          numa: { int: 1 },
          boolAttribute: { bool: false },
        }).withAllowMultipleAllocations(),
        device(device3, null, {
          driverVersion: { version: "1.0.2" },
          numa: { int: 2 },
          boolAttribute: { bool: true },
        }).withAllowMultipleAllocations(),
        device(device4, null, {
          driverVersion: { version: "1.0.0" },
          numa: { int: 3 },
          boolAttribute: { bool: true },
        }).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, null),
        share(req1, device2, null),
        share(req2, device3, null),
        share(req3, device4, null),
      ),
    ],
  },
  "with-distinct-constraints-attribute-not-set": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ distinctAttribute: boolAttribute, requests: [req0] })
        .withRequests(deviceRequest(req0, classA, 1)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "with-distinct-constraints-unknown-type-attribute": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ distinctAttribute: boolAttribute, requests: [req0] })
        .withRequests(deviceRequest(req0, classA, 1)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { boolAttribute: {} }).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
    expectError: "unsupported attribute value",
  },
  "with-distinct-constraints-with-subrequests": {
    features: { consumableCapacity: true, prioritizedList: true },
    // There are three requests, all preferring the boolAttribute.
    // However, the DeviceConstraint applies only to the first two requests.
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ distinctAttribute: boolAttribute, requests: [req0, req1] })
        .withRequests(
          requestWithPrioritizedList(
            req0,
            subRequest(subReq0, classA, 1, boolAttributeTrue),
            subRequest(subReq1, classA, 1),
          ),
          requestWithPrioritizedList(
            req1,
            subRequest(subReq0, classA, 1, boolAttributeTrue),
            subRequest(subReq1, classA, 1),
          ),
          requestWithPrioritizedList(
            req2,
            subRequest(subReq0, classA, 1, boolAttributeTrue),
            subRequest(subReq1, classA, 1),
          ),
        ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { boolAttribute: { bool: true } }).withAllowMultipleAllocations(),
        device(device2, null, { boolAttribute: { bool: false } }).withAllowMultipleAllocations(),
      ),
    ),
    node: node(node1, region1),
    // Because the constraint applies only to req0 and req1,
    // subreq0 cannot satisfy req1, so device2 (subreq1) is allocated instead.
    // However, req2 has no such constraint and can use device1 (subreq0).
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0SubReq0, device1, null),
        share(req1SubReq1, device2, null),
        share(req2SubReq0, device1, null),
      ),
    ],
  },
  "distinct-constraint-one-multi-allocatable-device-with-distinct-constraint": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ distinctAttribute: stringAttribute })
        .withRequests(
          deviceRequest(req0, classA, 1).withCapacityRequest("1"),
          deviceRequest(req1, classA, 1).withCapacityRequest("1"),
        ),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "stringAttributeValue" } })
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "2" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
  },
  "distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claim(claim0)
        .withConstraints({ distinctAttribute: stringAttribute })
        .withRequests(
          deviceRequest(req0, classA, 1).withCapacityRequest("2"),
          deviceRequest(req1, classA, 1).withCapacityRequest("2"),
        ),
    ],
    classes: [classWithAllowMultipleAllocations(classA, driverA, true)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, { stringAttribute: { string: "stringAttributeValue1" } })
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device2, null, { stringAttribute: { string: "stringAttributeValue2" } })
          .withAllowMultipleAllocations()
          .withCapacityRequestPolicyRange({ [capacity0]: "4" }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        share(req0, device1, { [capacity0]: "2" }),
        share(req1, device2, { [capacity0]: "2" }),
      ),
    ],
  },
  // Test cases for DRAListTypeAttributes features (matchAttributes/distinctAttributes)
  "list-attributes-match-constaint-scalar-string-values": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { string: "value1" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-match-constaint-list-of-string-values-with-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2", "value3"] } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value3", "value4"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-match-constaint-list-of-string-values-with-partially-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 3)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2"] } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value3"] } }),
        device(device3, null, { stringAttribute: { strings: ["value3", "value1"] } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-match-constaint-list-of-string-values-without-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [{ matchAttribute: stringAttribute }],
        request(req0, classA, 1),
        request(req0, classA, 1),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2"] } }),
        device(device2, null, { stringAttribute: { strings: ["value3", "value4"] } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { strings: ["value1", "value2"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-partially-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 3)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { strings: ["value1", "value2"] } }),
        device(device3, null, { stringAttribute: { strings: ["value2", "value3"] } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-without-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value3"] } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-match-constaint-list-of-int-values-with-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: intAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { numa: { ints: [0, 1, 2] } }),
        device(device2, null, { numa: { ints: [1, 2, 3] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-match-constaint-list-of-bool-values-with-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: boolAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { boolAttribute: { bools: [true, false] } }),
        device(device2, null, { boolAttribute: { bools: [true] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-match-constaint-list-of-version-values-with-common-elements": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: versionAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { driverVersion: { versions: ["1.0.0", "1.1.0", "2.0.0"] } }),
        device(device2, null, { driverVersion: { versions: ["1.1.0", "2.0.0", "2.1.0"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-match-constaint-with-empty-or-unknown-type": {
    features: { listTypeAttributes: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: {} }),
        device(device2, null, { stringAttribute: { strings: [] } }),
      ),
    ),
    node: node(node1, region1),
    expectError: "unsupported attribute value",
  },
  "list-attributes-disabled-match-constraint-with-lists": {
    features: {},
    claimsToAllocate: [
      claimWithRequests(claim0, [{ matchAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2", "value3"] } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value3", "value4"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
    expectError: "unsupported attribute value",
  },
  "list-attributes-distinct-constraint-scalar-string-values-all-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { string: "value2" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "list-attributes-distinct-constraint-scalar-string-values-not-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { string: "value1" } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-distinct-constraint-list-of-string-values-all-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2"] } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value3"] } }),
        device(device3, null, { stringAttribute: { strings: ["value3", "value4"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "list-attributes-distinct-constraint-list-of-string-values-with-common-elements": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2", "value3"] } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value4", "value5"] } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-distinct-constraint-mixed-scalar-and-list-all-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { strings: ["value1", "value2"] } }),
        device(device3, null, { stringAttribute: { strings: ["value2", "value3"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "list-attributes-distinct-constraint-mixed-scalar-and-list-with-common-elements": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { string: "value1" } }),
        device(device2, null, { stringAttribute: { strings: ["value1", "value2"] } }),
      ),
    ),
    node: node(node1, region1),
  },
  "list-attributes-distinct-constraint-list-of-int-values-all-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: intAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { numa: { ints: [0, 1] } }),
        device(device2, null, { numa: { ints: [1, 2] } }),
        device(device3, null, { numa: { ints: [2, 3] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "list-attributes-distinct-constraint-list-of-bool-values-all-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: boolAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { boolAttribute: { bools: [true] } }),
        device(device2, null, { boolAttribute: { bools: [true, false] } }),
        device(device3, null, { boolAttribute: { bools: [false] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "list-attributes-distinct-constraint-list-of-version-values-all-distinct": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: versionAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { driverVersion: { versions: ["1.0.0", "1.1.0"] } }),
        device(device2, null, { driverVersion: { versions: ["1.1.0", "2.0.0"] } }),
        device(device3, null, { driverVersion: { versions: ["2.0.0", "2.1.0"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "list-attributes-distinct-constaint-with-empty-or-unknown-type": {
    features: { listTypeAttributes: true, consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: versionAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { driverVersion: { versions: [] } }),
        device(device2, null, { driverVersion: { versions: undefined } }),
      ),
    ),
    node: node(node1, region1),
    expectError: "unsupported attribute value",
  },
  "list-attributes-disabled-distinct-constraint-with-lists": {
    features: { consumableCapacity: true },
    claimsToAllocate: [
      claimWithRequests(claim0, [{ distinctAttribute: stringAttribute }], request(req0, classA, 2)),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { stringAttribute: { strings: ["value1", "value2", "value3"] } }),
        device(device2, null, { stringAttribute: { strings: ["value2", "value3", "value4"] } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [],
    expectError: "unsupported attribute value",
  },
  "allocation-mode-all-with-multi-host-resource-pool": {
    claimsToAllocate: [
      claimWithRequests(claim0, null, {
        name: req0,
        exactly: { allocationMode: "All", deviceClassName: classA },
      }),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice2, node2, resourcePool(pool1, 2), driverA, device(device2, null, null)),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "multi-host-resource-pool-with-stale-slice-for-current-node": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      withPool(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null)), 1, 2),
      withPool(sliceWithDevices(slice2, node2, pool1, driverA, device(device2, null, null)), 2, 2),
    ),
    node: node(node1, region1),
  },
  // update-from-node-1-to-node-2 and vice-versa is dangerous, DRA drivers should not do this:
  // there is no guarantee that the scheduler sees the change and then might allocate a device for
  // a node where it is no longer available.
  "multi-host-resource-pool-complete-update-from-node-1-to-node-2": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      // Node 1, generation 1.
      withPool(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null)), 1, 2),
      withPool(sliceWithDevices(slice1, node1, pool1, driverA, device(device2, null, null)), 1, 2),
      // Node 2, generation 2.
      withPool(sliceWithDevices(slice2, node2, pool1, driverA, device(device1, null, null)), 2, 2),
      withPool(sliceWithDevices(slice2, node2, pool1, driverA, device(device2, null, null)), 2, 2),
    ),
    node: node(node1, region1),
    // We'd like this to *not* be allocated, but the current implementation ignores the updated
    // slices. Allocating from the old pool is also what would happen if the scheduler hadn't
    // received the update yet, so DRA drivers shouldn't depend on better handling of this situation.
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "multi-host-resource-pool-complete-update-from-node-2-to-node-1": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      // Node 2, generation 1.
      withPool(sliceWithDevices(slice1, node2, pool1, driverA, device(device1, null, null)), 1, 2),
      withPool(sliceWithDevices(slice1, node2, pool1, driverA, device(device2, null, null)), 1, 2),
      // Node 1, generation 2.
      withPool(sliceWithDevices(slice2, node1, pool1, driverA, device(device1, null, null)), 2, 2),
      withPool(sliceWithDevices(slice2, node1, pool1, driverA, device(device2, null, null)), 2, 2),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "multi-host-resource-pool-incomplete-update-from-node-1-to-node-2": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      // Node 1, generation 1.
      withPool(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null)), 1, 2),
      withPool(sliceWithDevices(slice1, node1, pool1, driverA, device(device2, null, null)), 1, 2),
      // Node 2, generation 2.
      withPool(sliceWithDevices(slice2, node2, pool1, driverA, device(device1, null, null)), 2, 2),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device1, false),
      ),
    ],
  },
  "multi-host-resource-pool-incomplete-update-from-node-2-to-node-1": {
    claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      // Node 2, generation 1.
      withPool(sliceWithDevices(slice1, node2, pool1, driverA, device(device1, null, null)), 1, 2),
      withPool(sliceWithDevices(slice1, node2, pool1, driverA, device(device2, null, null)), 1, 2),
      // Node 1, generation 2.
      withPool(sliceWithDevices(slice2, node1, pool1, driverA, device(device1, null, null)), 2, 2),
    ),
    node: node(node1, region1),
    // This does not get allocated since slice2 is incomplete.
  },
  "partitionable-devices-same-counter-set-name-in-different-resource-slices": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, resourcePool(pool1, 4), driverA, device(device1, null, null)),
      sliceWithCounterSets(slice2, node1, resourcePool(pool1, 4), driverA, counterSet(counterSet1, {})),
      sliceWithDevices(slice3, node1, resourcePool(pool1, 4), driverA, device(device2, null, null)),
      sliceWithCounterSets(slice4, node1, resourcePool(pool1, 4), driverA, counterSet(counterSet1, {})),
    ),
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "partitionable-devices-device-counter-consumption-references-unknown-counter-set": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, {})),
      ),
      sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, counterSet(counterSet1, {})),
    ),
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "8Gi" }),
        ),
      ),
      sliceWithCounterSets(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        counterSet(counterSet1, { "other-memory": "8Gi" }),
      ),
    ),
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "8Gi" }),
        ),
      ),
      sliceWithCounterSets(slice2, node1, pool2, driverA, counterSet(counterSet1, { memory: "8Gi" })),
    ),
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "partitionable-devices-devices-on-different-nodes-consume-same-counter-set": {
    features: { partitionableDevices: true, prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        requestWithPrioritizedList(
          req0,
          subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")),
          subRequest(subReq1, classA, 1, memoryAtLeast("2Gi")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithCounterSets(
        slice1,
        node1,
        resourcePool(pool1, 3),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 3),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "2Gi" }),
        ),
      ),
      sliceWithDevices(
        slice3,
        node2,
        resourcePool(pool1, 3),
        driverA,
        device(device3, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
      ),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device3)],
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false),
      ),
    ],
  },
  "partitionable-devices-devices-consume-counter-set-in-different-nodes": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithCounterSets(
        slice1,
        node1,
        resourcePool(pool1, 3),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 3),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
      ),
      sliceWithDevices(
        slice3,
        node2,
        resourcePool(pool1, 3),
        driverA,
        device(device2, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
        device(device3, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "2Gi" }),
        ),
      ),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool1, device1)],
    node: node(node2, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node2),
        deviceAllocationResult(req0, driverA, pool1, device3, false),
      ),
    ],
  },
  "partitionable-devices-validation-error-on-non-targeting-slice": {
    features: { partitionableDevices: true },
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithCounterSets(
        slice1,
        node1,
        resourcePool(pool1, 3),
        driverA,
        counterSet(counterSet1, { memory: "8Gi" }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 3),
        driverA,
        device(device1, fromCounters, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet1, { memory: "6Gi" }),
        ),
      ),
      sliceWithDevices(
        slice3,
        node2,
        resourcePool(pool1, 3),
        driverA,
        device(device3, null, null).withDeviceCounterConsumption(
          deviceCounterConsumption(counterSet2, { memory: "6Gi" }),
        ),
      ),
    ),
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "different-resourceslices-in-pool-can-target-different-nodes": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node2, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device2, null, null)),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool1, device2, false),
      ),
    ],
  },
  "invalid-pool-is-ok-if-devices-can-be-allocated-from-other": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice3, node1, resourcePool(pool2, 1), driverA, device(device2, null, null)),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool2, device2, false),
      ),
    ],
  },
  "invalid-pool-is-error-if-no-other-device-can-be-allocated": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice3, node1, resourcePool(pool2, 1), driverA, device(device2, null, null)),
    ),
    allocatedDevices: [makeDeviceID(driverA, pool2, device2)],
    node: node(node1, region1),
    expectError: "invalid resource pools were encountered",
  },
  "no-allocation-from-incomplete-pools": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 1))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
    ),
    node: node(node1, region1),
  },
  "check-combinations-within-single-request-single-pool-single-slice": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 5))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, null),
        device(device2, null, null),
        device(device3, null, null),
        device(device4, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
    expectNumAllocateOneInvocations: 16,
  },
  "check-combinations-within-single-request-single-pool-multiple-slices": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 5))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, null),
        device(device2, null, null),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device3, null, null),
        device(device4, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
    expectNumAllocateOneInvocations: 16,
  },
  "check-combinations-within-single-request-multiple-pools-multiple-slices": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 5))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
      sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device2, null, null)),
      sliceWithDevices(
        slice3,
        node1,
        pool2,
        driverA,
        device(device3, null, null),
        device(device4, null, null),
      ),
    ),
    node: node(node1, region1),
    expectResults: null,
    expectNumAllocateOneInvocations: 16,
  },
  "check-combinations-within-single-request-many-pools": {
    claimsToAllocate: [claimWithRequests(claim0, null, request(req0, classA, 5))],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null)),
      sliceWithDevices(slice2, node1, pool2, driverA, device(device2, null, null)),
      sliceWithDevices(slice3, node1, pool3, driverA, device(device3, null, null)),
      sliceWithDevices(slice4, node1, pool4, driverA, device(device4, null, null)),
    ),
    node: node(node1, region1),
    expectResults: null,
    expectNumAllocateOneInvocations: 16,
  },
  "check-combinations-with-backtracking": {
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        // req-1 needs two generic devices.
        request(req1, classA, 2),
        // req-2 needs a specific device.
        request(req2, classA, 1, typeIs("X")),
      ),
    ],
    classes: [class_(classA, driverA)],
    // The order of devices is chosen such that the allocator will initially pick {device1,
    // device2} for req1. This will fail because req-2 needs device1. The allocator has to
    // backtrack. The correct solution is {device2, device3} for req-1 and {device1} for req-2.
    // The optimized allocator avoids testing {device2, device1} for req-1 and thus finds the
    // solution faster.
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { type: { string: "X" } }),
        device(device2, null, { type: { string: "Y" } }),
        device(device3, null, { type: { string: "Y" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req1, driverA, pool1, device2, false),
        deviceAllocationResult(req1, driverA, pool1, device3, false),
        deviceAllocationResult(req2, driverA, pool1, device1, false),
      ),
    ],
    expectNumAllocateOneInvocations: 12,
  },
  "check-combinations-with-backtracking-across-slices-and-pools": {
    features: { deviceBindingAndStatus: true },
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        null,
        // req-1 needs two generic devices.
        request(req1, classA, 2),
        // req-2 needs a specific device.
        request(req2, classA, 1, typeIs("X")),
      ),
    ],
    classes: [class_(classA, driverA)],
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device1, null, { type: { string: "X" } }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        resourcePool(pool1, 2),
        driverA,
        device(device2, null, { type: { string: "Y" } }),
      ),
      // Use a binding condition here to make sure pool2 is searched after pool1 when trying to
      // allocate devices. This makes sure we see the same results every time.
      sliceWithDevices(
        slice3,
        node1,
        pool2,
        driverA,
        device(device3, null, { type: { string: "Y" } }).withBindingConditions(["IsPrepare"], []),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req1, driverA, pool1, device2, false),
        deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool2, device3, ["IsPrepare"], []),
        deviceAllocationResult(req2, driverA, pool1, device1, false),
      ),
    ],
    expectNumAllocateOneInvocations: 12,
  },
  "check-combinations-with-prioritized-list": {
    features: { prioritizedList: true },
    claimsToAllocate: [
      claim(claim0).withRequests(
        // The first alternative can't be satisfied since there aren't enough devices
        // of type Y, but the allocator will try all devices before finding out.
        requestWithPrioritizedList(
          req1,
          subRequest(subReq0, classA, 3, typeIs("Y")),
          subRequest(subReq1, classA, 2),
        ),
        // The first subrequest asks for too many devices, so the second have to be chosen.
        requestWithPrioritizedList(
          req2,
          subRequest(subReq0, classA, 2),
          subRequest(subReq1, classA, 1, typeIs("X")),
        ),
      ),
    ],
    classes: [class_(classA, driverA)],
    // The order of devices is chosen such that the allocator will initially pick {device1,
    // device2} for req1. This will fail because req-2 needs device1. The allocator has to
    // backtrack. The correct solution is {device2, device3} for req-1 and {device1} for req-2.
    // The optimized allocator avoids testing {device2, device1} for req-1 and thus finds the
    // solution faster.
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device(device1, null, { type: { string: "X" } }),
        device(device2, null, { type: { string: "Y" } }),
        device(device3, null, { type: { string: "Y" } }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false),
        deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
        deviceAllocationResult(req2SubReq1, driverA, pool1, device1, false),
      ),
    ],
    expectNumAllocateOneInvocations: 26,
  },
};

describe("TestAllocator", () => {
  for (const [name, tc] of Object.entries(testcases)) {
    it(name, () => {
      runAllocatorTestCase(tc);
    });
  }
});

// kubesched's own: every case twice through one PoolCache, with the same node, slice and class
// objects; the second run takes the pools, candidates and selector results the first one kept.
describe("TestAllocator through a PoolCache, each case twice", () => {
  for (const [name, tc] of Object.entries(testcases)) {
    it(name, () => {
      const kept = { poolCache: new PoolCache(), classes: (tc.classes ?? []).map((c) => structuredClone(c)) };
      const again = { ...tc, node: tc.node ?? node(node1, region1) };
      runAllocatorTestCase(again, kept);
      runAllocatorTestCase(again, kept);
    });
  }
});

// kubesched's own: every case three times through one PoolCache and one VersionedDeviceSet (the
// allocated devices as the scheduler keeps them between cycles): the later runs take the search
// the first one kept (SearchTable), with the same results.
describe("TestAllocator through a PoolCache and a VersionedDeviceSet, each case three times", () => {
  for (const [name, tc] of Object.entries(testcases)) {
    it(name, () => {
      const allocatedDevices = new VersionedDeviceSet();
      for (const id of tc.allocatedDevices ?? []) allocatedDevices.add(id);
      const kept = {
        poolCache: new PoolCache(),
        classes: (tc.classes ?? []).map((c) => structuredClone(c)),
        allocatedDevices,
      };
      const again = { ...tc, node: tc.node ?? node(node1, region1) };
      runAllocatorTestCase(again, kept);
      runAllocatorTestCase(again, kept);
      runAllocatorTestCase(again, kept);
    });
  }
});

// upstream: the "interrupt" subtests of TestAllocator. The context becomes an AbortSignal: a
// deadline or timeout that has passed, a cancel, or none.
describe("TestAllocator interrupt", () => {
  const cases: Record<string, () => AbortSignal | undefined> = {
    off: () => undefined,
    timeout: () => AbortSignal.abort(new DOMException("signal timed out", "TimeoutError")),
    deadline: () => AbortSignal.abort(new Error("context deadline exceeded")),
    cancel: () => {
      const controller = new AbortController();
      controller.abort(new Error("context canceled"));
      return controller.signal;
    },
  };
  for (const [name, makeSignal] of Object.entries(cases)) {
    it(name, () => {
      // A smaller variant of kubernetes/kubernetes#131730: six devices out of five, so the whole
      // search runs unless it is interrupted.
      const allocator = newAllocator({
        features: {},
        allocatedState: { allocatedDevices: new Set() },
        classLister: classLister([class_(classA, driverA)]),
        slices: unwrapResourceSlices(
          sliceWithDevices(
            slice1,
            node1,
            pool1,
            driverA,
            device(device1, null, null),
            device(device2, null, null),
            device(device3, null, null),
            device(device4, null, null),
            device("device-5", null, null),
          ),
        ),
        celCache: new Cache(1, { enableConsumableCapacity: false, enableListTypeAttributes: false }),
      });
      const signal = makeSignal();
      const claims = [claimWithRequests(claim0, null, request(req0, classA, 6)).obj()];
      if (signal === undefined) {
        expect(allocator.allocate(node(node1, region1), claims)).toBeNull();
        return;
      }
      let error: unknown;
      try {
        allocator.allocate(node(node1, region1), claims, signal);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(`filter operation aborted: ${(signal.reason as Error).message}`);
      expect((error as Error).cause).toBe(signal.reason);
    });
  }
});
