// upstream: pkg/scheduler/framework/plugins/noderesources/fit_test.go (TestFitSignPod). Upstream's
// DRA cases (a requested extended resource that the SharedDRAManager maps to a DeviceClass) are
// not ported: kubesched has no DRA manager yet, and without one upstream signs every pod (the
// last case).
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
