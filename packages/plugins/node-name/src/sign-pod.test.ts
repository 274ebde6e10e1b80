// upstream: pkg/scheduler/framework/plugins/nodename/node_name.go (SignPod); upstream has no table
// for it, these cases say what it signs.
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeNamePlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs spec.nodeName, empty when unset", async () => {
    const { plugin } = await createPluginHarness({ plugin: nodeNamePlugin });
    expect(signPodSummary(plugin, makePod().name("p").node("n1").obj())).toEqual({
      fragments: [{ key: "v1.Pod.Spec.NodeName", value: "n1" }],
      status: ok,
    });
    expect(signPodSummary(plugin, makePod().name("p").obj()).fragments).toEqual([
      { key: "v1.Pod.Spec.NodeName", value: "" },
    ]);
  });
});
