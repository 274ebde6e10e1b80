// upstream: pkg/scheduler/framework/types.go (PodInfo, AffinityTerm, calculateResource)
import {
  type ContainerPort,
  DefaultMemoryRequest,
  DefaultMilliCPURequest,
  getContainerPorts,
  isPodLevelRequestsSet,
  labelSelectorAsSelector,
  nothing,
  type Pod,
  type PodAffinityTerm,
  podRequests,
  podStartTimeMillis,
  podUID,
  ResourceCPU,
  ResourceMemory,
  type Selector,
  type WeightedPodAffinityTerm,
} from "@kubesched/api";
import { Resource } from "./resource";

/**
 * A pod (anti-)affinity term with its selectors compiled once (upstream AffinityTerm).
 * @public
 */
export class AffinityTerm {
  /** A term from its compiled parts (PodInfo builds them from the pod's spec). */
  constructor(
    /** Explicit namespaces (or the pod's own when neither namespaces nor namespaceSelector is set). */
    readonly namespaces: ReadonlySet<string>,
    /** The term's label selector. */
    readonly selector: Selector,
    /** The term's topology key. */
    readonly topologyKey: string,
    /** labels.Nothing() when the term has no namespaceSelector. */
    readonly namespaceSelector: Selector,
  ) {}

  /** Whether `pod` (whose namespace carries `nsLabels`) matches this term. */
  matches(pod: Pod, nsLabels: Readonly<Record<string, string>> | undefined): boolean {
    const ns = pod.metadata?.namespace ?? "";
    if (this.namespaces.has(ns) || this.namespaceSelector.matches(nsLabels)) {
      return this.selector.matches(pod.metadata?.labels);
    }
    return false;
  }
}

/**
 * A preferred (anti-)affinity term with its weight (upstream WeightedAffinityTerm).
 * @public
 */
export interface WeightedAffinityTerm {
  /** The term. */
  readonly term: AffinityTerm;
  /** Its weight, 1..100. */
  readonly weight: number;
}

/**
 * The resource usage of a pod as the scheduler accounts it.
 * @public
 */
export interface PodResource {
  /** Requests (upstream PodRequests with overhead, sidecars, pod-level resources). */
  readonly resource: Resource;
  /** CPU request in millicores with 100m assumed for containers without a request. */
  readonly nonZeroCPU: number;
  /** Memory request in bytes with 200Mi assumed for containers without a request. */
  readonly nonZeroMemory: number;
}

function namespacesOfTerm(pod: Pod, term: PodAffinityTerm): Set<string> {
  if ((term.namespaces?.length ?? 0) === 0 && term.namespaceSelector == null) {
    return new Set([pod.metadata?.namespace ?? ""]);
  }
  return new Set(term.namespaces ?? []);
}

function newAffinityTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const selector = labelSelectorAsSelector(term.labelSelector);
  const nsSelector =
    term.namespaceSelector == null ? nothing() : labelSelectorAsSelector(term.namespaceSelector);
  return new AffinityTerm(namespacesOfTerm(pod, term), selector, term.topologyKey, nsSelector);
}

/**
 * Requests computed per pod spec (keyed by its containers list, with the other inputs they
 * depend on), for pods whose status carries nothing that changes them.
 */
const resourcesBySpec = new WeakMap<
  readonly unknown[],
  { initContainers: unknown; overhead: unknown; podResources: unknown; result: PodResource }
>();

/**
 * True when the pod's requests depend on its spec alone: no container statuses (a pod not
 * running yet, or as the simulator runs it), no pod-level status resources, no resize condition.
 */
function hasNoStatusResources(pod: Pod): boolean {
  const st = pod.status;
  if (st === undefined) return true;
  if ((st.containerStatuses?.length ?? 0) > 0 || (st.initContainerStatuses?.length ?? 0) > 0) return false;
  if (st.resources != null || st.allocatedResources != null) return false;
  if ((st.nodeAllocatableResourceClaimStatuses?.length ?? 0) > 0) return false;
  for (const c of st.conditions ?? []) if (c.type === "PodResizePending") return false;
  return true;
}

const noTerms: readonly AffinityTerm[] = Object.freeze([]);
const noWeightedTerms: readonly WeightedAffinityTerm[] = Object.freeze([]);

/** A list's terms compiled; none (and an error noted) when one does not parse. */
function requiredTerms(
  pod: Pod,
  list: string,
  terms: readonly PodAffinityTerm[] | undefined,
  parseErrors: string[],
): readonly AffinityTerm[] {
  if (terms == null || terms.length === 0) return noTerms;
  const out: AffinityTerm[] = [];
  for (const t of terms) {
    try {
      out.push(newAffinityTerm(pod, t));
    } catch (e) {
      parseErrors.push(`${list}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }
  return out;
}

function preferredTerms(
  pod: Pod,
  list: string,
  terms: readonly WeightedPodAffinityTerm[] | undefined,
  parseErrors: string[],
): readonly WeightedAffinityTerm[] {
  if (terms == null || terms.length === 0) return noWeightedTerms;
  const out: WeightedAffinityTerm[] = [];
  for (const t of terms) {
    try {
      out.push({ term: newAffinityTerm(pod, t.podAffinityTerm), weight: t.weight });
    } catch (e) {
      parseErrors.push(`${list}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }
  return out;
}

const noHostPorts: readonly ContainerPort[] = Object.freeze([]);
const noClaimKeys: readonly string[] = Object.freeze([]);

/**
 * A pod with everything the scheduler derives from it computed once: affinity terms with
 * compiled selectors and the resource requests (upstream PodInfo).
 * @public
 */
export class PodInfo {
  /** The pod. */
  readonly pod: Pod;
  /** Its required pod affinity terms. */
  readonly requiredAffinityTerms: readonly AffinityTerm[];
  /** Its required pod anti-affinity terms. */
  readonly requiredAntiAffinityTerms: readonly AffinityTerm[];
  /** Its preferred pod affinity terms. */
  readonly preferredAffinityTerms: readonly WeightedAffinityTerm[];
  /** Its preferred pod anti-affinity terms. */
  readonly preferredAntiAffinityTerms: readonly WeightedAffinityTerm[];
  /**
   * Set when a term's selector could not be parsed ("requiredAffinityTerms: ..."), as upstream's
   * NewPodInfo error; InterPodAffinity reports it as an Error.
   */
  readonly parseError: Error | null;
  /**
   * Whether the pod has podAffinity or podAntiAffinity (api podHasAffinity), read from the spec
   * once: NodeInfo checks it at every addition of the pod.
   * @internal
   */
  readonly hasPodAffinity: boolean;
  private cachedResource: PodResource | null = null;
  private cachedHostPorts: readonly ContainerPort[] | null = null;
  private cachedPriority: number | undefined = undefined;
  private cachedStartTime: number | null | undefined = undefined;
  private cachedClaimKeys: readonly string[] | null = null;
  private cachedUID: string | null = null;

  /** Compiles the pod's affinity terms (upstream NewPodInfo). */
  constructor(pod: Pod) {
    this.pod = pod;
    const aff = pod.spec?.affinity;
    if (aff?.podAffinity == null && aff?.podAntiAffinity == null) {
      // Most pods: nothing to parse.
      this.requiredAffinityTerms = noTerms;
      this.requiredAntiAffinityTerms = noTerms;
      this.preferredAffinityTerms = noWeightedTerms;
      this.preferredAntiAffinityTerms = noWeightedTerms;
      this.parseError = null;
      this.hasPodAffinity = false;
      return;
    }
    this.hasPodAffinity = true;
    const parseErrors: string[] = [];
    this.requiredAffinityTerms = requiredTerms(
      pod,
      "requiredAffinityTerms",
      aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      parseErrors,
    );
    this.requiredAntiAffinityTerms = requiredTerms(
      pod,
      "requiredAntiAffinityTerms",
      aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      parseErrors,
    );
    this.preferredAffinityTerms = preferredTerms(
      pod,
      "preferredAffinityTerms",
      aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      parseErrors,
    );
    this.preferredAntiAffinityTerms = preferredTerms(
      pod,
      "preferredAntiAffinityTerms",
      aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      parseErrors,
    );
    // An aggregate of every list's error, formatted like upstream's utilerrors.NewAggregate.
    const parseError =
      parseErrors.length === 0
        ? null
        : new Error(parseErrors.length === 1 ? parseErrors[0] : `[${parseErrors.join(", ")}]`);
    this.parseError = parseError;
  }

  /** `metadata.name`. */
  get name(): string {
    return this.pod.metadata?.name ?? "";
  }
  /** `metadata.namespace`. */
  get namespace(): string {
    return this.pod.metadata?.namespace ?? "";
  }

  /**
   * The pod's UID (api podUID: `namespace/name` when it has none), read once: NodeInfo compares
   * it with every pod it walks past when a pod is removed (preemption's dry runs remove every
   * candidate victim).
   * @internal
   */
  uid(): string {
    let u = this.cachedUID;
    if (u === null) {
      u = podUID(this.pod);
      this.cachedUID = u;
    }
    return u;
  }

  /**
   * `spec.priority` (0 when unset), read once: preemption compares the priority of every pod on
   * every candidate node, and following pod → spec → priority on pods not touched lately costs a
   * cache miss per hop.
   */
  priority(): number {
    let p = this.cachedPriority;
    if (p === undefined) {
      p = this.pod.spec?.priority ?? 0;
      this.cachedPriority = p;
    }
    return p;
  }

  /**
   * `status.startTime` in milliseconds since the epoch, null when the pod has not started; read
   * once (preemption orders victims by it, see {@link PodInfo.priority}).
   */
  startTime(): number | null {
    let t = this.cachedStartTime;
    if (t === undefined) {
      t = podStartTimeMillis(this.pod) ?? null;
      this.cachedStartTime = t;
    }
    return t;
  }

  /**
   * `namespace/claimName` of each PersistentVolumeClaim the pod uses (generic ephemeral volumes:
   * `namespace/podName-volumeName`), in volume order, computed once: NodeInfo counts them at every
   * addition and removal of the pod.
   * @internal
   */
  claimKeys(): readonly string[] {
    let keys = this.cachedClaimKeys;
    if (keys === null) {
      const volumes = this.pod.spec?.volumes;
      if (volumes === undefined || volumes.length === 0) {
        keys = noClaimKeys;
      } else {
        const ns = this.pod.metadata?.namespace ?? "";
        const found: string[] = [];
        for (const v of volumes) {
          const claim =
            v.persistentVolumeClaim?.claimName ??
            (v.ephemeral ? `${this.pod.metadata?.name}-${v.name}` : undefined);
          if (claim) found.push(`${ns}/${claim}`);
        }
        keys = found.length === 0 ? noClaimKeys : found;
      }
      this.cachedClaimKeys = keys;
    }
    return keys;
  }

  /**
   * The host ports the pod uses (getContainerPorts of the pod), computed once: NodeInfo reads
   * them at every addition and removal of the pod (preemption's dry runs do both many times).
   */
  hostPorts(): readonly ContainerPort[] {
    let ports = this.cachedHostPorts;
    if (ports === null) {
      const found = getContainerPorts(this.pod);
      ports = found.length === 0 ? noHostPorts : found;
      this.cachedHostPorts = ports;
    }
    return ports;
  }

  /**
   * Requests and non-zero requests, computed once (PodLevelResources and InPlacePodVerticalScaling
   * on, as in 1.37). The node allocatable resources of the pod's DRA claims
   * (`status.nodeAllocatableResourceClaimStatuses`) count too: upstream reads them with
   * DRANodeAllocatableResources on; with it off, the scheduler's event handlers hand the cache
   * its pods without them.
   */
  calculateResource(): PodResource {
    if (this.cachedResource) return this.cachedResource;
    // Copies of one pod (queued, assumed, bound) share their containers: reuse what an earlier
    // copy computed when nothing else the requests depend on differs.
    const spec = this.pod.spec;
    const containers = spec?.containers;
    const plain = containers !== undefined && hasNoStatusResources(this.pod);
    if (plain) {
      const hit = resourcesBySpec.get(containers);
      if (
        hit !== undefined &&
        hit.initContainers === spec?.initContainers &&
        hit.overhead === spec?.overhead &&
        hit.podResources === spec?.resources
      ) {
        this.cachedResource = hit.result;
        return hit.result;
      }
    }
    const opts = {
      useStatusResources: true,
      skipPodLevelResources: false,
      useDRANodeAllocatableResourceClaimStatus: true,
    };
    const requests = podRequests(this.pod, opts);
    const podLevelSet = isPodLevelRequestsSet(this.pod);
    const nonMissing = new Map<string, number>();
    if (!podLevelSet || !requests.has(ResourceCPU)) nonMissing.set(ResourceCPU, DefaultMilliCPURequest);
    if (!podLevelSet || !requests.has(ResourceMemory)) nonMissing.set(ResourceMemory, DefaultMemoryRequest);
    const non0 =
      nonMissing.size > 0
        ? podRequests(this.pod, { ...opts, nonMissingContainerRequests: nonMissing })
        : requests;
    const result: PodResource = {
      resource: Resource.fromAmounts(requests),
      nonZeroCPU: non0.get(ResourceCPU) ?? 0,
      nonZeroMemory: non0.get(ResourceMemory) ?? 0,
    };
    this.cachedResource = result;
    if (plain && containers !== undefined) {
      resourcesBySpec.set(containers, {
        initContainers: spec?.initContainers,
        overhead: spec?.overhead,
        podResources: spec?.resources,
        result,
      });
    }
    return result;
  }
}
