import type {
  CSINode,
  DeviceClass,
  Namespace,
  Node,
  ObjectMeta,
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
import {
  type ClusterListers,
  type ClusterScopedLister,
  type CustomObject,
  type CustomResource,
  customResourceKey,
  type Lister,
} from "@kubesched/framework";

type Obj = { metadata?: ObjectMeta };

/** A namespaced informer cache over an array (mutable through add/remove). */
export class ArrayLister<T extends Obj> implements Lister<T> {
  constructor(readonly items: T[] = []) {}

  list(namespace?: string): readonly T[] {
    if (namespace === undefined) return this.items;
    return this.items.filter((o) => (o.metadata?.namespace ?? "") === namespace);
  }

  get(namespace: string, name: string): T | undefined {
    return this.items.find((o) => (o.metadata?.namespace ?? "") === namespace && o.metadata?.name === name);
  }

  /** Adds or replaces (same namespace/name) an object. */
  add(obj: T): void {
    const i = this.items.findIndex(
      (o) =>
        (o.metadata?.namespace ?? "") === (obj.metadata?.namespace ?? "") &&
        o.metadata?.name === obj.metadata?.name,
    );
    if (i >= 0) this.items[i] = obj;
    else this.items.push(obj);
  }

  remove(namespace: string, name: string): void {
    const i = this.items.findIndex(
      (o) => (o.metadata?.namespace ?? "") === namespace && o.metadata?.name === name,
    );
    if (i >= 0) this.items.splice(i, 1);
  }
}

/** A cluster-scoped informer cache over an array. */
export class ArrayClusterLister<T extends Obj> implements ClusterScopedLister<T> {
  constructor(readonly items: T[] = []) {}

  list(): readonly T[] {
    return this.items;
  }

  get(name: string): T | undefined {
    return this.items.find((o) => o.metadata?.name === name);
  }

  /** Adds or replaces (same name) an object. */
  add(obj: T): void {
    const i = this.items.findIndex((o) => o.metadata?.name === obj.metadata?.name);
    if (i >= 0) this.items[i] = obj;
    else this.items.push(obj);
  }

  remove(name: string): void {
    const i = this.items.findIndex((o) => o.metadata?.name === name);
    if (i >= 0) this.items.splice(i, 1);
  }
}

/** The objects FakeListers serves (all optional). */
export interface ListerObjects {
  pods: Pod[];
  nodes: Node[];
  namespaces: Namespace[];
  services: Service[];
  replicaSets: ReplicaSet[];
  statefulSets: StatefulSet[];
  replicationControllers: ReplicationController[];
  podDisruptionBudgets: PodDisruptionBudget[];
  persistentVolumes: PersistentVolume[];
  persistentVolumeClaims: PersistentVolumeClaim[];
  storageClasses: StorageClass[];
  csiNodes: CSINode[];
  priorityClasses: PriorityClass[];
  resourceClaims: ResourceClaim[];
  resourceClaimTemplates: ResourceClaimTemplate[];
  resourceSlices: ResourceSlice[];
  deviceClasses: DeviceClass[];
}

/** A declared custom resource and its objects, for FakeListers. */
export interface CustomResourceObjects {
  resource: CustomResource;
  objects?: CustomObject[];
}

/** In-memory ClusterListers over arrays (copies of the given arrays; the objects are shared). */
export class FakeListers implements ClusterListers {
  readonly pods: ArrayLister<Pod>;
  readonly nodes: ArrayClusterLister<Node>;
  readonly namespaces: ArrayClusterLister<Namespace>;
  readonly services: ArrayLister<Service>;
  readonly replicaSets: ArrayLister<ReplicaSet>;
  readonly statefulSets: ArrayLister<StatefulSet>;
  readonly replicationControllers: ArrayLister<ReplicationController>;
  readonly podDisruptionBudgets: ArrayLister<PodDisruptionBudget>;
  readonly persistentVolumes: ArrayClusterLister<PersistentVolume>;
  readonly persistentVolumeClaims: ArrayLister<PersistentVolumeClaim>;
  readonly storageClasses: ArrayClusterLister<StorageClass>;
  readonly csiNodes: ArrayClusterLister<CSINode>;
  readonly priorityClasses: ArrayClusterLister<PriorityClass>;
  readonly resourceClaims: ArrayLister<ResourceClaim>;
  readonly resourceClaimTemplates: ArrayLister<ResourceClaimTemplate>;
  readonly resourceSlices: ArrayClusterLister<ResourceSlice>;
  readonly deviceClasses: ArrayClusterLister<DeviceClass>;

  private readonly customListers = new Map<string, ArrayLister<CustomObject>>();

  /** `custom`: the declared custom resources (only these can be listed) and their objects. */
  constructor(objects: Partial<ListerObjects> = {}, custom: readonly CustomResourceObjects[] = []) {
    for (const c of custom) {
      const key = customResourceKey(c.resource);
      const l = this.customListers.get(key) ?? new ArrayLister<CustomObject>();
      for (const o of c.objects ?? []) l.add(o);
      this.customListers.set(key, l);
    }
    this.pods = new ArrayLister([...(objects.pods ?? [])]);
    this.nodes = new ArrayClusterLister([...(objects.nodes ?? [])]);
    this.namespaces = new ArrayClusterLister([...(objects.namespaces ?? [])]);
    this.services = new ArrayLister([...(objects.services ?? [])]);
    this.replicaSets = new ArrayLister([...(objects.replicaSets ?? [])]);
    this.statefulSets = new ArrayLister([...(objects.statefulSets ?? [])]);
    this.replicationControllers = new ArrayLister([...(objects.replicationControllers ?? [])]);
    this.podDisruptionBudgets = new ArrayLister([...(objects.podDisruptionBudgets ?? [])]);
    this.persistentVolumes = new ArrayClusterLister([...(objects.persistentVolumes ?? [])]);
    this.persistentVolumeClaims = new ArrayLister([...(objects.persistentVolumeClaims ?? [])]);
    this.storageClasses = new ArrayClusterLister([...(objects.storageClasses ?? [])]);
    this.csiNodes = new ArrayClusterLister([...(objects.csiNodes ?? [])]);
    this.priorityClasses = new ArrayClusterLister([...(objects.priorityClasses ?? [])]);
    this.resourceClaims = new ArrayLister([...(objects.resourceClaims ?? [])]);
    this.resourceClaimTemplates = new ArrayLister([...(objects.resourceClaimTemplates ?? [])]);
    this.resourceSlices = new ArrayClusterLister([...(objects.resourceSlices ?? [])]);
    this.deviceClasses = new ArrayClusterLister([...(objects.deviceClasses ?? [])]);
  }

  /** The lister of a declared custom resource (mutable: add/remove); throws for an undeclared one. */
  custom<T extends CustomObject>(resource: CustomResource<T>): ArrayLister<T> {
    const l = this.customListers.get(customResourceKey(resource));
    if (!l)
      throw new Error(
        `custom resource ${customResourceKey(resource)} is not declared by any plugin under test`,
      );
    return l as unknown as ArrayLister<T>;
  }
}
