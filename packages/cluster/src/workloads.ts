// Workloads as pending pods: Deployments, ReplicaSets, StatefulSets, Jobs and DaemonSets in a
// snapshot are expanded into the pods their controllers would create, so users can judge
// packing from workload manifests. A controller creates only the pods that are missing: pods
// already in the snapshot that the workload owns (ownerReferences) count toward its replicas.
// upstream: pkg/controller/{deployment,replicaset,statefulset,job,daemon}
import {
  findMatchingUntoleratedTaint,
  getRequiredNodeAffinity,
  isJsonObject,
  type Node,
  type Pod,
  TaintEffectNoExecute,
  TaintEffectNoSchedule,
} from "@kubesched/api";

export const workloadKinds = new Set(["Deployment", "ReplicaSet", "StatefulSet", "Job", "DaemonSet"]);
export type WorkloadKind = "Deployment" | "ReplicaSet" | "StatefulSet" | "Job" | "DaemonSet";

type Json = Record<string, unknown>;

/** A controller-created object: a Pod, or a ReplicaSet a Deployment owns. */
export interface ExpandedObject {
  kind: "Pod" | "ReplicaSet" | "PersistentVolumeClaim";
  obj: Json;
}

// FNV-1a 32-bit over a string, as hash/fnv's New32a (the controllers' hash function).
function fnv32a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

// upstream: k8s.io/apimachinery/pkg/util/rand's alphabet (no vowels, no look-alikes), used by
// SafeEncodeString for pod-template-hash and by String(n) for generated name suffixes.
const alphanums = "bcdfghjklmnpqrstvwxz2456789";
function safeEncode(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}
/**
 * The pod-template-hash of a template, as upstream's controller.ComputeHash: FNV-32a, printed in
 * decimal, SafeEncodeString'd (the hashed bytes differ from kube-controller-manager's: see README).
 */
export function podTemplateHash(template: unknown): string {
  return safeEncode(String(fnv32a(JSON.stringify(template))));
}

// upstream: k8s.io/apiserver/pkg/storage/names SimpleNameGenerator — generateName, cut to leave
// room for the 5 random characters of a 63-character name, then utilrand.String(5).
const randomLength = 5;
const maxGeneratedNameLength = 63 - randomLength;
/** 27^5: the number of distinct suffixes. */
const suffixSpace = alphanums.length ** randomLength;

// lowbias32 (a well-mixing 32-bit integer hash): the Feistel rounds' function.
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The name the API server gives the `index`-th object created with `generateName` by one
 * controller (`key`: the owner's uid). Real suffixes are random; here they are the index run
 * through a permutation of the 27^5 suffixes keyed by `key` (a 4-round Feistel network over 24
 * bits, cycle-walked into 27^5): they look as random, but one owner's objects never share a
 * suffix, and a name depends on (owner, index) alone, not on what else the snapshot holds.
 */
export function generatedName(generateName: string, key: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= suffixSpace) {
    throw new RangeError(`generated name index ${index} is outside 0..${suffixSpace - 1}`);
  }
  const keys = [0, 1, 2, 3].map((round) => fnv32a(`${key}/${round}`));
  let x = index;
  do {
    let left = x >>> 12;
    let right = x & 0xfff;
    for (const k of keys) {
      const next = left ^ (mix32(right ^ k) & 0xfff);
      left = right;
      right = next;
    }
    x = (left << 12) | right;
  } while (x >= suffixSpace);
  let suffix = "";
  for (let i = 0; i < randomLength; i++) {
    suffix += alphanums[x % alphanums.length];
    x = Math.floor(x / alphanums.length);
  }
  return generateName.slice(0, maxGeneratedNameLength) + suffix;
}

function meta(o: Json): Json {
  return isJsonObject(o.metadata) ? o.metadata : {};
}
function spec(o: Json): Json {
  return isJsonObject(o.spec) ? o.spec : {};
}
function uidOf(kind: string, o: Json): string {
  const md = meta(o);
  return typeof md.uid === "string" && md.uid
    ? md.uid
    : `${kind}/${md.namespace ?? "default"}/${md.name ?? ""}`;
}

function ownerRef(apiVersion: string, kind: string, o: Json): Json {
  return {
    apiVersion,
    kind,
    name: meta(o).name,
    uid: uidOf(kind, o),
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** A pod from a workload's template, as the controller's GetPodFromTemplate builds it. */
function podFromTemplate(
  workload: Json,
  owner: Json,
  name: string,
  extraLabels: Record<string, string>,
): Json {
  const tpl = isJsonObject(spec(workload).template) ? (spec(workload).template as Json) : {};
  const tmd = meta(tpl);
  const labels = {
    ...(isJsonObject(tmd.labels) ? (tmd.labels as Record<string, string>) : {}),
    ...extraLabels,
  };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      ...(isJsonObject(tmd.annotations) ? { annotations: { ...tmd.annotations } } : {}),
      name,
      namespace: meta(workload).namespace ?? "default",
      labels,
      ownerReferences: [owner],
    },
    spec: structuredClone(isJsonObject(tpl.spec) ? tpl.spec : {}),
  };
}

function ownedCount(pods: readonly Pod[], uid: string): number {
  return pods.filter((p) => p.metadata?.ownerReferences?.some((r) => r.uid === uid && r.controller)).length;
}

function replicasOf(o: Json, dflt = 1): number {
  const r = spec(o).replicas;
  return typeof r === "number" && Number.isInteger(r) && r >= 0 ? r : dflt;
}

function replicaSetPods(
  rs: Json,
  pods: readonly Pod[],
  extraLabels: Record<string, string> = {},
): ExpandedObject[] {
  const uid = uidOf("ReplicaSet", rs);
  const name = String(meta(rs).name);
  const missing = replicasOf(rs) - ownedCount(pods, uid);
  const out: ExpandedObject[] = [];
  for (let i = 0; i < missing; i++) {
    out.push({
      kind: "Pod",
      obj: podFromTemplate(
        rs,
        ownerRef("apps/v1", "ReplicaSet", rs),
        generatedName(`${name}-`, uid, i),
        extraLabels,
      ),
    });
  }
  return out;
}

function deployment(d: Json, pods: readonly Pod[], replicaSets: readonly Json[]): ExpandedObject[] {
  const uid = uidOf("Deployment", d);
  // A ReplicaSet the snapshot already holds for this Deployment is the controller's business.
  if (replicaSets.some((rs) => (meta(rs).ownerReferences as Json[] | undefined)?.some((r) => r.uid === uid)))
    return [];
  const hash = podTemplateHash(spec(d).template);
  const name = `${String(meta(d).name)}-${hash}`;
  const tpl = structuredClone(isJsonObject(spec(d).template) ? (spec(d).template as Json) : {});
  const tmd = meta(tpl);
  tpl.metadata = {
    ...tmd,
    labels: { ...(isJsonObject(tmd.labels) ? tmd.labels : {}), "pod-template-hash": hash },
  };
  const sel = isJsonObject(spec(d).selector) ? (spec(d).selector as Json) : {};
  const rs: Json = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name,
      namespace: meta(d).namespace ?? "default",
      uid: `ReplicaSet/${meta(d).namespace ?? "default"}/${name}`,
      labels: (tpl.metadata as Json).labels,
      ownerReferences: [ownerRef("apps/v1", "Deployment", d)],
    },
    spec: {
      replicas: replicasOf(d),
      selector: {
        ...sel,
        matchLabels: { ...(isJsonObject(sel.matchLabels) ? sel.matchLabels : {}), "pod-template-hash": hash },
      },
      template: tpl,
    },
  };
  return [{ kind: "ReplicaSet", obj: rs }, ...replicaSetPods(rs, pods)];
}

function statefulSet(s: Json, pods: readonly Pod[], claimsInSnapshot: ReadonlySet<string>): ExpandedObject[] {
  const name = String(meta(s).name);
  const ns = String(meta(s).namespace ?? "default");
  const start =
    isJsonObject(spec(s).ordinals) && typeof (spec(s).ordinals as Json).start === "number"
      ? ((spec(s).ordinals as Json).start as number)
      : 0;
  const revision = `${name}-${podTemplateHash(spec(s).template)}`;
  const out: ExpandedObject[] = [];
  for (let ord = start; ord < start + replicasOf(s); ord++) {
    const podName = `${name}-${ord}`;
    if (pods.some((p) => p.metadata?.name === podName && (p.metadata?.namespace ?? "default") === ns))
      continue;
    const pod = podFromTemplate(s, ownerRef("apps/v1", "StatefulSet", s), podName, {
      "controller-revision-hash": revision,
      "statefulset.kubernetes.io/pod-name": podName,
      "apps.kubernetes.io/pod-index": String(ord),
    });
    const ps = pod.spec as Json;
    ps.hostname = podName;
    if (typeof spec(s).serviceName === "string" && spec(s).serviceName) ps.subdomain = spec(s).serviceName;
    // upstream: statefulset/stateful_set_utils.go updateStorage — one claim per template per ordinal.
    const claims = Array.isArray(spec(s).volumeClaimTemplates)
      ? (spec(s).volumeClaimTemplates as Json[])
      : [];
    if (claims.length) {
      const volumes = (Array.isArray(ps.volumes) ? (ps.volumes as Json[]) : []).filter(
        (v) => !claims.some((c) => meta(c).name === v.name),
      );
      for (const c of claims) {
        const claimName = `${String(meta(c).name)}-${podName}`;
        volumes.push({ name: meta(c).name, persistentVolumeClaim: { claimName } });
        if (claimsInSnapshot.has(`${ns}/${claimName}`)) continue;
        const sel = isJsonObject(spec(s).selector) ? (spec(s).selector as Json) : {};
        out.push({
          kind: "PersistentVolumeClaim",
          obj: {
            apiVersion: "v1",
            kind: "PersistentVolumeClaim",
            metadata: {
              name: claimName,
              namespace: ns,
              labels: { ...(isJsonObject(sel.matchLabels) ? sel.matchLabels : {}) },
            },
            spec: structuredClone(isJsonObject(c.spec) ? c.spec : {}),
          },
        });
      }
      ps.volumes = volumes;
    }
    out.push({ kind: "Pod", obj: pod });
  }
  return out;
}

function job(j: Json, pods: readonly Pod[]): ExpandedObject[] {
  const uid = uidOf("Job", j);
  const name = String(meta(j).name);
  const sp = spec(j);
  if (sp.suspend === true) return [];
  const parallelism = typeof sp.parallelism === "number" ? sp.parallelism : 1;
  const completions = typeof sp.completions === "number" ? sp.completions : null;
  const wanted = completions === null ? parallelism : Math.min(parallelism, completions);
  const missing = wanted - ownedCount(pods, uid);
  const labels = {
    "batch.kubernetes.io/controller-uid": uid,
    "batch.kubernetes.io/job-name": name,
    "controller-uid": uid,
    "job-name": name,
  };
  const out: ExpandedObject[] = [];
  for (let i = 0; i < missing; i++) {
    const indexed = sp.completionMode === "Indexed";
    // upstream: job controller — generateName "<job>-" ("<job>-<index>-" for Indexed jobs).
    const podName = generatedName(indexed ? `${name}-${i}-` : `${name}-`, uid, i);
    const pod = podFromTemplate(j, ownerRef("batch/v1", "Job", j), podName, {
      ...labels,
      ...(indexed ? { "batch.kubernetes.io/job-completion-index": String(i) } : {}),
    });
    if (indexed) {
      const md = pod.metadata as Json;
      md.annotations = {
        ...(isJsonObject(md.annotations) ? md.annotations : {}),
        "batch.kubernetes.io/job-completion-index": String(i),
      };
    }
    out.push({ kind: "Pod", obj: pod });
  }
  return out;
}

// upstream: pkg/controller/daemon/util/daemonset_util.go AddOrUpdateDaemonPodTolerations.
function daemonTolerations(hostNetwork: boolean): Json[] {
  const t = (key: string, effect: string): Json => ({ key, operator: "Exists", effect });
  return [
    t("node.kubernetes.io/not-ready", TaintEffectNoExecute),
    t("node.kubernetes.io/unreachable", TaintEffectNoExecute),
    t("node.kubernetes.io/disk-pressure", TaintEffectNoSchedule),
    t("node.kubernetes.io/memory-pressure", TaintEffectNoSchedule),
    t("node.kubernetes.io/pid-pressure", TaintEffectNoSchedule),
    t("node.kubernetes.io/unschedulable", TaintEffectNoSchedule),
    ...(hostNetwork ? [t("node.kubernetes.io/network-unavailable", TaintEffectNoSchedule)] : []),
  ];
}

// upstream: daemonset_util.go ReplaceDaemonSetPodNodeNameNodeAffinity — the pod's required
// node affinity becomes one term selecting the node by metadata.name (other terms dropped).
function nodeNameAffinity(ps: Json, nodeName: string): void {
  const term = { matchFields: [{ key: "metadata.name", operator: "In", values: [nodeName] }] };
  const affinity = isJsonObject(ps.affinity) ? ps.affinity : {};
  const na = isJsonObject(affinity.nodeAffinity) ? affinity.nodeAffinity : {};
  ps.affinity = {
    ...affinity,
    nodeAffinity: { ...na, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } },
  };
}

function daemonSet(ds: Json, pods: readonly Pod[], nodes: readonly Node[]): ExpandedObject[] {
  const uid = uidOf("DaemonSet", ds);
  const name = String(meta(ds).name);
  const generation = typeof meta(ds).generation === "number" ? String(meta(ds).generation) : "1";
  const out: ExpandedObject[] = [];
  for (const [index, node] of nodes.entries()) {
    const nodeName = node.metadata?.name ?? "";
    // The index is the node's in the snapshot: each node's pod keeps its name whichever others run it.
    const pod = podFromTemplate(
      ds,
      ownerRef("apps/v1", "DaemonSet", ds),
      generatedName(`${name}-`, uid, index),
      {
        "controller-revision-hash": podTemplateHash(spec(ds).template),
        "pod-template-generation": generation,
      },
    );
    const ps = pod.spec as Json;
    ps.tolerations = [
      ...(Array.isArray(ps.tolerations) ? ps.tolerations : []),
      ...daemonTolerations(ps.hostNetwork === true),
    ];
    // upstream: daemon_controller.go NodeShouldRunDaemonPod — the node selector/affinity must
    // match and no NoSchedule/NoExecute taint may be untolerated.
    if (!getRequiredNodeAffinity(pod as Pod).match(node)) continue;
    const untolerated = findMatchingUntoleratedTaint(
      node.spec?.taints,
      (pod as Pod).spec?.tolerations,
      (t) => t.effect === TaintEffectNoSchedule || t.effect === TaintEffectNoExecute,
    );
    if (untolerated) continue;
    const running = pods.some(
      (p) =>
        p.spec?.nodeName === nodeName &&
        p.metadata?.ownerReferences?.some((r) => r.uid === uid && r.controller),
    );
    if (running) continue;
    nodeNameAffinity(ps, nodeName);
    out.push({ kind: "Pod", obj: pod });
  }
  return out;
}

/**
 * The workload with its replicas multiplied by `scale` (a sweep's workload scale), rounded up:
 * `spec.replicas` of Deployments, ReplicaSets and StatefulSets (absent: 1), `spec.parallelism`
 * and `spec.completions` of Jobs. DaemonSets run one pod per node and are left as they are.
 */
export function scaleWorkload(kind: WorkloadKind, workload: Json, scale: number): Json {
  if (scale === 1 || kind === "DaemonSet") return workload;
  const sp = spec(workload);
  const times = (n: number) => Math.ceil(n * scale);
  const scaled: Json =
    kind === "Job"
      ? {
          ...sp,
          parallelism: times(typeof sp.parallelism === "number" ? sp.parallelism : 1),
          ...(typeof sp.completions === "number" ? { completions: times(sp.completions) } : {}),
        }
      : { ...sp, replicas: times(replicasOf(workload)) };
  return { ...workload, spec: scaled };
}

/**
 * The objects a workload's controller would create, given the snapshot's pods, ReplicaSets and
 * nodes (pods it already owns count; a Deployment whose ReplicaSet exists creates nothing).
 */
export function expandWorkload(
  kind: WorkloadKind,
  workload: Json,
  cluster: {
    pods: readonly Pod[];
    replicaSets: readonly Json[];
    nodes: readonly Node[];
    /** `namespace/name` of the PersistentVolumeClaims in the snapshot. */
    claims: ReadonlySet<string>;
  },
): ExpandedObject[] {
  switch (kind) {
    case "Deployment":
      return deployment(workload, cluster.pods, cluster.replicaSets);
    case "ReplicaSet":
      return replicaSetPods(workload, cluster.pods);
    case "StatefulSet":
      return statefulSet(workload, cluster.pods, cluster.claims);
    case "Job":
      return job(workload, cluster.pods);
    case "DaemonSet":
      return daemonSet(workload, cluster.pods, cluster.nodes);
  }
}
