// NodeResourcesFit's DRA-backed extended resources read the scheduler's shared DRA manager
// (handle.sharedDRAManager()): with DRAExtendedResource on and no manager the plugin refuses to be
// built; with the gate off it needs none.
import { defaultFeatures, type Handle } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { defaultNodeResourcesFitArgs } from "./args";
import { nodeResourcesFitPlugin } from "./index";

function handleWithout(enableDRAExtendedResource: boolean): Handle {
  const features = { ...defaultFeatures, enableDRAExtendedResource };
  return {
    features: () => features,
    kubernetesVersion: () => "1.37",
    sharedDRAManager: () => null,
  } as Partial<Handle> as Handle;
}

describe("NodeResourcesFit and the shared DRA manager", () => {
  it("refuses to be built with DRAExtendedResource and no DRA manager", () => {
    expect(() => nodeResourcesFitPlugin.factory(defaultNodeResourcesFitArgs(), handleWithout(true))).toThrow(
      /^NodeResourcesFit: DRAExtendedResource needs the scheduler's shared DRA manager/,
    );
  });

  it("needs none with DRAExtendedResource off", () => {
    expect(nodeResourcesFitPlugin.factory(defaultNodeResourcesFitArgs(), handleWithout(false))).toBeDefined();
  });
});
