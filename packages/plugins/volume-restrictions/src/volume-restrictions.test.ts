// Ported from upstream pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions_test.go
import type { PersistentVolumeClaim, Pod } from "@kubesched/api";
import { createPluginHarness, makeNode, makePod, makePVC, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { Volume } from "./conflicts";
import { volumeRestrictionsPlugin } from "./index";
import { ErrReasonDiskConflict, ErrReasonReadWriteOncePodConflict } from "./reasons";
import type { VolumeRestrictions } from "./volume-restrictions";

const node = makeNode().name("node-1").obj();
const skip = { code: "Skip", reasons: [] };
const success = { code: "Success", reasons: [] };
const errStatus = { code: "Unschedulable", reasons: [ErrReasonDiskConflict] };

interface ConflictCase {
  name: string;
  pod: Pod;
  /** Pods already on node-1. */
  existing: Pod[];
  preFilterWant: { code: string; reasons: string[] };
  want: { code: string; reasons: string[] };
}

function conflictCases(volState: Volume, volState2: Volume, withNoRestriction: boolean): ConflictCase[] {
  const on = (v: Volume, n: string) => makePod().name(n).node("node-1").volume(v).obj();
  const cases: ConflictCase[] = [
    { name: "nothing", pod: makePod().obj(), existing: [], preFilterWant: skip, want: success },
    {
      name: "one state",
      pod: makePod().obj(),
      existing: [on(volState, "e")],
      preFilterWant: skip,
      want: success,
    },
    {
      name: "same state",
      pod: makePod().volume(volState).obj(),
      existing: [on(volState, "e")],
      preFilterWant: success,
      want: errStatus,
    },
    {
      name: "different state",
      pod: makePod().volume(volState2).obj(),
      existing: [on(volState, "e")],
      preFilterWant: success,
      want: success,
    },
  ];
  if (withNoRestriction) {
    cases.push({
      name: "pod with a volume that doesn't have restrictions",
      pod: makePod().volume({ name: "volume with no restriction" }).obj(),
      existing: [],
      preFilterWant: skip,
      want: success,
    });
  }
  return cases;
}

function runConflictCases(cases: ConflictCase[]): void {
  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({
      plugin: volumeRestrictionsPlugin,
      nodes: [node],
      pods: tc.existing,
    });
    const got = h.filter(tc.pod);
    expect(statusSummary(got.preFilter.pluginStatus)).toEqual(tc.preFilterWant);
    if (tc.preFilterWant.code === "Success")
      expect(statusSummary(got.statuses.get("node-1") ?? null)).toEqual(tc.want);
  });
}

describe("TestGCEDiskConflicts", () => {
  runConflictCases(
    conflictCases(
      { name: "v", gcePersistentDisk: { pdName: "foo" } },
      { name: "v", gcePersistentDisk: { pdName: "bar" } },
      true,
    ),
  );
});

describe("TestAWSDiskConflicts", () => {
  runConflictCases(
    conflictCases(
      { name: "v", awsElasticBlockStore: { volumeID: "foo" } },
      { name: "v", awsElasticBlockStore: { volumeID: "bar" } },
      false,
    ),
  );
});

describe("TestRBDDiskConflicts", () => {
  runConflictCases(
    conflictCases(
      { name: "v", rbd: { monitors: ["a", "b"], pool: "foo", image: "bar", fsType: "ext4" } },
      { name: "v", rbd: { monitors: ["c", "d"], pool: "foo", image: "bar", fsType: "ext4" } },
      false,
    ),
  );
});

describe("TestISCSIDiskConflicts", () => {
  runConflictCases(
    conflictCases(
      {
        name: "v",
        iscsi: {
          targetPortal: "127.0.0.1:3260",
          iqn: "iqn.2016-12.server:storage.target01",
          fsType: "ext4",
          lun: 0,
        },
      },
      {
        name: "v",
        iscsi: {
          targetPortal: "127.0.0.1:3260",
          iqn: "iqn.2017-12.server:storage.target01",
          fsType: "ext4",
          lun: 0,
        },
      },
      false,
    ),
  );
});

describe("TestAccessModeConflicts", () => {
  const mk = (name: string, ...pvcs: string[]) => {
    const w = makePod().name(name).namespace("default").node("node-1");
    for (const c of pvcs) w.pvc(c);
    return w.obj();
  };
  const podWithOnePVC = mk("pod-with-one-pvc", "claim-with-rwop-1");
  const podWithTwoPVCs = mk("pod-with-two-pvcs", "claim-with-rwop-1", "claim-with-rwop-2");
  const podWithOneConflict = mk("pod-with-one-conflict", "claim-with-rwop-1");
  const podWithTwoConflicts = mk("pod-with-two-conflicts", "claim-with-rwop-1", "claim-with-rwop-2");
  const podWithReadWriteManyPVC = mk("pod-with-rwx", "claim-with-rwx");
  const pvc = (name: string, mode: string) =>
    makePVC().name(name).namespace("default").accessModes([mode]).obj();
  const readWriteOncePodPVC1 = pvc("claim-with-rwop-1", "ReadWriteOncePod");
  const readWriteOncePodPVC2 = pvc("claim-with-rwop-2", "ReadWriteOncePod");
  const readWriteManyPVC = pvc("claim-with-rwx", "ReadWriteMany");
  // The pod being scheduled is not on a node yet.
  const pending = (p: Pod): Pod => ({
    ...p,
    spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName: undefined },
  });

  const cases: Array<{
    name: string;
    pod: Pod;
    existingPods: Pod[];
    existingPVCs: PersistentVolumeClaim[];
    preFilterWant: { code: string; reasons: string[] };
    want: { code: string; reasons: string[] };
  }> = [
    {
      name: "nothing",
      pod: makePod().obj(),
      existingPods: [],
      existingPVCs: [],
      preFilterWant: skip,
      want: success,
    },
    {
      name: "failed to get PVC",
      pod: pending(podWithOnePVC),
      existingPods: [],
      existingPVCs: [],
      preFilterWant: {
        code: "UnschedulableAndUnresolvable",
        reasons: ['persistentvolumeclaim "claim-with-rwop-1" not found'],
      },
      want: success,
    },
    {
      name: "no access mode conflict",
      pod: pending(podWithOnePVC),
      existingPods: [podWithReadWriteManyPVC],
      existingPVCs: [readWriteOncePodPVC1, readWriteManyPVC],
      preFilterWant: skip,
      want: success,
    },
    {
      name: "access mode conflict, unschedulable",
      pod: pending(podWithOneConflict),
      existingPods: [podWithOnePVC, podWithReadWriteManyPVC],
      existingPVCs: [readWriteOncePodPVC1, readWriteManyPVC],
      preFilterWant: success,
      want: { code: "Unschedulable", reasons: [ErrReasonReadWriteOncePodConflict] },
    },
    {
      name: "two conflicts, unschedulable",
      pod: pending(podWithTwoConflicts),
      existingPods: [podWithTwoPVCs, podWithReadWriteManyPVC],
      existingPVCs: [readWriteOncePodPVC1, readWriteOncePodPVC2, readWriteManyPVC],
      preFilterWant: success,
      want: { code: "Unschedulable", reasons: [ErrReasonReadWriteOncePodConflict] },
    },
  ];

  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({
      plugin: volumeRestrictionsPlugin,
      nodes: [node],
      pods: tc.existingPods,
      objects: { persistentVolumeClaims: tc.existingPVCs },
    });
    const got = h.filter(tc.pod);
    expect(statusSummary(got.preFilter.pluginStatus)).toEqual(tc.preFilterWant);
    if (tc.preFilterWant.code === "Success")
      expect(statusSummary(got.statuses.get("node-1") ?? null)).toEqual(tc.want);
  });

  it("AddPod/RemovePod track pods using the ReadWriteOncePod claim", async () => {
    const h = await createPluginHarness({
      plugin: volumeRestrictionsPlugin,
      nodes: [node],
      pods: [podWithOnePVC],
      objects: { persistentVolumeClaims: [readWriteOncePodPVC1] },
    });
    const pl = h.plugin as VolumeRestrictions;
    const got = h.filter(pending(podWithOneConflict));
    const ni = h.nodeInfo("node-1");
    const pi = ni.pods[0];
    if (!pi) throw new Error("pod missing");
    expect(pl.removePod(got.state, podWithOneConflict, pi, ni)).toBeNull();
    expect(pl.filter(got.state, podWithOneConflict, ni)).toBeNull();
    expect(pl.addPod(got.state, podWithOneConflict, pi, ni)).toBeNull();
    expect(statusSummary(pl.filter(got.state, podWithOneConflict, ni))).toEqual({
      code: "Unschedulable",
      reasons: [ErrReasonReadWriteOncePodConflict],
    });
  });
});
