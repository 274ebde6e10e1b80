// upstream: validation_pluginargs_test.go (TestValidateDynamicResourcesArgs).
import { formatFieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { decodeDynamicResourcesArgs, validateDynamicResourcesArgs } from "./args";

describe("TestValidateDynamicResourcesArgs", () => {
  it.each([
    { name: "defaults", raw: undefined, want: [] },
    { name: "zero filter timeout disables it", raw: { filterTimeout: "0s" }, want: [] },
    {
      name: "negative filter timeout",
      raw: { filterTimeout: "-1s" },
      want: ['filterTimeout: Invalid value: "-1s": must be zero or positive'],
    },
    {
      name: "binding timeout too small",
      raw: { bindingTimeout: "500ms" },
      want: ['bindingTimeout: Invalid value: "0.5s": must be at least 1s'],
    },
  ])("$name", ({ raw, want }) => {
    const d = decodeDynamicResourcesArgs(raw, "");
    expect(d.errors).toEqual([]);
    expect(validateDynamicResourcesArgs(d.args).map(formatFieldError)).toEqual(want);
  });

  it("defaults filterTimeout to 10s and bindingTimeout to 600s", () => {
    expect(decodeDynamicResourcesArgs(undefined, "args").args).toEqual({
      filterTimeoutMs: 10_000,
      bindingTimeoutMs: 600_000,
    });
  });

  it("reports malformed durations and unknown fields", () => {
    expect(
      decodeDynamicResourcesArgs({ filterTimeout: "ten", x: 1 }, "args").errors.map(formatFieldError),
    ).toEqual([
      'args.filterTimeout: Invalid value: "ten": must be a duration such as 10s or 1m30s',
      "args.x: unknown field",
    ]);
  });
});
