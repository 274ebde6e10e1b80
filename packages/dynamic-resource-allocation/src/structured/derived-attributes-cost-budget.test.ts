// DRADerivedAttributes: the evaluations of one claim's derived attributes in an allocation share
// one CEL cost budget (the 1.37 API: "the combined cost of all derived attributes in a claim is
// capped by a shared CEL cost budget"). The upstream code that enforces it is not in the
// code-search index (see the README), so these cases are kubesched's own: an expression whose
// evaluation costs C, then as many devices as fit the budget (allocated) and one more (the
// allocation aborts with cel-go's limit error, naming the budget); the budget is per claim.
import type { DeviceAttribute, DeviceRequest } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { getCompiler } from "../cel/compile";
import { derivedAttributesCostBudget } from "./allocator";
import {
  allocationResult,
  claim0,
  claim1,
  claimWithRequests,
  deviceClass as class_,
  classA,
  device,
  deviceAllocationResult,
  driverA,
  localNodeSelector,
  node,
  node1,
  pool1,
  region1,
  runAllocatorTestCase,
  slice1,
  sliceWithDevices,
  unwrapResourceSlices,
} from "./allocator-testing";

const key = "derived/costly";
const list = `[${Array.from({ length: 25 }, (_, i) => i).join(",")}]`;
// About 268,000 cost units per evaluation (25³ iterations), under the per-evaluation limit.
const expression = `string(${list}.map(x, ${list}.map(y, ${list}.filter(z, z < x + y).size())).size()) + "-" + device.attributes["dra.example.com"].numa`;
const numa: Record<string, DeviceAttribute> = { "dra.example.com/numa": { string: "numa-0" } };

/** What one evaluation costs (the same evaluator the allocator uses). */
const costPerEvaluation = (() => {
  const compiled = getCompiler({
    enableConsumableCapacity: false,
    enableListTypeAttributes: false,
  }).compileDerivedAttribute(expression);
  const { actualCost, error } = compiled.evaluate({ driver: driverA, attributes: numa });
  if (error !== null) throw error;
  return actualCost;
})();
/** How many evaluations fit the budget. */
const fitting = Math.floor(derivedAttributesCostBudget / costPerEvaluation);

const request = (name: string, count: number): DeviceRequest => ({
  name,
  exactly: {
    deviceClassName: classA,
    allocationMode: "ExactCount",
    count,
    derivedAttributes: [{ name: key, expression }],
  },
});
/** A claim asking for `count` devices that all share the derived attribute's value. */
const claimFor = (name: string, count: number) =>
  claimWithRequests(name, [{ requests: ["req-0"], matchAttribute: key }], request("req-0", count));
const slicesWith = (n: number) =>
  unwrapResourceSlices(
    sliceWithDevices(
      slice1,
      node1,
      pool1,
      driverA,
      ...Array.from({ length: n }, (_, i) => device(`device-${i}`, null, numa)),
    ),
  );
/** The devices `from` … `from + count - 1`, in slice order. */
const resultFor = (from: number, count: number) =>
  allocationResult(
    localNodeSelector(node1),
    ...Array.from({ length: count }, (_, i) =>
      deviceAllocationResult("req-0", driverA, pool1, `device-${from + i}`, false),
    ),
  );
const base = {
  features: { derivedAttributes: true },
  classes: [class_(classA, driverA)],
  node: node(node1, region1),
};

describe("the claim-wide CEL cost budget of derived attributes", () => {
  it("the expression's cost leaves room for a few evaluations, each under the per-evaluation limit", () => {
    expect(costPerEvaluation).toBeLessThan(derivedAttributesCostBudget);
    expect(fitting).toBeGreaterThanOrEqual(2);
    expect(fitting).toBeLessThan(8);
  });

  it("as many devices as the budget covers are allocated", () => {
    runAllocatorTestCase({
      ...base,
      claimsToAllocate: [claimFor(claim0, fitting)],
      slices: slicesWith(fitting),
      expectResults: [resultFor(0, fitting)],
    });
  });

  it("one more evaluation passes the budget: the allocation aborts", () => {
    runAllocatorTestCase({
      ...base,
      claimsToAllocate: [claimFor(claim0, fitting + 1)],
      slices: slicesWith(fitting + 1),
      expectError: `claim ${claim0}, request req-0: derived attribute ${key} on device ${driverA}/${pool1}/device-${fitting}: CEL runtime error: operation cancelled: actual cost limit exceeded (the claim's derived attributes share a CEL cost budget of ${derivedAttributesCostBudget}, ${fitting * costPerEvaluation} used before)`,
    });
  });

  it("the budget is per claim: two claims each within it are allocated in one run", () => {
    const half = Math.max(1, Math.floor(fitting / 2));
    runAllocatorTestCase({
      ...base,
      claimsToAllocate: [claimFor(claim0, fitting), claimFor(claim1, half)],
      slices: slicesWith(fitting + half),
      expectResults: [resultFor(0, fitting), resultFor(fitting, half)],
    });
  });
});
