// Ports of upstream TestValidateDefaultPreemptionArgs (validation_pluginargs_test.go) and the
// DefaultPreemptionArgs cases of TestPluginArgsDefaults (apis/config/v1/defaults_test.go).
import { type FieldError, formatFieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  type DefaultPreemptionArgs,
  decodeDefaultPreemptionArgs,
  validateDefaultPreemptionArgs,
} from "./args";
import { defaultPreemptionPlugin } from "./index";

describe("TestValidateDefaultPreemptionArgs", () => {
  const tests: Array<{ name: string; args: DefaultPreemptionArgs; wantErrs: FieldError[] }> = [
    {
      name: "valid args (default)",
      args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
      wantErrs: [],
    },
    {
      name: "negative minCandidateNodesPercentage",
      args: { minCandidateNodesPercentage: -1, minCandidateNodesAbsolute: 100 },
      wantErrs: [
        {
          type: "Invalid",
          field: "minCandidateNodesPercentage",
          badValue: -1,
          detail: "not in valid range [0, 100]",
        },
      ],
    },
    {
      name: "minCandidateNodesPercentage over 100",
      args: { minCandidateNodesPercentage: 900, minCandidateNodesAbsolute: 100 },
      wantErrs: [
        {
          type: "Invalid",
          field: "minCandidateNodesPercentage",
          badValue: 900,
          detail: "not in valid range [0, 100]",
        },
      ],
    },
    {
      name: "negative minCandidateNodesAbsolute",
      args: { minCandidateNodesPercentage: 20, minCandidateNodesAbsolute: -1 },
      wantErrs: [
        {
          type: "Invalid",
          field: "minCandidateNodesAbsolute",
          badValue: -1,
          detail: "not in valid range [0, inf)",
        },
      ],
    },
    {
      name: "all zero",
      args: { minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 },
      wantErrs: [
        {
          type: "Invalid",
          field: "minCandidateNodesPercentage",
          badValue: 0,
          detail: "cannot be zero at the same time as minCandidateNodesAbsolute",
        },
        {
          type: "Invalid",
          field: "minCandidateNodesAbsolute",
          badValue: 0,
          detail: "cannot be zero at the same time as minCandidateNodesPercentage",
        },
      ],
    },
    {
      name: "both negative",
      args: { minCandidateNodesPercentage: -1, minCandidateNodesAbsolute: -1 },
      wantErrs: [
        {
          type: "Invalid",
          field: "minCandidateNodesPercentage",
          badValue: -1,
          detail: "not in valid range [0, 100]",
        },
        {
          type: "Invalid",
          field: "minCandidateNodesAbsolute",
          badValue: -1,
          detail: "not in valid range [0, inf)",
        },
      ],
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      expect(validateDefaultPreemptionArgs(tt.args, "")).toEqual(tt.wantErrs);
    });
  }

  it("errors carry the field path under the profile's pluginConfig", () => {
    const errs = validateDefaultPreemptionArgs(
      { minCandidateNodesPercentage: 101, minCandidateNodesAbsolute: 1 },
      "profiles[0].pluginConfig[0].args",
    );
    expect(errs.map(formatFieldError)).toEqual([
      "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]",
    ]);
  });
});

describe("TestPluginArgsDefaults", () => {
  const tests: Array<{ name: string; in: unknown; want: DefaultPreemptionArgs }> = [
    {
      name: "DefaultPreemptionArgs empty",
      in: {},
      want: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
    },
    {
      name: "DefaultPreemptionArgs with value",
      in: { minCandidateNodesPercentage: 50 },
      want: { minCandidateNodesPercentage: 50, minCandidateNodesAbsolute: 100 },
    },
    {
      name: "no pluginConfig entry",
      in: undefined,
      want: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      expect(decodeDefaultPreemptionArgs(tt.in, "args")).toEqual({ args: tt.want, errors: [] });
    });
  }
});

describe("decodeDefaultPreemptionArgs", () => {
  it("is strict: unknown fields and wrong types are errors with field paths", () => {
    const { errors } = decodeDefaultPreemptionArgs(
      {
        apiVersion: "kubescheduler.config.k8s.io/v1",
        kind: "DefaultPreemptionArgs",
        minCandidateNodesAbsolute: "5",
        foo: 1,
      },
      "args",
    );
    expect(errors.map(formatFieldError)).toEqual([
      'args.minCandidateNodesAbsolute: Invalid value: "5": must be an integer, got string',
      "args.foo: unknown field",
    ]);
  });

  it("the descriptor round-trips through encode", () => {
    const spec = defaultPreemptionPlugin.args;
    const { args } = spec?.decode({ minCandidateNodesAbsolute: 7 }, "args", {} as never) ?? { args: null };
    expect(args && spec?.encode?.(args)).toEqual({
      minCandidateNodesPercentage: 10,
      minCandidateNodesAbsolute: 7,
    });
  });
});
