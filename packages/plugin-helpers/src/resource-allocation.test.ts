// upstream: pkg/scheduler/framework/plugins/noderesources/resource_allocation_test.go (index id
// 81958626): TestResourceAllocationScorerCalculateRequests and TestCalculateResourceAllocatableRequest.
import {
  DefaultMemoryRequest,
  DefaultMilliCPURequest,
  type DeviceClass,
  type Node,
  type Pod,
  type ResourceClaim,
  type ResourceSlice,
} from "@kubesched/api";
import { defaultResourceSpec, NodeInfo } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { DRAExtendedResourceScoring } from "./dra-extended-resource-score";
import { DefaultDRAManager } from "./dra-manager";
import { leastResourceScorer, ResourceAllocationScorer, type ResourceScorerFn } from "./resource-allocation";

const defaultResources = defaultResourceSpec();

describe("TestResourceAllocationScorerCalculateRequests", () => {
  const oneMi = 1048576;
  const cases: { name: string; pod: Pod; expected: Record<string, number> }[] = [
    {
      name: "overhead only",
      pod: { spec: { containers: [], overhead: { cpu: "1", memory: "1Mi" } } },
      expected: { cpu: 1000, memory: oneMi },
    },
    {
      name: "1x requestless container",
      pod: { spec: { containers: [{ name: "c" }] } },
      expected: { cpu: DefaultMilliCPURequest, memory: DefaultMemoryRequest },
    },
    {
      name: "2x requestless container",
      pod: { spec: { containers: [{ name: "a" }, { name: "b" }] } },
      expected: { cpu: 2 * DefaultMilliCPURequest, memory: 2 * DefaultMemoryRequest },
    },
    {
      name: "request container + requestless container",
      pod: {
        spec: {
          containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Mi" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 1000 + DefaultMilliCPURequest, memory: oneMi + DefaultMemoryRequest },
    },
    {
      name: "container + requestless container + overhead",
      pod: {
        spec: {
          overhead: { cpu: "1", memory: "1Mi" },
          containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Mi" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 2000 + DefaultMilliCPURequest, memory: 2 * oneMi + DefaultMemoryRequest },
    },
    {
      name: "init container + container + requestless container + overhead",
      pod: {
        spec: {
          overhead: { cpu: "1", memory: "1Mi" },
          initContainers: [{ name: "i", resources: { requests: { cpu: "3" } } }],
          containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Mi" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 4000, memory: 2 * oneMi + DefaultMemoryRequest },
    },
    {
      name: "requestless init container + small init container + small container ",
      pod: {
        spec: {
          initContainers: [
            { name: "i0" },
            { name: "i1", resources: { requests: { cpu: "1m", memory: "1" } } },
          ],
          containers: [{ name: "a", resources: { requests: { cpu: "3m", memory: "3" } } }],
        },
      },
      expected: { cpu: DefaultMilliCPURequest, memory: DefaultMemoryRequest },
    },
    {
      name: "requestless init container + small init container + small container + requestless container ",
      pod: {
        spec: {
          initContainers: [
            { name: "i0" },
            { name: "i1", resources: { requests: { cpu: "1m", memory: "1" } } },
          ],
          containers: [{ name: "a", resources: { requests: { cpu: "3m", memory: "3" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 3 + DefaultMilliCPURequest, memory: 3 + DefaultMemoryRequest },
    },
  ];
  const scorer = new ResourceAllocationScorer({
    name: "LeastAllocated",
    resources: defaultResources,
    scorer: leastResourceScorer(defaultResources),
    useRequested: false,
    enableInPlacePodVerticalScaling: true,
    enablePodLevelResources: true,
  });
  it.each(cases)("$name", (tc) => {
    for (const [name, exp] of Object.entries(tc.expected)) {
      expect(scorer.calculatePodResourceRequest(tc.pod, name), name).toBe(exp);
    }
  });
});

/** An informer cache over a fixed list (cluster-scoped and namespaced alike). */
function lister<T extends { metadata?: { name?: string; namespace?: string } }>(items: T[]) {
  return {
    list: () => items,
    get: (a: string, b?: string) =>
      items.find((o) =>
        b === undefined ? o.metadata?.name === a : o.metadata?.namespace === a && o.metadata?.name === b,
      ),
  };
}

describe("TestCalculateResourceAllocatableRequest", () => {
  const nodeName = "resource-node";
  const driverName = "test-driver";
  const testClaim = "test-claim";
  const deviceClassName = "device-class-name";
  const explicitExtendedResource = "extended.resource.dra.io/something";
  const implicitExtendedResource = `deviceclass.resource.kubernetes.io/${deviceClassName}`;
  const deviceClassWithExtendResourceName: DeviceClass = {
    metadata: { name: deviceClassName },
    spec: { extendedResourceName: explicitExtendedResource },
  };
  const node = (extra: Partial<Node["metadata"]> = {}, capacity?: Record<string, string>): Node => ({
    metadata: { name: nodeName, ...extra },
    ...(capacity ? { status: { capacity, allocatable: capacity } } : {}),
  });
  /** st.MakeResourceSlice(nodeName, driverName).Devices(...). */
  const slice = (...devices: string[]): ResourceSlice => ({
    metadata: { name: `${nodeName}-${driverName}` },
    spec: {
      nodeName,
      driver: driverName,
      pool: { name: nodeName, resourceSliceCount: 1, generation: 0 },
      devices: devices.map((name) => ({ name })),
    },
  });
  /** st.MakeResourceClaim().Name(name).Request(deviceClassName).Allocation(one device). */
  const claim = (name: string, pool: string, device: string, shareID?: string): ResourceClaim => ({
    metadata: { name, namespace: "default" },
    spec: { devices: { requests: [{ name: "req-1", exactly: { deviceClassName } }] } },
    status: {
      allocation: {
        devices: {
          results: [{ request: "req-1", driver: driverName, pool, device, ...(shareID ? { shareID } : {}) }],
        },
      },
    },
  });
  const perDeviceClass: DeviceClass = {
    metadata: { name: deviceClassName },
    spec: {
      extendedResourceName: explicitExtendedResource,
      selectors: [
        {
          cel: {
            // Realistic GPU selection: match test driver with at least 8GB memory and SOME- model
            expression: `device.driver == "test-driver" && device.capacity["test-driver"].memory.compareTo(quantity("8Gi")) >= 0 && device.attributes["test-driver"].model.startsWith("SOME-")`,
          },
        },
      ],
    },
  };
  const perDeviceSlice: ResourceSlice = {
    metadata: { name: "per-device-slice" },
    spec: {
      driver: driverName,
      pool: { name: "per-device-pool", resourceSliceCount: 1, generation: 0 },
      perDeviceNodeSelection: true,
      devices: [
        {
          name: "device-1",
          nodeName,
          attributes: { model: { string: "SOME-XYZ" } },
          capacity: { memory: { value: "16Gi" } },
        },
        {
          name: "device-2",
          nodeName: "other-node",
          attributes: { model: { string: "SOME-ZYX" } },
          capacity: { memory: { value: "12Gi" } },
        },
        {
          name: "device-3",
          nodeSelector: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "zone", operator: "In", values: ["us-east-1a"] }] },
            ],
          },
          attributes: { model: { string: "SOME-XZY" } },
          capacity: { memory: { value: "24Gi" } },
        },
      ],
    },
  };
  const cases: {
    name: string;
    enableDRAExtendedResource: boolean;
    node: Node;
    extendedResource: string;
    deviceClasses?: DeviceClass[];
    resourceSlices?: ResourceSlice[];
    resourceClaims?: ResourceClaim[];
    podRequest: number;
    expectedAllocatable: number;
    expectedRequested: number;
  }[] = [
    {
      name: "device-plugin-resource-feature-disabled",
      enableDRAExtendedResource: false,
      node: node({}, { [explicitExtendedResource]: "4" }),
      extendedResource: explicitExtendedResource,
      podRequest: 1,
      expectedAllocatable: 4,
      expectedRequested: 1,
    },
    {
      name: "device-plugin-resource-feature-enabled",
      enableDRAExtendedResource: true,
      node: node({}, { [explicitExtendedResource]: "4" }),
      extendedResource: explicitExtendedResource,
      podRequest: 1,
      expectedAllocatable: 4,
      expectedRequested: 1,
    },
    {
      name: "DRA-backed-resource-explicit",
      enableDRAExtendedResource: true,
      node: node(),
      extendedResource: explicitExtendedResource,
      deviceClasses: [deviceClassWithExtendResourceName],
      resourceSlices: [slice("device-1")],
      podRequest: 1,
      expectedAllocatable: 1,
      expectedRequested: 1,
    },
    {
      name: "DRA-backed-resource-implicit",
      enableDRAExtendedResource: true,
      node: node(),
      extendedResource: implicitExtendedResource,
      deviceClasses: [{ metadata: { name: deviceClassName } }],
      resourceSlices: [slice("device-1")],
      podRequest: 1,
      expectedAllocatable: 1,
      expectedRequested: 1,
    },
    {
      name: "DRA-backed-resource-no-slices",
      enableDRAExtendedResource: true,
      node: node(),
      extendedResource: explicitExtendedResource,
      deviceClasses: [deviceClassWithExtendResourceName],
      podRequest: 1,
      expectedAllocatable: 0,
      expectedRequested: 0,
    },
    {
      name: "DRA-backed-resource-with-allocated-device",
      enableDRAExtendedResource: true,
      node: node(),
      extendedResource: explicitExtendedResource,
      deviceClasses: [deviceClassWithExtendResourceName],
      resourceSlices: [slice("device-1", "device-2")],
      resourceClaims: [claim(testClaim, nodeName, "device-1")],
      podRequest: 1,
      expectedAllocatable: 2,
      expectedRequested: 2, // 1 allocated + 1 requested
    },
    {
      name: "DRA-backed-resource-with-shared-device-allocation",
      enableDRAExtendedResource: true,
      node: node(),
      extendedResource: explicitExtendedResource,
      deviceClasses: [deviceClassWithExtendResourceName],
      resourceSlices: [slice("device-1", "device-2")],
      resourceClaims: [claim(testClaim, nodeName, "device-1", "share-123")],
      podRequest: 1,
      expectedAllocatable: 2,
      expectedRequested: 2, // 1 allocated (shared) + 1 requested
    },
    {
      name: "DRA-backed-resource-multiple-devices-mixed-allocation",
      enableDRAExtendedResource: true,
      node: node(),
      extendedResource: explicitExtendedResource,
      deviceClasses: [deviceClassWithExtendResourceName],
      resourceSlices: [slice("device-1", "device-2", "device-3")],
      resourceClaims: [
        claim("test-claim-1", nodeName, "device-1"),
        claim("test-claim-2", nodeName, "device-2", "share-456"),
      ],
      podRequest: 1,
      expectedAllocatable: 3,
      expectedRequested: 3, // 2 allocated (1 full + 1 shared) + 1 requested
    },
    {
      name: "DRA-backed-resource-with-per-device-node-selection",
      enableDRAExtendedResource: true,
      node: node({ labels: { zone: "us-east-1a" } }),
      extendedResource: explicitExtendedResource,
      deviceClasses: [perDeviceClass],
      resourceSlices: [perDeviceSlice],
      resourceClaims: [claim("test-claim", "per-device-pool", "device-1")],
      podRequest: 1,
      expectedAllocatable: 2, // device-1 matches the test node and device-3 matches via its selector
      expectedRequested: 2, // 1 allocated (device-1) + 1 requested
    },
  ];
  it.each(cases)("$name", (tc) => {
    const resources = [{ name: tc.extendedResource, weight: 1 }];
    const manager = new DefaultDRAManager({
      listers: {
        resourceClaims: lister(tc.resourceClaims ?? []),
        resourceSlices: lister(tc.resourceSlices ?? []),
        deviceClasses: lister(tc.deviceClasses ?? []),
      },
      deviceTaintRules: false,
    });
    const scoring = new DRAExtendedResourceScoring(manager, {
      enableConsumableCapacity: true,
      enableListTypeAttributes: false,
    });
    const dra = tc.enableDRAExtendedResource ? scoring.preScore(resources) : null;
    // The amounts calculateResourceAllocatableRequest gives are what the scorer function receives.
    let got: [number, number] = [-1, -1];
    const capture: ResourceScorerFn = (requested, _allocated, allocatable) => {
      got = [allocatable[0]!, requested[0]!];
      return 0;
    };
    const scorer = new ResourceAllocationScorer({
      name: "LeastAllocated",
      resources,
      scorer: capture,
      useRequested: false,
      enableInPlacePodVerticalScaling: true,
      enablePodLevelResources: true,
    });
    const nodeInfo = new NodeInfo();
    nodeInfo.setNode(tc.node);
    scorer.score(nodeInfo, [tc.podRequest], dra);
    expect(got).toEqual([tc.expectedAllocatable, tc.expectedRequested]);
  });
});
