// upstream: pkg/scheduler/framework/plugins/noderesources/fit_test.go (TestFitSignPod). Upstream's
// 1.37 DRA cases (a requested extended resource that the SharedDRAManager maps to a DeviceClass)
// are not ported: kubesched has no DRA manager yet, and without one upstream signs every pod (the
// last case). The 1.35/1.36 case (any pod refused while DRAExtendedResource is on) is.
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
