import { defaultFeatures } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { featureGateNames, inertFeatureGates, lockedFeatureGates, parseFeatureGates } from "./feature-gates";

describe("parseFeatureGates", () => {
  it("maps every feature the plugins read to its upstream gate (but the removed SchedulerQueueingHints)", () => {
    const mapped = new Set(Object.values(featureGateNames));
    const unmapped = Object.keys(defaultFeatures).filter((k) => !mapped.has(k as never));
    expect(unmapped).toEqual(["enableSchedulingQueueHint"]);
    for (const g of lockedFeatureGates) expect(featureGateNames[g]).toBeDefined();
    for (const g of inertFeatureGates) expect(featureGateNames[g]).toBeUndefined();
  });

  it("parses Name=bool lists, as component-base's --feature-gates", () => {
    expect(
      parseFeatureGates("StorageCapacityScoring=false, TaintTolerationComparisonOperators=true"),
    ).toEqual({
      features: { enableStorageCapacityScoring: false, enableTaintTolerationComparisonOperators: true },
      warnings: [],
    });
    expect(parseFeatureGates("OpportunisticBatching=false").warnings).toEqual([
      "feature gate OpportunisticBatching=false has no effect in kubesched",
    ]);
    expect(parseFeatureGates("DynamicResourceAllocation=true").features).toEqual({
      enableDynamicResourceAllocation: true,
    });
  });

  it("rejects unknown gates, missing or bad values, and locked gates set to the other value", () => {
    expect(() => parseFeatureGates("Nope=true")).toThrow("unrecognized feature gate: Nope");
    expect(() => parseFeatureGates("PodLevelResources")).toThrow("missing bool value for PodLevelResources");
    expect(() => parseFeatureGates("PodLevelResources=yes")).toThrow(
      "invalid value of PodLevelResources=yes: must be true or false",
    );
    expect(() => parseFeatureGates("NodeDeclaredFeatures=false")).toThrow(
      "cannot set feature gate NodeDeclaredFeatures to false, feature is locked to true",
    );
  });
});
