import type { Taint, Toleration } from "kubernetes-types/core/v1.js";
import { describe, expect, it } from "vitest";
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  formatTaintForMessage,
  taintToString,
  tolerationsTolerateTaint,
  tolerationToleratesTaint,
} from "./taints";

// upstream: staging/src/k8s.io/api/core/v1/toleration_test.go
describe("TestTolerationToleratesTaint", () => {
  const sla = "node.kubernetes.io/sla";
  const cases: [string, Toleration, Taint, boolean][] = [
    [
      "toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect tolerated",
      { key: "foo", operator: "Exists", effect: "NoSchedule" },
      { key: "foo", effect: "NoSchedule" },
      true,
    ],
    [
      "toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect tolerated",
      { key: "foo", operator: "Exists", effect: "NoSchedule" },
      { key: "foo", value: "bar", effect: "NoSchedule" },
      true,
    ],
    [
      "toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all taints, expect tolerated",
      { key: "", operator: "Exists", effect: "NoSchedule" },
      { key: "foo", value: "bar", effect: "NoSchedule" },
      true,
    ],
    [
      "toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated",
      { key: "foo", operator: "Equal", value: "bar", effect: "NoSchedule" },
      { key: "foo", value: "bar", effect: "NoSchedule" },
      true,
    ],
    [
      "toleration and taint have the same key and effect, but different values, and operator is Equal, expect not tolerated",
      { key: "foo", operator: "Equal", value: "value1", effect: "NoSchedule" },
      { key: "foo", value: "value2", effect: "NoSchedule" },
      false,
    ],
    [
      "toleration and taint have the same key and value, but different effects, and operator is Equal, expect not tolerated",
      { key: "foo", operator: "Equal", value: "bar", effect: "NoSchedule" },
      { key: "foo", value: "bar", effect: "NoExecute" },
      false,
    ],
    [
      "toleration with Gt operator - taint value less than toleration value, expect not tolerated",
      { key: sla, operator: "Gt", value: "950", effect: "NoSchedule" },
      { key: sla, value: "800", effect: "NoSchedule" },
      false,
    ],
    [
      "toleration with Gt operator - taint value greater than toleration value, expect tolerated",
      { key: sla, operator: "Gt", value: "750", effect: "NoSchedule" },
      { key: sla, value: "950", effect: "NoSchedule" },
      true,
    ],
    [
      "toleration with Lt operator - taint value greater than toleration value, expect not tolerated",
      { key: sla, operator: "Lt", value: "800", effect: "NoSchedule" },
      { key: sla, value: "950", effect: "NoSchedule" },
      false,
    ],
    [
      "toleration with Lt operator - taint value less than toleration value, expect tolerated",
      { key: sla, operator: "Lt", value: "950", effect: "NoSchedule" },
      { key: sla, value: "800", effect: "NoSchedule" },
      true,
    ],
    [
      "toleration with Gt operator and taint with equal numeric value, expect not tolerated",
      { key: sla, operator: "Gt", value: "950", effect: "NoSchedule" },
      { key: sla, value: "950", effect: "NoSchedule" },
      false,
    ],
    [
      "toleration with Gt operator and taint with non-numeric value, expect not tolerated",
      { key: sla, operator: "Gt", value: "950", effect: "NoSchedule" },
      { key: sla, value: "high", effect: "NoSchedule" },
      false,
    ],
    [
      "toleration with Gt operator and negative numeric values - taint value less than threshold, expect not tolerated",
      { key: "test-key", operator: "Gt", value: "-100", effect: "NoSchedule" },
      { key: "test-key", value: "-200", effect: "NoSchedule" },
      false,
    ],
    [
      "toleration with Gt operator and large int64 values - taint value less than threshold, expect not tolerated",
      { key: "test-key", operator: "Gt", value: "9223372036854775806", effect: "NoSchedule" },
      { key: "test-key", value: "100", effect: "NoSchedule" },
      false,
    ],
  ];
  it.each(cases)("%s", (_, toleration, taint, want) => {
    expect(tolerationToleratesTaint(toleration, taint, { enableComparisonOperators: true })).toBe(want);
  });
  it("Gt/Lt tolerations match nothing while the feature is off", () => {
    const t: Toleration = { key: "sla", operator: "Gt", value: "750", effect: "NoSchedule" };
    expect(tolerationToleratesTaint(t, { key: "sla", value: "950", effect: "NoSchedule" })).toBe(false);
  });
  it("empty effect matches all effects; operator defaults to Equal", () => {
    expect(
      tolerationToleratesTaint(
        { key: "foo", value: "bar" },
        { key: "foo", value: "bar", effect: "NoExecute" },
      ),
    ).toBe(true);
    expect(tolerationToleratesTaint({ key: "foo" }, { key: "foo", effect: "NoSchedule" })).toBe(true);
    expect(
      tolerationToleratesTaint({ operator: "Exists" }, { key: "any", value: "x", effect: "NoExecute" }),
    ).toBe(true);
    expect(
      tolerationToleratesTaint({ operator: "Bogus", key: "foo" }, { key: "foo", effect: "NoSchedule" }),
    ).toBe(false);
  });
});

// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go
describe("TestFindMatchingUntoleratedTaint", () => {
  const sla = "node.kubernetes.io/sla";
  const all = () => true;
  const cases: {
    description: string;
    tolerations: Toleration[];
    taints: Taint[];
    applyFilter: ((t: Taint) => boolean) | null;
    expectTolerated: boolean;
    enableComparisonOperatorsFG?: boolean;
  }[] = [
    {
      description: "empty tolerations tolerate empty taints",
      tolerations: [],
      taints: [],
      applyFilter: all,
      expectTolerated: true,
    },
    {
      description: "non-empty tolerations tolerate empty taints",
      tolerations: [{ key: "foo", operator: "Exists", effect: "NoSchedule" }],
      taints: [],
      applyFilter: all,
      expectTolerated: true,
    },
    {
      description: "tolerations match all taints, expect tolerated",
      tolerations: [{ key: "foo", operator: "Exists", effect: "NoSchedule" }],
      taints: [{ key: "foo", effect: "NoSchedule" }],
      applyFilter: all,
      expectTolerated: true,
    },
    {
      description: "tolerations don't match taints, but no taints apply to the filter, expect tolerated",
      tolerations: [{ key: "foo", operator: "Exists", effect: "NoSchedule" }],
      taints: [{ key: "bar", effect: "NoSchedule" }],
      applyFilter: () => false,
      expectTolerated: true,
    },
    {
      description:
        "no filterFunc indicated, means all taints apply to the filter, tolerations don't match taints, expect untolerated",
      tolerations: [{ key: "foo", operator: "Exists", effect: "NoSchedule" }],
      taints: [{ key: "bar", effect: "NoSchedule" }],
      applyFilter: null,
      expectTolerated: false,
    },
    {
      description: "tolerations match taints, expect tolerated",
      tolerations: [{ key: "foo", operator: "Exists", effect: "NoExecute" }],
      taints: [
        { key: "foo", effect: "NoExecute" },
        { key: "bar", effect: "NoSchedule" },
      ],
      applyFilter: (t) => t.effect === "NoExecute",
      expectTolerated: true,
    },
    {
      description: "numeric Gt operator with taint value below threshold, expect not tolerated",
      tolerations: [{ key: sla, operator: "Gt", value: "950", effect: "NoSchedule" }],
      taints: [{ key: sla, value: "800", effect: "NoSchedule" }],
      applyFilter: all,
      expectTolerated: false,
      enableComparisonOperatorsFG: true,
    },
    {
      description: "numeric Gt operator with taint value above threshold, expect tolerated",
      tolerations: [{ key: sla, operator: "Gt", value: "750", effect: "NoSchedule" }],
      taints: [{ key: sla, value: "950", effect: "NoSchedule" }],
      applyFilter: all,
      expectTolerated: true,
      enableComparisonOperatorsFG: true,
    },
    {
      description: "numeric Lt operator with taint value above threshold, expect not tolerated",
      tolerations: [{ key: sla, operator: "Lt", value: "800", effect: "NoSchedule" }],
      taints: [{ key: sla, value: "950", effect: "NoSchedule" }],
      applyFilter: all,
      expectTolerated: false,
      enableComparisonOperatorsFG: true,
    },
    {
      description: "numeric Gt operator with non-numeric taint value, expect not tolerated",
      tolerations: [{ key: sla, operator: "Gt", value: "950", effect: "NoSchedule" }],
      taints: [{ key: sla, value: "high", effect: "NoSchedule" }],
      applyFilter: all,
      expectTolerated: false,
      enableComparisonOperatorsFG: true,
    },
    {
      description: "numeric Gt parse error is ignored when a later toleration matches the taint",
      tolerations: [
        { key: sla, operator: "Gt", value: "950", effect: "NoSchedule" },
        { key: sla, operator: "Exists", effect: "NoSchedule" },
      ],
      taints: [{ key: sla, value: "high", effect: "NoSchedule" }],
      applyFilter: all,
      expectTolerated: true,
      enableComparisonOperatorsFG: true,
    },
  ];
  it.each(cases)("$description", (tc) => {
    const got = findMatchingUntoleratedTaint(tc.taints, tc.tolerations, tc.applyFilter, {
      enableComparisonOperators: tc.enableComparisonOperatorsFG === true,
    });
    expect(got === undefined).toBe(tc.expectTolerated);
  });
  it("prefers a cleanly untolerated taint over a comparison parse failure", () => {
    const taints: Taint[] = [
      { key: "sla", value: "high", effect: "NoSchedule" },
      { key: "other", effect: "NoSchedule" },
    ];
    const tolerations: Toleration[] = [{ key: "sla", operator: "Gt", value: "1", effect: "NoSchedule" }];
    expect(findMatchingUntoleratedTaint(taints, tolerations, null, { enableComparisonOperators: true })).toBe(
      taints[1],
    );
    expect(
      findMatchingUntoleratedTaint(taints.slice(0, 1), tolerations, null, {
        enableComparisonOperators: true,
      }),
    ).toBe(taints[0]);
  });
  it("tolerationsTolerateTaint", () => {
    expect(tolerationsTolerateTaint(undefined, { key: "a", effect: "NoSchedule" })).toBe(false);
    expect(tolerationsTolerateTaint([{ operator: "Exists" }], { key: "a", effect: "NoSchedule" })).toBe(true);
  });
});

// upstream: staging/src/k8s.io/api/core/v1/taint_test.go
describe("TestTaintToString", () => {
  it.each([
    [{ key: "foo", value: "bar", effect: "NoSchedule" }, "foo=bar:NoSchedule"],
    [{ key: "foo", effect: "NoSchedule" }, "foo:NoSchedule"],
    [{ key: "foo", effect: "" }, "foo:"],
  ] as [Taint, string][])("%j", (taint, want) => expect(taintToString(taint)).toBe(want));
  it("formats for messages and filters by effect", () => {
    expect(formatTaintForMessage({ key: "dedicated", value: "gpu", effect: "NoSchedule" })).toBe(
      "{dedicated: gpu}",
    );
    expect(doNotScheduleTaintsFilter({ key: "a", effect: "NoSchedule" })).toBe(true);
    expect(doNotScheduleTaintsFilter({ key: "a", effect: "NoExecute" })).toBe(true);
    expect(doNotScheduleTaintsFilter({ key: "a", effect: "PreferNoSchedule" })).toBe(false);
  });
});
