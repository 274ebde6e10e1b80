// upstream: pkg/scheduler/apis/config/validation/validation_pluginargs_test.go (TestValidateNodeAffinityArgs)
import { defaultFeatures, formatFieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { decodeNodeAffinityArgs, type NodeAffinityArgs, validateNodeAffinityArgs } from "./args";
import { nodeAffinityPlugin } from "./index";

describe("TestValidateNodeAffinityArgs", () => {
  const cases: { name: string; args: NodeAffinityArgs; wantErr?: { type: string; field: string }[] }[] = [
    { name: "empty", args: {} },
    {
      name: "valid added affinity",
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "label-1", operator: "In", values: ["label-1-val"] }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: { matchFields: [{ key: "metadata.name", operator: "In", values: ["node-1"] }] },
            },
          ],
        },
      },
    },
    {
      name: "invalid added affinity",
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "invalid/label/key", operator: "In", values: ["label-1-val"] }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: {
                matchFields: [{ key: "metadata.name", operator: "In", values: ["node-1", "node-2"] }],
              },
            },
          ],
        },
      },
      wantErr: [
        {
          type: "Invalid",
          field:
            "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key",
        },
        {
          type: "Invalid",
          field: "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values",
        },
      ],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const errs = validateNodeAffinityArgs(tc.args, "");
      // Compared without bad value and detail, as upstream's ignoreBadValueDetail.
      expect(errs.map((e) => ({ type: e.type, field: e.field }))).toEqual(tc.wantErr ?? []);
    });
  }

  it("renders errors with field paths under the args path, as upstream", () => {
    const errs = validateNodeAffinityArgs(
      {
        addedAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, preference: { matchFields: [{ key: "metadata.name", operator: "Exists" }] } },
          ],
        },
      },
      "profiles[0].pluginConfig[0].args",
    );
    expect(errs.map(formatFieldError)).toEqual([
      'profiles[0].pluginConfig[0].args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].operator: Unsupported value: "Exists": supported values: "In", "NotIn"',
    ]);
  });
});

describe("decodeNodeAffinityArgs", () => {
  it("decodes a missing pluginConfig to empty args", () => {
    expect(decodeNodeAffinityArgs(undefined, "args")).toEqual({ args: {}, errors: [] });
  });

  it("decodes addedAffinity", () => {
    const raw = {
      apiVersion: "kubescheduler.config.k8s.io/v1",
      kind: "NodeAffinityArgs",
      addedAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 3,
            preference: { matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] },
          },
        ],
      },
    };
    const { args, errors } = decodeNodeAffinityArgs(raw, "args");
    expect(errors).toEqual([]);
    expect(args).toEqual({ addedAffinity: raw.addedAffinity });
  });

  it("reports unknown fields and wrong types with their paths", () => {
    const { errors } = decodeNodeAffinityArgs(
      {
        addedAffinty: {},
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", value: ["a"] }] }],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: "3", preference: {} }],
        },
      },
      "args",
    );
    expect(errors.map(formatFieldError)).toEqual([
      "args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].value: unknown field",
      'args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: "3": must be an integer, got string',
      "args.addedAffinty: unknown field",
    ]);
  });

  it("is the descriptor's args spec", () => {
    expect(nodeAffinityPlugin.args?.kind).toBe("NodeAffinityArgs");
    expect(nodeAffinityPlugin.args?.decode(undefined, "args", defaultFeatures).args).toEqual({});
  });
});
