// Decoding as Go's encoding/json (json.NewDecoder(r).Decode(&v)) decodes into the extender/v1
// types: the values and the messages Go gives (upstream: go/src/encoding/json/decode_test.go,
// scanner_test.go, stream_test.go for the rules; the messages as UnmarshalTypeError.Error() and
// the scanner print them).
import { describe, expect, it } from "vitest";
import {
  ExtenderBindingResult,
  ExtenderFilterResult,
  ExtenderPreemptionResult,
  HostPriorityList,
} from "./extender-v1";
import { clip, decodeGoJSON } from "./go-json";

describe("decodeGoJSON: values", () => {
  it("decodes a HostPriorityList, matching field names exactly or case-insensitively", () => {
    expect(
      decodeGoJSON(
        '[{"Host":"a","Score":3},{"host":"b","score":10},{"HOST":"c","sCoRe":-2}]',
        HostPriorityList,
      ),
    ).toEqual([
      { Host: "a", Score: 3 },
      { Host: "b", Score: 10 },
      { Host: "c", Score: -2 },
    ]);
  });

  it("folds ſ with s as Go does, and no other character beyond ASCII (the dotless ı is not i)", () => {
    expect(decodeGoJSON('[{"Host":"a","ſcore":4}]', HostPriorityList)).toEqual([{ Host: "a", Score: 4 }]);
    expect(
      decodeGoJSON('{"NodeNameToMetaVictims":{"n":{"Pods":[{"uıd":"x"}]}}}', ExtenderPreemptionResult),
    ).toEqual({
      NodeNameToMetaVictims: { n: { Pods: [{ UID: "" }], NumPDBViolations: 0 } },
    });
  });

  it("null for a number or a string leaves Go's zero value; null for a slice, map or pointer is nil", () => {
    expect(decodeGoJSON('[{"Host":null,"Score":null}]', HostPriorityList)).toEqual([{ Host: "", Score: 0 }]);
    expect(decodeGoJSON("null", HostPriorityList)).toEqual([]);
    expect(decodeGoJSON('{"Score":3}', ExtenderBindingResult)).toEqual({ Error: "" });
    const r = decodeGoJSON('{"Nodes":null,"NodeNames":null,"FailedNodes":null}', ExtenderFilterResult);
    expect(r).toEqual({
      Nodes: null,
      NodeNames: null,
      FailedNodes: {},
      FailedAndUnresolvableNodes: {},
      Error: "",
    });
    expect(decodeGoJSON('{"NodeNames":[]}', ExtenderFilterResult).NodeNames).toEqual([]);
  });

  it("int64 takes every integer literal in its range (as the nearest number beyond 2^53)", () => {
    const score = (lit: string) => decodeGoJSON(`[{"Host":"a","Score":${lit}}]`, HostPriorityList)[0]?.Score;
    expect(score("9223372036854775807")).toBe(Number(9223372036854775807n));
    expect(score("-9223372036854775808")).toBe(Number(-9223372036854775808n));
    expect(score("-0")).toBe(0);
  });

  it("ignores unknown fields, however deep", () => {
    expect(
      decodeGoJSON(
        '[{"Host":"a","extra":{"deep":[1,2.5e9,{"x":null,"y":[true,false,"s"]}]},"Score":1}]',
        HostPriorityList,
      ),
    ).toEqual([{ Host: "a", Score: 1 }]);
  });

  it("a field given twice: the last value wins, maps merge, slices are decoded in place", () => {
    expect(decodeGoJSON('[{"Score":1,"score":2,"Host":"a"}]', HostPriorityList)).toEqual([
      { Host: "a", Score: 2 },
    ]);
    expect(
      decodeGoJSON('{"FailedNodes":{"a":"x"},"failedNodes":{"b":"y"}}', ExtenderFilterResult).FailedNodes,
    ).toEqual({
      a: "x",
      b: "y",
    });
    expect(
      decodeGoJSON(
        '{"NodeNameToMetaVictims":{"n":{"Pods":[{"UID":"u1"},{"UID":"u2"}]}},"x":1}',
        ExtenderPreemptionResult,
      ),
    ).toEqual({
      NodeNameToMetaVictims: { n: { Pods: [{ UID: "u1" }, { UID: "u2" }], NumPDBViolations: 0 } },
    });
  });

  it("map keys are data, never an object's own properties", () => {
    const r = decodeGoJSON('{"FailedNodes":{"__proto__":"p","constructor":"c"}}', ExtenderFilterResult);
    expect(Object.entries(r.FailedNodes)).toEqual([
      ["__proto__", "p"],
      ["constructor", "c"],
    ]);
  });

  it("reads the first value only (a Decoder): what follows it is not read", () => {
    expect(decodeGoJSON('  [] trailing {"garbage"', HostPriorityList)).toEqual([]);
    expect(decodeGoJSON('{"Error":"no"}}}', ExtenderBindingResult)).toEqual({ Error: "no" });
  });

  it("accepts nesting up to Go's maximum depth", () => {
    const deep = `{"x":${"[".repeat(9999)}${"]".repeat(9999)},"Error":"deep"}`;
    expect(decodeGoJSON(deep, ExtenderBindingResult)).toEqual({ Error: "deep" });
  });
});

describe("decodeGoJSON: type errors (UnmarshalTypeError)", () => {
  const cases: { name: string; json: string; schema: Parameters<typeof decodeGoJSON>[1]; error: string }[] = [
    {
      name: "a fraction for an int64",
      json: '[{"Host":"a","Score":1.5}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal number 1.5 into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "beyond float64",
      json: '[{"Host":"a","Score":1e999}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal number 1e999 into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "a float64 beyond int64",
      json: '[{"Host":"a","Score":-1e308}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal number -1e308 into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "one beyond int64",
      json: '[{"Host":"a","Score":9223372036854775808}]',
      schema: HostPriorityList,
      error:
        "json: cannot unmarshal number 9223372036854775808 into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "an integral value written with a fraction",
      json: '[{"Host":"a","Score":1.0}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal number 1.0 into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "an exponent",
      json: '[{"Host":"a","Score":1E2}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal number 1E2 into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "a number in a string",
      json: '[{"Host":"a","Score":"1e999"}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal string into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "a bool",
      json: '[{"Host":"a","Score":true}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal bool into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "a number for a string",
      json: '[{"Host":1,"Score":1}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal number into Go struct field HostPriority.Host of type string",
    },
    {
      name: "an object for the list",
      json: '{"Host":"a","Score":1}',
      schema: HostPriorityList,
      error: "json: cannot unmarshal object into Go value of type v1.HostPriorityList",
    },
    {
      name: "a string for an element",
      json: '["a"]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal string into Go value of type v1.HostPriority",
    },
    {
      name: "an array for a map",
      json: '{"FailedNodes":[]}',
      schema: ExtenderFilterResult,
      error:
        "json: cannot unmarshal array into Go struct field ExtenderFilterResult.FailedNodes of type v1.FailedNodesMap",
    },
    {
      name: "a number for a map's value",
      json: '{"FailedNodes":{"a":1}}',
      schema: ExtenderFilterResult,
      error:
        "json: cannot unmarshal number into Go struct field ExtenderFilterResult.FailedNodes of type string",
    },
    {
      name: "an object for a pointer to a slice",
      json: '{"NodeNames":{}}',
      schema: ExtenderFilterResult,
      error:
        "json: cannot unmarshal object into Go struct field ExtenderFilterResult.NodeNames of type []string",
    },
    {
      name: "a nested field: the innermost struct and the path from the root",
      json: '{"Nodes":{"items":[{"metadata":{"name":5}}]}}',
      schema: ExtenderFilterResult,
      error:
        "json: cannot unmarshal number into Go struct field ObjectMeta.Nodes.items.metadata.name of type string",
    },
    {
      name: "a number for the error",
      json: '{"Error":5}',
      schema: ExtenderBindingResult,
      error: "json: cannot unmarshal number into Go struct field ExtenderBindingResult.Error of type string",
    },
    {
      name: "through a map of pointers (map keys are not in the path)",
      json: '{"NodeNameToMetaVictims":{"n":{"Pods":[{"UID":5}]}}}',
      schema: ExtenderPreemptionResult,
      error:
        "json: cannot unmarshal number into Go struct field MetaPod.NodeNameToMetaVictims.Pods.UID of type string",
    },
    {
      name: "a string for the pointed-to struct",
      json: '{"NodeNameToMetaVictims":{"n":"x"}}',
      schema: ExtenderPreemptionResult,
      error:
        "json: cannot unmarshal string into Go struct field ExtenderPreemptionResult.NodeNameToMetaVictims of type v1.MetaVictims",
    },
    {
      name: "a string for an int64 in a pointed-to struct",
      json: '{"NodeNameToMetaVictims":{"n":{"NumPDBViolations":"1"}}}',
      schema: ExtenderPreemptionResult,
      error:
        "json: cannot unmarshal string into Go struct field MetaVictims.NodeNameToMetaVictims.NumPDBViolations of type int64",
    },
    {
      name: "the first error in the document is the one reported",
      json: '[{"Host":"a","Score":"x"},{"Host":2}]',
      schema: HostPriorityList,
      error: "json: cannot unmarshal string into Go struct field HostPriority.Score of type int64",
    },
    {
      name: "an overlong literal is cut in the message",
      json: `[{"Host":"a","Score":${"9".repeat(100)}}]`,
      schema: HostPriorityList,
      error: `json: cannot unmarshal number ${"9".repeat(64)}... into Go struct field HostPriority.Score of type int64`,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(() => decodeGoJSON(tc.json, tc.schema)).toThrow(tc.error);
      try {
        decodeGoJSON(tc.json, tc.schema);
      } catch (e) {
        expect((e as Error).message).toBe(tc.error);
      }
    });
  }
});

describe("decodeGoJSON: syntax errors (the scanner's, the Decoder's)", () => {
  const cases: [string, string][] = [
    ["", "EOF"],
    [" \n\t", "EOF"],
    ["[", "unexpected EOF"],
    ['[{"Host":"a"', "unexpected EOF"],
    ['"abc', "unexpected EOF"],
    ["tru", "unexpected EOF"],
    ["x", "invalid character 'x' looking for beginning of value"],
    ["\uFEFF[]", "invalid character 'ï' looking for beginning of value"],
    ["\u001b[2J", "invalid character '\\x1b' looking for beginning of value"],
    ["[1 2]", "invalid character '2' after array element"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ["{1:2}", "invalid character '1' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ["[1,]", "invalid character ']' looking for beginning of value"],
    ["trux", "invalid character 'x' in literal true (expecting 'e')"],
    ["nul1", "invalid character '1' in literal null (expecting 'l')"],
    ['["a\\qb"]', "invalid character 'q' in string escape code"],
    ['["\\u12x4"]', "invalid character 'x' in \\u hexadecimal character escape"],
    ['["a\nb"]', "invalid character '\\n' in string literal"],
    ["[-x]", "invalid character 'x' in numeric literal"],
    ["[1.x]", "invalid character 'x' after decimal point in numeric literal"],
    ["[1ex]", "invalid character 'x' in exponent of numeric literal"],
    ["[01]", "invalid character '1' after array element"],
    [`${"[".repeat(10001)}${"]".repeat(10001)}`, "invalid character '[' exceeded max depth"],
  ];
  for (const [json, error] of cases) {
    it(`${JSON.stringify(json.length > 20 ? `${json.slice(0, 20)}...` : json)}: ${error}`, () => {
      expect(() => decodeGoJSON(json, HostPriorityList)).toThrow(error);
    });
  }

  it("a syntax error anywhere wins over a type error before it (Go checks the syntax first)", () => {
    expect(() => decodeGoJSON('[{"Score":"x"}, x]', HostPriorityList)).toThrow(
      "invalid character 'x' looking for beginning of value",
    );
  });
});

describe("clip", () => {
  it("keeps short text and cuts long text with a note of what was left out", () => {
    expect(clip("short", 10)).toBe("short");
    expect(clip("abcdefghij-rest", 10)).toBe("abcdefghij... (5 more characters)");
  });
  it("does not split a surrogate pair", () => {
    expect(clip(`${"a".repeat(9)}😀tail`, 10)).toBe(`${"a".repeat(9)}... (6 more characters)`);
  });
});
