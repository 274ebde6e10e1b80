// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go (SignPod:
// TolerationsSigner, whose table is the framework's TestTolerationsSigner).
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeUnschedulablePlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs the pod's tolerations sorted by key and value", async () => {
    const { plugin } = await createPluginHarness({ plugin: nodeUnschedulablePlugin });
    const pod = makePod()
      .name("p")
      .tolerations([
        { key: "b", operator: "Equal", value: "2", effect: "NoSchedule" },
        { key: "a", operator: "Exists" },
      ])
      .obj();
    expect(signPodSummary(plugin, pod)).toEqual({
      fragments: [
        {
          key: "v1.Pod.Spec.Tolerations",
          value: [
            { key: "a", operator: "Exists" },
            { key: "b", operator: "Equal", value: "2", effect: "NoSchedule" },
          ],
        },
      ],
      status: ok,
    });
  });
});
