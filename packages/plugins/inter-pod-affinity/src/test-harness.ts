// Test-only: runs the plugin in upstream's call order over an in-memory snapshot, through the
// descriptor (decode → validate → factory). Kept in one place so the tests can move to
// @kubesched/testing's createPluginHarness without other changes.
import type { Namespace, Node, Pod } from "@kubesched/api";
import {
  CycleState,
  defaultFeatures,
  formatFieldErrors,
  type Handle,
  NodeInfo,
  type NodeInfoLister,
  type NodeScore,
  type SharedLister,
  type Status,
} from "@kubesched/framework";
import { interPodAffinityPlugin } from "./index";
import type { InterPodAffinity, InterPodAffinityOptions } from "./plugin";
import { InterPodAffinity as PluginClass } from "./plugin";

export const namespace = (name: string, labels?: Record<string, string>): Namespace => ({
  metadata: { name, ...(labels ? { labels } : {}) },
});

/** upstream scoring_test.go `namespaces`. */
export const namespaces: Namespace[] = [
  namespace("subteam1.team1", { team: "team1" }),
  namespace("subteam2.team1", { team: "team1" }),
  namespace("subteam1.team2", { team: "team2" }),
  namespace("subteam2.team2", { team: "team2" }),
];

/** A snapshot of nodes and the pods assigned to them (upstream cache.NewSnapshot). */
export class TestSnapshot implements SharedLister, NodeInfoLister {
  readonly nodeInfoList: NodeInfo[];
  private readonly byName = new Map<string, NodeInfo>();

  constructor(pods: readonly Pod[], nodes: readonly Node[]) {
    this.nodeInfoList = nodes.map((n) => {
      const ni = new NodeInfo();
      ni.setNode(n);
      this.byName.set(n.metadata?.name ?? "", ni);
      return ni;
    });
    for (const p of pods) this.byName.get(p.spec?.nodeName ?? "")?.addPod(p);
  }

  nodeInfos(): NodeInfoLister {
    return this;
  }
  storageInfos() {
    return { isPVCUsedByPods: () => false };
  }
  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }
  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.nodeInfoList.filter((n) => n.podsWithAffinity.length > 0);
  }
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.nodeInfoList.filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
  }
  get(name: string): NodeInfo | undefined {
    return this.byName.get(name);
  }
}

export function fakeHandle(snapshot: SharedLister, namespaces: readonly Namespace[] = []): Handle {
  const handle = {
    snapshotSharedLister: () => snapshot,
    listers: () => ({
      namespaces: {
        list: () => namespaces,
        get: (name: string) => namespaces.find((n) => n.metadata?.name === name),
      },
    }),
    features: () => defaultFeatures,
  };
  return handle as unknown as Handle;
}

export interface Setup {
  plugin: InterPodAffinity;
  snapshot: TestSnapshot;
  nodeInfo(name: string): NodeInfo;
}

/** The plugin over a snapshot, built through the descriptor from raw v1 args. */
export function setup(opts: {
  nodes?: Node[];
  pods?: Pod[];
  namespaces?: Namespace[];
  args?: unknown;
  options?: InterPodAffinityOptions;
}): Setup {
  const snapshot = new TestSnapshot(opts.pods ?? [], opts.nodes ?? []);
  const handle = fakeHandle(snapshot, opts.namespaces);
  const spec = interPodAffinityPlugin.args!;
  const { args, errors } = spec.decode(opts.args, "args", defaultFeatures);
  const all = [...errors, ...spec.validate(args, "args", defaultFeatures)];
  if (all.length > 0) throw new Error(formatFieldErrors(all));
  const plugin = opts.options
    ? new PluginClass(args, handle, opts.options)
    : (interPodAffinityPlugin.factory(args, handle) as InterPodAffinity);
  return {
    plugin,
    snapshot,
    nodeInfo: (name) => {
      const ni = snapshot.get(name);
      if (!ni) throw new Error(`no node ${name}`);
      return ni;
    },
  };
}

/** PreFilter, then Filter on every node unless PreFilter did not succeed. */
export function runPreFilterFilter(
  s: Setup,
  pod: Pod,
): { preFilter: Status | null; filter: (Status | null)[]; state: CycleState } {
  const state = new CycleState();
  const pre = s.plugin.preFilter(state, pod, s.snapshot.list());
  const preFilter = pre && "code" in pre ? (pre as Status) : null;
  if (preFilter !== null) return { preFilter, filter: [], state };
  return { preFilter, filter: s.snapshot.list().map((ni) => s.plugin.filter(state, pod, ni)), state };
}

/** PreScore, then Score and NormalizeScore on every node unless PreScore did not succeed. */
export function runPreScoreScore(s: Setup, pod: Pod): { preScore: Status | null; scores: NodeScore[] } {
  const state = new CycleState();
  const nodes = s.snapshot.list();
  const preScore = s.plugin.preScore(state, pod, nodes);
  if (preScore !== null) return { preScore, scores: [] };
  const scores: NodeScore[] = [];
  for (const ni of nodes) {
    const sc = s.plugin.score(state, pod, ni);
    if (typeof sc !== "number") throw new Error(`Score failed: ${sc.message()}`);
    scores.push({ name: ni.nodeName, score: sc });
  }
  const st = s.plugin.normalizeScore(state, pod, scores);
  if (st !== null) throw new Error(`NormalizeScore failed: ${st.message()}`);
  return { preScore, scores };
}
