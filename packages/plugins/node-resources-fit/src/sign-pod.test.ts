// upstream: pkg/scheduler/framework/plugins/noderesources/fit_test.go (TestFitSignPod). The index
// holds no 1.37 copy of the DRA cases (a requested extended resource that a DeviceClass backs is
// refused); the two 1.37 DRA cases below are kubesched's, with the 1.36 cycle's refusal message.
// The 1.35/1.36 case (any pod refused while DRAExtendedResource is on) is upstream's.
import type { Pod } from "@kubesched/api";
import { podResourcesSigner } from "@kubesched/framework";
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeResourcesFitPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("TestFitSignPod", () => {
  const tests: { name: string; pod: Pod; enableDRAExtendedResource: boolean }[] = [
    {
      name: "pod with CPU and memory requests",
      pod: makePod().name("p").req({ cpu: "1000m", memory: "2000" }).obj(),
      enableDRAExtendedResource: false,
    },
    {
      name: "best-effort pod with no requests",
      pod: makePod().name("p").obj(),
      enableDRAExtendedResource: false,
    },
    {
      name: "pod with multiple containers",
      pod: makePod()
        .name("p")
        .container("container1")
        .req({ cpu: "500m", memory: "1000" })
        .container("container2")
        .req({ cpu: "1500m", memory: "3000" })
        .obj(),
      enableDRAExtendedResource: false,
    },
    {
      name: "DRA extended resource enabled without a DRA manager (kubesched)",
      pod: makePod().name("p").req({ cpu: "1000m", memory: "2000" }).obj(),
      enableDRAExtendedResource: true,
    },
  ];
  // The 1.35/1.36 table (the stored noderesources tests of the 1.36 cycle): any pod is refused
  // while DRAExtendedResource is on.
  for (const release of ["1.35", "1.36"]) {
    it(`DRA extended resource enabled - returns unschedulable (${release})`, async () => {
      const { plugin } = await createPluginHarness({
        plugin: nodeResourcesFitPlugin,
        features: { enableDRAExtendedResource: true },
        kubernetesVersion: release,
      });
      const pod = makePod().name("p").req({ cpu: "1000m", memory: "2000" }).obj();
      expect(signPodSummary(plugin, pod)).toEqual({
        fragments: [],
        status: {
          code: "Unschedulable",
          reasons: ["signature disabled when dra extended resources enabled"],
        },
      });
    });
    it(`pod with CPU and memory requests (${release}, DRAExtendedResource off)`, async () => {
      const { plugin } = await createPluginHarness({
        plugin: nodeResourcesFitPlugin,
        features: { enableDRAExtendedResource: false },
        kubernetesVersion: release,
      });
      const pod = makePod().name("p").req({ cpu: "1000m", memory: "2000" }).obj();
      expect(signPodSummary(plugin, pod).status).toEqual(ok);
    });
  }
  it("1.37: a pod requesting an extended resource a DeviceClass backs is not signed", async () => {
    const { plugin } = await createPluginHarness({
      plugin: nodeResourcesFitPlugin,
      features: { enableDRAExtendedResource: true },
      objects: {
        deviceClasses: [{ metadata: { name: "gpu" }, spec: { extendedResourceName: "example.com/gpu" } }],
      },
    });
    const backed = makePod().name("p").req({ cpu: "1", "example.com/gpu": "1" }).obj();
    expect(signPodSummary(plugin, backed)).toEqual({
      fragments: [],
      status: { code: "Unschedulable", reasons: ["signature disabled when dra extended resources enabled"] },
    });
    // The implicit name of every class too.
    const implicit = makePod().name("p").req({ "deviceclass.resource.kubernetes.io/gpu": "1" }).obj();
    expect(signPodSummary(plugin, implicit).status.code).toBe("Unschedulable");
    // A device-plugin resource no class backs is signed.
    const other = makePod().name("p").req({ cpu: "1", "example.com/fpga": "1" }).obj();
    expect(signPodSummary(plugin, other).status).toEqual(ok);
  });
  for (const tt of tests) {
    it(tt.name, async () => {
      const { plugin } = await createPluginHarness({
        plugin: nodeResourcesFitPlugin,
        features: { enableDRAExtendedResource: tt.enableDRAExtendedResource },
      });
      expect(signPodSummary(plugin, tt.pod)).toEqual({
        fragments: [
          { key: "v1.Pod.Spec.ContainerRequestsAndOverheads()", value: podResourcesSigner(tt.pod, true) },
        ],
        status: ok,
      });
    });
  }
});
