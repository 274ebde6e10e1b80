// upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (SignPod: VolumesSigner, whose table is the
// framework's TestVolumesSigner).
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { volumeBindingPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs the pod's volume sources, config maps and secrets aside", async () => {
    const { plugin } = await createPluginHarness({ plugin: volumeBindingPlugin });
    const pod = makePod()
      .name("p")
      .volumes([
        { name: "data", persistentVolumeClaim: { claimName: "pvc" } },
        { name: "conf", configMap: { name: "cm" } },
      ])
      .obj();
    expect(signPodSummary(plugin, pod)).toEqual({
      fragments: [
        {
          key: "v1.Pod.Spec.Volumes.NonSyntheticSources()",
          value: ['{"persistentVolumeClaim":{"claimName":"pvc"}}'],
        },
      ],
      status: ok,
    });
  });
});
