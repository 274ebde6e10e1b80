// `kubesched plan`'s expanders: cluster-autoscaler's scale-up step. Each pool that can host some
// of the pods still pending proposes the nodes a First-Fit Decreasing bin packing of those pods
// onto its template node needs (at most what its maxCount leaves), and the expander picks one
// proposal; plan.ts simulates the result and repeats while pods stay pending.
//
// upstream (kubernetes/autoscaler): cluster-autoscaler/estimator/binpacking_estimator.go
// @006685c4 (FFD over fresh copies of the group's template node, pods that fit no fresh node left
// out, the count capped by the group's limit), expander/waste/waste.go @105bf75e (unused cpu
// fraction plus unused memory fraction of the proposed nodes), mostpods, price, priority.
// Simplified: the bin packing checks resources only (the hostability probe already ran the
// pool's node through every plugin), price is the proposal's price per pod it hosts.
//
// Devices join as resources: a pod's devices of a DeviceClass (its claims' ExactCount requests,
// counted as plan's device bound counts them, plan-device-bound.ts) are an amount of the class's
// `deviceclass.resource.kubernetes.io/<class>` resource — the name DRAExtendedResource gives every
// class — and one node of a pool offers the devices of the class its slices publish (class
// membership through the allocator's CEL, `deviceClassMatcher`). So the GPU pool is sized by the
// GPUs the pods ask for, in one step, and least-waste adds one term per class the pool's node
// publishes: the fraction of those devices the hosted pods leave unused (a GPU node taken for
// cpu-only pods wastes all its GPUs, as it wastes cpu it does not fill).
import { type Pod, podKey, ResourceCPU, ResourceDeviceClassPrefix, ResourceMemory } from "@kubesched/api";
import type { PlanExpander, PlanPool } from "./plan";
import { podAmounts } from "./plan-bounds";
import type { PlanDeviceBound } from "./plan-device-bound";

/** One pool's proposal: how many nodes, the pods they would host, and what the expanders score. */
export interface ExpansionOption {
  /** The pool's index. */
  pool: number;
  nodes: number;
  /** The pods the bin packing placed on the proposed nodes. */
  hosted: number;
  /** cpu and memory, and per DeviceClass the pool's node publishes, the unused fraction, summed. */
  waste: number;
  cost: number;
}

type Amounts = Map<string, number>;

/** What one node of each pool offers (allocatable less DaemonSet pods, and its devices per class). */
export function expanderCapacities(perNode: readonly Amounts[], devices: PlanDeviceBound): Amounts[] {
  return perNode.map((cap, i) => {
    const out = new Map(cap);
    // A class with a device that allows multiple allocations (Infinity) does not limit a node's pods.
    for (const [cls, n] of devices.perNode[i] ?? [])
      if (n > 0 && Number.isFinite(n)) out.set(ResourceDeviceClassPrefix + cls, n);
    return out;
  });
}

/** A pod's requests with one of the node's pods and its devices per class. */
export function expanderDemand(pod: Pod, devices: PlanDeviceBound): Amounts {
  const out = podAmounts(pod);
  for (const [cls, n] of devices.perPod.get(podKey(pod)) ?? [])
    out.set(ResourceDeviceClassPrefix + cls, (out.get(ResourceDeviceClassPrefix + cls) ?? 0) + n);
  return out;
}

/**
 * First-Fit Decreasing of `pods` onto at most `room` nodes of capacity `cap`, by the resources the
 * node offers (a resource it lacks is not checked: the hostability probe decided that). Pods go in
 * decreasing order of their summed share of a node (cluster-autoscaler's DecreasingPodOrderer); a
 * pod no fresh node holds, or that finds no room once `room` nodes are open, is not hosted.
 */
export function binPack(
  pods: readonly Amounts[],
  cap: Amounts,
  room: number,
): { nodes: number; hosted: Amounts[] } {
  const share = (p: Amounts) => {
    let s = 0;
    for (const [r, x] of p) {
      const c = cap.get(r) ?? 0;
      if (c > 0) s += x / c;
    }
    return s;
  };
  const order = pods.map((p, i) => ({ p, i, s: share(p) })).sort((a, b) => b.s - a.s || a.i - b.i);
  const fits = (used: Amounts, p: Amounts) => {
    for (const [r, x] of p) {
      const c = cap.get(r) ?? 0;
      if (c > 0 && (used.get(r) ?? 0) + x > c) return false;
    }
    return true;
  };
  const bins: Amounts[] = [];
  const hosted: Amounts[] = [];
  for (const { p } of order) {
    let bin = bins.find((b) => fits(b, p));
    if (bin === undefined && bins.length < room && fits(new Map(), p)) {
      bin = new Map();
      bins.push(bin);
    }
    if (bin === undefined) continue;
    for (const [r, x] of p) bin.set(r, (bin.get(r) ?? 0) + x);
    hosted.push(p);
  }
  return { nodes: bins.length, hosted };
}

/** Each pool's proposal for the pods still pending (`left`); none from a pool that hosts none of them. */
export function expansionOptions(
  pools: readonly PlanPool[],
  counts: readonly number[],
  left: readonly Pod[],
  hostedBy: (pod: string, pool: string) => boolean,
  capacities: readonly Amounts[],
  devices: PlanDeviceBound,
): ExpansionOption[] {
  return pools.flatMap((pool, i) => {
    const room = pool.maxCount - (counts[i] ?? 0);
    const helped = left.filter((p) => hostedBy(podKey(p), pool.name));
    if (room <= 0 || helped.length === 0) return [];
    const cap = capacities[i] as Amounts;
    const packed = binPack(
      helped.map((p) => expanderDemand(p, devices)),
      cap,
      room,
    );
    if (packed.hosted.length === 0) return [];
    const used = new Map<string, number>();
    for (const p of packed.hosted) for (const [r, x] of p) used.set(r, (used.get(r) ?? 0) + x);
    let waste = 0;
    for (const r of [ResourceCPU, ResourceMemory, ...[...cap.keys()].filter(isDeviceClass)]) {
      const total = packed.nodes * Math.max(0, cap.get(r) ?? 0);
      if (total > 0) waste += (total - Math.min(total, used.get(r) ?? 0)) / total;
    }
    return [
      {
        pool: i,
        nodes: packed.nodes,
        hosted: packed.hosted.length,
        waste,
        cost: packed.nodes * (pool.price ?? 0),
      },
    ];
  });
}

const isDeviceClass = (r: string) => r.startsWith(ResourceDeviceClassPrefix);

/** The expander's pick (the first of equals, in the pools' order). */
export function bestOption(
  expander: PlanExpander,
  pools: readonly PlanPool[],
  options: readonly ExpansionOption[],
): ExpansionOption | undefined {
  const better = (a: ExpansionOption, b: ExpansionOption) => {
    switch (expander) {
      case "least-waste":
        return b.waste < a.waste;
      case "price":
        return b.cost / b.hosted < a.cost / a.hosted;
      case "most-pods":
        return b.hosted > a.hosted;
      case "priority":
        return (pools[b.pool]?.priority ?? 0) > (pools[a.pool]?.priority ?? 0);
    }
  };
  return options.reduce<ExpansionOption | undefined>(
    (a, b) => (a === undefined || better(a, b) ? b : a),
    undefined,
  );
}
