// The page's model from real simulations: interned strings, shared filter/score rows that
// expand back to the SimulationResult's explain, and reasons aggregated from FitError messages.

import { readFileSync } from "node:fs";
import {
  loadSnapshotFiles,
  loadSnapshotTexts,
  type SimulationResult,
  simulate,
  why,
} from "@kubesched/cluster";
import { defaultConfig, loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { formatFilterDetail } from "@kubesched/runtime";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { fitErrorReasons, type PodExplain, simulationSection, whySection } from "./model";
import { renderReport, reportModel, scriptSafeJSON } from "./render-report";

const root = new URL("../../../", import.meta.url).pathname;

async function run(objects: Parameters<typeof simulate>[0]["objects"]): Promise<SimulationResult> {
  return simulate({
    config: defaultConfig({ registry: inTreeRegistry }),
    registry: inTreeRegistry,
    logger: recordingLogger(),
    objects,
    explain: true,
  });
}

/** The explain of one pod, expanded back from the model to the SimulationResult's shape. */
function expand(e: PodExplain, strings: string[]) {
  const s = (i: number) => strings[i] ?? "?";
  const filter: Record<string, Record<string, { code: string; reasons?: string[] }>> = {};
  e.filterNodes.forEach((nodes, ri) => {
    for (const n of nodes) {
      filter[s(n)] = Object.fromEntries(
        (e.filterRows[ri] ?? []).map(([p, code, ...reasons]) => [
          s(p),
          reasons.length ? { code: s(code), reasons: reasons.map(s) } : { code: s(code) },
        ]),
      );
    }
  });
  const finalScore: Record<string, number> = {};
  const score: Record<string, Record<string, { raw: number; normalized: number; weighted: number }>> = {};
  e.scoreNodes?.forEach((nodes, ri) => {
    const row = e.scoreRows?.[ri] ?? [];
    for (const n of nodes) {
      finalScore[s(n)] = row[0] ?? NaN;
      score[s(n)] = Object.fromEntries(
        (e.scorePlugins ?? []).map((p, pi) => [
          s(p),
          {
            raw: row[1 + pi * 3] ?? NaN,
            normalized: row[2 + pi * 3] ?? NaN,
            weighted: row[3 + pi * 3] ?? NaN,
          },
        ]),
      );
    }
  });
  return { filter, score, finalScore, selectedNode: e.selectedNode === null ? null : s(e.selectedNode) };
}

describe("simulationSection", () => {
  it("examples/cluster.yaml: every pod's explain expands back to the SimulationResult's", async () => {
    const r = await run(loadSnapshotFiles(["examples/cluster.yaml"], root).objects);
    const sec = simulationSection(r);
    expect(sec.summary).toEqual(r.summary);
    expect(sec.explained).toBe(true);
    expect(sec.resources).toEqual(["cpu", "memory", "pods", "nvidia.com/gpu"]);
    expect(sec.nodes.find((n) => n.name === "gpu-c2")?.resources["nvidia.com/gpu"]).toEqual({
      text: ["2", "0", "1"],
      value: [2, 0, 1],
    });
    expect(sec.nodes.find((n) => n.name === "node-a1")?.resources.cpu?.value).toEqual([4000, 1000, 1500]);
    for (const [i, p] of r.pods.entries()) {
      const row = sec.pods[i];
      expect(row?.name).toBe(p.name);
      if (!p.explain) {
        expect(row?.explain).toBeUndefined();
        continue;
      }
      const e = expand(row?.explain as PodExplain, sec.strings);
      expect(e.filter, p.name).toEqual(p.explain.filter);
      expect(e.score, p.name).toEqual(p.explain.score ?? {});
      expect(e.finalScore, p.name).toEqual(p.explain.finalScore ?? {});
      expect(e.selectedNode).toBe(p.explain.selectedNode);
    }
  });

  it("devices: a column per driver (published, allocated before and after), the classes, each pod's devices", async () => {
    const fixture = "apps/kubesched/test-fixtures/dra-devices";
    const r = await simulate({
      config: loadConfig(readFileSync(`${root}${fixture}/without-dynamic-resources.yaml`, "utf8"), {
        registry: inTreeRegistry,
      }),
      registry: inTreeRegistry,
      logger: recordingLogger(),
      objects: loadSnapshotFiles([`${fixture}/cluster.yaml`], root).objects,
    });
    const sec = simulationSection(r);
    expect(sec.resources).toEqual(["cpu", "memory", "pods", "gpu.example.com devices"]);
    expect(sec.nodes.map((n) => [n.name, n.resources["gpu.example.com devices"]])).toEqual([
      ["gpu-a", { text: ["4", "1", "1"], value: [4, 1, 1] }],
      ["gpu-b", { text: ["2", "0", "0"], value: [2, 0, 0] }],
    ]);
    expect(sec.deviceClasses).toEqual([
      { name: "gpu.example.com", published: 6, allocated: 1, allocatedBefore: 1 },
    ]);
    expect(sec.pods.map((p) => [p.name, p.devices])).toEqual([
      ["inference", ["claim gpu: gpu: gpu.example.com/gpu-a/gpu-0"]],
      ["train", ["claim gpu: not allocated"]],
    ]);
  });

  it("devices tainted by a DeviceTaintRule: the node's cell carries the JSON's `tainted`, summed over its pools", async () => {
    const r = await simulate({
      config: defaultConfig({ registry: inTreeRegistry }),
      registry: inTreeRegistry,
      logger: recordingLogger(),
      objects: loadSnapshotFiles(["examples/dra-gpu/cluster.yaml", "examples/dra-gpu/maintenance.yaml"], root)
        .objects,
    });
    const sec = simulationSection(r);
    const cells = Object.fromEntries(sec.nodes.map((n) => [n.name, n.resources["gpu.example.com devices"]]));
    const json = Object.fromEntries(r.nodes.map((n) => [n.name, n.devices?.map((d) => d.tainted)]));
    expect(json["gpu-node-1"]).toEqual([4]);
    expect(cells["gpu-node-1"]?.tainted).toBe(4);
    expect(json["gpu-node-2"]).toEqual([undefined]);
    expect(cells["gpu-node-2"]).not.toHaveProperty("tainted");
  });

  it("identical nodes share one filter row and one score row", async () => {
    const nodes = Array.from({ length: 200 }, (_, i) => ({
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: `n-${i}`, labels: { "kubernetes.io/hostname": `n-${i}` } },
      status: { allocatable: { cpu: "4", memory: "32Gi", pods: "110" } },
    }));
    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "default" },
      spec: { containers: [{ name: "c", image: "i", resources: { requests: { cpu: "1" } } }] },
    };
    const r = await run(
      loadSnapshotTexts([{ name: "c.json", text: JSON.stringify([...nodes, pod]) }]).objects,
    );
    const e = simulationSection(r).pods[0]?.explain;
    expect(e?.filterRows).toHaveLength(1);
    expect(e?.filterNodes[0]?.length).toBe(Object.keys(r.pods[0]?.explain?.filter ?? {}).length);
    expect(e?.scoreRows).toHaveLength(1);
  });

  it("unschedulable reasons are counted over pods from upstream's FitError messages", () => {
    expect(
      fitErrorReasons(
        "0/6 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 4 Insufficient cpu, 4 Insufficient memory. no new claims to deallocate, preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.",
      ),
    ).toEqual([
      { reason: "node(s) had untolerated taint(s)", nodes: 1 },
      { reason: "node(s) were unschedulable", nodes: 1 },
      { reason: "Insufficient cpu", nodes: 4 },
      { reason: "Insufficient memory", nodes: 4 },
    ]);
    expect(fitErrorReasons('running PreBind plugin "VolumeBinding": boom')).toEqual([]);
  });
});

describe("renderReport", () => {
  it("is one self-contained file: inline style and script, no URL to fetch", async () => {
    const r = await run(loadSnapshotFiles(["examples/preemption.yaml"], root).objects);
    const html = renderReport({ simulation: r });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]*\s(src|href)=/i);
    // The SVG namespace (the plan page's charts, createElementNS) names, it is never fetched.
    expect(html.replaceAll("http://www.w3.org/2000/svg", "")).not.toMatch(/https?:\/\//);
    const blob = /<script type="application\/json" id="kubesched-report-data">(.*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(blob ?? "null")).toEqual(JSON.parse(JSON.stringify(reportModel({ simulation: r }))));
  });

  it("escapes what could end the script element", () => {
    const s = scriptSafeJSON({ m: "</script><!-- \u2028" });
    expect(s).not.toContain("<");
    expect(JSON.parse(s)).toEqual({ m: "</script><!-- \u2028" });
  });
});

describe("whySection", () => {
  it("is the WhyReport as why made it, each filter detail as `kubesched why` writes it; fixes when present", async () => {
    const r = await why({
      config: defaultConfig({ registry: inTreeRegistry }),
      registry: inTreeRegistry,
      logger: recordingLogger(),
      objects: loadSnapshotFiles(["examples/cluster.yaml"], root).objects,
      pod: { namespace: "default", name: "render-xl" },
    });
    const sec = whySection(r);
    expect(sec).toEqual({
      kind: "why",
      pod: r.pod,
      summary: r.summary,
      // Every PreFilter passes and no PreEnqueue plugin holds render-xl back: nothing to say.
      notes: {},
      preFilter: r.preFilter,
      groups: r.groups,
      preemption: r.preemption,
      nodes: r.nodes.map((n) => ({
        ...n,
        rejections: n.rejections.map((j) => ({ ...j, details: j.details.map(formatFilterDetail) })),
      })),
    });
    expect(sec.nodes.find((n) => n.name === "node-a1")?.rejections[0]?.details).toEqual([
      "cpu: requested 12, free 3 of 4, short 9",
      "memory: requested 48Gi, free 15Gi of 16Gi, short 33Gi",
    ]);
    const fixSearch = { budgetSeconds: 60, withPendingPods: true, exhausted: false, tried: 3 };
    const fix = {
      kind: "Uncordon",
      target: "cluster" as const,
      description: "uncordon node-a2",
      size: 1,
      node: "node-a2",
      displaces: [],
      kubectl: ["kubectl uncordon node-a2"],
      changes: [],
      moved: [],
    };
    expect(whySection({ ...r, fixes: [fix], fixSearch })).toMatchObject({ fixes: [fix], fixSearch });
    expect(reportModel({ why: r }).title).toBe("kubesched why default/render-xl");
  });
});
