// upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go (TestCEL and
// TestInterrupt, read at kubernetes/kubernetes 052bb7dc3f0c), every case, with upstream's names,
// inputs and expected costs. Not ported: BenchmarkDeviceMatches (a benchmark).
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
    expression: `device.attributes["dra.example.com"].name.exists(x, x > 0)`,
    attributes: { name: { int: 1 } },
    driver: "dra.example.com",
    expectMatchError: "got 'types.Int', expected iterable type",
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "macro-exists-on-bool": {
    expression: `device.attributes["dra.example.com"].name.exists(x, x == true)`,
    attributes: { name: { bool: true } },
    driver: "dra.example.com",
    expectMatchError: "got 'types.Bool', expected iterable type",
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "macro-exists-on-string": {
    expression: `device.attributes["dra.example.com"].name.exists(x, x == "fish")`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatchError: "got 'types.String', expected iterable type",
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "list-result-type-causes-match-error": {
    expression: `device.attributes["dra.example.com"].names`,
    attributes: { names: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatchError: "CEL result of type list could not be converted to bool",
    expectCost: 4,
  },
  "includes-function-can-evaluate": {
    expression: `device.attributes["dra.example.com"].name.includes("fish")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "list-of-bool": {
    expression: `device.attributes["dra.example.com"].names.size() == 2`,
    attributes: { names: { bools: [true, false] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  "list-of-int": {
    expression: `device.attributes["dra.example.com"].names.size() == 2`,
    attributes: { names: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  "list-of-string": {
    expression: `device.attributes["dra.example.com"].names.size() == 2`,
    attributes: { names: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  "list-of-semver": {
    expression: `device.attributes["dra.example.com"].names.size() == 2`,
    attributes: { names: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 6,
  },
  "macro-on-list-of-int": {
    expression: `device.attributes["dra.example.com"].names.exists(x, x > 0)`,
    attributes: { names: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5 + (3 + 3) * maxElementsListTypeEnabled,
  },
  "macro-on-list-of-string": {
    expression: `device.attributes["dra.example.com"].names.all(x, x != "")`,
    attributes: { names: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5 + (2 + 2) * maxElementsListTypeEnabled,
  },
  "macro-on-list-of-semver": {
    expression: `device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1")))`,
    attributes: { names: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 5 + (2 + 4) * maxElementsListTypeEnabled,
  },
  "includes-function-compilation-error": {
    enableListTypeAttributes: false,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].attr.includes("fish")`,
    driver: "dra.example.com",
    expectCompileError: "undeclared reference to 'includes'",
  },
  "includes-function-compilation-and-eval-success": {
    enableListTypeAttributes: true,
    envType: "NewExpressions",
    expression: `device.attributes["dra.example.com"].attr.includes("fish")`,
    attributes: { attr: { string: "fish" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-scalar-positive": {
    expression: `device.attributes["dra.example.com"].name.includes(true)`,
    attributes: { name: { bool: true } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-scalar-negative": {
    expression: `device.attributes["dra.example.com"].name.includes(true)`,
    attributes: { name: { bool: false } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-list-positive": {
    expression: `device.attributes["dra.example.com"].name.includes(true)`,
    attributes: { name: { bools: [true, false] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-bool-list-negative": {
    expression: `device.attributes["dra.example.com"].name.includes(false)`,
    attributes: { name: { bools: [true, true] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-scalar-positive": {
    expression: `device.attributes["dra.example.com"].name.includes(1)`,
    attributes: { name: { int: 1 } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-scalar-negative": {
    expression: `device.attributes["dra.example.com"].name.includes(1)`,
    attributes: { name: { int: 2 } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-list-positive": {
    expression: `device.attributes["dra.example.com"].name.includes(1)`,
    attributes: { name: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-int-list-negative": {
    expression: `device.attributes["dra.example.com"].name.includes(3)`,
    attributes: { name: { ints: [1, 2] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-scalar-positive": {
    expression: `device.attributes["dra.example.com"].name.includes("fish")`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-scalar-negative": {
    expression: `device.attributes["dra.example.com"].name.includes("bird")`,
    attributes: { name: { string: "fish" } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-list-positive": {
    expression: `device.attributes["dra.example.com"].name.includes("fish")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48,
  },
  "includes-function-on-string-list-negative": {
    expression: `device.attributes["dra.example.com"].name.includes("cat")`,
    attributes: { name: { strings: ["fish", "bird"] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-semver-scalar-positive": {
    expression: `device.attributes["dra.example.com"].name.includes(semver("1.0.0"))`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-semver-scalar-negative": {
    expression: `device.attributes["dra.example.com"].name.includes(semver("2.0.0"))`,
    attributes: { name: { version: "1.0.0" } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-semver-list-positive": {
    expression: `device.attributes["dra.example.com"].name.includes(semver("1.0.0"))`,
    attributes: { name: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-semver-list-negative": {
    expression: `device.attributes["dra.example.com"].name.includes(semver("3.0.0"))`,
    attributes: { name: { versions: ["1.0.0", "2.0.0"] } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48 + 1,
  },
  "includes-function-on-very-long-list-positive": {
    expression: `device.attributes["dra.example.com"].name.includes("value-${ResourceSliceMaxAttributeValuesPerDevice}")`,
    attributes: { name: { strings: values(ResourceSliceMaxAttributeValuesPerDevice) } },
    driver: "dra.example.com",
    expectMatch: false,
    expectCost: 4 + 48,
  },
  "includes-function-on-very-long-list-runtime-error": {
    expression: `device.attributes["dra.example.com"].name.includes("value-${ResourceSliceMaxAttributeValuesPerDevice + 1}")`,
    attributes: { name: { strings: values(ResourceSliceMaxAttributeValuesPerDevice + 1) } },
    driver: "dra.example.com",
    expectMatchError: `'includes' function cannot be applied to lists longer than ${ResourceSliceMaxAttributeValuesPerDevice} values`,
    expectCost: 4 + 48,
  },
  "in-operator-on-list": {
    expression: `1 in device.attributes["dra.example.com"].names`,
    attributes: { names: { ints: [1, 2, 3] } },
    driver: "dra.example.com",
    expectMatch: true,
    expectCost: 4 + 64,
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
