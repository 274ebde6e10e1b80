import { describe, expect, it } from "vitest";
import { convertResourceObjectToV1 } from "./resource-conversion";

const selector = { cel: { expression: `device.attributes["driver-a"].exists` } };

function convert(obj: Record<string, unknown>): unknown {
  const r = convertResourceObjectToV1(obj);
  if ("error" in r) throw new Error(r.error);
  return r.obj;
}

// upstream: pkg/apis/resource/v1beta1/conversion_test.go TestConversion (kubernetes/kubernetes
// 63595963cfe). The "internal to v1beta1" cases are not ported: kubesched never writes v1beta1.
describe("TestConversion", () => {
  it("ResourceClaim: v1beta1 to internal without alternatives", () => {
    const in_ = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceClaim",
      spec: {
        devices: {
          requests: [
            {
              name: "foo",
              deviceClassName: "class-a",
              selectors: [selector],
              allocationMode: "ExactCount",
              count: 2,
            },
          ],
        },
      },
    };
    expect(convert(in_)).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      spec: {
        devices: {
          requests: [
            {
              name: "foo",
              exactly: {
                deviceClassName: "class-a",
                selectors: [selector],
                allocationMode: "ExactCount",
                count: 2,
              },
            },
          ],
        },
      },
    });
  });

  it("ResourceClaim: v1beta1 to internal with alternatives", () => {
    const sub = (name: string, count: number) => ({
      name,
      deviceClassName: "class-a",
      selectors: [selector],
      allocationMode: "ExactCount",
      count,
    });
    const in_ = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceClaim",
      spec: { devices: { requests: [{ name: "foo", firstAvailable: [sub("sub-1", 2), sub("sub-2", 1)] }] } },
    };
    expect(convert(in_)).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      spec: { devices: { requests: [{ name: "foo", firstAvailable: [sub("sub-1", 2), sub("sub-2", 1)] }] } },
    });
  });
});

describe("v1beta1 conversion (conversion.go)", () => {
  it("a device's basic fields become the v1 device's fields; an empty nodeName and a false allNodes are unset", () => {
    const in_ = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceSlice",
      metadata: { name: "s" },
      spec: {
        driver: "gpu.example.com",
        pool: { name: "pool-1", generation: 1, resourceSliceCount: 1 },
        nodeName: "",
        allNodes: false,
        nodeSelector: { nodeSelectorTerms: [{ matchLabels: { a: "b" } }] },
        devices: [
          {
            name: "device-1",
            basic: {
              attributes: { model: { string: "a100" } },
              capacity: { memory: { value: "40Gi" } },
              consumesCounters: [{ counterSet: "gpu-0", counters: { memory: { value: "40Gi" } } }],
              taints: [{ key: "k", effect: "NoSchedule" }],
              allowMultipleAllocations: true,
            },
          },
          { name: "device-2" },
        ],
      },
    };
    expect(convert(in_)).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceSlice",
      metadata: { name: "s" },
      spec: {
        driver: "gpu.example.com",
        pool: { name: "pool-1", generation: 1, resourceSliceCount: 1 },
        nodeSelector: { nodeSelectorTerms: [{ matchLabels: { a: "b" } }] },
        devices: [
          {
            name: "device-1",
            attributes: { model: { string: "a100" } },
            capacity: { memory: { value: "40Gi" } },
            consumesCounters: [{ counterSet: "gpu-0", counters: { memory: { value: "40Gi" } } }],
            taints: [{ key: "k", effect: "NoSchedule" }],
            allowMultipleAllocations: true,
          },
          { name: "device-2" },
        ],
      },
    });
  });

  it("tolerations, capacity and adminAccess move under exactly; a template's claim spec converts too", () => {
    const in_ = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceClaimTemplate",
      spec: {
        spec: {
          devices: {
            requests: [
              {
                name: "gpu",
                deviceClassName: "gpu.example.com",
                adminAccess: false,
                tolerations: [{ key: "k", effect: "NoSchedule" }],
                capacity: { requests: { memory: "1Gi" } },
              },
            ],
          },
        },
      },
    };
    expect(convert(in_)).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaimTemplate",
      spec: {
        spec: {
          devices: {
            requests: [
              {
                name: "gpu",
                exactly: {
                  deviceClassName: "gpu.example.com",
                  adminAccess: false,
                  tolerations: [{ key: "k", effect: "NoSchedule", operator: "Equal" }],
                  capacity: { requests: { memory: "1Gi" } },
                  allocationMode: "ExactCount",
                  count: 1,
                },
              },
            ],
          },
        },
      },
    });
  });

  it("a request without any of the main fields gets no exactly", () => {
    const out = convert({
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceClaim",
      spec: { devices: { requests: [{ name: "r", count: 0, deviceClassName: "" }] } },
    });
    expect(out).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      spec: { devices: { requests: [{ name: "r" }] } },
    });
  });
});

// upstream: pkg/apis/resource/v1/defaults.go (SetDefaults_ExactDeviceRequest,
// SetDefaults_DeviceSubRequest; DeviceToleration.operator +default="Equal").
describe("v1 defaults", () => {
  it("ExactCount and a count of 1 when unset; All keeps no count; v1beta2 is read field for field", () => {
    const out = convert({
      apiVersion: "resource.k8s.io/v1beta2",
      kind: "ResourceClaim",
      spec: {
        devices: {
          requests: [
            { name: "a", exactly: { deviceClassName: "c" } },
            { name: "b", exactly: { deviceClassName: "c", allocationMode: "All" } },
            { name: "c", firstAvailable: [{ name: "s", deviceClassName: "c", tolerations: [{ key: "k" }] }] },
          ],
        },
      },
    });
    expect(out).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      spec: {
        devices: {
          requests: [
            { name: "a", exactly: { deviceClassName: "c", allocationMode: "ExactCount", count: 1 } },
            { name: "b", exactly: { deviceClassName: "c", allocationMode: "All" } },
            {
              name: "c",
              firstAvailable: [
                {
                  name: "s",
                  deviceClassName: "c",
                  allocationMode: "ExactCount",
                  count: 1,
                  tolerations: [{ key: "k", operator: "Equal" }],
                },
              ],
            },
          ],
        },
      },
    });
  });

  it("an unserved version is an error naming the served ones; the input is not modified", () => {
    const in_ = { apiVersion: "resource.k8s.io/v1alpha3", kind: "ResourceSlice" };
    expect(convertResourceObjectToV1(in_)).toEqual({
      error:
        'apiVersion: Unsupported value: "resource.k8s.io/v1alpha3": supported values: "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"',
    });
    const v1 = {
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      spec: { devices: { requests: [] } },
    };
    const frozen = structuredClone(v1);
    convert(v1);
    expect(v1).toEqual(frozen);
  });
});
