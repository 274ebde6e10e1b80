import { defaultFeatures } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { defaultPlugins, emptyPlugins, getDefaultPlugins, mergePlugins } from "./default-plugins";
import type { PluginSet, Plugins } from "./types";

type Sets = Partial<Record<keyof Plugins, Partial<PluginSet>>>;

/** Builds Plugins from the non-empty sets a test names (upstream's struct literals). */
function plugins(sets: Sets): Plugins {
  const out = emptyPlugins();
  for (const [k, v] of Object.entries(sets)) {
    out[k as keyof Plugins] = { enabled: v.enabled ?? [], disabled: v.disabled ?? [] };
  }
  return out;
}

const p = (name: string, weight?: number) => (weight === undefined ? { name } : { name, weight });

// The 1.37 list (pkg/scheduler/apis/config/v1/default_plugins.go, newest version read): the
// upstream test table at that version still lists the 1.34 set; the expected lists here follow
// getDefaultPlugins() of the newest file (DynamicResources with weight 2, NodeDeclaredFeatures
// appended when its gate is on).
const base = [
  p("SchedulingGates"),
  p("PrioritySort"),
  p("NodeUnschedulable"),
  p("NodeName"),
  p("TaintToleration", 3),
  p("NodeAffinity", 2),
  p("NodePorts"),
  p("NodeResourcesFit", 1),
  p("VolumeRestrictions"),
  p("NodeVolumeLimits"),
  p("VolumeBinding"),
  p("VolumeZone"),
  p("PodTopologySpread", 2),
  p("InterPodAffinity", 2),
];
const tail = [
  p("DefaultPreemption"),
  p("NodeResourcesBalancedAllocation", 1),
  p("ImageLocality", 1),
  p("DefaultBinder"),
];

describe("TestApplyFeatureGates", () => {
  const cases = [
    {
      name: "Feature gate DynamicResourceAllocation disabled",
      features: { enableDynamicResourceAllocation: false, enableNodeDeclaredFeatures: false },
      want: [...base, ...tail],
    },
    {
      name: "Feature gate DynamicResourceAllocation enabled",
      features: { enableDynamicResourceAllocation: true, enableNodeDeclaredFeatures: false },
      want: [...base, p("DynamicResources", 2), ...tail],
    },
    {
      name: "Feature gate NodeDeclaredFeatures enabled",
      features: { enableDynamicResourceAllocation: false, enableNodeDeclaredFeatures: true },
      want: [...base, ...tail, p("NodeDeclaredFeatures")],
    },
    {
      name: "default feature gates of 1.37",
      features: {},
      want: [...base, p("DynamicResources", 2), ...tail, p("NodeDeclaredFeatures")],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = getDefaultPlugins({ ...defaultFeatures, ...tc.features });
      expect(got).toEqual(plugins({ multiPoint: { enabled: tc.want } }));
    });
  }
  it("defaultPlugins is getDefaultPlugins with the default gates", () => {
    expect(defaultPlugins).toEqual(getDefaultPlugins(defaultFeatures));
  });
});

describe("TestMergePlugins", () => {
  const cases: { name: string; custom: Sets | undefined; defaults: Sets; expected: Sets }[] = [
    {
      name: "AppendCustomPlugin",
      custom: { filter: { enabled: [p("CustomPlugin")] } },
      defaults: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2"), p("CustomPlugin")] } },
    },
    {
      name: "InsertAfterDefaultPlugins2",
      custom: {
        filter: { enabled: [p("CustomPlugin"), p("DefaultPlugin2")], disabled: [p("DefaultPlugin2")] },
      },
      defaults: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: {
        filter: {
          enabled: [p("DefaultPlugin1"), p("CustomPlugin"), p("DefaultPlugin2")],
          disabled: [p("DefaultPlugin2")],
        },
      },
    },
    {
      name: "InsertBeforeAllPlugins",
      custom: {
        filter: {
          enabled: [p("CustomPlugin"), p("DefaultPlugin1"), p("DefaultPlugin2")],
          disabled: [p("*")],
        },
      },
      defaults: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: {
        filter: {
          enabled: [p("CustomPlugin"), p("DefaultPlugin1"), p("DefaultPlugin2")],
          disabled: [p("*")],
        },
      },
    },
    {
      name: "ReorderDefaultPlugins",
      custom: { filter: { enabled: [p("DefaultPlugin2"), p("DefaultPlugin1")], disabled: [p("*")] } },
      defaults: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: { filter: { enabled: [p("DefaultPlugin2"), p("DefaultPlugin1")], disabled: [p("*")] } },
    },
    {
      name: "ApplyNilCustomPlugin",
      custom: undefined,
      defaults: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: { filter: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
    },
    {
      name: "CustomPluginOverrideDefaultPlugin",
      custom: { filter: { enabled: [p("Plugin1", 2), p("Plugin3", 3)] } },
      defaults: { filter: { enabled: [p("Plugin1"), p("Plugin2"), p("Plugin3")] } },
      expected: { filter: { enabled: [p("Plugin1", 2), p("Plugin2"), p("Plugin3", 3)] } },
    },
    {
      name: "OrderPreserveAfterOverride",
      custom: { filter: { enabled: [p("Plugin2", 2), p("Plugin1", 1)] } },
      defaults: { filter: { enabled: [p("Plugin1"), p("Plugin2"), p("Plugin3")] } },
      expected: { filter: { enabled: [p("Plugin1", 1), p("Plugin2", 2), p("Plugin3")] } },
    },
    {
      name: "RepeatedCustomPlugin",
      custom: { filter: { enabled: [p("Plugin1"), p("Plugin2", 2), p("Plugin3"), p("Plugin2", 4)] } },
      defaults: { filter: { enabled: [p("Plugin1"), p("Plugin2"), p("Plugin3")] } },
      expected: { filter: { enabled: [p("Plugin1"), p("Plugin2", 4), p("Plugin3"), p("Plugin2", 2)] } },
    },
    {
      name: "Append custom MultiPoint plugin",
      custom: { multiPoint: { enabled: [p("CustomPlugin")] } },
      defaults: { multiPoint: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: { multiPoint: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2"), p("CustomPlugin")] } },
    },
    {
      name: "Append disabled Multipoint plugins",
      custom: {
        multiPoint: { enabled: [p("CustomPlugin"), p("CustomPlugin2")], disabled: [p("DefaultPlugin2")] },
        score: { disabled: [p("CustomPlugin2")] },
      },
      defaults: { multiPoint: { enabled: [p("DefaultPlugin1"), p("DefaultPlugin2")] } },
      expected: {
        multiPoint: {
          enabled: [p("DefaultPlugin1"), p("CustomPlugin"), p("CustomPlugin2")],
          disabled: [p("DefaultPlugin2")],
        },
        score: { disabled: [p("CustomPlugin2")] },
      },
    },
    {
      name: "override default MultiPoint plugins with custom value",
      custom: { multiPoint: { enabled: [p("DefaultPlugin", 5)] } },
      defaults: { multiPoint: { enabled: [p("DefaultPlugin")] } },
      expected: { multiPoint: { enabled: [p("DefaultPlugin", 5)] } },
    },
    {
      name: "disabled MultiPoint plugin in default set",
      defaults: { multiPoint: { enabled: [p("DefaultPlugin")], disabled: [p("DefaultPlugin2")] } },
      custom: { multiPoint: { enabled: [p("CustomPlugin")] } },
      expected: {
        multiPoint: { enabled: [p("DefaultPlugin"), p("CustomPlugin")], disabled: [p("DefaultPlugin2")] },
      },
    },
    {
      name: "disabled MultiPoint plugin in default set for specific extension point",
      defaults: { multiPoint: { enabled: [p("DefaultPlugin")] }, score: { disabled: [p("DefaultPlugin2")] } },
      custom: { multiPoint: { enabled: [p("CustomPlugin")] } },
      expected: {
        multiPoint: { enabled: [p("DefaultPlugin"), p("CustomPlugin")] },
        score: { disabled: [p("DefaultPlugin2")] },
      },
    },
    {
      name: "multipoint with only disabled gets merged",
      defaults: { multiPoint: { enabled: [p("DefaultPlugin")] } },
      custom: { multiPoint: { disabled: [p("DefaultPlugin")] } },
      expected: { multiPoint: { disabled: [p("DefaultPlugin")] } },
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const custom = tc.custom === undefined ? undefined : plugins(tc.custom);
      expect(mergePlugins(plugins(tc.defaults), custom)).toEqual(plugins(tc.expected));
    });
  }

  it("disabled entries keep names only (weights dropped)", () => {
    const got = mergePlugins(plugins({ score: { enabled: [p("A", 2)] } }), {
      score: { enabled: [], disabled: [p("A", 7)] },
    });
    expect(got.score).toEqual({ enabled: [], disabled: [{ name: "A" }] });
  });

  it("does not mutate its inputs", () => {
    const defaults = getDefaultPlugins();
    const before = structuredClone(defaults);
    const merged = mergePlugins(defaults, {
      multiPoint: { enabled: [p("TaintToleration", 9)], disabled: [] },
    });
    merged.multiPoint.enabled[0]!.name = "changed";
    expect(defaults).toEqual(before);
  });
});
