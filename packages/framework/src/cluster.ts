// What plugins and the engine see of the cluster: informer-backed listers, the writes the
// scheduler makes, events, time and randomness. The in-memory cluster (simulation) and the
// API-server client (run) implement these.
import type {
  CSINode,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
  PodDisruptionBudget,
  PriorityClass,
  ReplicaSet,
  ReplicationController,
  Service,
  StatefulSet,
  StorageClass,
} from "@kubesched/api";
import type { CustomResourceListers } from "./custom-resources";

/** A namespaced informer cache. */
export interface Lister<T> {
  /** Every object, or those of one namespace. */
  list(namespace?: string): readonly T[];
  get(namespace: string, name: string): T | undefined;
}

/** A cluster-scoped informer cache. */
export interface ClusterScopedLister<T> {
  list(): readonly T[];
  get(name: string): T | undefined;
}

/**
 * Informer-backed reads (upstream SharedInformerFactory listers), and those of the custom
 * resources the registry's plugins declare.
 */
export interface ClusterListers extends CustomResourceListers {
  readonly pods: Lister<Pod>;
  readonly nodes: ClusterScopedLister<Node>;
  readonly namespaces: ClusterScopedLister<Namespace>;
  readonly services: Lister<Service>;
  readonly replicaSets: Lister<ReplicaSet>;
  readonly statefulSets: Lister<StatefulSet>;
  readonly replicationControllers: Lister<ReplicationController>;
  readonly podDisruptionBudgets: Lister<PodDisruptionBudget>;
  readonly persistentVolumes: ClusterScopedLister<PersistentVolume>;
  readonly persistentVolumeClaims: Lister<PersistentVolumeClaim>;
  readonly storageClasses: ClusterScopedLister<StorageClass>;
  readonly csiNodes: ClusterScopedLister<CSINode>;
  readonly priorityClasses: ClusterScopedLister<PriorityClass>;
}

/** A status patch the scheduler sends for a pod (strategic merge on conditions by type). */
export interface PodStatusPatch {
  /** Conditions to set, merged by `type`. */
  conditions?: PodCondition[];
  /** A node name to nominate, or null to clear the nomination. */
  nominatedNodeName?: string | null;
}

/** The writes the scheduler makes (upstream: clientset calls). All are asynchronous. */
export interface ClusterClient {
  /** POST pods/binding: sets spec.nodeName (and PodScheduled=True). */
  bindPod(pod: Pod, nodeName: string): Promise<void>;
  /** DELETE the pod (preemption victims). NotFound is not an error. */
  deletePod(pod: Pod): Promise<void>;
  /** PATCH pods/status. */
  patchPodStatus(pod: Pod, patch: PodStatusPatch): Promise<void>;
  /**
   * VolumeBinding's PreBind (upstream SchedulerVolumeBinder.BindPodVolumes): bind each PV to
   * its claim (set `pv.spec.claimRef`; the `pv` given is already the updated object) and, for
   * each claim to provision, set the `volume.kubernetes.io/selected-node` annotation (already on
   * the given `pvc`) so the provisioner creates its volume there. Resolves once every claim is
   * bound; rejects on failure. Optional: without it, pods whose volumes still need binding fail
   * in PreBind with an Error.
   */
  bindVolumes?(
    bindings: ReadonlyArray<{ pvc: PersistentVolumeClaim; pv: PersistentVolume }>,
    provisions: ReadonlyArray<{ pvc: PersistentVolumeClaim; node: string }>,
  ): Promise<void>;
}

export type EventType = "Normal" | "Warning";

/** events.k8s.io recorder (upstream EventRecorder.Eventf). */
export interface EventRecorder {
  eventf(
    regarding: Pod,
    related: Pod | null,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void;
}

export interface Timer {
  cancel(): void;
}

/** Time source; the simulator's clock jumps to the next timer when idle. Milliseconds. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
}

/** The real clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

/** Seeded randomness: every random choice the scheduler makes draws from here. */
export interface Random {
  /** A uniform integer in [0, n). */
  intn(n: number): number;
  /** A uniform float in [0, 1). */
  float(): number;
}

/** mulberry32: small, fast, good enough for tie-breaking and offsets; same seed, same stream. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    float: next,
    intn: (n) => Math.floor(next() * n),
  };
}
