// upstream: pkg/scheduler/apis/config/validation/validation_pluginargs_test.go
// (TestValidateNodeResourcesBalancedAllocationArgs) and the defaulting of
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_NodeResourcesBalancedAllocationArgs).
import { formatFieldErrors } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  decodeNodeResourcesBalancedAllocationArgs,
  type NodeResourcesBalancedAllocationArgs,
  validateNodeResourcesBalancedAllocationArgs,
} from "./args";

describe("TestValidateNodeResourcesBalancedAllocationArgs", () => {
  const cases: Record<string, { args: NodeResourcesBalancedAllocationArgs; wantErrs: string[] }> = {
    "valid config": {
      args: {
        resources: [
          { name: "cpu", weight: 1 },
          { name: "memory", weight: 1 },
        ],
      },
      wantErrs: [],
    },
    "invalid config": {
      args: {
        resources: [
          { name: "cpu", weight: 2 },
          { name: "memory", weight: 1 },
        ],
      },
      wantErrs: ["resources[0].weight: Invalid value: 2: must be 1"],
    },
    "repeated resources": {
      args: {
        resources: [
          { name: "cpu", weight: 1 },
          { name: "cpu", weight: 1 },
        ],
      },
      wantErrs: ['resources[1].name: Duplicate value: "cpu"'],
    },
  };
  it.each(Object.entries(cases))("%s", (_name, tc) => {
    expect(
      validateNodeResourcesBalancedAllocationArgs(tc.args, "").map((e) => formatFieldErrors([e])),
    ).toEqual(tc.wantErrs);
  });
});

describe("NodeResourcesBalancedAllocationArgs decoding and defaults", () => {
  it("no pluginConfig or empty resources give cpu and memory", () => {
    const want = {
      resources: [
        { name: "cpu", weight: 1 },
        { name: "memory", weight: 1 },
      ],
    };
    expect(decodeNodeResourcesBalancedAllocationArgs(undefined, "")).toEqual({ args: want, errors: [] });
    expect(decodeNodeResourcesBalancedAllocationArgs({ resources: [] }, "").args).toEqual(want);
  });

  it("weight 0 or absent becomes 1", () => {
    expect(
      decodeNodeResourcesBalancedAllocationArgs(
        { resources: [{ name: "cpu" }, { name: "nvidia.com/gpu", weight: 0 }] },
        "",
      ).args,
    ).toEqual({
      resources: [
        { name: "cpu", weight: 1 },
        { name: "nvidia.com/gpu", weight: 1 },
      ],
    });
  });

  it("reports unknown fields with their paths", () => {
    const { errors } = decodeNodeResourcesBalancedAllocationArgs(
      { resources: [{ name: "cpu", wieght: 1 }] },
      "args",
    );
    expect(formatFieldErrors(errors)).toBe("args.resources[0].wieght: unknown field");
  });
});
