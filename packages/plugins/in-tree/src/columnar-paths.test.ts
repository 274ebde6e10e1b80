// Issue 21: an in-tree plugin keeps a columnar path (@kubesched/framework/columnar) only where
// `pnpm bench --no-columnar PLUGIN` showed it gains 10 % or more on some workload — or, for the
// Filter plugins active for every pod (NodeName, NodeUnschedulable, with NodePorts), where hiding
// them together costs what no one of them shows alone: the first plugin that reads a node's
// NodeInfo pays for reading it — and its README states the gain. This pins which plugins have
// which columnar methods, as the registry builds them.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "@kubesched/framework";
import { createPluginHarness, makeNode } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { inTreePlugins } from "./index";

const columnarMethods = ["filterColumns", "preScoreColumns", "scoreColumns"] as const;

/** The columnar methods a built plugin has (normalizeScoreColumns: on its score extensions). */
function columnarMethodsOf(plugin: Plugin): string[] {
  const p = plugin as unknown as Record<string, unknown>;
  const out: string[] = columnarMethods.filter((m) => typeof p[m] === "function");
  const ext =
    typeof p.scoreExtensions === "function" ? (p.scoreExtensions as () => unknown).call(plugin) : null;
  if (ext !== null && typeof (ext as Record<string, unknown>).normalizeScoreColumns === "function") {
    out.push("normalizeScoreColumns");
  }
  return out;
}

/** Measured on 2026-11-26 (bench/README.md "Measuring a columnar path"): the largest gain. */
const kept: Record<string, string[]> = {
  ImageLocality: ["scoreColumns"],
  InterPodAffinity: ["filterColumns", "scoreColumns", "normalizeScoreColumns"],
  // defaultNormalizer(max, reverse) has normalizeScoreColumns.
  NodeAffinity: ["filterColumns", "scoreColumns", "normalizeScoreColumns"],
  NodeName: ["filterColumns"],
  NodePorts: ["filterColumns"],
  NodeResourcesBalancedAllocation: ["scoreColumns"],
  NodeResourcesFit: ["filterColumns", "scoreColumns"],
  NodeUnschedulable: ["filterColumns"],
  NodeVolumeLimits: ["filterColumns"],
  PodTopologySpread: ["filterColumns", "preScoreColumns", "scoreColumns", "normalizeScoreColumns"],
  TaintToleration: ["filterColumns", "scoreColumns", "normalizeScoreColumns"],
  VolumeBinding: ["filterColumns", "scoreColumns"],
};

const require = createRequire(import.meta.url);
const packageOf: Record<string, string> = {
  ImageLocality: "image-locality",
  InterPodAffinity: "inter-pod-affinity",
  NodeAffinity: "node-affinity",
  NodeName: "node-name",
  NodePorts: "node-ports",
  NodeResourcesBalancedAllocation: "node-resources-balanced-allocation",
  NodeResourcesFit: "node-resources-fit",
  NodeUnschedulable: "node-unschedulable",
  NodeVolumeLimits: "node-volume-limits",
  PodTopologySpread: "pod-topology-spread",
  TaintToleration: "taint-toleration",
  VolumeBinding: "volume-binding",
};

describe("columnar paths only where they pay", () => {
  it("the in-tree plugins with columnar methods are the measured ones (the others run per node)", async () => {
    const found: Record<string, string[]> = {};
    for (const plugin of inTreePlugins) {
      const h = await createPluginHarness({ plugin, nodes: [makeNode().name("n1").obj()] });
      const methods = columnarMethodsOf(h.plugin);
      if (methods.length > 0) found[plugin.name] = methods;
    }
    expect(found).toEqual(kept);
  });

  it.each(Object.keys(kept))("%s's README states its measured gain", (name) => {
    const pkg = `@kubesched/plugin-${packageOf[name]}`;
    const readme = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), "README.md"), "utf8");
    expect(readme).toMatch(
      new RegExp(
        `Columnar path .*: \\+\\d+ % pods/s on \\S+ \\S+ .*\`pnpm bench --no-columnar (\\w+,)*${name}(,\\w+)*\` \\(2026-11-\\d+\\)`,
      ),
    );
  });
});
