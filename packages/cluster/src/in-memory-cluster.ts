// The in-memory cluster: object stores with informer-style event delivery, listers, and the
// writes the scheduler makes (bind, delete, status patches, events) applied as an API server
// and a kubelet would.
import type {
  CSINode,
  DeviceClass,
  DeviceTaintRule,
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
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceSlice,
  Service,
  StatefulSet,
  StorageClass,
} from "@kubesched/api";
import { formatTime, ResourceAPIVersion } from "@kubesched/api";
import type {
  Clock,
  ClusterClient,
  ClusterListers,
  CustomObject,
  CustomResource,
  EventRecorder,
  EventType,
  PodStatusPatch,
} from "@kubesched/framework";
import {
  type ClusterEventHandlers,
  type ClusterObjectKind,
  type ClusterSource,
  CustomResourceStores,
  type KubeObject,
  ObjectStore,
  type OtherResourceKind,
  objectKey,
} from "@kubesched/scheduler";
import { generatedName } from "./workloads";

/** The part of every Kubernetes object the cluster looks at. */
export type K8sObject = KubeObject;

export const namespacedKinds = new Set([
  "Pod",
  "PersistentVolumeClaim",
  "PodDisruptionBudget",
  "Service",
  "ReplicaSet",
  "StatefulSet",
  "ReplicationController",
  "ResourceClaim",
  "ResourceClaimTemplate",
]);
export const clusterScopedKinds = new Set([
  "Node",
  "Namespace",
  "PriorityClass",
  "PersistentVolume",
  "StorageClass",
  "CSINode",
  "ResourceSlice",
  "DeviceClass",
  "DeviceTaintRule",
]);
/** The kinds a snapshot may contain. */
export type SupportedKind = ClusterObjectKind;

export function isSupportedKind(kind: string | undefined): kind is SupportedKind {
  return kind !== undefined && (namespacedKinds.has(kind) || clusterScopedKinds.has(kind));
}

export interface RecordedEvent {
  type: EventType;
  reason: string;
  action: string;
  note: string;
  regarding: string;
  related: string | null;
  relatedUID: string | null;
  time: number;
}

/** An API error with an HTTP-like reason, as the client would see it. */
export class ApiError extends Error {
  constructor(
    readonly reason: "NotFound" | "Conflict" | "Invalid" | "InternalError" | "AlreadyExists",
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export class InMemoryCluster implements ClusterSource {
  readonly nodes = new ObjectStore<Node>(false);
  readonly pods = new ObjectStore<Pod>(true);
  readonly namespaces = new ObjectStore<Namespace>(false);
  readonly priorityClasses = new ObjectStore<PriorityClass>(false);
  readonly persistentVolumes = new ObjectStore<PersistentVolume>(false);
  readonly persistentVolumeClaims = new ObjectStore<PersistentVolumeClaim>(true);
  readonly storageClasses = new ObjectStore<StorageClass>(false);
  readonly csiNodes = new ObjectStore<CSINode>(false);
  readonly podDisruptionBudgets = new ObjectStore<PodDisruptionBudget>(true);
  readonly services = new ObjectStore<Service>(true);
  readonly replicaSets = new ObjectStore<ReplicaSet>(true);
  readonly statefulSets = new ObjectStore<StatefulSet>(true);
  readonly replicationControllers = new ObjectStore<ReplicationController>(true);
  readonly resourceClaims = new ObjectStore<ResourceClaim>(true);
  readonly resourceClaimTemplates = new ObjectStore<ResourceClaimTemplate>(true);
  readonly resourceSlices = new ObjectStore<ResourceSlice>(false);
  readonly deviceClasses = new ObjectStore<DeviceClass>(false);
  readonly deviceTaintRules = new ObjectStore<DeviceTaintRule>(false);
  readonly events: RecordedEvent[] = [];

  private handlers: ClusterEventHandlers[] = [];
  private resourceVersion = 0;
  private readonly pending: (() => void)[] = [];
  private delivering = false;

  /** The objects of the custom resources the plugins declare. */
  readonly custom: CustomResourceStores;

  /** How long a DELETE through `client()` takes, in the clock's milliseconds (0: at once). */
  readonly deleteLatencyMs: number;
  /** DELETE requests through `client()` not answered yet. */
  private callsInFlight = 0;

  constructor(
    readonly clock: Clock,
    opts: {
      /** Custom resources whose objects the cluster holds (`customResourcesOf(registry)`). */
      customResources?: readonly CustomResource[];
      /**
       * The API latency of a DELETE through `client()` (preemption's victims), on `clock`: the
       * pod goes and the call returns this many milliseconds after it was made. Default 0.
       */
      deleteLatencyMs?: number;
    } = {},
  ) {
    this.custom = new CustomResourceStores(opts.customResources ?? []);
    this.deleteLatencyMs = opts.deleteLatencyMs ?? 0;
  }

  /** API calls through `client()` still waiting out their latency (see `deleteLatencyMs`). */
  pendingCalls(): number {
    return this.callsInFlight;
  }

  private nextRV(): string {
    this.resourceVersion += 1;
    return String(this.resourceVersion);
  }

  /** Delivers events in order; a handler that writes queues its events behind the current one. */
  private emit(fn: (h: ClusterEventHandlers) => void): void {
    if (this.handlers.length === 0) return;
    this.pending.push(() => {
      for (const h of this.handlers) fn(h);
    });
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.pending.shift(); next; next = this.pending.shift()) next();
    } finally {
      this.delivering = false;
    }
  }

  /** The store of each kind (built once: apply and delete look it up for every object). */
  private readonly stores: Record<SupportedKind, ObjectStore<K8sObject>> = this.buildStores();

  private storeFor(kind: SupportedKind): ObjectStore<K8sObject> {
    return this.stores[kind];
  }

  private buildStores(): Record<SupportedKind, ObjectStore<K8sObject>> {
    return {
      Node: this.nodes as ObjectStore<K8sObject>,
      Pod: this.pods as ObjectStore<K8sObject>,
      Namespace: this.namespaces as ObjectStore<K8sObject>,
      PriorityClass: this.priorityClasses as ObjectStore<K8sObject>,
      PersistentVolume: this.persistentVolumes as ObjectStore<K8sObject>,
      PersistentVolumeClaim: this.persistentVolumeClaims as ObjectStore<K8sObject>,
      StorageClass: this.storageClasses as ObjectStore<K8sObject>,
      CSINode: this.csiNodes as ObjectStore<K8sObject>,
      PodDisruptionBudget: this.podDisruptionBudgets as ObjectStore<K8sObject>,
      Service: this.services as ObjectStore<K8sObject>,
      ReplicaSet: this.replicaSets as ObjectStore<K8sObject>,
      ResourceClaim: this.resourceClaims as ObjectStore<K8sObject>,
      ResourceClaimTemplate: this.resourceClaimTemplates as ObjectStore<K8sObject>,
      ResourceSlice: this.resourceSlices as ObjectStore<K8sObject>,
      DeviceClass: this.deviceClasses as ObjectStore<K8sObject>,
      DeviceTaintRule: this.deviceTaintRules as ObjectStore<K8sObject>,
      StatefulSet: this.statefulSets as ObjectStore<K8sObject>,
      ReplicationController: this.replicationControllers as ObjectStore<K8sObject>,
    };
  }

  /** Creates or replaces an object (as `kubectl apply` would) and emits the event. */
  apply(kind: SupportedKind, obj: K8sObject): void {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: this.nextRV() } };
    const old = this.storeFor(kind).set(stored);
    this.notify(kind, old, stored);
  }

  /** Deletes an object and emits the event; false when it did not exist. */
  delete(kind: SupportedKind, obj: K8sObject): boolean {
    const old = this.storeFor(kind).removeKey(objectKey(obj));
    if (!old) return false;
    this.notify(kind, old, undefined);
    return true;
  }

  /**
   * DELETE as the API server handles it (graceful deletion and finalizers). An object with
   * finalizers is only marked: `metadata.deletionTimestamp` is set (now plus the grace period;
   * for a pod also `deletionGracePeriodSeconds`), an update event is emitted, and the object stays
   * until its finalizers are removed (`removeFinalizers`). An object without finalizers goes at
   * once: a bound pod's grace period is not waited for, the simulated kubelet stops it at once.
   * A second request for an object already marked changes nothing.
   * upstream: apiserver registry/generic/registry/store.go Delete, registry/core/pod/strategy.go
   * CheckGracefulDelete (grace 0 for an unscheduled or terminal pod, else
   * terminationGracePeriodSeconds, default 30).
   */
  requestDeletion(kind: SupportedKind, obj: K8sObject): "Deleted" | "Terminating" | "NotFound" {
    const cur = this.storeFor(kind).getByKey(objectKey(obj));
    if (!cur) return "NotFound";
    if (cur.metadata?.deletionTimestamp) return "Terminating";
    if (!cur.metadata?.finalizers?.length) {
      this.delete(kind, cur);
      return "Deleted";
    }
    const grace = kind === "Pod" ? podGracePeriodSeconds(cur as Pod) : 0;
    const metadata = {
      ...cur.metadata,
      deletionTimestamp: formatTime(this.clock.now() + grace * 1000),
      ...(kind === "Pod" ? { deletionGracePeriodSeconds: grace } : {}),
    };
    this.apply(kind, { ...cur, metadata });
    return "Terminating";
  }

  /**
   * Removes finalizers from an object (the named ones, or all), as the controller owning them
   * would; an object marked for deletion that has none left goes (a delete event). False when
   * the object does not exist.
   */
  removeFinalizers(kind: SupportedKind, obj: K8sObject, names?: readonly string[]): boolean {
    const cur = this.storeFor(kind).getByKey(objectKey(obj));
    if (!cur) return false;
    const left = names ? (cur.metadata?.finalizers ?? []).filter((f) => !names.includes(f)) : [];
    if (left.length === 0 && cur.metadata?.deletionTimestamp) {
      this.delete(kind, cur);
      return true;
    }
    const { finalizers: _, ...rest } = cur.metadata ?? {};
    this.apply(kind, { ...cur, metadata: left.length > 0 ? { ...rest, finalizers: left } : rest });
    return true;
  }

  /** Creates or replaces an object of a declared custom resource and emits the event. */
  applyCustom(resource: CustomResource, obj: CustomObject): void {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: this.nextRV() } };
    const old = this.custom.store(resource).set(stored);
    this.emit((h) => h.onCustomResourceEvent?.(resource, old ? "Update" : "Add", old, stored));
  }

  /** Deletes an object of a declared custom resource and emits the event; false when absent. */
  deleteCustom(resource: CustomResource, obj: CustomObject): boolean {
    const old = this.custom.store(resource).removeKey(objectKey(obj));
    if (!old) return false;
    this.emit((h) => h.onCustomResourceEvent?.(resource, "Delete", old, undefined));
    return true;
  }

  private notify(kind: SupportedKind, oldObj: K8sObject | undefined, newObj: K8sObject | undefined): void {
    if (kind === "Node") {
      if (oldObj && newObj) this.emit((h) => h.onNodeUpdate(oldObj as Node, newObj as Node));
      else if (newObj) this.emit((h) => h.onNodeAdd(newObj as Node));
      else if (oldObj) this.emit((h) => h.onNodeDelete(oldObj as Node));
    } else if (kind === "Pod") {
      if (oldObj && newObj) this.emit((h) => h.onPodUpdate(oldObj as Pod, newObj as Pod));
      else if (newObj) this.emit((h) => h.onPodAdd(newObj as Pod));
      else if (oldObj) this.emit((h) => h.onPodDelete(oldObj as Pod));
    } else {
      const action = oldObj && newObj ? "Update" : newObj ? "Add" : "Delete";
      this.emit((h) => h.onOtherEvent(kind as OtherResourceKind, action, oldObj, newObj));
    }
  }

  // ClusterSource

  subscribe(handlers: ClusterEventHandlers): void {
    this.handlers.push(handlers);
    // Replay the current state like an informer's initial list: nodes first, then pods.
    for (const n of this.nodes.list()) handlers.onNodeAdd(n);
    for (const p of this.pods.list()) handlers.onPodAdd(p);
  }

  listers(): ClusterListers {
    return {
      pods: this.pods,
      nodes: this.nodes,
      namespaces: this.namespaces,
      services: this.services,
      replicaSets: this.replicaSets,
      statefulSets: this.statefulSets,
      replicationControllers: this.replicationControllers,
      podDisruptionBudgets: this.podDisruptionBudgets,
      persistentVolumes: this.persistentVolumes,
      persistentVolumeClaims: this.persistentVolumeClaims,
      storageClasses: this.storageClasses,
      csiNodes: this.csiNodes,
      priorityClasses: this.priorityClasses,
      resourceClaims: this.resourceClaims,
      resourceClaimTemplates: this.resourceClaimTemplates,
      resourceSlices: this.resourceSlices,
      deviceClasses: this.deviceClasses,
      deviceTaintRules: this.deviceTaintRules,
      custom: <T extends CustomObject>(resource: CustomResource<T>) => this.custom.custom(resource),
    };
  }

  client(): ClusterClient {
    return {
      bindPod: async (pod, nodeName) => this.bindPod(pod, nodeName),
      deletePod: (pod) => this.afterLatency(this.deleteLatencyMs, () => this.delete("Pod", pod)),
      patchPodStatus: async (pod, patch) => this.patchPodStatus(pod, patch),
      bindVolumes: async (bindings, provisions) => this.bindVolumes(bindings, provisions),
      updateResourceClaim: async (claim) => this.updateResourceClaim(claim, "spec"),
      updateResourceClaimStatus: async (claim) => this.updateResourceClaim(claim, "status"),
      createResourceClaim: async (claim) => this.createResourceClaim(claim),
      deleteResourceClaim: async (claim) => {
        this.requestDeletion("ResourceClaim", claim);
      },
    };
  }

  /** Runs `apply` `ms` from now on the clock (at once for 0): an API call's answer. */
  private afterLatency(ms: number, apply: () => void): Promise<void> {
    if (ms <= 0) {
      apply();
      return Promise.resolve();
    }
    this.callsInFlight++;
    return new Promise((resolve) => {
      this.clock.setTimeout(() => {
        this.callsInFlight--;
        apply();
        resolve();
      }, ms);
    });
  }

  eventRecorder(): EventRecorder {
    return {
      eventf: (regarding, related, type, reason, action, note) => {
        this.events.push({
          type,
          reason,
          action,
          note,
          regarding: objectKey(regarding),
          related: related ? objectKey(related) : null,
          relatedUID: related?.metadata?.uid ?? null,
          time: this.clock.now(),
        });
      },
    };
  }

  /** The clock's time as an RFC 3339 timestamp in seconds (the one of the last second asked, reused). */
  private isoNow(): string {
    const second = Math.floor(this.clock.now() / 1000);
    if (second !== this.isoSecond) {
      this.isoSecond = second;
      this.isoString = formatTime(second * 1000);
    }
    return this.isoString;
  }
  private isoSecond = Number.NaN;
  private isoString = "";

  /** pods/binding, then what the kubelet would do: the pod starts running. */
  bindPod(pod: Pod, nodeName: string): void {
    const cur = this.pods.get(pod.metadata?.namespace ?? "", pod.metadata?.name ?? "");
    if (!cur) throw new ApiError("NotFound", `pods "${pod.metadata?.name ?? ""}" not found`);
    if (pod.metadata?.uid && cur.metadata?.uid && pod.metadata.uid !== cur.metadata.uid) {
      throw new ApiError("Conflict", `pod ${objectKey(pod)} has a different UID`);
    }
    if (cur.metadata?.deletionTimestamp) {
      // upstream: registry/core/pod/storage BindingREST.setPodNodeAndMetadata
      throw new ApiError(
        "InternalError",
        `pod ${cur.metadata.name ?? ""} is being deleted, cannot be assigned to a host`,
      );
    }
    if (cur.spec?.nodeName) {
      throw new ApiError(
        "Conflict",
        `Operation cannot be fulfilled on pods/binding "${cur.metadata?.name ?? ""}": pod ${cur.metadata?.name ?? ""} is already assigned to node "${cur.spec.nodeName}"`,
      );
    }
    const now = this.isoNow();
    const conditions = mergeConditions(cur.status?.conditions, [
      { type: "PodScheduled", status: "True", lastTransitionTime: now },
    ]);
    const next: Pod = {
      ...cur,
      spec: { ...cur.spec, containers: cur.spec?.containers ?? [], nodeName },
      status: { ...cur.status, phase: "Running", startTime: cur.status?.startTime ?? now, conditions },
    };
    this.apply("Pod", next);
  }

  /**
   * What the PV controller and a provisioner would do for VolumeBinding's PreBind: bind each
   * PV to its claim, and provision a volume for each claim on (the zone of) the selected node.
   */
  bindVolumes(
    bindings: ReadonlyArray<{ pvc: PersistentVolumeClaim; pv: PersistentVolume }>,
    provisions: ReadonlyArray<{ pvc: PersistentVolumeClaim; node: string }>,
  ): void {
    for (const { pvc, pv } of bindings) this.bindClaim(pvc, pv);
    for (const { pvc, node } of provisions) {
      const claim =
        this.persistentVolumeClaims.get(pvc.metadata?.namespace ?? "", pvc.metadata?.name ?? "") ?? pvc;
      const n = this.nodes.get(node);
      const zone = n?.metadata?.labels?.["topology.kubernetes.io/zone"];
      const term = zone
        ? { key: "topology.kubernetes.io/zone", operator: "In", values: [zone] }
        : {
            key: "kubernetes.io/hostname",
            operator: "In",
            values: [n?.metadata?.labels?.["kubernetes.io/hostname"] ?? node],
          };
      const pvName =
        `pvc-${claim.metadata?.uid ?? `${claim.metadata?.namespace ?? ""}-${claim.metadata?.name ?? ""}`}`.replace(
          /[^a-z0-9.-]/g,
          "-",
        );
      const pv: PersistentVolume = {
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name: pvName, annotations: { "pv.kubernetes.io/provisioned-by": "kubesched-simulator" } },
        spec: {
          capacity: { storage: claim.spec?.resources?.requests?.storage ?? "1Gi" },
          accessModes: claim.spec?.accessModes ?? ["ReadWriteOnce"],
          persistentVolumeReclaimPolicy: "Delete",
          ...(claim.spec?.storageClassName ? { storageClassName: claim.spec.storageClassName } : {}),
          ...(claim.spec?.volumeMode ? { volumeMode: claim.spec.volumeMode } : {}),
          nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [term] }] } },
        },
      };
      this.apply("PersistentVolume", pv);
      this.bindClaim(claim, pv);
    }
  }

  private bindClaim(pvc: PersistentVolumeClaim, pv: PersistentVolume): void {
    const ns = pvc.metadata?.namespace ?? "";
    const name = pvc.metadata?.name ?? "";
    const curPV = this.persistentVolumes.get(pv.metadata?.name ?? "") ?? pv;
    const boundPV: PersistentVolume = {
      ...curPV,
      spec: {
        ...curPV.spec,
        claimRef: { kind: "PersistentVolumeClaim", namespace: ns, name, uid: pvc.metadata?.uid ?? "" },
      },
      status: { ...curPV.status, phase: "Bound" },
    };
    this.apply("PersistentVolume", boundPV);
    const curPVC = this.persistentVolumeClaims.get(ns, name) ?? pvc;
    const boundPVC: PersistentVolumeClaim = {
      ...curPVC,
      metadata: {
        ...curPVC.metadata,
        annotations: { ...curPVC.metadata?.annotations, "pv.kubernetes.io/bind-completed": "yes" },
      },
      spec: { ...curPVC.spec, volumeName: pv.metadata?.name ?? "" },
      status: {
        ...curPVC.status,
        phase: "Bound",
        ...(curPV.spec?.capacity ? { capacity: curPV.spec.capacity } : {}),
        ...(curPV.spec?.accessModes ? { accessModes: curPV.spec.accessModes } : {}),
      },
    };
    this.apply("PersistentVolumeClaim", boundPVC);
  }

  /**
   * PUT a ResourceClaim (`part` "spec": metadata and spec) or resourceclaims/status (`part`
   * "status"), as the API server does: NotFound when absent, Conflict when the given
   * resourceVersion is stale; the other part is kept from the stored object. Returns the stored
   * object.
   */
  updateResourceClaim(claim: ResourceClaim, part: "spec" | "status"): ResourceClaim {
    const ns = claim.metadata?.namespace ?? "";
    const name = claim.metadata?.name ?? "";
    const cur = this.resourceClaims.get(ns, name);
    if (!cur) throw new ApiError("NotFound", `resourceclaims.resource.k8s.io "${name}" not found`);
    const rv = claim.metadata?.resourceVersion;
    if (
      (rv && rv !== cur.metadata?.resourceVersion) ||
      (claim.metadata?.uid && claim.metadata.uid !== cur.metadata?.uid)
    ) {
      throw new ApiError(
        "Conflict",
        `Operation cannot be fulfilled on resourceclaims.resource.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    const next: ResourceClaim =
      part === "status"
        ? { ...cur, ...(claim.status ? { status: claim.status } : { status: undefined }) }
        : { ...claim, ...(cur.status ? { status: cur.status } : {}) };
    if (next.status === undefined) delete next.status;
    this.apply("ResourceClaim", next);
    return this.resourceClaims.get(ns, name) as ResourceClaim;
  }

  /**
   * POST a ResourceClaim as the API server handles it: a name from `metadata.generateName` when
   * none is given (the name sequence of `generatedName`, keyed by the claim's controller owner so
   * that the same input gives the same names), a uid and creationTimestamp; AlreadyExists when the
   * name is taken. Returns the stored object.
   */
  createResourceClaim(claim: ResourceClaim): ResourceClaim {
    const ns = claim.metadata?.namespace || "default";
    let name = claim.metadata?.name ?? "";
    if (!name) {
      const generateName = claim.metadata?.generateName ?? "";
      if (!generateName)
        throw new ApiError("Invalid", "metadata.name: Required value: name or generateName is required");
      const owner = claim.metadata?.ownerReferences?.find((o) => o.controller === true);
      const key = owner?.uid || `ResourceClaim/${ns}/${generateName}`;
      name = generatedName(generateName.slice(0, 58), key, 0);
      for (let i = 1; this.resourceClaims.get(ns, name); i++)
        name = generatedName(generateName.slice(0, 58), key, i);
    } else if (this.resourceClaims.get(ns, name)) {
      throw new ApiError("AlreadyExists", `resourceclaims.resource.k8s.io "${name}" already exists`);
    }
    const stored: ResourceClaim = {
      apiVersion: ResourceAPIVersion,
      kind: "ResourceClaim",
      ...claim,
      metadata: {
        ...claim.metadata,
        name,
        namespace: ns,
        uid: `${ns}/${name}`,
        creationTimestamp: formatTime(this.clock.now()),
      },
    };
    this.apply("ResourceClaim", stored);
    return this.resourceClaims.get(ns, name) as ResourceClaim;
  }

  patchPodStatus(pod: Pod, patch: PodStatusPatch): void {
    const cur = this.pods.get(pod.metadata?.namespace ?? "", pod.metadata?.name ?? "");
    if (!cur) throw new ApiError("NotFound", `pods "${pod.metadata?.name ?? ""}" not found`);
    const status = { ...cur.status };
    if (patch.conditions) status.conditions = mergeConditions(cur.status?.conditions, patch.conditions);
    if (patch.nominatedNodeName !== undefined) {
      if (patch.nominatedNodeName === null || patch.nominatedNodeName === "") delete status.nominatedNodeName;
      else status.nominatedNodeName = patch.nominatedNodeName;
    }
    if (patch.extendedResourceClaimStatus)
      status.extendedResourceClaimStatus = patch.extendedResourceClaimStatus;
    if (patch.nodeAllocatableResourceClaimStatuses !== undefined) {
      if (patch.nodeAllocatableResourceClaimStatuses.length === 0)
        delete status.nodeAllocatableResourceClaimStatuses;
      else status.nodeAllocatableResourceClaimStatuses = patch.nodeAllocatableResourceClaimStatuses;
    }
    const next: Pod = { ...cur, status };
    this.apply("Pod", next);
  }
}

/** Strategic merge of conditions by type; lastTransitionTime kept when the status did not flip. */
function mergeConditions(existing: PodCondition[] | undefined, updates: PodCondition[]): PodCondition[] {
  const out = [...(existing ?? [])];
  for (const u of updates) {
    const i = out.findIndex((c) => c.type === u.type);
    if (i < 0) out.push(u);
    else {
      const prev = out[i]!;
      out[i] = {
        ...prev,
        ...u,
        lastTransitionTime:
          prev.status === u.status
            ? prev.lastTransitionTime
            : (u.lastTransitionTime ?? prev.lastTransitionTime),
      };
    }
  }
  return out;
}

/** The grace period a DELETE without options gives a pod (upstream CheckGracefulDelete). */
function podGracePeriodSeconds(pod: Pod): number {
  if (!pod.spec?.nodeName) return 0;
  const phase = pod.status?.phase;
  if (phase === "Failed" || phase === "Succeeded") return 0;
  return pod.spec.terminationGracePeriodSeconds ?? 30;
}
