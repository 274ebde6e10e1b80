// Ported from upstream pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go
import {
  LabelFailureDomainBetaRegion as betaRegion,
  LabelFailureDomainBetaZone as betaZone,
  LabelTopologyRegion as gaRegion,
  LabelTopologyZone as gaZone,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
} from "@kubesched/api";
import {
  createPluginHarness,
  makeNode,
  makePod,
  makePV,
  makePVC,
  makeStorageClass,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { volumeZonePlugin } from "./index";
import { ErrReasonConflict } from "./reasons";

const createPodWithVolume = (pod: string, pvc: string): Pod =>
  makePod().name(pod).namespace("default").pvc(pvc).obj();
const pv = (name: string, labels: Record<string, string>): PersistentVolume =>
  makePV().name(name).labels(labels).obj();
const boundPVC = (name: string, volumeName: string): PersistentVolumeClaim =>
  makePVC().name(name).namespace("default").volumeName(volumeName).obj();
const node = (labels: Record<string, string> = {}): Node => makeNode().name("host1").labels(labels).obj();

type Want = { code: string; reasons: string[] };
const ok: Want = { code: "Success", reasons: [] };
const skip: Want = { code: "Skip", reasons: [] };
const conflict: Want = { code: "UnschedulableAndUnresolvable", reasons: [ErrReasonConflict] };
const uau = (msg: string): Want => ({ code: "UnschedulableAndUnresolvable", reasons: [msg] });

interface Case {
  name: string;
  pod: Pod;
  node: Node;
  wantPreFilterStatus?: Want;
  wantFilterStatus?: Want;
}

function run(
  cases: Case[],
  pvs: PersistentVolume[],
  pvcs: PersistentVolumeClaim[],
  storageClasses: StorageClass[] = [],
): void {
  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({
      plugin: volumeZonePlugin,
      nodes: [tc.node],
      objects: { persistentVolumes: pvs, persistentVolumeClaims: pvcs, storageClasses },
    });
    const state = h.newCycleState();
    const pre = h.runPreFilter(state, tc.pod);
    expect(statusSummary(pre.pluginStatus)).toEqual(tc.wantPreFilterStatus ?? ok);
    // upstream calls Filter whatever PreFilter returned; without state it recomputes.
    const filter = h.runFilter(state, tc.pod, "host1");
    expect(statusSummary(filter)).toEqual(tc.wantFilterStatus ?? ok);
  });
}

describe("TestSingleZone", () => {
  const pvs = [
    pv("Vol_1", { [betaZone]: "us-west1-a" }),
    pv("Vol_2", { [betaRegion]: "us-west1", uselessLabel: "none" }),
    pv("Vol_3", { [betaRegion]: "us-west1" }),
    pv("Vol_Stable_1", { [gaZone]: "us-west1-a" }),
    pv("Vol_Stable_2", { [gaRegion]: "us-west1", uselessLabel: "none" }),
    pv("Vol_Stable_3", { [gaZone]: "us-west1-a", [gaRegion]: "us-west1-a" }),
  ];
  const pvcs = [
    boundPVC("PVC_1", "Vol_1"),
    boundPVC("PVC_2", "Vol_2"),
    boundPVC("PVC_3", "Vol_3"),
    boundPVC("PVC_4", "Vol_not_exist"),
    boundPVC("PVC_Stable_1", "Vol_Stable_1"),
    boundPVC("PVC_Stable_2", "Vol_Stable_2"),
    boundPVC("PVC_Stable_3", "Vol_Stable_3"),
  ];
  run(
    [
      {
        name: "pod without volume",
        pod: makePod().name("pod_1").namespace("default").obj(),
        node: node({ [betaZone]: "us-west1-a" }),
        wantPreFilterStatus: skip,
      },
      { name: "node without labels", pod: createPodWithVolume("pod_1", "PVC_1"), node: node() },
      {
        name: "beta zone label matched",
        pod: createPodWithVolume("pod_1", "PVC_1"),
        node: node({ [betaZone]: "us-west1-a", uselessLabel: "none" }),
      },
      {
        name: "beta region label matched",
        pod: createPodWithVolume("pod_1", "PVC_2"),
        node: node({ [betaRegion]: "us-west1", uselessLabel: "none" }),
      },
      {
        name: "beta region label doesn't match",
        pod: createPodWithVolume("pod_1", "PVC_2"),
        node: node({ [betaRegion]: "no_us-west1", uselessLabel: "none" }),
        wantFilterStatus: conflict,
      },
      {
        name: "beta zone label doesn't match",
        pod: createPodWithVolume("pod_1", "PVC_1"),
        node: node({ [betaZone]: "no_us-west1-a", uselessLabel: "none" }),
        wantFilterStatus: conflict,
      },
      {
        name: "zone label matched",
        pod: createPodWithVolume("pod_1", "PVC_Stable_1"),
        node: node({ [gaZone]: "us-west1-a", uselessLabel: "none" }),
      },
      {
        name: "region label matched",
        pod: createPodWithVolume("pod_1", "PVC_Stable_2"),
        node: node({ [gaRegion]: "us-west1", uselessLabel: "none" }),
      },
      {
        name: "region label doesn't match",
        pod: createPodWithVolume("pod_1", "PVC_Stable_2"),
        node: node({ [gaRegion]: "no_us-west1", uselessLabel: "none" }),
        wantFilterStatus: conflict,
      },
      {
        name: "zone label doesn't match",
        pod: createPodWithVolume("pod_1", "PVC_Stable_1"),
        node: node({ [gaZone]: "no_us-west1-a", uselessLabel: "none" }),
        wantFilterStatus: conflict,
      },
      {
        name: "pv with zone and region, node with only zone",
        pod: createPodWithVolume("pod_1", "PVC_Stable_3"),
        node: node({ [gaZone]: "us-west1-a" }),
        wantFilterStatus: conflict,
      },
      {
        name: "pv with zone,node with beta zone",
        pod: createPodWithVolume("pod_1", "PVC_Stable_1"),
        node: node({ [betaZone]: "us-west1-a" }),
        wantFilterStatus: conflict,
      },
      {
        name: "pv with beta label,node with ga label, matched",
        pod: createPodWithVolume("pod_1", "PVC_1"),
        node: node({ [gaZone]: "us-west1-a" }),
      },
      {
        name: "pv with beta label,node with ga label, don't match",
        pod: createPodWithVolume("pod_1", "PVC_1"),
        node: node({ [gaZone]: "us-west1-b" }),
        wantFilterStatus: conflict,
      },
    ],
    pvs,
    pvcs,
  );
});

describe("TestMultiZone", () => {
  const pvs = [
    pv("Vol_1", { [betaZone]: "us-west1-a" }),
    pv("Vol_2", { [betaZone]: "us-west1-b", uselessLabel: "none" }),
    pv("Vol_3", { [betaZone]: "us-west1-c__us-west1-a" }),
    pv("Vol_Stable_1", { [gaZone]: "us-west1-a" }),
    pv("Vol_Stable_2", { [gaZone]: "us-west1-c__us-west1-a" }),
  ];
  const pvcs = [
    boundPVC("PVC_1", "Vol_1"),
    boundPVC("PVC_2", "Vol_2"),
    boundPVC("PVC_3", "Vol_3"),
    boundPVC("PVC_4", "Vol_not_exist"),
    boundPVC("PVC_Stable_1", "Vol_Stable_1"),
    boundPVC("PVC_Stable_2", "Vol_Stable_2"),
  ];
  run(
    [
      { name: "node without labels", pod: createPodWithVolume("pod_1", "PVC_3"), node: node() },
      {
        name: "beta zone label matched",
        pod: createPodWithVolume("pod_1", "PVC_3"),
        node: node({ [betaZone]: "us-west1-a", uselessLabel: "none" }),
      },
      {
        name: "beta zone label doesn't match",
        pod: createPodWithVolume("pod_1", "PVC_1"),
        node: node({ [betaZone]: "us-west1-b", uselessLabel: "none" }),
        wantFilterStatus: conflict,
      },
      {
        name: "zone label matched",
        pod: createPodWithVolume("pod_1", "PVC_Stable_2"),
        node: node({ [gaZone]: "us-west1-a", uselessLabel: "none" }),
      },
      {
        name: "zone label doesn't match",
        pod: createPodWithVolume("pod_1", "PVC_Stable_1"),
        node: node({ [gaZone]: "us-west1-b", uselessLabel: "none" }),
        wantFilterStatus: conflict,
      },
    ],
    pvs,
    pvcs,
  );
});

describe("TestWithBinding", () => {
  const storageClasses = [
    makeStorageClass().name("Class_Immediate").obj(),
    makeStorageClass().name("Class_Wait").volumeBindingMode("WaitForFirstConsumer").obj(),
  ];
  const pvs = [pv("Vol_1", { [betaZone]: "us-west1-a" })];
  const pvcs = [
    boundPVC("PVC_1", "Vol_1"),
    makePVC().name("PVC_NoSC").namespace("default").storageClassName("Class_0").obj(),
    makePVC().name("PVC_EmptySC").namespace("default").obj(),
    makePVC().name("PVC_WaitSC").namespace("default").storageClassName("Class_Wait").obj(),
    makePVC().name("PVC_ImmediateSC").namespace("default").storageClassName("Class_Immediate").obj(),
  ];
  const testNode = node({ [betaZone]: "us-west1-a", uselessLabel: "none" });
  const noPVName = uau("PersistentVolumeClaim had no pv name and storageClass name");
  // upstream's fake lister says `storageclasses.storage.k8s.io`; the informer lister (what
  // kube-scheduler really reports) says `storageclass.storage.k8s.io`.
  const noSC = uau('storageclass.storage.k8s.io "Class_0" not found');
  const noMode = uau('VolumeBindingMode not set for StorageClass "Class_Immediate"');
  run(
    [
      {
        name: "label zone failure domain matched",
        pod: createPodWithVolume("pod_1", "PVC_1"),
        node: testNode,
      },
      {
        name: "unbound volume empty storage class",
        pod: createPodWithVolume("pod_1", "PVC_EmptySC"),
        node: testNode,
        wantPreFilterStatus: noPVName,
        wantFilterStatus: noPVName,
      },
      {
        name: "unbound volume no storage class",
        pod: createPodWithVolume("pod_1", "PVC_NoSC"),
        node: testNode,
        wantPreFilterStatus: noSC,
        wantFilterStatus: noSC,
      },
      {
        name: "unbound volume immediate binding mode",
        pod: createPodWithVolume("pod_1", "PVC_ImmediateSC"),
        node: testNode,
        wantPreFilterStatus: noMode,
        wantFilterStatus: noMode,
      },
      {
        name: "unbound volume wait binding mode",
        pod: createPodWithVolume("pod_1", "PVC_WaitSC"),
        node: testNode,
        wantPreFilterStatus: skip,
      },
    ],
    pvs,
    pvcs,
    storageClasses,
  );
});

describe("missing objects", () => {
  it("reports a missing PVC or PV as upstream's informer listers do", async () => {
    const h = await createPluginHarness({
      plugin: volumeZonePlugin,
      nodes: [node()],
      objects: { persistentVolumeClaims: [boundPVC("PVC_4", "Vol_not_exist")] },
    });
    const preFilter = (pod: Pod) => h.runPreFilter(h.newCycleState(), pod).pluginStatus;
    expect(statusSummary(preFilter(createPodWithVolume("p", "PVC_4")))).toEqual(
      uau('persistentvolume "Vol_not_exist" not found'),
    );
    expect(statusSummary(preFilter(createPodWithVolume("p", "nope")))).toEqual(
      uau('persistentvolumeclaim "nope" not found'),
    );
  });
});
