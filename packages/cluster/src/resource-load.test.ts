// DRA objects (resource.k8s.io) in snapshots: every format and served version loads into the
// in-memory cluster as v1; what the API server refuses is one error naming object and field.
import type { DeviceClass, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { InMemoryCluster } from "./in-memory-cluster";
import { loadSnapshotTexts, SnapshotLoadError } from "./load";

function load(name: string, text: string) {
  return loadSnapshotTexts([{ name, text }]);
}
function errorsOf(name: string, text: string): string[] {
  try {
    load(name, text);
  } catch (e) {
    if (e instanceof SnapshotLoadError) return e.errors;
    throw e;
  }
  throw new Error("expected a SnapshotLoadError");
}
function clusterOf(r: ReturnType<typeof load>): InMemoryCluster {
  const cluster = new InMemoryCluster({ now: () => 0 } as never);
  for (const o of r.objects) if (!o.resource) cluster.apply(o.kind, o.obj);
  return cluster;
}

const deviceClass = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
`;

const v1beta1Slice = `apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: { name: n1-gpu }
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: { name: n1, generation: 1, resourceSliceCount: 1 }
  devices:
  - name: gpu-0
    basic:
      attributes: { model: { string: a100 } }
      capacity: { memory: { value: 40Gi } }
`;

const v1beta2Claim = `apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: { name: one-gpu, namespace: ml }
spec:
  devices:
    requests:
    - name: gpu
      exactly: { deviceClassName: gpu.example.com }
`;

describe("DRA objects in snapshots", () => {
  it("multi-document YAML: v1, v1beta1 and v1beta2 objects load as v1 into the cluster's listers", () => {
    const r = load("c.yaml", [deviceClass, v1beta1Slice, v1beta2Claim].join("---\n"));
    expect(r.warnings).toEqual([]);
    const listers = clusterOf(r).listers();
    expect(listers.deviceClasses.get("gpu.example.com")?.spec?.selectors).toHaveLength(1);
    expect(listers.resourceSlices.get("n1-gpu")).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceSlice",
      metadata: { name: "n1-gpu", resourceVersion: "2" },
      spec: {
        driver: "gpu.example.com",
        nodeName: "n1",
        pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
        devices: [
          {
            name: "gpu-0",
            attributes: { model: { string: "a100" } },
            capacity: { memory: { value: "40Gi" } },
          },
        ],
      },
    } satisfies ResourceSlice);
    expect(listers.resourceClaims.get("ml", "one-gpu")).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: { name: "one-gpu", namespace: "ml", resourceVersion: "3" },
      spec: {
        devices: {
          requests: [
            {
              name: "gpu",
              exactly: { deviceClassName: "gpu.example.com", allocationMode: "ExactCount", count: 1 },
            },
          ],
        },
      },
    } satisfies ResourceClaim);
  });

  it("kubectl's kind: List (JSON) and a typed list whose items take the list's apiVersion", () => {
    const list = {
      apiVersion: "v1",
      kind: "List",
      items: [
        { apiVersion: "resource.k8s.io/v1", kind: "DeviceClass", metadata: { name: "gpu.example.com" } },
        {
          apiVersion: "resource.k8s.io/v1",
          kind: "ResourceClaimTemplate",
          metadata: { name: "t", namespace: "ml" },
          spec: {
            spec: {
              devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] },
            },
          },
        },
      ],
    };
    const typed = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceSliceList",
      items: [
        {
          metadata: { name: "s" },
          spec: {
            driver: "gpu.example.com",
            allNodes: true,
            pool: { name: "p", generation: 0, resourceSliceCount: 1 },
            devices: [{ name: "d", basic: { attributes: { x: { int: 1 } } } }],
          },
        },
      ],
    };
    const r = loadSnapshotTexts([
      { name: "a.json", text: JSON.stringify(list) },
      { name: "b.json", text: JSON.stringify(typed) },
    ]);
    expect(r.warnings).toEqual([]);
    const listers = clusterOf(r).listers();
    expect(listers.deviceClasses.list().map((c: DeviceClass) => c.metadata?.name)).toEqual([
      "gpu.example.com",
    ]);
    expect(
      listers.resourceClaimTemplates.get("ml", "t")?.spec?.spec?.devices?.requests?.[0]?.exactly?.count,
    ).toBe(1);
    expect(listers.resourceSlices.get("s")?.spec.devices).toEqual([
      { name: "d", attributes: { x: { int: 1 } } },
    ]);
    expect(listers.resourceSlices.get("s")?.apiVersion).toBe("resource.k8s.io/v1");
  });

  it("a slice with duplicate device names is one error naming the slice and the field", () => {
    const slice = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: n1-gpu }
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: { name: n1, generation: 1, resourceSliceCount: 1 }
  devices: [{ name: gpu-0 }, { name: gpu-1 }, { name: gpu-0 }]
`;
    expect(errorsOf("c.yaml", slice)).toEqual([
      'c.yaml: document 1 (ResourceSlice n1-gpu): spec.devices[2].name: Duplicate value: "gpu-0"',
    ]);
  });

  it("a claim naming a DeviceClass the snapshot lacks is a warning naming claim and field; it still loads", () => {
    const r = load("c.yaml", v1beta2Claim);
    expect(r.warnings).toEqual([
      'c.yaml: document 1 (ResourceClaim ml/one-gpu): spec.devices.requests[0].exactly.deviceClassName: Not found: "gpu.example.com": no DeviceClass of this name in the snapshot; no device can be allocated for this request',
    ]);
    expect(r.objects.map((o) => o.kind)).toEqual(["ResourceClaim"]);
  });

  it("what the API server refuses: node selection, pool, requests, quantities, an unserved version", () => {
    const text = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: s }
spec:
  driver: d
  nodeName: n1
  allNodes: true
  pool: { name: p, generation: 1, resourceSliceCount: 0 }
  devices: [{ name: a, capacity: { mem: { value: lots } }, attributes: { x: { int: 1, string: y } } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: c }
spec:
  devices:
    requests:
    - name: r
    - name: s
      exactly: { deviceClassName: d, allocationMode: Some }
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: { name: old }
spec: {}
`;
    expect(errorsOf("c.yaml", text)).toEqual([
      "c.yaml: document 1 (ResourceSlice s): spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
      "c.yaml: document 1 (ResourceSlice s): spec: Invalid value: {`nodeName`, `allNodes`}: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set",
      "c.yaml: document 1 (ResourceSlice s): spec.devices[0].capacity[mem].value: cannot parse quantity \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      "c.yaml: document 1 (ResourceSlice s): spec.devices[0].attributes[x]: Invalid value: exactly one value must be specified",
      "c.yaml: document 2 (ResourceClaim c): spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required",
      'c.yaml: document 2 (ResourceClaim c): spec.devices.requests[1].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"',
      'c.yaml: document 3 (ResourceSlice old): apiVersion: Unsupported value: "resource.k8s.io/v1alpha3": supported values: "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"',
    ]);
  });
});
