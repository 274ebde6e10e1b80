// A ClusterSource over a real API server: one informer per kind the scheduler reads, the pod
// writes through the generated client, events.k8s.io events. Start it, wait for the caches to
// sync (upstream WaitForCacheSync), then hand it to Scheduler.create.
import { hostname } from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
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
import {
  type ClusterClient,
  type ClusterListers,
  type CustomObject,
  type CustomResource,
  customResourceKey,
  type Lister,
  type Logger,
} from "@kubesched/framework";
import type {
  ClusterEventHandlers,
  ClusterSource,
  KubeObject,
  OtherResourceKind,
} from "@kubesched/scheduler";
import type { BackoffConfig } from "./backoff";
import { KubeEventRecorder } from "./event-recorder";
import { TokenBucketRateLimiter } from "./flowcontrol";
import { DeletedFinalStateUnknown, Informer, type InformerHandlers } from "./informer";
import { kubeClusterClient } from "./kube-cluster-client";
import type { ClientMetrics } from "./metrics";
import { RawClient } from "./raw-client";
import {
  customResourceSpec,
  deviceTaintRuleResource,
  type ResourceSpec,
  resources,
  type WatchedKind,
  watchedKinds,
} from "./resources";

export interface KubeClusterSourceOptions {
  kubeConfig: KubeConfig;
  /** Host name for the events' reportingInstance; default os.hostname(). */
  host?: string;
  /**
   * clientConnection.qps and burst (default 50 and 100). Each client (the scheduler's, the
   * events', the leader election's) has its own token bucket, as kube-scheduler's clientsets do.
   * A qps below 0 disables the client-side limit.
   */
  qps?: number;
  burst?: number;
  /** Deadline of every API request in ms (default 60 000). */
  requestTimeoutMs?: number;
  /** Retry backoff of the informers (default: client-go's reflector backoff, 800 ms → 30 s). */
  backoff?: BackoffConfig;
  /** Server-side watch timeout, [min, 2*min) seconds (default 300, as client-go). */
  minWatchTimeoutSeconds?: number;
  /** Delay between retries of an event write that got no answer (default 10 s). */
  eventRetrySleepMs?: number;
  /** rest_client_* metrics of every client. */
  metrics?: ClientMetrics;
  /** Where clients log long client-side throttling. */
  logger?: Logger;
  /** Informer and event failures (they are retried or dropped; this is for logging). */
  onError?: (err: Error) => void;
  now?: () => number;
  /** Custom resources the plugins declare (`customResourcesOf(registry)`): one informer each. */
  customResources?: readonly CustomResource[];
  /**
   * Watch DeviceTaintRules in this version (`deviceTaintRuleAPIVersionAt(release)`; upstream's
   * scheduler does with DRADeviceTaintRules on). Absent: not watched.
   */
  deviceTaintRuleAPIVersion?: string;
  /**
   * Watch the DRA kinds (ResourceClaims, ResourceClaimTemplates, ResourceSlices, DeviceClasses;
   * default true). False as upstream's scheduler with DynamicResourceAllocation off (before 1.34
   * by default): their informers do not start and their listers stay empty.
   */
  dynamicResourceAllocation?: boolean;
}

/** The kinds watched only with DynamicResourceAllocation on. */
export const draKinds: readonly WatchedKind[] = [
  "ResourceClaim",
  "ResourceClaimTemplate",
  "ResourceSlice",
  "DeviceClass",
];

/** The object type of each watched kind. */
export interface WatchedObjects {
  Node: Node;
  Pod: Pod;
  Namespace: Namespace;
  PersistentVolume: PersistentVolume;
  PersistentVolumeClaim: PersistentVolumeClaim;
  StorageClass: StorageClass;
  CSINode: CSINode;
  PodDisruptionBudget: PodDisruptionBudget;
  Service: Service;
  ReplicaSet: ReplicaSet;
  StatefulSet: StatefulSet;
  ReplicationController: ReplicationController;
  PriorityClass: PriorityClass;
  ResourceClaim: ResourceClaim;
  ResourceClaimTemplate: ResourceClaimTemplate;
  ResourceSlice: ResourceSlice;
  DeviceClass: DeviceClass;
}

export type Informers = { [K in WatchedKind]: Informer<WatchedObjects[K]> };

export class KubeClusterSource implements ClusterSource {
  /** The scheduler's client: informers, bindings, status patches, preemption. */
  readonly rawClient: RawClient;
  /** The events' client (kube-scheduler's eventClient). */
  readonly eventsClient: RawClient;
  readonly informers: Informers;
  /** One informer per declared custom resource, by group/version/resource. */
  readonly customInformers = new Map<string, Informer<CustomObject>>();
  /** DeviceTaintRules, when watched (`deviceTaintRuleAPIVersion`). */
  readonly deviceTaintRuleInformer: Informer<DeviceTaintRule> | null;
  /** The kinds whose informer starts (every watched kind, but the DRA ones with DRA off). */
  private readonly started: readonly WatchedKind[];
  private readonly recorder: KubeEventRecorder;
  private readonly clusterClient: ClusterClient;
  private readonly handlers: ClusterEventHandlers[] = [];
  private running = false;

  constructor(readonly opts: KubeClusterSourceOptions) {
    this.started =
      opts.dynamicResourceAllocation === false
        ? watchedKinds.filter((k) => !draKinds.includes(k))
        : watchedKinds;
    this.rawClient = this.makeClient("scheduler");
    this.eventsClient = this.makeClient("events");
    const onError = opts.onError;
    const informerOpts = {
      client: this.rawClient,
      ...(opts.backoff ? { backoff: opts.backoff } : {}),
      ...(opts.minWatchTimeoutSeconds !== undefined
        ? { minWatchTimeoutSeconds: opts.minWatchTimeoutSeconds }
        : {}),
    };
    const make = <K extends WatchedKind>(kind: K): Informer<WatchedObjects[K]> =>
      new Informer<WatchedObjects[K]>({
        ...informerOpts,
        resource: resources[kind],
        handlers: this.dispatcher(kind),
        ...(onError
          ? { onError: (err, spec) => onError(new Error(`${spec.kind} informer: ${err.message}`)) }
          : {}),
      });
    this.informers = Object.fromEntries(watchedKinds.map((k) => [k, make(k)])) as Informers;
    this.deviceTaintRuleInformer =
      opts.deviceTaintRuleAPIVersion === undefined
        ? null
        : new Informer<DeviceTaintRule>({
            ...informerOpts,
            resource: deviceTaintRuleResource(opts.deviceTaintRuleAPIVersion),
            handlers: this.otherDispatcher("DeviceTaintRule"),
            ...(onError
              ? { onError: (err, spec) => onError(new Error(`${spec.kind} informer: ${err.message}`)) }
              : {}),
          });
    for (const r of opts.customResources ?? []) {
      const key = customResourceKey(r);
      if (this.customInformers.has(key)) continue;
      this.customInformers.set(
        key,
        new Informer<CustomObject>({
          ...informerOpts,
          resource: customResourceSpec(r),
          handlers: this.customDispatcher(r),
          ...(onError ? { onError: (err) => onError(new Error(`${key} informer: ${err.message}`)) } : {}),
        }),
      );
    }
    this.recorder = new KubeEventRecorder({
      client: this.eventsClient,
      host: opts.host ?? hostname(),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.eventRetrySleepMs !== undefined ? { retrySleepMs: opts.eventRetrySleepMs } : {}),
      ...(onError ? { onError: (err) => onError(new Error(`event: ${err.message}`)) } : {}),
    });
    this.clusterClient = kubeClusterClient(this.rawClient, opts.now ? { now: opts.now } : {});
  }

  /**
   * A client of this connection with its own token bucket (clientConnection.qps/burst), deadline
   * and metrics, e.g. for leader election (kube-scheduler's "leader-election" client).
   */
  makeClient(userAgent: string): RawClient {
    const o = this.opts;
    return new RawClient(o.kubeConfig, {
      rateLimiter: new TokenBucketRateLimiter(o.qps ?? 50, o.burst ?? 100),
      ...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
      ...(o.metrics ? { metrics: o.metrics } : {}),
      ...(o.logger ? { logger: o.logger } : {}),
      userAgent: `kubesched/${userAgent}`,
    });
  }

  /** The collections the informers watch (what the server must serve for them to sync). */
  watchedResources(): ResourceSpec[] {
    return [
      ...this.started.map((k) => this.informers[k].resource),
      ...[...this.customInformers.values()].map((i) => i.resource),
      ...(this.deviceTaintRuleInformer ? [this.deviceTaintRuleInformer.resource] : []),
    ];
  }

  /** Starts every informer (list, then watch). */
  start(): void {
    if (this.running) return;
    this.running = true;
    for (const k of this.started) this.informers[k].start();
    for (const i of this.customInformers.values()) i.start();
    this.deviceTaintRuleInformer?.start();
  }

  /** Resolves when every informer has listed once; false if `signal` aborted first. */
  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const all = Promise.all([
      ...this.started.map((k) => this.informers[k].waitForSync()),
      ...[...this.customInformers.values()].map((i) => i.waitForSync()),
      ...(this.deviceTaintRuleInformer ? [this.deviceTaintRuleInformer.waitForSync()] : []),
    ]).then(() => true);
    if (!signal) return all;
    if (signal.aborted) return false;
    const aborted = new Promise<boolean>((resolve) =>
      signal.addEventListener("abort", () => resolve(false), { once: true }),
    );
    return Promise.race([all, aborted]);
  }

  /** Kinds whose informer has not listed yet (for messages while waiting); custom ones by kind. */
  unsyncedKinds(): string[] {
    return [
      ...this.started.filter((k) => !this.informers[k].hasSynced()),
      ...[...this.customInformers.values()].filter((i) => !i.hasSynced()).map((i) => i.resource.kind),
      ...(this.deviceTaintRuleInformer?.hasSynced() === false ? ["DeviceTaintRule"] : []),
    ];
  }

  /**
   * Stops the informers and the event recorder (queued events are dropped, writes in flight
   * aborted): bounded, whatever the server does.
   */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all([
      ...this.started.map((k) => this.informers[k].stop()),
      ...[...this.customInformers.values()].map((i) => i.stop()),
      ...(this.deviceTaintRuleInformer ? [this.deviceTaintRuleInformer.stop()] : []),
      this.recorder.shutdown(),
    ]);
  }

  /** Aborts the scheduler's writes in flight (bindings, status patches): shutdown gives up on them. */
  abortWrites(reason: string): void {
    this.rawClient.abortAll(reason, true);
  }

  /** Waits for the events posted so far. */
  flushEvents(): Promise<void> {
    return this.recorder.flush();
  }

  /** Calls every subscriber; a handler that throws is reported and the others still run. */
  private deliver(kind: string, fn: (h: ClusterEventHandlers) => void): void {
    for (const h of this.handlers) {
      try {
        fn(h);
      } catch (e) {
        this.opts.onError?.(
          new Error(`${kind} event handler failed: ${e instanceof Error ? e.message : String(e)}`),
        );
      }
    }
  }

  private dispatcher<K extends WatchedKind>(kind: K): InformerHandlers<WatchedObjects[K]> {
    const each = (fn: (h: ClusterEventHandlers) => void): void => this.deliver(kind, fn);
    // upstream eventhandlers.go: a DeletedFinalStateUnknown carries the last state seen.
    const unwrap = (o: KubeObject | DeletedFinalStateUnknown<KubeObject>): KubeObject =>
      o instanceof DeletedFinalStateUnknown ? o.obj : o;
    if (kind === "Node") {
      return {
        add: (o: KubeObject) => each((h) => h.onNodeAdd(o as Node)),
        update: (a: KubeObject, b: KubeObject) => each((h) => h.onNodeUpdate(a as Node, b as Node)),
        delete: (o) => each((h) => h.onNodeDelete(unwrap(o) as Node)),
      };
    }
    if (kind === "Pod") {
      return {
        add: (o: KubeObject) => each((h) => h.onPodAdd(o as Pod)),
        update: (a: KubeObject, b: KubeObject) => each((h) => h.onPodUpdate(a as Pod, b as Pod)),
        delete: (o) => each((h) => h.onPodDelete(unwrap(o) as Pod)),
      };
    }
    return this.otherDispatcher(kind as Exclude<WatchedKind, "Node" | "Pod">);
  }

  private otherDispatcher(kind: OtherResourceKind): InformerHandlers<KubeObject> {
    const each = (fn: (h: ClusterEventHandlers) => void): void => this.deliver(kind, fn);
    const unwrap = (o: KubeObject | DeletedFinalStateUnknown<KubeObject>): KubeObject =>
      o instanceof DeletedFinalStateUnknown ? o.obj : o;
    return {
      add: (o: KubeObject) => each((h) => h.onOtherEvent(kind, "Add", undefined, o)),
      update: (a: KubeObject, b: KubeObject) => each((h) => h.onOtherEvent(kind, "Update", a, b)),
      delete: (o) => each((h) => h.onOtherEvent(kind, "Delete", unwrap(o), undefined)),
    };
  }

  private customDispatcher(r: CustomResource): InformerHandlers<CustomObject> {
    const each = (fn: (h: ClusterEventHandlers) => void): void => this.deliver(r.kind, fn);
    return {
      add: (o) => each((h) => h.onCustomResourceEvent?.(r, "Add", undefined, o)),
      update: (a, b) => each((h) => h.onCustomResourceEvent?.(r, "Update", a, b)),
      delete: (o) =>
        each((h) =>
          h.onCustomResourceEvent?.(
            r,
            "Delete",
            o instanceof DeletedFinalStateUnknown ? o.obj : o,
            undefined,
          ),
        ),
    };
  }

  // ClusterSource

  subscribe(handlers: ClusterEventHandlers): void {
    this.handlers.push(handlers);
    // Replay the caches as adds, nodes before pods (the scheduler subscribes after the sync).
    for (const n of this.informers.Node.store.list()) handlers.onNodeAdd(n);
    for (const p of this.informers.Pod.store.list()) handlers.onPodAdd(p);
  }

  listers(): ClusterListers {
    const i = this.informers;
    return {
      pods: i.Pod.store,
      nodes: i.Node.store,
      namespaces: i.Namespace.store,
      services: i.Service.store,
      replicaSets: i.ReplicaSet.store,
      statefulSets: i.StatefulSet.store,
      replicationControllers: i.ReplicationController.store,
      podDisruptionBudgets: i.PodDisruptionBudget.store,
      persistentVolumes: i.PersistentVolume.store,
      persistentVolumeClaims: i.PersistentVolumeClaim.store,
      storageClasses: i.StorageClass.store,
      csiNodes: i.CSINode.store,
      priorityClasses: i.PriorityClass.store,
      resourceClaims: i.ResourceClaim.store,
      resourceClaimTemplates: i.ResourceClaimTemplate.store,
      resourceSlices: i.ResourceSlice.store,
      deviceClasses: i.DeviceClass.store,
      ...(this.deviceTaintRuleInformer ? { deviceTaintRules: this.deviceTaintRuleInformer.store } : {}),
      custom: <T extends CustomObject>(r: CustomResource<T>): Lister<T> => {
        const informer = this.customInformers.get(customResourceKey(r));
        if (!informer) {
          throw new Error(
            `custom resource ${customResourceKey(r)} (${r.kind}) is not declared by any plugin of the registry (descriptor.customResources)`,
          );
        }
        return informer.store as unknown as Lister<T>;
      },
    };
  }

  client(): ClusterClient {
    return this.clusterClient;
  }

  eventRecorder(): KubeEventRecorder {
    return this.recorder;
  }
}
