// Ported from upstream volume_zone_test.go: TestIsSchedulableAfterPersistentVolumeClaimAdded,
// TestIsSchedulableAfterStorageClassAdded, TestIsSchedulableAfterPersistentVolumeChange.
import {
  LabelFailureDomainBetaZone as betaZone,
  LabelTopologyZone as gaZone,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
} from "@kubesched/api";
import { ActionType, EventResource, QueueingHint } from "@kubesched/framework";
import { makePod, makePV, makePVC, makeStorageClass } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  eventsToRegister,
  isSchedulableAfterPersistentVolumeChange,
  isSchedulableAfterPersistentVolumeClaimChange,
  isSchedulableAfterStorageClassAdded,
} from "./events";

const createPodWithVolume = (pod: string, pvc: string): Pod =>
  makePod().name(pod).namespace("default").pvc(pvc).obj();
const pvc = (name: string, ns: string, volumeName: string): PersistentVolumeClaim =>
  makePVC().name(name).namespace(ns).volumeName(volumeName).obj();
const pv = (labels: Record<string, string>): PersistentVolume => makePV().name("Vol_1").labels(labels).obj();

interface HintCase {
  name: string;
  pod: Pod;
  oldObj?: unknown;
  newObj?: unknown;
  expectedHint: number;
  expectedErr?: boolean;
}

function runHints(fn: (pod: Pod, o: unknown, n: unknown) => number, cases: HintCase[]): void {
  it.each(cases)("$name", (tc) => {
    if (tc.expectedErr) {
      // A thrown error counts as Queue.
      expect(() => fn(tc.pod, tc.oldObj, tc.newObj)).toThrow();
      return;
    }
    expect(fn(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.expectedHint);
  });
}

describe("TestIsSchedulableAfterPersistentVolumeClaimAdded", () => {
  runHints(isSchedulableAfterPersistentVolumeClaimChange, [
    {
      name: "error-wrong-new-object",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: "not-a-pvc",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "pvc-was-added-but-pod-refers-no-pvc",
      pod: makePod().name("pod_1").namespace("default").obj(),
      newObj: pvc("PVC_1", "default", "Vol_1"),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "pvc-was-added-and-pod-was-bound-to-different-pvc",
      pod: createPodWithVolume("pod_1", "PVC_2"),
      newObj: pvc("PVC_1", "default", "Vol_1"),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "pvc-was-added-and-pod-was-bound-to-pvc-but-different-ns",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: pvc("PVC_1", "ns1", "Vol_1"),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "pvc-was-added-and-pod-was-bound-to-the-pvc",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: pvc("PVC_1", "default", "Vol_1"),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "pvc-was-updated-and-pod-was-bound-to-the-pvc",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      oldObj: makePVC().name("PVC_1").namespace("default").obj(),
      newObj: pvc("PVC_1", "default", "Vol_1"),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "pvc-was-updated-but-pod-refers-no-pvc",
      pod: makePod().name("pod_1").namespace("default").obj(),
      oldObj: makePVC().name("PVC_1").namespace("default").obj(),
      newObj: pvc("PVC_1", "default", "Vol_1"),
      expectedHint: QueueingHint.QueueSkip,
    },
  ]);
});

describe("TestIsSchedulableAfterStorageClassAdded", () => {
  runHints(isSchedulableAfterStorageClassAdded, [
    {
      name: "error-wrong-new-object",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: "not-a-storageclass",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "sc-doesn't-have-volume-binding-mode",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: makeStorageClass().name("SC_1").obj(),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "new-sc-is-wait-for-first-consumer-mode",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: makeStorageClass().name("SC_1").volumeBindingMode("WaitForFirstConsumer").obj(),
      expectedHint: QueueingHint.Queue,
    },
  ]);
});

describe("TestIsSchedulableAfterPersistentVolumeChange", () => {
  runHints(isSchedulableAfterPersistentVolumeChange, [
    {
      name: "error-wrong-new-object",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: "not-a-pv",
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "error-wrong-old-object",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      oldObj: "not-a-pv",
      newObj: makePV().name("Vol_1").obj(),
      expectedHint: QueueingHint.Queue,
      expectedErr: true,
    },
    {
      name: "new-pv-was-added",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      newObj: pv({ [betaZone]: "us-west1-b" }),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "pv-was-updated-and-changed-topology",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      oldObj: pv({ [betaZone]: "us-west1-a" }),
      newObj: pv({ [betaZone]: "us-west1-b" }),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "pv-was-updated-and-added-topology-label",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      oldObj: pv({ [betaZone]: "us-west1-a" }),
      newObj: pv({ [betaZone]: "us-west1-a", [gaZone]: "zone" }),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "pv-was-updated-but-no-topology-is-changed",
      pod: createPodWithVolume("pod_1", "PVC_1"),
      oldObj: pv({ [betaZone]: "us-west1-a", [gaZone]: "zone" }),
      newObj: pv({ [betaZone]: "us-west1-a", [gaZone]: "zone" }),
      expectedHint: QueueingHint.QueueSkip,
    },
  ]);
});

describe("eventsToRegister", () => {
  it("registers StorageClass Add, Node Add|UpdateNodeLabel, PVC and PV Add|Update", () => {
    expect(eventsToRegister(true).map((e) => [e.event.resource, e.event.actionType])).toEqual([
      [EventResource.StorageClass, ActionType.Add],
      [EventResource.Node, ActionType.Add | ActionType.UpdateNodeLabel],
      [EventResource.PersistentVolumeClaim, ActionType.Add | ActionType.Update],
      [EventResource.PersistentVolume, ActionType.Add | ActionType.Update],
    ]);
  });
});
