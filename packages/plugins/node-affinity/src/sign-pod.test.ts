// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (SignPod:
// NodeAffinitySigner, whose table is the framework's TestNodeAffinitySigner, and the node selector).
import { nodeAffinitySigner } from "@kubesched/framework";
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeAffinityPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs the node affinity and the node selector", async () => {
    const { plugin } = await createPluginHarness({ plugin: nodeAffinityPlugin });
    const pod = makePod().name("p").nodeSelector({ zone: "a" }).nodeAffinityIn("disk", ["ssd", "hdd"]).obj();
    expect(signPodSummary(plugin, pod)).toEqual({
      fragments: [
        { key: "v1.Pod.Spec.Affinity.NodeAffinity", value: nodeAffinitySigner(pod) },
        { key: "v1.Pod.Spec.Affinity.NodeSelector", value: { zone: "a" } },
      ],
      status: ok,
    });
    expect(signPodSummary(plugin, makePod().name("q").obj()).fragments).toEqual([
      { key: "v1.Pod.Spec.Affinity.NodeAffinity", value: null },
      { key: "v1.Pod.Spec.Affinity.NodeSelector", value: null },
    ]);
  });
});
