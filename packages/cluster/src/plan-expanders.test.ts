// The expanders' proposals (plan-expanders.ts) on hand-made pools: First-Fit Decreasing sizes a
// pool by every resource its node offers, devices per DeviceClass included; least-waste counts the
// devices a proposal leaves unused.
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { PlanPool } from "./plan";
import type { PlanDeviceBound } from "./plan-device-bound";
import { bestOption, binPack, expanderCapacities, expansionOptions } from "./plan-expanders";

const gib = 1024 ** 3;
const pool = (name: string, price: number): PlanPool => ({
  name,
  node: { metadata: { name } },
  daemonSetPods: [],
  minCount: 0,
  maxCount: 10,
  price,
});
const pools = [pool("cpu", 0.5), pool("gpu", 12)];
const perNode = [
  new Map([
    ["cpu", 16_000],
    ["memory", 64 * gib],
    ["pods", 110],
  ]),
  new Map([
    ["cpu", 64_000],
    ["memory", 512 * gib],
    ["pods", 110],
  ]),
];

describe("binPack", () => {
  it("packs by the tightest resource: 2-GPU pods on 8-GPU nodes take ⌈n·2/8⌉ nodes", () => {
    const cap = new Map([
      ["cpu", 64],
      ["deviceclass.resource.kubernetes.io/gpu", 8],
    ]);
    const pod = new Map([
      ["cpu", 4],
      ["deviceclass.resource.kubernetes.io/gpu", 2],
    ]);
    expect(binPack(Array(20).fill(pod), cap, 10)).toMatchObject({ nodes: 5 });
    // A 3-GPU pod leaves 2 GPUs of a node unused: 20 pods need 10 nodes, not ⌈60/8⌉ = 8.
    const three = new Map([
      ["cpu", 4],
      ["deviceclass.resource.kubernetes.io/gpu", 3],
    ]);
    expect(binPack(Array(20).fill(three), cap, 20)).toMatchObject({ nodes: 10 });
  });

  it("stops at the room maxCount leaves; pods bigger than a node are not hosted", () => {
    const cap = new Map([["cpu", 8]]);
    const r = binPack([new Map([["cpu", 6]]), new Map([["cpu", 6]]), new Map([["cpu", 9]])], cap, 1);
    expect(r.nodes).toBe(1);
    expect(r.hosted).toHaveLength(1);
  });
});

describe("expansionOptions: least-waste with devices", () => {
  // One 2-GPU pod (so the class counts) and four cpu-only pods shaped like the GPU node: without
  // the device term the GPU pool would waste nothing on cpu and memory for the cpu pods.
  const gpuPod = makePod().name("train").namespace("ml").req({ cpu: "8", memory: "64Gi" }).obj();
  const cpuPods = [0, 1, 2, 3].map((i) =>
    makePod().name(`etl-${i}`).namespace("ml").req({ cpu: "8", memory: "64Gi" }).obj(),
  );
  const devices: PlanDeviceBound = {
    need: new Map([["gpu", 2]]),
    perPod: new Map([["ml/train", new Map([["gpu", 2]])]]),
    free: new Map(),
    perNode: [new Map(), new Map([["gpu", 8]])],
  };
  const capacities = expanderCapacities(perNode, devices);

  it("a GPU node taken for cpu-only pods wastes its GPUs: the CPU pool wins", () => {
    const hostedBy = (_: string, p: string) => p === "cpu" || p === "gpu";
    const options = expansionOptions(pools, [0, 0], cpuPods, hostedBy, capacities, devices);
    expect(options).toEqual([
      // 4 nodes of 16 cpu (millicores here) for 4 × 8 cpu: half the cpu unused, no memory.
      { pool: 0, nodes: 4, hosted: 4, waste: 0.5, cost: 2 },
      // 1 node: cpu 32/64 and memory 256/512 unused, and all 8 GPUs.
      { pool: 1, nodes: 1, hosted: 4, waste: 2, cost: 12 },
    ]);
    expect(bestOption("least-waste", pools, options)?.pool).toBe(0);
    expect(bestOption("most-pods", pools, options)?.pool).toBe(0);
  });

  it("the GPU pod's devices count against the GPU node's: its GPUs are not all wasted", () => {
    const hostedBy = (pod: string, p: string) => pod !== "ml/train" || p === "gpu";
    const options = expansionOptions(pools, [0, 0], [gpuPod, ...cpuPods], hostedBy, capacities, devices);
    expect(options.find((o) => o.pool === 1)).toEqual({
      pool: 1,
      nodes: 1,
      hosted: 5,
      waste: (64 - 40) / 64 + (512 - 320) / 512 + 6 / 8,
      cost: 12,
    });
  });
});

describe("expanderCapacities", () => {
  it("offers a pool node's devices per class; a class with a multi-allocation device (unbounded) is not a limit", () => {
    const devices: PlanDeviceBound = {
      need: new Map([
        ["gpu", 2],
        ["shared", 1],
      ]),
      perPod: new Map(),
      free: new Map(),
      perNode: [
        new Map([["gpu", 0]]),
        new Map([
          ["gpu", 8],
          ["shared", Number.POSITIVE_INFINITY],
        ]),
      ],
    };
    const [cpu, gpu] = expanderCapacities(perNode, devices);
    expect(cpu?.has("deviceclass.resource.kubernetes.io/gpu")).toBe(false);
    expect(gpu?.get("deviceclass.resource.kubernetes.io/gpu")).toBe(8);
    expect(gpu?.has("deviceclass.resource.kubernetes.io/shared")).toBe(false);
  });
});
