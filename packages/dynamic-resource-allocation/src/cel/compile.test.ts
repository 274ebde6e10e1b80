// upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go (TestCEL,
// TestListTypeAttributeSemantics and TestInterrupt), every case, with upstream's names, inputs and
// expected costs. Read in the newest stored copy (code-search index id 67045433770, 51,188
// characters; the index does not give its commit), which follows 052bb7dc3f0c: a list attribute
// reads as its first value, `asList()`. Not ported: BenchmarkDeviceMatches (a benchmark).
import type { DeviceAttribute, DeviceCapacity } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { type EnvType, getCompiler } from "./compile";
import { ResourceSliceMaxAttributeValuesPerDevice } from "./environment";

const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32;
const DeviceMaxIDLength = 32;
const DeviceAttributeMaxValueLength = 64;
const maxElementsListTypeEnabled = Math.max(
  DeviceAttributeMaxValueLength,
  ResourceSliceMaxAttributeValuesPerDevice,
);

interface Case {
  envType?: EnvType;
  enableConsumableCapacity?: boolean;
  enableListTypeAttributes?: boolean;
  expression: string;
  driver?: string;
  allowMultipleAllocations?: boolean;
  attributes?: Record<string, DeviceAttribute>;
  capacity?: Record<string, DeviceCapacity>;
  expectCompileError?: string;
  expectMatchError?: string;
  expectMatch?: boolean;
  expectCost?: number;
}

const values = (n: number): string[] => Array.from({ length: n }, (_, i) => `value-${i}`);

const testcases: Record<string, Case> = {
  true: { expression: "true", expectMatch: true },
  false: { expression: "false", expectMatch: false },
  "syntax-error": { expression: "?!", expectCompileError: "Syntax error" },
  "type-error": { expression: "1", expectCompileError: "must evaluate to bool or the unknown type, not int" },
  "runtime-error-lookup-identifier": {
    expression: `device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))`,
    expectMatchError: "no such key: noSuchAttr",
    expectCost: 6,
  },
  "runtime-error-lookup-map": {
    expression: `device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))`,
    expectMatchError: "no such key: noSuchAttr",
    expectCost: 6,
  },
  "domain-check-negative": {
    expression: `"no-such-domain" in device.attributes`,
    expectMatch: false,
    expectCost: 3,
  },
  "domain-check-positive": {
    expression: `"dra.example.com" in device.attributes`,
    attributes: { "dra.example.com/something": { bool: true } },
    expectMatch: true,
    expectCost: 3,
  },
  "empty-driver-name": { expression: `device.driver == ""`, expectMatch: true, expectCost: 2 },
  "real-driver-name": {
    expression: `device.driver == "dra.example.com"`,
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4,
  },
  "driver-name-qualifier": {
    expression: `device.attributes["dra.example.com"].name`,
    driver: "dra.example.com",
    attributes: { name: { bool: true } },
    expectMatch: true,
    expectCost: 4,
  },
  "driver-name-qualifier-map-lookup": {
    expression: `device.attributes["dra.example.com"]["name"]`,
    driver: "dra.example.com",
    attributes: { name: { bool: true } },
    expectMatch: true,
    expectCost: 4,
  },
  bind: {
    expression: `cel.bind(dra, device.attributes["dra.example.com"], dra.name)`,
    driver: "dra.example.com",
    attributes: { name: { bool: true } },
    expectMatch: true,
    expectCost: 15,
  },
  "qualified-attribute-name": {
    expression: `device.attributes["other.example.com"].name`,
    driver: "dra.example.com",
    attributes: { "other.example.com/name": { bool: true } },
    expectMatch: true,
    expectCost: 4,
  },
  bool: {
    expression: `device.attributes["dra.example.com"].name`,
    attributes: { name: { bool: true } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4,
  },
  int: {
    expression: `device.attributes["dra.example.com"].name > 0`,
    attributes: { name: { int: 1 } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5,
  },
  string: {
    expression: `device.attributes["dra.example.com"].name == "fish"`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5,
  },
  "macro-exists-on-int": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.exists(x, x > 0)`,
    attributes: { name: { int: 1 } },
    driver: "dra.example.com",
    expectMatchError: "got 'types.Int', expected iterable type",
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "macro-exists-on-bool": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.exists(x, x == true)`,
    attributes: { name: { bool: true } },
    driver: "dra.example.com",
    expectMatchError: "got 'types.Bool', expected iterable type",
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "macro-exists-on-string": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.exists(x, x == "fish")`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatchError: "got 'types.String', expected iterable type",
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "attribute-access-causes-match-error": {
    enableListTypeAttributes: false,
    expression: `device.attributes["dra.example.com"].names`,
    attributes: { names: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatchError: "attribute names: unsupported attribute value",
    expectCost: 4,
  },
  "list-of-bool": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names`,
    attributes: { names: { bools: [true, false] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4,
  },
  "list-of-int": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names > 0`,
    attributes: { names: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5,
  },
  "list-of-string": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names == "fish"`,
    attributes: { names: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5,
  },
  "list-of-semver": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names.isGreaterThan(semver("0.0.1"))`,
    attributes: { names: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  "macro-on-list-of-int": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names.asList().exists(x, x > 0)`,
    attributes: { names: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 390,
  },
  "macro-on-list-of-string": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names.asList().all(x, x != "")`,
    attributes: { names: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 262,
  },
  "macro-on-list-of-semver": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].names.asList().all(x, x.isGreaterThan(semver("0.0.1")))`,
    attributes: { names: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 390,
  },
  "includes-function-undeclared-error": {
    enableConsumableCapacity: false,
    enableListTypeAttributes: false,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes("fish")`,
    driver: "dra.example.com",
    expectCompileError: "undeclared reference to 'includes'",
  },
  "includes-function-on-bool-scalar-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(true)`,
    attributes: { name: { bool: true } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-scalar-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(true)`,
    attributes: { name: { bool: false } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-list-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(true)`,
    attributes: { name: { bools: [true, false] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-list-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(false)`,
    attributes: { name: { bools: [true, true] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-scalar-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(1)`,
    attributes: { name: { int: 1 } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-scalar-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(1)`,
    attributes: { name: { int: 2 } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-list-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(1)`,
    attributes: { name: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-list-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(3)`,
    attributes: { name: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-scalar-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes("fish")`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-scalar-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes("bird")`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-list-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes("fish")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-list-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes("cat")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-semver-scalar-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(semver("1.0.0"))`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-semver-scalar-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(semver("2.0.0"))`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-semver-list-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(semver("1.0.0"))`,
    attributes: { name: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-semver-list-negative": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes(semver("3.0.0"))`,
    attributes: { name: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-very-long-list-positive": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.includes("value-${ResourceSliceMaxAttributeValuesPerDevice}")`,
    attributes: { name: { strings: values(ResourceSliceMaxAttributeValuesPerDevice) } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-very-long-list-runtime-error-with-as-list": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.asList().includes("value-${ResourceSliceMaxAttributeValuesPerDevice + 1}")`,
    attributes: { name: { strings: values(ResourceSliceMaxAttributeValuesPerDevice + 1) } },
    driver: "dra.example.com",
    expectMatchError: `'includes' function cannot be applied to lists longer than ${ResourceSliceMaxAttributeValuesPerDevice} values`,
    expectCost: 53,
  },
  // Documents the difference between the cost estimates of `in` (the attribute type's maximum
  // size) and `includes` (the longest list attribute).
  "in-operator-on-list": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `1 in device.attributes["dra.example.com"].names.asList()`,
    attributes: { names: { ints: [1, 2, 3] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 69,
  },
  version: {
    expression: `device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  version_v: {
    expression: `device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 7,
  },
  "macro-exists-on-version": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].name.exists(x, x.isGreaterThan(semver("0.0.1")))`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatchError: "got 'cel.Semver', expected iterable type",
    expectCost: 5 + (3 + 4) * maxElementsListTypeEnabled,
  },
  quantity: {
    expression: `device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`,
    capacity: { name: { value: "1Mi" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  "check-positive": {
    expression: `"name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`,
    capacity: { name: { value: "1Mi" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 10,
  },
  "check-negative": {
    expression: `!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`,
    expectMatch: true,
    expectCost: 11,
  },
  all: {
    expression: `
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
`,
    attributes: {
      bool: { bool: true },
      int: { int: 1 },
      string: { string: "fish" },
      version: { version: "1.0.0" },
    },
    capacity: { quantity: { value: "1Mi" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 52,
  },
  many: {
    expression: `device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c`,
    attributes: { a: { bool: true }, b: { bool: true }, c: { bool: true } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 12,
  },
  check_attribute_domains: {
    expression: `device.attributes.exists_one(x, x == "dra.example.com")`,
    attributes: { services: { string: "some_example_value" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 164,
  },
  check_attribute_ids: {
    expression: `device.attributes["dra.example.com"].exists_one(x, x == "services")`,
    attributes: { services: { string: "some_example_value" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 133,
  },
  split_attribute: {
    expression: `device.attributes["dra.example.com"].services.split("example").size() >= 2`,
    attributes: { services: { string: "some_example_value" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 19,
  },
  regexp_attribute: {
    expression: `device.attributes["dra.example.com"].services.matches("[^a]?sym")`,
    attributes: { services: { string: "asymetric" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 18,
  },
  check_capacity_domains: {
    expression: `device.capacity.exists_one(x, x == "dra.example.com")`,
    capacity: { memory: { value: "1Mi" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 164,
  },
  check_capacity_ids: {
    expression: `device.capacity["dra.example.com"].exists_one(x, x == "memory")`,
    capacity: { memory: { value: "1Mi" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 133,
  },
  expensive: {
    attributes: Object.fromEntries(
      Array.from({ length: ResourceSliceMaxAttributesAndCapacitiesPerDevice }, (_, i) => {
        const suffix = `-${i}`;
        return [
          `dra.example.com/${"x".repeat(DeviceMaxIDLength - suffix.length)}${suffix}`,
          { string: "abc" },
        ];
      }),
    ),
    expression:
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))",
    driver: "dra.example.com",
    expectMatchError: "actual cost limit exceeded",
    expectCost: 85555551,
  },
  allow_multiple_allocations: {
    enableConsumableCapacity: true,
    expression: "device.allowMultipleAllocations == true",
    allowMultipleAllocations: true,
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 3,
  },
  allow_multiple_allocations_default: {
    enableConsumableCapacity: true,
    expression: "device.allowMultipleAllocations == false",
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 3,
  },
  allow_multiple_allocations_false: {
    enableConsumableCapacity: true,
    expression: "device.allowMultipleAllocations == false",
    allowMultipleAllocations: false,
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 3,
  },
  allow_multiple_allocations_new: {
    enableConsumableCapacity: true,
    envType: "NewExpressions",
    expression: "device.allowMultipleAllocations == false",
    allowMultipleAllocations: false,
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 3,
  },
  allow_multiple_allocations_enabled: {
    envType: "NewExpressions",
    enableConsumableCapacity: true,
    expression: "device.allowMultipleAllocations == false",
    allowMultipleAllocations: false,
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 3,
  },
  allow_multiple_allocations_disabled: {
    envType: "NewExpressions",
    enableConsumableCapacity: false,
    expression: "device.allowMultipleAllocations == false",
    driver: "dra.example.com",
    expectCompileError: "undefined field 'allowMultipleAllocations'",
  },
};

describe("TestCEL", () => {
  for (const [name, scenario] of Object.entries(testcases)) {
    const variants =
      scenario.enableListTypeAttributes === undefined ? [false, true] : [scenario.enableListTypeAttributes];
    for (const enableListTypeAttributes of variants) {
      it(`${name}/list-type-attributes=${enableListTypeAttributes}`, () => {
        const result = getCompiler({
          enableConsumableCapacity: scenario.enableConsumableCapacity ?? false,
          enableListTypeAttributes,
        }).compileCELExpression(scenario.expression, { envType: scenario.envType });
        if (scenario.expectCompileError !== undefined) {
          expect(result.error?.detail).toContain(scenario.expectCompileError);
          return;
        }
        expect(result.error).toBeNull();
        expect(result.maxCost).toBe(scenario.expectCost ?? 0);

        const { matches, actualCost, error } = result.deviceMatches({
          allowMultipleAllocations: scenario.allowMultipleAllocations,
          attributes: scenario.attributes,
          capacity: scenario.capacity,
          driver: scenario.driver ?? "",
        });
        // The estimate is an upper bound of what an evaluation costs.
        expect(actualCost).toBeLessThanOrEqual(result.maxCost);
        if (scenario.expectMatchError !== undefined) {
          expect(error?.message).toContain(scenario.expectMatchError);
          return;
        }
        expect(error).toBeNull();
        expect(matches).toBe(scenario.expectMatch);
      });
    }
  }
});

// upstream: TestListTypeAttributeSemantics (the same file): with DRAListTypeAttributes, a list
// attribute reads as its first value, `asList()` gives all values (a scalar as a list of one),
// `includes` on the value compares with the first value, on `asList()` searches the list.
interface SemanticsCase {
  name: string;
  expression: string;
  attributes: Record<string, DeviceAttribute>;
  wantMatch?: boolean;
  wantErrLike?: string;
}

const listTypeAttributeSemantics: SemanticsCase[] = [
  {
    name: "attribute-access-bool-scalar",
    expression: `device.attributes["foo"].name`,
    attributes: { name: { bool: true } },
    wantMatch: true,
  },
  {
    name: "attribute-access-bool-list-uses-first",
    expression: `device.attributes["foo"].name`,
    attributes: { name: { bools: [false, true] } },
    wantMatch: false,
  },
  {
    name: "attribute-access-int-scalar",
    expression: `device.attributes["foo"].name > 6 && device.attributes["foo"].name < 8`,
    attributes: { name: { int: 7 } },
    wantMatch: true,
  },
  {
    name: "attribute-access-int-list-uses-first",
    expression: `device.attributes["foo"].name > 6 && device.attributes["foo"].name < 8`,
    attributes: { name: { ints: [7, 9] } },
    wantMatch: true,
  },
  {
    name: "attribute-access-string-scalar",
    expression: `device.attributes["foo"].name == "fish"`,
    attributes: { name: { string: "fish" } },
    wantMatch: true,
  },
  {
    name: "attribute-access-string-list-uses-first",
    expression: `device.attributes["foo"].name == "fish"`,
    attributes: { name: { strings: ["fish", "bird"] } },
    wantMatch: true,
  },
  {
    name: "attribute-access-semver-scalar",
    expression: `device.attributes["foo"].name.isGreaterThan(semver("1.1.0"))`,
    attributes: { name: { version: "1.2.0" } },
    wantMatch: true,
  },
  {
    name: "attribute-access-semver-list-uses-first",
    expression: `device.attributes["foo"].name.isGreaterThan(semver("1.1.0"))`,
    attributes: { name: { versions: ["1.2.0", "2.0.0"] } },
    wantMatch: true,
  },
  {
    name: "as-list-bool-scalar-singleton",
    expression: `device.attributes["foo"].name.asList().size() == 1 && device.attributes["foo"].name.asList()[0] == true`,
    attributes: { name: { bool: true } },
    wantMatch: true,
  },
  {
    name: "as-list-bool-list-original",
    expression: `device.attributes["foo"].name.asList().size() == 2 && device.attributes["foo"].name.asList()[1] == true`,
    attributes: { name: { bools: [false, true] } },
    wantMatch: true,
  },
  {
    name: "as-list-int-scalar-singleton",
    expression: `device.attributes["foo"].name.asList().size() == 1 && device.attributes["foo"].name.asList()[0] == 7`,
    attributes: { name: { int: 7 } },
    wantMatch: true,
  },
  {
    name: "as-list-int-list-original",
    expression: `device.attributes["foo"].name.asList().size() == 2 && device.attributes["foo"].name.asList()[1] == 9`,
    attributes: { name: { ints: [7, 9] } },
    wantMatch: true,
  },
  {
    name: "as-list-string-scalar-singleton",
    expression: `device.attributes["foo"].name.asList().size() == 1 && device.attributes["foo"].name.asList()[0] == "fish"`,
    attributes: { name: { string: "fish" } },
    wantMatch: true,
  },
  {
    name: "as-list-string-list-original",
    expression: `device.attributes["foo"].name.asList().size() == 2 && device.attributes["foo"].name.asList()[1] == "bird"`,
    attributes: { name: { strings: ["fish", "bird"] } },
    wantMatch: true,
  },
  {
    name: "as-list-semver-scalar-singleton",
    expression: `device.attributes["foo"].name.asList().size() == 1 && device.attributes["foo"].name.asList()[0].isGreaterThan(semver("1.1.0"))`,
    attributes: { name: { version: "1.2.0" } },
    wantMatch: true,
  },
  {
    name: "as-list-semver-list-original",
    expression: `device.attributes["foo"].name.asList().size() == 2 && device.attributes["foo"].name.asList()[1].isGreaterThan(semver("1.9.0"))`,
    attributes: { name: { versions: ["1.2.0", "2.0.0"] } },
    wantMatch: true,
  },
  {
    name: "includes-bool-scalar-true",
    expression: `device.attributes["foo"].name.includes(true)`,
    attributes: { name: { bool: true } },
    wantMatch: true,
  },
  {
    name: "includes-bool-scalar-false",
    expression: `device.attributes["foo"].name.includes(false)`,
    attributes: { name: { bool: true } },
    wantMatch: false,
  },
  {
    name: "includes-bool-list-first-true",
    expression: `device.attributes["foo"].name.includes(true)`,
    attributes: { name: { bools: [true, false] } },
    wantMatch: true,
  },
  {
    name: "includes-bool-list-first-false",
    expression: `device.attributes["foo"].name.includes(true)`,
    attributes: { name: { bools: [false, true] } },
    wantMatch: false,
  },
  {
    name: "includes-int-list-matches-first-only",
    expression: `device.attributes["foo"].name.includes(9)`,
    attributes: { name: { ints: [7, 9] } },
    wantMatch: false,
  },
  {
    name: "includes-string-list-matches-first-only",
    expression: `device.attributes["foo"].name.includes("bird")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    wantMatch: false,
  },
  {
    name: "includes-semver-list-matches-first-only",
    expression: `device.attributes["foo"].name.includes(semver("2.0.0"))`,
    attributes: { name: { versions: ["1.2.0", "2.0.0"] } },
    wantMatch: false,
  },
  {
    name: "as-list-includes-bool-list-searches-all",
    expression: `device.attributes["foo"].name.asList().includes(true)`,
    attributes: { name: { bools: [false, true] } },
    wantMatch: true,
  },
  {
    name: "as-list-includes-int-list-searches-all",
    expression: `device.attributes["foo"].name.asList().includes(9)`,
    attributes: { name: { ints: [7, 9] } },
    wantMatch: true,
  },
  {
    name: "as-list-includes-string-list-searches-all",
    expression: `device.attributes["foo"].name.asList().includes("bird")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    wantMatch: true,
  },
  {
    name: "as-list-includes-semver-list-searches-all",
    expression: `device.attributes["foo"].name.asList().includes(semver("2.0.0"))`,
    attributes: { name: { versions: ["1.2.0", "2.0.0"] } },
    wantMatch: true,
  },
  {
    name: "macro-on-bool-list-without-as-list-errors",
    expression: `device.attributes["foo"].name.exists(x, x == true)`,
    attributes: { name: { bools: [true, false] } },
    wantErrLike: "expected iterable type",
  },
  {
    name: "macro-on-bool-list-with-as-list-works",
    expression: `device.attributes["foo"].name.asList().exists(x, x == true)`,
    attributes: { name: { bools: [true, false] } },
    wantMatch: true,
  },
  {
    name: "macro-on-int-list-without-as-list-errors",
    expression: `device.attributes["foo"].name.exists(x, x > 0)`,
    attributes: { name: { ints: [7, 9] } },
    wantErrLike: "expected iterable type",
  },
  {
    name: "macro-on-int-list-with-as-list-works",
    expression: `device.attributes["foo"].name.asList().exists(x, x > 0)`,
    attributes: { name: { ints: [7, 9] } },
    wantMatch: true,
  },
  {
    name: "macro-on-string-list-without-as-list-errors",
    expression: `device.attributes["foo"].name.all(x, x != "")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    wantErrLike: "expected iterable type",
  },
  {
    name: "macro-on-string-list-with-as-list-works",
    expression: `device.attributes["foo"].name.asList().all(x, x != "")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    wantMatch: true,
  },
  {
    name: "macro-on-semver-list-without-as-list-errors",
    expression: `device.attributes["foo"].name.exists(x, x.isGreaterThan(semver("0.0.1")))`,
    attributes: { name: { versions: ["1.2.0", "2.0.0"] } },
    wantErrLike: "expected iterable type",
  },
  {
    name: "macro-on-semver-list-with-as-list-works",
    expression: `device.attributes["foo"].name.asList().exists(x, x.isGreaterThan(semver("0.0.1")))`,
    attributes: { name: { versions: ["1.2.0", "2.0.0"] } },
    wantMatch: true,
  },
];

describe("TestListTypeAttributeSemantics", () => {
  for (const tc of listTypeAttributeSemantics) {
    it(tc.name, () => {
      const result = getCompiler({
        enableConsumableCapacity: false,
        enableListTypeAttributes: true,
      }).compileCELExpression(tc.expression, { envType: "NewExpressions", disableCostEstimation: true });
      expect(result.error).toBeNull();
      const { matches, error } = result.deviceMatches({ driver: "foo", attributes: tc.attributes });
      if (tc.wantErrLike !== undefined) {
        expect(error?.message).toContain(tc.wantErrLike);
        return;
      }
      expect(error).toBeNull();
      expect(matches).toBe(tc.wantMatch);
    });
  }
});

describe("TestInterrupt", () => {
  const expression = `device.attributes["dra.example.com"].map(key, device.attributes["dra.example.com"][key] * 20).filter(e, e > 50).exists(e, e == 60)`;
  const attributes = Object.fromEntries(
    Array.from({ length: 1000 }, (_, i) => [`dra.example.com/attr${i}`, { int: i }] as const),
  );
  const cases: Record<string, () => AbortSignal | undefined> = {
    // A timeout and a deadline that have passed and a cancelled context are all an aborted signal.
    timeout: () => AbortSignal.abort(new DOMException("The operation timed out.", "TimeoutError")),
    cancel: () => {
      const controller = new AbortController();
      controller.abort();
      return controller.signal;
    },
    none: () => undefined,
  };
  for (const [name, signal] of Object.entries(cases)) {
    it(name, () => {
      const result = getCompiler({
        enableConsumableCapacity: false,
        enableListTypeAttributes: false,
      }).compileCELExpression(expression);
      expect(result.error).toBeNull();
      const s = signal();
      const { error } = result.deviceMatches({ driver: "", attributes }, { signal: s });
      if (s?.aborted) {
        expect(error?.message).toContain("operation interrupted");
        expect(error?.cause).toBe(s.reason);
      } else {
        expect(error).toBeNull();
      }
    });
  }
});
