// upstream: pkg/scheduler/framework/plugins/imagelocality/image_locality.go (SignPod); upstream has
// no table for it, this case says what it signs.
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { imageLocalityPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs the normalized image names of containers and init containers, unique and sorted", async () => {
    const { plugin } = await createPluginHarness({ plugin: imageLocalityPlugin });
    const pod = makePod()
      .name("p")
      .container("nginx")
      .container("gcr.io/app:v1")
      .container("nginx:latest")
      .obj();
    pod.spec = {
      ...pod.spec,
      containers: pod.spec?.containers ?? [],
      initContainers: [{ name: "i", image: "busybox" }],
    };
    expect(signPodSummary(plugin, pod)).toEqual({
      fragments: [
        {
          key: "v1.Pod.Spec.CanonicalImageNames()",
          value: ["busybox:latest", "gcr.io/app:v1", "nginx:latest"],
        },
      ],
      status: ok,
    });
  });
});
