// DRAOptionalNodeOperations in the allocator, as the KEP's "Allocator Changes" describe it: a
// device whose slice sets `skipNodeOperations` is not allocatable while the feature is off or
// when the node does not list DRAOptionalNodeOperations in status.declaredFeatures (another
// device or node is tried instead); otherwise its result carries a copy of the slice's
// skipNodeOperations. kubesched's cases (no stored allocator_testing.go holds cases for it).
import type { Node } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { allocatorChannel } from "./allocator";
import {
  type AllocatorTestCase,
  allocationResult,
  claim0,
  claimWithRequest,
  deviceClass as class_,
  classA,
  device,
  device1,
  device2,
  deviceAllocationResult,
  driverA,
  localNodeSelector,
  node,
  node1,
  pool1,
  pool2,
  region1,
  req0,
  runAllocatorTestCase,
  slice1,
  slice2,
  sliceWithDevices,
  unwrapResourceSlices,
} from "./allocator-testing";
import {
  allocationSkipsNodeOperations,
  nodeDeclaresOptionalNodeOperations,
} from "./optional-node-operations";

const declaring = (n: Node): Node => ({
  ...n,
  status: { ...n.status, declaredFeatures: ["DRAOptionalNodeOperations"] },
});
const skipping = (() => {
  const [s] = unwrapResourceSlices(
    sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null)),
  );
  return { ...s!, spec: { ...s!.spec, skipNodeOperations: ["*"] } };
})();
const plain = unwrapResourceSlices(
  sliceWithDevices(slice2, node1, pool2, driverA, device(device2, null, null)),
);
const on = { optionalNodeOperations: true };
const base = {
  claimsToAllocate: [claimWithRequest(claim0, req0, classA)],
  classes: [class_(classA, driverA)],
};

const cases: Record<string, AllocatorTestCase> = {
  "skip-node-operations-on-a-declaring-node": {
    ...base,
    features: on,
    slices: [skipping],
    node: declaring(node(node1, region1)),
    expectResults: [
      allocationResult(localNodeSelector(node1), {
        ...deviceAllocationResult(req0, driverA, pool1, device1, false),
        skipNodeOperations: ["*"],
      }),
    ],
  },
  "skip-node-operations-on-a-node-without-the-feature": {
    ...base,
    features: on,
    slices: [skipping],
    node: node(node1, region1),
    expectResults: null,
  },
  "skip-node-operations-with-the-feature-off": {
    ...base,
    slices: [skipping],
    node: declaring(node(node1, region1)),
    expectResults: null,
  },
  "skip-node-operations-falls-back-to-another-device": {
    ...base,
    features: on,
    slices: [skipping, ...plain],
    node: node(node1, region1),
    expectResults: [
      allocationResult(
        localNodeSelector(node1),
        deviceAllocationResult(req0, driverA, pool2, device2, false),
      ),
    ],
  },
};

describe("the allocator with DRAOptionalNodeOperations", () => {
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => {
      runAllocatorTestCase(tc);
    });
  }
  it("is the experimental variant's feature", () => {
    expect(allocatorChannel(on)).toBe("experimental");
  });
});

describe("the checks DynamicResources' Filter shares with the allocator", () => {
  it("nodeDeclaresOptionalNodeOperations reads status.declaredFeatures", () => {
    expect(nodeDeclaresOptionalNodeOperations({ metadata: { name: "n" } })).toBe(false);
    expect(nodeDeclaresOptionalNodeOperations({ status: { declaredFeatures: ["Other"] } })).toBe(false);
    expect(
      nodeDeclaresOptionalNodeOperations({
        status: { declaredFeatures: ["Other", "DRAOptionalNodeOperations"] },
      }),
    ).toBe(true);
  });
  it("allocationSkipsNodeOperations: any result with a non-empty skipNodeOperations", () => {
    const r = (skip?: string[]) => ({
      request: "r",
      driver: "d",
      pool: "p",
      device: "x",
      ...(skip ? { skipNodeOperations: skip } : {}),
    });
    expect(allocationSkipsNodeOperations({})).toBe(false);
    expect(allocationSkipsNodeOperations({ devices: { results: [r(), r([])] } })).toBe(false);
    expect(
      allocationSkipsNodeOperations({ devices: { results: [r(), r(["NodeUnprepareResources"])] } }),
    ).toBe(true);
  });
});
