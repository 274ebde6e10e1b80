// The DRAExtendedResource decision check (checkExtendedResourceClaims) catches what a wrong special
// claim looks like, and the templates are upstream's (names, resources, classes).
import type { Pod, ResourceClaim } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { makeExtendedResourceClass, makeExtendedResourcePod } from "./dra-extendedresource";
import { makeDRANode, makeDriverSlice, testDriver } from "./dra-templates";
import { checkExtendedResourceClaims, draBackedResources } from "./verify-dra";

const nodes = [0, 1].map((i) => makeDRANode(i));
const n0 = "scheduler-perf-dra-0";
const slices = nodes.map((n) => makeDriverSlice(testDriver, n.metadata!.name!, 2));
const deviceClasses = [0, 1].map((i) => makeExtendedResourceClass("deviceclass-extended-resource", i));
const claimName = "test-dra-0-extended-resources-abcde";

function boundPod(status = true): Pod {
  const p = makeExtendedResourcePod("pod-with-extended-resource-mod25", "test", 0);
  return {
    ...p,
    spec: { ...p.spec!, nodeName: n0 },
    status: status
      ? {
          extendedResourceClaimStatus: {
            resourceClaimName: claimName,
            requestMappings: [
              {
                containerName: "pause",
                resourceName: "example.com/gpu-0",
                requestName: "container-0-request-0",
              },
            ],
          },
        }
      : {},
  };
}

function specialClaim(devices: { pool: string; device: string }[], reserved = true): ResourceClaim {
  return {
    metadata: { name: claimName, namespace: "test" },
    spec: {
      devices: {
        requests: [
          {
            name: "container-0-request-0",
            exactly: { deviceClassName: "test-class-0", allocationMode: "ExactCount", count: 1 },
          },
        ],
      },
    },
    status: {
      allocation: {
        devices: {
          results: devices.map((d) => ({ request: "container-0-request-0", driver: testDriver, ...d })),
        },
      },
      ...(reserved
        ? { reservedFor: [{ resource: "pods", name: "test-dra-0", uid: "test/test-dra-0" }] }
        : {}),
    },
  };
}

const check = (pod: Pod, claim: ResourceClaim) =>
  checkExtendedResourceClaims(
    { pods: [pod], resourceClaims: [claim], resourceSlices: slices, deviceClasses },
    nodes,
  );

describe("checkExtendedResourceClaims", () => {
  it("accepts a pod served by its special claim: one device of its node per unit", () => {
    expect(check(boundPod(), specialClaim([{ pool: n0, device: "instance-0" }]))).toMatchObject({
      pods: 1,
      devices: 1,
      problemCount: 0,
    });
  });
  it("finds a pod without extendedResourceClaimStatus", () => {
    const r = check(boundPod(false), specialClaim([{ pool: n0, device: "instance-0" }]));
    expect(r.problems).toEqual([`pod test/test-dra-0 on ${n0}: no extendedResourceClaimStatus`]);
  });
  it("finds a device of another node, a missing device and a claim not reserved for the pod", () => {
    const other = check(boundPod(), specialClaim([{ pool: "scheduler-perf-dra-1", device: "instance-0" }]));
    expect(other.problems).toEqual([
      `pod test/test-dra-0 on ${n0}: device instance-0 of node scheduler-perf-dra-1`,
    ]);
    const none = check(boundPod(), specialClaim([]));
    expect(none.problems).toEqual(["pod test/test-dra-0: 0 devices for example.com/gpu-0, requested 1"]);
    const unreserved = check(boundPod(), specialClaim([{ pool: n0, device: "instance-0" }], false));
    expect(unreserved.problems).toEqual([`pod test/test-dra-0: claim ${claimName} not reserved for it`]);
  });
});

describe("upstream's extended-resource templates", () => {
  it("names the classes and resources as the YAML templates do", () => {
    expect(deviceClasses[1]?.spec?.extendedResourceName).toBe("example.com/gpu-1");
    expect(makeExtendedResourceClass("deviceclass-implicit-extended-resource", 3).spec).not.toHaveProperty(
      "extendedResourceName",
    );
    expect(makeExtendedResourceClass("deviceclass-extended-resource-scoring", 3)).toMatchObject({
      metadata: { name: "scoring-test-class-3" },
      spec: { extendedResourceName: "example.com/gpu" },
    });
    const requests = (p: Pod) => p.spec?.containers[0]?.resources?.requests;
    expect(requests(makeExtendedResourcePod("pod-with-extended-resource-mod25", "t", 26))).toEqual({
      "example.com/gpu-1": "1",
    });
    expect(requests(makeExtendedResourcePod("pod-with-extended-resource-mod50", "t", 26))).toEqual({
      "example.com/gpu-26": "1",
    });
    expect(requests(makeExtendedResourcePod("pod-with-implicit-extended-resource-mod25", "t", 27))).toEqual({
      "deviceclass.resource.kubernetes.io/test-class-2": "1",
    });
    expect(makeExtendedResourcePod("pod-with-extended-resource-scoring", "t", 4).metadata?.name).toBe(
      "scoring-test-pod-4",
    );
    // The implicit name of every class is backed; a device-plugin resource no class names is not.
    const backed = draBackedResources(deviceClasses);
    expect([backed("deviceclass.resource.kubernetes.io/test-class-0"), backed("example.com/fpga")]).toEqual([
      true,
      false,
    ]);
  });
});
