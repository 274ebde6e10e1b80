// The counterfactual engine: apply typed changes to a snapshot's objects, re-run the real scheduler
// on the result with `simulate` (the wiring `kubesched simulate` uses, no second one) and compare
// with the unchanged run: where a pod lands, which other pending pods no longer fit, which running
// pods preemption evicts. The objects are copied on write: a run shares every unchanged object with
// the snapshot (InMemoryCluster stores copies, so a run never writes into them) and only the
// changed ones are new. `kubesched why` proves its fixes with it; planning adds nodes with it.
import { type Node, type Pod, podKey, type ResourceSlice, type Taint, type Toleration } from "@kubesched/api";
import type { Logger } from "@kubesched/framework";
import type { SourcedObject } from "./load";
import { type PodResult, type SimulateOptions, type SimulationResult, simulate } from "./simulate";

/**
 * The cordon taint the node lifecycle controller keeps in step with `spec.unschedulable` (upstream:
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go, doNoScheduleTaintingPass).
 */
export const unschedulableTaintKey = "node.kubernetes.io/unschedulable";

/**
 * One change to the cluster or to a pod. Pods are `namespace/name`; container, term and constraint
 * indexes are the positions in the pod's spec.
 */
export type ClusterChange =
  /** Sets requests of one container (quantities); the other resources stay. */
  | { kind: "SetContainerRequests"; pod: string; container: number; requests: Record<string, string> }
  | { kind: "AddToleration"; pod: string; toleration: Toleration }
  | { kind: "RemoveNodeSelectorKey"; pod: string; key: string }
  /** Removes the requirements on `key` from one required node affinity term (an emptied term goes). */
  | { kind: "RemoveNodeAffinityRequirement"; pod: string; term: number; key: string }
  /** Sets a topology spread constraint's maxSkew. */
  | { kind: "SetMaxSkew"; pod: string; constraint: number; maxSkew: number }
  /** Removes the pod's required (anti-)affinity terms with this topology key. */
  | { kind: "RemovePodAffinityTerm"; pod: string; rule: "affinity" | "antiAffinity"; topologyKey: string }
  /** Sets priorityClassName; the priority and preemptionPolicy then come from the class. */
  | { kind: "SetPriorityClass"; pod: string; priorityClassName: string }
  /** `kubectl uncordon`: spec.unschedulable off and the cordon taint gone. */
  | { kind: "Uncordon"; node: string }
  | { kind: "RemoveTaint"; node: string; taint: Taint }
  /** Adjusts a taint: the same key and value with another effect (NoSchedule → PreferNoSchedule). */
  | { kind: "SetTaintEffect"; node: string; taint: Taint; effect: string }
  | { kind: "SetNodeLabel"; node: string; key: string; value: string }
  /**
   * Adds `count` nodes shaped like `like` (a node of the snapshot by name, or a Node template):
   * its labels, taints and allocatable, not a cordon; named `<name>-new-<i>` (hostname label too).
   */
  | { kind: "AddNodes"; like: string | Node; count: number }
  /**
   * Adds pods as given: running when `spec.nodeName` is set, else pending — queued before the pod
   * `before` (`namespace/name`: where the snapshot's loader would have created them, as an added
   * node's DaemonSet pods), or after every other pod.
   */
  | { kind: "AddPods"; pods: Pod[]; before?: string }
  /** Adds ResourceSlices (resource.k8s.io/v1): the devices a DRA driver publishes for added nodes. */
  | { kind: "AddResourceSlices"; slices: ResourceSlice[] }
  /** Evicts running pods; their controllers re-create them pending, after every other pod. */
  | { kind: "MovePods"; pods: string[] }
  /** Deletes pods. */
  | { kind: "RemovePods"; pods: string[] };

/** Bad change for the objects (a pod or node that is not there): a programmer's error. */
export class CounterfactualError extends Error {}

/** How many edits a change makes: what `why` ranks its fixes by. */
export function changeSize(c: ClusterChange): number {
  switch (c.kind) {
    case "SetContainerRequests":
      return Object.keys(c.requests).length;
    case "AddNodes":
      return c.count;
    case "AddPods":
    case "MovePods":
    case "RemovePods":
      return c.pods.length;
    case "AddResourceSlices":
      return c.slices.length;
    default:
      return 1;
  }
}

function nameOf(o: SourcedObject): string {
  return o.obj.metadata?.name ?? "";
}

function keyOf(o: SourcedObject): string {
  return o.kind === "Pod" ? podKey(o.obj as Pod) : nameOf(o);
}

/** The objects with `changes` applied in order; unchanged objects are shared with `objects`. */
export function applyChanges(
  objects: readonly SourcedObject[],
  changes: readonly ClusterChange[],
): SourcedObject[] {
  let out = [...objects];
  for (const c of changes) out = applyChange(out, c);
  return out;
}

function find(objects: SourcedObject[], kind: "Pod" | "Node", key: string): number {
  const i = objects.findIndex((o) => o.kind === kind && !o.resource && keyOf(o) === key);
  if (i < 0) throw new CounterfactualError(`no ${kind} ${key} in the objects`);
  return i;
}

function patchPod(objects: SourcedObject[], key: string, f: (spec: NonNullable<Pod["spec"]>) => void) {
  const i = find(objects, "Pod", key);
  const o = objects[i] as SourcedObject;
  const pod = structuredClone(o.obj) as Pod;
  pod.spec ??= { containers: [] };
  f(pod.spec);
  objects[i] = { ...o, obj: pod };
}

function patchNode(objects: SourcedObject[], name: string, f: (node: Node) => void) {
  const i = find(objects, "Node", name);
  const o = objects[i] as SourcedObject;
  const node = structuredClone(o.obj) as Node;
  f(node);
  objects[i] = { ...o, obj: node };
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && (a.value ?? "") === (b.value ?? "") && a.effect === b.effect;
}

function applyChange(objects: SourcedObject[], c: ClusterChange): SourcedObject[] {
  switch (c.kind) {
    case "SetContainerRequests":
      patchPod(objects, c.pod, (spec) => {
        const ctr = spec.containers[c.container];
        if (ctr === undefined) throw new CounterfactualError(`pod ${c.pod} has no container ${c.container}`);
        ctr.resources = { ...ctr.resources, requests: { ...ctr.resources?.requests, ...c.requests } };
      });
      return objects;
    case "AddToleration":
      patchPod(objects, c.pod, (spec) => {
        spec.tolerations = [...(spec.tolerations ?? []), c.toleration];
      });
      return objects;
    case "RemoveNodeSelectorKey":
      patchPod(objects, c.pod, (spec) => {
        const { [c.key]: _, ...rest } = spec.nodeSelector ?? {};
        if (Object.keys(rest).length > 0) spec.nodeSelector = rest;
        else delete spec.nodeSelector;
      });
      return objects;
    case "RemoveNodeAffinityRequirement":
      patchPod(objects, c.pod, (spec) => {
        const na = spec.affinity?.nodeAffinity;
        const terms = na?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
        const term = terms?.[c.term];
        if (na === undefined || terms === undefined || term === undefined)
          throw new CounterfactualError(`pod ${c.pod} has no required node affinity term ${c.term}`);
        const exprs = term.matchExpressions?.filter((e) => e.key !== c.key);
        const fields = term.matchFields?.filter((e) => e.key !== c.key);
        if ((exprs?.length ?? 0) + (fields?.length ?? 0) > 0) {
          terms[c.term] = {
            ...(exprs?.length ? { matchExpressions: exprs } : {}),
            ...(fields?.length ? { matchFields: fields } : {}),
          };
        } else if (terms.length > 1) {
          terms.splice(c.term, 1);
        } else {
          delete na.requiredDuringSchedulingIgnoredDuringExecution;
        }
      });
      return objects;
    case "SetMaxSkew":
      patchPod(objects, c.pod, (spec) => {
        const tsc = spec.topologySpreadConstraints?.[c.constraint];
        if (tsc === undefined)
          throw new CounterfactualError(`pod ${c.pod} has no topology spread constraint ${c.constraint}`);
        tsc.maxSkew = c.maxSkew;
      });
      return objects;
    case "RemovePodAffinityTerm":
      patchPod(objects, c.pod, (spec) => {
        const a = c.rule === "affinity" ? spec.affinity?.podAffinity : spec.affinity?.podAntiAffinity;
        const terms = a?.requiredDuringSchedulingIgnoredDuringExecution;
        if (a === undefined || terms === undefined) return;
        const left = terms.filter((t) => t.topologyKey !== c.topologyKey);
        if (left.length > 0) a.requiredDuringSchedulingIgnoredDuringExecution = left;
        else delete a.requiredDuringSchedulingIgnoredDuringExecution;
      });
      return objects;
    case "SetPriorityClass":
      patchPod(objects, c.pod, (spec) => {
        spec.priorityClassName = c.priorityClassName;
        delete spec.priority;
        delete spec.preemptionPolicy;
      });
      return objects;
    case "Uncordon":
      patchNode(objects, c.node, (node) => {
        if (node.spec) {
          delete node.spec.unschedulable;
          const taints = node.spec.taints?.filter((t) => t.key !== unschedulableTaintKey);
          if (taints?.length) node.spec.taints = taints;
          else delete node.spec.taints;
        }
      });
      return objects;
    case "RemoveTaint":
      patchNode(objects, c.node, (node) => {
        const taints = node.spec?.taints?.filter((t) => !sameTaint(t, c.taint));
        if (node.spec && taints?.length) node.spec.taints = taints;
        else if (node.spec) delete node.spec.taints;
      });
      return objects;
    case "SetTaintEffect":
      patchNode(objects, c.node, (node) => {
        const t = node.spec?.taints?.find((x) => sameTaint(x, c.taint));
        if (t === undefined) throw new CounterfactualError(`node ${c.node} has no taint ${c.taint.key}`);
        t.effect = c.effect;
        delete t.timeAdded;
      });
      return objects;
    case "SetNodeLabel":
      patchNode(objects, c.node, (node) => {
        node.metadata = { ...node.metadata, labels: { ...node.metadata?.labels, [c.key]: c.value } };
      });
      return objects;
    case "AddNodes": {
      const template =
        typeof c.like === "string" ? (objects[find(objects, "Node", c.like)]?.obj as Node) : c.like;
      for (const name of addedNodeNames(template.metadata?.name ?? "node", c.count))
        objects.push({
          kind: "Node",
          obj: shapedLike(template, name),
          origin: "an added node",
        });
      return objects;
    }
    case "AddPods": {
      const added = c.pods.map((obj): SourcedObject => ({ kind: "Pod", obj, origin: "an added pod" }));
      if (c.before === undefined) objects.push(...added);
      else objects.splice(find(objects, "Pod", c.before), 0, ...added);
      return objects;
    }
    case "AddResourceSlices":
      for (const slice of c.slices)
        objects.push({ kind: "ResourceSlice", obj: slice, origin: "an added ResourceSlice" });
      return objects;
    case "MovePods":
    case "RemovePods": {
      const moved: SourcedObject[] = [];
      for (const key of c.pods) {
        const i = find(objects, "Pod", key);
        const [o] = objects.splice(i, 1) as [SourcedObject];
        if (c.kind === "MovePods") moved.push({ ...o, obj: asRecreated(o.obj as Pod) });
      }
      objects.push(...moved);
      return objects;
    }
  }
}

/** The names of `count` nodes added like `like`: `<like>-new-1`, `<like>-new-2`, ... */
export function addedNodeNames(like: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${like}-new-${i + 1}`);
}

/** A new node shaped like `template`: labels (its own hostname), taints but the cordon's, allocatable. */
export function shapedLike(template: Node, name: string): Node {
  const labels = { ...template.metadata?.labels };
  if (labels["kubernetes.io/hostname"] !== undefined) labels["kubernetes.io/hostname"] = name;
  const taints = template.spec?.taints?.filter((t) => t.key !== unschedulableTaintKey);
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, labels },
    spec: taints?.length ? { taints } : {},
    status: {
      ...(template.status?.capacity ? { capacity: { ...template.status.capacity } } : {}),
      ...(template.status?.allocatable ? { allocatable: { ...template.status.allocatable } } : {}),
    },
  };
}

/** The pod as its controller re-creates it after an eviction: pending, no node, no status. */
function asRecreated(pod: Pod): Pod {
  const { nodeName: _, ...spec } = pod.spec ?? { containers: [] };
  const { resourceVersion: _rv, uid: _uid, ...metadata } = pod.metadata ?? {};
  return { ...pod, metadata, spec: { ...spec, containers: spec.containers ?? [] }, status: {} };
}

/** What one counterfactual run gives, compared with the baseline. */
export interface CounterfactualOutcome {
  result: SimulationResult;
  /** Every pending pod's result, by `namespace/name`. */
  pods: Map<string, PodResult>;
  /** Pending pods the baseline schedules that this run does not (pods the changes removed aside). */
  noLongerFit: string[];
  /** Running pods this run's preemptions evict that the baseline's do not. */
  preempted: string[];
}

/** What the engine runs: simulate's options without the per-run ones. */
export type CounterfactualOptions = Omit<SimulateOptions, "explain" | "explainPods" | "timing" | "observer">;

/**
 * A snapshot and its baseline run, to try changes against. Every run is a full `simulate` of the
 * changed objects with the same options (seed included), so a run's result is what
 * `kubesched simulate` prints for the changed snapshot.
 */
export class Counterfactuals {
  /** How many runs were made, the baseline's included. */
  runs = 1;

  private constructor(
    private readonly opts: CounterfactualOptions,
    readonly baseline: SimulationResult,
    private readonly baselinePods: Map<string, PodResult>,
  ) {}

  /** Runs the baseline. */
  static async open(opts: CounterfactualOptions): Promise<Counterfactuals> {
    const baseline = await simulate({ ...opts, logger: errorsOnly(opts.logger) });
    return new Counterfactuals(opts, baseline, byKey(baseline));
  }

  /** The snapshot's objects (unchanged). */
  get objects(): readonly SourcedObject[] {
    return this.opts.objects;
  }

  /** The baseline's result of one pending pod. */
  baselineOf(pod: string): PodResult | undefined {
    return this.baselinePods.get(pod);
  }

  /**
   * Applies `changes` and simulates. `pendingPods` limits which pending pods of the snapshot are
   * scheduled (by key; pods moved by the changes always are); all when absent.
   */
  async run(
    changes: readonly ClusterChange[],
    pendingPods?: readonly string[],
  ): Promise<CounterfactualOutcome> {
    let objects = applyChanges(this.opts.objects, changes);
    if (pendingPods !== undefined) {
      const keep = new Set(pendingPods);
      for (const c of changes) if (c.kind === "MovePods") for (const p of c.pods) keep.add(p);
      objects = objects.filter(
        (o) => o.kind !== "Pod" || (o.obj as Pod).spec?.nodeName || keep.has(keyOf(o)),
      );
    }
    this.runs++;
    const result = await simulate({ ...this.opts, objects, logger: errorsOnly(this.opts.logger) });
    const pods = byKey(result);
    const removed = new Set<string>();
    for (const c of changes)
      if (c.kind === "MovePods" || c.kind === "RemovePods") for (const p of c.pods) removed.add(p);
    const noLongerFit: string[] = [];
    for (const [key, was] of this.baselinePods) {
      const now = pods.get(key);
      if (
        was.outcome === "Scheduled" &&
        now !== undefined &&
        now.outcome !== "Scheduled" &&
        !removed.has(key)
      )
        noLongerFit.push(key);
    }
    const before = new Set(this.baseline.preemptions.flatMap((p) => p.victims));
    const preempted = result.preemptions.flatMap((p) => p.victims).filter((v) => !before.has(v));
    return { result, pods, noLongerFit, preempted };
  }
}

/** The runs' info lines ("Unable to schedule pod") would repeat for every run: errors and warnings only. */
function errorsOnly(l: Logger): Logger {
  const quiet: Logger = {
    error: (msg, fields) => l.error(msg, fields),
    warn: (msg, fields) => l.warn(msg, fields),
    info: () => {},
    v: () => false,
    debug: () => {},
    child: () => quiet,
  };
  return quiet;
}

function byKey(r: SimulationResult): Map<string, PodResult> {
  return new Map(r.pods.map((p) => [`${p.namespace}/${p.name}`, p]));
}
