// The plugin reads the scheduler's shared DRA manager (handle.sharedDRAManager()): built without
// one while DynamicResourceAllocation is on, it refuses to be built (no stand-in of its own); off,
// it is built and does nothing.
import { defaultFeatures, type Handle } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { defaultDynamicResourcesArgs } from "./args";
import { dynamicResourcesPlugin } from "./index";

function handleWithout(enableDynamicResourceAllocation: boolean): Handle {
  const features = { ...defaultFeatures, enableDynamicResourceAllocation };
  return {
    features: () => features,
    kubernetesVersion: () => "1.37",
    sharedDRAManager: () => null,
  } as Partial<Handle> as Handle;
}

describe("DynamicResources and the shared DRA manager", () => {
  it("refuses to be built without the scheduler's DRA manager", () => {
    expect(() => dynamicResourcesPlugin.factory(defaultDynamicResourcesArgs(), handleWithout(true))).toThrow(
      "DynamicResources: the scheduler has no shared DRA manager (handle.sharedDRAManager() is null); build the profiles with newProfileMap",
    );
  });

  it("is built without one when DynamicResourceAllocation is off", () => {
    expect(dynamicResourcesPlugin.factory(defaultDynamicResourcesArgs(), handleWithout(false))).toBeDefined();
  });
});
