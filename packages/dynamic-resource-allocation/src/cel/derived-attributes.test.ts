// DRADerivedAttributes: a derived attribute's expression evaluates to a string, int, bool or
// semver, or a list of one of them (resource.k8s.io/v1 DeviceDerivedAttribute's documentation);
// anything else fails the device's evaluation. kubesched's cases (no stored upstream test of
// the compiler covers derived attributes).
import { describe, expect, it } from "vitest";
import { Cache } from "./cache";
import { getCompiler } from "./compile";

const compiler = getCompiler({ enableConsumableCapacity: true, enableListTypeAttributes: true });
const device = {
  driver: "dra.example.com",
  attributes: {
    numa: { string: "numa-1" },
    index: { int: 3 },
    healthy: { bool: true },
    driverVersion: { version: "1.2.3" },
    roots: { strings: ["pci0000:01", "pci0000:02"] },
  },
  capacity: { memory: { value: "80Gi" } },
};
const value = (expression: string) => compiler.compileDerivedAttribute(expression).evaluate(device);

describe("derived attribute expressions", () => {
  it.each([
    ['device.attributes["dra.example.com"].numa', { string: "numa-1" }],
    ['device.attributes["dra.example.com"].index + 1', { int: 4 }],
    ['device.attributes["dra.example.com"].healthy', { bool: true }],
    ['device.attributes["dra.example.com"].driverVersion', { version: "1.2.3" }],
    ['"numa-" + string(device.attributes["dra.example.com"].index)', { string: "numa-3" }],
    ['device.attributes["dra.example.com"].roots.asList()', { strings: ["pci0000:01", "pci0000:02"] }],
    ["[1, 2]", { ints: [1, 2] }],
  ])("%s", (expression, expected) => {
    const result = value(expression);
    expect(result.error).toBeNull();
    expect(result.value).toEqual(expected);
  });

  it("refuses an output type that is no attribute value at compile time", () => {
    expect(compiler.compileDerivedAttribute("1.5").error?.detail).toBe(
      "must evaluate to a string, int, bool, semver or a list of them, not double",
    );
    expect(compiler.compileDerivedAttribute('device.capacity["dra.example.com"].memory').error?.detail).toBe(
      "must evaluate to a string, int, bool, semver or a list of them, not kubernetes.Quantity",
    );
  });

  it("a list of mixed types fails at run time", () => {
    expect(value('[dyn(1), "a"]').error?.message).toMatch(
      /^CEL result of type list is not a valid derived attribute value/,
    );
  });

  it("a value of another type at run time fails the device's evaluation", () => {
    const result = value("dyn(1.5)");
    expect(result.value).toBeUndefined();
    expect(result.error?.message).toBe(
      "CEL result of type double is not a valid derived attribute value: want a string, int, bool or semver, or a list of one of them",
    );
  });

  it("a missing attribute is a runtime error", () => {
    expect(value('device.attributes["dra.example.com"].other').error?.message).toBe("no such key: other");
  });

  it("a syntax error is a compile error", () => {
    expect(compiler.compileDerivedAttribute("device.").error?.detail).toMatch(
      /^compilation failed: ERROR: <input>:1:/,
    );
  });

  it("a costLimit lowers one evaluation's runtime limit (what is left of a shared budget)", () => {
    const compiled = compiler.compileDerivedAttribute('device.attributes["dra.example.com"].numa');
    const full = compiled.evaluate(device);
    expect(full.error).toBeNull();
    expect(compiled.evaluate(device, { costLimit: full.actualCost }).error).toBeNull();
    const over = compiled.evaluate(device, { costLimit: full.actualCost - 1 });
    expect(over.error?.message).toBe("operation cancelled: actual cost limit exceeded");
    expect(over.error?.name).toBe("CostLimitExceededError");
  });

  it("the cache keeps a successful compilation", () => {
    const cache = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: true });
    const expression = 'device.attributes["dra.example.com"].numa';
    expect(cache.getOrCompileDerivedAttribute(expression)).toBe(
      cache.getOrCompileDerivedAttribute(expression),
    );
    expect(cache.getOrCompileDerivedAttribute("device.")).not.toBe(
      cache.getOrCompileDerivedAttribute("device."),
    );
  });
});
