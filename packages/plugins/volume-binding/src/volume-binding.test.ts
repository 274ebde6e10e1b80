// upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go (TestVolumeBinding,
// every row) through createPluginHarness, and flows of our own through Reserve and PreBind.
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from "@kubesched/api";
import { type ClusterClient, type CycleState, type Status, seededRandom } from "@kubesched/framework";
import { columnarNodeInfos } from "@kubesched/framework/columnar";
import {
  checkFilterColumns,
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
import { AnnBindCompleted, AnnSelectedNode, type PodVolumes } from "./binder";
import { volumeBindingPlugin } from "./index";
import {
  ErrReasonBindConflict,
  ErrReasonNodeConflict,
  ErrReasonPVNotExist,
  ErrReasonUnboundImmediatePVC,
} from "./reasons";
import { PodVolumesByNode, type VolumeBinding } from "./volume-binding";

const waitSC = makeStorageClass()
  .name("wait-sc")
  .provisioner("pl-a")
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

/** upstream's storage classes: no provisioner, so unbound claims bind only to existing PVs. */
const upstreamClass = (name: string, mode: "Immediate" | "WaitForFirstConsumer") => {
  const sc = makeStorageClass().name(name).volumeBindingMode(mode).obj();
  return { ...sc, provisioner: "" };
};
/** upstream's defaultShapePoint, which its scoring rows pass explicitly: 0 % → 0, 100 % → 10. */
const defaultShapePoint = [
  { utilization: 0, score: 0 },
  { utilization: 100, score: 10 },
];
/** A PV of `size` in class `sc` whose one node-affinity term requires every `labels` pair. */
const pvWithAffinity = (name: string, sc: string, size: string, labels: Record<string, string>) => {
  const o = pv(name, sc, size);
  const matchExpressions = Object.entries(labels).map(([key, v]) => ({ key, operator: "In", values: [v] }));
  return {
    ...o,
    spec: { ...o.spec, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions }] } } },
  };
};
const zonalNode = (name: string, region: string, zone: string) =>
  node(name, { "topology.kubernetes.io/region": region, "topology.kubernetes.io/zone": zone });

// upstream: volume_binding_test.go TestVolumeBinding (kubernetes/kubernetes at 645c553f, the newest
// version in the stored index; the storage classes have no provisioner, as upstream's), PreFilter →
// Filter → PreScore → Score through the harness; and rows of our own (named so) for PreFilter's
// eligible nodes when hostname labels differ from node names.
describe("TestVolumeBinding", () => {
  const cases: Array<{
    name: string;
    pod: Pod;
    nodes: Node[];
    pvcs?: PersistentVolumeClaim[];
    pvs?: PersistentVolume[];
    args?: unknown;
    wantPreFilterStatus?: Want;
    wantPreFilterNodes?: string[];
    wantFilterStatus?: Want[];
    wantPreScoreStatus?: Want;
    wantScores?: number[];
  }> = [
    {
      name: "pod has not pvcs",
      pod: makePod().name("pod-a").obj(),
      nodes: [node("node-a")],
      wantPreFilterStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "all bound",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      pvs: [pv("pv-a", "wait-sc")],
      wantFilterStatus: [ok],
      wantPreScoreStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "all bound with local volumes",
      pod: podWith("pvc-a", "pvc-b"),
      nodes: [node("node-a")],
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a"), boundPVC("pvc-b", "wait-sc", "pv-b")],
      pvs: [
        { ...pv("pv-a", "wait-sc", "1Gi", ["node-a"]), status: { phase: "Bound" } },
        { ...pv("pv-b", "wait-sc", "1Gi", ["node-a"]), status: { phase: "Bound" } },
      ],
      wantPreFilterNodes: ["node-a"],
      wantFilterStatus: [ok],
      wantPreScoreStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "PVC does not exist",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-a" not found'),
    },
    {
      name: "Part of PVCs do not exist",
      pod: podWith("pvc-a", "pvc-b"),
      nodes: [node("node-a")],
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-b" not found'),
    },
    {
      name: "immediate claims not bound",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      pvcs: [unboundPVC("pvc-a", "immediate-sc")],
      wantPreFilterStatus: uau(ErrReasonUnboundImmediatePVC),
    },
    {
      name: "unbound claims no matches",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      pvcs: [unboundPVC("pvc-a", "wait-sc")],
      wantFilterStatus: [uau(ErrReasonBindConflict)],
      wantPreScoreStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "bound and unbound unsatisfied",
      pod: podWith("pvc-a", "pvc-b"),
      nodes: [node("node-a", { foo: "barbar" })],
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a"), unboundPVC("pvc-b", "wait-sc")],
      pvs: [pvWithAffinity("pv-a", "wait-sc", "1Gi", { foo: "bar" })],
      wantFilterStatus: [uau(ErrReasonNodeConflict, ErrReasonBindConflict)],
      wantPreScoreStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "pvc not found",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-a" not found'),
    },
    {
      name: "pv not found",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      wantFilterStatus: [uau(ErrReasonPVNotExist)],
      wantPreScoreStatus: { code: "Skip", reasons: [] },
    },
    {
      name: "pv not found claim lost",
      pod: podWith("pvc-a"),
      nodes: [node("node-a")],
      pvcs: [{ ...boundPVC("pvc-a", "wait-sc", "pv-a"), status: { phase: "Lost" } }],
      wantPreFilterStatus: uau('persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"'),
    },
    {
      name: "local volumes with close capacity are preferred",
      pod: podWith("pvc-a"),
      nodes: [node("node-a"), node("node-b"), node("node-c")],
      pvcs: [unboundPVC("pvc-a", "wait-sc", "50Gi")],
      pvs: [
        pv("pv-a-0", "wait-sc", "200Gi", ["node-a"]),
        pv("pv-a-1", "wait-sc", "200Gi", ["node-a"]),
        pv("pv-b-0", "wait-sc", "100Gi", ["node-b"]),
        pv("pv-b-1", "wait-sc", "100Gi", ["node-b"]),
      ],
      args: { bindTimeoutSeconds: 300, shape: defaultShapePoint },
      wantFilterStatus: [ok, ok, uau(ErrReasonBindConflict)],
      wantScores: [25, 50, 0],
    },
    {
      name: "local volumes with close capacity are preferred (multiple pvcs)",
      pod: makePod().name("pod-a").namespace("default").pvc("pvc-0").pvc("pvc-1").obj(),
      nodes: [node("node-a"), node("node-b"), node("node-c")],
      pvcs: [unboundPVC("pvc-0", "wait-sc", "50Gi"), unboundPVC("pvc-1", "wait-hdd-sc", "100Gi")],
      pvs: [
        pv("pv-a-0", "wait-sc", "200Gi", ["node-a"]),
        pv("pv-a-1", "wait-sc", "200Gi", ["node-a"]),
        pv("pv-a-2", "wait-hdd-sc", "200Gi", ["node-a"]),
        pv("pv-a-3", "wait-hdd-sc", "200Gi", ["node-a"]),
        pv("pv-b-0", "wait-sc", "100Gi", ["node-b"]),
        pv("pv-b-1", "wait-sc", "100Gi", ["node-b"]),
        pv("pv-b-2", "wait-hdd-sc", "100Gi", ["node-b"]),
        pv("pv-b-3", "wait-hdd-sc", "100Gi", ["node-b"]),
      ],
      args: { bindTimeoutSeconds: 300, shape: defaultShapePoint },
      wantFilterStatus: [ok, ok, uau(ErrReasonBindConflict)],
      wantScores: [38, 75, 0],
    },
    ...(
      [
        "zonal volumes with close capacity are preferred",
        "zonal volumes with close capacity are preferred (custom shape)",
      ] as const
    ).map((name) => ({
      name,
      pod: podWith("pvc-a"),
      nodes: [
        zonalNode("zone-a-node-a", "region-a", "zone-a"),
        zonalNode("zone-a-node-b", "region-a", "zone-a"),
        zonalNode("zone-b-node-a", "region-b", "zone-b"),
        zonalNode("zone-b-node-b", "region-b", "zone-b"),
        zonalNode("zone-c-node-a", "region-c", "zone-c"),
        zonalNode("zone-c-node-b", "region-c", "zone-c"),
      ],
      pvcs: [unboundPVC("pvc-a", "wait-sc", "50Gi")],
      pvs: [
        ["pv-a-0", "200Gi", "a"],
        ["pv-a-1", "200Gi", "a"],
        ["pv-b-0", "100Gi", "b"],
        ["pv-b-1", "100Gi", "b"],
      ].map(([n, size, z]) =>
        pvWithAffinity(n as string, "wait-sc", size as string, {
          "topology.kubernetes.io/region": `region-${z}`,
          "topology.kubernetes.io/zone": `zone-${z}`,
        }),
      ),
      args: {
        bindTimeoutSeconds: 300,
        shape: name.endsWith("(custom shape)")
          ? [
              { utilization: 0, score: 0 },
              { utilization: 50, score: 3 },
              { utilization: 100, score: 5 },
            ]
          : defaultShapePoint,
      },
      wantFilterStatus: [ok, ok, ok, ok, uau(ErrReasonBindConflict), uau(ErrReasonBindConflict)],
      wantScores: name.endsWith("(custom shape)") ? [15, 15, 30, 30, 0, 0] : [25, 25, 50, 50, 0, 0],
    })),
    // Our own rows: local PVs name `kubernetes.io/hostname` values, which PreFilter maps to the
    // names of the nodes carrying them (upstream GetEligibleNodes).
    {
      name: "all bound with local volumes, hostname labels differ from node names",
      nodes: [
        makeNode().name("node-a").label("kubernetes.io/hostname", "host-a").obj(),
        makeNode().name("node-b").label("kubernetes.io/hostname", "host-b").obj(),
      ],
      pod: podWith("pvc-a"),
      pvcs: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      pvs: [pv("pv-a", "wait-sc", "1Gi", ["host-a"])],
      wantPreFilterNodes: ["node-a"],
      wantFilterStatus: [ok, uau(ErrReasonNodeConflict)],
    },
    {
      name: "local volumes pinned to different hosts leave no eligible node",
      nodes: [node("node-a"), node("node-b")],
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
  ];

  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({
      plugin: volumeBindingPlugin,
      // upstream's fts: the capacity-scoring gate only where a row sets it (its scoring rows).
      features: { enableStorageCapacityScoring: tc.wantScores !== undefined },
      ...(tc.args !== undefined ? { args: tc.args } : {}),
      nodes: tc.nodes,
      objects: {
        persistentVolumeClaims: tc.pvcs ?? [],
        persistentVolumes: tc.pvs ?? [],
        storageClasses: [
          upstreamClass("immediate-sc", "Immediate"),
          upstreamClass("wait-sc", "WaitForFirstConsumer"),
          upstreamClass("wait-hdd-sc", "WaitForFirstConsumer"),
        ],
      },
      clock: fakeClock(),
    });
    const state = h.newCycleState();
    const pre = h.runPreFilter(state, tc.pod);
    if (pre.pluginStatus) {
      // The framework skips Filter when PreFilter does not succeed.
      expect(statusSummary(pre.pluginStatus)).toEqual(tc.wantPreFilterStatus ?? ok);
      return;
    }
    expect(tc.wantPreFilterStatus ?? ok).toEqual(ok);
    const r = pre.result;
    expect(r?.nodeNames ? [...r.nodeNames].sort() : undefined).toEqual(tc.wantPreFilterNodes);
    const names = tc.nodes.map((n) => n.metadata?.name ?? "");
    (tc.wantFilterStatus ?? []).forEach((want, i) => {
      const n = names[i] ?? "";
      expect(statusSummary(h.runFilter(state, tc.pod, n)), n).toEqual(want);
    });
    if (!tc.wantPreScoreStatus && !tc.wantScores) return;
    const got = h.score(tc.pod, names, { state });
    expect(statusSummary(got.preScoreStatus)).toEqual(tc.wantPreScoreStatus ?? ok);
    if (tc.wantScores) expect(got.scores.map((x) => x.score)).toEqual(tc.wantScores);
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

// Ours: Filter over many nodes (filterColumns, which looks the bound claims' PVs up once per call;
// the harness checks it against filter() on every call) and what it must not remember.
describe("Filter over many nodes", () => {
  const zoned = [
    zonalNode("node-a", "r1", "z1"),
    zonalNode("node-b", "r1", "z2"),
    zonalNode("node-c", "r1", "z1"),
    node("node-d"),
  ];
  const statusesOf = (h: PluginHarness, pod: Pod): (Want | null)[] => {
    const { preFilter, statuses } = h.filter(pod);
    expect(preFilter.status).toBeNull();
    return zoned.map((n) => {
      const s = statuses.get(n.metadata!.name!) ?? null;
      return s === null ? ok : (statusSummary(s) as Want);
    });
  };

  it("checks each bound PV's node affinity per node, in claim order before a missing PV", async () => {
    const { h } = await setup(zoned, {
      persistentVolumeClaims: [
        boundPVC("pvc-a", "wait-sc", "pv-a"),
        boundPVC("pvc-b", "wait-sc", "pv-missing"),
        boundPVC("pvc-c", "wait-sc", "pv-c"),
      ],
      persistentVolumes: [
        pvWithAffinity("pv-a", "wait-sc", "1Gi", { "topology.kubernetes.io/zone": "z1" }),
        pv("pv-c", "wait-sc"),
      ],
      storageClasses: [waitSC],
    });
    expect(statusesOf(h, podWith("pvc-a", "pvc-c"))).toEqual([
      ok,
      uau(ErrReasonNodeConflict),
      ok,
      uau(ErrReasonNodeConflict),
    ]);
    // The PV of the second claim is missing: only nodes passing the first PV get that far.
    expect(statusesOf(h, podWith("pvc-a", "pvc-b"))).toEqual([
      uau(ErrReasonPVNotExist),
      uau(ErrReasonNodeConflict),
      uau(ErrReasonPVNotExist),
      uau(ErrReasonNodeConflict),
    ]);
    expect(statusesOf(h, podWith("pvc-b", "pvc-a"))).toEqual(zoned.map(() => uau(ErrReasonPVNotExist)));
  });

  it("sees PVs added, changed and removed between cycles", async () => {
    // Plugin calls only: the harness's replay in an assembled scheduler does not see lister edits.
    const { h, pl } = await setup(zoned, {
      persistentVolumeClaims: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      persistentVolumes: [],
      storageClasses: [waitSC],
    });
    const pod = podWith("pvc-a");
    const infos = h.snapshot.nodeInfos().list();
    const columns = columnarNodeInfos(h.snapshot.nodeInfos())!.columns();
    const cycle = (): (Want | null)[] => {
      const state = h.newCycleState();
      expect(pl.preFilter(state, pod, infos)).toBeNull();
      checkFilterColumns(pl, state, pod, columns, infos);
      const out: (Status | null)[] = new Array(infos.length);
      const window = {
        columns,
        indices: Int32Array.from(infos, (ni) => columns.indexOf(ni)),
        count: infos.length,
      };
      pl.filterColumns(state, pod, window, out);
      return out.map((s) => (s === null ? ok : (statusSummary(s) as Want)));
    };
    expect(cycle()).toEqual(zoned.map(() => uau(ErrReasonPVNotExist)));
    h.listers.persistentVolumes.add(
      pvWithAffinity("pv-a", "wait-sc", "1Gi", { "topology.kubernetes.io/zone": "z2" }),
    );
    expect(cycle()).toEqual([
      uau(ErrReasonNodeConflict),
      ok,
      uau(ErrReasonNodeConflict),
      uau(ErrReasonNodeConflict),
    ]);
    h.listers.persistentVolumes.remove("pv-a");
    h.listers.persistentVolumes.add(
      pvWithAffinity("pv-a", "wait-sc", "1Gi", { "topology.kubernetes.io/zone": "z1" }),
    );
    expect(cycle()).toEqual([ok, uau(ErrReasonNodeConflict), ok, uau(ErrReasonNodeConflict)]);
    h.listers.persistentVolumes.remove("pv-a");
    h.listers.persistentVolumes.add(pv("pv-a", "wait-sc"));
    expect(cycle()).toEqual(zoned.map(() => ok));
    h.listers.persistentVolumes.remove("pv-a");
    expect(cycle()).toEqual(zoned.map(() => uau(ErrReasonPVNotExist)));
  });

  it("scores 0 everywhere when every claim is bound (no static bindings), as Score per node", async () => {
    const { h } = await setup(zoned, {
      persistentVolumeClaims: [boundPVC("pvc-a", "wait-sc", "pv-a")],
      persistentVolumes: [pv("pv-a", "wait-sc")],
      storageClasses: [waitSC],
    });
    const pod = podWith("pvc-a");
    const { state } = h.filter(pod);
    const out = h.score(pod, undefined, { state, runPreScore: false });
    expect(out.status).toBeNull();
    expect(out.scores.map((s) => s.score)).toEqual([0, 0, 0, 0]);
  });
});

describe("PodVolumesByNode", () => {
  it.each([1, 2, 3])("answers as a Map after random set, append and get (seed %i)", (seed) => {
    const rnd = seededRandom(seed);
    const m = new PodVolumesByNode();
    const want = new Map<string, PodVolumes>();
    const names = Array.from({ length: 12 }, (_, i) => `node-${i}`);
    for (let op = 0; op < 3000; op++) {
      // Names built anew: equal strings, not the same objects.
      const n = `node-${rnd.intn(names.length)}`;
      const v: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
      const r = rnd.intn(10);
      if (r < 4) {
        m.append(n, v);
        want.set(n, v);
      } else if (r < 5) {
        m.set(n, v);
        want.set(n, v);
      } else {
        expect(m.get(n)).toBe(want.get(n));
      }
      expect(m.isEmpty()).toBe(want.size === 0);
    }
    for (const n of names) expect(m.get(n)).toBe(want.get(n));
  });
});
