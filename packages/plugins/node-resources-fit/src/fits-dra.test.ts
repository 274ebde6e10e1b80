// upstream: pkg/kubelet/lifecycle/predicate_test.go TestCheck, its 5 DRANodeAllocatableResources
// cases (helper.Fits with ResourceRequestsOptions.EnableDRANodeAllocatableResources; the stored
// version at index id 70570191915): the pod's claim statuses count in its request with the option.
import type { NodeAllocatableResourceClaimStatus, Pod } from "@kubesched/api";
import { NodeInfo } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { fits, type InsufficientResource } from "./fits";

const nodeCPU = "8";
const nodeAllocatableResourceError: InsufficientResource = {
  resourceName: "cpu",
  reason: "Insufficient cpu",
  requested: 9000,
  used: 0,
  capacity: 8000,
  unresolvable: true,
};
const withStatuses = (statuses: NodeAllocatableResourceClaimStatus[]): Pod => {
  const p = makePod().name("pod1").req({ cpu: "1" }).obj();
  return { ...p, status: { ...p.status, nodeAllocatableResourceClaimStatuses: statuses } };
};

const cases: { name: string; pod: Pod; gate: boolean; want: InsufficientResource[] }[] = [
  {
    name: "pod not rejected when DRANodeAllocatableResources flag is disabled",
    pod: withStatuses([
      { resourceClaimName: "node-allocatable-claim", mapping: [{ name: "cpu", quantity: "8" }] },
    ]),
    gate: false,
    want: [],
  },
  {
    name: "pod rejected when DRANodeAllocatableResources flag is enabled and pod's resource request exceeds node capacity",
    pod: withStatuses([
      { resourceClaimName: "node-allocatable-claim", mapping: [{ name: "cpu", quantity: nodeCPU }] },
    ]),
    gate: true,
    want: [nodeAllocatableResourceError],
  },
  {
    name: "pod not rejected when DRANodeAllocatableResources flag is enabled and pod's resource request fits within node capacity",
    pod: withStatuses([
      { resourceClaimName: "node-allocatable-claim", mapping: [{ name: "cpu", quantity: "7" }] },
    ]),
    gate: true,
    want: [],
  },
  {
    name: "pod rejected when DRANodeAllocatableResources flag is enabled and pod's resource request + DRA Overhead exceeds node capacity",
    pod: withStatuses([
      {
        resourceClaimName: "node-allocatable-claim",
        containers: ["bar"],
        overhead: [{ name: "cpu", perPod: nodeCPU }],
      },
    ]),
    gate: true,
    want: [nodeAllocatableResourceError],
  },
  {
    name: "pod not rejected when DRANodeAllocatableResources flag is enabled and pod's resource request + DRA Overhead fits within node capacity",
    pod: withStatuses([
      {
        resourceClaimName: "node-allocatable-claim",
        containers: ["bar"],
        overhead: [{ name: "cpu", perPod: "7" }],
      },
    ]),
    gate: true,
    want: [],
  },
];

describe("fits with enableDRANodeAllocatableResources (upstream predicate_test.go TestCheck, DRA cases)", () => {
  it.each(cases)("$name", ({ pod, gate, want }) => {
    const ni = new NodeInfo();
    ni.setNode(makeNode().name("fake-node").capacity({ cpu: nodeCPU }).obj());
    expect(fits(pod, ni, { enablePodLevelResources: true, enableDRANodeAllocatableResources: gate })).toEqual(
      want,
    );
  });
});
