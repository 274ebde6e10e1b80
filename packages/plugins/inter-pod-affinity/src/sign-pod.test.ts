// upstream: pkg/scheduler/framework/plugins/interpodaffinity/plugin_test.go (TestPodAffinitySignature)
import type { Pod } from "@kubesched/api";
import {
  createPluginHarness,
  type SignPodSummary,
  type StatusSummary,
  signPodSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { interPodAffinityPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("TestPodAffinitySignature", () => {
  const tests: { name: string; pod: Pod; want: SignPodSummary; args?: unknown }[] = [
    {
      name: "no affinity, default settings",
      pod: { metadata: { labels: { foo: "bar" } }, spec: { containers: [] } },
      want: { fragments: [{ key: "v1.Pod.Labels", value: { foo: "bar" } }], status: ok },
    },
    {
      name: "no affinity, ignore setting set",
      pod: { metadata: { labels: { foo: "bar" } }, spec: { containers: [] } },
      want: { fragments: [], status: ok },
      args: { ignorePreferredTermsOfExistingPods: true },
    },
    {
      name: "affinity set",
      pod: {
        metadata: { labels: { foo: "bar" } },
        spec: {
          containers: [],
          affinity: {
            podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "" }] },
          },
        },
      },
      want: {
        fragments: [],
        status: { code: "Unschedulable", reasons: ["pods with InterPodAffinity are not signable"] },
      },
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const { plugin } = await createPluginHarness({ plugin: interPodAffinityPlugin, args: tt.args });
      expect(signPodSummary(plugin, tt.pod)).toEqual(tt.want);
    });
  }
});
