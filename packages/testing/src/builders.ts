// upstream: pkg/scheduler/testing/wrappers.go (st.MakePod(), st.MakeNode(), ...)
//
// Fluent builders producing plain Kubernetes objects. Method names are upstream's in
// camelCase, with upstream's defaults (e.g. MakeNode() has 32 pods of capacity; container names
// con0, con1, ...). Additions over upstream are marked as such. `obj()` returns a fresh copy, so a
// builder can be reused as a template. Every pod gets a deterministic uid `<namespace>/<name>`
// unless one is set with `uid()` (upstream pods often have no uid; ours always do so that
// UID-keyed logic — nominated pods, waiting pods — works without ceremony).
import type {
  Container,
  ContainerPort,
  CSINode,
  LabelSelector,
  LabelSelectorRequirement,
  Namespace,
  Node,
  NodeAffinity,
  NodeCondition,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodAffinityTerm,
  PodCondition,
  PodDisruptionBudget,
  PodResourceClaim,
  PodResourceClaimStatus,
  PodSpec,
  PodStatus,
  PriorityClass,
  ReplicaSet,
  ResourceList,
  ResourceRequirements,
  Service,
  StatefulSet,
  StorageClass,
  Taint,
  Toleration,
  TopologySelectorTerm,
  TopologySpreadConstraint,
  Volume,
} from "./types";

/** Upstream's imageutils.GetPauseImageName(), the image of containers added by req()/res()/lim(). */
export const PauseImage = "registry.k8s.io/pause:3.10.1";

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** metav1.Time from a Date, epoch milliseconds or an RFC 3339 string. */
export type TimeInput = Date | number | string;

function toTime(t: TimeInput): string {
  if (typeof t === "string") return t;
  return (typeof t === "number" ? new Date(t) : t).toISOString();
}

/** ObjectMeta without kubernetes-types' readonly markers (uid, timestamps are server-set). */
type MutableMeta = { -readonly [K in keyof ObjectMeta]: ObjectMeta[K] };

function meta(m: ObjectMeta): MutableMeta {
  return m as MutableMeta;
}

function setLabel(meta: ObjectMeta, k: string, v: string): void {
  if (!meta.labels) meta.labels = {};
  meta.labels[k] = v;
}

function setAnnotation(meta: ObjectMeta, k: string, v: string): void {
  if (!meta.annotations) meta.annotations = {};
  meta.annotations[k] = v;
}

// ---------------------------------------------------------------------------------------------
// NodeSelector

export const NodeSelectorTypeMatchExpressions = 0;
export const NodeSelectorTypeMatchFields = 1;
export type NodeSelectorType = typeof NodeSelectorTypeMatchExpressions | typeof NodeSelectorTypeMatchFields;

export class NodeSelectorWrapper {
  private readonly s: NodeSelector = { nodeSelectorTerms: [] };

  /** Appends a term with one `In` requirement (terms are ORed). */
  in(key: string, values: string[], t: NodeSelectorType = NodeSelectorTypeMatchExpressions): this {
    return this.term({ key, operator: "In", values: [...values] }, t);
  }

  /** Appends a term with one `NotIn` match expression. */
  notIn(key: string, values: string[]): this {
    return this.term({ key, operator: "NotIn", values: [...values] }, NodeSelectorTypeMatchExpressions);
  }

  /** Appends a term with one `Exists` match expression (not in upstream). */
  exists(key: string): this {
    return this.term({ key, operator: "Exists" }, NodeSelectorTypeMatchExpressions);
  }

  /** Appends a raw term (not in upstream). */
  rawTerm(term: NodeSelectorTerm): this {
    this.s.nodeSelectorTerms.push(clone(term));
    return this;
  }

  private term(req: NodeSelectorRequirement, t: NodeSelectorType): this {
    const term: NodeSelectorTerm =
      t === NodeSelectorTypeMatchExpressions ? { matchExpressions: [req] } : { matchFields: [req] };
    this.s.nodeSelectorTerms.push(term);
    return this;
  }

  obj(): NodeSelector {
    return clone(this.s);
  }
}

export function makeNodeSelector(): NodeSelectorWrapper {
  return new NodeSelectorWrapper();
}

// ---------------------------------------------------------------------------------------------
// LabelSelector

export class LabelSelectorWrapper {
  private readonly s: LabelSelector = {};

  label(k: string, v: string): this {
    if (!this.s.matchLabels) this.s.matchLabels = {};
    this.s.matchLabels[k] = v;
    return this;
  }

  in(key: string, values: string[]): this {
    return this.expr({ key, operator: "In", values: [...values] });
  }

  notIn(key: string, values: string[]): this {
    return this.expr({ key, operator: "NotIn", values: [...values] });
  }

  exists(key: string): this {
    return this.expr({ key, operator: "Exists" });
  }

  notExist(key: string): this {
    return this.expr({ key, operator: "DoesNotExist" });
  }

  private expr(e: LabelSelectorRequirement): this {
    if (!this.s.matchExpressions) this.s.matchExpressions = [];
    this.s.matchExpressions.push(e);
    return this;
  }

  obj(): LabelSelector {
    return clone(this.s);
  }
}

export function makeLabelSelector(): LabelSelectorWrapper {
  return new LabelSelectorWrapper();
}

// ---------------------------------------------------------------------------------------------
// Container

export class ContainerWrapper {
  private readonly c: Container = { name: "" };

  name(n: string): this {
    this.c.name = n;
    return this;
  }

  image(image: string): this {
    this.c.image = image;
    return this;
  }

  /** Sets the ports to one port with this hostPort (upstream: containerPort left 0). */
  hostPort(hostPort: number): this {
    this.c.ports = [{ hostPort, containerPort: 0 }];
    return this;
  }

  containerPort(ports: ContainerPort[]): this {
    this.c.ports = clone(ports);
    return this;
  }

  /** Requests and limits both set to `res`. */
  resources(res: ResourceList): this {
    this.c.resources = { requests: { ...res }, limits: { ...res } };
    return this;
  }

  resourceRequests(req: ResourceList): this {
    this.c.resources = { requests: { ...req } };
    return this;
  }

  resourceLimits(lim: ResourceList): this {
    this.c.resources = { limits: { ...lim } };
    return this;
  }

  restartPolicy(policy: string): this {
    this.c.restartPolicy = policy;
    return this;
  }

  obj(): Container {
    return clone(this.c);
  }
}

export function makeContainer(): ContainerWrapper {
  return new ContainerWrapper();
}

// ---------------------------------------------------------------------------------------------
// Pod

/** Upstream PodAffinityKind (iota values). */
export const NilPodAffinity = 0;
export const PodAffinityWithRequiredReq = 1;
export const PodAffinityWithPreferredReq = 2;
export const PodAffinityWithRequiredPreferredReq = 3;
export const PodAntiAffinityWithRequiredReq = 4;
export const PodAntiAffinityWithPreferredReq = 5;
export const PodAntiAffinityWithRequiredPreferredReq = 6;
export type PodAffinityKind = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Either an upstream PodAffinityKind or, for podAffinity()/podAntiAffinity(), a shorthand for the
 * direction of the method called: "required", "preferred" or "requiredPreferred".
 */
export type PodAffinityKindInput = PodAffinityKind | "required" | "preferred" | "requiredPreferred";

/** Optional term fields beyond upstream's (topologyKey, labelSelector). */
export interface PodAffinityTermOptions {
  /** Weight of the preferred term (upstream always uses 1). */
  weight?: number;
  namespaces?: string[];
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

/** upstream schema.GroupVersionKind; group "" is the core group. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** The fields of a hostPort entry (not in upstream, which sets only hostPort). */
export interface HostPortOptions {
  protocol?: string;
  hostIP?: string;
  containerPort?: number;
}

type PodShape = Pod & { metadata: ObjectMeta; spec: PodSpec; status: PodStatus };

export class PodWrapper {
  private readonly p: PodShape = { metadata: {}, spec: { containers: [] }, status: {} };

  /** A copy of the pod; its uid defaults to `<namespace>/<name>`. */
  obj(): Pod {
    const p = clone(this.p);
    if (p.metadata.uid === undefined) {
      meta(p.metadata).uid = `${p.metadata.namespace ?? ""}/${p.metadata.name ?? ""}`;
    }
    return p;
  }

  // --- metadata

  name(s: string): this {
    this.p.metadata.name = s;
    return this;
  }

  generateName(s: string): this {
    this.p.metadata.generateName = s;
    return this;
  }

  uid(s: string): this {
    meta(this.p.metadata).uid = s;
    return this;
  }

  namespace(s: string): this {
    this.p.metadata.namespace = s;
    return this;
  }

  label(k: string, v: string): this {
    setLabel(this.p.metadata, k, v);
    return this;
  }

  labels(labels: Record<string, string>): this {
    for (const [k, v] of Object.entries(labels)) setLabel(this.p.metadata, k, v);
    return this;
  }

  annotation(k: string, v: string): this {
    setAnnotation(this.p.metadata, k, v);
    return this;
  }

  annotations(annotations: Record<string, string>): this {
    for (const [k, v] of Object.entries(annotations)) setAnnotation(this.p.metadata, k, v);
    return this;
  }

  creationTimestamp(t: TimeInput): this {
    meta(this.p.metadata).creationTimestamp = toTime(t);
    return this;
  }

  /** Sets deletionTimestamp (default: now). */
  terminating(at: TimeInput = new Date()): this {
    meta(this.p.metadata).deletionTimestamp = toTime(at);
    return this;
  }

  /** The owning controller (`controller: true`), replacing any other owner. */
  ownerReference(name: string, gvk: GroupVersionKind, uid = ""): this {
    this.p.metadata.ownerReferences = [
      {
        apiVersion: gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version,
        kind: gvk.kind,
        name,
        uid,
        controller: true,
      },
    ];
    return this;
  }

  // --- scheduling fields

  schedulerName(s: string): this {
    this.p.spec.schedulerName = s;
    return this;
  }

  priority(val: number): this {
    this.p.spec.priority = val;
    return this;
  }

  /** Not in upstream. */
  priorityClassName(s: string): this {
    this.p.spec.priorityClassName = s;
    return this;
  }

  preemptionPolicy(policy: "PreemptLowerPriority" | "Never"): this {
    this.p.spec.preemptionPolicy = policy;
    return this;
  }

  node(s: string): this {
    this.p.spec.nodeName = s;
    return this;
  }

  zeroTerminationGracePeriod(): this {
    this.p.spec.terminationGracePeriodSeconds = 0;
    return this;
  }

  nodeSelector(m: Record<string, string>): this {
    this.p.spec.nodeSelector = { ...m };
    return this;
  }

  /** Sets the whole node affinity. */
  nodeAffinity(nodeAffinity: NodeAffinity): this {
    this.affinity().nodeAffinity = clone(nodeAffinity);
    return this;
  }

  /** A required node affinity with one `In` term (replacing any required node affinity). */
  nodeAffinityIn(
    key: string,
    values: string[],
    t: NodeSelectorType = NodeSelectorTypeMatchExpressions,
  ): this {
    return this.requiredNodeSelector(makeNodeSelector().in(key, values, t).obj());
  }

  /** A required node affinity with one `NotIn` term. */
  nodeAffinityNotIn(key: string, values: string[]): this {
    return this.requiredNodeSelector(makeNodeSelector().notIn(key, values).obj());
  }

  /** A required node affinity with one `Exists` term (not in upstream). */
  nodeAffinityExists(key: string): this {
    return this.requiredNodeSelector(makeNodeSelector().exists(key).obj());
  }

  private requiredNodeSelector(ns: NodeSelector): this {
    const a = this.affinity();
    if (!a.nodeAffinity) a.nodeAffinity = {};
    a.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = ns;
    return this;
  }

  private affinity(): NonNullable<PodSpec["affinity"]> {
    if (!this.p.spec.affinity) this.p.spec.affinity = {};
    return this.p.spec.affinity;
  }

  tolerations(tolerations: Toleration[]): this {
    this.p.spec.tolerations = clone(tolerations);
    return this;
  }

  /**
   * upstream Toleration(key): appends an `Exists` toleration for the key. Also accepts a full
   * toleration (not in upstream).
   */
  toleration(t: string | Toleration): this {
    if (!this.p.spec.tolerations) this.p.spec.tolerations = [];
    this.p.spec.tolerations.push(typeof t === "string" ? { key: t, operator: "Exists" } : clone(t));
    return this;
  }

  schedulingGates(gates: string[]): this {
    if (!this.p.spec.schedulingGates) this.p.spec.schedulingGates = [];
    for (const name of gates) this.p.spec.schedulingGates.push({ name });
    return this;
  }

  // --- status

  startTime(t: TimeInput): this {
    this.p.status.startTime = toTime(t);
    return this;
  }

  nominatedNodeName(n: string): this {
    this.p.status.nominatedNodeName = n;
    return this;
  }

  phase(phase: string): this {
    this.p.status.phase = phase;
    return this;
  }

  condition(type: string, status: string, reason: string): this {
    if (!this.p.status.conditions) this.p.status.conditions = [];
    this.p.status.conditions.push({ type, status, reason });
    return this;
  }

  conditions(conditions: PodCondition[]): this {
    if (!this.p.status.conditions) this.p.status.conditions = [];
    this.p.status.conditions.push(...clone(conditions));
    return this;
  }

  resourceClaimStatuses(...statuses: PodResourceClaimStatus[]): this {
    if (!this.p.status.resourceClaimStatuses) this.p.status.resourceClaimStatuses = [];
    this.p.status.resourceClaimStatuses.push(...clone(statuses));
    return this;
  }

  // --- containers and resources

  /** Appends container `con<N>` with this image. */
  container(image: string): this {
    const name = `con${this.p.spec.containers.length}`;
    this.p.spec.containers.push(makeContainer().name(name).image(image).obj());
    return this;
  }

  /** Appends one container per image (not in upstream). */
  containerImages(...images: string[]): this {
    for (const i of images) this.container(i);
    return this;
  }

  /** Alias of container(image) (not in upstream). */
  containerImage(image: string): this {
    return this.container(image);
  }

  containers(containers: Container[]): this {
    this.p.spec.containers = clone(containers);
    return this;
  }

  /** Appends init containers (not in upstream). */
  initContainers(containers: Container[]): this {
    if (!this.p.spec.initContainers) this.p.spec.initContainers = [];
    this.p.spec.initContainers.push(...clone(containers));
    return this;
  }

  /** Appends init container `init-con<N>` with this image, or the given container (not in upstream). */
  initContainer(c: string | Container): this {
    const inits = this.initContainerList();
    inits.push(
      typeof c === "string" ? makeContainer().name(`init-con${inits.length}`).image(c).obj() : clone(c),
    );
    return this;
  }

  /** Appends sidecar `sidecar-con<N>` (restartPolicy Always) with this image (not in upstream). */
  sidecar(image: string): this {
    const inits = this.initContainerList();
    inits.push(makeContainer().name(`sidecar-con${inits.length}`).image(image).restartPolicy("Always").obj());
    return this;
  }

  /** Pod-level resources (upstream Resources). */
  resources(resources: ResourceRequirements): this {
    this.p.spec.resources = clone(resources);
    return this;
  }

  /** Alias of resources(): pod-level resources. */
  podResources(resources: ResourceRequirements): this {
    return this.resources(resources);
  }

  /** Appends container `con<N>` whose requests and limits are `res` (no-op when empty). */
  res(res: ResourceList): this {
    if (Object.keys(res).length === 0) return this;
    return this.addContainer(makeContainer().resources(res));
  }

  /** Appends container `con<N>` with these requests (no-op when empty). */
  req(req: ResourceList): this {
    if (Object.keys(req).length === 0) return this;
    return this.addContainer(makeContainer().resourceRequests(req));
  }

  /** Appends container `con<N>` with these limits (no-op when empty). */
  lim(lim: ResourceList): this {
    if (Object.keys(lim).length === 0) return this;
    return this.addContainer(makeContainer().resourceLimits(lim));
  }

  private addContainer(c: ContainerWrapper): this {
    const name = `con${this.p.spec.containers.length}`;
    this.p.spec.containers.push(c.name(name).image(PauseImage).obj());
    return this;
  }

  /** Appends init container `init-con<N>` with requests and limits `res`. */
  initReq(res: ResourceList): this {
    if (Object.keys(res).length === 0) return this;
    const inits = this.initContainerList();
    inits.push(makeContainer().name(`init-con${inits.length}`).image(PauseImage).resources(res).obj());
    return this;
  }

  /** Appends sidecar `sidecar-con<N>` (init container with restartPolicy Always) with requests and limits `res`. */
  sidecarReq(res: ResourceList): this {
    if (Object.keys(res).length === 0) return this;
    const inits = this.initContainerList();
    inits.push(
      makeContainer()
        .name(`sidecar-con${inits.length}`)
        .image(PauseImage)
        .restartPolicy("Always")
        .resources(res)
        .obj(),
    );
    return this;
  }

  private initContainerList(): Container[] {
    if (!this.p.spec.initContainers) this.p.spec.initContainers = [];
    return this.p.spec.initContainers;
  }

  overhead(rl: ResourceList): this {
    this.p.spec.overhead = { ...rl };
    return this;
  }

  /**
   * Appends container "container" (image "pause") with one hostPort. Protocol, hostIP and
   * containerPort are optional additions over upstream.
   */
  hostPort(port: number, opts: HostPortOptions = {}): this {
    const cp: ContainerPort = { hostPort: port, containerPort: opts.containerPort ?? 0 };
    if (opts.protocol !== undefined) cp.protocol = opts.protocol;
    if (opts.hostIP !== undefined) cp.hostIP = opts.hostIP;
    this.p.spec.containers.push(makeContainer().name("container").image("pause").containerPort([cp]).obj());
    return this;
  }

  /** Appends container "container" (image "pause") with these ports. */
  containerPort(ports: ContainerPort[]): this {
    this.p.spec.containers.push(makeContainer().name("container").image("pause").containerPort(ports).obj());
    return this;
  }

  /** Appends init container "init-container" with these ports (a sidecar when `sidecar`). */
  initContainerPort(sidecar: boolean, ports: ContainerPort[]): this {
    const c = makeContainer().name("init-container").image("pause").containerPort(ports);
    if (sidecar) c.restartPolicy("Always");
    this.initContainerList().push(c.obj());
    return this;
  }

  // --- volumes and claims

  /** A volume named `name` using the PVC `name`. */
  pvc(name: string): this {
    return this.volume({ name, persistentVolumeClaim: { claimName: name } });
  }

  volume(volume: Volume): this {
    if (!this.p.spec.volumes) this.p.spec.volumes = [];
    this.p.spec.volumes.push(clone(volume));
    return this;
  }

  volumes(volumes: Volume[]): this {
    this.p.spec.volumes = clone(volumes);
    return this;
  }

  /** A generic ephemeral volume named `name` (its PVC is `<pod>-<name>`); not in upstream. */
  ephemeralVolume(name: string, storageClassName?: string): this {
    const spec: NonNullable<NonNullable<Volume["ephemeral"]>["volumeClaimTemplate"]>["spec"] = {
      accessModes: ["ReadWriteOnce"],
    };
    if (storageClassName !== undefined) spec.storageClassName = storageClassName;
    return this.volume({ name, ephemeral: { volumeClaimTemplate: { spec } } });
  }

  /** upstream PodResourceClaims: appends pod resource claims. */
  podResourceClaims(...claims: PodResourceClaim[]): this {
    if (!this.p.spec.resourceClaims) this.p.spec.resourceClaims = [];
    this.p.spec.resourceClaims.push(...clone(claims));
    return this;
  }

  /** Appends a claim reference `{name, resourceClaimName}` (not in upstream). */
  resourceClaim(name: string, resourceClaimName: string = name): this {
    return this.podResourceClaims({ name, resourceClaimName });
  }

  // --- pod (anti-)affinity

  /** Adds a pod affinity term (no-op for NilPodAffinity and for anti-affinity kinds). */
  podAffinity(
    topologyKey: string,
    labelSelector: LabelSelector | null,
    kind: PodAffinityKindInput,
    opts: PodAffinityTermOptions = {},
  ): this {
    const k = normalizeKind(kind, false);
    if (k === NilPodAffinity) return this;
    const a = this.affinity();
    if (!a.podAffinity) a.podAffinity = {};
    const term = newTerm(topologyKey, labelSelector, opts);
    const required = k === PodAffinityWithRequiredReq || k === PodAffinityWithRequiredPreferredReq;
    const preferred = k === PodAffinityWithPreferredReq || k === PodAffinityWithRequiredPreferredReq;
    if (required) {
      a.podAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= [];
      a.podAffinity.requiredDuringSchedulingIgnoredDuringExecution.push(term);
    }
    if (preferred) {
      a.podAffinity.preferredDuringSchedulingIgnoredDuringExecution ??= [];
      a.podAffinity.preferredDuringSchedulingIgnoredDuringExecution.push({
        weight: opts.weight ?? 1,
        podAffinityTerm: clone(term),
      });
    }
    return this;
  }

  /** Adds a pod anti-affinity term (no-op for NilPodAffinity and for affinity kinds). */
  podAntiAffinity(
    topologyKey: string,
    labelSelector: LabelSelector | null,
    kind: PodAffinityKindInput,
    opts: PodAffinityTermOptions = {},
  ): this {
    const k = normalizeKind(kind, true);
    if (k === NilPodAffinity) return this;
    const a = this.affinity();
    if (!a.podAntiAffinity) a.podAntiAffinity = {};
    const term = newTerm(topologyKey, labelSelector, opts);
    const required = k === PodAntiAffinityWithRequiredReq || k === PodAntiAffinityWithRequiredPreferredReq;
    const preferred = k === PodAntiAffinityWithPreferredReq || k === PodAntiAffinityWithRequiredPreferredReq;
    if (required) {
      a.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= [];
      a.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution.push(term);
    }
    if (preferred) {
      a.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution ??= [];
      a.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution.push({
        weight: opts.weight ?? 1,
        podAffinityTerm: clone(term),
      });
    }
    return this;
  }

  podAffinityExists(labelKey: string, topologyKey: string, kind: PodAffinityKindInput): this {
    return this.podAffinity(topologyKey, makeLabelSelector().exists(labelKey).obj(), kind);
  }

  podAntiAffinityExists(labelKey: string, topologyKey: string, kind: PodAffinityKindInput): this {
    return this.podAntiAffinity(topologyKey, makeLabelSelector().exists(labelKey).obj(), kind);
  }

  podAffinityNotExists(labelKey: string, topologyKey: string, kind: PodAffinityKindInput): this {
    return this.podAffinity(topologyKey, makeLabelSelector().notExist(labelKey).obj(), kind);
  }

  podAntiAffinityNotExists(labelKey: string, topologyKey: string, kind: PodAffinityKindInput): this {
    return this.podAntiAffinity(topologyKey, makeLabelSelector().notExist(labelKey).obj(), kind);
  }

  podAffinityIn(labelKey: string, topologyKey: string, values: string[], kind: PodAffinityKindInput): this {
    return this.podAffinity(topologyKey, makeLabelSelector().in(labelKey, values).obj(), kind);
  }

  podAntiAffinityIn(
    labelKey: string,
    topologyKey: string,
    values: string[],
    kind: PodAffinityKindInput,
  ): this {
    return this.podAntiAffinity(topologyKey, makeLabelSelector().in(labelKey, values).obj(), kind);
  }

  podAffinityNotIn(
    labelKey: string,
    topologyKey: string,
    values: string[],
    kind: PodAffinityKindInput,
  ): this {
    return this.podAffinity(topologyKey, makeLabelSelector().notIn(labelKey, values).obj(), kind);
  }

  podAntiAffinityNotIn(
    labelKey: string,
    topologyKey: string,
    values: string[],
    kind: PodAffinityKindInput,
  ): this {
    return this.podAntiAffinity(topologyKey, makeLabelSelector().notIn(labelKey, values).obj(), kind);
  }

  // --- topology spread

  spreadConstraint(
    maxSkew: number,
    topologyKey: string,
    whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway",
    labelSelector: LabelSelector | null,
    minDomains?: number | null,
    nodeAffinityPolicy?: "Honor" | "Ignore" | null,
    nodeTaintsPolicy?: "Honor" | "Ignore" | null,
    matchLabelKeys?: string[] | null,
  ): this {
    const c: TopologySpreadConstraint = { maxSkew, topologyKey, whenUnsatisfiable };
    if (labelSelector) c.labelSelector = clone(labelSelector);
    if (minDomains != null) c.minDomains = minDomains;
    if (nodeAffinityPolicy != null) c.nodeAffinityPolicy = nodeAffinityPolicy;
    if (nodeTaintsPolicy != null) c.nodeTaintsPolicy = nodeTaintsPolicy;
    if (matchLabelKeys != null) c.matchLabelKeys = [...matchLabelKeys];
    if (!this.p.spec.topologySpreadConstraints) this.p.spec.topologySpreadConstraints = [];
    this.p.spec.topologySpreadConstraints.push(c);
    return this;
  }
}

function normalizeKind(kind: PodAffinityKindInput, anti: boolean): PodAffinityKind {
  switch (kind) {
    case "required":
      return anti ? PodAntiAffinityWithRequiredReq : PodAffinityWithRequiredReq;
    case "preferred":
      return anti ? PodAntiAffinityWithPreferredReq : PodAffinityWithPreferredReq;
    case "requiredPreferred":
      return anti ? PodAntiAffinityWithRequiredPreferredReq : PodAffinityWithRequiredPreferredReq;
    default:
      return kind;
  }
}

function newTerm(topologyKey: string, labelSelector: LabelSelector | null, opts: PodAffinityTermOptions) {
  const term: PodAffinityTerm = { topologyKey };
  if (labelSelector) term.labelSelector = clone(labelSelector);
  if (opts.namespaces) term.namespaces = [...opts.namespaces];
  if (opts.namespaceSelector) term.namespaceSelector = clone(opts.namespaceSelector);
  if (opts.matchLabelKeys) term.matchLabelKeys = [...opts.matchLabelKeys];
  if (opts.mismatchLabelKeys) term.mismatchLabelKeys = [...opts.mismatchLabelKeys];
  return term;
}

export function makePod(): PodWrapper {
  return new PodWrapper();
}

// ---------------------------------------------------------------------------------------------
// Node

type NodeShape = Node & {
  metadata: ObjectMeta;
  spec: NonNullable<Node["spec"]>;
  status: NonNullable<Node["status"]>;
};

export class NodeWrapper {
  private readonly n: NodeShape = { metadata: {}, spec: {}, status: {} };

  constructor() {
    this.capacity({});
  }

  obj(): Node {
    return clone(this.n);
  }

  name(s: string): this {
    this.n.metadata.name = s;
    return this;
  }

  uid(s: string): this {
    meta(this.n.metadata).uid = s;
    return this;
  }

  label(k: string, v: string): this {
    setLabel(this.n.metadata, k, v);
    return this;
  }

  /** Not in upstream. */
  labels(labels: Record<string, string>): this {
    for (const [k, v] of Object.entries(labels)) setLabel(this.n.metadata, k, v);
    return this;
  }

  annotation(k: string, v: string): this {
    setAnnotation(this.n.metadata, k, v);
    return this;
  }

  /** Sets capacity and allocatable to `pods: 32` plus `resources`. */
  capacity(resources: ResourceList): this {
    const res: ResourceList = { pods: "32", ...resources };
    this.n.status.capacity = { ...res };
    this.n.status.allocatable = { ...res };
    return this;
  }

  /** Sets allocatable only (not in upstream). */
  allocatable(resources: ResourceList): this {
    this.n.status.allocatable = { ...resources };
    return this;
  }

  /** Images by name → size in bytes, or as a ContainerImage list. */
  images(images: Record<string, number> | Array<{ names: string[]; sizeBytes?: number }>): this {
    this.n.status.images = Array.isArray(images)
      ? clone(images)
      : Object.entries(images).map(([name, sizeBytes]) => ({ names: [name], sizeBytes }));
    return this;
  }

  taints(taints: Taint[]): this {
    this.n.spec.taints = clone(taints);
    return this;
  }

  /** Appends a taint (not in upstream). */
  taint(t: Taint): this {
    if (!this.n.spec.taints) this.n.spec.taints = [];
    this.n.spec.taints.push(clone(t));
    return this;
  }

  unschedulable(unschedulable = true): this {
    this.n.spec.unschedulable = unschedulable;
    return this;
  }

  /** Replaces the conditions with this one (as upstream). */
  condition(type: string, status: string, message = "", reason = ""): this {
    const now = new Date().toISOString();
    this.n.status.conditions = [
      { type, status, message, reason, lastHeartbeatTime: now, lastTransitionTime: now },
    ];
    return this;
  }

  /** Not in upstream. */
  conditions(conditions: NodeCondition[]): this {
    this.n.status.conditions = clone(conditions);
    return this;
  }
}

export function makeNode(): NodeWrapper {
  return new NodeWrapper();
}

// ---------------------------------------------------------------------------------------------
// Other objects

class MetaWrapper<T extends { metadata?: ObjectMeta }> {
  protected readonly o: T & { metadata: ObjectMeta };
  constructor(o: T & { metadata: ObjectMeta }) {
    this.o = o;
  }

  obj(): T {
    return clone(this.o);
  }

  name(s: string): this {
    this.o.metadata.name = s;
    return this;
  }

  uid(s: string): this {
    meta(this.o.metadata).uid = s;
    return this;
  }

  label(k: string, v: string): this {
    setLabel(this.o.metadata, k, v);
    return this;
  }

  labels(labels: Record<string, string>): this {
    for (const [k, v] of Object.entries(labels)) setLabel(this.o.metadata, k, v);
    return this;
  }

  annotation(k: string, v: string): this {
    setAnnotation(this.o.metadata, k, v);
    return this;
  }
}

class NamespacedWrapper<T extends { metadata?: ObjectMeta }> extends MetaWrapper<T> {
  namespace(s: string): this {
    this.o.metadata.namespace = s;
    return this;
  }
}

export class NamespaceWrapper extends MetaWrapper<Namespace> {}

export function makeNamespace(): NamespaceWrapper {
  return new NamespaceWrapper({ apiVersion: "v1", kind: "Namespace", metadata: {} });
}

type PDBShape = PodDisruptionBudget & {
  spec: NonNullable<PodDisruptionBudget["spec"]>;
  status: NonNullable<PodDisruptionBudget["status"]>;
};

export class PodDisruptionBudgetWrapper extends NamespacedWrapper<PDBShape> {
  minAvailable(v: string | number): this {
    this.o.spec.minAvailable = v;
    return this;
  }

  /** Not in upstream. */
  maxUnavailable(v: string | number): this {
    this.o.spec.maxUnavailable = v;
    return this;
  }

  matchLabel(k: string, v: string): this {
    if (!this.o.spec.selector) this.o.spec.selector = {};
    if (!this.o.spec.selector.matchLabels) this.o.spec.selector.matchLabels = {};
    this.o.spec.selector.matchLabels[k] = v;
    return this;
  }

  /** Not in upstream. */
  selector(s: LabelSelector): this {
    this.o.spec.selector = clone(s);
    return this;
  }

  disruptionsAllowed(n: number): this {
    this.o.status.disruptionsAllowed = n;
    return this;
  }

  /** status.disruptedPods: pod name → deletion time (not in upstream). */
  disruptedPods(pods: Record<string, TimeInput>): this {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(pods)) out[k] = toTime(v);
    this.o.status.disruptedPods = out;
    return this;
  }
}

export function makePDB(): PodDisruptionBudgetWrapper {
  return new PodDisruptionBudgetWrapper({
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: {},
    spec: {},
    status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 },
  });
}

type PVCShape = PersistentVolumeClaim & { spec: NonNullable<PersistentVolumeClaim["spec"]> };

export class PersistentVolumeClaimWrapper extends NamespacedWrapper<PVCShape> {
  volumeName(name: string): this {
    this.o.spec.volumeName = name;
    return this;
  }

  accessModes(modes: string[]): this {
    this.o.spec.accessModes = [...modes];
    return this;
  }

  resources(resources: NonNullable<PVCShape["spec"]["resources"]>): this {
    this.o.spec.resources = clone(resources);
    return this;
  }

  storageClassName(name: string | null): this {
    if (name === null) delete this.o.spec.storageClassName;
    else this.o.spec.storageClassName = name;
    return this;
  }

  /** status.phase (not in upstream). */
  phase(phase: string): this {
    (this.o as { status?: PersistentVolumeClaim["status"] }).status = { ...this.o.status, phase };
    return this;
  }
}

export function makePersistentVolumeClaim(): PersistentVolumeClaimWrapper {
  return new PersistentVolumeClaimWrapper({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {},
    spec: {},
  });
}

export const makePVC = makePersistentVolumeClaim;

type PVShape = PersistentVolume & { spec: NonNullable<PersistentVolume["spec"]> };

export class PersistentVolumeWrapper extends MetaWrapper<PVShape> {
  accessModes(modes: string[]): this {
    this.o.spec.accessModes = [...modes];
    return this;
  }

  capacity(capacity: ResourceList): this {
    this.o.spec.capacity = { ...capacity };
    return this;
  }

  hostPathVolumeSource(src: NonNullable<PVShape["spec"]["hostPath"]>): this {
    this.o.spec.hostPath = clone(src);
    return this;
  }

  /** Merges volume-source fields (csi, awsElasticBlockStore, ...) into the spec. */
  persistentVolumeSource(src: Partial<PVShape["spec"]>): this {
    Object.assign(this.o.spec, clone(src));
    return this;
  }

  /** Appends a required node-affinity term with one `In` expression. */
  nodeAffinityIn(key: string, values: string[]): this {
    if (!this.o.spec.nodeAffinity) this.o.spec.nodeAffinity = {};
    if (!this.o.spec.nodeAffinity.required) this.o.spec.nodeAffinity.required = { nodeSelectorTerms: [] };
    this.o.spec.nodeAffinity.required.nodeSelectorTerms.push(
      ...makeNodeSelector().in(key, values).obj().nodeSelectorTerms,
    );
    return this;
  }

  storageClassName(name: string): this {
    this.o.spec.storageClassName = name;
    return this;
  }

  /** spec.claimRef to namespace/name (not in upstream). */
  claimRef(namespace: string, name: string): this {
    this.o.spec.claimRef = { namespace, name };
    return this;
  }
}

export function makePersistentVolume(): PersistentVolumeWrapper {
  return new PersistentVolumeWrapper({ apiVersion: "v1", kind: "PersistentVolume", metadata: {}, spec: {} });
}

export const makePV = makePersistentVolume;

export class StorageClassWrapper extends MetaWrapper<StorageClass> {
  volumeBindingMode(mode: "Immediate" | "WaitForFirstConsumer"): this {
    this.o.volumeBindingMode = mode;
    return this;
  }

  provisioner(p: string): this {
    this.o.provisioner = p;
    return this;
  }

  allowedTopologies(topologies: TopologySelectorTerm[]): this {
    this.o.allowedTopologies = clone(topologies);
    return this;
  }
}

export function makeStorageClass(): StorageClassWrapper {
  return new StorageClassWrapper({
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: {},
    provisioner: "",
  });
}

type CSIDriverEntry = CSINode["spec"]["drivers"][number];

export class CSINodeWrapper extends MetaWrapper<CSINode> {
  driver(driver: CSIDriverEntry): this {
    this.o.spec.drivers.push(clone(driver));
    return this;
  }
}

export function makeCSINode(): CSINodeWrapper {
  return new CSINodeWrapper({
    apiVersion: "storage.k8s.io/v1",
    kind: "CSINode",
    metadata: {},
    spec: { drivers: [] },
  });
}

type ServiceShape = Service & { spec: NonNullable<Service["spec"]> };

export class ServiceWrapper extends NamespacedWrapper<ServiceShape> {
  /** Adds k=v to spec.selector. */
  selector(k: string, v: string): this {
    if (!this.o.spec.selector) this.o.spec.selector = {};
    this.o.spec.selector[k] = v;
    return this;
  }
}

export function makeService(): ServiceWrapper {
  return new ServiceWrapper({ apiVersion: "v1", kind: "Service", metadata: {}, spec: {} });
}

type ReplicaSetShape = ReplicaSet & { spec: NonNullable<ReplicaSet["spec"]> };

export class ReplicaSetWrapper extends NamespacedWrapper<ReplicaSetShape> {
  /** Adds k=v to spec.selector.matchLabels. */
  selector(k: string, v: string): this {
    this.o.spec.selector.matchLabels ??= {};
    this.o.spec.selector.matchLabels[k] = v;
    return this;
  }

  replicas(n: number): this {
    this.o.spec.replicas = n;
    return this;
  }
}

export function makeReplicaSet(): ReplicaSetWrapper {
  return new ReplicaSetWrapper({
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {},
    spec: { selector: {} },
  });
}

type StatefulSetShape = StatefulSet & { spec: NonNullable<StatefulSet["spec"]> };

export class StatefulSetWrapper extends NamespacedWrapper<StatefulSetShape> {
  /** Adds k=v to spec.selector.matchLabels. */
  selector(k: string, v: string): this {
    this.o.spec.selector.matchLabels ??= {};
    this.o.spec.selector.matchLabels[k] = v;
    return this;
  }

  replicas(n: number): this {
    this.o.spec.replicas = n;
    return this;
  }
}

export function makeStatefulSet(): StatefulSetWrapper {
  return new StatefulSetWrapper({
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: {},
    spec: { selector: {}, serviceName: "", template: {} },
  });
}

export class PriorityClassWrapper extends MetaWrapper<PriorityClass> {
  value(v: number): this {
    this.o.value = v;
    return this;
  }

  globalDefault(v = true): this {
    this.o.globalDefault = v;
    return this;
  }

  preemptionPolicy(policy: "PreemptLowerPriority" | "Never"): this {
    this.o.preemptionPolicy = policy;
    return this;
  }
}

export function makePriorityClass(): PriorityClassWrapper {
  return new PriorityClassWrapper({
    apiVersion: "scheduling.k8s.io/v1",
    kind: "PriorityClass",
    metadata: {},
    value: 0,
  });
}
