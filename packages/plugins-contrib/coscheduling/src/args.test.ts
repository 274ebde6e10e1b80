// upstream: apis/config/validation/validation_plugingargs_test.go (TestValidateCoschedulingArgs)
// and apis/config/v1/defaults_test.go
import { formatFieldErrors } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { type CoschedulingArgs, decodeCoschedulingArgs, validateCoschedulingArgs } from "./args";

describe("TestValidateCoschedulingArgs", () => {
  const cases: { description: string; args: CoschedulingArgs; expectedErr: string | null }[] = [
    {
      description: "correct config with valid values",
      args: { permitWaitingTimeSeconds: 30, podGroupBackoffSeconds: 60, podGroupRejectPercentage: 10 },
      expectedErr: null,
    },
    {
      description: "valid PodGroupRejectPercentage at boundaries",
      args: { permitWaitingTimeSeconds: 30, podGroupBackoffSeconds: 0, podGroupRejectPercentage: 0 },
      expectedErr: null,
    },
    {
      description: "valid PodGroupRejectPercentage at upper boundary",
      args: { permitWaitingTimeSeconds: 30, podGroupBackoffSeconds: 0, podGroupRejectPercentage: 100 },
      expectedErr: null,
    },
    {
      description: "invalid PermitWaitingTimeSeconds (negative value)",
      args: { permitWaitingTimeSeconds: -10, podGroupBackoffSeconds: 60, podGroupRejectPercentage: 10 },
      expectedErr: "permitWaitingTimeSeconds: Invalid value: -10: must be greater than 0",
    },
    {
      description: "invalid PodGroupBackoffSeconds (negative value)",
      args: { permitWaitingTimeSeconds: 30, podGroupBackoffSeconds: -20, podGroupRejectPercentage: 10 },
      expectedErr: "podGroupBackoffSeconds: Invalid value: -20: must be greater than 0",
    },
    {
      description: "invalid PodGroupRejectPercentage (negative value)",
      args: { permitWaitingTimeSeconds: 30, podGroupBackoffSeconds: 0, podGroupRejectPercentage: -1 },
      expectedErr: "podGroupRejectPercentage: Invalid value: -1: must be between 0 and 100",
    },
    {
      description: "invalid PodGroupRejectPercentage (greater than 100)",
      args: { permitWaitingTimeSeconds: 30, podGroupBackoffSeconds: 0, podGroupRejectPercentage: 150 },
      expectedErr: "podGroupRejectPercentage: Invalid value: 150: must be between 0 and 100",
    },
    {
      description: "both PermitWaitingTimeSeconds and PodGroupBackoffSeconds are negative",
      args: { permitWaitingTimeSeconds: -30, podGroupBackoffSeconds: -20, podGroupRejectPercentage: 10 },
      expectedErr:
        "permitWaitingTimeSeconds: Invalid value: -30: must be greater than 0\npodGroupBackoffSeconds: Invalid value: -20: must be greater than 0",
    },
  ];
  for (const tc of cases) {
    it(tc.description, () => {
      const errs = validateCoschedulingArgs(tc.args, "");
      expect(errs.length ? formatFieldErrors(errs) : null).toBe(tc.expectedErr);
    });
  }
});

describe("decodeCoschedulingArgs", () => {
  it("defaults as upstream SetDefaults_CoschedulingArgs: 60 s wait, no backoff, 10 % reject threshold", () => {
    expect(decodeCoschedulingArgs(undefined, "args")).toEqual({
      args: { permitWaitingTimeSeconds: 60, podGroupBackoffSeconds: 0, podGroupRejectPercentage: 10 },
      errors: [],
    });
  });

  it("is strict: unknown fields and wrong types are errors with their paths", () => {
    const { errors } = decodeCoschedulingArgs(
      { permitWaitingTimeSecond: 1, podGroupBackoffSeconds: "1" },
      "args",
    );
    expect(formatFieldErrors(errors)).toBe(
      'args.podGroupBackoffSeconds: Invalid value: "1": must be an integer, got string\nargs.permitWaitingTimeSecond: unknown field',
    );
  });
});
