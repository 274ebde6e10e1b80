import { describe, expect, it } from "vitest";
import { decodeJSON, formatJSONPath } from "./json";

const nested = (depth: number) => `${"[".repeat(depth)}0${"]".repeat(depth)}`;

describe("decodeJSON", () => {
  it("the value, as JSON.parse gives it", () => {
    expect(decodeJSON('{"a": [1, {"b": "c"}], "d": null}')).toEqual({
      value: { a: [1, { b: "c" }], d: null },
      duplicateFields: [],
      depth: 3,
    });
  });

  it("every duplicate field, with its path from the root (the last value wins)", () => {
    const text = JSON.stringify({
      kind: "List",
      items: [{ metadata: { name: "a" } }, { metadata: { name: "b" } }],
    }).replace('"name":"b"', '"name":"b","name":"c","name":"d"');
    const d = decodeJSON(`${text.slice(0, -1)},"kind":"PodList"}`);
    expect(d.duplicateFields).toEqual([
      ["items", 1, "metadata", "name"],
      ["items", 1, "metadata", "name"],
      ["kind"],
    ]);
    expect(d.value).toMatchObject({ kind: "PodList", items: [{}, { metadata: { name: "d" } }] });
  });

  it("compares keys as decoded: escapes, quotes and commas inside strings", () => {
    const d = decodeJSON('{"a": "x\\",\\"a\\": 1", "\\u0061": {"k\\\\": 1, "k\\\\": [",", "{"]}}');
    expect(d.duplicateFields).toEqual([["a"], ["a", "k\\"]]);
  });

  it("siblings at one level have their own keys; big objects too", () => {
    const big = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, { x: i }]));
    const text = JSON.stringify([big, big]).replace('"k99":{"x":99}}', '"k99":{"x":99},"k3":0}');
    expect(decodeJSON(text).duplicateFields).toEqual([[0, "k3"]]);
  });

  it("reads any depth without recursion: 100,000 levels", () => {
    const d = decodeJSON(`{"a": ${nested(100_000)}, "a": 1}`);
    expect(d.depth).toBe(100_001);
    expect(d.duplicateFields).toEqual([["a"]]);
  });

  it("syntax errors are JSON.parse's", () => {
    expect(() => decodeJSON('{"a": }')).toThrowError(SyntaxError);
  });
});

describe("formatJSONPath", () => {
  it("writes fields with dots, indices and other keys in brackets", () => {
    expect(formatJSONPath(["spec", "containers", 0, "resources", "requests", "cpu"])).toBe(
      "spec.containers[0].resources.requests.cpu",
    );
    expect(formatJSONPath(["metadata", "labels", "app.kubernetes.io/name"])).toBe(
      "metadata.labels[app.kubernetes.io/name]",
    );
    expect(formatJSONPath([0, "a"])).toBe("[0].a");
  });
});
