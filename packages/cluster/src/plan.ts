// `kubesched plan`: the smallest addition of nodes from node pools under which every pending pod
// schedules with the user's own configuration. Every candidate is a run of the counterfactual
// engine (counterfactual.ts: production's `simulate()` on the snapshot with the pool's nodes and
// their DaemonSet pods added), so a candidate is accepted only when the real scheduler places
// every pod, and the answer is proven by one more full run reported pod by pod.
//
// The exact search enumerates count vectors in order of the objective (node count, or total price
// with `optimize: "cost"`; ties by the other, then by the vector) from each pool's lower bound
// upwards — a best-first walk where each step adds one node of one pool, so no vector is tried
// before every cheaper one was — skipping without a run the vectors a lower bound rules out
// (plan-bounds.ts: capacity per pool set, bin packing, hostname anti-affinity, topology spread;
// each a necessary condition). The first vector under which every pod schedules is minimal:
// every vector ordered before it was proven not to work (by a run or by a bound). Nothing
// assumes that more nodes never hurt.
//
// The expanders are cluster-autoscaler's scale-up loop (cluster-autoscaler/core/scaleup and
// expander/{waste,price,mostpods,priority}; plan-expanders.ts): while pods are left pending, each
// pool that can host some of them proposes the nodes a bin packing of them onto its node needs
// (its resources and the devices per DeviceClass its slices publish), the expander picks one
// proposal, and the result is simulated again. They are heuristics: the answer schedules every
// pod (it is proven like the exact one) but need not be the smallest.
import {
  formatResourceAmount,
  type Node,
  type Pod,
  podKey,
  quantityValue,
  ResourceCPU,
  ResourceMemory,
  ResourcePods,
  type ResourceSlice,
  resourceListToAmounts,
} from "@kubesched/api";
import {
  addedNodeNames,
  type ClusterChange,
  type CounterfactualOptions,
  Counterfactuals,
} from "./counterfactual";
import type { SourcedObject } from "./load";
import { podAmounts } from "./plan-bounds";
import { planDevices } from "./plan-devices";
import { bestOption, expanderCapacities, expansionOptions } from "./plan-expanders";
import { daemonSetPodsOn, planGoal, templateOf } from "./plan-goal";
import { resourceSlicesOn } from "./pool-resource-slices";
import type { SimulationResult } from "./simulate";

export const planApiVersion = "kubesched.io/v1alpha1";

/** The resources a pool's DaemonSet pods are checked against its allocatable for. */
const boundResources = [ResourceCPU, ResourceMemory, ResourcePods] as const;

export type PlanOptimize = "count" | "cost";
export type PlanExpander = "least-waste" | "price" | "most-pods" | "priority";
export const planExpanders: readonly PlanExpander[] = ["least-waste", "price", "most-pods", "priority"];

/** A node pool the plan may add nodes from. */
export interface PlanPool {
  name: string;
  /** The pool's Node: labels, taints, allocatable. Added nodes are `<name>-new-<i>`. */
  node: Node;
  /**
   * The pods the snapshot's DaemonSets run on one node of the pool (as the loader creates them for
   * a node of the template); each added node gets its copies, pending, where the loader creates
   * them for a snapshot with the added nodes written out (`daemonSetPodsBefore`), so that the
   * proof is what `simulate` of that snapshot does.
   */
  daemonSetPods: readonly Pod[];
  /**
   * The ResourceSlices (resource.k8s.io/v1) a DRA driver publishes for each node of the pool, as
   * templates: each added node gets its copies (pool-resource-slices.ts: node name, pool name).
   */
  resourceSlices?: readonly ResourceSlice[];
  /**
   * For each of `daemonSetPods`, the pending pod of the snapshot the loader queues it before (its
   * DaemonSet's place in the input); null or absent: after every other pod.
   */
  daemonSetPodsBefore?: readonly (string | null)[];
  minCount: number;
  maxCount: number;
  /** Per node; required by `optimize: "cost"` and the price expander. */
  price?: number;
  /** The priority expander's order: higher first. */
  priority?: number;
}

export interface PlanOptions extends Omit<CounterfactualOptions, "objects"> {
  /** The snapshot's objects (pending pods and workloads' pods included), without the pools' nodes. */
  objects: readonly SourcedObject[];
  pools: readonly PlanPool[];
  optimize?: PlanOptimize;
  /** A heuristic instead of the exact search. */
  expander?: PlanExpander;
  /** Stop after this many simulations (the baseline and the proof not counted); default 500. */
  maxSimulations?: number;
}

/** A pending pod no pool can ever host: why not, per pool. */
export interface PlanExcludedPod {
  pod: string;
  reasons: { pool: string; reason: string }[];
}

export interface PlanPodPlacement {
  pod: string;
  /** The node the proof run bound it to; null when it stayed pending. */
  node: string | null;
  /** The pool of that node; null for a node of the snapshot. */
  pool: string | null;
  outcome: string;
  message: string | null;
}

export interface PlanUtilisation {
  /** Requested over allocatable, 0–1, over every node. */
  cpu: number;
  memory: number;
  nodes: number;
}

/** The devices of DRA drivers in the proof (plan-devices.ts). */
export interface PlanDevices {
  /** Per pool whose nodes in the proof publish ResourceSlices: their devices, and how many claims hold. */
  pools: { pool: string; published: number; allocated: number }[];
  /**
   * Per DeviceClass: the devices its selectors match on every node after (the proof), how many
   * claims hold, and how many of them the pools' nodes added.
   */
  classes: { name: string; published: number; allocated: number; added: number }[];
}

export interface PlanReport {
  apiVersion: typeof planApiVersion;
  kind: "PlanReport";
  spec: {
    optimize: PlanOptimize;
    expander: PlanExpander | null;
    pools: {
      name: string;
      minCount: number;
      maxCount: number;
      price: number | null;
      priority: number | null;
    }[];
    pendingPods: number;
  };
  status: {
    /** Whether an addition was found under which every pod but the excluded ones schedules. */
    found: boolean;
    /** True for the exact search's answer: no smaller addition (by the objective) works. */
    minimal: boolean;
    message: string;
    additions: { pool: string; count: number; nodes: string[]; price: number | null }[];
    nodes: number;
    /** The additions' total price; null when a pool adding nodes has no price. */
    cost: number | null;
    excluded: PlanExcludedPod[];
    search: {
      simulations: number;
      /** Count vectors the walk ruled out by a lower bound (plan-bounds.ts) without a run. */
      pruned: number;
      /**
       * The exact search's lower bound: the objective (node count, or price with
       * `optimize: "cost"`) of the first vector every bound admits; null for an expander or when
       * no vector within maxCount passes them.
       */
      lowerBound: number | null;
      /** Set when the search stopped at maxSimulations. */
      exhausted: boolean;
    };
    /** The proof: every pending pod as the follow-up simulate placed it. */
    pods: PlanPodPlacement[];
    utilisation: { before: PlanUtilisation; after: PlanUtilisation };
    /** Present when the proof's cluster has DeviceClasses or a pool's nodes publish ResourceSlices. */
    devices?: PlanDevices;
  };
}

/** Bad plan input a caller should have checked (a programmer's error). */
export class PlanError extends Error {}

/** The pool's DaemonSet pods for its added node `name`, pinned to it by node affinity, pending. */
function daemonSetPodsFor(pool: PlanPool, name: string): Pod[] {
  return daemonSetPodsOn(pool, name).map((p) => {
    const { nodeName: _, ...spec } = p.spec ?? { containers: [] };
    return { ...p, spec };
  });
}

/** The counterfactual changes that add `counts[i]` nodes of pool i, with their DaemonSet pods. */
export function planChanges(pools: readonly PlanPool[], counts: readonly number[]): ClusterChange[] {
  const changes: ClusterChange[] = [];
  pools.forEach((pool, i) => {
    const count = counts[i] ?? 0;
    if (count === 0) return;
    changes.push({ kind: "AddNodes", like: templateOf(pool), count });
    const names = addedNodeNames(pool.name, count);
    // Pending, each where the loader would queue it (see PlanPool.daemonSetPods).
    for (const name of names) {
      daemonSetPodsFor(pool, name).forEach((pod, j) => {
        const before = pool.daemonSetPodsBefore?.[j] ?? null;
        changes.push({ kind: "AddPods", pods: [pod], ...(before !== null ? { before } : {}) });
      });
    }
    const slices = names.flatMap((n) => resourceSlicesOn(pool, n));
    if (slices.length > 0) changes.push({ kind: "AddResourceSlices", slices });
  });
  return changes;
}

function utilisation(r: SimulationResult): PlanUtilisation {
  let cpu = 0;
  let cpuAlloc = 0;
  let mem = 0;
  let memAlloc = 0;
  const value = (s: string | undefined) => (s === undefined ? 0 : quantityValue(s));
  for (const n of r.nodes) {
    cpu += value(n.requested[ResourceCPU]);
    cpuAlloc += value(n.allocatable[ResourceCPU]);
    mem += value(n.requested[ResourceMemory]);
    memAlloc += value(n.allocatable[ResourceMemory]);
  }
  const frac = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10000) / 10000 : 0);
  return { cpu: frac(cpu, cpuAlloc), memory: frac(mem, memAlloc), nodes: r.nodes.length };
}

/** A binary heap of count vectors by key. */
class VectorHeap {
  private items: { key: number[]; v: number[] }[] = [];
  get size(): number {
    return this.items.length;
  }
  private less(a: number[], b: number[]): boolean {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
    return false;
  }
  push(key: number[], v: number[]): void {
    const it = this.items;
    it.push({ key, v });
    let i = it.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.less(key, (it[up] as { key: number[] }).key)) break;
      [it[i], it[up]] = [it[up] as { key: number[]; v: number[] }, it[i] as { key: number[]; v: number[] }];
      i = up;
    }
  }
  pop(): number[] | undefined {
    const it = this.items;
    const top = it[0];
    const last = it.pop();
    if (top === undefined || last === undefined) return undefined;
    if (it.length > 0) {
      it[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < it.length && this.less((it[l] as typeof last).key, (it[m] as typeof last).key)) m = l;
        if (r < it.length && this.less((it[r] as typeof last).key, (it[m] as typeof last).key)) m = r;
        if (m === i) break;
        [it[i], it[m]] = [it[m] as typeof last, it[i] as typeof last];
        i = m;
      }
    }
    return top.v;
  }
}

function roundPrice(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** Plans the addition; see the file's header for the search. */
export async function plan(opts: PlanOptions): Promise<PlanReport> {
  const { pools } = opts;
  const optimize = opts.optimize ?? "count";
  const expander = opts.expander ?? null;
  if (pools.length === 0) throw new PlanError("no node pools");
  if ((optimize === "cost" || expander === "price") && pools.some((p) => p.price === undefined))
    throw new PlanError("every pool needs a price to optimize cost or use the price expander");
  const maxSimulations = opts.maxSimulations ?? 500;
  const cf = await Counterfactuals.open(opts);
  const { pending, excluded, required, hostedBy, perNode, bounds, devices } = await planGoal(opts, cf);
  const pendingKeys = new Set(pending.map(podKey));

  let simulations = 0;
  let pruned = 0;
  let exhausted = false;
  const succeeds = async (v: readonly number[]) => {
    simulations++;
    const changes = planChanges(pools, v);
    const o = await cf.run(changes);
    const left = required.filter((p) => o.pods.get(podKey(p))?.outcome !== "Scheduled");
    // The added nodes' DaemonSet pods (pending, pinned to their nodes) must run too: the bounds
    // count a pool node's room less its DaemonSet pods, and a node whose DaemonSet pods a goal pod
    // crowded out is not an addition that works.
    const daemonSetsRun = changes.every(
      (c) => c.kind !== "AddPods" || c.pods.every((p) => o.pods.get(podKey(p))?.outcome === "Scheduled"),
    );
    return { result: o.result, left, works: left.length === 0 && daemonSetsRun };
  };

  let answer: number[] | null = null;
  let lowerBound: number | null = null;
  const minCounts = pools.map((p) => p.minCount);
  // Rounded: prices are decimals (0.2 × 3 is not 0.6 in binary floating point).
  const price = (v: readonly number[]) =>
    roundPrice(v.reduce((s, c, i) => s + c * (pools[i]?.price ?? 0), 0));
  const count = (v: readonly number[]) => v.reduce((s, c) => s + c, 0);
  let message: string;
  if (expander === null) {
    const key = (v: number[]) =>
      optimize === "cost" ? [price(v), count(v), ...v] : [count(v), price(v), ...v];
    // No working vector has a pool below its bound: the walk starts there.
    const start = pools.map((p, i) => Math.max(p.minCount, bounds.lowest[i] ?? 0));
    const heap = new VectorHeap();
    const seen = new Set<string>();
    if (start.every((c, i) => c <= (pools[i] as PlanPool).maxCount)) {
      heap.push(key(start), start);
      seen.add(start.join(","));
    }
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) {
      if (bounds.check(v) === null) {
        lowerBound ??= optimize === "cost" ? price(v) : count(v);
        if (simulations >= maxSimulations) {
          exhausted = true;
          break;
        }
        if ((await succeeds(v)).works) {
          answer = v;
          break;
        }
      } else pruned++;
      for (let i = 0; i < pools.length; i++) {
        if ((v[i] as number) >= (pools[i] as PlanPool).maxCount) continue;
        const next = v.map((c, j) => (j === i ? c + 1 : c));
        const k = next.join(",");
        if (seen.has(k)) continue;
        seen.add(k);
        heap.push(key(next), next);
      }
    }
    message =
      answer !== null
        ? `the smallest addition by ${optimize === "cost" ? "price" : "node count"}: every addition ordered before it was simulated or ruled out by a lower bound`
        : exhausted
          ? `stopped after ${maxSimulations} simulations without an addition under which every pod schedules`
          : "no addition within the pools' maxCount schedules every pod";
  } else {
    const capacities = expanderCapacities(perNode, devices);
    let v = [...minCounts];
    for (;;) {
      if (simulations >= maxSimulations) {
        exhausted = true;
        break;
      }
      const { left } = await succeeds(v);
      if (left.length === 0) {
        answer = v;
        break;
      }
      const best = bestOption(
        expander,
        pools,
        expansionOptions(pools, v, left, hostedBy, capacities, devices),
      );
      if (best === undefined) break;
      v = v.map((c, j) => (j === best.pool ? c + best.nodes : c));
    }
    message =
      answer !== null
        ? `the ${expander} expander's addition: every pod schedules; not searched for the smallest`
        : exhausted
          ? `stopped after ${maxSimulations} simulations without an addition under which every pod schedules`
          : "the expander found no pool left that can host the pods still pending";
  }

  const final = answer ?? pools.map((p) => p.maxCount);
  // The proof: one more full simulate of the answer (or, without one, of every pool at its
  // maximum, to show what stays pending).
  const proof = await cf.run(planChanges(pools, final));
  const nodePool = new Map<string, string>();
  pools.forEach((pool, i) => {
    for (const n of addedNodeNames(pool.name, final[i] ?? 0)) nodePool.set(n, pool.name);
  });
  const pods: PlanPodPlacement[] = proof.result.pods
    .filter((p) => pendingKeys.has(`${p.namespace}/${p.name}`))
    .map((p) => ({
      pod: `${p.namespace}/${p.name}`,
      node: p.node,
      pool: p.node === null ? null : (nodePool.get(p.node) ?? null),
      outcome: p.outcome,
      message: p.message,
    }));
  if (answer !== null && required.some((p) => proof.pods.get(podKey(p))?.outcome !== "Scheduled"))
    throw new PlanError("the proof simulate disagrees with the search's run of the same addition");
  const shown = answer ?? pools.map(() => 0);
  const priced = pools.every((p, i) => (shown[i] ?? 0) === 0 || p.price !== undefined);
  return {
    apiVersion: planApiVersion,
    kind: "PlanReport",
    spec: {
      optimize,
      expander,
      pools: pools.map((p) => ({
        name: p.name,
        minCount: p.minCount,
        maxCount: p.maxCount,
        price: p.price ?? null,
        priority: p.priority ?? null,
      })),
      pendingPods: pending.length,
    },
    status: {
      found: answer !== null,
      minimal: answer !== null && expander === null,
      message,
      additions: pools
        .map((p, i) => ({
          pool: p.name,
          count: shown[i] ?? 0,
          nodes: addedNodeNames(p.name, shown[i] ?? 0),
          price: p.price === undefined ? null : roundPrice((shown[i] ?? 0) * p.price),
        }))
        .filter((a) => a.count > 0),
      nodes: count(shown),
      cost: priced ? price(shown) : null,
      excluded,
      search: { simulations, pruned, exhausted, lowerBound },
      pods,
      utilisation: { before: utilisation(cf.baseline), after: utilisation(proof.result) },
      ...withDevices(planDevices(pools, final, cf.baseline, proof.result)),
    },
  };
}

function withDevices(devices: PlanDevices | null): { devices?: PlanDevices } {
  return devices === null ? {} : { devices };
}

/**
 * The DaemonSet pods the loader created for node `name` (pinned to it by a `metadata.name`
 * node-affinity field, as the DaemonSet controller pins them).
 */
export function daemonSetPodsOf(objects: readonly SourcedObject[], name: string): Pod[] {
  return objects
    .filter((o) => o.kind === "Pod")
    .map((o) => o.obj as Pod)
    .filter(
      (p) =>
        p.metadata?.ownerReferences?.some((r) => r.kind === "DaemonSet") &&
        p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.some(
          (t) => t.matchFields?.some((f) => f.key === "metadata.name" && f.values?.includes(name)),
        ),
    );
}

/** The resources of a pool node that its DaemonSet pods exceed, in words; empty when they fit. */
export function poolDaemonSetConflicts(pool: Pick<PlanPool, "node" | "daemonSetPods">): string[] {
  if (pool.daemonSetPods.length === 0) return [];
  const allocatable = resourceListToAmounts(pool.node.status?.allocatable);
  const requested = new Map<string, number>();
  for (const p of pool.daemonSetPods)
    for (const [r, v] of podAmounts(p)) requested.set(r, (requested.get(r) ?? 0) + v);
  const names = pool.daemonSetPods.map(podKey).join(", ");
  const out: string[] = [];
  for (const r of boundResources) {
    const want = requested.get(r) ?? 0;
    const have = allocatable.get(r) ?? 0;
    if (want > have)
      out.push(
        `the node template's allocatable ${r} (${formatResourceAmount(r, have)}) is below its DaemonSet pods' requests (${formatResourceAmount(r, want)}: ${names})`,
      );
  }
  return out;
}
