// What plugins read of the cluster outside the cycle's snapshot: informer-backed caches (upstream
// SharedInformerFactory listers), including those of the custom resources plugins declare. The
// in-memory cluster (simulation) and the informers of the live source (run) implement them.
import type {
  CSINode,
  DeviceClass,
  DeviceTaintRule,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  PriorityClass,
  ReplicaSet,
  ReplicationController,
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceSlice,
  Service,
  StatefulSet,
  StorageClass,
} from "@kubesched/api";
import type { CustomObject, CustomResource } from "./custom-resources";

/**
 * What changed in an informer cache since a point in its history (kubesched's own: upstream's
 * plugins keep state derived from every object of a kind up to date from informer event
 * handlers). The caches of the in-memory cluster and of the API-server source have it; state kept
 * from every object follows it instead of comparing listings ({@link changeFeedOf}).
 * @public
 */
export interface ChangeFeed<T> {
  /** The point after the latest change (it grows by one per change). */
  changeCursor(): number;
  /**
   * Calls `visit(old, cur)` for each change after `cursor`, in order (`old` undefined: added;
   * `cur` undefined: deleted; both: replaced), and returns true; returns false, visiting nothing,
   * when the cache no longer holds those changes (the caller starts over from its listing).
   */
  changesSince(cursor: number, visit: (old: T | undefined, cur: T | undefined) => void): boolean;
}

/**
 * The lister's change feed when it has one ({@link ChangeFeed}); listers of tests and of
 * third-party sources may not.
 * @public
 */
export function changeFeedOf<T>(lister: Lister<T> | ClusterScopedLister<T>): ChangeFeed<T> | undefined {
  const l = lister as Partial<ChangeFeed<T>>;
  return typeof l.changeCursor === "function" && typeof l.changesSince === "function"
    ? (l as ChangeFeed<T>)
    : undefined;
}

/**
 * A namespaced informer cache (upstream `<Kind>Lister` with `<Kind>NamespaceLister`).
 * @public
 */
export interface Lister<T> {
  /** Every object, or those of one namespace. */
  list(namespace?: string): readonly T[];
  /** The object `namespace/name`, or undefined when the cache does not hold it. */
  get(namespace: string, name: string): T | undefined;
}

/**
 * A cluster-scoped informer cache (upstream `<Kind>Lister` of a cluster-scoped kind).
 * @public
 */
export interface ClusterScopedLister<T> {
  /** Every object. */
  list(): readonly T[];
  /** The object `name`, or undefined when the cache does not hold it. */
  get(name: string): T | undefined;
}

/**
 * Read access to the objects of the custom resources the registry's plugins declare (see
 * {@link CustomResource}).
 * @public
 */
export interface CustomResourceListers {
  /**
   * The informer cache of a declared custom resource (get(namespace, name); "" as the namespace
   * of cluster-scoped objects). Throws when no plugin of the registry declared the resource.
   */
  custom<T extends CustomObject>(resource: CustomResource<T>): Lister<T>;
}

/**
 * Informer-backed reads (upstream SharedInformerFactory listers), through `handle.listers()`,
 * and those of the custom resources the registry's plugins declare. Unlike the cycle's snapshot
 * (`handle.snapshotSharedLister()`), they follow the cluster as events arrive: use them in
 * queueing hints, PreEnqueue and the binding cycle, and for kinds the snapshot does not hold.
 * New kinds are added as new members (not breaking for plugins).
 * @public
 */
export interface ClusterListers extends CustomResourceListers {
  /** Pods, scheduled or not. */
  readonly pods: Lister<Pod>;
  /** Nodes. */
  readonly nodes: ClusterScopedLister<Node>;
  /** Namespaces (InterPodAffinity's namespace selectors). */
  readonly namespaces: ClusterScopedLister<Namespace>;
  /** Services (PodTopologySpread's default selectors). */
  readonly services: Lister<Service>;
  /** ReplicaSets (default selectors). */
  readonly replicaSets: Lister<ReplicaSet>;
  /** StatefulSets (default selectors). */
  readonly statefulSets: Lister<StatefulSet>;
  /** ReplicationControllers (default selectors). */
  readonly replicationControllers: Lister<ReplicationController>;
  /** PodDisruptionBudgets (preemption's victim selection). */
  readonly podDisruptionBudgets: Lister<PodDisruptionBudget>;
  /** PersistentVolumes. */
  readonly persistentVolumes: ClusterScopedLister<PersistentVolume>;
  /** PersistentVolumeClaims. */
  readonly persistentVolumeClaims: Lister<PersistentVolumeClaim>;
  /** StorageClasses. */
  readonly storageClasses: ClusterScopedLister<StorageClass>;
  /** CSINodes (NodeVolumeLimits' attach limits). */
  readonly csiNodes: ClusterScopedLister<CSINode>;
  /** PriorityClasses. */
  readonly priorityClasses: ClusterScopedLister<PriorityClass>;
  /** ResourceClaims (resource.k8s.io/v1; DynamicResources). */
  readonly resourceClaims: Lister<ResourceClaim>;
  /** ResourceClaimTemplates (resource.k8s.io/v1). */
  readonly resourceClaimTemplates: Lister<ResourceClaimTemplate>;
  /** ResourceSlices (resource.k8s.io/v1): the devices drivers publish. */
  readonly resourceSlices: ClusterScopedLister<ResourceSlice>;
  /** DeviceClasses (resource.k8s.io/v1). */
  readonly deviceClasses: ClusterScopedLister<DeviceClass>;
  /**
   * DeviceTaintRules (resource.k8s.io/v1; DRADeviceTaintRules), as upstream's ResourceSlice tracker
   * reads them. Absent where the source does not watch them (the live source).
   */
  readonly deviceTaintRules?: ClusterScopedLister<DeviceTaintRule>;
}
