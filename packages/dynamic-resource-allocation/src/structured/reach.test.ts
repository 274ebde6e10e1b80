// sliceReachesNode / deviceReachesNode: the one decision of whether a ResourceSlice (or a device
// of a slice with per-device node selection) reaches a node, as upstream GatherPools selects
// slices (pools_incubating.go); gatherPools, the PoolCache's key of the slices without a node name
// and NodeResourcesFit's DRA-backed scoring call it. The matcher sources: parsing per call, and
// the NodeSelectorCache that parses each selector once.
import type { Device, Node, NodeSelector, ResourceSlice } from "@kubesched/api";
import { describe, expect, it, vi } from "vitest";
import {
  deviceReachesNode,
  gatherPools,
  NodeSelectorCache,
  type NodeSelectorSource,
  parsingNodeSelectors,
  sliceReachesNode,
} from "./pools";

const node: Node = { metadata: { name: "n1", labels: { zone: "a" } } };
const zone = (value: string): NodeSelector => ({
  nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: [value] }] }],
});
const invalid: NodeSelector = {
  nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "Bogus" as "In", values: ["a"] }] }],
};

function slice(spec: Partial<ResourceSlice["spec"]>, name = "s"): ResourceSlice {
  return {
    metadata: { name },
    spec: { driver: "d", pool: { name: "p", generation: 1, resourceSliceCount: 1 }, devices: [], ...spec },
  };
}

describe("sliceReachesNode", () => {
  const cases: { name: string; slice: ResourceSlice; partitionable?: boolean; want: boolean }[] = [
    { name: "its node", slice: slice({ nodeName: "n1" }), want: true },
    { name: "another node", slice: slice({ nodeName: "n2" }), want: false },
    { name: "all nodes", slice: slice({ allNodes: true }), want: true },
    { name: "a matching node selector", slice: slice({ nodeSelector: zone("a") }), want: true },
    { name: "a node selector not matching", slice: slice({ nodeSelector: zone("b") }), want: false },
    {
      name: "per-device node selection, one device on the node",
      slice: slice({
        perDeviceNodeSelection: true,
        devices: [
          { name: "x", nodeName: "n2" },
          { name: "y", nodeSelector: zone("a") },
        ],
      }),
      want: true,
    },
    {
      name: "per-device node selection, no device on the node",
      slice: slice({
        perDeviceNodeSelection: true,
        devices: [{ name: "x", nodeName: "n2" }, { name: "y", nodeSelector: zone("b") }, { name: "z" }],
      }),
      want: false,
    },
    {
      name: "per-device node selection without DRAPartitionableDevices",
      slice: slice({ perDeviceNodeSelection: true, devices: [{ name: "x", allNodes: true }] }),
      partitionable: false,
      want: false,
    },
    {
      name: "shared counters reach every node",
      slice: slice({ nodeName: "n2", sharedCounters: [{ name: "c", counters: {} }] }),
      want: true,
    },
    {
      name: "shared counters without DRAPartitionableDevices",
      slice: slice({ sharedCounters: [{ name: "c", counters: {} }] }),
      partitionable: false,
      want: false,
    },
    { name: "nothing set (a future extension)", slice: slice({}), want: false },
  ];
  it.each(cases)("$name", (tc) => {
    expect(sliceReachesNode(tc.slice, node, tc.partitionable ?? true)).toBe(tc.want);
    expect(sliceReachesNode(tc.slice, node, tc.partitionable ?? true, new NodeSelectorCache())).toBe(tc.want);
    // gatherPools takes exactly the slices that reach the node.
    const pools = gatherPools([tc.slice], node, { partitionableDevices: tc.partitionable ?? true });
    expect(pools.length > 0).toBe(tc.want);
  });

  it("names the slice, and the device, when a node selector is invalid", () => {
    expect(() => sliceReachesNode(slice({ nodeSelector: invalid }, "bad"), node, true)).toThrow(
      /^failed to perform node selection for slice bad: failed to parse node selector /,
    );
    expect(() =>
      sliceReachesNode(
        slice({ perDeviceNodeSelection: true, devices: [{ name: "dev", nodeSelector: invalid }] }, "bad"),
        node,
        true,
      ),
    ).toThrow(
      /^failed to perform node selection for device dev in slice bad: failed to parse node selector /,
    );
  });

  it("asks the matcher source for each selector (the PoolCache and the scoring keep them parsed)", () => {
    const source: NodeSelectorSource = { matches: vi.fn(() => true) };
    expect(sliceReachesNode(slice({ nodeSelector: zone("b") }), node, true, source)).toBe(true);
    expect(source.matches).toHaveBeenCalledTimes(1);
    // A node name decides before a selector is read.
    expect(sliceReachesNode(slice({ nodeName: "n2", nodeSelector: zone("a") }), node, true, source)).toBe(
      false,
    );
    expect(source.matches).toHaveBeenCalledTimes(1);
  });
});

describe("deviceReachesNode", () => {
  const cases: { name: string; device: Device; want: boolean }[] = [
    { name: "its node", device: { name: "x", nodeName: "n1" }, want: true },
    { name: "another node", device: { name: "x", nodeName: "n2" }, want: false },
    { name: "all nodes", device: { name: "x", allNodes: true }, want: true },
    { name: "a matching selector", device: { name: "x", nodeSelector: zone("a") }, want: true },
    { name: "a selector not matching", device: { name: "x", nodeSelector: zone("b") }, want: false },
    { name: "nothing set", device: { name: "x" }, want: false },
  ];
  it.each(cases)("$name", (tc) => {
    expect(deviceReachesNode(tc.device, node)).toBe(tc.want);
    expect(deviceReachesNode(tc.device, node, parsingNodeSelectors)).toBe(tc.want);
  });
});

describe("NodeSelectorCache", () => {
  it("parses a selector once per object and per content, and fails again for an invalid one", () => {
    const cache = new NodeSelectorCache();
    const a = zone("a");
    const m = cache.matcher(a);
    expect(cache.matcher(a)).toBe(m);
    expect(cache.matcher(zone("a"))).toBe(m);
    expect(cache.matches(zone("b"), node)).toBe(false);
    expect(() => cache.matcher(invalid)).toThrow(/^failed to parse node selector /);
    expect(() => cache.matcher(invalid)).toThrow(/^failed to parse node selector /);
  });
});
