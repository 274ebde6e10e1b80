// Cases from upstream pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go
// (TestVolumeBinding), run PreFilter → Filter (→ Reserve → PreBind) through the descriptor.
import type { PersistentVolume, PersistentVolumeClaim, Pod } from "@kubesched/api";
import { type ClusterClient, CycleState, isStatus } from "@kubesched/framework";
import { makeNode, makePod, makePV, makePVC, makeStorageClass, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { AnnBindCompleted, AnnSelectedNode } from "./binder";
import { type VolumeBindingArgs, volumeBindingPlugin } from "./index";
import {
  ErrReasonBindConflict,
  ErrReasonNodeConflict,
  ErrReasonPVNotExist,
  ErrReasonUnboundImmediatePVC,
} from "./reasons";
import { setup } from "./test-harness";
import type { VolumeBinding } from "./volume-binding";

const waitSC = makeStorageClass()
  .name("wait-sc")
  .provisioner("pl-a")
  .volumeBindingMode("WaitForFirstConsumer")
  .obj();
const immediateSC = makeStorageClass()
  .name("immediate-sc")
  .provisioner("pl-a")
  .volumeBindingMode("Immediate")
  .obj();
const waitHDDSC = makeStorageClass()
  .name("wait-hdd-sc")
  .provisioner("pl-b")
  .volumeBindingMode("WaitForFirstConsumer")
  .obj();

const node = (name: string, labels: Record<string, string> = {}) =>
  makeNode()
    .name(name)
    .labels({ "kubernetes.io/hostname": name, ...labels })
    .obj();

const boundPVC = (name: string, sc: string, pv: string): PersistentVolumeClaim =>
  makePVC()
    .name(name)
    .namespace("default")
    .uid(name)
    .storageClassName(sc)
    .volumeName(pv)
    .annotation(AnnBindCompleted, "true")
    .obj();
const unboundPVC = (name: string, sc: string, size = "1Gi"): PersistentVolumeClaim =>
  makePVC()
    .name(name)
    .namespace("default")
    .uid(name)
    .storageClassName(sc)
    .accessModes(["ReadWriteOnce"])
    .resources({ requests: { storage: size } })
    .obj();
const pv = (name: string, sc: string, size = "1Gi", hostnames?: string[]): PersistentVolume => {
  const w = makePV()
    .name(name)
    .storageClassName(sc)
    .accessModes(["ReadWriteOnce"])
    .capacity({ storage: size });
  if (hostnames) w.nodeAffinityIn("kubernetes.io/hostname", hostnames);
  const o = w.obj();
  return { ...o, status: { phase: "Available" } };
};
const podWith = (...claims: string[]): Pod => {
  const w = makePod().name("pod-a").namespace("default");
  for (const c of claims) w.pvc(c);
  return w.obj();
};

type Want = { code: string; reasons: string[] };
const ok: Want = { code: "Success", reasons: [] };
const uau = (...reasons: string[]): Want => ({ code: "UnschedulableAndUnresolvable", reasons });

describe("TestVolumeBinding", () => {
  const nodes = [node("node-a", { "topology.kubernetes.io/zone": "zone-a" }), node("node-b")];
  const cases: Array<{
    name: string;
    pod: Pod;
    pvcs?: PersistentVolumeClaim[];
    pvs?: PersistentVolume[];
    wantPreFilterStatus?: Want;
    wantPreFilterNodes?: string[];
    wantFilterStatus?: Record<string, Want>;
  }> = [
    {
      name: "pod has not pvcs",
      pod: makePod().name("pod-a").obj(),
      wantPreFilterStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "all bound",
      pod: podWith("pvc-a"),
      pvcs: [boundPVC("pvc-a", waitSC.metadata?.name ?? "", "pv-a")],
      pvs: [pv("pv-a", "wait-sc")],
      wantFilterStatus: { "node-a": ok, "node-b": ok },
    },
    {
      name: "all bound with local volumes",
      pod: podWith("pvc-a", "pvc-b"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a"), boundPVC("pvc-b", "wait-sc", "pv-b")],
      pvs: [pv("pv-a", "wait-sc", "1Gi", ["node-a"]), pv("pv-b", "wait-sc", "1Gi", ["node-a"])],
      wantPreFilterNodes: ["node-a"],
      wantFilterStatus: { "node-a": ok, "node-b": uau(ErrReasonNodeConflict) },
    },
    {
      name: "PVC does not exist",
      pod: podWith("pvc-a"),
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-a" not found'),
    },
    {
      name: "Part of PVCs do not exist",
      pod: podWith("pvc-a", "pvc-b"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      pvs: [pv("pv-a", "wait-sc")],
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-b" not found'),
    },
    {
      name: "immediate claims not bound",
      pod: podWith("pvc-a"),
      pvcs: [unboundPVC("pvc-a", "immediate-sc")],
      wantPreFilterStatus: uau(ErrReasonUnboundImmediatePVC),
    },
    {
      name: "unbound claims no matches",
      pod: podWith("pvc-a"),
      pvcs: [unboundPVC("pvc-a", "wait-hdd-sc")],
      pvs: [pv("pv-a", "wait-sc")],
      wantFilterStatus: { "node-a": ok, "node-b": ok },
    },
    {
      name: "bound and unbound unsatisfied",
      pod: podWith("pvc-a", "pvc-b"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a"), unboundPVC("pvc-b", "no-provisioner-sc")],
      pvs: [pv("pv-a", "wait-sc", "1Gi", ["node-b"])],
      wantPreFilterNodes: ["node-b"],
      wantFilterStatus: {
        "node-a": uau(ErrReasonNodeConflict, ErrReasonBindConflict),
        "node-b": uau(ErrReasonBindConflict),
      },
    },
    {
      name: "pv not found",
      pod: podWith("pvc-a"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      wantFilterStatus: { "node-a": uau(ErrReasonPVNotExist), "node-b": uau(ErrReasonPVNotExist) },
    },
    {
      name: "pv not found claim lost",
      pod: podWith("pvc-a"),
      pvcs: [{ ...boundPVC("pvc-a", "wait-sc", "pv-a"), status: { phase: "Lost" } }],
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"'),
    },
  ];
  const noProvisionerSC = makeStorageClass()
    .name("no-provisioner-sc")
    .provisioner("kubernetes.io/no-provisioner")
    .volumeBindingMode("WaitForFirstConsumer")
    .obj();

  it.each(cases)("$name", (tc) => {
    const h = setup<VolumeBindingArgs, VolumeBinding>(volumeBindingPlugin, {
      nodes,
      pvcs: tc.pvcs ?? [],
      pvs: tc.pvs ?? [],
      storageClasses: [waitSC, immediateSC, waitHDDSC, noProvisionerSC],
    });
    const state = new CycleState();
    const r = h.plugin.preFilter(state, tc.pod, h.snapshot.nodeInfoList);
    if (isStatus(r)) {
      expect(statusSummary(r)).toEqual(tc.wantPreFilterStatus ?? ok);
      return;
    }
    expect(tc.wantPreFilterStatus ?? ok).toEqual(ok);
    expect(r?.nodeNames ? [...r.nodeNames].sort() : undefined).toEqual(tc.wantPreFilterNodes);
    for (const [n, want] of Object.entries(tc.wantFilterStatus ?? {})) {
      const ni = h.snapshot.get(n);
      if (!ni) throw new Error(`${n} missing`);
      expect(statusSummary(h.plugin.filter(state, tc.pod, ni)), n).toEqual(want);
    }
  });
});

describe("binding through Reserve and PreBind", () => {
  const nodes = [node("node-a"), node("node-b")];
  const objects = {
    nodes,
    pvcs: [unboundPVC("pvc-a", "wait-sc", "1Gi"), unboundPVC("pvc-b", "wait-sc", "5Gi")],
    pvs: [pv("pv-small", "wait-sc", "1Gi", ["node-a"]), pv("pv-big", "wait-sc", "10Gi", ["node-a"])],
    storageClasses: [waitSC],
  };

  function cycle(
    h: ReturnType<typeof setup<VolumeBindingArgs, VolumeBinding>>,
    pod: Pod,
    nodeName: string,
  ): CycleState {
    const state = new CycleState();
    h.plugin.preFilter(state, pod, h.snapshot.nodeInfoList);
    for (const ni of h.snapshot.nodeInfoList) h.plugin.filter(state, pod, ni);
    expect(h.plugin.reserve(state, pod, nodeName)).toBeNull();
    return state;
  }

  it("binds the smallest fitting PVs on node-a and provisions on node-b", async () => {
    const calls: unknown[] = [];
    const client = {
      bindVolumes: async (
        bindings: Array<{ pvc: PersistentVolumeClaim; pv: PersistentVolume }>,
        provisions: Array<{ pvc: PersistentVolumeClaim; node: string }>,
      ) => {
        calls.push({
          bindings: bindings.map((b) => [
            b.pvc.metadata?.name,
            b.pv.metadata?.name,
            b.pv.spec?.claimRef?.name,
          ]),
          provisions: provisions.map((p) => [
            p.pvc.metadata?.name,
            p.node,
            p.pvc.metadata?.annotations?.[AnnSelectedNode],
          ]),
        });
      },
    } as unknown as ClusterClient;
    const h = setup<VolumeBindingArgs, VolumeBinding>(volumeBindingPlugin, objects, { client });
    const pod = podWith("pvc-a", "pvc-b");
    const a = cycle(h, pod, "node-a");
    expect(h.plugin.preBindPreFlight(a, pod, "node-a")).toBeNull();
    expect(await h.plugin.preBind(a, pod, "node-a")).toBeNull();
    const b = cycle(h, podWith("pvc-a"), "node-b");
    expect(await h.plugin.preBind(b, podWith("pvc-a"), "node-b")).toBeNull();
    expect(calls).toEqual([
      {
        bindings: [
          ["pvc-a", "pv-small", "pvc-a"],
          ["pvc-b", "pv-big", "pvc-b"],
        ],
        provisions: [],
      },
      { bindings: [], provisions: [["pvc-a", "node-b", "node-b"]] },
    ]);
  });

  it("a PV assumed in Reserve is not offered to the next pod until Unreserve", () => {
    const h = setup<VolumeBindingArgs, VolumeBinding>(volumeBindingPlugin, {
      ...objects,
      pvcs: [...objects.pvcs, unboundPVC("pvc-c", "wait-sc", "1Gi")],
      pvs: [pv("pv-small", "wait-sc", "1Gi", ["node-a"])],
    });
    const first = cycle(h, podWith("pvc-a"), "node-a");
    const state = new CycleState();
    const pod2 = makePod().name("pod-b").namespace("default").pvc("pvc-c").obj();
    h.plugin.preFilter(state, pod2, h.snapshot.nodeInfoList);
    const nodeA = h.snapshot.get("node-a");
    if (!nodeA) throw new Error("node-a missing");
    // No PV left and the class provisions: the claim would be provisioned instead.
    expect(h.plugin.filter(state, pod2, nodeA)).toBeNull();
    h.plugin.unreserve(first, podWith("pvc-a"), "node-a");
    const again = new CycleState();
    h.plugin.preFilter(again, pod2, h.snapshot.nodeInfoList);
    h.plugin.filter(again, pod2, nodeA);
    expect(h.plugin.reserve(again, pod2, "node-a")).toBeNull();
  });

  it("fails PreBind with an Error when the client cannot bind volumes", async () => {
    const h = setup<VolumeBindingArgs, VolumeBinding>(volumeBindingPlugin, objects);
    const pod = podWith("pvc-a");
    const s = cycle(h, pod, "node-a");
    expect(statusSummary(await h.plugin.preBind(s, pod, "node-a"))).toEqual({
      code: "Error",
      reasons: ["binding volumes is not supported by this cluster client"],
    });
  });

  it("skips PreBind when every claim is bound", () => {
    const h = setup<VolumeBindingArgs, VolumeBinding>(volumeBindingPlugin, {
      nodes,
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      pvs: [pv("pv-a", "wait-sc")],
      storageClasses: [waitSC],
    });
    const pod = podWith("pvc-a");
    const s = cycle(h, pod, "node-a");
    expect(statusSummary(h.plugin.preBindPreFlight(s, pod, "node-a"))).toEqual({ code: "Skip", reasons: [] });
  });

  it("scores static bindings by the default shape (lower utilization is better)", () => {
    const h = setup<VolumeBindingArgs, VolumeBinding>(volumeBindingPlugin, {
      nodes,
      pvcs: [unboundPVC("pvc-a", "wait-sc", "5Gi")],
      pvs: [pv("pv-a", "wait-sc", "10Gi", ["node-a"]), pv("pv-b", "wait-sc", "50Gi", ["node-b"])],
      storageClasses: [waitSC],
    });
    const pod = podWith("pvc-a");
    const state = new CycleState();
    h.plugin.preFilter(state, pod, h.snapshot.nodeInfoList);
    for (const ni of h.snapshot.nodeInfoList) expect(h.plugin.filter(state, pod, ni)).toBeNull();
    expect(h.plugin.preScore(state, pod, h.snapshot.nodeInfoList)).toBeNull();
    const [na, nb] = h.snapshot.nodeInfoList;
    if (!na || !nb) throw new Error("nodes missing");
    expect([h.plugin.score(state, pod, na), h.plugin.score(state, pod, nb)]).toEqual([50, 90]);
  });
});
