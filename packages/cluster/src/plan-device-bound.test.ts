// The device part of plan's capacity pre-check (plan-device-bound.ts): what pods' claims ask per
// DeviceClass, what the snapshot has free (its slices less allocated devices, through the class's
// CEL selectors) and what one node of a pool adds; each rule that keeps it a necessary condition.
import type { Pod, ResourceSlice } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { loadSnapshotTexts } from "./load";
import type { PlanPool } from "./plan";
import { devicesFit, planDeviceBound } from "./plan-device-bound";

const slice = (name: string, node: string, devices: string) => `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: ${name}}
spec: {driver: gpu.example.com, nodeName: ${node}, pool: {name: ${node}, generation: 0, resourceSliceCount: 1}, devices: ${devices}}`;

const base = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {selectors: [{cel: {expression: "device.driver == 'gpu.example.com'"}}]}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: model-a}
spec: {selectors: [{cel: {expression: "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].model == 'A'"}}]}
---
${slice("s1", "n1", "[{name: g0, attributes: {model: {string: A}}}, {name: g1, attributes: {model: {string: B}}}, {name: g2, attributes: {model: {string: A}}}]")}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: default}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}
status:
  allocation:
    devices: {results: [{request: r, driver: gpu.example.com, pool: n1, device: g0}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared, namespace: default}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: model-a, count: 2}}]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: mixed, namespace: default}
spec:
  spec:
    devices:
      requests:
        - {name: three, exactly: {deviceClassName: gpu, count: 3}}
        - {name: all, exactly: {deviceClassName: gpu, allocationMode: All}}
        - {name: admin, exactly: {deviceClassName: gpu, adminAccess: true}}
        - {name: either, firstAvailable: [{name: a, deviceClassName: gpu}, {name: b, deviceClassName: model-a}]}
        - {name: missing, exactly: {deviceClassName: no-such-class}}
`;

const pod = (name: string, claims: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  resourceClaims: ${claims}
  containers: [{name: c, image: x}]`;

function load(text: string) {
  const objects = loadSnapshotTexts([{ name: "snap.yaml", text }]).objects;
  const pods = objects.filter((o) => o.kind === "Pod").map((o) => o.obj as Pod);
  return { objects, pods };
}

const pool = (name: string, devices: ResourceSlice["spec"]["devices"]): PlanPool => ({
  name,
  node: { metadata: { name } },
  daemonSetPods: [],
  resourceSlices: [
    {
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceSlice",
      spec: {
        driver: "gpu.example.com",
        pool: { name: "", generation: 0, resourceSliceCount: 1 },
        ...(devices ? { devices } : {}),
      },
    },
  ],
  minCount: 0,
  maxCount: 3,
});

describe("planDeviceBound", () => {
  it("counts ExactCount requests per class: a template per pod, a shared claim once; All, admin access, firstAvailable and unknown classes count nothing", () => {
    const { objects, pods } = load(
      [
        base,
        pod("p1", "[{name: m, resourceClaimTemplateName: mixed}, {name: s, resourceClaimName: shared}]"),
        pod("p2", "[{name: m, resourceClaimTemplateName: mixed}, {name: s, resourceClaimName: shared}]"),
        pod("p3", "[{name: h, resourceClaimName: held}]"),
      ].join("\n---\n"),
    );
    const b = planDeviceBound(objects, pods, []);
    expect(b.need).toEqual(
      new Map([
        ["gpu", 6],
        ["model-a", 2],
      ]),
    );
    // Each pod's part (what sizes the expanders' proposals): the shared claim is p1's; p3's
    // allocated claim asks nothing, so p3 is not listed.
    expect(b.perPod).toEqual(
      new Map([
        [
          "default/p1",
          new Map([
            ["gpu", 3],
            ["model-a", 2],
          ]),
        ],
        ["default/p2", new Map([["gpu", 3]])],
      ]),
    );
    // g0 is held by an allocated claim: gpu has g1, g2 free; model-a (model A) has g2.
    expect(b.free).toEqual(
      new Map([
        ["gpu", 2],
        ["model-a", 1],
      ]),
    );
  });

  it("adds each pool node's devices per class, through the class's selectors", () => {
    const { objects, pods } = load(
      [base, pod("p1", "[{name: s, resourceClaimName: shared}]")].join("\n---\n"),
    );
    const a = pool("a", [
      { name: "x0", attributes: { "gpu.example.com/model": { string: "A" } } },
      { name: "x1", attributes: { model: { string: "B" } } },
    ]);
    const b = planDeviceBound(objects, pods, [a, pool("cpu", undefined)]);
    expect(b.perNode).toEqual([new Map([["model-a", 1]]), new Map([["model-a", 0]])]);
    // model-a: 2 asked, 1 free: one node of pool a is needed, cpu nodes never help.
    expect(devicesFit(b, [0, 3])).toBe(false);
    expect(devicesFit(b, [1, 0])).toBe(true);
  });

  it("a device that can be allocated more than once leaves the class unbounded", () => {
    const { objects, pods } = load(
      [
        base.replace(
          "{name: g1, attributes: {model: {string: B}}}",
          "{name: g1, allowMultipleAllocations: true, attributes: {model: {string: B}}}",
        ),
        pod("p1", "[{name: m, resourceClaimTemplateName: mixed}]"),
        pod("p2", "[{name: m, resourceClaimTemplateName: mixed}]"),
      ].join("\n---\n"),
    );
    const b = planDeviceBound(objects, pods, []);
    expect(b.free.get("gpu")).toBe(Number.POSITIVE_INFINITY);
    expect(devicesFit(b, [])).toBe(true);
  });

  it("pods without claims ask for nothing: every vector passes", () => {
    const { objects } = load(base);
    const b = planDeviceBound(objects, [], []);
    expect(b.need.size).toBe(0);
    expect(devicesFit(b, [])).toBe(true);
  });

  it("a device a DeviceTaintRule taints NoSchedule is not offered unless a request tolerates it; with the gate off it is", () => {
    const rule = (selector: string) => `apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: maintenance}
spec: {deviceSelector: ${selector}, taint: {key: maintenance, effect: NoSchedule}}`;
    const tolerating = `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: tolerating, namespace: default}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu, tolerations: [{key: maintenance, operator: Exists}]}}]}}`;
    const snapshot = (...docs: string[]) => load([base, ...docs].join("\n---\n"));
    // g2 of the snapshot and every device of pool a's nodes are tainted: gpu has g1 free.
    const { objects, pods } = snapshot(
      rule("{device: g2}"),
      pod("p1", "[{name: s, resourceClaimName: shared}]"),
    );
    const a = pool("a", [{ name: "x0", attributes: { model: { string: "A" } } }]);
    const withPoolRule = snapshot(
      rule("{driver: gpu.example.com}"),
      pod("p1", "[{name: s, resourceClaimName: shared}]"),
    );
    expect(planDeviceBound(objects, pods, []).free).toEqual(new Map([["model-a", 0]]));
    expect(planDeviceBound(withPoolRule.objects, withPoolRule.pods, [a]).perNode).toEqual([
      new Map([["model-a", 0]]),
    ]);
    const off = { enableDRADeviceTaints: true, enableDRADeviceTaintRules: false };
    expect(planDeviceBound(objects, pods, [], off).free).toEqual(new Map([["model-a", 1]]));
    // A request tolerating the taint may get the device: it stays offered.
    const tol = snapshot(
      rule("{device: g2}"),
      tolerating,
      pod("p1", "[{name: t, resourceClaimName: tolerating}]"),
    );
    expect(planDeviceBound(tol.objects, tol.pods, []).free).toEqual(new Map([["gpu", 2]]));
  });
});
