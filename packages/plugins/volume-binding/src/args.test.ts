// Ported from upstream pkg/scheduler/apis/config/validation/validation_pluginargs_test.go
// (TestValidateVolumeBindingArgs) and v1/defaults_test.go (VolumeBindingArgs defaults).
import { defaultFeatures, formatFieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { decodeVolumeBindingArgs, type VolumeBindingArgs, validateVolumeBindingArgs } from "./args";

describe("TestValidateVolumeBindingArgs", () => {
  const cases: Array<{
    name: string;
    args: VolumeBindingArgs;
    features: { enableStorageCapacityScoring: boolean };
    wantErr: string[];
  }> = [
    {
      name: "zero is a valid config",
      args: { bindTimeoutSeconds: 0 },
      features: { enableStorageCapacityScoring: false },
      wantErr: [],
    },
    {
      name: "positive value is valid config",
      args: { bindTimeoutSeconds: 10 },
      features: { enableStorageCapacityScoring: false },
      wantErr: [],
    },
    {
      name: "negative value is invalid config ",
      args: { bindTimeoutSeconds: -10 },
      features: { enableStorageCapacityScoring: false },
      wantErr: [
        "bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a negative value",
      ],
    },
    {
      name: "[StorageCapacityScoring=off] shape should be nil when the feature is off",
      args: { bindTimeoutSeconds: 10 },
      features: { enableStorageCapacityScoring: false },
      wantErr: [],
    },
    {
      name: "[StorageCapacityScoring=off] error if the shape is not nil when the feature is off",
      args: {
        bindTimeoutSeconds: 10,
        shape: [
          { utilization: 1, score: 1 },
          { utilization: 3, score: 3 },
        ],
      },
      features: { enableStorageCapacityScoring: false },
      wantErr: [
        'shape: Invalid value: [{"utilization":1,"score":1},{"utilization":3,"score":3}]: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring',
      ],
    },
    {
      name: "[StorageCapacityScoring=on] shape should not be empty",
      args: { bindTimeoutSeconds: 10, shape: [] },
      features: { enableStorageCapacityScoring: true },
      wantErr: ["shape: Required value: at least one point must be specified"],
    },
    {
      name: "[StorageCapacityScoring=on] shape points must be sorted in increasing order",
      args: {
        bindTimeoutSeconds: 10,
        shape: [
          { utilization: 3, score: 3 },
          { utilization: 1, score: 1 },
        ],
      },
      features: { enableStorageCapacityScoring: true },
      // validateFunctionShape's text (upstream's test ignores the detail and spells it otherwise).
      wantErr: ["shape[1].utilization: Invalid value: 1: values must be sorted in increasing order"],
    },
    {
      name: "[StorageCapacityScoring=on] shape point: invalid utilization and score",
      args: {
        bindTimeoutSeconds: 10,
        shape: [
          { utilization: -1, score: 1 },
          { utilization: 10, score: -1 },
          { utilization: 101, score: 11 },
        ],
      },
      features: { enableStorageCapacityScoring: true },
      wantErr: [
        "shape[0].utilization: Invalid value: -1: not in valid range [0, 100]",
        "shape[1].score: Invalid value: -1: not in valid range [0, 10]",
        "shape[2].utilization: Invalid value: 101: not in valid range [0, 100]",
        "shape[2].score: Invalid value: 11: not in valid range [0, 10]",
      ],
    },
  ];
  it.each(cases)("$name", ({ args, features, wantErr }) => {
    expect(validateVolumeBindingArgs(args, "", features).map(formatFieldError)).toEqual(wantErr);
  });
});

describe("VolumeBindingArgs defaults", () => {
  it("defaults bindTimeoutSeconds to 600 and the shape with StorageCapacityScoring on", () => {
    expect(decodeVolumeBindingArgs(undefined, "args", defaultFeatures)).toEqual({
      args: {
        bindTimeoutSeconds: 600,
        shape: [
          { utilization: 0, score: 10 },
          { utilization: 100, score: 0 },
        ],
      },
      errors: [],
    });
  });
  it("leaves the shape unset with StorageCapacityScoring off", () => {
    expect(
      decodeVolumeBindingArgs({ bindTimeoutSeconds: 300 }, "args", {
        ...defaultFeatures,
        enableStorageCapacityScoring: false,
      }).args,
    ).toEqual({ bindTimeoutSeconds: 300 });
  });
  it("reports unknown fields", () => {
    expect(
      decodeVolumeBindingArgs({ bindTimeout: 1 }, "args", defaultFeatures).errors.map(formatFieldError),
    ).toEqual(["args.bindTimeout: unknown field"]);
  });
});
