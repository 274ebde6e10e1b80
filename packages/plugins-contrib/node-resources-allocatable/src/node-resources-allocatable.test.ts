// upstream: pkg/noderesources/allocatable_test.go
import type { Pod } from "@kubesched/api";
import {
  defaultFeatures,
  formatFieldErrors,
  MaxNodeScore,
  MinNodeScore,
  type ResourceSpec,
} from "@kubesched/framework";
import { createPluginHarness, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { validateNodeResourcesAllocatableArgs } from "./args";
import { nodeResourcesAllocatablePlugin } from "./index";

const node = (name: string, milliCPU: number, memory: number) =>
  makeNode()
    .name(name)
    .capacity({ cpu: `${milliCPU}m`, memory: String(memory) })
    .obj();
const pod = (name: string, requests: Record<string, string>) => makePod().name(name).req(requests).obj();

describe("TestNodeResourcesAllocatable", () => {
  const noResources = makePod().name("").obj();
  const scheduledPod = makePod()
    .name("scheduled")
    .node("machine1")
    .req({ cpu: "1000m", memory: "0" })
    .req({ cpu: "2000m", memory: "0" })
    .obj();
  const cpuAndMemory = pod("cpuAndMemory", { cpu: "1000m", memory: "1Gi" });
  const bigCpu = pod("bigCpu", { cpu: "8000m", memory: "1Gi" });
  // 1 millicore weighted the same as 1 MiB.
  const defaultSet: ResourceSpec[] = [
    { name: "cpu", weight: 1 << 20 },
    { name: "memory", weight: 1 },
  ];
  // 1 millicore weighted the same as 1 GiB.
  const cpuSet: ResourceSpec[] = [
    { name: "cpu", weight: 1 << 30 },
    { name: "memory", weight: 1 },
  ];
  const Mi = 1 << 20;
  const cases: {
    name: string;
    pod: Pod;
    pods?: Pod[];
    nodes: ReturnType<typeof node>[];
    args: { resources: ResourceSpec[]; mode?: string };
    expected: number[];
  }[] = [
    {
      name: "nothing scheduled, nothing requested",
      pod: noResources,
      nodes: [node("machine1", 4000, 10000), node("machine2", 4000, 10000)],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MinNodeScore, MinNodeScore],
    },
    {
      name: "nothing scheduled, resources requested, differently sized machines, least mode",
      pod: cpuAndMemory,
      nodes: [node("machine1", 4000, 10000), node("machine2", 6000, 10000)],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MaxNodeScore, MinNodeScore],
    },
    {
      name: "nothing scheduled, resources requested, differently sized machines, most mode",
      pod: cpuAndMemory,
      nodes: [node("machine1", 4000, 10000), node("machine2", 6000, 10000)],
      args: { resources: defaultSet, mode: "Most" },
      expected: [MinNodeScore, MaxNodeScore],
    },
    {
      name: "no resources requested, pods scheduled",
      pod: noResources,
      pods: [
        makePod().name("a").node("machine1").labels({ bar: "foo", baz: "blah" }).obj(),
        makePod().name("b").node("machine1").labels({ foo: "bar", baz: "blah" }).obj(),
        makePod().name("c").node("machine2").labels({ foo: "bar", baz: "blah" }).obj(),
        makePod().name("d").node("machine2").labels({ foo: "bar", baz: "blah" }).obj(),
      ],
      nodes: [node("machine1", 4000, 10000), node("machine2", 4000, 10000)],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MinNodeScore, MinNodeScore],
    },
    {
      name: "no resources requested, pods scheduled with resources",
      pod: noResources,
      pods: [scheduledPod],
      nodes: [node("machine1", 10000, 20000), node("machine2", 10000, 20000)],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MinNodeScore, MinNodeScore],
    },
    {
      name: "resources requested, pods scheduled with resources",
      pod: cpuAndMemory,
      pods: [scheduledPod],
      nodes: [node("machine1", 10000, 20000), node("machine2", 10000, 20000)],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MinNodeScore, MinNodeScore],
    },
    {
      name: "resources requested with more than the node, differently sized machines, least mode",
      pod: bigCpu,
      nodes: [node("machine1", 4000, 1000), node("machine2", 5000, 1000)],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MaxNodeScore, MinNodeScore],
    },
    {
      name: "resources requested with more than the node, differently sized machines, most mode",
      pod: bigCpu,
      nodes: [node("machine1", 4000, 1000), node("machine2", 5000, 1000)],
      args: { resources: defaultSet, mode: "Most" },
      expected: [MinNodeScore, MaxNodeScore],
    },
    {
      name: "nothing scheduled, resources requested, differently sized machines, cpu weighted, most mode",
      pod: cpuAndMemory,
      nodes: [node("machine1", 1000, 2000), node("machine2", 1005, 1000)],
      args: { resources: cpuSet, mode: "Least" },
      expected: [MaxNodeScore, MinNodeScore],
    },
    {
      name: "nothing scheduled, resources requested, differently sized machines, cpu weighted, least mode",
      pod: cpuAndMemory,
      nodes: [node("machine1", 1000, 2000), node("machine2", 1005, 1000)],
      args: { resources: cpuSet, mode: "Most" },
      expected: [MinNodeScore, MaxNodeScore],
    },
    {
      name: "nothing scheduled, resources requested, 3 differently sized machines, least mode",
      pod: cpuAndMemory,
      nodes: [
        node("machine1", 1000, 1000 * Mi),
        node("machine2", 2000, 2000 * Mi),
        node("machine3", 3000, 3000 * Mi),
      ],
      args: { resources: defaultSet, mode: "Least" },
      expected: [MaxNodeScore, (MinNodeScore + MaxNodeScore) / 2, MinNodeScore],
    },
    {
      name: "nothing scheduled, resources requested, 3 differently sized machines, most mode",
      pod: cpuAndMemory,
      nodes: [
        node("machine1", 1000, 1000 * Mi),
        node("machine2", 2000, 2000 * Mi),
        node("machine3", 3000, 3000 * Mi),
      ],
      args: { resources: defaultSet, mode: "Most" },
      expected: [MinNodeScore, (MinNodeScore + MaxNodeScore) / 2, MaxNodeScore],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const h = await createPluginHarness({
        plugin: nodeResourcesAllocatablePlugin,
        args: tc.args,
        nodes: tc.nodes,
        pods: tc.pods ?? [],
      });
      const { status, scores } = h.score(tc.pod);
      expect(status).toBeNull();
      expect(scores.map((s) => s.score)).toEqual(tc.expected);
    });
  }

  const errorCases = [
    {
      // resource with negative weight is not allowed
      name: "resource with negative weight",
      resources: [
        { name: "memory", weight: -1 },
        { name: "cpu", weight: 1 },
      ],
      wantErr:
        "resources[0].weight: Invalid value: -1: resource weight of memory should be a positive value, got :-1",
    },
    {
      // resource with zero weight is not allowed
      name: "resource with zero weight",
      resources: [
        { name: "memory", weight: 1 },
        { name: "cpu", weight: 0 },
      ],
      wantErr:
        "resources[1].weight: Invalid value: 0: resource weight of cpu should be a positive value, got :0",
    },
  ];
  for (const tc of errorCases) {
    it(tc.name, async () => {
      expect(
        formatFieldErrors(
          validateNodeResourcesAllocatableArgs({ resources: tc.resources, mode: "Least" }, ""),
        ),
      ).toBe(tc.wantErr);
      await expect(
        createPluginHarness({ plugin: nodeResourcesAllocatablePlugin, args: { resources: tc.resources } }),
      ).rejects.toThrow(`pluginConfig[NodeResourcesAllocatable].args.${tc.wantErr}`);
    });
  }
});

describe("NodeResourcesAllocatableArgs", () => {
  it("defaults to Least mode with cpu weighted 1<<20 and memory 1", async () => {
    const h = await createPluginHarness({ plugin: nodeResourcesAllocatablePlugin });
    expect(nodeResourcesAllocatablePlugin.args?.decode(undefined, "args", defaultFeatures).args).toEqual({
      mode: "Least",
      resources: [
        { name: "cpu", weight: 1 << 20 },
        { name: "memory", weight: 1 },
      ],
    });
    expect(h.plugin.name()).toBe("NodeResourcesAllocatable");
  });

  it("rejects an unknown mode", () => {
    expect(
      formatFieldErrors(
        validateNodeResourcesAllocatableArgs(
          { resources: [{ name: "cpu", weight: 1 }], mode: "Biggest" },
          "args",
        ),
      ),
    ).toBe('args.mode: Invalid value: "Biggest": invalid support ModeType');
  });
});
