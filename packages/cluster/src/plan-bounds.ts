// Lower bounds for `kubesched plan`'s exact search: necessary conditions a count vector must meet
// for every goal pod to schedule, checked without a run. Each is sound — it never rules out a
// vector under which the real scheduler places every goal pod — and says why in its comment;
// plan-bounds.test.ts checks each against a brute-force simulate of every vector on small cases.
//
// - capacity per pool group (a Hall-type bound): the pods only the pools of a set S can host
//   (plus the snapshot's nodes) must fit, per resource, in the snapshot's free capacity and S's
//   nodes; S = one pool gives that pool's smallest count, S = every pool the aggregate bound;
// - bin packing per pool (the big-item part of Martello and Toth's L2 bound): pods only one pool
//   hosts that ask more than half a node's free resource need a node each;
// - required pod anti-affinity on kubernetes.io/hostname: one pod of the group per node;
// - topology spread with DoNotSchedule (upstream: framework/plugins/podtopologyspread/filtering.go):
//   a domain's count can pass the least-filled domain's by maxSkew only through pods placed before
//   that minimum grew, so the pods must fit in Σ_d min(cap_d, max(init_d, M + maxSkew)), where
//   cap_d is what domain d can hold and M the smallest cap_d; with kubernetes.io/hostname every
//   added node is a domain of its own.
//
// "Free capacity" counts a running pod as using its node only when no pending pod can preempt it
// (its priority is at least every pending pod's), so evictions cannot make room the bound missed.
import {
  getRequiredNodeAffinity,
  labelSelectorAsSelector,
  type Node,
  type Pod,
  type PodAffinityTerm,
  podKey,
  podRequests,
  ResourcePods,
  resourceListToAmounts,
  type TopologySpreadConstraint,
  tolerationToleratesTaint,
} from "@kubesched/api";
import type { SourcedObject } from "./load";
import type { SimulationResult } from "./simulate";

export const hostnameLabel = "kubernetes.io/hostname";

/** What the bounds need to know about one pool. */
export interface BoundPool {
  /** The pool's node as added (labels, taints; the hostname label is per node). */
  node: Node;
  /** One node's allocatable less its DaemonSet pods. */
  perNode: ReadonlyMap<string, number>;
  /** The pool's DaemonSet pods (running on every added node). */
  daemonSetPods: readonly Pod[];
  maxCount: number;
}

export interface PlanBoundsInput {
  /** The snapshot's objects, without the pools' nodes. */
  objects: readonly SourcedObject[];
  /** The baseline run: the nodes' allocatable as the simulator read it. */
  baseline: SimulationResult;
  pools: readonly BoundPool[];
  /** The pending pods that must schedule. */
  goal: readonly Pod[];
  /** Per goal pod (`namespace/name`), the indexes of the pools a node of which can host it alone. */
  hosts: ReadonlyMap<string, ReadonlySet<number>>;
}

/** Why a vector is ruled out, or null when every bound admits it. */
export type BoundCheck = (counts: readonly number[]) => string | null;

export type BoundName = "capacity" | "binPacking" | "antiAffinity" | "spread";

export interface PlanBounds {
  /** Per pool, the smallest count any working vector has (at least 0; may exceed maxCount). */
  lowest: number[];
  /** Every bound in turn: the first one's reason. */
  check: BoundCheck;
  /** Each bound alone. */
  checks: Record<BoundName, BoundCheck>;
  /** How many groups of pods (pool sets for capacity) each bound applies to. */
  applied: Record<BoundName, number>;
}

type Amounts = Map<string, number>;

/** The pod's requests, with one of the node's pods. */
export function podAmounts(pod: Pod): Amounts {
  const m = new Map(podRequests(pod));
  m.set(ResourcePods, 1);
  return m;
}

function add(into: Amounts, from: ReadonlyMap<string, number>, times = 1): void {
  for (const [r, v] of from) into.set(r, (into.get(r) ?? 0) + v * times);
}

const systemPriorities: Record<string, number> = {
  "system-cluster-critical": 2000000000,
  "system-node-critical": 2000001000,
};

/** A pod's priority as admission resolves it (upstream plugin/pkg/admission/priority); undefined when unknown. */
function priorityResolver(objects: readonly SourcedObject[]): (pod: Pod) => number | undefined {
  const classes = new Map<string, number>();
  let globalDefault: number | undefined;
  for (const o of objects) {
    if (o.kind !== "PriorityClass") continue;
    const pc = o.obj as { metadata?: { name?: string }; value: number; globalDefault?: boolean };
    classes.set(pc.metadata?.name ?? "", pc.value);
    if (pc.globalDefault && (globalDefault === undefined || pc.value > globalDefault))
      globalDefault = pc.value;
  }
  return (pod) => {
    if (typeof pod.spec?.priority === "number") return pod.spec.priority;
    const name = pod.spec?.priorityClassName;
    if (name) return classes.get(name) ?? systemPriorities[name];
    return globalDefault ?? 0;
  };
}

function isRunning(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    !!pod.spec?.nodeName && phase !== "Succeeded" && phase !== "Failed" && !pod.metadata?.deletionTimestamp
  );
}

function untoleratedTaint(node: Node, pod: Pod): boolean {
  return (node.spec?.taints ?? []).some(
    (t) =>
      (t.effect === "NoSchedule" || t.effect === "NoExecute") &&
      !(pod.spec?.tolerations ?? []).some((tol) => tolerationToleratesTaint(tol, t)),
  );
}

/** How many pods of `req` the free amounts hold (resources the pod does not ask for do not limit). */
function podsFitting(free: ReadonlyMap<string, number>, req: ReadonlyMap<string, number>): number {
  let n = Number.POSITIVE_INFINITY;
  for (const [r, v] of req) if (v > 0) n = Math.min(n, Math.floor(Math.max(0, free.get(r) ?? 0) / v));
  return n;
}

/** The per-resource minimum over the pods: a lower estimate of each one's request. */
function minRequests(pods: readonly Pod[]): Amounts {
  const out = podAmounts(pods[0] as Pod);
  for (const p of pods.slice(1)) {
    const r = podAmounts(p);
    for (const [k, v] of out) out.set(k, Math.min(v, r.get(k) ?? 0));
  }
  return out;
}

interface Existing {
  node: Node;
  free: Amounts;
}

/** The snapshot's nodes with what the goal pods can count on being free on them. */
function existingNodes(input: PlanBoundsInput, priorityOf: (p: Pod) => number | undefined): Existing[] {
  const nodes = new Map<string, Node>();
  for (const o of input.objects) if (o.kind === "Node") nodes.set(o.obj.metadata?.name ?? "", o.obj as Node);
  let pendingMax = Number.NEGATIVE_INFINITY;
  for (const o of input.objects) {
    const p = o.obj as Pod;
    if (o.kind !== "Pod" || p.spec?.nodeName) continue;
    pendingMax = Math.max(pendingMax, priorityOf(p) ?? Number.POSITIVE_INFINITY);
  }
  const used = new Map<string, Amounts>();
  for (const o of input.objects) {
    const p = o.obj as Pod;
    if (o.kind !== "Pod" || !isRunning(p)) continue;
    const prio = priorityOf(p);
    // A pod some pending pod may preempt does not hold its node's room for sure.
    if (prio === undefined || prio < pendingMax) continue;
    const name = p.spec?.nodeName as string;
    const u = used.get(name) ?? new Map<string, number>();
    add(u, podAmounts(p));
    used.set(name, u);
  }
  return input.baseline.nodes.map((n) => {
    const free = resourceListToAmounts(n.allocatable);
    for (const [r, v] of used.get(n.name) ?? []) free.set(r, (free.get(r) ?? 0) - v);
    return {
      node: nodes.get(n.name) ?? { metadata: { name: n.name } },
      free: new Map([...free].map(([r, v]) => [r, Math.max(0, v)])),
    };
  });
}

/** The capacity bound over pool sets; returns its check and each pool's smallest count. */
function capacityBound(
  input: PlanBoundsInput,
  existingFree: Amounts,
): { check: BoundCheck; lowest: number[]; groups: number } {
  const { pools } = input;
  // Demand per hosting set (bitmask over pools; pools past the 30th are treated as hosting all).
  const byMask = new Map<number, Amounts>();
  const all = pools.length >= 31 ? -1 : (1 << pools.length) - 1;
  for (const p of input.goal) {
    let mask = 0;
    for (const i of input.hosts.get(podKey(p)) ?? pools.keys()) mask |= i < 30 ? 1 << i : all;
    const d = byMask.get(mask) ?? new Map<string, number>();
    add(d, podAmounts(p));
    byMask.set(mask, d);
  }
  // Pool sets: every subset while there are few pools, else each pool alone and all of them.
  const sets =
    pools.length <= 10
      ? Array.from({ length: all }, (_, k) => k + 1)
      : [...pools.keys()].map((i) => (i < 30 ? 1 << i : all)).concat(all);
  const constraints: { set: number; need: Amounts }[] = [];
  for (const set of sets) {
    const need = new Map<string, number>();
    for (const [mask, d] of byMask) if ((mask & set) === mask) add(need, d);
    for (const [r, v] of need) need.set(r, v - (existingFree.get(r) ?? 0));
    for (const [r, v] of need) if (v <= 0) need.delete(r);
    if (need.size > 0) constraints.push({ set, need });
  }
  const inSet = (set: number, i: number) => (i < 30 ? (set & (1 << i)) !== 0 : set === all);
  const lowest = pools.map(() => 0);
  for (const { set, need } of constraints) {
    const members = [...pools.keys()].filter((i) => inSet(set, i));
    if (members.length !== 1) continue;
    const i = members[0] as number;
    for (const [r, v] of need) {
      const per = pools[i]?.perNode.get(r) ?? 0;
      lowest[i] = Math.max(
        lowest[i] as number,
        per > 0 ? Math.ceil(v / per - 1e-9) : Number.POSITIVE_INFINITY,
      );
    }
  }
  const check: BoundCheck = (v) => {
    for (const { set, need } of constraints)
      for (const [r, x] of need) {
        let have = 0;
        for (let i = 0; i < pools.length; i++)
          if (inSet(set, i)) have += (v[i] ?? 0) * Math.max(0, pools[i]?.perNode.get(r) ?? 0);
        if (have < x - 1e-9) return `capacity: ${r}`;
      }
    return null;
  };
  return { check, lowest, groups: constraints.length };
}

/**
 * The bin-packing bound per pool, the big-item part of Martello and Toth's L2 (α = 0): of the pods
 * only pool i can host, those asking more than half of one pool node's free amount of a resource
 * cannot share a node of the pool, so each needs its own node — or room on the snapshot's nodes
 * (as many as each node's free amount holds of the smallest of them). The rest of L2 (the small
 * pods' total over the nodes' capacity) is the capacity bound. A per-pool count.
 */
function binPackingBound(
  input: PlanBoundsInput,
  existing: readonly Existing[],
): { lowest: number[]; groups: number } {
  const lowest = input.pools.map(() => 0);
  let groups = 0;
  input.pools.forEach((pool, i) => {
    const only = input.goal.filter((p) => {
      const h = input.hosts.get(podKey(p));
      return h !== undefined && h.size === 1 && h.has(i);
    });
    for (const [r, per] of pool.perNode) {
      if (per <= 0) continue;
      const big = only.map((p) => podAmounts(p).get(r) ?? 0).filter((x) => x > per / 2);
      if (big.length === 0) continue;
      const smallest = Math.min(...big);
      let elsewhere = 0;
      for (const e of existing) elsewhere += Math.floor((e.free.get(r) ?? 0) / smallest);
      if (big.length - elsewhere > 0) {
        groups++;
        lowest[i] = Math.max(lowest[i] as number, big.length - elsewhere);
      }
    }
  });
  return { lowest, groups };
}

/** The namespaces an affinity term selects is the pod's own (no namespaceSelector, no other list). */
function ownNamespaceOnly(term: PodAffinityTerm, ns: string | undefined): boolean {
  if (term.namespaceSelector != null) return false;
  const list = term.namespaces ?? [];
  return list.length === 0 || (list.length === 1 && list[0] === (ns ?? "default"));
}

/** One pod per node for each group of goal pods whose required anti-affinity on hostname selects them all. */
function antiAffinityBound(input: PlanBoundsInput, existing: number): { check: BoundCheck; groups: number } {
  const groups = new Map<string, { term: PodAffinityTerm; pods: Pod[] }>();
  for (const p of input.goal)
    for (const term of p.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
      []) {
      if (term.topologyKey !== hostnameLabel || (term.matchLabelKeys?.length ?? 0) > 0) continue;
      if ((term.mismatchLabelKeys?.length ?? 0) > 0 || !ownNamespaceOnly(term, p.metadata?.namespace))
        continue;
      const key = JSON.stringify([p.metadata?.namespace, term]);
      const g = groups.get(key) ?? { term, pods: [] };
      g.pods.push(p);
      groups.set(key, g);
    }
  const checks: { size: number; pools: number[] }[] = [];
  for (const { term, pods } of groups.values()) {
    let selector: ReturnType<typeof labelSelectorAsSelector>;
    try {
      selector = labelSelectorAsSelector(term.labelSelector);
    } catch {
      continue;
    }
    // Only the pods the term selects repel each other.
    const members = pods.filter((p) => selector.matches(p.metadata?.labels ?? {}));
    if (members.length <= existing) continue;
    const hosting = new Set<number>();
    for (const p of members) for (const i of input.hosts.get(podKey(p)) ?? input.pools.keys()) hosting.add(i);
    checks.push({ size: members.length, pools: [...hosting] });
  }
  const check: BoundCheck = (v) => {
    for (const c of checks) {
      const nodes = existing + c.pools.reduce((s, i) => s + (v[i] ?? 0), 0);
      if (nodes < c.size) return "pod anti-affinity: one pod per node";
    }
    return null;
  };
  return { check, groups: checks.length };
}

interface SpreadDomain {
  init: number;
  free: Amounts;
}

interface SpreadGroup {
  topologyKey: string;
  maxSkew: number;
  /** Matching pods when every goal pod of the group is placed (running ones counted where eligible). */
  total: number;
  req: Amounts;
  existing: Map<string, SpreadDomain>;
  /** Per pool: eligible as a domain (has the keys, passes the inclusion policies), hosts the group. */
  pools: { eligible: boolean; hosts: boolean; value: string | undefined }[];
}

/** The topology spread bound's groups: goal pods sharing a DoNotSchedule constraint that selects them. */
function spreadGroups(
  input: PlanBoundsInput,
  existing: readonly Existing[],
  priorityOf: (p: Pod) => number | undefined,
): SpreadGroup[] {
  const candidates = new Map<string, { c: TopologySpreadConstraint; pods: Pod[]; keys: string[] }>();
  for (const p of input.goal) {
    const hard = (p.spec?.topologySpreadConstraints ?? []).filter(
      (c) => c.whenUnsatisfiable === "DoNotSchedule",
    );
    const keys = hard.map((c) => c.topologyKey);
    for (const c of hard) {
      if ((c.matchLabelKeys?.length ?? 0) > 0) continue;
      const key = JSON.stringify([
        p.metadata?.namespace,
        c,
        keys,
        p.spec?.nodeSelector,
        p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
        c.nodeTaintsPolicy === "Honor" ? p.spec?.tolerations : null,
      ]);
      const g = candidates.get(key) ?? { c, pods: [], keys };
      g.pods.push(p);
      candidates.set(key, g);
    }
  }
  const goal = new Set(input.goal.map(podKey));
  let pendingMax = Number.NEGATIVE_INFINITY;
  for (const o of input.objects)
    if (o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName)
      pendingMax = Math.max(pendingMax, priorityOf(o.obj as Pod) ?? Number.POSITIVE_INFINITY);
  const out: SpreadGroup[] = [];
  for (const { c, pods, keys } of candidates.values()) {
    const first = pods[0] as Pod;
    const ns = first.metadata?.namespace;
    let selector: ReturnType<typeof labelSelectorAsSelector>;
    try {
      selector = labelSelectorAsSelector(c.labelSelector);
    } catch {
      continue;
    }
    const selects = (p: Pod) => p.metadata?.namespace === ns && selector.matches(p.metadata?.labels ?? {});
    const members = pods.filter(selects);
    // Node names in the affinity would make each added node differ: leave such groups out.
    const required = first.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (members.length === 0 || required?.nodeSelectorTerms?.some((t) => (t.matchFields?.length ?? 0) > 0))
      continue;
    const memberKeys = new Set(members.map(podKey));
    // Every pod that counts must be one the bound knows: no other pending pod the selector takes
    // (its placement is not checked against this constraint), none on a pool's nodes, and no
    // pending pod may preempt one of them (counts never fall).
    const others = input.objects.filter((o) => o.kind === "Pod" && selects(o.obj as Pod));
    if (others.some((o) => !(o.obj as Pod).spec?.nodeName && !memberKeys.has(podKey(o.obj as Pod)))) continue;
    if (input.pools.some((pool) => pool.daemonSetPods.some(selects))) continue;
    const counted = others.map((o) => o.obj as Pod).filter((p) => !p.spec?.nodeName || isRunning(p));
    const lowestPriority = Math.min(
      ...counted.map((p) => priorityOf(p) ?? Number.NEGATIVE_INFINITY),
      ...members.map((p) => priorityOf(p) ?? Number.NEGATIVE_INFINITY),
    );
    if (lowestPriority < pendingMax) continue;
    if (!members.every((p) => goal.has(podKey(p)))) continue;
    const affinity = getRequiredNodeAffinity(first);
    const eligible = (node: Node) => {
      const labels = node.metadata?.labels ?? {};
      if (!keys.every((k) => k in labels)) return false;
      if (c.nodeAffinityPolicy !== "Ignore" && !affinity.match(node)) return false;
      if (c.nodeTaintsPolicy === "Honor" && untoleratedTaint(node, first)) return false;
      return true;
    };
    const domains = new Map<string, SpreadDomain>();
    const nodeDomain = new Map<string, string>();
    for (const e of existing) {
      if (!eligible(e.node)) continue;
      const value = e.node.metadata?.labels?.[c.topologyKey] as string;
      nodeDomain.set(e.node.metadata?.name ?? "", value);
      const d = domains.get(value) ?? { init: 0, free: new Map<string, number>() };
      add(d.free, e.free);
      domains.set(value, d);
    }
    let total = members.length;
    for (const p of counted) {
      const value = p.spec?.nodeName ? nodeDomain.get(p.spec.nodeName) : undefined;
      if (value === undefined) continue;
      (domains.get(value) as SpreadDomain).init++;
      total++;
    }
    const hosting = new Set<number>();
    for (const p of members) {
      const h = input.hosts.get(podKey(p));
      for (const i of input.pools.keys()) if (!h || h.has(i)) hosting.add(i);
    }
    out.push({
      topologyKey: c.topologyKey,
      maxSkew: c.maxSkew,
      total,
      req: minRequests(members),
      existing: domains,
      pools: input.pools.map((pool, i) => ({
        eligible: eligible(withHostname(pool.node)),
        hosts: hosting.has(i),
        value: pool.node.metadata?.labels?.[c.topologyKey],
      })),
    });
  }
  return out;
}

function withHostname(node: Node): Node {
  return {
    ...node,
    metadata: { ...node.metadata, labels: { ...node.metadata?.labels, [hostnameLabel]: "x" } },
  };
}

function spreadBound(input: PlanBoundsInput, groups: readonly SpreadGroup[]): BoundCheck {
  return (v) => {
    for (const g of groups) {
      const hostname = g.topologyKey === hostnameLabel;
      // Each domain's capacity for the group's pods (its running matching pods included) and init.
      const caps: { cap: number; init: number; times: number }[] = [];
      const added = new Map<string, Amounts>();
      g.pools.forEach((p, i) => {
        const n = v[i] ?? 0;
        if (n === 0 || !p.eligible) return;
        const perNode = (input.pools[i] as BoundPool).perNode;
        if (hostname) {
          caps.push({ cap: p.hosts ? podsFitting(perNode, g.req) : 0, init: 0, times: n });
          return;
        }
        const value = p.value as string;
        const a = added.get(value) ?? new Map<string, number>();
        if (p.hosts) add(a, perNode, n);
        added.set(value, a);
      });
      for (const [value, d] of g.existing) {
        const extra = added.get(value);
        let free: ReadonlyMap<string, number> = d.free;
        if (extra) {
          const f = new Map(d.free);
          add(f, extra);
          free = f;
          added.delete(value);
        }
        caps.push({ cap: d.init + podsFitting(free, g.req), init: d.init, times: 1 });
      }
      for (const a of added.values()) caps.push({ cap: podsFitting(a, g.req), init: 0, times: 1 });
      if (caps.length === 0) return "topology spread: no domain";
      const least = Math.min(...caps.map((d) => d.cap));
      let room = 0;
      for (const d of caps) room += d.times * Math.min(d.cap, Math.max(d.init, least + g.maxSkew));
      if (room < g.total) return "topology spread";
    }
    return null;
  };
}

/** The bounds for a plan's goal pods and pools. */
export function planBounds(input: PlanBoundsInput): PlanBounds {
  const priorityOf = priorityResolver(input.objects);
  const existing = existingNodes(input, priorityOf);
  const existingFree = new Map<string, number>();
  for (const e of existing) add(existingFree, e.free);
  const capacity = capacityBound(input, existingFree);
  const packing = binPackingBound(input, existing);
  const binPacking: BoundCheck = (v) =>
    packing.lowest.some((c, i) => (v[i] ?? 0) < c) ? "bin packing: pods that cannot share a node" : null;
  const anti = antiAffinityBound(input, existing.length);
  const groups = spreadGroups(input, existing, priorityOf);
  const spread = spreadBound(input, groups);
  return {
    lowest: capacity.lowest.map((c, i) => Math.max(c, packing.lowest[i] ?? 0)),
    check: (v) => capacity.check(v) ?? binPacking(v) ?? anti.check(v) ?? spread(v),
    checks: { capacity: capacity.check, binPacking, antiAffinity: anti.check, spread },
    applied: {
      capacity: capacity.groups,
      binPacking: packing.groups,
      antiAffinity: anti.groups,
      spread: groups.length,
    },
  };
}
