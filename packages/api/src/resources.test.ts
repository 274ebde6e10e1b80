import type { Container, ContainerStatus, Pod, PodCondition } from "kubernetes-types/core/v1.js";
import { describe, expect, it } from "vitest";
import {
  DefaultMemoryRequest,
  DefaultMilliCPURequest,
  isExtendedResourceName,
  isHugePageResourceName,
  isNativeResource,
  isPodLevelLimitsSet,
  isPodLevelResourcesSet,
  isPrefixedNativeResource,
  isScalarResourceName,
  type PodResourcesOptions,
  podLimits,
  podRequests,
  resourceListToAmounts,
} from "./resources";
import type { ResourceList } from "./types";

// upstream: staging/src/k8s.io/component-helpers/resource/helpers_test.go
const amounts = (list: ResourceList) => resourceListToAmounts(list);
const ctr = (requests?: ResourceList, limits?: ResourceList, extra: Partial<Container> = {}): Container => ({
  name: extra.name ?? "c",
  ...extra,
  resources: { requests, limits },
});
const status = (cs: Partial<ContainerStatus> & { name: string }): ContainerStatus => ({
  image: "",
  imageID: "",
  ready: true,
  restartCount: 0,
  ...cs,
});
const sidecar = (requests?: ResourceList, limits?: ResourceList): Container =>
  ctr(requests, limits, { restartPolicy: "Always" });

interface PodResources {
  cpuRequest?: string;
  cpuLimit?: string;
  memoryRequest?: string;
  memoryLimit?: string;
  cpuOverhead?: string;
  memoryOverhead?: string;
}
// upstream getPod()
function getPod(r: PodResources): Pod {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  const overhead: ResourceList = {};
  if (r.cpuRequest) requests.cpu = r.cpuRequest;
  if (r.memoryRequest) requests.memory = r.memoryRequest;
  if (r.cpuLimit) limits.cpu = r.cpuLimit;
  if (r.memoryLimit) limits.memory = r.memoryLimit;
  if (r.cpuOverhead) overhead.cpu = r.cpuOverhead;
  if (r.memoryOverhead) overhead.memory = r.memoryOverhead;
  return { metadata: { name: "foo" }, spec: { containers: [ctr(requests, limits)], overhead } };
}

describe("TestPodRequestsAndLimits", () => {
  const cases: [string, Pod, ResourceList, ResourceList][] = [
    ["just-limit-no-overhead", getPod({ cpuLimit: "9" }), {}, { cpu: "9" }],
    ["just-overhead", getPod({ cpuOverhead: "5", memoryOverhead: "5" }), { cpu: "5", memory: "5" }, {}],
    [
      "req-and-overhead",
      getPod({ cpuRequest: "1", memoryRequest: "10", cpuOverhead: "5", memoryOverhead: "5" }),
      { cpu: "6", memory: "15" },
      {},
    ],
    [
      "all-req-lim-and-overhead",
      getPod({
        cpuRequest: "1",
        cpuLimit: "2",
        memoryRequest: "10",
        memoryLimit: "12",
        cpuOverhead: "5",
        memoryOverhead: "5",
      }),
      { cpu: "6", memory: "15" },
      { cpu: "7", memory: "17" },
    ],
    [
      "req-some-lim-and-overhead",
      getPod({ cpuRequest: "1", cpuLimit: "2", memoryRequest: "10", cpuOverhead: "5", memoryOverhead: "5" }),
      { cpu: "6", memory: "15" },
      { cpu: "7" },
    ],
  ];
  it.each(cases)("%s", (_, pod, wantReq, wantLim) => {
    expect(podRequests(pod)).toEqual(amounts(wantReq));
    expect(podLimits(pod)).toEqual(amounts(wantLim));
  });
});

describe("TestPodRequestsAndLimitsWithoutOverhead", () => {
  const two = [
    ctr({ cpu: "1", memory: "5" }, { cpu: "2", memory: "10" }),
    ctr({ cpu: "4", memory: "12" }, { cpu: "8", memory: "24" }),
  ];
  const cases: [string, Pod, ResourceList, ResourceList][] = [
    [
      "two container no overhead - should just be sum of containers",
      { spec: { containers: two } },
      { cpu: "5", memory: "17" },
      { cpu: "10", memory: "34" },
    ],
    [
      "two container with overhead - shouldn't consider overhead",
      { spec: { containers: two, overhead: { cpu: "3", memory: "8" } } },
      { cpu: "5", memory: "17" },
      { cpu: "10", memory: "34" },
    ],
    [
      "two container with overhead, massive init - should just be the largest init",
      {
        spec: {
          containers: two,
          overhead: { cpu: "3", memory: "8" },
          initContainers: [
            ctr({ cpu: "1", memory: "5" }, { cpu: "1", memory: "5" }, { name: "small-init" }),
            ctr({ cpu: "40", memory: "120" }, { cpu: "80", memory: "240" }, { name: "big-init" }),
          ],
        },
      },
      { cpu: "40", memory: "120" },
      { cpu: "80", memory: "240" },
    ],
  ];
  it.each(cases)("%s", (_, pod, wantReq, wantLim) => {
    expect(podRequests(pod, { excludeOverhead: true })).toEqual(amounts(wantReq));
    expect(podLimits(pod, { excludeOverhead: true })).toEqual(amounts(wantLim));
  });
});

describe("TestPodResourceRequests", () => {
  const infeasible: PodCondition[] = [{ type: "PodResizePending", status: "True", reason: "Infeasible" }];
  const cases: {
    description: string;
    options?: PodResourcesOptions;
    overhead?: ResourceList;
    conditions?: PodCondition[];
    initContainers?: Container[];
    containers: Container[];
    containerStatuses?: ContainerStatus[];
    expected: ResourceList;
  }[] = [
    {
      description: "nil options, larger init container",
      initContainers: [ctr({ cpu: "4" })],
      containers: [ctr({ cpu: "1" })],
      expected: { cpu: "4" },
    },
    {
      description: "nil options, larger containers",
      initContainers: [ctr({ cpu: "2" })],
      containers: [ctr({ cpu: "2" }), ctr({ cpu: "3" })],
      expected: { cpu: "5" },
    },
    {
      description: "pod overhead excluded",
      options: { excludeOverhead: true },
      overhead: { cpu: "1" },
      initContainers: [ctr({ cpu: "2" })],
      containers: [ctr({ cpu: "2" }), ctr({ cpu: "3" })],
      expected: { cpu: "5" },
    },
    {
      description: "pod overhead included",
      overhead: { cpu: "1", memory: "1Gi" },
      initContainers: [ctr({ cpu: "2" }, { cpu: "2" })],
      containers: [ctr({ cpu: "2" }), ctr({ cpu: "3" })],
      expected: { cpu: "6", memory: "1Gi" },
    },
    {
      description: "resized, infeasible",
      options: { useStatusResources: true },
      conditions: infeasible,
      containers: [ctr({ cpu: "4" }, undefined, { name: "container-1" })],
      containerStatuses: [status({ name: "container-1", resources: { requests: { cpu: "2" } } })],
      expected: { cpu: "2" },
    },
    {
      description: "resized, infeasible & in-progress",
      options: { useStatusResources: true },
      conditions: infeasible,
      containers: [ctr({ cpu: "6" }, undefined, { name: "container-1" })],
      containerStatuses: [
        status({
          name: "container-1",
          allocatedResources: { cpu: "4" },
          resources: { requests: { cpu: "2" } },
        }),
      ],
      expected: { cpu: "4" },
    },
    {
      description: "resized, no resize status",
      options: { useStatusResources: true },
      containers: [ctr({ cpu: "4" }, undefined, { name: "container-1" })],
      containerStatuses: [status({ name: "container-1", resources: { requests: { cpu: "2" } } })],
      expected: { cpu: "4" },
    },
    {
      description: "restartable init container",
      initContainers: [sidecar({ cpu: "1" })],
      containers: [ctr({ cpu: "1" })],
      expected: { cpu: "2" },
    },
    {
      description: "multiple restartable init containers",
      initContainers: [
        ctr({ cpu: "5" }),
        sidecar({ cpu: "1" }),
        sidecar({ cpu: "2" }),
        sidecar({ cpu: "3" }),
      ],
      containers: [ctr({ cpu: "1" })],
      expected: { cpu: "7" },
    },
    {
      description: "multiple restartable and regular init containers",
      initContainers: [
        ctr({ cpu: "5" }),
        sidecar({ cpu: "1" }),
        sidecar({ cpu: "2" }),
        ctr({ cpu: "5" }),
        sidecar({ cpu: "3" }),
      ],
      containers: [ctr({ cpu: "1" })],
      expected: { cpu: "8" },
    },
    {
      description: "restartable-init, init and regular",
      initContainers: [sidecar({ cpu: "1" }), ctr({ cpu: "10" })],
      containers: [ctr({ cpu: "10" })],
      expected: { cpu: "11" },
    },
  ];
  it.each(cases)("$description", (tc) => {
    const pod: Pod = {
      spec: { containers: tc.containers, initContainers: tc.initContainers, overhead: tc.overhead },
      status: { conditions: tc.conditions, containerStatuses: tc.containerStatuses },
    };
    expect(podRequests(pod, tc.options)).toEqual(amounts(tc.expected));
  });
});

describe("NonMissingContainerRequests (scoring defaults)", () => {
  const nonMissing = new Map([
    ["cpu", DefaultMilliCPURequest],
    ["memory", DefaultMemoryRequest],
  ]);
  it("fills per-container defaults for missing requests", () => {
    const pod: Pod = { spec: { containers: [ctr(), ctr({ cpu: "1" })] } };
    expect(podRequests(pod, { nonMissingContainerRequests: nonMissing })).toEqual(
      new Map([
        ["cpu", 1100],
        ["memory", 2 * DefaultMemoryRequest],
      ]),
    );
  });
  it("keeps an explicit zero", () => {
    const pod: Pod = { spec: { containers: [ctr({ cpu: "0", memory: "0" })] } };
    expect(podRequests(pod, { nonMissingContainerRequests: nonMissing })).toEqual(
      new Map([
        ["cpu", 0],
        ["memory", 0],
      ]),
    );
  });
  it("applies to init containers too", () => {
    const pod: Pod = { spec: { initContainers: [ctr({ cpu: "2" })], containers: [ctr()] } };
    expect(podRequests(pod, { nonMissingContainerRequests: nonMissing })).toEqual(
      new Map([
        ["cpu", 2000],
        ["memory", DefaultMemoryRequest],
      ]),
    );
  });
});

describe("TestPodLimits (restartable init containers)", () => {
  it("pod scaled down with restartable init containers, don't use status", () => {
    const pod: Pod = {
      spec: {
        containers: [],
        initContainers: [{ ...sidecar(undefined, { memory: "1Gi" }), name: "restartable-init-1" }],
      },
      status: {
        initContainerStatuses: [
          status({ name: "restartable-init-1", resources: { limits: { memory: "2Gi" } } }),
        ],
      },
    };
    expect(podLimits(pod, { useStatusResources: false })).toEqual(amounts({ memory: "1Gi" }));
    expect(podLimits(pod, { useStatusResources: true })).toEqual(amounts({ memory: "2Gi" }));
  });
  it("aggregate limit resolves max of sums instead of sum of maxes", () => {
    const pod: Pod = {
      spec: {
        containers: [
          ctr(undefined, { cpu: "1" }, { name: "c1" }),
          ctr(undefined, { cpu: "2" }, { name: "c2" }),
        ],
      },
      status: {
        containerStatuses: [
          status({ name: "c1", resources: { limits: { cpu: "2" } } }),
          status({ name: "c2", resources: { limits: { cpu: "1" } } }),
        ],
      },
    };
    expect(podLimits(pod, { useStatusResources: true })).toEqual(amounts({ cpu: "3" }));
  });
});

describe("TestIsPodLevelResourcesSet", () => {
  const cases: [string, Pod["spec"], boolean][] = [
    ["nil resources struct", { containers: [] }, false],
    ["empty resources struct", { containers: [], resources: {} }, false],
    [
      "only unsupported resource requests set",
      { containers: [], resources: { requests: { "ephemeral-storage": "1Mi" } } },
      false,
    ],
    [
      "only unsupported resource limits set",
      { containers: [], resources: { limits: { "ephemeral-storage": "1Mi" } } },
      false,
    ],
    [
      "unsupported and suported resources requests set",
      { containers: [], resources: { requests: { "ephemeral-storage": "1Mi", cpu: "1m" } } },
      true,
    ],
    [
      "unsupported and suported resources limits set",
      { containers: [], resources: { limits: { "ephemeral-storage": "1Mi", cpu: "1m" } } },
      true,
    ],
  ];
  it.each(cases)("%s", (_, spec, want) => expect(isPodLevelResourcesSet({ spec })).toBe(want));
});

describe("TestIsPodLevelLimitsSet", () => {
  const cases: [string, Pod["spec"], boolean][] = [
    ["nil resources struct", { containers: [] }, false],
    ["empty resources struct", { containers: [], resources: {} }, false],
    ["only resource requests set", { containers: [], resources: { requests: { memory: "100Mi" } } }, false],
    [
      "only unsupported resource limits set",
      { containers: [], resources: { limits: { "ephemeral-storage": "1Mi" } } },
      false,
    ],
    [
      "unsupported and suported resources limits set",
      { containers: [], resources: { limits: { "ephemeral-storage": "1Mi", cpu: "1m" } } },
      true,
    ],
  ];
  it.each(cases)("%s", (_, spec, want) => expect(isPodLevelLimitsSet({ spec })).toBe(want));
});

describe("TestPodLevelResourceRequests", () => {
  const c = (requests: ResourceList) => ctr(requests);
  const cases: {
    name: string;
    opts?: PodResourcesOptions;
    podResources?: { requests?: ResourceList; limits?: ResourceList };
    initContainers?: Container[];
    containers?: Container[];
    expected: ResourceList;
  }[] = [
    { name: "nil", expected: {} },
    {
      name: "pod level memory resource with SkipPodLevelResources true",
      podResources: { requests: { memory: "2Mi" } },
      opts: { skipPodLevelResources: true },
      expected: {},
    },
    {
      name: "pod level memory resource with SkipPodLevelResources false",
      podResources: { requests: { memory: "2Mi" } },
      expected: { memory: "2Mi" },
    },
    {
      name: "pod level memory and container level cpu resources with SkipPodLevelResources false",
      podResources: { requests: { memory: "2Mi" } },
      containers: [c({ cpu: "2m" })],
      expected: { memory: "2Mi", cpu: "2m" },
    },
    {
      name: "pod level unsupported resources set at both pod-level and container-level with SkipPodLevelResources false",
      podResources: { requests: { storage: "2Mi" } },
      containers: [c({ storage: "3Mi" })],
      expected: { storage: "3Mi" },
    },
    {
      name: "pod level unsupported resources set at pod-level with SkipPodLevelResources false",
      podResources: { requests: { storage: "2Mi" } },
      containers: [c({ memory: "3Mi" })],
      expected: { memory: "3Mi" },
    },
    {
      name: "only container level resources set with SkipPodLevelResources false",
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      expected: { memory: "3Mi", cpu: "2m" },
    },
    {
      name: "both container-level and pod-level resources set with SkipPodLevelResources false",
      podResources: { requests: { memory: "6Mi", cpu: "8m" } },
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      expected: { memory: "6Mi", cpu: "8m" },
    },
    {
      name: "container-level resources and init container set with SkipPodLevelResources false",
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      initContainers: [c({ memory: "5Mi", cpu: "4m" })],
      expected: { memory: "5Mi", cpu: "4m" },
    },
    {
      name: "container-level resources and init container set with SkipPodLevelResources true",
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      initContainers: [c({ memory: "5Mi", cpu: "4m" })],
      opts: { skipPodLevelResources: true },
      expected: { memory: "5Mi", cpu: "4m" },
    },
    {
      name: "container-level resources and sidecar container set with SkipPodLevelResources false",
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      initContainers: [sidecar({ memory: "5Mi", cpu: "4m" })],
      expected: { memory: "8Mi", cpu: "6m" },
    },
    {
      name: "container-level resources, init and sidecar container set with SkipPodLevelResources false",
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      initContainers: [sidecar({ memory: "5Mi", cpu: "4m" }), c({ memory: "6Mi", cpu: "8m" })],
      expected: { memory: "11Mi", cpu: "12m" },
    },
    {
      name: "pod-level resources, container-level resources, init and sidecar container set with SkipPodLevelResources false",
      podResources: { requests: { memory: "15Mi", cpu: "18m" } },
      containers: [c({ memory: "3Mi", cpu: "2m" })],
      initContainers: [sidecar({ memory: "5Mi", cpu: "4m" }), c({ memory: "6Mi", cpu: "8m" })],
      expected: { memory: "15Mi", cpu: "18m" },
    },
    {
      name: "pod-level resources, hugepage request/limit single page size",
      podResources: {
        limits: { "hugepages-2Mi": "2Mi" },
        requests: { memory: "10Mi", "hugepages-2Mi": "2Mi" },
      },
      expected: { memory: "10Mi", "hugepages-2Mi": "2Mi" },
    },
    {
      name: "pod-level resources, hugepage request/limit multiple page sizes",
      podResources: {
        limits: { "hugepages-2Mi": "2Mi", "hugepages-1Gi": "1Gi" },
        requests: { cpu: "1", "hugepages-2Mi": "2Mi", "hugepages-1Gi": "1Gi" },
      },
      expected: { cpu: "1", "hugepages-2Mi": "2Mi", "hugepages-1Gi": "1Gi" },
    },
  ];
  it.each(cases)("$name", (tc) => {
    const pod: Pod = {
      spec: {
        containers: tc.containers ?? [],
        initContainers: tc.initContainers,
        resources: tc.podResources,
      },
    };
    expect(podRequests(pod, tc.opts)).toEqual(amounts(tc.expected));
  });
});

// upstream: pkg/apis/core/v1/helper/helpers_test.go, component-helpers/scheduling/corev1/resource_names_test.go
describe("resource name classes", () => {
  it.each([
    ["cpu", false, false, true, false],
    ["memory", false, false, true, false],
    ["hugepages-2Mi", false, true, true, true],
    ["kubernetes.io/foo", false, false, true, true],
    ["example.com/gpu", true, false, false, true],
    ["nvidia.com/gpu", true, false, false, true],
    ["requests.example.com/gpu", false, false, false, false],
    ["example.com/bad name", false, false, false, false],
    ["attachable-volumes-aws-ebs", false, false, true, true],
  ])("%s", (name, extended, hugepage, native, scalar) => {
    expect(isExtendedResourceName(name)).toBe(extended);
    expect(isHugePageResourceName(name)).toBe(hugepage);
    expect(isNativeResource(name)).toBe(native);
    expect(isScalarResourceName(name)).toBe(scalar);
  });
  it("prefixed native", () => {
    expect(isPrefixedNativeResource("kubernetes.io/foo")).toBe(true);
    expect(isPrefixedNativeResource("foo")).toBe(false);
  });
  it("resourceListToAmounts uses milli for cpu and value otherwise", () => {
    expect(resourceListToAmounts({ cpu: "1.5", memory: "1Gi", pods: "110", "example.com/gpu": "2" })).toEqual(
      new Map([
        ["cpu", 1500],
        ["memory", 1073741824],
        ["pods", 110],
        ["example.com/gpu", 2],
      ]),
    );
    expect(resourceListToAmounts(undefined).size).toBe(0);
  });
});
