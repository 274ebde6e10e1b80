// Cases from upstream pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go
// (TestVolumeBinding), PreFilter → Filter through createPluginHarness (→ the plugin's Reserve → PreBind).
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from "@kubesched/api";
import type { ClusterClient, CycleState } from "@kubesched/framework";
import {
  createPluginHarness,
  fakeClock,
  type HarnessObjects,
  makeNode,
  makePod,
  makePV,
  makePVC,
  makeStorageClass,
  type PluginHarness,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { AnnBindCompleted, AnnSelectedNode } from "./binder";
import { volumeBindingPlugin } from "./index";
import {
  ErrReasonBindConflict,
  ErrReasonNodeConflict,
  ErrReasonPVNotExist,
  ErrReasonUnboundImmediatePVC,
} from "./reasons";
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

/** VolumeBinding through createPluginHarness (a fake clock: PreBind's timeout never fires). */
async function setup(
  nodes: Node[],
  objects: Partial<HarnessObjects>,
  client?: ClusterClient,
): Promise<{ h: PluginHarness; pl: VolumeBinding }> {
  const h = await createPluginHarness({
    plugin: volumeBindingPlugin,
    nodes,
    objects,
    clock: fakeClock(),
    ...(client ? { client } : {}),
  });
  return { h, pl: h.plugin as VolumeBinding };
}

type Want = { code: string; reasons: string[] };
const ok: Want = { code: "Success", reasons: [] };
const uau = (...reasons: string[]): Want => ({ code: "UnschedulableAndUnresolvable", reasons });

describe("TestVolumeBinding", () => {
  const nodes = [node("node-a", { "topology.kubernetes.io/zone": "zone-a" }), node("node-b")];
  const cases: Array<{
    name: string;
    /** Default: node-a and node-b, hostname labels equal to their names. */
    nodes?: Node[];
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
      // The PVs name hostname-label values; PreFilter narrows to the nodes carrying them.
      name: "all bound with local volumes, hostname labels differ from node names",
      nodes: [
        makeNode().name("node-a").label("kubernetes.io/hostname", "host-a").obj(),
        makeNode().name("node-b").label("kubernetes.io/hostname", "host-b").obj(),
      ],
      pod: podWith("pvc-a"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      pvs: [pv("pv-a", "wait-sc", "1Gi", ["host-a"])],
      wantPreFilterNodes: ["node-a"],
      wantFilterStatus: { "node-a": ok, "node-b": uau(ErrReasonNodeConflict) },
    },
    {
      name: "local volumes pinned to different hosts leave no eligible node",
      pod: podWith("pvc-a", "pvc-b"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a"), boundPVC("pvc-b", "wait-sc", "pv-b")],
      pvs: [pv("pv-a", "wait-sc", "1Gi", ["node-a"]), pv("pv-b", "wait-sc", "1Gi", ["node-b"])],
      wantPreFilterNodes: [],
    },
    {
      name: "a node without the hostname label is not eligible for a local volume",
      nodes: [makeNode().name("node-a").obj(), node("node-b")],
      pod: podWith("pvc-a"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      pvs: [pv("pv-a", "wait-sc", "1Gi", ["node-a"])],
      wantPreFilterNodes: [],
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

  it.each(cases)("$name", async (tc) => {
    const { h } = await setup(tc.nodes ?? nodes, {
      persistentVolumeClaims: tc.pvcs ?? [],
      persistentVolumes: tc.pvs ?? [],
      storageClasses: [waitSC, immediateSC, waitHDDSC, noProvisionerSC],
    });
    const state = h.newCycleState();
    const pre = h.runPreFilter(state, tc.pod);
    if (pre.pluginStatus) {
      expect(statusSummary(pre.pluginStatus)).toEqual(tc.wantPreFilterStatus ?? ok);
      return;
    }
    expect(tc.wantPreFilterStatus ?? ok).toEqual(ok);
    const r = pre.result;
    expect(r?.nodeNames ? [...r.nodeNames].sort() : undefined).toEqual(tc.wantPreFilterNodes);
    for (const [n, want] of Object.entries(tc.wantFilterStatus ?? {})) {
      expect(statusSummary(h.runFilter(state, tc.pod, n)), n).toEqual(want);
    }
  });
});

describe("binding through Reserve and PreBind", () => {
  const nodes = [node("node-a"), node("node-b")];
  const objects = {
    persistentVolumeClaims: [unboundPVC("pvc-a", "wait-sc", "1Gi"), unboundPVC("pvc-b", "wait-sc", "5Gi")],
    persistentVolumes: [
      pv("pv-small", "wait-sc", "1Gi", ["node-a"]),
      pv("pv-big", "wait-sc", "10Gi", ["node-a"]),
    ],
    storageClasses: [waitSC],
  };

  /** PreFilter and Filter on every node through the framework, then the plugin's Reserve. */
  function cycle({ h, pl }: { h: PluginHarness; pl: VolumeBinding }, pod: Pod, nodeName: string): CycleState {
    const { state } = h.filter(pod);
    expect(pl.reserve(state, pod, nodeName)).toBeNull();
    return state;
  }

  it("binds the smallest fitting PVs on node-a and provisions on node-b", async () => {
    const calls: unknown[] = [];
    const client: ClusterClient = {
      bindPod: async () => {},
      deletePod: async () => {},
      patchPodStatus: async () => {},
      bindVolumes: async (
        bindings: ReadonlyArray<{ pvc: PersistentVolumeClaim; pv: PersistentVolume }>,
        provisions: ReadonlyArray<{ pvc: PersistentVolumeClaim; node: string }>,
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
    };
    const t = await setup(nodes, objects, client);
    const pod = podWith("pvc-a", "pvc-b");
    const a = cycle(t, pod, "node-a");
    expect(t.pl.preBindPreFlight(a, pod, "node-a")).toBeNull();
    expect(await t.pl.preBind(a, pod, "node-a")).toBeNull();
    const b = cycle(t, podWith("pvc-a"), "node-b");
    expect(await t.pl.preBind(b, podWith("pvc-a"), "node-b")).toBeNull();
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

  it("a PV assumed in Reserve is not offered to the next pod until Unreserve", async () => {
    const t = await setup(nodes, {
      ...objects,
      persistentVolumeClaims: [...objects.persistentVolumeClaims, unboundPVC("pvc-c", "wait-sc", "1Gi")],
      persistentVolumes: [pv("pv-small", "wait-sc", "1Gi", ["node-a"])],
    });
    const { h, pl } = t;
    const first = cycle(t, podWith("pvc-a"), "node-a");
    const state = h.newCycleState();
    const pod2 = makePod().name("pod-b").namespace("default").pvc("pvc-c").obj();
    h.runPreFilter(state, pod2);
    // No PV left and the class provisions: the claim would be provisioned instead.
    expect(h.runFilter(state, pod2, "node-a")).toBeNull();
    pl.unreserve(first, podWith("pvc-a"), "node-a");
    const again = h.newCycleState();
    h.runPreFilter(again, pod2);
    h.runFilter(again, pod2, "node-a");
    expect(pl.reserve(again, pod2, "node-a")).toBeNull();
  });

  it("fails PreBind with an Error when the client cannot bind volumes", async () => {
    const t = await setup(nodes, objects);
    const pod = podWith("pvc-a");
    const s = cycle(t, pod, "node-a");
    expect(statusSummary(await t.pl.preBind(s, pod, "node-a"))).toEqual({
      code: "Error",
      reasons: ["binding volumes is not supported by this cluster client"],
    });
  });

  it("skips PreBind when every claim is bound", async () => {
    const t = await setup(nodes, {
      persistentVolumeClaims: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      persistentVolumes: [pv("pv-a", "wait-sc")],
      storageClasses: [waitSC],
    });
    const pod = podWith("pvc-a");
    const s = cycle(t, pod, "node-a");
    expect(statusSummary(t.pl.preBindPreFlight(s, pod, "node-a"))).toEqual({ code: "Skip", reasons: [] });
  });

  it("scores static bindings by the default shape (lower utilization is better)", async () => {
    const { h } = await setup(nodes, {
      persistentVolumeClaims: [unboundPVC("pvc-a", "wait-sc", "5Gi")],
      persistentVolumes: [
        pv("pv-a", "wait-sc", "10Gi", ["node-a"]),
        pv("pv-b", "wait-sc", "50Gi", ["node-b"]),
      ],
      storageClasses: [waitSC],
    });
    const pod = podWith("pvc-a");
    const { state, statuses } = h.filter(pod);
    for (const s of statuses.values()) expect(s).toBeNull();
    // PreScore, then Score on node-a and node-b (VolumeBinding has no NormalizeScore).
    const out = h.score(pod, undefined, { state });
    expect(out.preScoreStatus).toBeNull();
    expect(out.status).toBeNull();
    expect(out.scores.map((s) => s.score)).toEqual([50, 90]);
  });
});
