// upstream: pkg/scheduler/framework/plugins/noderesources/fit_test.go
import type { DeviceClass, Node, Pod, ResourceList, ResourceSlice } from "@kubesched/api";
import { ActionType, type CodeName, EventResource, type NodeScore, QueueingHint } from "@kubesched/framework";
import { DeviceClassResolver } from "@kubesched/plugin-helpers";
import { ArrayClusterLister, makeNode, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { NodeResourcesFitArgs, ScoringStrategy } from "./args";
import {
  computePodResourceRequest,
  fitsRequest,
  haveAnyRequestedResourcesIncreased,
  type InsufficientResource,
  isFit,
} from "./fits";
import {
  defaultResources,
  extendedResourceA,
  extendedResourceB,
  hugePageResourceA,
  kubernetesIOResourceA,
  kubernetesIOResourceB,
  makeAllocatableResources,
  newFit,
  newPodLevelResourcesPod,
  newResourceInitPod,
  newResourceOverheadPod,
  newResourcePod,
  runFilter,
  runFilterOnly,
  runScore,
} from "./test-util";

const extendedResourceDRA = "extended.resource.dra.io/something";
/** upstream fit_test.go deviceClassWithExtendResourceName: backs extendedResourceDRA. */
const deviceClassWithExtendResourceName: DeviceClass = {
  metadata: { name: "device-class-name" },
  spec: { extendedResourceName: extendedResourceDRA },
};
/** upstream st.MakeResourceSlice(nodeName, driver).Devices(...): one pool named for the node. */
function makeResourceSlice(nodeName: string, driver: string, ...devices: string[]): ResourceSlice {
  return {
    metadata: { name: `${nodeName}-${driver}` },
    spec: {
      nodeName,
      driver,
      pool: { name: nodeName, resourceSliceCount: 1, generation: 0 },
      devices: devices.map((name) => ({ name })),
    },
  };
}
const getErrReason = (rn: string) => `Insufficient ${rn}`;

function st(code: CodeName, ...reasons: string[]) {
  return { code, reasons };
}
const success = st("Success");

function ir(
  resourceName: string,
  requested: number,
  used: number,
  capacity: number,
  unresolvable = false,
): InsufficientResource {
  return { resourceName, reason: getErrReason(resourceName), requested, used, capacity, unresolvable };
}

const defaultScoringStrategy: ScoringStrategy = { type: "LeastAllocated", resources: defaultResources };

function fitArgs(a: Partial<NodeResourcesFitArgs> = {}): NodeResourcesFitArgs {
  return {
    ignoredResources: a.ignoredResources ?? [],
    ignoredResourceGroups: a.ignoredResourceGroups ?? [],
    scoringStrategy: a.scoringStrategy ?? defaultScoringStrategy,
  };
}

function nodeWith(allocatable: ResourceList): Node {
  return { metadata: { name: "node" }, status: { capacity: { ...allocatable }, allocatable } };
}

describe("TestEnoughRequests", () => {
  const cases: {
    name: string;
    pod: Pod;
    existing: Pod[];
    args?: Partial<NodeResourcesFitArgs>;
    podLevelResourcesEnabled?: boolean;
    /** upstream draExtendedResourceEnabled (false unless set). */
    draExtendedResourceEnabled?: boolean;
    wantInsufficientResources: InsufficientResource[];
    wantStatus?: ReturnType<typeof st>;
  }[] = [
    {
      name: "no resources requested always fits",
      pod: { metadata: { name: "p" }, spec: { containers: [] } },
      existing: [newResourcePod({ milliCPU: 10, memory: 20 })],
      wantInsufficientResources: [],
    },
    {
      name: "too many resources fails",
      pod: newResourcePod({ milliCPU: 1, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 10, memory: 20 })],
      wantStatus: st("Unschedulable", getErrReason("cpu"), getErrReason("memory")),
      wantInsufficientResources: [ir("cpu", 1, 10, 10), ir("memory", 1, 20, 20)],
    },
    {
      name: "too many resources fails due to init container cpu",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 3, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 8, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("cpu")),
      wantInsufficientResources: [ir("cpu", 3, 8, 10)],
    },
    {
      name: "too many resources fails due to highest init container cpu",
      pod: newResourceInitPod(
        newResourcePod({ milliCPU: 1, memory: 1 }),
        { milliCPU: 3, memory: 1 },
        { milliCPU: 2, memory: 1 },
      ),
      existing: [newResourcePod({ milliCPU: 8, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("cpu")),
      wantInsufficientResources: [ir("cpu", 3, 8, 10)],
    },
    {
      name: "too many resources fails due to init container memory",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 3 }),
      existing: [newResourcePod({ milliCPU: 9, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("memory")),
      wantInsufficientResources: [ir("memory", 3, 19, 20)],
    },
    {
      name: "too many resources fails due to highest init container memory",
      pod: newResourceInitPod(
        newResourcePod({ milliCPU: 1, memory: 1 }),
        { milliCPU: 1, memory: 3 },
        { milliCPU: 1, memory: 2 },
      ),
      existing: [newResourcePod({ milliCPU: 9, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("memory")),
      wantInsufficientResources: [ir("memory", 3, 19, 20)],
    },
    {
      name: "init container fits because it's the max, not sum, of containers and init containers",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 9, memory: 19 })],
      wantInsufficientResources: [],
    },
    {
      name: "multiple init containers fit because it's the max, not sum, of containers and init containers",
      pod: newResourceInitPod(
        newResourcePod({ milliCPU: 1, memory: 1 }),
        { milliCPU: 1, memory: 1 },
        { milliCPU: 1, memory: 1 },
      ),
      existing: [newResourcePod({ milliCPU: 9, memory: 19 })],
      wantInsufficientResources: [],
    },
    {
      name: "both resources fit",
      pod: newResourcePod({ milliCPU: 1, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 5 })],
      wantInsufficientResources: [],
    },
    {
      name: "one resource memory fits",
      pod: newResourcePod({ milliCPU: 2, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 9, memory: 5 })],
      wantStatus: st("Unschedulable", getErrReason("cpu")),
      wantInsufficientResources: [ir("cpu", 2, 9, 10)],
    },
    {
      name: "one resource cpu fits",
      pod: newResourcePod({ milliCPU: 1, memory: 2 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("memory")),
      wantInsufficientResources: [ir("memory", 2, 19, 20)],
    },
    {
      name: "equal edge case",
      pod: newResourcePod({ milliCPU: 5, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
      wantInsufficientResources: [],
    },
    {
      name: "equal edge case for init container",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 4, memory: 1 }), { milliCPU: 5, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource fits",
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({})],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource fits for init container",
      pod: newResourceInitPod(newResourcePod({}), { scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({})],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource capacity enforced",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 10 } }),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 0 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceA)),
      wantInsufficientResources: [ir(extendedResourceA, 10, 0, 5, true)],
    },
    {
      name: "extended resource capacity enforced for init container",
      pod: newResourceInitPod(newResourcePod({}), {
        milliCPU: 1,
        memory: 1,
        scalar: { [extendedResourceA]: 10 },
      }),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 0 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceA)),
      wantInsufficientResources: [ir(extendedResourceA, 10, 0, 5, true)],
    },
    {
      name: "extended resource allocatable enforced",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 5 } })],
      wantStatus: st("Unschedulable", getErrReason(extendedResourceA)),
      wantInsufficientResources: [ir(extendedResourceA, 1, 5, 5)],
    },
    {
      name: "extended resource allocatable enforced for init container",
      pod: newResourceInitPod(newResourcePod({}), {
        milliCPU: 1,
        memory: 1,
        scalar: { [extendedResourceA]: 1 },
      }),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 5 } })],
      wantStatus: st("Unschedulable", getErrReason(extendedResourceA)),
      wantInsufficientResources: [ir(extendedResourceA, 1, 5, 5)],
    },
    {
      name: "extended resource allocatable enforced for multiple containers",
      pod: newResourcePod(
        { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } },
        { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } },
      ),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 2 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceA)),
      wantInsufficientResources: [ir(extendedResourceA, 6, 2, 5, true)],
    },
    {
      name: "extended resource allocatable admits multiple init containers",
      pod: newResourceInitPod(
        newResourcePod({}),
        { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } },
        { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } },
      ),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 2 } })],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource allocatable enforced for multiple init containers",
      pod: newResourceInitPod(
        newResourcePod({}),
        { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 6 } },
        { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } },
      ),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 2 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceA)),
      wantInsufficientResources: [ir(extendedResourceA, 6, 2, 5, true)],
    },
    {
      name: "extended resource allocatable enforced for unknown resource",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1 } }),
      existing: [newResourcePod({})],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceB)),
      wantInsufficientResources: [ir(extendedResourceB, 1, 0, 0, true)],
    },
    {
      name: "extended resource allocatable enforced for unknown resource for init container",
      pod: newResourceInitPod(newResourcePod({}), {
        milliCPU: 1,
        memory: 1,
        scalar: { [extendedResourceB]: 1 },
      }),
      existing: [newResourcePod({})],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceB)),
      wantInsufficientResources: [ir(extendedResourceB, 1, 0, 0, true)],
    },
    {
      name: "kubernetes.io resource capacity enforced",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [kubernetesIOResourceA]: 10 } }),
      existing: [newResourcePod({})],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(kubernetesIOResourceA)),
      wantInsufficientResources: [ir(kubernetesIOResourceA, 10, 0, 0, true)],
    },
    {
      name: "kubernetes.io resource capacity enforced for init container",
      pod: newResourceInitPod(newResourcePod({}), {
        milliCPU: 1,
        memory: 1,
        scalar: { [kubernetesIOResourceB]: 10 },
      }),
      existing: [newResourcePod({})],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(kubernetesIOResourceB)),
      wantInsufficientResources: [ir(kubernetesIOResourceB, 10, 0, 0, true)],
    },
    {
      name: "hugepages resource capacity enforced",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 10 } }),
      existing: [newResourcePod({ scalar: { [hugePageResourceA]: 0 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(hugePageResourceA)),
      wantInsufficientResources: [ir(hugePageResourceA, 10, 0, 5, true)],
    },
    {
      name: "hugepages resource capacity enforced for init container",
      pod: newResourceInitPod(newResourcePod({}), {
        milliCPU: 1,
        memory: 1,
        scalar: { [hugePageResourceA]: 10 },
      }),
      existing: [newResourcePod({ scalar: { [hugePageResourceA]: 0 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(hugePageResourceA)),
      wantInsufficientResources: [ir(hugePageResourceA, 10, 0, 5, true)],
    },
    {
      name: "hugepages resource allocatable enforced for multiple containers",
      pod: newResourcePod(
        { milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 3 } },
        { milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 3 } },
      ),
      existing: [newResourcePod({ scalar: { [hugePageResourceA]: 2 } })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(hugePageResourceA)),
      wantInsufficientResources: [ir(hugePageResourceA, 6, 2, 5, true)],
    },
    {
      name: "skip checking ignored extended resource",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1 } }),
      existing: [newResourcePod({})],
      args: { ignoredResources: ["example.com/bbb"] },
      wantInsufficientResources: [],
    },
    {
      name: "resources + pod overhead fits",
      pod: newResourceOverheadPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: "3m", memory: "13" }),
      existing: [newResourcePod({ milliCPU: 5, memory: 5 })],
      wantInsufficientResources: [],
    },
    {
      name: "requests + overhead does not fit for memory",
      pod: newResourceOverheadPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: "1m", memory: "15" }),
      existing: [newResourcePod({ milliCPU: 5, memory: 5 })],
      wantStatus: st("Unschedulable", getErrReason("memory")),
      wantInsufficientResources: [ir("memory", 16, 5, 20)],
    },
    {
      name: "skip checking ignored extended resource via resource groups",
      pod: newResourcePod({
        milliCPU: 1,
        memory: 1,
        scalar: { [extendedResourceB]: 1, [kubernetesIOResourceA]: 1 },
      }),
      existing: [newResourcePod({})],
      args: { ignoredResourceGroups: ["example.com"] },
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(kubernetesIOResourceA)),
      wantInsufficientResources: [ir(kubernetesIOResourceA, 1, 0, 0, true)],
    },
    {
      name: "skip checking extended resource request with quantity zero via resource groups",
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 0 } }),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 6 } })],
      wantInsufficientResources: [],
    },
    {
      name: "skip checking resource request with quantity zero",
      podLevelResourcesEnabled: true,
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({ milliCPU: 20, memory: 30, scalar: { [extendedResourceA]: 1 } })],
      wantInsufficientResources: [],
    },
    {
      name: "both pod-level and container-level resources fit",
      podLevelResourcesEnabled: true,
      pod: newPodLevelResourcesPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: "1m", memory: "2" }),
      existing: [newResourcePod({ milliCPU: 5, memory: 5 })],
      wantInsufficientResources: [],
    },
    {
      name: "pod-level cpu resource not fit",
      podLevelResourcesEnabled: true,
      pod: newPodLevelResourcesPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: "7m", memory: "2" }),
      existing: [newResourcePod({ milliCPU: 5, memory: 5 })],
      wantStatus: st("Unschedulable", getErrReason("cpu")),
      wantInsufficientResources: [ir("cpu", 7, 5, 10)],
    },
    {
      name: "pod-level memory resource not fit",
      podLevelResourcesEnabled: true,
      pod: newPodLevelResourcesPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: "3m", memory: "2" }),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("memory")),
      wantInsufficientResources: [ir("memory", 2, 19, 20)],
    },
    {
      name: "pod-level hugepages resource fit",
      podLevelResourcesEnabled: true,
      pod: newPodLevelResourcesPod(newResourcePod(), { cpu: "3m", memory: "2", [hugePageResourceA]: "5" }),
      existing: [],
      wantInsufficientResources: [],
    },
    {
      name: "both pod-level and container-level hugepages resource fit",
      podLevelResourcesEnabled: true,
      pod: newPodLevelResourcesPod(
        newResourcePod({ milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 3 } }),
        {
          cpu: "3m",
          memory: "2",
          [hugePageResourceA]: "5",
        },
      ),
      existing: [],
      wantInsufficientResources: [],
    },
    {
      name: "pod-level hugepages resource not fit",
      podLevelResourcesEnabled: true,
      pod: newPodLevelResourcesPod(newResourcePod(), { cpu: "3m", memory: "2", [hugePageResourceA]: "10" }),
      existing: [],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(hugePageResourceA)),
      wantInsufficientResources: [ir(hugePageResourceA, 10, 0, 5, true)],
    },
    {
      name: "one pod-level cpu resource fits and all init and non-init containers resources fit",
      podLevelResourcesEnabled: true,
      pod: newResourceInitPod(
        newPodLevelResourcesPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: "3m", memory: "2" }),
        { milliCPU: 1, memory: 1 },
      ),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
      wantStatus: st("Unschedulable", getErrReason("memory")),
      wantInsufficientResources: [ir("memory", 2, 19, 20)],
    },
    {
      name: "extended resource backed by device plugin",
      draExtendedResourceEnabled: true,
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({})],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource backed by DRA",
      // With DRAExtendedResource and a matching DeviceClass, the request is left to DRA.
      draExtendedResourceEnabled: true,
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceDRA]: 1 } }),
      existing: [newResourcePod({})],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource backed by DRA, nil draManager",
      draExtendedResourceEnabled: true,
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({})],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource backed by DRA not enabled",
      draExtendedResourceEnabled: false,
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceDRA]: 1 } }),
      existing: [newResourcePod({})],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceDRA)),
      wantInsufficientResources: [ir(extendedResourceDRA, 1, 0, 0, true)],
    },
    {
      name: "extended resource NOT backed by DRA",
      draExtendedResourceEnabled: true,
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1 } }),
      existing: [newResourcePod({})],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason(extendedResourceB)),
      wantInsufficientResources: [ir(extendedResourceB, 1, 0, 0, true)],
    },
    {
      name: "extended resource was backed by Device Plugin (Allocatable: 0)",
      draExtendedResourceEnabled: true,
      pod: newResourcePod({ scalar: { [extendedResourceDRA]: 1 } }),
      existing: [newResourcePod({ scalar: { [extendedResourceDRA]: 0 } })],
      wantInsufficientResources: [],
    },
    {
      name: "extended resource was backed by Device Plugin (Allocatable: 0), global cache",
      draExtendedResourceEnabled: true,
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      existing: [newResourcePod({ scalar: { [extendedResourceA]: 0 } })],
      wantInsufficientResources: [],
    },
  ];

  const node = nodeWith(makeAllocatableResources(10, 20, 32, 5, 20, 5));
  it.each(cases)("$name", async (tc) => {
    const features = {
      enablePodLevelResources: tc.podLevelResourcesEnabled === true,
      enableDRAExtendedResource: tc.draExtendedResourceEnabled === true,
    };
    const args = fitArgs(tc.args);
    // upstream's fake clientset holds deviceClassWithExtendResourceName in every case.
    const deviceClasses = [deviceClassWithExtendResourceName];
    const { preFilter, filter, nodeInfo } = await runFilter(tc.pod, node, tc.existing, {
      args,
      features,
      deviceClasses,
    });
    expect(statusSummary(preFilter)).toEqual(success);
    expect(statusSummary(filter)).toEqual(tc.wantStatus ?? success);

    // upstream also checks fitsRequest's insufficient resources directly.
    const req = computePodResourceRequest(
      tc.pod,
      {
        enablePodLevelResources: features.enablePodLevelResources,
        deviceClassResolver: features.enableDRAExtendedResource
          ? new DeviceClassResolver(new ArrayClusterLister(deviceClasses))
          : null,
      },
      new Set(args.ignoredResources),
      new Set(args.ignoredResourceGroups),
    );
    expect(fitsRequest(req, nodeInfo) ?? []).toEqual(tc.wantInsufficientResources);
  });
});

describe("TestPreFilterDisabled", () => {
  it("Filter without PreFilter is an error", async () => {
    const got = await runFilterOnly({ metadata: { name: "p" }, spec: { containers: [] } }, nodeWith({}), {
      args: fitArgs(),
    });
    expect(statusSummary(got)).toEqual(
      st(
        "Error",
        `running "NodeResourcesFit" filter plugin: error reading "PreFilterNodeResourcesFit" from cycleState: not found`,
      ),
    );
  });
});

describe("TestNotEnoughRequests", () => {
  const cases: { name: string; pod: Pod; existing: Pod[] }[] = [
    {
      name: "even without specified resources, predicate fails when there's no space for additional pod",
      pod: { metadata: { name: "p" }, spec: { containers: [] } },
      existing: [newResourcePod({ milliCPU: 10, memory: 20 })],
    },
    {
      name: "even if both resources fit, predicate fails when there's no space for additional pod",
      pod: newResourcePod({ milliCPU: 1, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 5 })],
    },
    {
      name: "even for equal edge case, predicate fails when there's no space for additional pod",
      pod: newResourcePod({ milliCPU: 5, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
    },
    {
      name: "even for equal edge case, predicate fails when there's no space for additional pod due to init container",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 5, memory: 1 }), { milliCPU: 5, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 5, memory: 19 })],
    },
  ];
  const node = nodeWith(makeAllocatableResources(10, 20, 1, 0, 0, 0));
  it.each(cases)("$name", async (tc) => {
    const { filter } = await runFilter(tc.pod, node, tc.existing, { args: fitArgs() });
    expect(statusSummary(filter)).toEqual(st("Unschedulable", "Too many pods"));
  });
});

describe("TestStorageRequests", () => {
  const cases: { name: string; pod: Pod; existing: Pod[]; wantStatus?: ReturnType<typeof st> }[] = [
    {
      name: "empty storage requested, and pod fits",
      pod: newResourcePod({ milliCPU: 1, memory: 1 }),
      existing: [newResourcePod({ milliCPU: 2, memory: 10 })],
    },
    {
      name: "storage ephemeral local storage request exceeds allocatable",
      pod: newResourcePod({ ephemeralStorage: 25 }),
      existing: [newResourcePod({ milliCPU: 2, memory: 2 })],
      wantStatus: st("UnschedulableAndUnresolvable", getErrReason("ephemeral-storage")),
    },
    {
      name: "ephemeral local storage is sufficient",
      pod: newResourceInitPod(newResourcePod({ ephemeralStorage: 5 })),
      existing: [newResourcePod({ milliCPU: 2, memory: 2, ephemeralStorage: 10 })],
    },
    {
      name: "pod fits",
      pod: newResourcePod({ ephemeralStorage: 10 }),
      existing: [newResourcePod({ milliCPU: 2, memory: 2 })],
    },
  ];
  const node = nodeWith(makeAllocatableResources(10, 20, 32, 5, 20, 5));
  it.each(cases)("$name", async (tc) => {
    const { filter } = await runFilter(tc.pod, node, tc.existing, { args: fitArgs() });
    expect(statusSummary(filter)).toEqual(tc.wantStatus ?? success);
  });
});

describe("TestRestartableInitContainers", () => {
  const newPod = (): Pod => ({ metadata: { name: "p" }, spec: { containers: [{ name: "regular" }] } });
  const newPodWithRestartableInitContainers = (
    request?: ResourceList,
    sidecarRequest?: ResourceList,
  ): Pod => ({
    metadata: { name: "p" },
    spec: {
      containers: [{ name: "regular", ...(request ? { resources: { requests: request } } : {}) }],
      initContainers: [
        {
          name: "restartable-init",
          restartPolicy: "Always",
          ...(sidecarRequest ? { resources: { requests: sidecarRequest } } : {}),
        },
      ],
    },
  });
  const cases: {
    name: string;
    pod: Pod;
    enableSidecarContainers?: boolean;
    wantPreFilterStatus?: ReturnType<typeof st>;
    wantFilterStatus?: ReturnType<typeof st>;
  }[] = [
    {
      name: "allow pod without restartable init containers if sidecar containers is disabled",
      pod: newPod(),
    },
    {
      name: "not allow pod with restartable init containers if sidecar containers is disabled",
      pod: newPodWithRestartableInitContainers(),
      wantPreFilterStatus: st(
        "UnschedulableAndUnresolvable",
        "Pod has a restartable init container and the SidecarContainers feature is disabled",
      ),
    },
    {
      name: "allow pod without restartable init containers if sidecar containers is enabled",
      enableSidecarContainers: true,
      pod: newPod(),
    },
    {
      name: "allow pod with restartable init containers if sidecar containers is enabled",
      enableSidecarContainers: true,
      pod: newPodWithRestartableInitContainers(),
    },
    {
      name: "allow pod if the total requested resources do not exceed the node's allocatable resources",
      enableSidecarContainers: true,
      pod: newPodWithRestartableInitContainers({ cpu: "1m" }, { cpu: "1m" }),
    },
    {
      name: "not allow pod if the total requested resources do exceed the node's allocatable resources",
      enableSidecarContainers: true,
      pod: newPodWithRestartableInitContainers({ cpu: "1m" }, { cpu: "2m" }),
      wantFilterStatus: st("UnschedulableAndUnresolvable", getErrReason("cpu")),
    },
  ];
  const node = nodeWith(makeAllocatableResources(2, 0, 1, 0, 0, 0));
  it.each(cases)("$name", async (tc) => {
    const { preFilter, filter } = await runFilter(tc.pod, node, [], {
      args: fitArgs(),
      features: { enableSidecarContainers: tc.enableSidecarContainers === true },
    });
    expect(statusSummary(preFilter)).toEqual(tc.wantPreFilterStatus ?? success);
    if (tc.wantPreFilterStatus) return;
    expect(statusSummary(filter)).toEqual(tc.wantFilterStatus ?? success);
  });
});

describe("TestFitScore", () => {
  const nodes = (cpu2: string) => [
    makeNode().name("node1").capacity({ cpu: "4000", memory: "10000" }).obj(),
    makeNode().name("node2").capacity({ cpu: cpu2, memory: "10000" }).obj(),
  ];
  const existing = [
    makePod().node("node1").req({ cpu: "2000", memory: "4000" }).obj(),
    makePod().node("node2").req({ cpu: "1000", memory: "2000" }).obj(),
  ];
  const rtcr = (shape: { utilization: number; score: number }[]): ScoringStrategy => ({
    type: "RequestedToCapacityRatio",
    resources: defaultResources,
    requestedToCapacityRatio: { shape },
  });
  const cases: {
    name: string;
    requestedPod: Pod;
    nodes: Node[];
    existingPods: Pod[];
    expectedPriorities: NodeScore[];
    strategy: ScoringStrategy;
    runPreScore: boolean;
    draObjects?: { deviceClasses: DeviceClass[]; resourceSlices: ResourceSlice[] };
  }[] = [
    {
      name: "test case for ScoringStrategy RequestedToCapacityRatio case1",
      requestedPod: makePod().req({ cpu: "3000", memory: "5000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 10 },
        { name: "node2", score: 32 },
      ],
      strategy: rtcr([
        { utilization: 0, score: 10 },
        { utilization: 100, score: 0 },
      ]),
      runPreScore: true,
    },
    {
      name: "test case for ScoringStrategy RequestedToCapacityRatio case2",
      requestedPod: makePod().req({ cpu: "3000", memory: "5000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 95 },
        { name: "node2", score: 68 },
      ],
      strategy: rtcr([
        { utilization: 0, score: 0 },
        { utilization: 100, score: 10 },
      ]),
      runPreScore: true,
    },
    {
      name: "test case for ScoringStrategy MostAllocated",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 67 },
        { name: "node2", score: 36 },
      ],
      strategy: { type: "MostAllocated", resources: defaultResources },
      runPreScore: true,
    },
    {
      name: "test case for ScoringStrategy LeastAllocated",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 32 },
        { name: "node2", score: 63 },
      ],
      strategy: { type: "LeastAllocated", resources: defaultResources },
      runPreScore: true,
    },
    {
      name: "test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called",
      requestedPod: makePod().req({ cpu: "3000", memory: "5000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 10 },
        { name: "node2", score: 32 },
      ],
      strategy: rtcr([
        { utilization: 0, score: 10 },
        { utilization: 100, score: 0 },
      ]),
      runPreScore: false,
    },
    {
      name: "test case for ScoringStrategy MostAllocated if PreScore is not called",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 67 },
        { name: "node2", score: 36 },
      ],
      strategy: { type: "MostAllocated", resources: defaultResources },
      runPreScore: false,
    },
    {
      name: "test case for ScoringStrategy LeastAllocated if PreScore is not called",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).obj(),
      nodes: nodes("6000"),
      existingPods: existing,
      expectedPriorities: [
        { name: "node1", score: 32 },
        { name: "node2", score: 63 },
      ],
      strategy: { type: "LeastAllocated", resources: defaultResources },
      runPreScore: false,
    },
    {
      name: "test case for ScoringStrategy MostAllocated with sidecar container",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).obj(),
      nodes: nodes("4000"),
      existingPods: [
        makePod()
          .node("node1")
          .req({ cpu: "1000", memory: "2000" })
          .sidecarReq({ cpu: "1000", memory: "2000" })
          .obj(),
        makePod().node("node2").req({ cpu: "1000", memory: "2000" }).obj(),
      ],
      expectedPriorities: [
        { name: "node1", score: 67 },
        { name: "node2", score: 45 },
      ],
      strategy: { type: "MostAllocated", resources: defaultResources },
      runPreScore: true,
    },
    {
      name: "test case for ScoringStrategy LeastAllocated with sidecar container",
      requestedPod: makePod().req({ cpu: "1000", memory: "2000" }).obj(),
      nodes: nodes("4000"),
      existingPods: [
        makePod()
          .node("node1")
          .req({ cpu: "1000", memory: "2000" })
          .sidecarReq({ cpu: "1000", memory: "2000" })
          .obj(),
        makePod().node("node2").req({ cpu: "1000", memory: "2000" }).obj(),
      ],
      expectedPriorities: [
        { name: "node1", score: 32 },
        { name: "node2", score: 55 },
      ],
      strategy: { type: "LeastAllocated", resources: defaultResources },
      runPreScore: true,
    },
    ...[true, false].map((runPreScore) => ({
      name: `test case for ScoringStrategy LeastAllocated with Extended resources${runPreScore ? "" : " if PreScore is not called"}`,
      requestedPod: makePod()
        .req({ [extendedResourceDRA]: "1" })
        .obj(),
      nodes: [makeNode().name("node1").obj(), makeNode().name("node2").obj()],
      existingPods: [],
      expectedPriorities: [
        { name: "node1", score: 66 },
        { name: "node2", score: 50 },
      ],
      draObjects: {
        deviceClasses: [deviceClassWithExtendResourceName],
        resourceSlices: [
          makeResourceSlice("node1", "test-driver", "device-1", "device-2", "device-3"),
          makeResourceSlice("node2", "test-driver", "device-1", "device-2"),
        ],
      },
      strategy: { type: "LeastAllocated" as const, resources: [{ name: extendedResourceDRA, weight: 1 }] },
      runPreScore,
    })),
  ];
  it.each(cases)("$name", async (tc) => {
    const got = await runScore(tc.requestedPod, tc.nodes, tc.existingPods, {
      args: fitArgs({ scoringStrategy: tc.strategy }),
      runPreScore: tc.runPreScore,
      // upstream enables DRAExtendedResource exactly where the case has DRA objects.
      features: { enableDRAExtendedResource: tc.draObjects !== undefined },
      ...tc.draObjects,
    });
    expect(statusSummary(got.preScore)).toEqual(success);
    expect(got.statuses.map(statusSummary)).toEqual(tc.nodes.map(() => success));
    expect(got.scores).toEqual(tc.expectedPriorities);
  });
});

describe("TestEventsToRegister", () => {
  const cases: {
    name: string;
    enableInPlacePodVerticalScaling?: boolean;
    enableSchedulingQueueHint?: boolean;
    enableDRAExtendedResource?: boolean;
    expected: { resource: string; actionType: number }[];
  }[] = [
    {
      name: "Register events with InPlacePodVerticalScaling feature enabled",
      enableInPlacePodVerticalScaling: true,
      expected: [
        { resource: "Pod", actionType: ActionType.UpdatePodScaleDown | ActionType.Delete },
        {
          resource: "Node",
          actionType:
            ActionType.Add |
            ActionType.UpdateNodeAllocatable |
            ActionType.UpdateNodeTaint |
            ActionType.UpdateNodeLabel,
        },
      ],
    },
    {
      name: "Register events with SchedulingQueueHint feature enabled",
      enableSchedulingQueueHint: true,
      expected: [
        { resource: "Pod", actionType: ActionType.Delete },
        { resource: "Node", actionType: ActionType.Add | ActionType.UpdateNodeAllocatable },
      ],
    },
    {
      name: "Register events with InPlacePodVerticalScaling feature disabled",
      enableInPlacePodVerticalScaling: false,
      expected: [
        { resource: "Pod", actionType: ActionType.Delete },
        {
          resource: "Node",
          actionType:
            ActionType.Add |
            ActionType.UpdateNodeAllocatable |
            ActionType.UpdateNodeTaint |
            ActionType.UpdateNodeLabel,
        },
      ],
    },
    {
      name: "Register events with DRAExtendedResource feature enabled",
      enableDRAExtendedResource: true,
      expected: [
        { resource: "Pod", actionType: ActionType.Delete },
        {
          resource: "Node",
          actionType:
            ActionType.Add |
            ActionType.UpdateNodeAllocatable |
            ActionType.UpdateNodeTaint |
            ActionType.UpdateNodeLabel,
        },
        { resource: EventResource.DeviceClass, actionType: ActionType.Add | ActionType.Update },
      ],
    },
    {
      name: "Register events with DRAExtendedResource feature disabled",
      enableDRAExtendedResource: false,
      expected: [
        { resource: "Pod", actionType: ActionType.Delete },
        {
          resource: "Node",
          actionType:
            ActionType.Add |
            ActionType.UpdateNodeAllocatable |
            ActionType.UpdateNodeTaint |
            ActionType.UpdateNodeLabel,
        },
      ],
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const p = await newFit({
      args: fitArgs(),
      features: {
        enableInPlacePodVerticalScaling: tc.enableInPlacePodVerticalScaling === true,
        enableSchedulingQueueHint: tc.enableSchedulingQueueHint === true,
        enableDRAExtendedResource: tc.enableDRAExtendedResource === true,
      },
    });
    const events = p.eventsToRegister();
    expect(events.map((e) => e.event)).toEqual(tc.expected);
    for (const e of events) expect(e.queueingHintFn).toBeTypeOf("function");
  });
});

type HintCase = {
  pod: Pod;
  oldObj?: unknown;
  newObj?: unknown;
  expectedHint: QueueingHint;
  expectedErr?: boolean;
};

function runHint(fn: ((pod: Pod, o: unknown, n: unknown) => QueueingHint) | undefined, tc: HintCase): void {
  if (tc.expectedErr) {
    expect(() => fn!(tc.pod, tc.oldObj, tc.newObj)).toThrow();
    return;
  }
  expect(fn!(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
}

describe("Test_isSchedulableAfterPodChange", () => {
  const cases: Record<string, HintCase & { enableInPlacePodVerticalScaling: boolean }> = {
    "backoff-wrong-old-object": {
      pod: makePod().obj(),
      oldObj: "not-a-pod",
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "backoff-wrong-new-object": {
      pod: makePod().obj(),
      newObj: "not-a-pod",
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "queue-on-other-pod-deleted": {
      pod: makePod().name("pod1").req({ cpu: "1" }).obj(),
      oldObj: makePod().name("pod2").req({ cpu: "1" }).node("fake").obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
    },
    "skip-queue-on-unscheduled-pod-deleted": {
      pod: makePod().obj(),
      oldObj: makePod().obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-disable-inplace-pod-vertical-scaling": {
      pod: makePod().name("pod1").req({ cpu: "1" }).obj(),
      oldObj: makePod().name("pod2").req({ cpu: "2" }).node("fake").obj(),
      // (Actually, this scale down cannot happen when InPlacePodVerticalScaling is disabled.)
      newObj: makePod().name("pod2").req({ cpu: "1" }).node("fake").obj(),
      enableInPlacePodVerticalScaling: false,
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-other-unscheduled-pod": {
      pod: makePod().name("pod1").req({ cpu: "1" }).uid("uid0").obj(),
      oldObj: makePod().name("pod2").req({ cpu: "2" }).uid("uid1").obj(),
      newObj: makePod().name("pod2").req({ cpu: "1" }).uid("uid1").obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-other-pod-unrelated-resource-scaled-down": {
      pod: makePod().name("pod1").uid("pod1").req({ cpu: "1" }).obj(),
      oldObj: makePod().name("pod2").uid("pod2").req({ memory: "2" }).node("fake").obj(),
      newObj: makePod().name("pod2").uid("pod2").req({ memory: "1" }).node("fake").obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-other-pod-unrelated-pod-level-resource-scaled-down": {
      pod: makePod()
        .name("pod1")
        .uid("pod1")
        .resources({ requests: { cpu: "1" } })
        .obj(),
      oldObj: makePod()
        .name("pod2")
        .uid("pod2")
        .resources({ requests: { memory: "2" } })
        .node("fake")
        .obj(),
      newObj: makePod()
        .name("pod2")
        .uid("pod2")
        .resources({ requests: { memory: "1" } })
        .node("fake")
        .obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-other-pod-some-resource-scale-down": {
      pod: makePod().name("pod1").uid("pod1").req({ cpu: "1" }).obj(),
      oldObj: makePod().name("pod2").uid("pod2").req({ cpu: "2" }).node("fake").obj(),
      newObj: makePod().name("pod2").uid("pod2").req({ cpu: "1" }).node("fake").obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
    },
    "queue-on-other-pod-some-pod-level-resource-scale-down": {
      pod: makePod()
        .name("pod1")
        .uid("pod1")
        .resources({ requests: { cpu: "1" } })
        .obj(),
      oldObj: makePod()
        .name("pod2")
        .uid("pod2")
        .resources({ requests: { cpu: "2" } })
        .node("fake")
        .obj(),
      newObj: makePod()
        .name("pod2")
        .uid("pod2")
        .resources({ requests: { cpu: "1" } })
        .node("fake")
        .obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
    },
    "queue-on-target-pod-some-resource-scale-down": {
      pod: makePod().name("pod1").uid("pod1").req({ cpu: "1" }).obj(),
      oldObj: makePod().name("pod1").uid("pod1").req({ cpu: "2" }).obj(),
      newObj: makePod().name("pod1").uid("pod1").req({ cpu: "1" }).obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
    },
    "queue-on-target-pod-some-pod-level-resource-scale-down": {
      pod: makePod()
        .name("pod1")
        .uid("pod1")
        .resources({ requests: { cpu: "1" } })
        .obj(),
      oldObj: makePod()
        .name("pod1")
        .uid("pod1")
        .resources({ requests: { cpu: "2" } })
        .obj(),
      newObj: makePod()
        .name("pod1")
        .uid("pod1")
        .resources({ requests: { cpu: "1" } })
        .obj(),
      enableInPlacePodVerticalScaling: true,
      expectedHint: QueueingHint.Queue,
    },
  };
  it.each(Object.entries(cases))("%s", async (_name, tc) => {
    const p = await newFit({
      args: fitArgs(),
      features: { enableInPlacePodVerticalScaling: tc.enableInPlacePodVerticalScaling },
    });
    runHint(p.eventsToRegister()[0]!.queueingHintFn, tc);
  });
});

describe("InPlacePodLevelResourcesVerticalScaling comes from the profile's feature gates", () => {
  // A pod-level resize finished: the spec was already 1 CPU, the actuated pod-level requests drop
  // from 2 to 1. Only with the gate does the hint read pod-level status resources.
  const withPodLevelStatus = (cpu: string) => ({
    ...makePod()
      .name("pod2")
      .uid("pod2")
      .resources({ requests: { cpu: "1" } })
      .node("fake")
      .obj(),
    status: { resources: { requests: { cpu } }, allocatedResources: { cpu } },
  });
  const target = makePod()
    .name("pod1")
    .uid("pod1")
    .resources({ requests: { cpu: "1" } })
    .obj();
  it.each([
    { gate: true, want: QueueingHint.Queue },
    { gate: false, want: QueueingHint.QueueSkip },
  ])("gate $gate", async ({ gate, want }) => {
    const p = await newFit({
      args: fitArgs(),
      features: { enableInPlacePodLevelResourcesVerticalScaling: gate },
    });
    const hint = p.eventsToRegister()[0]!.queueingHintFn!;
    expect(hint(target, withPodLevelStatus("2"), withPodLevelStatus("1"))).toBe(want);
  });
});

describe("Test_isSchedulableAfterNodeChange", () => {
  const cap = (rl: ResourceList) => makeNode().capacity(rl).obj();
  const cases: Record<string, HintCase> = {
    "backoff-wrong-new-object": {
      pod: makePod().obj(),
      newObj: "not-a-node",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "backoff-wrong-old-object": {
      pod: makePod().obj(),
      oldObj: "not-a-node",
      newObj: makeNode().obj(),
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "skip-queue-on-node-add-without-sufficient-resources": {
      pod: newResourcePod({ memory: 2 }),
      newObj: cap({ memory: "1" }),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-node-add-without-required-resource-type": {
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      newObj: cap({ [extendedResourceB]: "1" }),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-node-add-with-sufficient-resources": {
      pod: newResourcePod({ memory: 2, scalar: { [extendedResourceA]: 1 } }),
      newObj: cap({ memory: "4", [extendedResourceA]: "2" }),
      expectedHint: QueueingHint.Queue,
    },
    "skip-queue-on-node-unrelated-changes": {
      pod: newResourcePod({ memory: 2, scalar: { [extendedResourceA]: 1 } }),
      oldObj: cap({ memory: "2", [extendedResourceA]: "2" }),
      newObj: cap({ memory: "2", [extendedResourceA]: "1", [extendedResourceB]: "2" }),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-pod-requested-resources-increase": {
      pod: newResourcePod({ memory: 2, scalar: { [extendedResourceA]: 1 } }),
      oldObj: cap({ memory: "2", [extendedResourceA]: "1" }),
      newObj: cap({ memory: "2", [extendedResourceA]: "2" }),
      expectedHint: QueueingHint.Queue,
    },
    "skip-queue-on-node-changes-from-suitable-to-unsuitable": {
      pod: newResourcePod({ memory: 2, scalar: { [extendedResourceA]: 1 } }),
      oldObj: cap({ memory: "4", [extendedResourceA]: "2" }),
      newObj: cap({ memory: "1", [extendedResourceA]: "2" }),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-node-changes-from-unsuitable-to-suitable": {
      pod: newResourcePod({ memory: 2, scalar: { [extendedResourceA]: 1 } }),
      oldObj: cap({ memory: "1", [extendedResourceA]: "2" }),
      newObj: cap({ memory: "4", [extendedResourceA]: "2" }),
      expectedHint: QueueingHint.Queue,
    },
  };
  it.each(Object.entries(cases))("%s", async (_name, tc) => {
    const p = await newFit({ args: fitArgs() });
    runHint(p.eventsToRegister()[1]!.queueingHintFn, tc);
  });
});

describe("Test_isSchedulableAfterDeviceClassChange", () => {
  const ern = "example.com/gpu";
  const dc = (name: string, extendedResourceName?: string) => ({
    metadata: { name },
    spec: extendedResourceName === undefined ? {} : { extendedResourceName },
  });
  const cases: Record<string, HintCase> = {
    "backoff-wrong-new-object": {
      pod: makePod().obj(),
      newObj: "not-a-class",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "backoff-wrong-old-object": {
      pod: makePod().obj(),
      oldObj: "not-a-class",
      newObj: dc(""),
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    "skip-queue-on-class-nil-extended-resource-name-pointer": {
      pod: newResourcePod({ memory: 2 }),
      newObj: dc(""),
      oldObj: dc(""),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-class-same-extended-resource-name-pointer": {
      pod: newResourcePod({ memory: 2 }),
      newObj: dc("", ern),
      oldObj: dc("", ern),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-queue-on-class-same-extended-resource-name": {
      pod: newResourcePod({ memory: 2 }),
      newObj: dc("", "example.com/gpu"),
      oldObj: dc("", "example.com/gpu"),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-class-add-with-implicit-extended-resource-name": {
      pod: newResourcePod({ scalar: { "deviceclass.resource.kubernetes.io/gpuclass": 1 } }),
      newObj: dc("gpuclass", "example.com/gpu"),
      expectedHint: QueueingHint.Queue,
    },
    "skip-on-class-add-with-implicit-extended-resource-name-not-matching": {
      pod: newResourcePod({ scalar: { "deviceclass.resource.kubernetes.io/gpuclass": 1 } }),
      newObj: dc("myclass", "example.com/gpu"),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-on-class-add-with-explicit-extended-resource-name-not-matching": {
      pod: newResourcePod({ scalar: { "example.com/othergpu": 1 } }),
      newObj: dc("myclass", "example.com/gpu"),
      expectedHint: QueueingHint.QueueSkip,
    },
    "skip-on-class-update-with-implicit-extended-resource-name": {
      pod: newResourcePod({ scalar: { "deviceclass.resource.kubernetes.io/gpuclass": 1 } }),
      newObj: dc("gpuclass", "example.com/gpu"),
      oldObj: dc("gpuclass"),
      expectedHint: QueueingHint.QueueSkip,
    },
    "queue-on-class-add-with-extended-resource-name": {
      pod: newResourcePod({ scalar: { "example.com/gpu": 1 } }),
      newObj: dc("", "example.com/gpu"),
      expectedHint: QueueingHint.Queue,
    },
    "queue-on-class-update-with-extended-resource-name": {
      pod: newResourcePod({ scalar: { "example.com/gpu": 1 } }),
      newObj: dc("", "example.com/gpu"),
      oldObj: dc("", "example.com/gpu1"),
      expectedHint: QueueingHint.Queue,
    },
  };
  it.each(Object.entries(cases))("%s", async (_name, tc) => {
    const p = await newFit({ args: fitArgs(), features: { enableDRAExtendedResource: true } });
    runHint(p.eventsToRegister()[2]!.queueingHintFn, tc);
  });
});

describe("TestIsFit", () => {
  const cases: Record<
    string,
    { pod: Pod; node?: Node; podLevelResourcesEnabled?: boolean; expected: boolean }
  > = {
    "nil node": { pod: makePod().obj(), expected: false },
    "insufficient resource": {
      pod: makePod().req({ cpu: "2" }).obj(),
      node: makeNode().capacity({ cpu: "1" }).obj(),
      expected: false,
    },
    "sufficient resource": {
      pod: makePod().req({ cpu: "1" }).obj(),
      node: makeNode().capacity({ cpu: "2" }).obj(),
      expected: true,
    },
    "insufficient pod-level resource": {
      pod: makePod()
        .resources({ requests: { cpu: "2" } })
        .obj(),
      node: makeNode().capacity({ cpu: "1" }).obj(),
      podLevelResourcesEnabled: true,
      expected: false,
    },
    "sufficient pod-level resource": {
      pod: makePod()
        .resources({ requests: { cpu: "2" } })
        .obj(),
      node: makeNode().capacity({ cpu: "2" }).obj(),
      podLevelResourcesEnabled: true,
      expected: true,
    },
    "sufficient pod-level resource hugepages": {
      pod: makePod()
        .resources({ requests: { [hugePageResourceA]: "2Mi" } })
        .obj(),
      node: makeNode()
        .capacity({ [hugePageResourceA]: "2Mi" })
        .obj(),
      podLevelResourcesEnabled: true,
      expected: true,
    },
    "insufficient pod-level resource hugepages": {
      pod: makePod()
        .resources({ requests: { [hugePageResourceA]: "4Mi" } })
        .obj(),
      node: makeNode()
        .capacity({ [hugePageResourceA]: "2Mi" })
        .obj(),
      podLevelResourcesEnabled: true,
      expected: false,
    },
  };
  it.each(Object.entries(cases))("%s", (_name, tc) => {
    expect(isFit(tc.pod, tc.node, { enablePodLevelResources: tc.podLevelResourcesEnabled === true })).toBe(
      tc.expected,
    );
  });
});

describe("TestHaveAnyRequestedResourcesIncreased", () => {
  const cap = (rl: ResourceList) => makeNode().capacity(rl).obj();
  const all = { milliCPU: 2, memory: 2, ephemeralStorage: 2, scalar: { [extendedResourceA]: 2 } };
  const cases: Record<
    string,
    {
      pod: Pod;
      originalNode: Node;
      modifiedNode: Node;
      expected: boolean;
      draExtendedResourceEnabled?: boolean;
    }
  > = {
    "no-requested-resources": {
      pod: newResourcePod({}),
      originalNode: cap({
        pods: "1",
        cpu: "1",
        memory: "1",
        "ephemeral-storage": "1",
        [extendedResourceA]: "1",
      }),
      modifiedNode: cap({
        pods: "1",
        cpu: "2",
        memory: "2",
        "ephemeral-storage": "2",
        [extendedResourceA]: "2",
      }),
      expected: false,
    },
    "no-requested-resources-pods-increased": {
      pod: newResourcePod({}),
      originalNode: cap({
        pods: "1",
        cpu: "1",
        memory: "1",
        "ephemeral-storage": "1",
        [extendedResourceA]: "1",
      }),
      modifiedNode: cap({
        pods: "2",
        cpu: "1",
        memory: "1",
        "ephemeral-storage": "1",
        [extendedResourceA]: "1",
      }),
      expected: true,
    },
    "requested-resources-dra-in-node": {
      pod: newResourcePod(all),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3", [extendedResourceA]: "4" }),
      modifiedNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "1", [extendedResourceA]: "1" }),
      draExtendedResourceEnabled: true,
      expected: false,
    },
    "requested-resources-dra-not-in-node": {
      pod: newResourcePod(all),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3" }),
      modifiedNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "1" }),
      draExtendedResourceEnabled: true,
      expected: true,
    },
    "requested-resources-dra-zero-capacity": {
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      originalNode: cap({ [extendedResourceA]: "0" }),
      modifiedNode: cap({ [extendedResourceA]: "0" }),
      draExtendedResourceEnabled: true,
      expected: true,
    },
    "scalar-resources-not-in-node": {
      pod: newResourcePod(all),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3" }),
      modifiedNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "1" }),
      expected: false,
    },
    "requested-resources-decreased": {
      pod: newResourcePod(all),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3", [extendedResourceA]: "4" }),
      modifiedNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "1", [extendedResourceA]: "1" }),
      expected: false,
    },
    "requested-resources-increased": {
      pod: newResourcePod(all),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3", [extendedResourceA]: "4" }),
      modifiedNode: cap({ cpu: "3", memory: "4", "ephemeral-storage": "3", [extendedResourceA]: "4" }),
      expected: true,
    },
    "non-requested-resources-decreased": {
      pod: newResourcePod({ milliCPU: 2, memory: 2 }),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3", [extendedResourceA]: "4" }),
      modifiedNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "1", [extendedResourceA]: "1" }),
      expected: false,
    },
    "non-requested-resources-increased": {
      pod: newResourcePod({ milliCPU: 2, memory: 2 }),
      originalNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "3", [extendedResourceA]: "4" }),
      modifiedNode: cap({ cpu: "1", memory: "2", "ephemeral-storage": "5", [extendedResourceA]: "6" }),
      expected: false,
    },
  };
  it.each(Object.entries(cases))("%s", (_name, tc) => {
    expect(
      haveAnyRequestedResourcesIncreased(tc.pod, tc.originalNode, tc.modifiedNode, {
        enablePodLevelResources: true,
        // upstream passes no DRA manager, which delegates any extended resource the node does not
        // provide; kubesched always reads the DeviceClasses, so a class backs extendedResourceA.
        deviceClassResolver: tc.draExtendedResourceEnabled
          ? new DeviceClassResolver(
              new ArrayClusterLister([
                { metadata: { name: "a" }, spec: { extendedResourceName: extendedResourceA } },
              ]),
            )
          : null,
      }),
    ).toBe(tc.expected);
  });
});
