// kubesched why's verified fixes: candidate changes derived from the diagnosis (the plugins' own
// numbers: shortfalls, taints, label requirements, skews, conflicting pods), each proven with the
// counterfactual engine (a full simulate of the changed snapshot, every other pending pod
// included) and reported only when the pod then schedules: where it lands and what it displaces,
// smallest change first, within a wall-clock budget.
import {
  formatResourceAmount,
  type Pod,
  type PriorityClass,
  podKey,
  podRequests,
  ResourceCPU,
  ResourceMemory,
  ResourcePods,
  resourceAmount,
  type Toleration,
} from "@kubesched/api";
import type { FilterDetail } from "@kubesched/framework";
import { admit } from "./admission";
import {
  addedNodeNames,
  type ClusterChange,
  type CounterfactualOptions,
  type CounterfactualOutcome,
  Counterfactuals,
  changeSize,
  unschedulableTaintKey,
} from "./counterfactual";
import type { SourcedObject } from "./load";
import type { NodeResult } from "./simulate";
import type { WhyReport } from "./why";

/** A change proven to make the pod schedulable. */
export interface WhyFix {
  /** The change kinds, `+`-joined when a fix makes several ("AddToleration", "Uncordon+SetNodeLabel"). */
  kind: string;
  /** Whether the pod or the cluster changes. */
  target: "pod" | "cluster";
  description: string;
  /** The number of edits (fields, objects, pods moved): what fixes are ranked by. */
  size: number;
  /** Where the pod lands with the fix. */
  node: string;
  /** Other pods that no longer fit with the fix: pending pods, evicted or moved running pods. */
  displaces: string[];
  /** The commands, or manifest edits, a user would make. */
  kubectl: string[];
  /** The typed changes, as the counterfactual engine applies them. */
  changes: ClusterChange[];
  /** Where pods the fix moves land (null: nowhere). */
  moved: { pod: string; node: string | null }[];
}

/** How the search for fixes went. */
export interface WhyFixSearch {
  /** The wall-clock budget. */
  budgetSeconds: number;
  /** True when the budget ran out before every candidate was tried. */
  exhausted: boolean;
  /** Simulations run to prove candidates (the baseline's not counted). */
  tried: number;
  /** Whether the other pending pods were simulated with the pod (else the pod alone). */
  withPendingPods: boolean;
  note?: string;
}

export interface WhyFixOptions extends CounterfactualOptions {
  /** The pod, `namespace/name`. */
  pod: string;
  /** Wall-clock seconds for the search (checked between simulations). */
  budgetSeconds: number;
  maxFixes: number;
  /** Prove fixes with the pod alone, not every other pending pod too (the default). */
  alone?: boolean;
  /**
   * The pod comes from a manifest (`why -f FILE`), not from the cluster: its changes are edits of
   * that manifest, never a `kubectl patch` of a pod that does not exist.
   */
  podFromManifest?: boolean;
}

interface Candidate {
  target: "pod" | "cluster";
  changes: ClusterChange[];
  /** Requests to lower: the largest values that fit are searched for. */
  lower?: Lowering;
  /** Try the next candidates of this group only while none of them was proven. */
  group?: string;
}

interface Lowering {
  node: string;
  /** Per resource: the pod's request and the largest value the node could take (its free amount). */
  resources: { resource: string; requested: number; max: number }[];
}

type Options = { pod?: ClusterChange[]; cluster?: ClusterChange[]; lower?: Lowering["resources"][number] };

function toleration(t: { key: string; value?: string; effect: string }): Toleration {
  return t.value
    ? { key: t.key, operator: "Equal", value: t.value, effect: t.effect }
    : { key: t.key, operator: "Exists", effect: t.effect };
}

/** The running pods by node. */
function podsByNode(admitted: readonly SourcedObject[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const o of admitted) {
    const node = o.kind === "Pod" ? (o.obj as Pod).spec?.nodeName : undefined;
    if (!node) continue;
    const list = out.get(node);
    if (list) list.push(o.obj as Pod);
    else out.set(node, [o.obj as Pod]);
  }
  return out;
}

/**
 * Pods to move off a node until `short` of `resource` is free (lowest priority first, then the
 * largest request of it); null when they cannot free it.
 */
function podsToFree(running: Pod[], resource: string, short: number): string[] | null {
  const sorted = [...running].sort(
    (a, b) =>
      (a.spec?.priority ?? 0) - (b.spec?.priority ?? 0) || amountOf(b, resource) - amountOf(a, resource),
  );
  const out: string[] = [];
  let freed = 0;
  for (const p of sorted) {
    if (freed >= short) break;
    const a = amountOf(p, resource);
    if (a <= 0) continue;
    out.push(podKey(p));
    freed += a;
  }
  return freed >= short ? out : null;
}

function amountOf(p: Pod, resource: string): number {
  return resource === ResourcePods ? 1 : (podRequests(p).get(resource) ?? 0);
}

/** The pod and cluster changes that would remove one rejection on a node. */
function optionsFor(d: FilterDetail, pod: Pod, key: string, node: string, running: Pod[]): Options {
  switch (d.kind) {
    case "InsufficientResource": {
      const free = d.capacity - d.used;
      const movable = d.capacity >= d.requested ? podsToFree(running, d.resource, d.short) : null;
      return {
        ...(movable ? { cluster: [{ kind: "MovePods", pods: movable }] } : {}),
        ...(d.resource !== ResourcePods && free > 0
          ? { lower: { resource: d.resource, requested: d.requested, max: free } }
          : {}),
      };
    }
    case "UntoleratedTaint":
      if (d.taint.key === unschedulableTaintKey) return { cluster: [{ kind: "Uncordon", node }] };
      return {
        pod: [{ kind: "AddToleration", pod: key, toleration: toleration(d.taint) }],
        cluster: [{ kind: "RemoveTaint", node, taint: d.taint }],
      };
    case "Cordoned":
      return { cluster: [{ kind: "Uncordon", node }] };
    case "NodeLabelMismatch":
      return labelOptions(d, pod, key, node);
    case "TopologySpread": {
      const i = (pod.spec?.topologySpreadConstraints ?? []).findIndex(
        (c) => c.topologyKey === d.topologyKey && c.maxSkew === d.maxSkew,
      );
      return d.skew === null || i < 0
        ? {}
        : { pod: [{ kind: "SetMaxSkew", pod: key, constraint: i, maxSkew: d.skew }] };
    }
    case "PodAffinity":
      return {
        ...(d.rule !== "existingAntiAffinity"
          ? { pod: [{ kind: "RemovePodAffinityTerm", pod: key, rule: d.rule, topologyKey: d.topologyKey }] }
          : {}),
        ...(d.rule !== "affinity" &&
        d.pods.length > 0 &&
        d.pods.every((p) => running.some((r) => podKey(r) === p))
          ? { cluster: [{ kind: "MovePods", pods: d.pods }] }
          : {}),
      };
    case "HostPortConflict": {
      const users = running.filter((p) =>
        (p.spec?.containers ?? []).some((c) => (c.ports ?? []).some((port) => port.hostPort === d.hostPort)),
      );
      return users.length > 0 ? { cluster: [{ kind: "MovePods", pods: users.map(podKey) }] } : {};
    }
  }
}

const termSource = /nodeSelectorTerms\[(\d+)\]$/;

function labelOptions(
  d: Extract<FilterDetail, { kind: "NodeLabelMismatch" }>,
  pod: Pod,
  key: string,
  node: string,
): Options {
  if (d.source === "spec.nodeSelector") {
    const value = pod.spec?.nodeSelector?.[d.key];
    return {
      pod: [{ kind: "RemoveNodeSelectorKey", pod: key, key: d.key }],
      ...(value !== undefined ? { cluster: [{ kind: "SetNodeLabel", node, key: d.key, value }] } : {}),
    };
  }
  const m = termSource.exec(d.source);
  if (m === null) return {};
  const term = Number(m[1]);
  const expr =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[
      term
    ]?.matchExpressions?.find((e) => e.key === d.key);
  const value =
    expr?.operator === "In"
      ? expr.values?.[0]
      : expr?.operator === "Exists"
        ? (d.nodeValue ?? "")
        : undefined;
  return {
    pod: [{ kind: "RemoveNodeAffinityRequirement", pod: key, term, key: d.key }],
    ...(value !== undefined ? { cluster: [{ kind: "SetNodeLabel", node, key: d.key, value }] } : {}),
  };
}

/** Changes merged: one MovePods, no duplicates. */
function merged(changes: ClusterChange[]): ClusterChange[] {
  const out: ClusterChange[] = [];
  const seen = new Set<string>();
  const moved = new Set<string>();
  for (const c of changes) {
    if (c.kind === "MovePods") {
      for (const p of c.pods) moved.add(p);
      continue;
    }
    const sig = JSON.stringify(c);
    if (!seen.has(sig)) {
      seen.add(sig);
      out.push(c);
    }
  }
  if (moved.size > 0) out.push({ kind: "MovePods", pods: [...moved].sort() });
  return out;
}

function unnamedChange(c: ClusterChange): ClusterChange {
  return "node" in c ? { ...c, node: "" } : c;
}

/** A taint's removal as its adjustment to PreferNoSchedule. */
function soften(c: ClusterChange): ClusterChange {
  return c.kind === "RemoveTaint"
    ? { kind: "SetTaintEffect", node: c.node, taint: c.taint, effect: "PreferNoSchedule" }
    : c;
}

/** A node shape: what a node added like it would have. */
function shapeOf(admitted: readonly SourcedObject[], node: string): string {
  const n = admitted.find((o) => o.kind === "Node" && o.obj.metadata?.name === node)?.obj as
    | {
        metadata?: { labels?: Record<string, string> };
        spec?: { taints?: unknown };
        status?: { allocatable?: unknown };
      }
    | undefined;
  const { "kubernetes.io/hostname": _, ...labels } = n?.metadata?.labels ?? {};
  return JSON.stringify([labels, n?.spec?.taints ?? [], n?.status?.allocatable ?? {}]);
}

/** Whether a fresh node shaped like the node would pass where the node fails. */
function freshNodeHelps(d: FilterDetail): boolean {
  switch (d.kind) {
    case "InsufficientResource":
      return d.capacity >= d.requested;
    case "Cordoned":
    case "HostPortConflict":
      return true;
    case "UntoleratedTaint":
      return d.taint.key === unschedulableTaintKey;
    case "PodAffinity":
      return d.rule !== "affinity" && d.topologyKey === "kubernetes.io/hostname";
    default:
      return false;
  }
}

/** The candidates, smallest first. */
function candidates(
  report: WhyReport,
  pod: Pod,
  key: string,
  admitted: readonly SourcedObject[],
): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (c: Candidate, sig = JSON.stringify([c.changes, c.lower?.resources])) => {
    if (seen.has(sig)) return;
    seen.add(sig);
    out.push(c);
  };
  const shapes = new Set<string>();
  const running = podsByNode(admitted);
  for (const n of report.nodes) {
    if (n.rejections.length === 0 || n.rejections.some((r) => r.details.length === 0)) continue;
    const details = n.rejections.flatMap((r) => r.details);
    // One failing node affinity term is enough to fix (terms are ORed): the first.
    const firstTerm = details.find((d) => d.kind === "NodeLabelMismatch" && termSource.test(d.source));
    const relevant = details.filter(
      (d) =>
        d.kind !== "NodeLabelMismatch" ||
        !termSource.test(d.source) ||
        (firstTerm?.kind === "NodeLabelMismatch" && d.source === firstTerm.source),
    );
    const opts = relevant.map((d) => optionsFor(d, pod, key, n.name, running.get(n.name) ?? []));
    if (opts.every((o) => o.pod !== undefined || o.lower !== undefined)) {
      const lowers = opts.flatMap((o) => (o.lower ? [o.lower] : []));
      const changes = merged(opts.flatMap((o) => o.pod ?? []));
      add({
        target: "pod",
        changes,
        // Lowered requests alone: the first proven (the largest values) makes the others moot.
        ...(lowers.length > 0 ? { lower: { node: n.name, resources: lowers } } : {}),
        ...(lowers.length > 0 && changes.length === 0 ? { group: "lower" } : {}),
      });
    }
    const shape = shapeOf(admitted, n.name);
    if (opts.every((o) => o.cluster !== undefined)) {
      const changes = merged(opts.flatMap((o) => o.cluster ?? []));
      // The same change on nodes of one shape with the same rejections is one candidate (the first
      // node's): the others would only repeat it.
      add({ target: "cluster", changes }, JSON.stringify([shape, changes.map(unnamedChange), relevant]));
      // Adjusting the taints instead: the node then only discourages pods that do not tolerate them.
      if (changes.some((c) => c.kind === "RemoveTaint")) {
        const softened = changes.map(soften);
        add(
          { target: "cluster", changes: softened },
          JSON.stringify([shape, softened.map(unnamedChange), relevant]),
        );
      }
    }
    if (details.every(freshNodeHelps) && !shapes.has(shape)) {
      shapes.add(shape);
      for (let count = 1; count <= 3; count++)
        add({
          target: "cluster",
          changes: [{ kind: "AddNodes", like: n.name, count }],
          group: `add:${n.name}`,
        });
    }
  }
  if (report.preemption.plugin !== null) {
    const priority = pod.spec?.priority ?? 0;
    const classes = admitted
      .filter((o) => o.kind === "PriorityClass")
      .map((o) => o.obj as PriorityClass)
      .filter((pc) => pc.value > priority && pc.preemptionPolicy !== "Never")
      .sort((a, b) => a.value - b.value);
    for (const pc of classes)
      add({
        target: "pod",
        changes: [{ kind: "SetPriorityClass", pod: key, priorityClassName: pc.metadata?.name ?? "" }],
        group: "priority",
      });
  }
  const size = (c: Candidate) =>
    c.changes.reduce((s, ch) => s + changeSize(ch), 0) + (c.lower?.resources.length ?? 0);
  // Equal sizes: the smallest cut of the requests first.
  const cut = (c: Candidate) => c.lower?.resources.reduce((s, r) => s + 1 - r.max / r.requested, 0) ?? 0;
  return out
    .map((c, i) => ({ c, i, s: size(c), cut: cut(c) }))
    .sort((a, b) => a.s - b.s || a.cut - b.cut || a.i - b.i)
    .map(({ c }) => c);
}

/** The container whose request of `resource` is lowered: the one requesting most. */
function largestContainer(pod: Pod, resource: string): { index: number; amount: number } | null {
  let best: { index: number; amount: number } | null = null;
  (pod.spec?.containers ?? []).forEach((c, index) => {
    const q = c.resources?.requests?.[resource];
    const amount = q === undefined ? 0 : resourceAmount(resource, String(q));
    if (amount > 0 && (best === null || amount > best.amount)) best = { index, amount };
  });
  return best;
}

/** What is free on a node after the baseline run (every pending pod placed), or null if unknown. */
function freeAfter(n: NodeResult | undefined, resource: string): number | null {
  if (n === undefined) return null;
  if (resource === ResourceCPU || resource === ResourceMemory) {
    const alloc = n.allocatable[resource];
    const req = n.requested[resource];
    if (alloc === undefined || req === undefined) return null;
    return resourceAmount(resource, alloc) - resourceAmount(resource, req);
  }
  const s = n.scalarResources?.[resource];
  return s ? resourceAmount(resource, s.allocatable) - resourceAmount(resource, s.requested) : null;
}

/** Rounded down to a value people write: cpu in 10m steps above 1 cpu, whole Mi above 1Mi. */
function rounded(resource: string, v: number): number {
  const step = resource === ResourceCPU ? (v > 1000 ? 10 : 1) : v > 1024 * 1024 ? 1024 * 1024 : 1;
  return Math.floor(v / step) * step;
}

/** Finds the verified fixes for the report's pod. */
export async function findFixes(
  report: WhyReport,
  opts: WhyFixOptions,
): Promise<{ fixes: WhyFix[]; fixSearch: WhyFixSearch }> {
  const now = Date.now;
  const deadline = now() + opts.budgetSeconds * 1000;
  const search: WhyFixSearch = {
    budgetSeconds: opts.budgetSeconds,
    exhausted: false,
    tried: 0,
    withPendingPods: opts.alone !== true,
  };
  const fixes: WhyFix[] = [];
  if (report.summary.feasible > 0) {
    search.note = "the pod fits a node: no fix needed";
    return { fixes, fixSearch: search };
  }
  const gated = report.summary.gated;
  if (gated !== undefined) {
    search.note = `the pod never enters a scheduling cycle (PreEnqueue of ${gated.plugin} holds it back): no change to nodes or pods is tried`;
    return { fixes, fixSearch: search };
  }
  const admitted = admit(opts.objects);
  const pod = admitted.find((o) => o.kind === "Pod" && podKey(o.obj as Pod) === opts.pod)?.obj as Pod;
  const raw = opts.objects.find((o) => o.kind === "Pod" && podKey(o.obj as Pod) === opts.pod)?.obj as Pod;
  const engine = await Counterfactuals.open(opts);
  const base = engine.baselineOf(opts.pod);
  if (base?.outcome === "Scheduled") {
    search.note = `the pod schedules on ${base.node} when every pending pod is simulated: no fix needed`;
    return { fixes, fixSearch: search };
  }
  const list = candidates(report, pod, opts.pod, admitted);
  const proven = new Set<string>();
  const pendingPods = opts.alone ? [opts.pod] : undefined;
  const prove = async (changes: ClusterChange[]): Promise<CounterfactualOutcome | null> => {
    if (now() >= deadline) {
      search.exhausted = true;
      return null;
    }
    search.tried++;
    const o = await engine.run(changes, pendingPods);
    return o.pods.get(opts.pod)?.outcome === "Scheduled" ? o : null;
  };
  // Candidates started: one cut short by the budget counts as tried.
  let started = 0;
  for (const c of list) {
    if (fixes.length >= opts.maxFixes || search.exhausted) break;
    if (now() >= deadline) {
      search.exhausted = true;
      break;
    }
    started++;
    if (c.group !== undefined && proven.has(c.group)) continue;
    const found = c.lower
      ? await lowered(c, raw, engine, prove)
      : await prove(c.changes).then((o) => o && { o, changes: c.changes });
    if (found === null) continue;
    if (c.group !== undefined) proven.add(c.group);
    fixes.push(fixOf(c.target, found.changes, found.o, raw, opts.pod, opts.podFromManifest === true));
  }
  if (search.exhausted) {
    const untried = list.length - started;
    search.note = `the time budget (${opts.budgetSeconds} s of wall-clock time) ran out ${untried > 0 ? `with ${untried} candidate(s) not tried` : "during the last candidate"}: more fixes may exist`;
  } else if (list.length === 0) {
    search.note = "no candidate change follows from the reasons found";
  }
  fixes.sort((a, b) => a.size - b.size || a.displaces.length - b.displaces.length);
  return { fixes, fixSearch: search };
}

/**
 * The pod's requests lowered to the largest values that fit, searched for: the node's free amounts
 * in the snapshot first, else between what the node has left once every other pending pod is
 * placed (the baseline) and those, by bisection.
 */
async function lowered(
  c: Candidate,
  raw: Pod,
  engine: Counterfactuals,
  prove: (changes: ClusterChange[]) => Promise<CounterfactualOutcome | null>,
): Promise<{ o: CounterfactualOutcome; changes: ClusterChange[] } | null> {
  const lower = c.lower as Lowering;
  if (raw.spec?.resources?.requests !== undefined) return null;
  const total = podRequests(raw);
  const targets = lower.resources.map((r) => ({ ...r, container: largestContainer(raw, r.resource) }));
  const at = (values: number[]): ClusterChange[] | null => {
    const byContainer = new Map<number, Record<string, string>>();
    for (const [i, t] of targets.entries()) {
      const v = values[i] as number;
      if (t.container === null) return null;
      const own = t.container.amount - ((total.get(t.resource) ?? 0) - v);
      if (own < 0) return null;
      const reqs = byContainer.get(t.container.index) ?? {};
      reqs[t.resource] = formatResourceAmount(t.resource, own);
      byContainer.set(t.container.index, reqs);
    }
    const sets: ClusterChange[] = [...byContainer].map(([container, requests]) => ({
      kind: "SetContainerRequests",
      pod: podKey(raw),
      container,
      requests,
    }));
    return [...c.changes, ...sets];
  };
  const tryValues = async (values: number[]) => {
    const changes = at(values);
    if (changes === null) return null;
    const o = await prove(changes);
    return o && { o, changes };
  };
  const hi = targets.map((t) => rounded(t.resource, t.max));
  const best = await tryValues(hi);
  if (best !== null) return best;
  const baseNode = engine.baseline.nodes.find((n) => n.name === lower.node);
  const lo = targets.map((t, i) =>
    Math.min(hi[i] as number, rounded(t.resource, freeAfter(baseNode, t.resource) ?? 0)),
  );
  if (lo.some((v) => v <= 0) || lo.every((v, i) => v === hi[i])) return null;
  let found = await tryValues(lo);
  if (found === null) return null;
  let [a, b] = [0, 1];
  for (let step = 0; step < 5; step++) {
    const t = (a + b) / 2;
    const mid = targets.map((tg, i) =>
      rounded(tg.resource, (lo[i] as number) + ((hi[i] as number) - (lo[i] as number)) * t),
    );
    const r = await tryValues(mid);
    if (r !== null) {
      found = r;
      a = t;
    } else b = t;
  }
  return found;
}

function fixOf(
  target: "pod" | "cluster",
  changes: ClusterChange[],
  o: CounterfactualOutcome,
  raw: Pod,
  key: string,
  podFromManifest: boolean,
): WhyFix {
  const moved = changes.flatMap((c) =>
    c.kind === "MovePods"
      ? c.pods.map((p) => {
          const r = o.pods.get(p);
          return { pod: p, node: r?.outcome === "Scheduled" ? r.node : null };
        })
      : [],
  );
  const displaces = [
    ...o.noLongerFit,
    ...o.preempted,
    ...moved.filter((m) => m.node === null).map((m) => m.pod),
  ].sort();
  return {
    kind: [...new Set(changes.map((c) => c.kind))].join("+"),
    target,
    description: changes.map((c) => describe(c, raw)).join("; "),
    size: changes.reduce((s, c) => s + changeSize(c), 0),
    node: o.pods.get(key)?.node ?? "",
    displaces: [...new Set(displaces)],
    kubectl: changes.flatMap((c) => commands(c, raw, podFromManifest)),
    changes,
    moved,
  };
}

function tolerationString(t: Toleration): string {
  return `${t.key}${t.operator === "Equal" ? `=${t.value}` : ""}:${t.effect}`;
}

function describe(c: ClusterChange, raw: Pod): string {
  switch (c.kind) {
    case "SetContainerRequests": {
      const ctr = raw.spec?.containers[c.container];
      const parts = Object.entries(c.requests).map(
        ([r, v]) => `${r} ${String(ctr?.resources?.requests?.[r] ?? "0")} → ${v}`,
      );
      return `lower container ${ctr?.name ?? c.container}'s requests: ${parts.join(", ")}`;
    }
    case "AddToleration":
      return `add the toleration ${tolerationString(c.toleration)}`;
    case "RemoveNodeSelectorKey":
      return `remove nodeSelector ${c.key}`;
    case "RemoveNodeAffinityRequirement":
      return `remove the requirement on ${c.key} from required node affinity term ${c.term}`;
    case "SetMaxSkew": {
      const tsc = raw.spec?.topologySpreadConstraints?.[c.constraint];
      return `raise maxSkew of the ${tsc?.topologyKey ?? ""} spread constraint from ${tsc?.maxSkew ?? ""} to ${c.maxSkew}`;
    }
    case "RemovePodAffinityTerm":
      return `remove the required pod ${c.rule === "affinity" ? "affinity" : "anti-affinity"} term on ${c.topologyKey}`;
    case "SetPriorityClass":
      return `use priorityClassName ${c.priorityClassName}`;
    case "Uncordon":
      return `uncordon node ${c.node}`;
    case "RemoveTaint":
      return `remove the taint ${tolerationString(toleration(c.taint))} from node ${c.node}`;
    case "SetTaintEffect":
      return `change the taint ${tolerationString(toleration(c.taint))} on node ${c.node} to ${c.effect}`;
    case "SetNodeLabel":
      return `label node ${c.node} ${c.key}=${c.value}`;
    case "AddNodes":
      return `add ${c.count} node${c.count === 1 ? "" : "s"} shaped like ${typeof c.like === "string" ? c.like : (c.like.metadata?.name ?? "")}`;
    case "AddPods":
      return `add ${c.pods.map(podKey).join(", ")}`;
    case "AddResourceSlices":
      return `add the ResourceSlices ${c.slices.map((s) => s.metadata?.name ?? "").join(", ")}`;
    case "MovePods":
      return `move ${c.pods.join(", ")} to other nodes`;
    case "RemovePods":
      return `delete ${c.pods.join(", ")}`;
  }
}

function podRef(key: string): string {
  const [ns, name] = key.split("/");
  return `-n ${ns} ${name}`;
}

/**
 * What a user runs: kubectl for nodes and running pods; manifest edits for the pod's immutable
 * fields, and for every field of a pod that is only a manifest (`why -f`).
 */
function commands(c: ClusterChange, raw: Pod, podFromManifest: boolean): string[] {
  const edit = (path: string, value: string) => [
    `edit the pod's manifest (or its controller's pod template): ${path}: ${value}`,
  ];
  switch (c.kind) {
    case "SetContainerRequests":
      return Object.entries(c.requests).flatMap(([r, v]) =>
        edit(`spec.containers[${c.container}].resources.requests.${r}`, v),
      );
    case "AddToleration":
      if (podFromManifest) return edit("spec.tolerations", `add ${JSON.stringify(c.toleration)}`);
      return [
        `kubectl patch pod ${podRef(c.pod)} --type=json -p '${JSON.stringify([
          {
            op: "add",
            path: raw.spec?.tolerations ? "/spec/tolerations/-" : "/spec/tolerations",
            value: raw.spec?.tolerations ? c.toleration : [c.toleration],
          },
        ])}'`,
      ];
    case "RemoveNodeSelectorKey":
      return edit(`spec.nodeSelector.${c.key}`, "(remove)");
    case "RemoveNodeAffinityRequirement":
      return edit(
        `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${c.term}]`,
        `remove the requirement on ${c.key}`,
      );
    case "SetMaxSkew":
      return edit(`spec.topologySpreadConstraints[${c.constraint}].maxSkew`, String(c.maxSkew));
    case "RemovePodAffinityTerm":
      return edit(
        `spec.affinity.${c.rule === "affinity" ? "podAffinity" : "podAntiAffinity"}.requiredDuringSchedulingIgnoredDuringExecution`,
        `remove the term with topologyKey ${c.topologyKey}`,
      );
    case "SetPriorityClass":
      // The class decides the priority and preemptionPolicy: values set by hand would win over it.
      return [
        ...edit("spec.priorityClassName", c.priorityClassName),
        ...(raw.spec?.priority !== undefined ? edit("spec.priority", "(remove)") : []),
        ...(raw.spec?.preemptionPolicy !== undefined ? edit("spec.preemptionPolicy", "(remove)") : []),
      ];
    case "Uncordon":
      return [`kubectl uncordon ${c.node}`];
    case "RemoveTaint":
      return [`kubectl taint nodes ${c.node} ${tolerationString(toleration(c.taint))}-`];
    case "SetTaintEffect": {
      const t = tolerationString(toleration(c.taint));
      return [
        `kubectl taint nodes ${c.node} ${t}-`,
        `kubectl taint nodes ${c.node} ${tolerationString(toleration({ ...c.taint, effect: c.effect }))}`,
      ];
    }
    case "SetNodeLabel":
      return [`kubectl label nodes ${c.node} ${c.key}=${c.value}`];
    case "AddNodes": {
      const like = typeof c.like === "string" ? c.like : (c.like.metadata?.name ?? "");
      const names = addedNodeNames(like, c.count);
      return [
        `add node${c.count === 1 ? "" : "s"} ${names.join(", ")} with the labels, taints and allocatable of ${like} (its node pool)`,
      ];
    }
    case "AddPods":
      return c.pods.map((p) => `kubectl apply -f ${p.metadata?.name ?? ""}.yaml  # pod ${podKey(p)}`);
    case "AddResourceSlices":
      return c.slices.map(
        (s) =>
          `kubectl apply -f ${s.metadata?.name ?? ""}.yaml  # ResourceSlice (its node's DRA driver publishes it)`,
      );
    case "MovePods":
      return c.pods.map((p) => `kubectl delete pod ${podRef(p)}  # its controller re-creates it`);
    case "RemovePods":
      return c.pods.map((p) => `kubectl delete pod ${podRef(p)}`);
  }
}
