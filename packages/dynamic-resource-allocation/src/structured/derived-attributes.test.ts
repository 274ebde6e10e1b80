// DRADerivedAttributes in the allocator: a request's derived attributes, evaluated per device
// after its selectors, are what the claim's constraints compare (shadowing a physical attribute
// of the same name); a runtime error aborts the allocation. The first case is
// test/integration/dra/derived_attributes.go's scenario (kubernetes/kubernetes 55829751311 in the
// index: "derived/sharedNumaNode"); the others are kubesched's own (no stored allocator_testing.go
// holds derived-attribute cases).
import type { DeviceAttribute, DeviceRequest } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { allocatorChannel } from "./allocator";
import {
  type AllocatorTestCase,
  allocationResult,
  claim0,
  claimWithRequests,
  deviceClass as class_,
  classA,
  classB,
  device,
  deviceAllocationResult,
  driverA,
  driverB,
  localNodeSelector,
  node,
  node1,
  pool1,
  region1,
  runAllocatorTestCase,
  slice1,
  slice2,
  sliceWithDevices,
  unwrapResourceSlices,
} from "./allocator-testing";

const derived = (req: DeviceRequest, name: string, expression: string): DeviceRequest => ({
  ...req,
  exactly: { ...req.exactly!, derivedAttributes: [{ name, expression }] },
});
const one = (name: string, className: string): DeviceRequest => ({
  name,
  exactly: { deviceClassName: className, allocationMode: "ExactCount", count: 1 },
});
const str = (s: string): DeviceAttribute => ({ string: s });

const slices = unwrapResourceSlices(
  sliceWithDevices(
    slice1,
    node1,
    pool1,
    driverA,
    device("device-a1", null, { "dra.example.com/numa": str("numa-0") }),
    device("device-a2", null, { "dra.example.com/numa": str("numa-1") }),
  ),
  sliceWithDevices(
    slice2,
    node1,
    pool1,
    driverB,
    device("device-b1", null, { "dra.example.com/numaNode": str("numa-1") }),
    device("device-b2", null, { "dra.example.com/numaNode": str("numa-2") }),
  ),
);
const classes = [class_(classA, driverA), class_(classB, driverB)];
const key = "derived/sharedNumaNode";
const aligned = claimWithRequests(
  claim0,
  [{ requests: ["req-a", "req-b"], matchAttribute: key }],
  derived(one("req-a", classA), key, 'device.attributes["dra.example.com"].numa'),
  derived(one("req-b", classB), key, 'device.attributes["dra.example.com"].numaNode'),
);
const on = { derivedAttributes: true };

const cases: Record<string, AllocatorTestCase> = {
  "derived-attributes-align-devices-of-two-drivers": {
    features: on,
    claimsToAllocate: [aligned],
    classes,
    slices,
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult("req-a", driverA, pool1, "device-a2", false),
        deviceAllocationResult("req-b", driverB, pool1, "device-b1", false),
      ),
    ],
  },
  "derived-attributes-off-the-constraint-names-an-attribute-no-device-has": {
    // With the gate off the derived attributes are not read: no device has derived/sharedNumaNode,
    // so the constraint cannot be met (upstream's API server would drop the field).
    claimsToAllocate: [aligned],
    classes,
    slices,
    node: node(node1, region1),
    expectResults: null,
  },
  "derived-attribute-shadows-a-physical-attribute": {
    // dra.example.com/numa is published, but the request derives it from the driver's index:
    // device-a1 (index 1) and device-b1 (numa-1) then match.
    features: on,
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [{ requests: ["req-a", "req-b"], matchAttribute: "dra.example.com/numa" }],
        derived(
          one("req-a", classA),
          "dra.example.com/numa",
          '"numa-" + string(device.attributes["dra.example.com"].index)',
        ),
        one("req-b", classB),
      ),
    ],
    classes,
    slices: unwrapResourceSlices(
      sliceWithDevices(
        slice1,
        node1,
        pool1,
        driverA,
        device("device-a0", null, {
          "dra.example.com/numa": str("numa-1"),
          "dra.example.com/index": { int: 0 },
        }),
        device("device-a1", null, {
          "dra.example.com/numa": str("numa-0"),
          "dra.example.com/index": { int: 1 },
        }),
      ),
      sliceWithDevices(
        slice2,
        node1,
        pool1,
        driverB,
        device("device-b1", null, { "dra.example.com/numa": str("numa-1") }),
      ),
    ),
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult("req-a", driverA, pool1, "device-a1", false),
        deviceAllocationResult("req-b", driverB, pool1, "device-b1", false),
      ),
    ],
  },
  "derived-attribute-runtime-error-aborts": {
    features: on,
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [{ requests: ["req-a", "req-b"], matchAttribute: key }],
        derived(one("req-a", classA), key, 'device.attributes["dra.example.com"].numaNode'),
        derived(one("req-b", classB), key, 'device.attributes["dra.example.com"].numaNode'),
      ),
    ],
    classes,
    slices,
    node: node(node1, region1),
    expectError:
      "claim claim-0, request req-a: derived attribute derived/sharedNumaNode on device driver-a/pool-1/device-a1: CEL runtime error: no such key: numaNode",
  },
  "derived-attribute-compile-error": {
    features: on,
    claimsToAllocate: [
      claimWithRequests(
        claim0,
        [{ requests: ["req-a"], matchAttribute: key }],
        derived(one("req-a", classA), key, "device."),
      ),
    ],
    classes,
    slices,
    node: node(node1, region1),
    expectError:
      "claim claim-0, request req-a: derived attribute derived/sharedNumaNode: CEL compile error: compilation failed:",
  },
};

describe("the allocator with DRADerivedAttributes", () => {
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => {
      runAllocatorTestCase(tc);
    });
  }
  it("is the experimental variant's feature", () => {
    expect(allocatorChannel(on)).toBe("experimental");
  });
});
