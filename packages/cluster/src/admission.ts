// What the API server would have done to objects created through it, for snapshots that
// were written by hand: defaults and admission (Priority, MatchLabelKeysInPodAffinity), so
// that hand-written and `kubectl get -o yaml` snapshots behave alike. The pods kubesched itself
// creates (a workload's pods, capacity's replicas) also go through LimitRanger and ResourceQuota
// (limit-ranger.ts, resource-quota.ts); pods of the snapshot were admitted already.
import type { LabelSelector, Node, Pod, PodAffinityTerm, PriorityClass } from "@kubesched/api";
import { type LimitRange, LimitRanges } from "./limit-ranger";
import type { SourcedObject } from "./load";
import { QuotaTracker, type ResourceQuota } from "./resource-quota";
import { simulationEpoch } from "./simulate";

export class AdmissionError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join("\n"));
    this.name = "AdmissionError";
  }
}

function mergeMatchLabelKeys(pod: Pod, term: PodAffinityTerm): PodAffinityTerm {
  const labels = pod.metadata?.labels ?? {};
  const extra: NonNullable<LabelSelector["matchExpressions"]> = [];
  for (const k of term.matchLabelKeys ?? []) {
    const v = labels[k];
    if (v !== undefined) extra.push({ key: k, operator: "In", values: [v] });
  }
  for (const k of term.mismatchLabelKeys ?? []) {
    const v = labels[k];
    if (v !== undefined) extra.push({ key: k, operator: "NotIn", values: [v] });
  }
  if (extra.length === 0 || !term.labelSelector) return term;
  const existing = term.labelSelector.matchExpressions ?? [];
  const missing = extra.filter(
    (e) =>
      !existing.some((x) => x.key === e.key && x.operator === e.operator && x.values?.[0] === e.values?.[0]),
  );
  if (missing.length === 0) return term;
  return { ...term, labelSelector: { ...term.labelSelector, matchExpressions: [...existing, ...missing] } };
}

function mapTerms<T>(terms: T[] | undefined, f: (t: T) => T): T[] | undefined {
  return terms?.map(f);
}

/** Pod defaults and admission as the API server applies them at creation. */
function admitPod(
  pod: Pod,
  classes: Map<string, PriorityClass>,
  globalDefault: PriorityClass | undefined,
): Pod {
  const spec = { ...pod.spec, containers: pod.spec?.containers ?? [] };
  spec.schedulerName ||= "default-scheduler";
  if (spec.priority === undefined || spec.priority === null) {
    const className = spec.priorityClassName;
    const pc = className ? classes.get(className) : globalDefault;
    if (className && !pc && className !== "system-cluster-critical" && className !== "system-node-critical") {
      throw new Error(`no PriorityClass with name ${className} was found`);
    }
    if (pc) {
      spec.priority = pc.value;
      spec.priorityClassName ??= pc.metadata?.name;
      if (pc.preemptionPolicy && !spec.preemptionPolicy) spec.preemptionPolicy = pc.preemptionPolicy;
    } else if (className === "system-cluster-critical") spec.priority = 2000000000;
    else if (className === "system-node-critical") spec.priority = 2000001000;
  }
  spec.preemptionPolicy ||= "PreemptLowerPriority";
  const aff = spec.affinity;
  if (aff?.podAffinity || aff?.podAntiAffinity) {
    const req = (t: PodAffinityTerm) => mergeMatchLabelKeys(pod, t);
    spec.affinity = {
      ...aff,
      ...(aff.podAffinity
        ? {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: mapTerms(
                aff.podAffinity.requiredDuringSchedulingIgnoredDuringExecution,
                req,
              ),
              preferredDuringSchedulingIgnoredDuringExecution: mapTerms(
                aff.podAffinity.preferredDuringSchedulingIgnoredDuringExecution,
                (w) => ({ ...w, podAffinityTerm: req(w.podAffinityTerm) }),
              ),
            },
          }
        : {}),
      ...(aff.podAntiAffinity
        ? {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: mapTerms(
                aff.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution,
                req,
              ),
              preferredDuringSchedulingIgnoredDuringExecution: mapTerms(
                aff.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution,
                (w) => ({ ...w, podAffinityTerm: req(w.podAffinityTerm) }),
              ),
            },
          }
        : {}),
    };
  }
  const ns = pod.metadata?.namespace ?? "default";
  const name = pod.metadata?.name ?? "";
  return {
    ...pod,
    metadata: { ...pod.metadata, namespace: ns, uid: pod.metadata?.uid || `${ns}/${name}` },
    spec,
  };
}

/** Node status defaulting: allocatable defaults to capacity (as for node-default templates). */
function admitNode(node: Node): Node {
  if (node.status?.allocatable || !node.status?.capacity) return node;
  return { ...node, status: { ...node.status, allocatable: { ...node.status.capacity } } };
}

/** Applies defaults and admission to every object; throws AdmissionError listing every problem. */
export function admit(objects: readonly SourcedObject[]): SourcedObject[] {
  const classes = new Map<string, PriorityClass>();
  let globalDefault: PriorityClass | undefined;
  for (const o of objects) {
    if (o.kind !== "PriorityClass") continue;
    const pc = o.obj as PriorityClass;
    classes.set(pc.metadata?.name ?? "", pc);
    if (pc.globalDefault && (!globalDefault || pc.value > globalDefault.value)) globalDefault = pc;
  }
  const errors: string[] = [];
  const out: SourcedObject[] = [];
  for (const o of objects) {
    try {
      if (o.kind === "Pod") out.push({ ...o, obj: admitPod(o.obj as Pod, classes, globalDefault) });
      else if (o.kind === "Node") out.push({ ...o, obj: admitNode(o.obj as Node) });
      else out.push(o);
    } catch (e) {
      errors.push(`${o.origin}: ${(e as Error).message}`);
    }
  }
  if (errors.length) throw new AdmissionError(errors);
  return out;
}

/** LimitRanger and ResourceQuota over a snapshot's LimitRanges, ResourceQuotas and pods. */
export interface CreatedObjectAdmission {
  limitRanges: LimitRanges;
  quotas: QuotaTracker;
  /** The globalDefault PriorityClass' name: the Priority plugin gives it to pods without one. */
  defaultPriorityClass: string | undefined;
}

/**
 * The admission state for pods created into the snapshot: `pods` (default: the snapshot's pods)
 * exist already and count against the quotas.
 */
export function createdObjectAdmission(
  objects: readonly SourcedObject[],
  pods: readonly Pod[] = objects.filter((o) => o.kind === "Pod").map((o) => o.obj as Pod),
): CreatedObjectAdmission {
  let globalDefault: PriorityClass | undefined;
  for (const o of objects) {
    const pc = o.obj as PriorityClass;
    if (o.kind === "PriorityClass" && pc.globalDefault && (!globalDefault || pc.value > globalDefault.value))
      globalDefault = pc;
  }
  return {
    limitRanges: new LimitRanges(
      objects.filter((o) => o.kind === "LimitRange").map((o) => o.obj as LimitRange),
    ),
    quotas: new QuotaTracker(
      objects.filter((o) => o.kind === "ResourceQuota").map((o) => o.obj as ResourceQuota),
      pods,
      simulationEpoch,
    ),
    defaultPriorityClass: globalDefault?.metadata?.name,
  };
}

/**
 * LimitRanger (defaults, then min/max/ratio) and ResourceQuota for a pod being created, in the
 * API server's order: the defaulted pod (its usage now charged), or the Forbidden message;
 * `exhausted` marks a quota whose usage leaves no room (`exceeded quota: ...`).
 */
export function admitCreatedPod(
  admission: CreatedObjectAdmission,
  pod: Pod,
): { pod: Pod } | { error: string; exhausted: boolean } {
  const limited = admission.limitRanges.admitPod(pod);
  if ("error" in limited) return { error: limited.error, exhausted: false };
  // The Priority plugin runs before ResourceQuota: a PriorityClass scope sees the default class.
  const spec = limited.pod.spec;
  const forQuota =
    spec && !spec.priorityClassName && admission.defaultPriorityClass
      ? { ...limited.pod, spec: { ...spec, priorityClassName: admission.defaultPriorityClass } }
      : limited.pod;
  const refused = admission.quotas.admit(forQuota);
  return refused ?? limited;
}
