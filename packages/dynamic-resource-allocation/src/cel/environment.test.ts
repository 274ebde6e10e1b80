// The Kubernetes CEL libraries the DRA environment enables (upstream apiserver/pkg/cel/library:
// quantity.go, semverlib.go, lists.go, regex.go, urls.go; cel-go ext strings and bindings), seen
// through device selectors, and bad input: each gives one error, never an exception.
import { CELSelectorExpressionMaxLength } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { getCompiler } from "./compile";

const compiler = getCompiler({ enableConsumableCapacity: true, enableListTypeAttributes: true });
const device = {
  driver: "gpu.example.com",
  attributes: {
    model: { string: "a100-sxm4" },
    cores: { int: 108 },
    driverVersion: { version: "535.104.5" },
    ids: { ints: [3, 1, 2] },
    endpoint: { string: "https://gpu.example.com:8443/v1/query?a=1&a=2" },
  },
  capacity: { memory: { value: "80Gi" } },
};

function evaluate(expression: string): boolean | string {
  const result = compiler.compileCELExpression(expression);
  if (result.error) return `compile: ${result.error.detail}`;
  const { matches, error } = result.deviceMatches(device);
  return error ? `runtime: ${error.message}` : matches;
}

describe("DRA CEL libraries", () => {
  const cases: [string, string][] = [
    [
      "quantity arithmetic",
      `device.capacity["gpu.example.com"].memory.sub(quantity("40Gi")).isGreaterThan(quantity("39Gi"))`,
    ],
    [
      "quantity compareTo and sign",
      `quantity("1Gi").compareTo(quantity("1024Mi")) == 0 && quantity("-1").sign() == -1`,
    ],
    [
      "quantity integers",
      `quantity("2k").isInteger() && quantity("2k").asInteger() == 2000 && !quantity("1.5").isInteger()`,
    ],
    ["isQuantity", `isQuantity("10Gi") && !isQuantity("ten")`],
    [
      "semver of an attribute",
      `device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0"))`,
    ],
    ["semver normalization", `semver("v1.2", true) == semver("1.2.0") || semver("v01.2", true).minor() == 2`],
    [
      "semver parts",
      `semver("1.2.3").major() == 1 && semver("1.2.3").patch() == 3 && !isSemver("1.2") && semver("1.0.0") != semver("2.0.0")`,
    ],
    ["semver pre-release order", `semver("1.0.0-alpha").isLessThan(semver("1.0.0"))`],
    [
      "lists",
      `device.attributes["gpu.example.com"].ids.asList().sum() == 6 && !device.attributes["gpu.example.com"].ids.asList().isSorted()`,
    ],
    ["list min, max, indexOf", `[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && [3, 1, 2].indexOf(2) == 2`],
    ["regex find", `device.attributes["gpu.example.com"].model.find("[0-9]+") == "100"`],
    [
      "regex findAll",
      `"a1b22c333".findAll("[0-9]+").size() == 3 && "a1b22c333".findAll("[0-9]+", 2) == ["1", "22"]`,
    ],
    ["url", `url(device.attributes["gpu.example.com"].endpoint).getPort() == "8443" && isURL("https://x")`],
    ["url query", `url(device.attributes["gpu.example.com"].endpoint).getQuery()["a"] == ["1", "2"]`],
    ["strings", `"abc".charAt(1) == "b" && "a-b-c".replace("-", "+") == "a+b+c" && "abc".reverse() == "cba"`],
    [
      "strings from the library",
      `device.attributes["gpu.example.com"].model.upperAscii().startsWith("A100")`,
    ],
    [
      "cel.bind",
      `cel.bind(gpu, device.attributes["gpu.example.com"], gpu.cores > 100 && gpu.model.contains("sxm"))`,
    ],
    ["optional field", `device.attributes["gpu.example.com"].?missing.orValue(7) == 7`],
    ["unknown capacity domain is empty", `device.capacity["other.example.com"].size() == 0`],
    // A list attribute reads as its first value; asList() gives all values (DRAListTypeAttributes).
    ["includes", `device.attributes["gpu.example.com"].ids.asList().includes(2)`],
    ["a list attribute's value is its first", `device.attributes["gpu.example.com"].ids == 3`],
    [
      "has() on an attribute",
      `has(device.attributes["gpu.example.com"].model) && !has(device.attributes["gpu.example.com"].missing)`,
    ],
    // As upstream's mapper: looking up any domain finds a (maybe empty) map.
    ["has() on a domain", `has(device.attributes.other) && !("other" in device.attributes)`],
    ["has() on the device", `has(device.driver)`],
  ];
  for (const [name, expression] of cases) {
    it(name, () => {
      expect(evaluate(expression)).toBe(true);
    });
  }
});

describe("bad selectors and devices", () => {
  it("a syntax error names the position", () => {
    expect(evaluate(`device.driver ==`)).toMatch(
      /^compile: compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    );
  });
  it("an unknown function is an undeclared reference", () => {
    expect(evaluate(`noSuchFunction(device.driver)`)).toBe(
      "compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchFunction' (in container '')",
    );
  });
  it("an unknown variable is an undeclared reference", () => {
    expect(evaluate(`gpu.driver == ""`)).toMatch(/undeclared reference to 'gpu'/);
  });
  it("a wrong argument type fails at run time", () => {
    expect(evaluate(`device.attributes["gpu.example.com"].cores.isGreaterThan(quantity("1"))`)).toMatch(
      /^runtime: /,
    );
  });
  it("an invalid quantity fails at run time", () => {
    expect(evaluate(`quantity("ten").sign() == 1`)).toMatch(/^runtime: .*quantit/);
  });
  it("a device with an invalid version attribute", () => {
    const result = compiler.compileCELExpression("true");
    const { matches, error } = result.deviceMatches({ driver: "d", attributes: { v: { version: "1.0" } } });
    expect(matches).toBe(false);
    expect(error?.message).toBe("attribute v: parse semantic version: No Major.Minor.Patch elements found");
  });
  it("an invalid version fails every evaluation, also after a valid one of the same text elsewhere", () => {
    const result = compiler.compileCELExpression(`device.driver == "d"`);
    for (let i = 0; i < 2; i++) {
      const bad = result.deviceMatches({ driver: "d", attributes: { v: { version: "1.0" } } });
      expect(bad.error?.message).toBe(
        "attribute v: parse semantic version: No Major.Minor.Patch elements found",
      );
      const good = result.deviceMatches({ driver: "d", attributes: { v: { version: "1.0.0" } } });
      expect(good).toMatchObject({ matches: true, error: null });
    }
  });
  it("devices that share attribute texts read their own values", () => {
    const result = compiler.compileCELExpression(
      `device.attributes["d"].v.isGreaterThan(semver("1.0.0")) && device.capacity["d"].mem.compareTo(quantity("1Gi")) == 0 && device.attributes["d"].n == 1`,
    );
    const one = {
      driver: "d",
      attributes: { v: { version: "1.2.3" }, n: { int: 1 } },
      capacity: { mem: { value: "1Gi" } },
    };
    const two = {
      driver: "d",
      attributes: { v: { version: "1.2.3" }, n: { int: 2 } },
      capacity: { mem: { value: "1Gi" } },
    };
    expect(result.deviceMatches(one)).toMatchObject({ matches: true, error: null });
    expect(result.deviceMatches(two)).toMatchObject({ matches: false, error: null });
  });
  it("an outcome that read only the driver is every device's of that driver, a conversion error first", () => {
    const result = compiler.compileCELExpression(`device.driver == "d"`);
    const first = result.deviceMatches({ driver: "d", attributes: { n: { int: 1 } } });
    expect(first).toMatchObject({ matches: true, error: null });
    expect(first.actualCost).toBeGreaterThan(0);
    expect(result.deviceMatches({ driver: "d", attributes: { n: { int: 2 } } })).toEqual(first);
    expect(result.deviceMatches({ driver: "e" })).toMatchObject({ matches: false, error: null });
    expect(result.deviceMatches({ driver: "d", attributes: { n: {} } }).error?.message).toBe(
      "attribute n: unsupported attribute value",
    );
  });
  it("an outcome that read more than the driver is not taken for other devices of the driver", () => {
    const result = compiler.compileCELExpression(
      `device.driver == "d" ? device.attributes["d"].n == 1 : device.allowMultipleAllocations`,
    );
    const d = (n: number) => ({ driver: "d", attributes: { n: { int: n } } });
    expect(result.deviceMatches(d(1)).matches).toBe(true);
    expect(result.deviceMatches(d(2)).matches).toBe(false);
    expect(result.deviceMatches(d(1)).matches).toBe(true);
    expect(result.deviceMatches({ driver: "e", allowMultipleAllocations: true }).matches).toBe(true);
    expect(result.deviceMatches({ driver: "e", allowMultipleAllocations: false }).matches).toBe(false);
    const capacity = compiler.compileCELExpression(`device.capacity["d"].mem.compareTo(quantity("1Gi")) > 0`);
    const c = (v: string) => ({ driver: "d", capacity: { mem: { value: v } } });
    expect(capacity.deviceMatches(c("2Gi")).matches).toBe(true);
    expect(capacity.deviceMatches(c("1Gi")).matches).toBe(false);
  });
  it("an interrupted evaluation is not kept for the driver", () => {
    const result = compiler.compileCELExpression(`device.driver == "d"`);
    const signal = AbortSignal.abort(new Error("stop"));
    expect(result.deviceMatches({ driver: "d" }, { signal }).error).not.toBeNull();
    expect(result.deviceMatches({ driver: "d" })).toMatchObject({ matches: true, error: null });
  });
  it("a device with an invalid capacity fails even a selector that reads only the driver", () => {
    const { matches, error } = compiler
      .compileCELExpression(`device.driver == "d"`)
      .deviceMatches({ driver: "d", capacity: { mem: { value: "ten" } } });
    expect(matches).toBe(false);
    expect(error?.message).toMatch(/quantity/);
  });
  it("a device with an empty attribute", () => {
    const { error } = compiler
      .compileCELExpression("true")
      .deviceMatches({ driver: "d", attributes: { v: {} } });
    expect(error?.message).toBe("attribute v: unsupported attribute value");
  });
  it("a lower cost limit stops an evaluation the default one allows", () => {
    const expression = `device.attributes["gpu.example.com"].ids.asList().all(x, x > 0)`;
    expect(compiler.compileCELExpression(expression).deviceMatches(device).error).toBeNull();
    const limited = compiler.compileCELExpression(expression, { costLimit: 3 }).deviceMatches(device);
    expect(limited.error?.message).toBe("operation cancelled: actual cost limit exceeded");
  });
  it("a tree deeper than the stack allows, within the 10 KiB length limit, is a compile error (not an exception)", () => {
    // Which depth overflows first (the library's checker, kubesched's cost estimate or its
    // instrumentation) depends on the stack: every size either compiles and evaluates, or fails
    // to compile with the overflow named; none throws.
    const outcomes = new Set<string>();
    for (const terms of [1500, 2500, 3500, 5100]) {
      const sum = Array.from({ length: terms }, () => "1").join("+");
      expect(sum.length + 4).toBeLessThanOrEqual(CELSelectorExpressionMaxLength);
      for (const options of [{}, { disableCostEstimation: true }]) {
        const result = compiler.compileCELExpression(`${sum} > 0`, options);
        if (result.error === null) {
          expect(result.deviceMatches(device)).toMatchObject({ matches: true, error: null });
          outcomes.add("compiled");
        } else {
          expect(result.error.detail).toMatch(
            /^compilation failed: ERROR: <input>:1:1: Maximum call stack size exceeded/,
          );
          outcomes.add("too deep");
        }
      }
      const derived = compiler.compileDerivedAttribute(sum);
      if (derived.error !== null) expect(derived.error.detail).toMatch(/Maximum call stack size exceeded/);
    }
    expect(outcomes).toContain("too deep");
  });
});
