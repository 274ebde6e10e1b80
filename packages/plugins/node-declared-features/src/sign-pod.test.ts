// upstream: pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go (SignPod:
// the required features as component-helpers' FeatureSet prints them, a bit per registered
// feature in name order); upstream has no table for it.
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeDeclaredFeaturesPlugin } from "./index";
import { NodeDeclaredFeatures } from "./node-declared-features";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs the required features as a bit per registered feature, in name order", () => {
    const registry = [
      { name: "B", inferForScheduling: () => true, maxVersion: null },
      { name: "A", inferForScheduling: () => false, maxVersion: null },
      { name: "C", inferForScheduling: () => true, maxVersion: null },
    ];
    const pl = new NodeDeclaredFeatures({ enabled: true, registry });
    expect(signPodSummary(pl, makePod().name("p").obj())).toEqual({
      fragments: [{ key: "v1.Pod.Spec.RequiredFeatures()", value: "011" }],
      status: ok,
    });
  });

  it("a pod requiring nothing signs all zeros", async () => {
    const { plugin } = await createPluginHarness({ plugin: nodeDeclaredFeaturesPlugin });
    const { fragments, status } = signPodSummary(plugin, makePod().name("p").obj());
    expect(status).toEqual(ok);
    expect(fragments).toHaveLength(1);
    expect(fragments[0]?.value).toMatch(/^0+$/);
  });

  it("an inference error is an Error status; a disabled plugin adds nothing", () => {
    expect(
      signPodSummary(new NodeDeclaredFeatures({ enabled: true, version: null }), makePod().name("p").obj()),
    ).toEqual({
      fragments: [],
      status: { code: "Error", reasons: ["target version cannot be nil"] },
    });
    expect(signPodSummary(new NodeDeclaredFeatures({ enabled: false }), makePod().name("p").obj())).toEqual({
      fragments: [],
      status: ok,
    });
  });
});
