// upstream: volume_restrictions_test.go (TestVolumeRestrictionsWithPodDeleted / PVC added hints)
// and EventsToRegister.
import { ActionType, EventResource, QueueingHint } from "@kubesched/framework";
import { makePod, makePVC } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  eventsToRegister,
  isSchedulableAfterPersistentVolumeClaimAdded,
  isSchedulableAfterPodDeleted,
} from "./events";

const gce = { name: "v", gcePersistentDisk: { pdName: "foo" } };

describe("isSchedulableAfterPodDeleted", () => {
  const pod = makePod().name("p").namespace("default").volume(gce).pvc("claim").obj();
  it.each([
    {
      name: "queue when the deleted pod had a conflicting volume",
      deleted: makePod().name("d").namespace("default").volume(gce).obj(),
      want: QueueingHint.Queue,
    },
    {
      name: "queue when the deleted pod used the same PVC",
      deleted: makePod().name("d").namespace("default").pvc("claim").obj(),
      want: QueueingHint.Queue,
    },
    {
      name: "skip a deleted pod in another namespace",
      deleted: makePod().name("d").namespace("other").volume(gce).obj(),
      want: QueueingHint.QueueSkip,
    },
    {
      name: "skip an irrelevant deleted pod",
      deleted: makePod().name("d").namespace("default").pvc("other").obj(),
      want: QueueingHint.QueueSkip,
    },
  ])("$name", ({ deleted, want }) => {
    expect(isSchedulableAfterPodDeleted(pod, deleted, undefined)).toBe(want);
  });

  it("throws (counts as Queue) on a wrong object", () => {
    expect(() => isSchedulableAfterPodDeleted(pod, "not-a-pod", undefined)).toThrow();
  });
});

describe("isSchedulableAfterPersistentVolumeClaimAdded", () => {
  const pod = makePod().name("p").namespace("default").pvc("claim").obj();
  it.each([
    {
      name: "queue when the pod uses the added PVC",
      pvc: makePVC().name("claim").namespace("default").obj(),
      want: QueueingHint.Queue,
    },
    {
      name: "skip a PVC in another namespace",
      pvc: makePVC().name("claim").namespace("other").obj(),
      want: QueueingHint.QueueSkip,
    },
    {
      name: "skip an unrelated PVC",
      pvc: makePVC().name("x").namespace("default").obj(),
      want: QueueingHint.QueueSkip,
    },
  ])("$name", ({ pvc, want }) => {
    expect(isSchedulableAfterPersistentVolumeClaimAdded(pod, undefined, pvc)).toBe(want);
  });
});

describe("eventsToRegister", () => {
  it("registers Pod Delete, Node Add and PVC Add with QueueingHints", () => {
    expect(eventsToRegister(true).map((e) => [e.event.resource, e.event.actionType])).toEqual([
      [EventResource.Pod, ActionType.Delete],
      [EventResource.Node, ActionType.Add],
      [EventResource.PersistentVolumeClaim, ActionType.Add],
    ]);
  });
  it("also registers node taint/label updates without QueueingHints", () => {
    expect(eventsToRegister(false)[1]?.event.actionType).toBe(
      ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    );
  });
});
