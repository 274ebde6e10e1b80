// Test-only: runs the plugin in upstream's call order over an in-memory snapshot. Kept in one
// place so the tests can move to @kubesched/testing's createPluginHarness without other changes.
import type { Node, Pod, ReplicaSet, ReplicationController, Service, StatefulSet } from "@kubesched/api";
import {
  CycleState,
  defaultFeatures,
  type Features,
  type Handle,
  type Lister,
  NodeInfo,
  type NodeScore,
  PodInfo,
  type Status,
} from "@kubesched/framework";
import { decodePodTopologySpreadArgs } from "./args";
import { podTopologySpreadPlugin } from "./index";
import type { PodTopologySpread } from "./plugin";

export interface Objects {
  services?: Service[];
  replicaSets?: ReplicaSet[];
  statefulSets?: StatefulSet[];
  replicationControllers?: ReplicationController[];
}

function lister<T extends { metadata?: { namespace?: string; name?: string } }>(
  objs: readonly T[],
): Lister<T> {
  return {
    list: (ns?: string) =>
      ns === undefined ? objs : objs.filter((o) => (o.metadata?.namespace ?? "") === ns),
    get: (ns, name) => objs.find((o) => (o.metadata?.namespace ?? "") === ns && o.metadata?.name === name),
  };
}

/** Informer-like listers over the given objects. */
export function fakeListers(objs: Objects = {}) {
  return {
    services: lister(objs.services ?? []),
    replicaSets: lister(objs.replicaSets ?? []),
    statefulSets: lister(objs.statefulSets ?? []),
    replicationControllers: lister(objs.replicationControllers ?? []),
  };
}

/** NodeInfos for the nodes, with the pods whose spec.nodeName names them (in order). */
export function buildNodeInfos(nodes: readonly Node[], pods: readonly Pod[] = []): NodeInfo[] {
  return nodes.map((n) => {
    const ni = new NodeInfo();
    ni.setNode(n);
    for (const p of pods) if (p.spec?.nodeName === n.metadata?.name) ni.addPod(p);
    return ni;
  });
}

export interface Setup {
  plugin: PodTopologySpread;
  nodeInfos: NodeInfo[];
  nodeInfo(name: string): NodeInfo;
}

/** Builds the plugin over a snapshot of `nodes` with `pods` assigned, through the descriptor. */
export function setup(opts: {
  nodes?: Node[];
  pods?: Pod[];
  objs?: Objects;
  args?: unknown;
  features?: Partial<Features>;
}): Setup {
  const nodeInfos = buildNodeInfos(opts.nodes ?? [], opts.pods ?? []);
  const features: Features = { ...defaultFeatures, ...opts.features };
  const objs = opts.objs ?? {};
  const handle = {
    snapshotSharedLister: () => ({
      nodeInfos: () => ({
        list: () => nodeInfos,
        havePodsWithAffinityList: () => [],
        havePodsWithRequiredAntiAffinityList: () => [],
        get: (n: string) => nodeInfos.find((ni) => ni.nodeName === n),
      }),
      storageInfos: () => ({ isPVCUsedByPods: () => false }),
    }),
    listers: () => fakeListers(objs),
    features: () => features,
  } as unknown as Handle;
  const { args, errors } = decodePodTopologySpreadArgs(opts.args, "");
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const plugin = podTopologySpreadPlugin.factory(args, handle) as PodTopologySpread;
  return {
    plugin,
    nodeInfos,
    nodeInfo: (name) => {
      const ni = nodeInfos.find((n) => n.nodeName === name);
      if (!ni) throw new Error(`no node ${name}`);
      return ni;
    },
  };
}

/** PreFilter then Filter on every node (when PreFilter succeeded); statuses by node name. */
export function runPreFilterFilter(
  s: Setup,
  pod: Pod,
): { preFilter: Status | null; state: CycleState; filter: Map<string, Status | null> } {
  const state = new CycleState();
  const pre = s.plugin.preFilter(state, pod, s.nodeInfos) as Status | null;
  const filter = new Map<string, Status | null>();
  if (pre === null) for (const ni of s.nodeInfos) filter.set(ni.nodeName, s.plugin.filter(state, pod, ni));
  return { preFilter: pre, state, filter };
}

/** PreScore on `filtered` then Score and NormalizeScore; scores in `filtered` order. */
export function runScore(
  s: Setup,
  pod: Pod,
  filtered: readonly NodeInfo[],
): { preScore: Status | null; state: CycleState; scores: NodeScore[] } {
  const state = new CycleState();
  const pre = s.plugin.preScore(state, pod, filtered);
  const scores: NodeScore[] = [];
  if (pre !== null) return { preScore: pre, state, scores };
  for (const ni of filtered) {
    const sc = s.plugin.score(state, pod, ni);
    if (typeof sc !== "number") throw new Error(sc.message());
    scores.push({ name: ni.nodeName, score: sc });
  }
  const st = s.plugin.normalizeScore(state, pod, scores);
  if (st !== null) throw new Error(st.message());
  return { preScore: pre, state, scores };
}

export { PodInfo };
