import type { LabelSelector } from "kubernetes-types/meta/v1.js";
import { describe, expect, it } from "vitest";
import {
  everything,
  LabelSelectorError,
  labelSelectorAsSelector,
  matchesNothing,
  newRequirement,
  nothing,
  type Operator,
  parseSelector,
  type Requirement,
  selectorFromRequirements,
  selectorFromSet,
} from "./labels";

// upstream: staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go

describe("TestSelectorParse", () => {
  const good = ["x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"];
  it.each(good)("parses and restrings %j", (s) =>
    expect(parseSelector(s).string()).toBe(s.replaceAll(" ", "")),
  );
  const bad = ["x=a||y=b", "x==a==b", "!x=a", "x<a"];
  it.each(bad)("rejects %j", (s) => expect(() => parseSelector(s)).toThrow(LabelSelectorError));
});

describe("TestDeterministicParse", () => {
  it("sorts by key", () => expect(parseSelector("x=a,a=x").string()).toBe(parseSelector("a=x,x=a").string()));
});

describe("TestEverything", () => {
  it("matches and is empty", () => {
    expect(everything().matches({ x: "y" })).toBe(true);
    expect(everything().empty()).toBe(true);
  });
});

describe("TestSelectorMatches", () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ["", { x: "y" }, true],
    ["x=y", { x: "y" }, true],
    ["x=y,z=w", { x: "y", z: "w" }, true],
    ["x!=y,z!=w", { x: "z", z: "a" }, true],
    ["notin=in", { notin: "in" }, true],
    ["x", { x: "z" }, true],
    ["!x", { y: "z" }, true],
    ["x>1", { x: "2" }, true],
    ["x<1", { x: "0" }, true],
    ["x=z", {}, false],
    ["x=y", { x: "z" }, false],
    ["x=y,z=w", { x: "w", z: "w" }, false],
    ["x!=y,z!=w", { x: "z", z: "w" }, false],
    ["x", { y: "z" }, false],
    ["!x", { x: "z" }, false],
    ["x>1", { x: "0" }, false],
    ["x<1", { x: "2" }, false],
    ["foo=bar", { foo: "bar", baz: "blah" }, true],
    ["baz=blah", { foo: "bar", baz: "blah" }, true],
    ["foo=bar,baz=blah", { foo: "bar", baz: "blah" }, true],
    ["foo=blah", { foo: "bar", baz: "blah" }, false],
    ["baz=bar", { foo: "bar", baz: "blah" }, false],
    ["foo=bar,foobar=bar,baz=blah", { foo: "bar", baz: "blah" }, false],
  ];
  it.each(cases)("%j against %j → %s", (sel, ls, want) => expect(parseSelector(sel).matches(ls)).toBe(want));
});

describe("TestSetMatches", () => {
  const labelset = { foo: "bar", baz: "blah" };
  it.each<Record<string, string>>([{}, { foo: "bar" }, { baz: "blah" }, { foo: "bar", baz: "blah" }])(
    "%j",
    (set) => expect(selectorFromSet(set).matches(labelset)).toBe(true),
  );
});

describe("TestNilMapIsValid / TestSetIsEmpty", () => {
  it("nil and empty sets are Everything", () => {
    expect(selectorFromSet(undefined).empty()).toBe(true);
    expect(selectorFromSet({}).empty()).toBe(true);
  });
});

describe("TestRequirementConstructor", () => {
  const cases: [string, Operator, string[] | undefined, boolean][] = [
    ["x", "In", undefined, false],
    ["x", "NotIn", [], false],
    ["x", "In", ["foo"], true],
    ["x", "NotIn", ["foo"], true],
    ["x", "Exists", undefined, true],
    ["x", "DoesNotExist", undefined, true],
    ["1foo", "In", ["bar"], true],
    ["1234", "In", ["bar"], true],
    ["y", "Gt", ["1"], true],
    ["z", "Lt", ["6"], true],
    ["foo", "Gt", ["bar"], false],
    ["barz", "Lt", ["blah"], false],
    ["a".repeat(254), "Exists", undefined, false],
  ];
  it.each(cases)("%s %s %j → ok=%s", (key, op, vals, ok) => {
    if (ok) expect(() => newRequirement(key, op, vals)).not.toThrow();
    else expect(() => newRequirement(key, op, vals)).toThrow(LabelSelectorError);
  });
});

const req = (key: string, op: Operator, vals?: string[]): Requirement => newRequirement(key, op, vals);
const sel = (...reqs: Requirement[]) => selectorFromRequirements(reqs);

describe("TestToString", () => {
  const cases: [Requirement[], string][] = [
    [
      [req("x", "In", ["abc", "def"]), req("y", "NotIn", ["jkl"]), req("z", "Exists")],
      "x in (abc,def),y notin (jkl),z",
    ],
    [
      [req("x", "NotIn", ["abc", "def"]), req("y", "NotEquals", ["jkl"]), req("z", "DoesNotExist")],
      "x notin (abc,def),y!=jkl,!z",
    ],
    [
      [req("x", "NotIn", ["abc"]), req("y", "In", ["jkl", "mno"]), req("z", "NotIn", [""])],
      "x notin (abc),y in (jkl,mno),z notin ()",
    ],
    [
      [
        req("x", "Equals", ["abc"]),
        req("y", "DoubleEquals", ["jkl"]),
        req("z", "NotEquals", ["a"]),
        req("z", "Exists"),
      ],
      "x=abc,y==jkl,z!=a,z",
    ],
    [[req("x", "Gt", ["2"]), req("y", "Lt", ["8"]), req("z", "Exists")], "x>2,y<8,z"],
  ];
  it.each(cases)("%#", (reqs, want) => expect(sel(...reqs).string()).toBe(want));
  it("sorts values on output without mutating them", () => {
    const r = req("x", "In", ["def", "abc"]);
    expect(sel(r).string()).toBe("x in (abc,def)");
    expect(r.values).toEqual(["def", "abc"]);
  });
});

describe("TestRequirementSelectorMatching", () => {
  const cases: [Record<string, string>, Requirement[], boolean][] = [
    [{ x: "foo", y: "baz" }, [req("x", "In", ["foo"]), req("y", "NotIn", ["alpha"])], true],
    [{ x: "foo", y: "baz" }, [req("x", "In", ["foo"]), req("y", "In", ["alpha"])], false],
    [{ y: "" }, [req("x", "NotIn", [""]), req("y", "Exists")], true],
    [{ y: "" }, [req("x", "DoesNotExist"), req("y", "Exists")], true],
    [{ y: "" }, [req("x", "NotIn", [""]), req("y", "DoesNotExist")], false],
    [{ y: "baz" }, [req("x", "In", [""])], false],
    [{ z: "2" }, [req("z", "Gt", ["1"])], true],
    [{ z: "v2" }, [req("z", "Gt", ["1"])], false],
  ];
  it.each(cases)("%j %#", (ls, reqs, want) => expect(sel(...reqs).matches(ls)).toBe(want));
});

describe("TestSetSelectorParser", () => {
  // [input, expected string form or null when invalid]
  const cases: [string, string | null][] = [
    ["", ""],
    ["\rx", "x"],
    ["this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash"],
    [
      "this-is-another-dns.domain.com/key-with-dash in (so,what)",
      "this-is-another-dns.domain.com/key-with-dash in (so,what)",
    ],
    [
      "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
      "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)",
    ],
    ["foo  in\t (abc)", "foo in (abc)"],
    ["x notin\n (abc)", "x notin (abc)"],
    ["x  notin\t\t\t(abc,def)", "x notin (abc,def)"],
    ["x in (abc,def)", "x in (abc,def)"],
    ["x in (abc,)", "x in (,abc)"],
    ["x in ()", "x in ()"],
    ["x notin (abc,def),bar,z in (),w", "bar,w,x notin (abc,def),z in ()"],
    ["x,y in (a)", "x,y in (a)"],
    ["x=a", "x=a"],
    ["x>1", "x>1"],
    ["x<7", "x<7"],
    ["x=a,y!=b", "x=a,y!=b"],
    ["x=a,y!=b,z in (h,i,j)", "x=a,y!=b,z in (h,i,j)"],
    ["x=a||y=b", null],
    ["x,y", "x,y"],
    [",x,y", null],
    ["x nott in (y)", null],
    ["x notin ( )", "x notin ()"],
    ["x notin (, a)", "x notin (,a)"],
    ["a in (xyz),", null],
    ["a in (xyz)b notin ()", null],
    ["a ", "a"],
    ["a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"],
    ["a in (xyz abc)", null],
    ["a notin(", null],
    ["a (", null],
    ["(", null],
  ];
  it.each(cases)("%j", (input, want) => {
    if (want === null) expect(() => parseSelector(input)).toThrow(LabelSelectorError);
    else expect(parseSelector(input).string()).toBe(want);
  });
});

// upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers_test.go
describe("TestLabelSelectorAsSelector", () => {
  const matchLabels = { foo: "bar" };
  const matchExpressions = [{ key: "baz", operator: "In", values: ["qux", "norf"] }];
  const cases: [LabelSelector | null, string | null, boolean][] = [
    [null, "", false],
    [{}, "", false],
    [{ matchLabels }, "foo=bar", false],
    [{ matchExpressions }, "baz in (norf,qux)", false],
    [{ matchLabels, matchExpressions }, "baz in (norf,qux),foo=bar", false],
    [{ matchExpressions: [{ key: "baz", operator: "Exists", values: ["qux", "norf"] }] }, null, true],
    [{ matchExpressions: [{ key: "baz", operator: "DoesNotExist", values: ["qux", "norf"] }] }, null, true],
    [{ matchExpressions: [{ key: "baz", operator: "Foo", values: ["qux", "norf"] }] }, null, true],
  ];
  it.each(cases)("%j", (input, want, expectErr) => {
    if (expectErr) {
      expect(() => labelSelectorAsSelector(input)).toThrow(LabelSelectorError);
      return;
    }
    const out = labelSelectorAsSelector(input);
    expect(out.string()).toBe(want);
  });
  it("nil is Nothing, empty is Everything", () => {
    expect(matchesNothing(labelSelectorAsSelector(null))).toBe(true);
    expect(labelSelectorAsSelector(undefined).matches({})).toBe(false);
    expect(labelSelectorAsSelector({}).empty()).toBe(true);
    expect(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).matches({ a: "b" })).toBe(true);
    expect(nothing().empty()).toBe(false);
  });
  it("does not modify its input", () => {
    const input = {
      matchLabels: { a: "b" },
      matchExpressions: [{ key: "c", operator: "In", values: ["z", "y"] }],
    };
    const copy = structuredClone(input);
    labelSelectorAsSelector(input);
    expect(input).toEqual(copy);
  });
  it("reports upstream's messages", () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: "a", operator: "Foo" }] })).toThrow(
      '"Foo" is not a valid label selector operator',
    );
    expect(() =>
      labelSelectorAsSelector({ matchExpressions: [{ key: "a", operator: "In", values: [] }] }),
    ).toThrow("values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty");
    expect(() =>
      labelSelectorAsSelector({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }),
    ).toThrow(`values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist`);
    expect(() => labelSelectorAsSelector({ matchLabels: { "bad key": "v" } })).toThrow(
      `key: Invalid value: "bad key": name part must consist of alphanumeric characters`,
    );
  });
});

describe("matching edge cases", () => {
  it("treats inherited object members as absent labels", () => {
    expect(parseSelector("constructor").matches({})).toBe(false);
    expect(parseSelector("!toString").matches({})).toBe(true);
  });
  it("undefined labels are an empty set", () => {
    expect(parseSelector("!a").matches(undefined)).toBe(true);
    expect(parseSelector("a").matches(undefined)).toBe(false);
  });
  it("compares Gt/Lt as int64", () => {
    expect(parseSelector("x>9007199254740993").matches({ x: "9007199254740994" })).toBe(true);
    expect(parseSelector("x<5").matches({ x: "-2" })).toBe(true);
    expect(() => parseSelector("x<-1")).toThrow(LabelSelectorError); // "-1" is not a valid label value
    expect(parseSelector("x>1").matches({ x: "1.5" })).toBe(false);
  });
  it("matches In with many values through a set", () => {
    const s = labelSelectorAsSelector({
      matchExpressions: [{ key: "a", operator: "In", values: ["x", "y", "z"] }],
    });
    expect(s.matches({ a: "y" })).toBe(true);
    expect(s.matches({ a: "w" })).toBe(false);
  });
});
