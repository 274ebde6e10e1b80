import type { Node, Pod } from "@kubesched/api";
import { ActionType, type ClusterEvent, EventResource } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeSchedulingPropertiesChange, podSchedulingPropertiesChange } from "./events";

const A = ActionType;

describe("TestNodeSchedulingPropertiesChange", () => {
  const base = makeNode().name("n").label("zone", "a").capacity({ cpu: "1" }).obj();
  const withLabel = makeNode().name("n").label("zone", "b").capacity({ cpu: "1" }).obj();
  const withAllocatable = makeNode().name("n").label("zone", "a").capacity({ cpu: "2" }).obj();
  const sameAllocatableOtherUnit = makeNode().name("n").label("zone", "a").capacity({ cpu: "1000m" }).obj();
  const tainted = makeNode()
    .name("n")
    .label("zone", "a")
    .capacity({ cpu: "1" })
    .taints([{ key: "k", effect: "NoSchedule" }])
    .obj();
  const unschedulable = makeNode().name("n").label("zone", "a").capacity({ cpu: "1" }).unschedulable().obj();
  const ready = (status: string): Node =>
    makeNode()
      .name("n")
      .label("zone", "a")
      .capacity({ cpu: "1" })
      .conditions([{ type: "Ready", status, lastHeartbeatTime: status === "True" ? "t1" : "t2" }])
      .obj();
  const annotated = makeNode().name("n").label("zone", "a").capacity({ cpu: "1" }).annotation("a", "b").obj();
  const tests: { name: string; newNode: Node; oldNode: Node; want: number[] }[] = [
    { name: "no specific changed applied", newNode: base, oldNode: base, want: [] },
    {
      name: "only node spec unavailable changed",
      newNode: base,
      oldNode: unschedulable,
      want: [A.UpdateNodeTaint],
    },
    { name: "node spec unavailable changed to true", newNode: unschedulable, oldNode: base, want: [] },
    {
      name: "only node allocatable changed",
      newNode: withAllocatable,
      oldNode: base,
      want: [A.UpdateNodeAllocatable],
    },
    { name: "allocatable equal in another unit", newNode: sameAllocatableOtherUnit, oldNode: base, want: [] },
    { name: "only node label changed", newNode: withLabel, oldNode: base, want: [A.UpdateNodeLabel] },
    { name: "only node taint changed", newNode: tainted, oldNode: base, want: [A.UpdateNodeTaint] },
    {
      name: "only node annotation changed",
      newNode: annotated,
      oldNode: base,
      want: [A.UpdateNodeAnnotation],
    },
    {
      name: "only node condition changed",
      newNode: ready("False"),
      oldNode: ready("True"),
      want: [A.UpdateNodeCondition],
    },
    {
      name: "only condition heartbeat changed (statuses equal)",
      newNode: {
        ...ready("True"),
        status: {
          ...ready("True").status,
          conditions: [{ type: "Ready", status: "True", lastHeartbeatTime: "t9" }],
        },
      },
      oldNode: ready("True"),
      want: [],
    },
    {
      name: "both node label and node taint changed",
      newNode: makeNode()
        .name("n")
        .label("zone", "b")
        .capacity({ cpu: "1" })
        .taints([{ key: "k", effect: "NoSchedule" }])
        .obj(),
      oldNode: base,
      want: [A.UpdateNodeLabel, A.UpdateNodeTaint],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const want: ClusterEvent[] = tc.want.map((actionType) => ({
        resource: EventResource.Node,
        actionType,
      }));
      expect(nodeSchedulingPropertiesChange(tc.newNode, tc.oldNode)).toEqual(want);
    });
  }
});

describe("TestPodSchedulingPropertiesChange", () => {
  const podWithBigRequest = makePod().name("p").req({ cpu: "101m" }).obj();
  const podWithSmallRequest = makePod().name("p").req({ cpu: "100m" }).obj();
  const podWithLabel = makePod().name("p").req({ cpu: "101m" }).label("a", "b").obj();
  const podWithGate = makePod().name("p").schedulingGates(["g"]).obj();
  const podNoGate = makePod().name("p").obj();
  const podWithToleration = makePod().name("p").toleration("key").obj();
  const assigned = (p: Pod): Pod => ({
    ...p,
    spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName: "n1" },
  });
  const tests: { name: string; newPod: Pod; oldPod: Pod; targetPod?: boolean; want: ClusterEvent[] }[] = [
    {
      name: "only label is updated",
      newPod: podWithLabel,
      oldPod: podWithBigRequest,
      want: [{ resource: EventResource.UnscheduledPod, actionType: A.UpdatePodLabel }],
    },
    {
      name: "pod's resource request is scaled down",
      newPod: assigned(podWithSmallRequest),
      oldPod: assigned(podWithBigRequest),
      want: [{ resource: EventResource.AssignedPod, actionType: A.UpdatePodScaleDown }],
    },
    {
      name: "pod's resource request is scaled up",
      newPod: podWithBigRequest,
      oldPod: podWithSmallRequest,
      want: [{ resource: EventResource.UnscheduledPod, actionType: A.Update }],
    },
    {
      name: "both pod's resource request and label are updated",
      newPod: makePod().name("p").req({ cpu: "100m" }).label("a", "b").obj(),
      oldPod: podWithBigRequest,
      want: [
        { resource: EventResource.UnscheduledPod, actionType: A.UpdatePodLabel },
        { resource: EventResource.UnscheduledPod, actionType: A.UpdatePodScaleDown },
      ],
    },
    {
      name: "untracked properties of pod is updated",
      newPod: makePod().name("p").req({ cpu: "101m" }).annotation("x", "y").obj(),
      oldPod: podWithBigRequest,
      want: [{ resource: EventResource.UnscheduledPod, actionType: A.Update }],
    },
    {
      name: "scheduling gate is eliminated",
      newPod: podNoGate,
      oldPod: podWithGate,
      targetPod: true,
      want: [{ resource: EventResource.TargetPod, actionType: A.UpdatePodSchedulingGatesEliminated }],
    },
    {
      name: "a toleration is added",
      newPod: podWithToleration,
      oldPod: podNoGate,
      want: [{ resource: EventResource.UnscheduledPod, actionType: A.UpdatePodToleration }],
    },
    {
      name: "generated resource claim statuses changed",
      newPod: { ...podNoGate, status: { resourceClaimStatuses: [{ name: "c", resourceClaimName: "p-c" }] } },
      oldPod: podNoGate,
      want: [{ resource: EventResource.UnscheduledPod, actionType: A.UpdatePodGeneratedResourceClaim }],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      expect(podSchedulingPropertiesChange(tc.newPod, tc.oldPod, tc.targetPod)).toEqual(tc.want);
    });
  }
});
