// upstream: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (SignPod); upstream has no
// table for it, these cases say what it refuses.
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { podTopologySpreadPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("refuses pods with constraints", async () => {
    const { plugin } = await createPluginHarness({
      plugin: podTopologySpreadPlugin,
      args: { defaultingType: "List", defaultConstraints: [] },
    });
    const pod = makePod()
      .name("p")
      .label("app", "a")
      .spreadConstraint(1, "zone", "DoNotSchedule", { matchLabels: { app: "a" } })
      .obj();
    expect(signPodSummary(plugin, pod)).toEqual({
      fragments: [],
      status: { code: "Unschedulable", reasons: ["pods with topology constraints are not signable"] },
    });
    expect(signPodSummary(plugin, makePod().name("q").obj())).toEqual({ fragments: [], status: ok });
  });

  it("refuses every pod when constraints are defaulted (the system defaults too)", async () => {
    const { plugin } = await createPluginHarness({ plugin: podTopologySpreadPlugin });
    expect(signPodSummary(plugin, makePod().name("q").obj())).toEqual({
      fragments: [],
      status: { code: "Unschedulable", reasons: ["pods with default topology constraints are not signable"] },
    });
  });
});
