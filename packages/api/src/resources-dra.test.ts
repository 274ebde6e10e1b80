import type { Container, NodeAllocatableResourceClaimStatus, Pod } from "kubernetes-types/core/v1.js";
import { describe, expect, it } from "vitest";
import {
  getContainerDRAAllocations,
  type PodResourcesOptions,
  podLimits,
  podRequests,
  resourceListToAmounts,
} from "./resources";
import type { ResourceList } from "./types";

// upstream: staging/src/k8s.io/component-helpers/resource/helpers_test.go
// TestPodResourceRequestsWithDRANodeAllocatableClaims (the 1.37 `mapping` / `overhead` shape,
// helpers.go at kubernetes/kubernetes@0085214e): all 12 cases ported.
const hp1Gi = "hugepages-1Gi";
const ctr = (
  name: string,
  requests?: ResourceList,
  claims: string[] = [],
  limits?: ResourceList,
): Container => ({
  name,
  resources: { requests, limits, claims: claims.map((n) => ({ name: n })) },
});
const pod = (
  containers: Container[],
  statuses: NodeAllocatableResourceClaimStatus[],
  extra: { initContainers?: Container[]; podRequests?: ResourceList; podLimits?: ResourceList } = {},
): Pod => ({
  spec: {
    containers,
    initContainers: extra.initContainers,
    resources:
      extra.podRequests || extra.podLimits
        ? { requests: extra.podRequests, limits: extra.podLimits }
        : undefined,
  },
  status: { nodeAllocatableResourceClaimStatuses: statuses },
});
const on: PodResourcesOptions = { useDRANodeAllocatableResourceClaimStatus: true };

const cases: { description: string; pod: Pod; options: PodResourcesOptions; expected: ResourceList }[] = [
  {
    description: "No claims",
    pod: pod([ctr("c1", { cpu: "100m", memory: "1Gi" })], []),
    options: on,
    expected: { cpu: "100m", memory: "1Gi" },
  },
  {
    description: "Single claim on one container",
    pod: pod(
      [ctr("c1", { cpu: "100m", memory: "1Gi", [hp1Gi]: "2" }, ["claim-1"])],
      [
        {
          resourceClaimName: "node-allocatable-claim-1",
          containers: ["c1"],
          mapping: [
            { name: "cpu", quantity: "50m" },
            { name: hp1Gi, quantity: "1" },
          ],
        },
      ],
    ),
    options: on,
    expected: { cpu: "150m", memory: "1Gi", [hp1Gi]: "3" },
  },
  {
    description: "Multiple claims on one container",
    pod: pod(
      [ctr("c1", { cpu: "100m", memory: "1Gi" }, ["claim-1", "claim-2"])],
      [
        {
          resourceClaimName: "node-allocatable-claim-1",
          containers: ["c1"],
          mapping: [{ name: "cpu", quantity: "50m" }],
        },
        {
          resourceClaimName: "node-allocatable-claim-2",
          containers: ["c1"],
          mapping: [
            { name: "cpu", quantity: "25m" },
            { name: "memory", quantity: "512Mi" },
          ],
        },
      ],
    ),
    options: on,
    expected: { cpu: "175m", memory: "1.5Gi" },
  },
  {
    description: "Same claim referenced in multiple containers",
    pod: pod(
      [ctr("c1", { cpu: "100m" }, ["claim-1"]), ctr("c2", { cpu: "200m" }, ["claim-1"])],
      [
        {
          resourceClaimName: "node-allocatable-claim-1",
          containers: ["c1", "c2"],
          mapping: [{ name: "cpu", quantity: "50m" }],
        },
      ],
    ),
    options: on,
    // The claim is counted once.
    expected: { cpu: "350m" },
  },
  {
    description: "Different claims on multiple containers",
    pod: pod(
      [
        ctr("c1", { cpu: "100m", [hp1Gi]: "1" }, ["claim-1"]),
        ctr("c2", { cpu: "200m", memory: "1Gi", [hp1Gi]: "2" }, ["claim-2"]),
      ],
      [
        {
          resourceClaimName: "node-allocatable-claim-1",
          containers: ["c1"],
          mapping: [
            { name: "cpu", quantity: "50m" },
            { name: hp1Gi, quantity: "1" },
          ],
        },
        {
          resourceClaimName: "node-allocatable-claim-2",
          containers: ["c2"],
          mapping: [
            { name: "cpu", quantity: "25m" },
            { name: "memory", quantity: "512Mi" },
            { name: hp1Gi, quantity: "2" },
          ],
        },
      ],
    ),
    options: on,
    expected: { cpu: "375m", memory: "1.5Gi", [hp1Gi]: "6" },
  },
  {
    description: "Claim on init container",
    pod: pod(
      [ctr("c1", { cpu: "50m" })],
      [
        {
          resourceClaimName: "node-allocatable-claim",
          containers: ["ic1"],
          mapping: [{ name: "cpu", quantity: "25m" }],
        },
      ],
      { initContainers: [ctr("ic1", { cpu: "100m" }, ["claim-1"])] },
    ),
    options: on,
    // max(100m, 50m) + 25m
    expected: { cpu: "125m" },
  },
  {
    description: "UseDRANodeAllocatableResourceClaimStatus flag disabled",
    pod: pod(
      [ctr("c1", { cpu: "100m" }, ["claim-1"])],
      [
        {
          resourceClaimName: "node-allocatable-claim",
          containers: ["c1"],
          mapping: [{ name: "cpu", quantity: "50m" }],
        },
      ],
    ),
    options: { useDRANodeAllocatableResourceClaimStatus: false },
    expected: { cpu: "100m" },
  },
  {
    description: "Pod Level Resources overrides the claim request",
    pod: pod(
      [ctr("c1", { cpu: "1", memory: "1Gi" })],
      [
        {
          resourceClaimName: "node-allocatable-claim",
          containers: ["c1"],
          mapping: [{ name: "cpu", quantity: "3" }],
        },
      ],
      { podRequests: { cpu: "2" } },
    ),
    options: { useDRANodeAllocatableResourceClaimStatus: true, skipPodLevelResources: false },
    expected: { cpu: "2", memory: "1Gi" },
  },
  {
    description: "Pod with DRA claim specifying Overhead mapping",
    pod: pod(
      [ctr("c1", { cpu: "100m", memory: "1Gi" }), ctr("c2", { cpu: "100m", memory: "1Gi" })],
      [
        {
          resourceClaimName: "node-allocatable-claim",
          containers: ["c1", "c2"],
          overhead: [{ name: "memory", perPod: "1Gi", perContainer: "500Mi" }],
        },
      ],
    ),
    options: on,
    // 1Gi (c1) + 1Gi (c2) + 1Gi (per pod) + 2 × 500Mi (per container)
    expected: { cpu: "200m", memory: "4072Mi" },
  },
  {
    description: "Pod with DRA claim specifying Overhead mapping, PerPod only",
    pod: pod(
      [ctr("c1", { memory: "1Gi" })],
      [
        {
          resourceClaimName: "node-allocatable-claim",
          containers: ["c1"],
          overhead: [{ name: "memory", perPod: "1Gi" }],
        },
      ],
    ),
    options: on,
    expected: { memory: "2Gi" },
  },
  {
    description: "Pod with DRA claim specifying Overhead mapping, PerContainer only",
    pod: pod(
      [ctr("c1", { memory: "1Gi" })],
      [
        {
          resourceClaimName: "node-allocatable-claim",
          containers: ["c1"],
          overhead: [{ name: "memory", perContainer: "500Mi" }],
        },
      ],
    ),
    options: on,
    expected: { memory: "1524Mi" },
  },
];

describe("podRequests with DRA node allocatable claim statuses (upstream TestPodResourceRequestsWithDRANodeAllocatableClaims)", () => {
  it.each(cases)("$description", ({ pod, options, expected }) => {
    expect(podRequests(pod, options)).toEqual(resourceListToAmounts(expected));
  });

  it("counts the statuses with status resources too (a pod that is running)", () => {
    const base = pod(
      [ctr("c1", { cpu: "1" }, ["claim-1"])],
      [{ resourceClaimName: "claim", containers: ["c1"], mapping: [{ name: "cpu", quantity: "2" }] }],
    );
    const p: Pod = {
      ...base,
      status: {
        ...base.status,
        containerStatuses: [
          {
            name: "c1",
            image: "",
            imageID: "",
            ready: true,
            restartCount: 0,
            allocatedResources: { cpu: "1" },
          },
        ],
      },
    };
    expect(podRequests(p, { ...on, useStatusResources: true })).toEqual(resourceListToAmounts({ cpu: "3" }));
    expect(podRequests(p, { useStatusResources: true })).toEqual(resourceListToAmounts({ cpu: "1" }));
  });
});

describe("podLimits and getContainerDRAAllocations with DRA claim statuses (upstream addDRANodeAllocatableLimits, GetContainerDRAAllocations)", () => {
  const p = pod(
    [ctr("c1", { cpu: "1" }, ["claim-1"], { cpu: "2" }), ctr("c2", { cpu: "1" }, ["claim-1"])],
    [
      {
        resourceClaimName: "claim",
        containers: ["c1", "c2"],
        mapping: [{ name: "cpu", quantity: "4" }],
        overhead: [
          { name: "memory", perPod: "1Gi", perContainer: "256Mi" },
          { name: hp1Gi, perPod: "1" },
        ],
      },
    ],
  );

  it("adds to declared limits only, and always to hugepages", () => {
    // cpu: 2 declared + 4 mapped; memory has no limit, stays unlimited.
    expect(podLimits(p, on)).toEqual(resourceListToAmounts({ cpu: "6", [hp1Gi]: "1" }));
    expect(podLimits(p, {})).toEqual(resourceListToAmounts({ cpu: "2" }));
  });

  it("gives each referencing container the mapping and both overheads once", () => {
    expect(getContainerDRAAllocations(p, "c1")).toEqual(
      resourceListToAmounts({ cpu: "4", memory: "1280Mi", [hp1Gi]: "1" }),
    );
    expect(getContainerDRAAllocations(p, "other")).toEqual(new Map());
  });
});
