// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go — the
// TestPlugin cases for extended resources backed by DeviceClasses (DRAExtendedResource), case
// names, inputs and expectations verbatim, in upstream's order, with the objects they use
// (podWithExtendedResourceName, extendedResourceClaim, ...). Run through the same runner as the
// other TestPlugin cases (plugin-test-runner.ts). The scheduler_resourceclaim_creates_total
// metric the upstream cases also check is not ported (kubesched has no such metric).
import type { AllocationResult, DeviceClass, Node, Pod, ResourceClaim } from "@kubesched/api";
import { createPluginHarness, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it, vi } from "vitest";
import { type DynamicResources, stateKeyName } from "./dynamic-resources";
import { specialClaimInMemName } from "./extended-resources";
import { dynamicResourcesPlugin } from "./index";
import { runTestPluginCase, type TestPluginCase } from "./plugin-test-runner";
import {
  allocated,
  className,
  deviceClass,
  driver,
  largeWorkerNodeSlice,
  namespace,
  node2Name,
  nodeName,
  podName,
  podUID,
  reserve,
  workerNode,
  workerNode2,
  workerNode2Slice,
  workerNodeSlice,
} from "./test-fixtures";

const extendedResourceName = "example.com/gpu";
const extendedResourceName2 = "example.com/gpu2";
const implicitExtendedResourceName = "deviceclass.resource.kubernetes.io/my-resource-class";

const deviceClassWithExtendResourceName: DeviceClass = {
  metadata: { name: className },
  spec: { extendedResourceName },
};
const deviceClassWithExtendResourceName2: DeviceClass = {
  metadata: { name: `${className}2` },
  spec: { extendedResourceName: extendedResourceName2 },
};

function pod(...containers: Record<string, string>[]): Pod {
  let b = makePod().name(podName).namespace(namespace).uid(podUID);
  for (const c of containers) b = b.req(c);
  return b.obj();
}
const podWithExtendedResourceName = pod({ [extendedResourceName]: "1" });
const podWithExtendedResourceName2 = pod({ [extendedResourceName]: "1", [extendedResourceName2]: "1" });
const podWithImplicitExtendedResourceName = pod({
  [implicitExtendedResourceName]: "1",
  [extendedResourceName]: "2",
});
const podWithImplicitExtendedResourceNameTwoContainers = pod(
  { [implicitExtendedResourceName]: "1" },
  { [extendedResourceName]: "2" },
);

function worker(capacity?: Record<string, string>): Node {
  const b = makeNode().name(nodeName).label("kubernetes.io/hostname", nodeName);
  return (capacity ? b.capacity(capacity) : b).obj();
}
const workerNodeWithExtendedResource = worker({ [extendedResourceName]: "1" });
const workerNodeWithExtendedResourceZeroAllocatable = worker({ [extendedResourceName]: "0" });

function nodeSelector(node: string) {
  return {
    nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In" as const, values: [node] }] }],
  };
}
function allocationOf(requests: [request: string, device: string][], node = nodeName): AllocationResult {
  return {
    devices: { results: requests.map(([request, device]) => ({ driver, pool: nodeName, device, request })) },
    nodeSelector: nodeSelector(node),
  };
}
const extendedResourceAllocationResult = allocationOf([["container-0-request-0", "instance-1"]]);
const extendedResourceAllocationResult2 = allocationOf([["container-0-request-1", "instance-1"]]);
const implicitExtendedResourceAllocationResult = allocationOf([
  ["container-0-request-0", "instance-1"],
  ["container-0-request-1", "instance-2"],
  ["container-0-request-1", "instance-3"],
]);
const implicitExtendedResourceAllocationResultTwoContainers = allocationOf([
  ["container-0-request-0", "instance-1"],
  ["container-1-request-0", "instance-2"],
  ["container-1-request-0", "instance-3"],
]);
const extendedResourceAllocationResultNode2 = allocationOf(
  [["container-0-request-0", "instance-1"]],
  node2Name,
);

/**
 * st.MakeResourceClaim().Name(name).GenerateName("my-pod-extended-resources-")
 * .Annotations(extended-resource-claim: true).OwnerRef(pod).RequestWithName...(...).Allocation(a).
 */
function extendedClaim(
  name: string,
  requests: [request: string, cls: string, count?: number][],
  allocation: AllocationResult,
): ResourceClaim {
  return allocated(
    {
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: {
        name,
        generateName: "my-pod-extended-resources-",
        namespace,
        annotations: { "resource.kubernetes.io/extended-resource-claim": "true" },
        ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: podName, uid: podUID, controller: true }],
      },
      spec: {
        devices: {
          requests: requests.map(([request, cls, count]) => ({
            name: request,
            exactly: { deviceClassName: cls, allocationMode: "ExactCount", count: count ?? 1 },
          })),
        },
      },
    },
    allocation,
  );
}
const realName = "my-pod-extended-resources-0";
const extendedResourceClaim = extendedClaim(
  realName,
  [["container-0-request-0", className]],
  extendedResourceAllocationResult,
);
const extendedResourceClaim2 = extendedClaim(
  realName,
  [["container-0-request-1", `${className}2`]],
  extendedResourceAllocationResult2,
);
const extendedResourceClaimNoName = extendedClaim(
  specialClaimInMemName,
  [["container-0-request-0", className]],
  extendedResourceAllocationResult,
);
const extendedResourceClaimNoName2 = extendedClaim(
  specialClaimInMemName,
  [["container-0-request-1", `${className}2`]],
  extendedResourceAllocationResult2,
);
const implicitRequests: [string, string, number?][] = [
  ["container-0-request-0", className],
  ["container-0-request-1", className, 2],
];
const implicitExtendedResourceClaim = extendedClaim(
  realName,
  implicitRequests,
  implicitExtendedResourceAllocationResult,
);
const implicitExtendedResourceClaimNoName = extendedClaim(
  specialClaimInMemName,
  implicitRequests,
  implicitExtendedResourceAllocationResult,
);
const twoContainerRequests: [string, string, number?][] = [
  ["container-0-request-0", className],
  ["container-1-request-0", className, 2],
];
const implicitExtendedResourceClaimTwoContainers = extendedClaim(
  realName,
  twoContainerRequests,
  implicitExtendedResourceAllocationResultTwoContainers,
);
const implicitExtendedResourceClaimNoNameTwoContainers = extendedClaim(
  specialClaimInMemName,
  twoContainerRequests,
  implicitExtendedResourceAllocationResultTwoContainers,
);
const extendedResourceClaimNode2 = extendedClaim(
  realName,
  [["container-0-request-0", className]],
  extendedResourceAllocationResultNode2,
);

/** The upstream cases enable only the gates they name. */
const gates = { enableDRAExtendedResource: true, enableDRADeviceBindingConditions: false };
const withBindingConditions = {
  enableDRAExtendedResource: true,
  enableDRADeviceBindingConditions: true,
  enableDRAResourceClaimDeviceStatus: true,
};

/**
 * The want of a case whose claim is allocated in memory (Reserve: in flight), then created,
 * allocated and reserved for the pod in PreBind (assumed, and stored).
 */
function createsClaim(inMemory: ResourceClaim, created: ResourceClaim, p: Pod): TestPluginCase["want"] {
  return {
    reserve: { inFlightClaims: [inMemory] },
    prebind: { assumedClaim: reserve(created, p), added: [reserve(created, p)] },
  };
}

/** The want of a case whose claim was left by an earlier cycle: Filter rejects it, PostFilter deletes it. */
function deletesLeftClaim(left: ResourceClaim): TestPluginCase["want"] {
  return {
    filter: {
      [nodeName]: {
        status: { code: "UnschedulableAndUnresolvable", message: "cannot schedule extended resource claim" },
      },
    },
    postfilter: {
      status: { code: "Unschedulable", message: "deletion of ResourceClaim completed" },
      removed: [left],
    },
  };
}

/** PostFilter did nothing: no reason from 1.37 (kubernetes/kubernetes#140222; the stored table says `still not schedulable`). */
const stillNotSchedulable = { code: "Unschedulable", message: "" };

const cases: Record<string, TestPluginCase> = {
  "empty-with-extended-resources-enabled": {
    features: gates,
    pod: makePod().name("foo").namespace("default").obj(),
    want: {
      prefilter: { status: { code: "Skip", message: "" } },
      postfilter: { status: { code: "Unschedulable", message: "" } },
      prebindPreFlight: { code: "Skip", message: "" },
    },
  },
  "extended-resource-name-with-node-resource": {
    features: withBindingConditions,
    nodes: [workerNodeWithExtendedResource],
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    want: {},
  },
  "extended-resource-one-device-plugin-one-dra": {
    features: withBindingConditions,
    nodes: [workerNodeWithExtendedResource],
    pod: podWithExtendedResourceName2,
    classes: [deviceClassWithExtendResourceName, deviceClassWithExtendResourceName2],
    slices: [workerNodeSlice],
    want: createsClaim(extendedResourceClaimNoName2, extendedResourceClaim2, podWithExtendedResourceName2),
  },
  "extended-resource-name-with-zero-allocatable": {
    features: gates,
    nodes: [workerNodeWithExtendedResourceZeroAllocatable],
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: createsClaim(extendedResourceClaimNoName, extendedResourceClaim, podWithExtendedResourceName),
  },
  "non-DRA-extended-resource-name-with-zero-allocatable": {
    features: gates,
    nodes: [workerNodeWithExtendedResourceZeroAllocatable],
    pod: podWithExtendedResourceName,
    classes: [deviceClass],
    slices: [workerNodeSlice],
    want: {
      prefilter: { status: { code: "Skip", message: "" } },
      prebindPreFlight: { code: "Skip", message: "" },
    },
  },
  "extended-resource-name-no-resource": {
    features: gates,
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    want: {
      filter: {
        [nodeName]: {
          status: { code: "UnschedulableAndUnresolvable", message: "cannot allocate all claims" },
        },
      },
      postfilter: { status: stillNotSchedulable },
    },
  },
  "extended-resource-name-with-resources": {
    features: gates,
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: createsClaim(extendedResourceClaimNoName, extendedResourceClaim, podWithExtendedResourceName),
  },
  "implicit-extended-resource-name-with-resources": {
    features: gates,
    pod: podWithImplicitExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [largeWorkerNodeSlice],
    want: createsClaim(
      implicitExtendedResourceClaimNoName,
      implicitExtendedResourceClaim,
      podWithImplicitExtendedResourceName,
    ),
  },
  "implicit-extended-resource-name-two-containers-with-resources": {
    features: gates,
    pod: podWithImplicitExtendedResourceNameTwoContainers,
    classes: [deviceClassWithExtendResourceName],
    slices: [largeWorkerNodeSlice],
    want: createsClaim(
      implicitExtendedResourceClaimNoNameTwoContainers,
      implicitExtendedResourceClaimTwoContainers,
      podWithImplicitExtendedResourceNameTwoContainers,
    ),
  },
  "extended-resource-name-with-resources-fail-patch": {
    features: gates,
    failPatch: true,
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: (() => {
      const want = createsClaim(
        extendedResourceClaimNoName,
        extendedResourceClaim,
        podWithExtendedResourceName,
      );
      // upstream compares only the error string (fwk.Status.AsError).
      return { ...want, prebind: { ...want.prebind, status: { message: "patch error" } } };
    })(),
  },
  "extended-resource-name-with-resources-has-claim": {
    features: gates,
    pod: podWithExtendedResourceName,
    claims: [extendedResourceClaim],
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: deletesLeftClaim(extendedResourceClaim),
  },
  "extended-resource-name-with-resources-delete-claim": {
    features: gates,
    pod: podWithExtendedResourceName,
    claims: [extendedResourceClaimNode2],
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: deletesLeftClaim(extendedResourceClaimNode2),
  },
  "extended-resource-name-bind-failure": {
    features: gates,
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: {
      ...createsClaim(extendedResourceClaimNoName, extendedResourceClaim, podWithExtendedResourceName),
      unreserveAfterBindFailure: {
        removed: [reserve(extendedResourceClaim, podWithExtendedResourceName)],
      },
    },
  },
  "extended-resource-name-skip-bind": {
    features: gates,
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: {
      reserve: { inFlightClaims: [extendedResourceClaimNoName] },
      unreserveBeforePreBind: {},
    },
  },
  "extended-resource-name-claim-creation-failure": {
    features: gates,
    failCreate: "claim creation errors",
    pod: podWithExtendedResourceName,
    classes: [deviceClassWithExtendResourceName],
    slices: [workerNodeSlice],
    want: {
      reserve: { inFlightClaims: [extendedResourceClaimNoName] },
      prebind: { status: { message: "claim creation errors" } },
      unreserveAfterBindFailure: {
        removed: [reserve(extendedResourceClaim, podWithExtendedResourceName)],
      },
    },
  },
};

describe("TestPlugin (extended resources backed by DeviceClasses)", () => {
  for (const [name, tc] of Object.entries(cases)) {
    it(name, async () => {
      await runTestPluginCase(tc);
    });
  }
});

// kubesched's own: the work per pod and node the extended-resource path saves (same decisions as
// the upstream cases above, which keep passing).
describe("DRAExtendedResource: the work per pod and node", () => {
  it("PreFilter finds the special claim without listing the namespace's claims; nodes needing the same resources share one variant", async () => {
    const h = await createPluginHarness({
      plugin: dynamicResourcesPlugin,
      nodes: [workerNode, workerNode2],
      objects: {
        deviceClasses: [deviceClassWithExtendResourceName],
        resourceSlices: [workerNodeSlice, workerNode2Slice],
      },
      features: {
        enableDRAPrioritizedList: false,
        enableDRAAdminAccess: false,
        enableDRADeviceTaints: false,
      },
    });
    const pl = h.plugin as DynamicResources;
    const claims = h.listers.resourceClaims;
    const list = vi.spyOn(claims, "list");
    const state = h.newCycleState();
    expect(pl.preFilter(state, podWithExtendedResourceName, [])).toBeNull();
    // Upstream scans the pod's namespace's claims (list(namespace)); the index reads the listing as a whole.
    expect(list.mock.calls.filter((args) => args[0] !== undefined)).toEqual([]);
    for (const node of [workerNode, workerNode2]) {
      expect(pl.filter(state, podWithExtendedResourceName, h.nodeInfo(node.metadata?.name ?? ""))).toBeNull();
    }
    const s = state.read(stateKeyName);
    const a = s?.extendedClaimOn(nodeName);
    const b = s?.extendedClaimOn(node2Name);
    expect(a?.claim.spec?.devices?.requests?.map((r) => r.name)).toEqual(["container-0-request-0"]);
    expect(b).toBe(a);
    list.mockRestore();
  });
});
