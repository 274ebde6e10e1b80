// Test-only: the ported tables run the plugin through the real runtime with @kubesched/testing's
// createPluginHarness (PreFilter → Filter; PreScore → Score → NormalizeScore), in upstream's order.
import type { Node, Pod, ReplicaSet, ReplicationController, Service, StatefulSet } from "@kubesched/api";
import { Code, type CycleState, type Features, NodeInfo, type NodeScore, Status } from "@kubesched/framework";
import { createPluginHarness, FakeListers, type PluginHarness } from "@kubesched/testing";
import { podTopologySpreadPlugin } from "./index";
import type { PodTopologySpread } from "./pod-topology-spread";

export interface Objects {
  services?: Service[];
  replicaSets?: ReplicaSet[];
  statefulSets?: StatefulSet[];
  replicationControllers?: ReplicationController[];
}

/** Informer-like listers over the given objects. */
export function fakeListers(objs: Objects = {}): FakeListers {
  return new FakeListers({ ...objs });
}

/** NodeInfos for the nodes, with the pods whose spec.nodeName names them (for direct calls). */
export function buildNodeInfos(nodes: readonly Node[], pods: readonly Pod[] = []): NodeInfo[] {
  return nodes.map((n) => {
    const ni = new NodeInfo();
    ni.setNode(n);
    for (const p of pods) if (p.spec?.nodeName === n.metadata?.name) ni.addPod(p);
    return ni;
  });
}

export interface Setup {
  harness: PluginHarness;
  plugin: PodTopologySpread;
  /** The snapshot's NodeInfos, in node order. */
  nodeInfos: readonly NodeInfo[];
  nodeInfo(name: string): NodeInfo;
}

/** The plugin in a real framework over a snapshot of `nodes` with `pods` assigned. */
export async function setup(opts: {
  nodes?: Node[];
  pods?: Pod[];
  objs?: Objects;
  args?: unknown;
  features?: Partial<Features>;
}): Promise<Setup> {
  const harness = await createPluginHarness({
    plugin: podTopologySpreadPlugin,
    args: opts.args,
    nodes: opts.nodes ?? [],
    pods: opts.pods ?? [],
    objects: { ...opts.objs },
    features: opts.features ?? {},
  });
  return {
    harness,
    plugin: harness.plugin as PodTopologySpread,
    nodeInfos: harness.snapshot.nodeInfos().list(),
    nodeInfo: (name) => harness.nodeInfo(name),
  };
}

/**
 * PreFilter then Filter on every node (when PreFilter succeeded); statuses by node name. A
 * PreFilter Skip (which the framework records in the state) is reported as a Skip status.
 */
export function runPreFilterFilter(
  s: Setup,
  pod: Pod,
): { preFilter: Status | null; state: CycleState; filter: Map<string, Status | null> } {
  const out = s.harness.filter(pod);
  let preFilter = out.preFilter.status;
  if (preFilter === null && out.state.skipFilterPlugins.has(s.plugin.name()))
    preFilter = new Status(Code.Skip);
  return { preFilter, state: out.state, filter: preFilter === null ? out.statuses : new Map() };
}

/** PreScore on `filtered` then Score and NormalizeScore; scores in `filtered` order. */
export function runScore(
  s: Setup,
  pod: Pod,
  filtered: readonly NodeInfo[],
): { preScore: Status | null; state: CycleState; scores: NodeScore[] } {
  const state = s.harness.newCycleState();
  const out = s.harness.score(
    pod,
    filtered.map((n) => n.nodeName),
    { state },
  );
  if (out.status !== null) throw new Error(out.status.message());
  return { preScore: out.preScoreStatus, state, scores: out.scores };
}

export { PodInfo } from "@kubesched/framework";
