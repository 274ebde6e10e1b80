// Test-only: a registry of small fake descriptors covering every default plugin name, so the
// config tests do not depend on the real plugin packages. Args specs mirror upstream's v1 args
// defaults (pkg/scheduler/apis/config/v1/defaults.go) closely enough for the config tables.
import {
  type DecodeResult,
  type FieldError,
  fieldErrors,
  type PluginArgsSpec,
  type PluginDescriptor,
  type Registry,
} from "@kubesched/framework";
import { isPlainObject } from "./decode";

type Json = Record<string, unknown>;

function fakeArgs(
  kind: string,
  defaults: Json,
  validate: (args: Json, path: string) => FieldError[] = () => [],
): PluginArgsSpec<Json> {
  return {
    kind,
    decode(raw: unknown, path: string): DecodeResult<Json> {
      const errors: FieldError[] = [];
      const args: Json = structuredClone(defaults);
      if (raw !== undefined && raw !== null) {
        if (!isPlainObject(raw)) {
          errors.push(fieldErrors.invalid(path, raw, "must be an object"));
        } else {
          for (const [k, v] of Object.entries(raw)) {
            if (!Object.hasOwn(defaults, k)) errors.push(fieldErrors.unknownField(`${path}.${k}`));
            else if (v !== null && v !== undefined) args[k] = v;
          }
        }
      }
      return { args, errors };
    },
    validate: (args, path) => validate(args, path),
    encode: (args) => ({ ...args }),
    schema: {
      type: "object",
      additionalProperties: false,
      properties: Object.fromEntries(Object.keys(defaults).map((k) => [k, {}])),
    },
  };
}

function descriptor(name: string, args?: PluginArgsSpec<Json>): PluginDescriptor<unknown> {
  const d: PluginDescriptor<Json> = {
    name,
    factory: () => ({ name: () => name }),
    ...(args ? { args } : {}),
  };
  return d as PluginDescriptor<unknown>;
}

const resources = [
  { name: "cpu", weight: 1 },
  { name: "memory", weight: 1 },
];

export const argsPlugins: Record<string, PluginArgsSpec<Json>> = {
  DefaultPreemption: fakeArgs(
    "DefaultPreemptionArgs",
    { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
    (a, path) => {
      const p = a.minCandidateNodesPercentage as number;
      return p < 0 || p > 100
        ? [fieldErrors.invalid(`${path}.minCandidateNodesPercentage`, p, "not in valid range [0, 100]")]
        : [];
    },
  ),
  DynamicResources: fakeArgs("DynamicResourcesArgs", { filterTimeout: "10s" }),
  InterPodAffinity: fakeArgs("InterPodAffinityArgs", {
    hardPodAffinityWeight: 1,
    ignorePreferredTermsOfExistingPods: false,
  }),
  NodeAffinity: fakeArgs("NodeAffinityArgs", { addedAffinity: null }),
  NodeResourcesBalancedAllocation: fakeArgs("NodeResourcesBalancedAllocationArgs", { resources }),
  NodeResourcesFit: fakeArgs("NodeResourcesFitArgs", {
    ignoredResources: [],
    ignoredResourceGroups: [],
    scoringStrategy: { type: "LeastAllocated", resources },
  }),
  PodTopologySpread: fakeArgs("PodTopologySpreadArgs", { defaultConstraints: [], defaultingType: "System" }),
  VolumeBinding: fakeArgs("VolumeBindingArgs", { bindTimeoutSeconds: 600 }),
};

export const noArgsPlugins = [
  "SchedulingGates",
  "PrioritySort",
  "NodeUnschedulable",
  "NodeName",
  "TaintToleration",
  "NodePorts",
  "VolumeRestrictions",
  "NodeVolumeLimits",
  "VolumeZone",
  "ImageLocality",
  "DefaultBinder",
  "NodeDeclaredFeatures",
];

/** Every default plugin, plus the given extra plugins (without args). */
export function fakeRegistry(...extra: string[]): Registry {
  const reg = new Map<string, PluginDescriptor<unknown>>();
  for (const [name, spec] of Object.entries(argsPlugins)) reg.set(name, descriptor(name, spec));
  for (const name of [...noArgsPlugins, ...extra]) reg.set(name, descriptor(name));
  return reg;
}

/** The defaulted args of every default plugin with args, in upstream's sorted append order. */
export function defaultPluginConfig(): { name: string; args: unknown }[] {
  return Object.keys(argsPlugins)
    .sort()
    .map((name) => ({ name, args: argsPlugins[name]!.decode(undefined, "", {} as never).args }));
}
