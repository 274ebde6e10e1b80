// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (SignPod); upstream
// has no table for it, these cases say what it refuses.
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { dynamicResourcesPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("refuses pods with resource claims and adds nothing for the others", async () => {
    const { plugin } = await createPluginHarness({ plugin: dynamicResourcesPlugin });
    const pod = makePod().name("p").obj();
    expect(signPodSummary(plugin, pod)).toEqual({ fragments: [], status: ok });
    const withClaim = makePod().name("q").obj();
    withClaim.spec = { ...withClaim.spec, containers: [], resourceClaims: [{ name: "gpu" }] };
    expect(signPodSummary(plugin, withClaim)).toEqual({
      fragments: [],
      status: { code: "Unschedulable", reasons: ["pods with dra resource claims are not signable"] },
    });
  });
});
