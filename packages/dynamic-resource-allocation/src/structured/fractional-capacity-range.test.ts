// DRAFractionalCapacityRange: request policy ranges in milli units. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/consumable_capacity_test.go
// (the newest stored copy): testSafeMilliValue 3/3, testUseMilli 5/5, and the fractional cases of
// testViolateCapacityRequestPolicy (3/3) and testCalculateConsumedCapacity (4/4), with their
// inputs and expected values; the integer-path cases of #140441 (representability errors) are in
// capacity-request-errors.test.ts. Then the allocator with the feature on and off.
import type { CapacityRequestPolicy, CapacityRequestPolicyRange } from "@kubesched/api";
import { Quantity } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { allocatorChannel } from "./allocator";
import {
  allocationResult,
  capacity0,
  claim,
  claim0,
  deviceClass as class_,
  classA,
  device1,
  deviceRequest,
  deviceRequestAllocationResult,
  driverA,
  fixedShareID,
  localNodeSelector,
  node,
  node1,
  pool1,
  region1,
  req0,
  runAllocatorTestCase,
  slice1,
  sliceWithDevices,
  unwrapResourceSlices,
  WrapDevice,
} from "./allocator-testing";
import { consumedQuantity, safeMilliValue, useMilli, violatesPolicy } from "./consumable-capacity";

const q = (s: string) => Quantity.parse(s);
const maxInt64 = (1n << 63n) - 1n;
const tooBigForMilli = "9224372036854776E3";
const fractionalRange: CapacityRequestPolicyRange = { min: "200m", max: "1", step: "100m" };

describe("testSafeMilliValue", () => {
  it.each([
    ["whole number", "1", 1000n],
    ["fractional milli", "100m", 100n],
    ["too large for milli (overflows int64)", tooBigForMilli, undefined],
  ])("%s", (_name, value, expected) => {
    expect(safeMilliValue(q(value))).toBe(expected);
  });
});

describe("testUseMilli", () => {
  it.each<[string, CapacityRequestPolicyRange, boolean, boolean]>([
    ["fractional disabled", fractionalRange, false, false],
    ["all fractional, fits in milli", fractionalRange, true, true],
    [
      "all integer, fits in milli (no hasFractional gate any more)",
      { min: "1", max: "3", step: "1" },
      true,
      true,
    ],
    ["min overflows milli, falls back to integer", { min: tooBigForMilli, step: "1" }, true, false],
    ["step too small (sub-milli)", { min: "1", step: "0" }, true, false],
  ])("%s", (_name, range, fractional, expected) => {
    expect(useMilli(range, fractional)).toBe(expected);
  });
});

describe("testViolateCapacityRequestPolicy (fractional cases)", () => {
  const policy: CapacityRequestPolicy = { default: "200m", validRange: fractionalRange };
  it.each<[string, string, CapacityRequestPolicy, boolean]>([
    ["fractional step aligned (0.3 = min+1*step)", "300m", policy, false],
    ["fractional step not aligned (0.25 is not a multiple of 0.1 from 0.2)", "250m", policy, true],
    [
      "requested value overflows milli representation",
      tooBigForMilli,
      { default: "1", validRange: { min: "1", step: "1" } },
      true,
    ],
  ])("%s", (_name, requested, p, expected) => {
    expect(violatesPolicy(q(requested), p, true)).toBe(expected);
  });
});

describe("testCalculateConsumedCapacity (fractional cases)", () => {
  const policy: CapacityRequestPolicy = { default: "200m", validRange: fractionalRange };
  it("fractional step round up (0.25 to 0.3)", () => {
    expect(consumedQuantity(q("250m"), q("1"), policy, true).cmp(q("300m"))).toBe(0);
  });
  it("fractional step already aligned (0.4 = min+2*step)", () => {
    expect(consumedQuantity(q("400m"), q("1"), policy, true).cmp(q("400m"))).toBe(0);
  });
  it("fractional-step-request-not-milli-representable-is-rejected", () => {
    const p: CapacityRequestPolicy = { default: "1", validRange: { min: "100m", step: "100m" } };
    expect(() => consumedQuantity(q(tooBigForMilli), q(tooBigForMilli), p, true)).toThrow(
      /^capacity request cannot be represented in the device's range arithmetic/,
    );
  });
  it("fractional-step-rounded-value-passes-milli-range-is-rejected", () => {
    const p: CapacityRequestPolicy = { default: "100m", validRange: { min: "100m", step: "100m" } };
    const requested = Quantity.of(maxInt64 - 1n, -3);
    expect(() => consumedQuantity(requested, Quantity.of(maxInt64, -3), p, true)).toThrow(
      /passes the milli-value range$/,
    );
  });
  it("with the feature off the same range is computed in whole units (0.25 consumes 1)", () => {
    expect(consumedQuantity(q("250m"), q("1"), policy, false).cmp(q("1"))).toBe(0);
  });
});

describe("the allocator with DRAFractionalCapacityRange", () => {
  // A device shared in tenths: min 0.2, step 0.1, max 1 of a capacity of 1.
  const shared = unwrapResourceSlices(
    sliceWithDevices(
      slice1,
      node1,
      pool1,
      driverA,
      new WrapDevice({
        name: device1,
        allowMultipleAllocations: true,
        capacity: {
          [capacity0]: { value: "1", requestPolicy: { default: "200m", validRange: fractionalRange } },
        },
      }),
    ),
  );
  const twoShares = [
    claim(claim0).withRequests(
      deviceRequest(req0, classA, 1).withCapacityRequest("250m"),
      deviceRequest("req-1", classA, 1).withCapacityRequest("250m"),
    ),
  ];
  it("0.25 + 0.25 of a device round up to 0.3 + 0.3 and fit", () => {
    runAllocatorTestCase({
      features: { consumableCapacity: true, fractionalCapacityRange: true },
      claimsToAllocate: twoShares,
      classes: [class_(classA, driverA)],
      slices: shared,
      node: node(node1, region1),
      expectResults: [
        allocationResult(
          localNodeSelector(node1),
          deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, {
            [capacity0]: "300m",
          }),
          deviceRequestAllocationResult("req-1", driverA, pool1, device1).withConsumedCapacity(fixedShareID, {
            [capacity0]: "300m",
          }),
        ),
      ],
    });
  });
  it("with the feature off each request rounds up to a whole 1: the second does not fit", () => {
    runAllocatorTestCase({
      features: { consumableCapacity: true },
      claimsToAllocate: twoShares,
      classes: [class_(classA, driverA)],
      slices: shared,
      node: node(node1, region1),
      expectResults: null,
    });
  });
  it("keeps the incubating variant", () => {
    expect(allocatorChannel({ consumableCapacity: true, fractionalCapacityRange: true })).toBe("incubating");
  });
});
