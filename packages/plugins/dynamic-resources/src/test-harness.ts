// Test-only: a plugin built through its descriptor over an in-memory snapshot and listers, run in
// upstream's call order (PreFilter, then Filter unless PreFilter skipped). Kept in one file so the
// tests can move to @kubesched/testing's createPluginHarness without other changes.
import type {
  CSINode,
  Node,
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from "@kubesched/api";
import {
  type ClusterClient,
  type ClusterListers,
  CycleState,
  defaultFeatures,
  type Features,
  type FilterPlugin,
  formatFieldErrors,
  type Handle,
  isStatus,
  NodeInfo,
  type NodeInfoLister,
  type Plugin,
  type PluginDescriptor,
  type PreFilterPlugin,
  type SharedLister,
  type Status,
} from "@kubesched/framework";

type Obj = { metadata?: ObjectMeta };

function lister<T extends Obj>(items: readonly T[]) {
  return {
    list: (namespace?: string) =>
      namespace === undefined ? items : items.filter((o) => (o.metadata?.namespace ?? "") === namespace),
    get: (namespace: string, name: string) =>
      items.find((o) => (o.metadata?.namespace ?? "") === namespace && o.metadata?.name === name),
  };
}

function clusterLister<T extends Obj>(items: readonly T[]) {
  return { list: () => items, get: (name: string) => items.find((o) => o.metadata?.name === name) };
}

export interface HarnessObjects {
  nodes?: Node[];
  /** Pods with spec.nodeName are placed on their node. */
  pods?: Pod[];
  pvs?: PersistentVolume[];
  pvcs?: PersistentVolumeClaim[];
  storageClasses?: StorageClass[];
  csiNodes?: CSINode[];
}

export class TestSnapshot implements SharedLister, NodeInfoLister {
  readonly nodeInfoList: NodeInfo[] = [];
  private readonly byName = new Map<string, NodeInfo>();
  private readonly usedPVCs = new Set<string>();

  constructor(nodes: readonly Node[], pods: readonly Pod[]) {
    for (const n of nodes) {
      const ni = new NodeInfo();
      ni.setNode(n);
      this.nodeInfoList.push(ni);
      this.byName.set(n.metadata?.name ?? "", ni);
    }
    for (const p of pods) {
      const nodeName = p.spec?.nodeName;
      if (!nodeName) continue;
      this.byName.get(nodeName)?.addPod(p);
      for (const v of p.spec?.volumes ?? []) {
        if (v.persistentVolumeClaim)
          this.usedPVCs.add(`${p.metadata?.namespace ?? ""}/${v.persistentVolumeClaim.claimName}`);
      }
    }
  }

  nodeInfos(): NodeInfoLister {
    return this;
  }
  storageInfos() {
    return { isPVCUsedByPods: (key: string) => this.usedPVCs.has(key) };
  }
  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }
  havePodsWithAffinityList(): readonly NodeInfo[] {
    return [];
  }
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return [];
  }
  get(name: string): NodeInfo | undefined {
    return this.byName.get(name);
  }
}

export function fakeListers(o: HarnessObjects): ClusterListers {
  const none = lister<Obj>([]);
  const noneCluster = clusterLister<Obj>([]);
  return {
    pods: lister(o.pods ?? []),
    nodes: clusterLister(o.nodes ?? []),
    namespaces: noneCluster,
    services: none,
    replicaSets: none,
    statefulSets: none,
    replicationControllers: none,
    podDisruptionBudgets: none,
    persistentVolumes: clusterLister(o.pvs ?? []),
    persistentVolumeClaims: lister(o.pvcs ?? []),
    storageClasses: clusterLister(o.storageClasses ?? []),
    csiNodes: clusterLister(o.csiNodes ?? []),
    priorityClasses: noneCluster,
  } as unknown as ClusterListers;
}

export interface Harness<P extends Plugin> {
  plugin: P;
  snapshot: TestSnapshot;
  handle: Handle;
  /** PreFilter's status (null is Success). */
  preFilter(pod: Pod, state?: CycleState): Status | null;
  /** PreFilter then Filter on `nodeName` (Success when PreFilter skipped; PreFilter's status when it failed). */
  run(pod: Pod, nodeName: string): { preFilter: Status | null; filter: Status | null; state: CycleState };
}

export function setup<A, P extends Plugin>(
  descriptor: PluginDescriptor<A>,
  objects: HarnessObjects = {},
  opts: { rawArgs?: unknown; features?: Partial<Features>; client?: ClusterClient } = {},
): Harness<P> {
  const features: Features = { ...defaultFeatures, ...opts.features };
  const snapshot = new TestSnapshot(objects.nodes ?? [], objects.pods ?? []);
  const listers = fakeListers(objects);
  const handle = {
    snapshotSharedLister: () => snapshot,
    listers: () => listers,
    features: () => features,
    client: () => opts.client ?? {},
    clock: () => ({ now: () => 0, setTimeout: () => ({ cancel() {} }) }),
  } as unknown as Handle;
  let args = undefined as A;
  if (descriptor.args) {
    const d = descriptor.args.decode(opts.rawArgs, "args", features);
    const errs = [...d.errors, ...descriptor.args.validate(d.args, "args", features)];
    if (errs.length > 0) throw new Error(formatFieldErrors(errs));
    args = d.args;
  }
  const plugin = descriptor.factory(args, handle) as P;
  const pf = plugin as unknown as PreFilterPlugin & FilterPlugin;
  const preFilter = (pod: Pod, state = new CycleState()): Status | null => {
    const r = pf.preFilter(state, pod, snapshot.nodeInfoList);
    return isStatus(r) ? r : null;
  };
  return {
    plugin,
    snapshot,
    handle,
    preFilter,
    run(pod, nodeName) {
      const state = new CycleState();
      const pre = preFilter(pod, state);
      if (pre && !pre.isSuccess()) return { preFilter: pre, filter: pre.isSkip() ? null : pre, state };
      const ni = snapshot.get(nodeName);
      if (!ni) throw new Error(`node ${nodeName} not in the snapshot`);
      return { preFilter: pre, filter: pf.filter(state, pod, ni), state };
    },
  };
}
