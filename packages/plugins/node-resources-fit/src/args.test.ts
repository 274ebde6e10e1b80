// upstream: pkg/scheduler/apis/config/validation/validation_pluginargs_test.go (TestValidateFitArgs,
// TestValidate{Least,Most}AllocatedScoringStrategy, TestValidateRequestedToCapacityRatioScoringStrategy)
// and the NodeResourcesFitArgs cases of pkg/scheduler/apis/config/v1/defaults_test.go.
import { formatFieldErrors, type ResourceSpec } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  decodeNodeResourcesFitArgs,
  type NodeResourcesFitArgs,
  type ScoringStrategy,
  type UtilizationShapePoint,
  validateNodeResourcesFitArgs,
} from "./args";

const defaultScoringStrategy: ScoringStrategy = {
  type: "LeastAllocated",
  resources: [
    { name: "cpu", weight: 1 },
    { name: "memory", weight: 1 },
  ],
};

function args(a: Partial<NodeResourcesFitArgs>): NodeResourcesFitArgs {
  return { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: defaultScoringStrategy, ...a };
}

describe("TestValidateFitArgs", () => {
  const cases: { name: string; args: NodeResourcesFitArgs; expect?: string }[] = [
    {
      name: "IgnoredResources: too long value",
      args: args({ ignoredResources: [`longvalue${"a".repeat(64)}`] }),
      expect: "name part must be no more than 63 characters",
    },
    {
      name: "IgnoredResources: name is empty",
      args: args({ ignoredResources: ["example.com/"] }),
      expect: "name part must be non-empty",
    },
    {
      name: "IgnoredResources: name has too many slash",
      args: args({ ignoredResources: ["example.com/aaa/bbb"] }),
      expect: "a qualified name must consist of alphanumeric characters",
    },
    { name: "IgnoredResources: valid args", args: args({ ignoredResources: ["example.com"] }) },
    { name: "IgnoredResourceGroups: valid args ", args: args({ ignoredResourceGroups: ["example.com"] }) },
    {
      name: "IgnoredResourceGroups: illegal args",
      args: args({ ignoredResourceGroups: ["example.com/"] }),
      expect: "name part must be non-empty",
    },
    {
      name: "IgnoredResourceGroups: name is too long",
      args: args({ ignoredResourceGroups: ["a".repeat(64)] }),
      expect: "name part must be no more than 63 characters",
    },
    {
      name: "IgnoredResourceGroups: name cannot be contain slash",
      args: args({ ignoredResourceGroups: ["example.com/aa"] }),
      expect: "resource group name can't contain '/'",
    },
    {
      name: "ScoringStrategy: type is unsupported",
      args: args({ scoringStrategy: { type: "Invalid", resources: [] } }),
      expect: `Unsupported value: "Invalid"`,
    },
  ];
  it.each(cases)("$name", (tc) => {
    const errs = validateNodeResourcesFitArgs(tc.args, "");
    if (tc.expect === undefined) expect(errs).toEqual([]);
    else expect(formatFieldErrors(errs)).toContain(tc.expect);
  });

  it("ScoringStrategy: field is required (decoding an absent strategy defaults it instead)", () => {
    const { args: got, errors } = decodeNodeResourcesFitArgs({}, "");
    expect(errors).toEqual([]);
    expect(got.scoringStrategy).toEqual(defaultScoringStrategy);
  });
});

type ErrCase = { name: string; resources?: ResourceSpec[]; wantErrs: string[] };

function weightCases(): ErrCase[] {
  return [
    { name: "default config", wantErrs: [] },
    {
      name: "multi valid resources",
      resources: [
        { name: "cpu", weight: 1 },
        { name: "memory", weight: 10 },
      ],
      wantErrs: [],
    },
    {
      name: "weight less than min",
      resources: [{ name: "cpu", weight: 0 }],
      wantErrs: ["Invalid scoringStrategy.resources[0].weight"],
    },
    {
      name: "weight greater than max",
      resources: [{ name: "cpu", weight: 101 }],
      wantErrs: ["Invalid scoringStrategy.resources[0].weight"],
    },
    {
      name: "multi invalid resources",
      resources: [
        { name: "cpu", weight: 0 },
        { name: "memory", weight: 101 },
      ],
      wantErrs: [
        "Invalid scoringStrategy.resources[0].weight",
        "Invalid scoringStrategy.resources[1].weight",
      ],
    },
  ];
}

const summary = (a: NodeResourcesFitArgs) =>
  validateNodeResourcesFitArgs(a, "").map((e) => `${e.type} ${e.field}`);

describe("TestValidateLeastAllocatedScoringStrategy", () => {
  it.each(weightCases())("$name", (tc) => {
    expect(
      summary(args({ scoringStrategy: { type: "LeastAllocated", resources: tc.resources ?? [] } })),
    ).toEqual(tc.wantErrs);
  });
});

describe("TestValidateMostAllocatedScoringStrategy", () => {
  it.each(weightCases())("$name", (tc) => {
    expect(
      summary(args({ scoringStrategy: { type: "MostAllocated", resources: tc.resources ?? [] } })),
    ).toEqual(tc.wantErrs);
  });
});

describe("TestValidateRequestedToCapacityRatioScoringStrategy", () => {
  const defaultShape: UtilizationShapePoint[] = [{ utilization: 30, score: 3 }];
  const cases: (ErrCase & { shapes: UtilizationShapePoint[] })[] = [
    { name: "no shapes", shapes: [], wantErrs: ["Required scoringStrategy.shape"] },
    {
      name: "weight greater than max",
      shapes: defaultShape,
      resources: [{ name: "cpu", weight: 101 }],
      wantErrs: ["Invalid scoringStrategy.resources[0].weight"],
    },
    {
      name: "weight less than min",
      shapes: defaultShape,
      resources: [{ name: "cpu", weight: 0 }],
      wantErrs: ["Invalid scoringStrategy.resources[0].weight"],
    },
    { name: "valid shapes", shapes: defaultShape, wantErrs: [] },
    {
      name: "utilization less than min",
      shapes: [{ utilization: -1, score: 3 }],
      wantErrs: ["Invalid scoringStrategy.shape[0].utilization"],
    },
    {
      name: "utilization greater than max",
      shapes: [{ utilization: 101, score: 3 }],
      wantErrs: ["Invalid scoringStrategy.shape[0].utilization"],
    },
    {
      name: "duplicated utilization values",
      shapes: [
        { utilization: 10, score: 3 },
        { utilization: 10, score: 3 },
      ],
      wantErrs: ["Invalid scoringStrategy.shape[1].utilization"],
    },
    {
      name: "increasing utilization values",
      shapes: [
        { utilization: 10, score: 3 },
        { utilization: 20, score: 3 },
        { utilization: 30, score: 3 },
      ],
      wantErrs: [],
    },
    {
      name: "non-increasing utilization values",
      shapes: [
        { utilization: 10, score: 3 },
        { utilization: 20, score: 3 },
        { utilization: 15, score: 3 },
      ],
      wantErrs: ["Invalid scoringStrategy.shape[2].utilization"],
    },
    {
      name: "score less than min",
      shapes: [{ utilization: 10, score: -1 }],
      wantErrs: ["Invalid scoringStrategy.shape[0].score"],
    },
    {
      name: "score greater than max",
      shapes: [{ utilization: 10, score: 11 }],
      wantErrs: ["Invalid scoringStrategy.shape[0].score"],
    },
  ];
  it.each(cases)("$name", (tc) => {
    const a = args({
      scoringStrategy: {
        type: "RequestedToCapacityRatio",
        resources: tc.resources ?? [],
        requestedToCapacityRatio: { shape: tc.shapes },
      },
    });
    expect(summary(a)).toEqual(tc.wantErrs);
  });
});

describe("NodeResourcesFitArgs decoding and defaults", () => {
  it("no pluginConfig gives LeastAllocated over cpu and memory", () => {
    expect(decodeNodeResourcesFitArgs(undefined, "args")).toEqual({
      args: { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: defaultScoringStrategy },
      errors: [],
    });
  });

  it("empty resources default to cpu and memory, weight 0 to 1", () => {
    expect(
      decodeNodeResourcesFitArgs({ scoringStrategy: { type: "MostAllocated" } }, "").args.scoringStrategy,
    ).toEqual({
      type: "MostAllocated",
      resources: defaultScoringStrategy.resources,
    });
    expect(
      decodeNodeResourcesFitArgs(
        {
          scoringStrategy: {
            type: "MostAllocated",
            resources: [{ name: "cpu" }, { name: "nvidia.com/gpu", weight: 5 }],
          },
        },
        "",
      ).args.scoringStrategy.resources,
    ).toEqual([
      { name: "cpu", weight: 1 },
      { name: "nvidia.com/gpu", weight: 5 },
    ]);
  });

  it("reports unknown fields and wrong types with their paths", () => {
    const { errors } = decodeNodeResourcesFitArgs(
      {
        kind: "NodeResourcesFitArgs",
        bogus: 1,
        scoringStrategy: { type: 3, resources: [{ name: "cpu", weight: "x" }] },
      },
      "profiles[0].pluginConfig[0].args",
    );
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      "profiles[0].pluginConfig[0].args.scoringStrategy.type: Invalid value: 3: must be a string, got number",
      'profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: "x": must be an integer, got string',
      "profiles[0].pluginConfig[0].args.bogus: unknown field",
    ]);
  });

  it("RequestedToCapacityRatio without requestedToCapacityRatio is an error, not a crash", () => {
    const { args: a } = decodeNodeResourcesFitArgs(
      { scoringStrategy: { type: "RequestedToCapacityRatio" } },
      "args",
    );
    expect(formatFieldErrors(validateNodeResourcesFitArgs(a, "args"))).toBe(
      "args.scoringStrategy.requestedToCapacityRatio: Required value: required when type is RequestedToCapacityRatio",
    );
  });
});
