// NodeResourcesFit's DRA-backed scoring reads the scheduler's shared DRA manager (upstream
// getDRAPreScoredParams: ResourceClaims().GatherAllocatedState(), ResourceSlices()
// .ListWithDeviceTaintRules(), DeviceClassResolver(); kubernetes/kubernetes@b170451c): a device
// held by a claim in flight (Reserve done, PreBind not yet) or by a claim the assume cache holds
// newer than the informer counts as allocated, and the slices are those the DeviceTaintRules patch.
import type { DeviceClass, DeviceTaintRule, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { DRAExtendedResourceScoring } from "./dra-extended-resource-score";
import { DefaultDRAManager } from "./dra-manager";

const gpu = "example.com/gpu";
const gpuClass: DeviceClass = { metadata: { name: "gpu-class" }, spec: { extendedResourceName: gpu } };
const node: Node = { metadata: { name: "n1" } };
const slice: ResourceSlice = {
  metadata: { name: "n1-gpus" },
  spec: {
    driver: "gpu.example.com",
    nodeName: "n1",
    pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
    devices: [{ name: "gpu-0" }, { name: "gpu-1" }, { name: "gpu-2" }],
  },
};

function claim(name: string, device: string | null, resourceVersion = "1"): ResourceClaim {
  return {
    metadata: { name, namespace: "default", uid: `uid-${name}`, resourceVersion },
    spec: { devices: { requests: [{ name: "r", exactly: { deviceClassName: "gpu-class" } }] } },
    ...(device === null
      ? {}
      : {
          status: {
            allocation: {
              devices: { results: [{ request: "r", driver: "gpu.example.com", pool: "n1", device }] },
            },
          },
        }),
  };
}

function lister<T extends { metadata?: { name?: string; namespace?: string } }>(items: () => readonly T[]) {
  return {
    list: () => items(),
    get: (a: string, b?: string) =>
      items().find((o) =>
        b === undefined ? o.metadata?.name === a : o.metadata?.namespace === a && o.metadata?.name === b,
      ),
  };
}

function setup(claims: ResourceClaim[], rules: DeviceTaintRule[] = []) {
  const manager = new DefaultDRAManager({
    listers: {
      resourceClaims: lister(() => claims),
      resourceSlices: lister(() => [slice]),
      deviceClasses: lister(() => [gpuClass]),
      deviceTaintRules: lister(() => rules),
    },
    deviceTaintRules: true,
  });
  const scoring = new DRAExtendedResourceScoring(manager, {
    enableConsumableCapacity: true,
    enableListTypeAttributes: false,
  });
  const totals = () => {
    const state = scoring.preScore([{ name: gpu, weight: 1 }]);
    if (state === null) throw new Error("no DRA-backed resource");
    return state.allocatableRequest(node, gpu);
  };
  return { manager, scoring, totals };
}

describe("DRA-backed scoring through the shared DRA manager", () => {
  it("counts the devices of in-flight allocations as held, and lets go when they end", () => {
    const { manager, totals } = setup([claim("a", "gpu-0"), claim("b", null)]);
    expect(totals()).toEqual([3, 1]);
    // Reserve allocated b (another profile's pod, say): gpu-1 is held before PreBind writes it.
    manager.resourceClaims().signalClaimPendingAllocation("uid-b", claim("b", "gpu-1"));
    expect(totals()).toEqual([3, 2]);
    // Unreserve.
    manager.resourceClaims().removeClaimPendingAllocation("uid-b");
    expect(totals()).toEqual([3, 1]);
  });

  it("counts the devices of a claim the assume cache holds newer than the informer", () => {
    const { manager, totals } = setup([claim("a", "gpu-0"), claim("b", null)]);
    manager.resourceClaims().assumeClaimAfterAPICall(claim("b", "gpu-2", "2"));
    expect(totals()).toEqual([3, 2]);
    manager.resourceClaims().assumedClaimRestore("default", "b");
    expect(totals()).toEqual([3, 1]);
  });

  it("reads the slices the DeviceTaintRules patch", () => {
    const rule: DeviceTaintRule = {
      metadata: { name: "gpu-1-broken" },
      spec: {
        deviceSelector: { driver: "gpu.example.com", pool: "n1", device: "gpu-1" },
        taint: { key: "broken", effect: "NoSchedule" },
      },
    };
    const { scoring, totals } = setup([claim("a", "gpu-0")], [rule]);
    const state = scoring.preScore([{ name: gpu, weight: 1 }]);
    const devices = state?.resourceSlices[0]?.spec.devices ?? [];
    expect(devices.map((d) => d.taints ?? [])).toEqual([[], [{ key: "broken", effect: "NoSchedule" }], []]);
    // A taint does not take a device out of the class's count (upstream counts every device of the class).
    expect(totals()).toEqual([3, 1]);
  });

  it("is not asked when no DeviceClass backs a scoring resource", () => {
    const { scoring } = setup([]);
    expect(scoring.preScore([{ name: "example.com/other", weight: 1 }])).toBeNull();
  });
});
