// CEL's regular expressions are Go's (RE2): RE2 syntax and errors, and matching in time linear in
// the input, so a selector cannot stop the scheduler with a pattern that backtracks
// (`^(a+)+$` against "aaaa…!" runs for minutes with JavaScript's RegExp).
import { describe, expect, it } from "vitest";
import { getCompiler } from "./compile";
import { regexFind, regexFindAll, regexMatches } from "./regex";

const compiler = getCompiler({ enableConsumableCapacity: true, enableListTypeAttributes: true });
const device = {
  driver: "gpu.example.com",
  attributes: {
    model: { string: `${"a".repeat(4096)}!` },
    name: { string: "GPU-a100-SXM4" },
  },
};

function evaluate(expression: string): boolean | string {
  const result = compiler.compileCELExpression(expression);
  if (result.error) return `compile: ${result.error.detail}`;
  const { matches, error } = result.deviceMatches(device);
  return error ? `runtime: ${error.message}` : matches;
}

describe("CEL regular expressions (RE2)", () => {
  it("a pattern that backtracks exponentially in RegExp is answered at once", () => {
    expect(evaluate(`device.attributes["gpu.example.com"].model.matches("^(a+)+$")`)).toBe(false);
    expect(evaluate(`matches(device.attributes["gpu.example.com"].model, "^(a|aa)+$")`)).toBe(false);
    expect(evaluate(`device.attributes["gpu.example.com"].model.find("(a*)*b") == ""`)).toBe(true);
    expect(evaluate(`[device.attributes["gpu.example.com"].model].exists(m, m.matches("^(a+)+$"))`)).toBe(
      false,
    );
  });

  it("matches searches (regexp.MatchString), in both the receiver and the global form", () => {
    expect(evaluate(`device.attributes["gpu.example.com"].name.matches("a100")`)).toBe(true);
    expect(evaluate(`matches(device.attributes["gpu.example.com"].name, "^GPU-")`)).toBe(true);
    expect(evaluate(`"abc".matches("^b")`)).toBe(false);
  });

  it("takes RE2's syntax: inline flags, Unicode classes, quoting", () => {
    expect(evaluate(`device.attributes["gpu.example.com"].name.matches("(?i)sxm4$")`)).toBe(true);
    expect(evaluate(`"Ünïcode".matches("^\\\\pL+$")`)).toBe(true);
    expect(evaluate(`"a.*b".matches("\\\\Q.*\\\\E")`)).toBe(true);
  });

  it("rejects what RE2 rejects (lookaround, backreferences) with Go's error", () => {
    expect(evaluate(`"ab".matches("a(?=b)")`)).toBe(
      "runtime: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    );
    expect(evaluate(`"aa".matches("(a)\\\\1")`)).toBe(
      "runtime: error parsing regexp: invalid escape sequence: `\\1`",
    );
    expect(evaluate(`"ab".find("(ab") == ""`)).toBe(
      "runtime: Illegal regex: error parsing regexp: missing closing ): `(ab`",
    );
    expect(evaluate(`"ab".findAll("[z-a]").size() == 0`)).toBe(
      "runtime: Illegal regex: error parsing regexp: invalid character class range: `z-a`",
    );
  });

  it("find and findAll as regexp.FindString and FindAllString", () => {
    expect(regexFind("a1b22c333", "[0-9]+")).toBe("1");
    expect(regexFind("abc", "[0-9]+")).toBe("");
    expect(regexFindAll("a1b22c333", "[0-9]+", -1)).toEqual(["1", "22", "333"]);
    expect(regexFindAll("a1b22c333", "[0-9]+", 2)).toEqual(["1", "22"]);
    expect(regexFindAll("a1b22c333", "[0-9]+", 0)).toEqual([]);
    expect(regexFindAll("abc", "[0-9]+", -1)).toEqual([]);
    expect(regexMatches("xyz", "")).toBe(true);
    expect(() => regexMatches("", "x**")).toThrow(
      "error parsing regexp: invalid nested repetition operator: `**`",
    );
  });
});
