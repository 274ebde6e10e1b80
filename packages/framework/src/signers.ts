// upstream: staging/src/k8s.io/kube-scheduler/framework/signers.go (kube-scheduler v0.37.0-beta.0,
// Kubernetes 1.37): the names of pod signature fragments and the signers several plugins share
// (KEP-5598 opportunistic batching). Values are JSON-serializable and canonical: lists whose
// order does not matter are sorted, so that equal pods give equal fragments.
import {
  isScalarResourceName,
  type NodeSelectorRequirement,
  type NodeSelectorTerm,
  type Pod,
  type PreferredSchedulingTerm,
  podRequests,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
  type Toleration,
} from "@kubesched/api";

/**
 * Fragment key of DynamicResources.
 * @public
 */
export const DynamicResourcesSignerName = "v1.Pod.Spec.DynamicResources";
/**
 * Fragment key of the pod's canonical image names (ImageLocality).
 * @public
 */
export const ImageNamesSignerName = "v1.Pod.Spec.CanonicalImageNames()";
/**
 * Fragment key of the pod's labels (InterPodAffinity).
 * @public
 */
export const LabelsSignerName = "v1.Pod.Labels";
/**
 * Fragment key of `spec.nodeName` (NodeName).
 * @public
 */
export const NodeNameSignerName = "v1.Pod.Spec.NodeName";
/**
 * Fragment key of the pod's node affinity ({@link nodeAffinitySigner}; NodeAffinity).
 * @public
 */
export const NodeAffinitySignerName = "v1.Pod.Spec.Affinity.NodeAffinity";
/**
 * Fragment key of `spec.nodeSelector` (NodeAffinity).
 * @public
 */
export const NodeSelectorSignerName = "v1.Pod.Spec.Affinity.NodeSelector";
/**
 * Fragment key of the pod's host ports ({@link hostPortsSigner}; NodePorts).
 * @public
 */
export const HostPortsSignerName = "v1.Pod.Spec.HostPorts()";
/**
 * Fragment key of the pod's requests and overhead ({@link podResourcesSigner}; NodeResourcesFit,
 * NodeResourcesBalancedAllocation).
 * @public
 */
export const ResourcesSignerName = "v1.Pod.Spec.ContainerRequestsAndOverheads()";
/**
 * Fragment key of `spec.schedulerName`.
 * @public
 */
export const SchedulerNameSignerName = "v1.Pod.Spec.SchedulerName";
/**
 * Fragment key of the pod's tolerations ({@link tolerationsSigner}; TaintToleration,
 * NodeUnschedulable).
 * @public
 */
export const TolerationsSignerName = "v1.Pod.Spec.Tolerations";
/**
 * Fragment key of the pod's volume sources but config maps and secrets ({@link volumesSigner};
 * VolumeBinding, VolumeRestrictions, VolumeZone, NodeVolumeLimits).
 * @public
 */
export const VolumesSignerName = "v1.Pod.Spec.Volumes.NonSyntheticSources()";
/**
 * Fragment key of the features the pod requires of its node (NodeDeclaredFeatures).
 * @public
 */
export const FeaturesSignerName = "v1.Pod.Spec.RequiredFeatures()";

/**
 * The host ports of the pod's containers and init containers, without 0, unique and sorted
 * (upstream HostPortsSigner).
 * @public
 */
export function hostPortsSigner(pod: Pod): number[] {
  const ports = new Set<number>();
  for (const list of [pod.spec?.containers, pod.spec?.initContainers]) {
    for (const c of list ?? []) {
      for (const p of c.ports ?? []) if (p.hostPort) ports.add(p.hostPort);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** Go's sort.Strings / slices.Sort order for the ASCII strings signers compare. */
function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Each requirement as its JSON with sorted values (`{"key":..,"operator":..,"values":[..]}`, as
 * Go marshals a NodeSelectorRequirement), the list sorted (upstream NodeSelectorRequirementsSigner).
 * @public
 */
export function nodeSelectorRequirementsSigner(
  reqs: readonly NodeSelectorRequirement[] | undefined,
): string[] {
  const out: string[] = [];
  for (const r of reqs ?? []) {
    const values = r.values === undefined ? [] : [...r.values].sort(byString);
    // Go's field order and omitempty: key and operator always, values only when not empty.
    const req: { key: string; operator: string; values?: string[] } = {
      key: r.key ?? "",
      operator: r.operator ?? "",
    };
    if (values.length > 0) req.values = values;
    out.push(JSON.stringify(req));
  }
  return out.sort(byString);
}

/**
 * A node selector term's requirements, signed (upstream NodeSelectorTermSigner).
 * @public
 */
export function nodeSelectorTermSigner(t: NodeSelectorTerm | undefined): {
  MatchExpressions: string[];
  MatchFields: string[];
} {
  return {
    MatchExpressions: nodeSelectorRequirementsSigner(t?.matchExpressions),
    MatchFields: nodeSelectorRequirementsSigner(t?.matchFields),
  };
}

/**
 * Each preferred term as the JSON of its weight and signed preference, the list sorted (upstream
 * PreferredSchedulingTermSigner).
 * @public
 */
export function preferredSchedulingTermSigner(terms: readonly PreferredSchedulingTerm[]): string[] {
  return terms
    .map((t) => JSON.stringify({ Weight: t.weight ?? 0, Preference: nodeSelectorTermSigner(t.preference) }))
    .sort(byString);
}

/**
 * Each node selector term as the JSON of its signed requirements, the list sorted (upstream
 * NodeSelectorTermsSigner).
 * @public
 */
export function nodeSelectorTermsSigner(terms: readonly NodeSelectorTerm[] | undefined): string[] {
  return (terms ?? []).map((t) => JSON.stringify(nodeSelectorTermSigner(t))).sort(byString);
}

/**
 * The pod's node affinity, signed: required terms and preferred terms, each sorted (upstream
 * NodeAffinitySigner); null when the pod has no node affinity.
 * @public
 */
export function nodeAffinitySigner(pod: Pod): { Required: string[]; Preferred: string[] } | null {
  const n = pod.spec?.affinity?.nodeAffinity;
  if (n == null) return null;
  const preferred = n.preferredDuringSchedulingIgnoredDuringExecution;
  const required = n.requiredDuringSchedulingIgnoredDuringExecution;
  return {
    Required: required == null ? [] : nodeSelectorTermsSigner(required.nodeSelectorTerms),
    Preferred: preferred == null ? [] : preferredSchedulingTermSigner(preferred),
  };
}

/**
 * The pod's tolerations sorted by key, then value (upstream TolerationsSigner), each with Go's
 * field order and without empty fields, as Go marshals a Toleration.
 * @public
 */
export function tolerationsSigner(pod: Pod): Toleration[] {
  const out: Toleration[] = [];
  for (const t of pod.spec?.tolerations ?? []) {
    const c: Toleration = {};
    if (t.key) c.key = t.key;
    if (t.operator) c.operator = t.operator;
    if (t.value) c.value = t.value;
    if (t.effect) c.effect = t.effect;
    if (t.tolerationSeconds != null) c.tolerationSeconds = t.tolerationSeconds;
    out.push(c);
  }
  return out.sort((a, b) => byString(a.key ?? "", b.key ?? "") || byString(a.value ?? "", b.value ?? ""));
}

/**
 * JSON with every object's keys sorted: one string for equal values whatever the order their
 * fields came in. (A dependency such as fast-json-stable-stringify would do the same; ten lines
 * do not justify one in the plugin API's dependencies.)
 */
function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, e]) => e !== undefined)
      .sort(([a], [b]) => byString(a, b));
    return `{${entries.map(([k, e]) => `${JSON.stringify(k)}:${canonicalJSON(e)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * The JSON of each volume's source, but config map and secret volumes (they do not affect
 * scheduling and differ between otherwise equal pods), sorted (upstream VolumesSigner). Keys are
 * sorted within each source; upstream writes Go's field order: either way equal sources give
 * equal strings.
 * @public
 */
export function volumesSigner(pod: Pod): string[] {
  const out: string[] = [];
  for (const vol of pod.spec?.volumes ?? []) {
    if (vol.configMap != null || vol.secret != null) continue;
    const { name: _name, ...source } = vol;
    out.push(canonicalJSON(source));
  }
  return out.sort(byString);
}

/**
 * The ResourcesSignerName fragment's value: the pod's requests (containers, init containers,
 * sidecars, pod-level resources when `enablePodLevelResources`, overhead) with Go's `Resource`
 * field names, as upstream's NodeResourcesFit and NodeResourcesBalancedAllocation sign them (their
 * package's computePodResourceRequest). Not in upstream's signers.go: here the two plugins are
 * two packages that share it.
 * @public
 */
export function podResourcesSigner(
  pod: Pod,
  enablePodLevelResources: boolean,
): {
  MilliCPU: number;
  Memory: number;
  EphemeralStorage: number;
  AllowedPodNumber: number;
  ScalarResources: Record<string, number> | null;
} {
  const out = {
    MilliCPU: 0,
    Memory: 0,
    EphemeralStorage: 0,
    AllowedPodNumber: 0,
    ScalarResources: null as Record<string, number> | null,
  };
  const scalars: [string, number][] = [];
  for (const [name, v] of podRequests(pod, { skipPodLevelResources: !enablePodLevelResources })) {
    if (name === ResourceCPU) out.MilliCPU = Math.max(out.MilliCPU, v);
    else if (name === ResourceMemory) out.Memory = Math.max(out.Memory, v);
    else if (name === ResourceEphemeralStorage) out.EphemeralStorage = Math.max(out.EphemeralStorage, v);
    else if (isScalarResourceName(name)) scalars.push([name, Math.max(0, v)]);
  }
  if (scalars.length > 0) {
    // Go marshals a map with its keys sorted.
    out.ScalarResources = Object.fromEntries(scalars.sort(([a], [b]) => byString(a, b)));
  }
  return out;
}
