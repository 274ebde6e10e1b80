import { defaultFeatures } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { gateRows, removedGateRows } from "./feature-gate-table";
import {
  FeatureGateError,
  featureGateEnabled,
  featureGateSpec,
  featureGateWarnings,
  featuresAt,
  knownFeatureGates,
  parseEmulatedVersion,
  parseFeatureGates,
  type Release,
  supportedReleases,
} from "./feature-gates";

const spec = (name: string, release: Release) => {
  const s = featureGateSpec(name, release);
  return s && `${s.default} ${s.preRelease}${s.lockToDefault ? " locked" : ""}`;
};

describe("the versioned gate table", () => {
  it("names each gate once, specs oldest first", () => {
    const names = [...gateRows, ...removedGateRows].map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const [name, ...specs] of [...gateRows, ...removedGateRows]) {
      const versions = specs.map((s) => s.split(" ")[0] ?? "");
      expect(versions, name).toEqual(
        [...versions].sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1])),
      );
      for (const s of specs)
        expect(s, name).toMatch(/^\d+\.\d+ (true|false) (Alpha|Beta|GA|Deprecated)( locked)?$/);
    }
  });

  it("holds every gate of the 1.37 binary, hundreds, not only the scheduler's", () => {
    const known = knownFeatureGates("1.37");
    expect(known.length).toBeGreaterThan(250);
    for (const g of [
      "DRADeviceTaintRules",
      "DRADerivedAttributes",
      "WatchListClient",
      "KubeletPSI",
      "AllAlpha",
    ]) {
      expect(known).toContain(g);
    }
  });

  // Per-release defaults from the versioned specs (upstream pkg/features/kube_features.go and the
  // scheduler's gates; cross-checked with CHANGELOG-1.3x notes gathered in versions.md).
  it.each([
    ["SchedulerAsyncPreemption", ["true Beta", "true Beta", "true Beta", "true Beta", "true Beta"]],
    [
      "NominatedNodeNameForExpectation",
      ["false PreAlpha", "false Alpha", "true Beta", "true Beta", "true Beta"],
    ],
    ["OpportunisticBatching", ["false PreAlpha", "false PreAlpha", "true Beta", "true Beta", "true Beta"]],
    ["SchedulerAsyncAPICalls", ["false PreAlpha", "false Beta", "false Beta", "false Beta", "false Beta"]],
    [
      "DynamicResourceAllocation",
      ["false Beta", "true GA", "true GA locked", "true GA locked", "true GA locked"],
    ],
    ["DRAExtendedResource", ["false PreAlpha", "false Alpha", "false Alpha", "true Beta", "true GA locked"]],
    [
      "NodeDeclaredFeatures",
      ["false PreAlpha", "false PreAlpha", "false Alpha", "true Beta", "true GA locked"],
    ],
    ["GenericWorkload", ["false PreAlpha", "false PreAlpha", "false Alpha", "false Alpha", "false Beta"]],
    ["StorageCapacityScoring", ["false Alpha", "false Alpha", "false Alpha", "false Alpha", "true Beta"]],
    ["DRAPrioritizedList", ["false Alpha", "true Beta", "true Beta", "true GA", "true GA locked"]],
    [
      "SchedulerQueueingHints",
      ["true Beta", "true GA locked", "true GA locked", "true GA locked", undefined],
    ],
    [
      "SidecarContainers",
      ["true GA locked", "true GA locked", "true GA locked", "true GA locked", undefined],
    ],
  ] as const)("%s at 1.33…1.37", (name, expected) => {
    expect(supportedReleases.map((r) => spec(name, r))).toEqual(expected);
  });

  it("the plugins' Features at 1.37 are the framework's defaults", () => {
    expect(featuresAt("1.37")).toEqual(defaultFeatures);
  });

  it("the plugins' Features follow the emulated release", () => {
    expect(featuresAt("1.35")).toMatchObject({
      enableDRAExtendedResource: false,
      enableStorageCapacityScoring: false,
      enableNodeDeclaredFeatures: false,
      enableVolumeLimitScaling: false,
      enableDynamicResourceAllocation: true,
    });
    expect(featuresAt("1.33")).toMatchObject({
      enableDynamicResourceAllocation: false,
      enablePodLevelResources: false,
    });
    expect(featuresAt("1.35", new Map([["StorageCapacityScoring", true]])).enableStorageCapacityScoring).toBe(
      true,
    );
  });
});

describe("parseFeatureGates", () => {
  const parse = (arg: string, release: Release = "1.37") =>
    Object.fromEntries(parseFeatureGates([arg], release));

  it("takes the flag's syntax: A=true,B=false, spaces, kube: prefixes, repeated flags", () => {
    expect(parse(" StorageCapacityScoring = false , TaintTolerationComparisonOperators=true")).toEqual({
      StorageCapacityScoring: false,
      TaintTolerationComparisonOperators: true,
    });
    expect(parse("kube:OpportunisticBatching=false,kube:DRADeviceTaintRules=false")).toEqual({
      OpportunisticBatching: false,
      DRADeviceTaintRules: false,
    });
    expect(
      Object.fromEntries(parseFeatureGates(["GenericWorkload=true", "GenericWorkload=false"], "1.37")),
    ).toEqual({
      GenericWorkload: false,
    });
    // strconv.ParseBool's spellings.
    expect(parse("GenericWorkload=TRUE,SchedulerAsyncAPICalls=1,OpportunisticBatching=F")).toEqual({
      GenericWorkload: true,
      SchedulerAsyncAPICalls: true,
      OpportunisticBatching: false,
    });
    expect(parse("")).toEqual({});
  });

  it.each([
    ["NoSuchGate=true", "1.37", "unrecognized feature gate: NoSuchGate"],
    ["PodLevelResources", "1.37", "missing bool value for PodLevelResources"],
    [
      "PodLevelResources=yes",
      "1.37",
      'invalid value of PodLevelResources=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
    [
      "DRAPrioritizedList=false",
      "1.37",
      "cannot set feature gate DRAPrioritizedList to false, feature is locked to true",
    ],
    [
      "NodeDeclaredFeatures=false",
      "1.37",
      "cannot set feature gate NodeDeclaredFeatures to false, feature is locked to true",
    ],
    [
      "OpportunisticBatching=true",
      "1.34",
      "cannot set feature gate OpportunisticBatching to true, feature is PreAlpha at emulated version 1.34, min compatibility version 1.33",
    ],
    ["SidecarContainers=true", "1.37", "unrecognized feature gate: SidecarContainers"],
    [
      "kube:GenericWorkload=true,OpportunisticBatching=true",
      "1.37",
      "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use",
    ],
    ["wardle:Foo=true", "1.37", "component not registered: wardle"],
    [
      "DRAPrioritizedList=false,NodeDeclaredFeatures=false",
      "1.37",
      "[cannot set feature gate DRAPrioritizedList to false, feature is locked to true, cannot set feature gate NodeDeclaredFeatures to false, feature is locked to true]",
    ],
  ] as const)("%s at %s: %s", (arg, release, message) => {
    expect(() => parseFeatureGates([arg], release)).toThrow(new FeatureGateError(message));
  });

  it("accepts what an older release's binary accepted", () => {
    expect(parse("SidecarContainers=true,DRAPrioritizedList=false", "1.35")).toEqual({
      SidecarContainers: true,
      DRAPrioritizedList: false,
    });
    expect(featureGateWarnings(new Map([["SidecarContainers", true]]), "1.35")).toEqual([
      "setting GA feature gate SidecarContainers=true. It will be removed in a future release.",
    ]);
  });
});

// upstream: component-base featuregate/feature_gate_test.go TestFeatureGateFlag, with real gates of
// 1.36 standing in for its test gates: TestAlpha = CRIListStreaming (Alpha, off), TestBeta =
// SchedulerAsyncAPICalls (Beta, off), TestDeprecated = WindowsHostNetwork, TestLockedFalse =
// AllowOverwriteTerminationGracePeriodSeconds (locked to false). Upstream's test gates have no
// dependencies; 1.37's real ones refuse AllAlpha=true alone (feature-gate-dependencies.test.ts), so
// the table runs at 1.36.
describe("TestFeatureGateFlag", () => {
  const gatesOf = (arg: string) => {
    const settings = parseFeatureGates([arg], "1.36");
    return Object.fromEntries(
      [
        "CRIListStreaming",
        "SchedulerAsyncAPICalls",
        "WindowsHostNetwork",
        "AllowOverwriteTerminationGracePeriodSeconds",
      ].map((g) => [g, featureGateEnabled(g, "1.36", settings)]),
    );
  };
  const off = {
    CRIListStreaming: false,
    SchedulerAsyncAPICalls: false,
    WindowsHostNetwork: false,
    AllowOverwriteTerminationGracePeriodSeconds: false,
  };
  it.each([
    ["", off],
    ["WindowsHostNetwork=true", { ...off, WindowsHostNetwork: true }],
    ["AllAlpha=false", off],
    ["AllAlpha=true", { ...off, CRIListStreaming: true }],
    ["AllAlpha=false,CRIListStreaming=true", { ...off, CRIListStreaming: true }],
    ["CRIListStreaming=true,AllAlpha=false", { ...off, CRIListStreaming: true }],
    ["AllAlpha=true,CRIListStreaming=false", off],
    ["CRIListStreaming=false,AllAlpha=true", off],
    ["SchedulerAsyncAPICalls=true,AllAlpha=false", { ...off, SchedulerAsyncAPICalls: true }],
    ["AllBeta=true", { ...off, SchedulerAsyncAPICalls: true }],
    ["AllBeta=true,SchedulerAsyncAPICalls=false", off],
  ] as const)("%s", (arg, expected) => {
    expect(gatesOf(arg)).toEqual(expected);
  });
  it.each([
    [
      "AllowOverwriteTerminationGracePeriodSeconds=true",
      "cannot set feature gate AllowOverwriteTerminationGracePeriodSeconds to true, feature is locked to false",
    ],
    ["fooBarBaz=true", "unrecognized feature gate: fooBarBaz"],
    ["AllAlpha=banana", "invalid value of AllAlpha=banana"],
  ])("%s: %s", (arg, message) => {
    expect(() => parseFeatureGates([arg], "1.36")).toThrow(message);
  });
});

describe("parseEmulatedVersion", () => {
  it("takes 1.35 and kube=1.35; absent means the newest", () => {
    expect(parseEmulatedVersion(["1.35"])).toBe("1.35");
    expect(parseEmulatedVersion(["kube=1.33"])).toBe("1.33");
    expect(parseEmulatedVersion(["v1.36"])).toBe("1.36");
    expect(parseEmulatedVersion(["1.34.0"])).toBe("1.34");
    expect(parseEmulatedVersion([])).toBe("1.37");
  });
  it.each([
    ["1.32", "emulation version 1.32 is not between [1.33, 1.37.0]"],
    ["1.38", "emulation version 1.38 is not between [1.33, 1.37.0]"],
    ["abc", 'could not parse "abc" as version'],
    ["1", 'illegal version string "1"'],
    ["1.35.2", "patch version not allowed, got: kube=1.35.2"],
    ["wardle=1.2", "component not registered: wardle"],
    ["1.35,kube=1.36", "duplicate version flag, kube=1.35 and kube=1.36"],
  ])("%s: %s", (arg, message) => {
    expect(() => parseEmulatedVersion([arg])).toThrow(new FeatureGateError(message));
  });
});

describe("DRANodeAllocatableResources follows the emulated release", () => {
  it("does not exist before 1.36, is alpha and off from 1.36, and turns on with the flag", () => {
    expect(featuresAt("1.35").enableDRANodeAllocatableResources).toBe(false);
    expect(() => parseFeatureGates(["DRANodeAllocatableResources=true"], "1.35")).toThrow(FeatureGateError);
    for (const r of ["1.36", "1.37"] as const) {
      expect(featureGateSpec("DRANodeAllocatableResources", r)).toMatchObject({
        default: false,
        preRelease: "Alpha",
      });
      expect(featuresAt(r).enableDRANodeAllocatableResources).toBe(false);
      expect(
        featuresAt(r, parseFeatureGates(["DRANodeAllocatableResources=true"], r))
          .enableDRANodeAllocatableResources,
      ).toBe(true);
    }
  });
});
