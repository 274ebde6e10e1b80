// Ported from upstream pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go
import type { CSINode, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from "@kubesched/api";
import {
  createPluginHarness,
  makeCSINode,
  makeNode,
  makePod,
  makePV,
  makePVC,
  makeStorageClass,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodeVolumeLimitsPlugin } from "./index";
import type { CSILimits } from "./node-volume-limits";
import { ErrReasonMaxVolumeCountExceeded } from "./reasons";
import {
  AWSEBSInTreePluginName,
  AWSEBSDriverName as ebsCSIDriverName,
  GCEPDDriverName as gceCSIDriverName,
  MigratedPluginsAnnotationKey,
} from "./translation";

const hostpathInTreePluginName = "kubernetes.io/hostpath";
const scName = "csi-sc";
const nodeName = "node-for-max-pd-test-1";

function getFakeCSIPVLister(volumeName: string, driverNames: string[]): PersistentVolume[] {
  const out: PersistentVolume[] = [];
  for (const driver of driverNames) {
    for (let j = 0; j < 4; j++) {
      const volumeHandle = `${volumeName}-${driver}-${j}`;
      const pv = makePV().name(volumeHandle);
      if (driver === AWSEBSInTreePluginName)
        pv.persistentVolumeSource({ awsElasticBlockStore: { volumeID: volumeHandle } });
      else if (driver === hostpathInTreePluginName) pv.hostPathVolumeSource({ path: "/tmp" });
      else pv.persistentVolumeSource({ csi: { driver, volumeHandle } });
      out.push(pv.obj());
    }
  }
  return out;
}

function getFakeCSIPVCLister(volumeName: string, driverNames: string[]): PersistentVolumeClaim[] {
  const out: PersistentVolumeClaim[] = [];
  for (const driver of driverNames) {
    for (let j = 0; j < 4; j++) {
      const v = `${volumeName}-${driver}-${j}`;
      out.push(makePVC().name(v).volumeName(v).obj());
    }
  }
  out.push(makePVC().name(`${volumeName}-4`).storageClassName(scName).obj());
  out.push(makePVC().name(`${volumeName}-5`).obj());
  // a pvc with missing PV but available storageclass.
  out.push(makePVC().name(`${volumeName}-6`).storageClassName(scName).volumeName("missing-in-action").obj());
  return out;
}

function getFakeCSIStorageClassLister(provisioner: string): StorageClass[] {
  return [makeStorageClass().name(scName).provisioner(provisioner).obj()];
}

/** The CSINode for limitSource "csinode" / "csinode-with-no-limit" / "no-csi-driver" (none otherwise). */
function getCSINode(limitSource: string, limit: number, driverNames: string[]): CSINode | undefined {
  if (
    limitSource !== "csinode" &&
    limitSource !== "csinode-with-no-limit" &&
    limitSource !== "no-csi-driver"
  ) {
    return undefined;
  }
  // upstream enableMigrationOnNode(csiNode, AWSEBSInTreePluginName)
  const w = makeCSINode().name(nodeName).annotation(MigratedPluginsAnnotationKey, AWSEBSInTreePluginName);
  if (limitSource !== "no-csi-driver") {
    for (const d of driverNames) {
      w.driver(
        limitSource === "csinode"
          ? { name: d, nodeID: nodeName, allocatable: { count: limit } }
          : { name: d, nodeID: nodeName },
      );
    }
  }
  return w.obj();
}

const onNode = (p: Pod): Pod => ({
  ...p,
  spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName },
});

const pvcPod = (...claims: string[]): Pod => {
  const w = makePod();
  for (const c of claims) w.pvc(c);
  return w.obj();
};

describe("TestCSILimits", () => {
  const runningPod = pvcPod("csi-ebs.csi.aws.com-3");
  const pendingVolumePod = pvcPod("csi-4");
  // Different pod than pendingVolumePod, but using the same unbound PVC
  const unboundPVCPod2 = makePod().name("unbound2").pvc("csi-4").obj();
  const missingPVPod = pvcPod("csi-6");
  const noSCPVCPod = pvcPod("csi-5");
  const gceTwoVolPod = pvcPod("csi-pd.csi.storage.gke.io-1", "csi-pd.csi.storage.gke.io-2");
  // In-tree volumes
  const inTreeOneVolPod = pvcPod("csi-kubernetes.io/aws-ebs-0");
  const inTreeTwoVolPod = pvcPod("csi-kubernetes.io/aws-ebs-1", "csi-kubernetes.io/aws-ebs-2");
  // pods with matching csi driver names
  const csiEBSOneVolPod = pvcPod("csi-ebs.csi.aws.com-0");
  const csiEBSTwoVolPod = pvcPod("csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2");
  const inTreeNonMigratableOneVolPod = pvcPod("csi-kubernetes.io/hostpath-0");

  const ephemeralVolumePod = makePod()
    .name("abc")
    .namespace("test")
    .uid("12345")
    .volume({ name: "xyz", ephemeral: {} })
    .obj();
  const ephemeralClaim = makePVC().name("abc-xyz").namespace("test").storageClassName(scName).obj();
  ephemeralClaim.metadata = {
    ...ephemeralClaim.metadata,
    ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "abc", uid: "12345", controller: true }],
  };
  const conflictingClaim: PersistentVolumeClaim = {
    ...ephemeralClaim,
    metadata: { ...ephemeralClaim.metadata, ownerReferences: undefined },
  };
  const ephemeralTwoVolumePod = makePod()
    .name("abc")
    .namespace("test")
    .uid("12345II")
    .volume({ name: "x", ephemeral: {} })
    .volume({ name: "y", ephemeral: {} })
    .obj();
  const owned = (claimName: string, uid: string): PersistentVolumeClaim => {
    const c = makePVC().name(claimName).namespace("test").storageClassName(scName).obj();
    c.metadata = {
      ...c.metadata,
      ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "abc", uid, controller: true }],
    };
    return c;
  };
  const ephemeralClaimX = owned("abc-x", "12345II");
  const ephemeralClaimY = owned("abc-y", "12345II");
  const inTreeInlineVolPod = makePod()
    .volume({ name: "", awsElasticBlockStore: { volumeID: "aws-inline1" } })
    .obj();
  const inTreeInlineVolPodWithSameCSIVolumeID = makePod()
    .volume({ name: "", awsElasticBlockStore: { volumeID: "csi-ebs.csi.aws.com-1" } })
    .obj();
  const cmSecret = [
    { name: "", configMap: {} },
    { name: "", secret: {} },
  ];
  const onlyConfigmapAndSecretVolPod = makePod().volumes(cmSecret).obj();
  const pvcPodWithConfigmapAndSecret = makePod()
    .volumes([...cmSecret, { name: "", persistentVolumeClaim: { claimName: "csi-ebs.csi.aws.com-0" } }])
    .obj();
  const ephemeralPodWithConfigmapAndSecret = makePod()
    .name("abc")
    .namespace("test")
    .volumes([...cmSecret, { name: "xyz", ephemeral: {} }])
    .obj();
  const inlineMigratablePodWithConfigmapAndSecret = makePod()
    .volumes([...cmSecret, { name: "", awsElasticBlockStore: { volumeID: "aws-inline1" } }])
    .obj();

  type Want = { code: string; reasons: string[] };
  const exceeded: Want = { code: "Unschedulable", reasons: [ErrReasonMaxVolumeCountExceeded] };
  const ok: Want = { code: "Success", reasons: [] };
  const ephemeralMissing: Want = {
    code: "UnschedulableAndUnresolvable",
    // upstream's fake lister prints `persistentvolumeclaims`; the informer lister says `persistentvolumeclaim`.
    reasons: ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found'],
  };
  const ebs = [ebsCSIDriverName];
  const ebsInTree = [AWSEBSInTreePluginName, ebsCSIDriverName];

  const tests: Array<{
    test: string;
    newPod: Pod;
    existingPods?: Pod[];
    extraClaims?: PersistentVolumeClaim[];
    maxVols?: number;
    driverNames: string[];
    limitSource?: string;
    wantStatus?: Want;
    wantPreFilterStatus?: Want;
  }> = [
    {
      test: "fits when node volume limit >= new pods CSI volume",
      newPod: csiEBSOneVolPod,
      existingPods: [runningPod, csiEBSTwoVolPod],
      maxVols: 4,
      driverNames: ebs,
      limitSource: "csinode",
    },
    {
      test: "doesn't when node volume limit <= pods CSI volume",
      newPod: csiEBSOneVolPod,
      existingPods: [runningPod, csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "should when driver does not support volume limits",
      newPod: csiEBSOneVolPod,
      existingPods: [runningPod, csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode-with-no-limit",
    },
    {
      test: "count pending PVCs towards volume limit <= pods CSI volume",
      newPod: csiEBSOneVolPod,
      existingPods: [pendingVolumePod, csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "count multiple pending pvcs towards volume limit >= pods CSI volume",
      newPod: csiEBSOneVolPod,
      existingPods: [pendingVolumePod, unboundPVCPod2, csiEBSTwoVolPod],
      maxVols: 4,
      driverNames: ebs,
      limitSource: "csinode",
    },
    {
      test: "should count PVCs with invalid PV name but valid SC",
      newPod: csiEBSOneVolPod,
      existingPods: [missingPVPod, csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "don't count pvcs with missing SC towards volume limit",
      newPod: csiEBSOneVolPod,
      existingPods: [runningPod, noSCPVCPod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
    },
    {
      test: "count pvcs with the same type towards volume limit",
      newPod: csiEBSOneVolPod,
      existingPods: [gceTwoVolPod, csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: [ebsCSIDriverName, gceCSIDriverName],
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "don't count pvcs with different type towards volume limit",
      newPod: gceTwoVolPod,
      existingPods: [csiEBSTwoVolPod, runningPod],
      maxVols: 2,
      driverNames: [ebsCSIDriverName, gceCSIDriverName],
      limitSource: "csinode",
    },
    {
      test: "should count in-tree volumes if migration is enabled",
      newPod: inTreeOneVolPod,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "nil csi node",
      newPod: inTreeInlineVolPod,
      existingPods: [inTreeTwoVolPod],
      driverNames: ebsInTree,
    },
    {
      test: "should count unbound in-tree volumes if migration is enabled",
      newPod: pendingVolumePod,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "should not limit pod if volume used does not report limits",
      newPod: inTreeOneVolPod,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode-with-no-limit",
    },
    {
      test: "should not count non-migratable in-tree volumes",
      newPod: inTreeNonMigratableOneVolPod,
      existingPods: [csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: [hostpathInTreePluginName, ebsCSIDriverName],
      limitSource: "csinode",
    },
    {
      test: "should count in-tree inline volumes if migration is enabled",
      newPod: inTreeInlineVolPod,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)",
      newPod: inTreeOneVolPod,
      existingPods: [csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)",
      newPod: inTreeInlineVolPod,
      existingPods: [csiEBSTwoVolPod, inTreeOneVolPod],
      maxVols: 3,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "should not count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)",
      newPod: inTreeInlineVolPodWithSameCSIVolumeID,
      existingPods: [csiEBSTwoVolPod, inTreeOneVolPod],
      maxVols: 3,
      driverNames: ebsInTree,
      limitSource: "csinode",
    },
    {
      test: "should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)",
      newPod: csiEBSOneVolPod,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "ephemeral volume missing",
      newPod: ephemeralVolumePod,
      driverNames: ebs,
      limitSource: "csinode-with-no-limit",
      wantStatus: ephemeralMissing,
    },
    {
      test: "ephemeral volume not owned",
      newPod: ephemeralVolumePod,
      extraClaims: [conflictingClaim],
      driverNames: ebs,
      limitSource: "csinode-with-no-limit",
      wantStatus: {
        code: "Error",
        reasons: ["PVC test/abc-xyz was not created for pod test/abc (pod is not owner)"],
      },
    },
    {
      test: "ephemeral volume unbound",
      newPod: ephemeralVolumePod,
      extraClaims: [ephemeralClaim],
      driverNames: ebs,
      limitSource: "csinode-with-no-limit",
    },
    {
      test: "ephemeral doesn't when node volume limit <= pods CSI volume",
      newPod: ephemeralVolumePod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, csiEBSTwoVolPod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaimX, ephemeralClaimY],
      existingPods: [runningPod, ephemeralTwoVolumePod],
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume, ephemeral disabled",
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      maxVols: 3,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      maxVols: 3,
      driverNames: ebs,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
    {
      test: "persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume",
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      maxVols: 5,
      driverNames: ebs,
      limitSource: "csinode",
    },
    {
      test: "skip Filter when the pod only uses secrets and configmaps",
      newPod: onlyConfigmapAndSecretVolPod,
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
      wantPreFilterStatus: { code: "Skip", reasons: [] },
    },
    {
      test: "don't skip Filter when the pod has pvcs",
      newPod: pvcPodWithConfigmapAndSecret,
      maxVols: 2,
      driverNames: ebs,
      limitSource: "csinode",
    },
    {
      test: "don't skip Filter when the pod has ephemeral volumes",
      newPod: ephemeralPodWithConfigmapAndSecret,
      driverNames: ebs,
      limitSource: "csinode-with-no-limit",
      wantStatus: ephemeralMissing,
    },
    {
      test: "don't skip Filter when the pod has inline migratable volumes",
      newPod: inlineMigratablePodWithConfigmapAndSecret,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      driverNames: ebsInTree,
      limitSource: "csinode",
      wantStatus: exceeded,
    },
  ];

  it.each(tests)("$test", async (tc) => {
    const csiNode = getCSINode(tc.limitSource ?? "", tc.maxVols ?? 0, tc.driverNames);
    const existing = (tc.existingPods ?? []).map((p, i) =>
      onNode({ ...p, metadata: { ...p.metadata, uid: p.metadata?.uid ?? `existing-${i}` } }),
    );
    const h = await createPluginHarness({
      plugin: nodeVolumeLimitsPlugin,
      nodes: [makeNode().name(nodeName).obj()],
      pods: existing,
      objects: {
        persistentVolumes: getFakeCSIPVLister("csi", tc.driverNames),
        persistentVolumeClaims: [...getFakeCSIPVCLister("csi", tc.driverNames), ...(tc.extraClaims ?? [])],
        storageClasses: getFakeCSIStorageClassLister(tc.driverNames[0] ?? ""),
        csiNodes: csiNode ? [csiNode] : [],
      },
    });
    const state = h.newCycleState();
    const pre = h.runPreFilter(state, tc.newPod).pluginStatus;
    expect(statusSummary(pre)).toEqual(tc.wantPreFilterStatus ?? ok);
    if (pre?.isSkip()) return;
    // As upstream, the plugin's own Filter status (the framework would wrap errors).
    const filter =
      pre === null || pre.isSuccess()
        ? (h.plugin as CSILimits).filter(state, tc.newPod, h.nodeInfo(nodeName))
        : pre;
    expect(statusSummary(filter)).toEqual(tc.wantStatus ?? ok);
    if (pre === null || pre.isSuccess()) {
      // Through the framework (and, in the conformance run, the engine): the same code.
      expect(h.runFilter(state, tc.newPod, nodeName)?.code ?? 0).toBe(filter?.code ?? 0);
    }
  });
});

describe("node allocatable limits", () => {
  it("reads attachable-volumes-csi-<driver> from the node when the CSINode has no count", async () => {
    const node = makeNode()
      .name(nodeName)
      .allocatable({ [`attachable-volumes-csi-${ebsCSIDriverName}`]: "1" })
      .obj();
    const h = await createPluginHarness({
      plugin: nodeVolumeLimitsPlugin,
      nodes: [node],
      pods: [onNode(pvcPod("csi-ebs.csi.aws.com-1"))],
      objects: {
        persistentVolumes: getFakeCSIPVLister("csi", [ebsCSIDriverName]),
        persistentVolumeClaims: getFakeCSIPVCLister("csi", [ebsCSIDriverName]),
      },
    });
    expect(statusSummary(h.filter(pvcPod("csi-ebs.csi.aws.com-0")).statuses.get(nodeName) ?? null)).toEqual({
      code: "Unschedulable",
      reasons: [ErrReasonMaxVolumeCountExceeded],
    });
  });
});

// Ours: Filter over many nodes (filterColumns resolves the pod's volumes once per CSINode; the
// harness checks it against filter() on every call).
describe("Filter over many nodes", () => {
  // No CSINode; CSINodes with limits 1, 0 and 3; no CSINode but an allocatable limit of 1.
  const names = ["n-none", "n-migrated", "n-plain", "n-migrated-2", "n-limit-only"];
  const migrated = (name: string, limit: number): CSINode =>
    makeCSINode()
      .name(name)
      .annotation(MigratedPluginsAnnotationKey, AWSEBSInTreePluginName)
      .driver({ name: ebsCSIDriverName, nodeID: name, allocatable: { count: limit } })
      .obj();
  const csiNodes = [
    migrated("n-migrated", 1),
    makeCSINode()
      .name("n-plain")
      .driver({ name: ebsCSIDriverName, nodeID: "n-plain", allocatable: { count: 0 } })
      .obj(),
    migrated("n-migrated-2", 3),
  ];
  const onNamed = (p: Pod, node: string, uid: string): Pod => ({
    ...p,
    metadata: { ...p.metadata, uid, name: uid },
    spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName: node },
  });

  it("decides per node as filter() with and without CSINodes, migration and limits", async () => {
    const drivers = [AWSEBSInTreePluginName, ebsCSIDriverName];
    const h = await createPluginHarness({
      plugin: nodeVolumeLimitsPlugin,
      nodes: names.map((n) =>
        n === "n-limit-only"
          ? makeNode()
              .name(n)
              .allocatable({ [`attachable-volumes-csi-${ebsCSIDriverName}`]: "1" })
              .obj()
          : makeNode().name(n).obj(),
      ),
      pods: names.map((n, i) => onNamed(pvcPod("csi-kubernetes.io/aws-ebs-3"), n, `existing-${i}`)),
      objects: {
        persistentVolumes: getFakeCSIPVLister("csi", drivers),
        persistentVolumeClaims: getFakeCSIPVCLister("csi", drivers),
        storageClasses: getFakeCSIStorageClassLister(ebsCSIDriverName),
        csiNodes,
      },
    });
    const ok = { code: "Success", reasons: [] as string[] };
    const exceeded = { code: "Unschedulable", reasons: [ErrReasonMaxVolumeCountExceeded] };
    const run = (pod: Pod) => {
      const { statuses } = h.filter(pod);
      return names.map((n) => statusSummary(statuses.get(n) ?? null) ?? ok);
    };
    // In-tree EBS: counted only on nodes with a CSINode (migration is GA), one attached there.
    expect(run(pvcPod("csi-kubernetes.io/aws-ebs-0"))).toEqual([ok, exceeded, exceeded, ok, ok]);
    expect(run(pvcPod("csi-kubernetes.io/aws-ebs-0", "csi-kubernetes.io/aws-ebs-1"))).toEqual([
      ok,
      exceeded,
      exceeded,
      ok,
      ok,
    ]);
    // CSI EBS: counted everywhere; the existing in-tree volume only where there is a CSINode.
    expect(run(pvcPod("csi-ebs.csi.aws.com-0", "csi-ebs.csi.aws.com-1"))).toEqual([
      ok,
      exceeded,
      exceeded,
      ok,
      exceeded,
    ]);
    expect(run(pvcPod("csi-ebs.csi.aws.com-0"))).toEqual([ok, exceeded, exceeded, ok, ok]);
  });
});
