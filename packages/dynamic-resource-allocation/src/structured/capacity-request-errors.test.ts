// Consumable capacity: a request the range arithmetic cannot represent aborts the allocation
// instead of skipping the device (kubernetes/kubernetes#140441). upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/consumable_capacity_test.go
// in the newest stored copy (the code-search index gives it by id, 55614494439, not by commit):
// testCalculateConsumedCapacity's integer-path cases 3/3 (request-above-maxint64-is-rejected,
// rounded-value-above-maxint64-is-rejected, max-safe-boundary-rounds-to-maxint64; its fractional
// cases are in fractional-capacity-range.test.ts) and testCmpRequestOverCapacityFatalBeatsSoft 1/1,
// with their inputs and expected values; then the allocator: the abort, a device that lacks a
// requested capacity still skipped, and the abort taking precedence over a soft mismatch.
import type { CapacityRequestPolicy, Device } from "@kubesched/api";
import { Quantity } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import {
  allocationResult,
  capacity0,
  claim,
  claim0,
  deviceClass as class_,
  classA,
  device1,
  device2,
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
import { CapacityRequestError, consumeCapacity, consumedQuantity } from "./consumable-capacity";

const q = (s: string) => Quantity.parse(s);
const capacity1 = "capacity-1";
const maxInt64Q = "9223372036854775807";
const maxInt64P1 = "9223372036854775808";
const twoPow64P3 = "18446744073709551619";
const maxInt64M1 = "9223372036854775806";

describe("testCalculateConsumedCapacity (integer-path representability, #140441)", () => {
  const cases: [string, string, string, CapacityRequestPolicy, string | undefined][] = [
    // name, requested, capacity value, policy, expected (undefined: not representable)
    [
      "request-above-maxint64-is-rejected",
      twoPow64P3,
      twoPow64P3,
      { default: "0", validRange: { min: "0", step: "3" } },
      undefined,
    ],
    [
      "rounded-value-above-maxint64-is-rejected",
      maxInt64Q,
      maxInt64P1,
      { default: "0", validRange: { min: "0", step: "2" } },
      undefined,
    ],
    [
      "max-safe-boundary-rounds-to-maxint64",
      maxInt64M1,
      maxInt64Q,
      { default: "1", validRange: { min: "1", step: "2" } },
      maxInt64Q,
    ],
  ];
  it.each(cases)("%s", (_name, requested, value, policy, expected) => {
    const consumed = () => consumedQuantity(q(requested), q(value), policy, false);
    if (expected === undefined) {
      expect(consumed).toThrow(CapacityRequestError);
      expect(consumed).toThrow(/^capacity request cannot be represented in the device's range arithmetic: /);
    } else {
      expect(consumed().cmp(q(expected))).toBe(0);
    }
  });
});

describe("testCmpRequestOverCapacityFatalBeatsSoft", () => {
  it("a representability error takes precedence over a soft over-capacity mismatch", () => {
    const device: Device = {
      name: device1,
      capacity: {
        // no policy; the request of 2 over-fills the value of 1 (soft)
        [capacity0]: { value: "1" },
        [capacity1]: { value: maxInt64P1, requestPolicy: { validRange: { min: "0", step: "2" } } },
      },
    };
    // Both orders of the capacities (upstream runs 64 times over Go's random map order).
    for (const capacity of [
      device.capacity!,
      Object.fromEntries(Object.entries(device.capacity!).reverse()),
    ]) {
      const check = () =>
        consumeCapacity(
          // over capacity0's value of 1: soft; rounding MaxInt64 up to a step of 2: fatal
          { requests: { [capacity0]: "2", [capacity1]: maxInt64Q } },
          driverA,
          { ...device, capacity },
          undefined,
          undefined,
          false,
        );
      expect(check).toThrow(CapacityRequestError);
      expect(check).toThrow(
        `capacity "${capacity1}": capacity request cannot be represented in the device's range arithmetic: rounding request ${maxInt64Q} up to the next step passes MaxInt64`,
      );
    }
  });
  it("a negative consumed value is an error too (upstream errNegativeCapacity)", () => {
    const device: Device = { name: device1, capacity: { [capacity0]: { value: "-1" } } };
    expect(() => consumeCapacity(undefined, driverA, device, undefined, undefined, false)).toThrow(
      `capacity "${capacity0}": capacity value is negative`,
    );
  });
});

describe("the allocator with an unrepresentable capacity request", () => {
  const shared = (name: string, value: string) =>
    new WrapDevice({
      name,
      allowMultipleAllocations: true,
      capacity: {
        [capacity0]: { value, requestPolicy: { default: "1", validRange: { min: "0", step: "2" } } },
      },
    });
  const features = { consumableCapacity: true };
  const classes = [class_(classA, driverA)];

  it("aborts instead of trying the next device", () => {
    runAllocatorTestCase({
      features,
      claimsToAllocate: [
        claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(maxInt64Q)),
      ],
      classes,
      // device-2 could take a request it can represent; upstream no longer gets there.
      slices: unwrapResourceSlices(
        sliceWithDevices(slice1, node1, pool1, driverA, shared(device1, maxInt64P1), shared(device2, "4")),
      ),
      node: node(node1, region1),
      expectError: `claim ${claim0}, request ${req0}: device ${driverA}/${pool1}/${device1}: capacity "${capacity0}": capacity request cannot be represented in the device's range arithmetic: rounding request ${maxInt64Q} up to the next step passes MaxInt64`,
    });
  });

  it("a dedicated device's request aborts the same way", () => {
    runAllocatorTestCase({
      features,
      claimsToAllocate: [
        claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(twoPow64P3)),
      ],
      classes,
      slices: unwrapResourceSlices(
        sliceWithDevices(
          slice1,
          node1,
          pool1,
          driverA,
          new WrapDevice({
            name: device1,
            capacity: {
              [capacity0]: { value: twoPow64P3, requestPolicy: { validRange: { min: "0", step: "3" } } },
            },
          }),
        ),
      ),
      node: node(node1, region1),
      expectError: `capacity "${capacity0}": capacity request cannot be represented in the device's range arithmetic: request ${twoPow64P3} exceeds MaxInt64`,
    });
  });

  it("a device without the requested capacity is still skipped, not an error", () => {
    runAllocatorTestCase({
      features,
      claimsToAllocate: [claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest("2"))],
      classes,
      slices: unwrapResourceSlices(
        sliceWithDevices(
          slice1,
          node1,
          pool1,
          driverA,
          new WrapDevice({
            name: device1,
            allowMultipleAllocations: true,
            capacity: { other: { value: "4" } },
          }),
          shared(device2, "4"),
        ),
      ),
      node: node(node1, region1),
      expectResults: [
        allocationResult(
          localNodeSelector(node1),
          deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(fixedShareID, {
            [capacity0]: "2",
          }),
        ),
      ],
    });
  });
});
