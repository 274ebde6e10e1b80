// The device counts of simulate's result: pools' newest generation only, classes matched by
// their CEL selectors (all of them; one that does not compile matches nothing).
import type { DeviceClass, ResourceSlice } from "@kubesched/api";
import { defaultFeatures } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { deviceClassResults, nodeDeviceResults } from "./device-usage";

const slice = (node: string, generation: number, devices: [string, string][]): ResourceSlice => ({
  metadata: { name: `${node}-${generation}` },
  spec: {
    driver: "gpu.example.com",
    nodeName: node,
    pool: { name: node, generation, resourceSliceCount: 1 },
    devices: devices.map(([name, model]) => ({ name, attributes: { model: { string: model } } })),
  },
});
const cls = (name: string, ...expressions: string[]): DeviceClass => ({
  metadata: { name },
  spec: { selectors: expressions.map((expression) => ({ cel: { expression } })) },
});
const key = (pool: string, device: string) => `gpu.example.com\u0000${pool}\u0000${device}`;

const slices = [
  // gpu-a's old generation (the driver is replacing it) is not counted.
  slice("gpu-a", 1, [["old-0", "a100"]]),
  slice("gpu-a", 2, [
    ["gpu-0", "a100"],
    ["gpu-1", "h100"],
  ]),
  slice("gpu-b", 1, [["gpu-0", "h100"]]),
];
const after = new Set([key("gpu-a", "gpu-0"), key("gpu-b", "gpu-0")]);
const before = new Set([key("gpu-a", "gpu-0"), key("gpu-a", "old-0")]);

describe("device counts", () => {
  it("per node: the pool's newest generation, allocated after and before", () => {
    expect(Object.fromEntries(nodeDeviceResults(slices, after, before))).toEqual({
      "gpu-a": [{ driver: "gpu.example.com", pool: "gpu-a", published: 2, allocated: 1, allocatedBefore: 1 }],
      "gpu-b": [{ driver: "gpu.example.com", pool: "gpu-b", published: 1, allocated: 1, allocatedBefore: 0 }],
    });
  });

  it("per DeviceClass: the devices all its selectors match; a selector that does not compile matches nothing", () => {
    const classes = [
      cls(
        "h100",
        'device.driver == "gpu.example.com"',
        'device.attributes["gpu.example.com"].model == "h100"',
      ),
      cls("any"),
      cls("broken", "device.driver =="),
      cls("other-driver", 'device.driver == "nic.example.com"'),
    ];
    expect(deviceClassResults(classes, slices, after, before, defaultFeatures)).toEqual([
      { name: "any", published: 3, allocated: 2, allocatedBefore: 1 },
      { name: "broken", published: 0, allocated: 0, allocatedBefore: 0 },
      { name: "h100", published: 2, allocated: 1, allocatedBefore: 0 },
      { name: "other-driver", published: 0, allocated: 0, allocatedBefore: 0 },
    ]);
  });
});
