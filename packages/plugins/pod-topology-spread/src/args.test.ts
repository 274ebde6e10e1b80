// Ported from upstream pkg/scheduler/apis/config/validation/validation_pluginargs_test.go
// (TestValidatePodTopologySpreadArgs) and pkg/scheduler/apis/config/v1/defaults_test.go
// (PodTopologySpreadArgs cases). Upstream compares error types and field paths only.
import type { TopologySpreadConstraint } from "@kubesched/api";
import { formatFieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  decodePodTopologySpreadArgs,
  type PodTopologySpreadArgs,
  validatePodTopologySpreadArgs,
} from "./args";
import { podTopologySpreadPlugin } from "./index";

const c = (maxSkew: number, topologyKey: string, whenUnsatisfiable: string): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable,
});

describe("TestValidatePodTopologySpreadArgs", () => {
  const cases: { name: string; args: PodTopologySpreadArgs; wantErrs?: { type: string; field: string }[] }[] =
    [
      {
        name: "valid config",
        args: {
          defaultConstraints: [c(1, "node", "DoNotSchedule"), c(2, "zone", "ScheduleAnyway")],
          defaultingType: "List",
        },
      },
      {
        name: "maxSkew less than zero",
        args: { defaultConstraints: [c(-1, "node", "DoNotSchedule")], defaultingType: "List" },
        wantErrs: [{ type: "Invalid", field: "defaultConstraints[0].maxSkew" }],
      },
      {
        name: "empty topology key",
        args: { defaultConstraints: [c(1, "", "DoNotSchedule")], defaultingType: "List" },
        wantErrs: [{ type: "Required", field: "defaultConstraints[0].topologyKey" }],
      },
      {
        name: "whenUnsatisfiable is empty",
        args: { defaultConstraints: [c(1, "node", "")], defaultingType: "List" },
        wantErrs: [{ type: "Required", field: "defaultConstraints[0].whenUnsatisfiable" }],
      },
      {
        name: "whenUnsatisfiable contains unsupported action",
        args: { defaultConstraints: [c(1, "node", "unknown action")], defaultingType: "List" },
        wantErrs: [{ type: "NotSupported", field: "defaultConstraints[0].whenUnsatisfiable" }],
      },
      {
        name: "duplicated constraints",
        args: {
          defaultConstraints: [c(1, "node", "DoNotSchedule"), c(2, "node", "DoNotSchedule")],
          defaultingType: "List",
        },
        wantErrs: [{ type: "Duplicate", field: "defaultConstraints[1]" }],
      },
      {
        name: "label selector present",
        args: {
          defaultConstraints: [
            { ...c(1, "key", "DoNotSchedule"), labelSelector: { matchLabels: { a: "b" } } },
          ],
          defaultingType: "List",
        },
        wantErrs: [{ type: "Forbidden", field: "defaultConstraints[0].labelSelector" }],
      },
      {
        name: "list default constraints, no constraints",
        args: { defaultConstraints: [], defaultingType: "List" },
      },
      { name: "system default constraints", args: { defaultConstraints: [], defaultingType: "System" } },
      {
        name: "wrong constraints",
        args: { defaultConstraints: [], defaultingType: "unknown" },
        wantErrs: [{ type: "NotSupported", field: "defaultingType" }],
      },
      {
        name: "system default constraints, but has constraints",
        args: { defaultConstraints: [c(1, "key", "DoNotSchedule")], defaultingType: "System" },
        wantErrs: [{ type: "Invalid", field: "defaultingType" }],
      },
    ];
  it.each(cases)("$name", (tc) => {
    const errs = validatePodTopologySpreadArgs(tc.args).map((e) => ({ type: e.type, field: e.field }));
    expect(errs).toEqual(tc.wantErrs ?? []);
  });

  it("renders upstream's messages under the given path", () => {
    const errs = validatePodTopologySpreadArgs(
      {
        defaultConstraints: [c(0, "a/b/c", "Sometimes"), c(1, "a/b/c", "Sometimes")],
        defaultingType: "System",
      },
      "profiles[0].pluginConfig[0].args",
    ).map(formatFieldError);
    expect(errs[0]).toBe(
      'profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty',
    );
    expect(errs).toContain(
      "profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)",
    );
    expect(errs).toContain(
      'profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
    );
    expect(errs).toContain(
      'profiles[0].pluginConfig[0].args.defaultConstraints[1]: Duplicate value: "{a/b/c, Sometimes}"',
    );
    expect(
      errs.some((e) =>
        e.startsWith(
          'profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey: Invalid value: "a/b/c"',
        ),
      ),
    ).toBe(true);
  });
});

describe("TestPluginArgsDefaults", () => {
  it("PodTopologySpreadArgs resources empty", () => {
    expect(decodePodTopologySpreadArgs({}, "args")).toEqual({
      args: { defaultConstraints: [], defaultingType: "System" },
      errors: [],
    });
    expect(podTopologySpreadPlugin.args!.decode(undefined, "args", {} as never).args.defaultingType).toBe(
      "System",
    );
  });
  it("PodTopologySpreadArgs resources with value", () => {
    const got = decodePodTopologySpreadArgs(
      { defaultConstraints: [{ topologyKey: "planet", whenUnsatisfiable: "DoNotSchedule", maxSkew: 2 }] },
      "args",
    );
    expect(got.errors).toEqual([]);
    expect(got.args).toEqual({
      defaultConstraints: [{ topologyKey: "planet", whenUnsatisfiable: "DoNotSchedule", maxSkew: 2 }],
      defaultingType: "System",
    });
  });
});

describe("decode", () => {
  it("reports unknown fields and wrong types with their paths", () => {
    const { errors } = decodePodTopologySpreadArgs(
      {
        kind: "PodTopologySpreadArgs",
        apiVersion: "kubescheduler.config.k8s.io/v1",
        defaultingType: 3,
        defaultConstraints: [
          { maxSkew: "1", topologyKey: "zone", whenUnsatisfiable: "DoNotSchedule", extra: true },
        ],
        bogus: 1,
      },
      "args",
    );
    expect(errors.map(formatFieldError)).toEqual([
      'args.defaultConstraints[0].maxSkew: Invalid value: "1": must be an integer, got string',
      "args.defaultConstraints[0].extra: unknown field",
      "args.defaultingType: Invalid value: 3: must be a string, got number",
      "args.bogus: unknown field",
    ]);
  });
  it("keeps every constraint field", () => {
    const raw = {
      defaultingType: "List",
      defaultConstraints: [
        {
          maxSkew: 1,
          topologyKey: "zone",
          whenUnsatisfiable: "DoNotSchedule",
          minDomains: 2,
          nodeAffinityPolicy: "Ignore",
          nodeTaintsPolicy: "Honor",
          matchLabelKeys: ["app"],
        },
      ],
    };
    const { args, errors } = decodePodTopologySpreadArgs(raw, "args");
    expect(errors).toEqual([]);
    expect(args).toEqual(raw);
  });
});
