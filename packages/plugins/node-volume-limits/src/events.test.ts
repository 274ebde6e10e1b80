// Ported from upstream csi_test.go: TestCSILimitsQHint, TestCSILimitsAddedPVCQHint,
// TestCSILimitsDeletedVolumeAttachmentQHint.
import type { Pod } from "@kubesched/api";
import { QueueingHint } from "@kubesched/framework";
import { FakeListers, makeCSINode, makePod, makePVC } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  isSchedulableAfterCSINodeUpdated,
  isSchedulableAfterPodDeleted,
  isSchedulableAfterPVCAdded,
  isSchedulableAfterVolumeAttachmentDeleted,
} from "./events";

describe("TestCSILimitsQHint", () => {
  const podEbs = makePod().pvc("csi-ebs.csi.aws.com-2").obj();
  const scheduled = (p: Pod, yes: boolean): Pod => ({
    ...p,
    spec: { ...p.spec, containers: [], nodeName: yes ? "node-for-max-pd-test-1" : "" },
  });
  it.each([
    {
      test: "return a Queue when a deleted pod has a PVC",
      deletedPod: scheduled(makePod().pvc("placeholder").obj(), true),
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "return a Queue when a deleted pod has a inline migratable volume",
      deletedPod: scheduled(
        makePod()
          .volume({ name: "", awsElasticBlockStore: { volumeID: "" } })
          .obj(),
        true,
      ),
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "return a QueueSkip when a deleted pod doesn't have any volume",
      deletedPod: scheduled(makePod().obj(), true),
      wantQHint: QueueingHint.QueueSkip,
    },
    {
      test: "return a QueueSkip when a deleted pod is not scheduled.",
      deletedPod: scheduled(makePod().pvc("csi-ebs.csi.aws.com-0").obj(), false),
      wantQHint: QueueingHint.QueueSkip,
    },
  ])("$test", ({ deletedPod, wantQHint }) => {
    expect(isSchedulableAfterPodDeleted(podEbs, deletedPod, undefined)).toBe(wantQHint);
  });
});

describe("TestCSILimitsAddedPVCQHint", () => {
  it.each([
    {
      test: "a pod isn't in the same namespace as an added PVC",
      newPod: makePod().namespace("ns1").obj(),
      addedPvc: makePVC().namespace("ns2").obj(),
      wantQHint: QueueingHint.QueueSkip,
    },
    {
      test: "a pod is in the same namespace as an added PVC",
      newPod: makePod().namespace("ns1").pvc("pvc1").obj(),
      addedPvc: makePVC().name("pvc1").namespace("ns1").obj(),
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "a pod has an ephemeral volume related to an added PVC",
      newPod: makePod().name("pod1").namespace("ns1").volume({ name: "ephemeral", ephemeral: {} }).obj(),
      addedPvc: makePVC().name("pod1-ephemeral").namespace("ns1").obj(),
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "a pod doesn't have the same PVC as an added PVC",
      newPod: makePod().namespace("ns1").pvc("pvc1").obj(),
      addedPvc: makePVC().name("pvc2").namespace("ns1").obj(),
      wantQHint: QueueingHint.QueueSkip,
    },
    {
      test: "a pod doesn't have any PVC attached",
      newPod: makePod().namespace("ns1").obj(),
      addedPvc: makePVC().name("pvc2").namespace("ns1").obj(),
      wantQHint: QueueingHint.QueueSkip,
    },
  ])("$test", ({ newPod, addedPvc, wantQHint }) => {
    expect(isSchedulableAfterPVCAdded(newPod, undefined, addedPvc)).toBe(wantQHint);
  });
});

describe("TestCSILimitsDeletedVolumeAttachmentQHint", () => {
  const pvcPod = makePod()
    .namespace("ns1")
    .volume({ name: "", persistentVolumeClaim: { claimName: "pvc1" } });
  const existingPVC = makePVC().name("pvc1").namespace("ns1").volumeName("pv1").obj();
  const pvVA = {
    spec: { nodeName: "fake-node", attacher: "test.storage.gke.io", source: { persistentVolumeName: "pv1" } },
  };
  const inlineEBSVA = {
    spec: {
      nodeName: "fake-node",
      attacher: "ebs.csi.aws.com",
      source: { inlineVolumeSpec: { csi: { driver: "ebs.csi.aws.com", volumeHandle: "" } } },
    },
  };
  const ebsInline = { name: "", awsElasticBlockStore: { volumeID: "test" } };
  it.each([
    {
      test: "a pod has PVC when VolumeAttachment is deleting",
      newPod: pvcPod.obj(),
      withPVC: true,
      deletedVA: pvVA,
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "a pod has an Inline Migratable volume (AWSEBSDriver) when VolumeAttachment (AWSEBSDriver) is deleting (match)",
      newPod: makePod().namespace("ns1").volume(ebsInline).obj(),
      withPVC: false,
      deletedVA: inlineEBSVA,
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "a pod has an Inline Migratable volume (GCEPDDriver) when VolumeAttachment (AWSEBSDriver) is deleting (no match)",
      newPod: makePod()
        .namespace("ns1")
        .volume({ name: "", gcePersistentDisk: { pdName: "test" } })
        .obj(),
      withPVC: false,
      deletedVA: inlineEBSVA,
      wantQHint: QueueingHint.QueueSkip,
    },
    {
      test: "a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment (AWSEBSDriver) is deleting",
      newPod: makePod().namespace("ns1").volume(ebsInline).pvc("pvc1").obj(),
      withPVC: true,
      deletedVA: inlineEBSVA,
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment (AWSEBSDriver)  is deleting",
      newPod: makePod().namespace("ns1").volume(ebsInline).pvc("pvc1").obj(),
      withPVC: true,
      deletedVA: pvVA,
      wantQHint: QueueingHint.Queue,
    },
    {
      test: "a pod has no PVC when VolumeAttachment is deleting",
      newPod: makePod().namespace("ns1").obj(),
      withPVC: false,
      deletedVA: pvVA,
      wantQHint: QueueingHint.QueueSkip,
    },
  ])("$test", ({ newPod, withPVC, deletedVA, wantQHint }) => {
    const hint = isSchedulableAfterVolumeAttachmentDeleted(
      new FakeListers({ persistentVolumeClaims: withPVC ? [existingPVC] : [] }),
    );
    expect(hint(newPod, deletedVA, undefined)).toBe(wantQHint);
  });
});

describe("isSchedulableAfterCSINodeUpdated", () => {
  const csiNode = (count: number | null, driver = "ebs.csi.aws.com") =>
    makeCSINode()
      .name("n")
      .driver(
        count === null
          ? { name: driver, nodeID: "n" }
          : { name: driver, nodeID: "n", allocatable: { count } },
      )
      .obj();
  it.each([
    {
      name: "queue when a driver's limit increased",
      oldObj: csiNode(1),
      newObj: csiNode(2),
      want: QueueingHint.Queue,
    },
    {
      name: "queue when a driver was added",
      oldObj: makeCSINode().name("n").obj(),
      newObj: csiNode(1),
      want: QueueingHint.Queue,
    },
    {
      name: "queue when a driver's limit was removed",
      oldObj: csiNode(1),
      newObj: csiNode(null),
      want: QueueingHint.Queue,
    },
    {
      name: "skip when limits did not grow",
      oldObj: csiNode(2),
      newObj: csiNode(1),
      want: QueueingHint.QueueSkip,
    },
  ])("$name", ({ oldObj, newObj, want }) => {
    expect(isSchedulableAfterCSINodeUpdated(makePod().obj(), oldObj, newObj)).toBe(want);
  });
});
