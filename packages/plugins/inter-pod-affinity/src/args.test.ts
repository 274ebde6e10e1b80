// upstream: pkg/scheduler/apis/config/validation/validation_pluginargs_test.go
// (TestValidateInterPodAffinityArgs) and v1/defaults_test.go (InterPodAffinityArgs defaults).
import { defaultFeatures, formatFieldErrors } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { decodeInterPodAffinityArgs, validateInterPodAffinityArgs } from "./args";
import { interPodAffinityPlugin } from "./index";

describe("TestValidateInterPodAffinityArgs", () => {
  const cases: Record<string, { weight: number; wantErr?: string }> = {
    "valid args": { weight: 10 },
    "hardPodAffinityWeight less than min": {
      weight: -1,
      wantErr: "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]",
    },
    "hardPodAffinityWeight more than max": {
      weight: 101,
      wantErr: "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]",
    },
  };
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => {
      const errs = validateInterPodAffinityArgs(
        { hardPodAffinityWeight: tc.weight, ignorePreferredTermsOfExistingPods: false },
        "",
      );
      expect(errs.length === 0 ? undefined : formatFieldErrors(errs)).toBe(tc.wantErr);
    });
  }
});

describe("InterPodAffinityArgs decoding", () => {
  const spec = interPodAffinityPlugin.args!;

  it("defaults hardPodAffinityWeight to 1 and ignorePreferredTermsOfExistingPods to false", () => {
    expect(spec.decode(undefined, "args", defaultFeatures)).toEqual({
      args: { hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false },
      errors: [],
    });
    expect(
      spec.decode(
        { apiVersion: "kubescheduler.config.k8s.io/v1", kind: "InterPodAffinityArgs" },
        "args",
        defaultFeatures,
      ).args,
    ).toEqual({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false });
  });

  it("keeps an explicit zero weight", () => {
    expect(decodeInterPodAffinityArgs({ hardPodAffinityWeight: 0 }, "args").args.hardPodAffinityWeight).toBe(
      0,
    );
  });

  it("reports unknown fields and wrong types with field paths", () => {
    const { errors } = decodeInterPodAffinityArgs(
      { hardPodAffinityWeight: "1", ignorePreferredTermsOfExistingPods: 1, extra: true },
      "profiles[0].pluginConfig[0].args",
    );
    expect(formatFieldErrors(errors).split("\n")).toEqual([
      'profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: "1": must be an integer, got string',
      "profiles[0].pluginConfig[0].args.ignorePreferredTermsOfExistingPods: Invalid value: 1: must be a boolean, got number",
      "profiles[0].pluginConfig[0].args.extra: unknown field",
    ]);
  });

  it("validates under the given path", () => {
    expect(
      formatFieldErrors(
        spec.validate(
          { hardPodAffinityWeight: 200, ignorePreferredTermsOfExistingPods: false },
          "args",
          defaultFeatures,
        ),
      ),
    ).toBe("args.hardPodAffinityWeight: Invalid value: 200: not in valid range [0, 100]");
  });

  it("encodes back to v1", () => {
    expect(spec.encode!({ hardPodAffinityWeight: 5, ignorePreferredTermsOfExistingPods: true })).toEqual({
      hardPodAffinityWeight: 5,
      ignorePreferredTermsOfExistingPods: true,
    });
  });
});
