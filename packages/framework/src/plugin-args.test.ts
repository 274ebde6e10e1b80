// upstream: pkg/scheduler/apis/config/validation/validation_pluginargs_test.go (the shape cases
// shared by TestValidateNodeResourcesFitArgs and TestValidateVolumeBindingArgs).
import { describe, expect, it } from "vitest";
import { defineArgs, Type } from "./define-args";
import { defaultFeatures } from "./features";
import { formatFieldError } from "./field-errors";
import { defaultResourceSpec, UtilizationShape, type UtilizationShapePoint } from "./plugin-args";

// The shared shape, as a plugin declares it (validateFunctionShape's rules come with it).
const shapeArgs = defineArgs({ kind: "ShapeArgs", schema: Type.Object({ shape: UtilizationShape() }) });
const validateShape = (shape: UtilizationShapePoint[]) => shapeArgs.validate({ shape }, "", defaultFeatures);

describe("validateFunctionShape", () => {
  it.each([
    {
      name: "valid",
      shape: [
        { utilization: 0, score: 0 },
        { utilization: 100, score: 10 },
      ],
      want: [],
    },
    { name: "empty", shape: [], want: ["shape: Required value: at least one point must be specified"] },
    {
      name: "not sorted",
      shape: [
        { utilization: 3, score: 3 },
        { utilization: 1, score: 1 },
      ],
      want: ["shape[1].utilization: Invalid value: 1: values must be sorted in increasing order"],
    },
    {
      name: "out of range",
      shape: [
        { utilization: -1, score: 1 },
        { utilization: 10, score: -1 },
        { utilization: 20, score: 11 },
        { utilization: 101, score: 1 },
      ],
      want: [
        "shape[0].utilization: Invalid value: -1: not in valid range [0, 100]",
        "shape[1].score: Invalid value: -1: not in valid range [0, 10]",
        "shape[2].score: Invalid value: 11: not in valid range [0, 10]",
        "shape[3].utilization: Invalid value: 101: not in valid range [0, 100]",
      ],
    },
  ])("$name", ({ shape, want }) => {
    expect(validateShape(shape).map(formatFieldError)).toEqual(want);
  });
});

describe("UtilizationShape / defaultResourceSpec", () => {
  it("decodes strictly, missing numbers as 0", () => {
    const { args, errors } = shapeArgs.decode({ shape: [{ utilization: 5, x: 1 }] }, "s", defaultFeatures);
    expect(args.shape).toEqual([{ utilization: 5, score: 0 }]);
    expect(errors.map(formatFieldError)).toEqual(["s.shape[0].x: unknown field"]);
  });

  it("defaults to cpu and memory with weight 1, a fresh array each time", () => {
    const a = defaultResourceSpec();
    expect(a).toEqual([
      { name: "cpu", weight: 1 },
      { name: "memory", weight: 1 },
    ]);
    expect(defaultResourceSpec()).not.toBe(a);
  });
});
