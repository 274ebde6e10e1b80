// `kubesched capacity --fragmentation`: where the free capacity the capacity run leaves is
// stranded, per node group. Computed on the simulation's final state (the snapshot's pending pods
// scheduled, the templates filled), with the profile's own Filter plugins (the diagnostic pass,
// runtime's diagnoseFilters) wherever placement matters:
// - reference pods: the templates and the pending pods that are still unscheduled;
// - a node is *reachable* by a reference pod when a copy of it without cpu and memory requests
//   passes every PreFilter and Filter plugin there (taints, affinity, spread, ports, pod count,
//   extended resources: everything but the cpu/memory arithmetic);
// - *unreachable* capacity: free cpu and memory on nodes no reference pod reaches;
// - *stranded cpu*: free cpu on reachable nodes whose memory is full, i.e. has less free than the
//   smallest memory request of the reference pods reaching the node (0 free when none requests
//   memory); *stranded memory* the reverse;
// - the *largest shapes*: on the nodes the first template reaches with some cpu and some memory
//   free, the most cpu a pod like it can request (then the most memory on that node), and the
//   most memory (then cpu), each accepted only when the template with exactly those requests
//   passes the Filter plugins on that node.
// There is no upstream counterpart (cluster-autoscaler's and Karpenter's simulations have none).
import {
  formatResourceAmount,
  type Pod,
  podKey,
  podRequests,
  ResourceCPU,
  ResourceMemory,
} from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";
import { nodeFits } from "@kubesched/runtime";
import type { Scheduler } from "@kubesched/scheduler";

/** The node label `--fragmentation` groups by unless told otherwise (the well-known instance type). */
export const defaultFragmentationLabel = "node.kubernetes.io/instance-type";

/** cpu and memory as quantity strings ("1500m", "3Gi"). */
export interface CpuMemory {
  cpu: string;
  memory: string;
}

/** A pod shape that still fits, and the node it fits on. */
export interface PodShape extends CpuMemory {
  node: string;
}

/** The largest shapes a pod like the first template can still get. */
export interface LargestShapes {
  /** The most cpu, then the most memory on that node; null when no node is reachable. */
  cpuFirst: PodShape | null;
  /** The most memory, then the most cpu on that node. */
  memoryFirst: PodShape | null;
}

/** One node group's free and stranded capacity. */
export interface FragmentationGroup {
  /** The group's label value; null for the nodes without the label. */
  value: string | null;
  nodes: number;
  allocatable: CpuMemory;
  free: CpuMemory;
  /** Free cpu on reachable nodes whose memory is full, and free memory on those whose cpu is. */
  stranded: CpuMemory;
  /** Free cpu and memory on the nodes no reference pod reaches. */
  unreachable: CpuMemory;
  largestShapes: LargestShapes;
}

/** `status.fragmentation` of a CapacityReport. */
export interface FragmentationReport {
  /** The node label the groups are by. */
  groupBy: string;
  /**
   * The reference pods (`namespace/name`): the templates, then the pending pods left unscheduled
   * (those a profile schedules).
   */
  referencePods: string[];
  groups: FragmentationGroup[];
  /** Over every group. */
  largestShapes: LargestShapes;
}

interface NodeFree {
  ni: NodeInfo;
  cpu: number;
  memory: number;
}

/** A copy of the pod without cpu and memory requests or limits: where may it go, size aside. */
function withoutCpuMemory(pod: Pod): Pod {
  const strip = <T extends { requests?: Record<string, string>; limits?: Record<string, string> }>(
    r: T | undefined,
  ): T | undefined => {
    if (!r) return r;
    const drop = (l: Record<string, string> | undefined) => {
      if (!l) return l;
      const { cpu: _c, memory: _m, ...rest } = l;
      return rest;
    };
    return { ...r, requests: drop(r.requests), limits: drop(r.limits) };
  };
  const spec = pod.spec ?? { containers: [] };
  const { cpu: _c, memory: _m, ...overhead } = spec.overhead ?? {};
  return {
    ...pod,
    spec: {
      ...spec,
      containers: spec.containers.map((c) => ({ ...c, resources: strip(c.resources) })),
      ...(spec.initContainers
        ? { initContainers: spec.initContainers.map((c) => ({ ...c, resources: strip(c.resources) })) }
        : {}),
      ...(spec.resources ? { resources: strip(spec.resources) } : {}),
      ...(spec.overhead ? { overhead } : {}),
    },
  };
}

/** The pod asking for exactly `cpu` millicores and `memory` bytes (its first container; the rest none). */
function shaped(pod: Pod, cpu: number, memory: number): Pod {
  const base = withoutCpuMemory(pod);
  const spec = base.spec ?? { containers: [] };
  const [first, ...rest] = spec.containers;
  if (!first) return base;
  const requests = {
    ...first.resources?.requests,
    cpu: formatResourceAmount(ResourceCPU, cpu),
    memory: formatResourceAmount(ResourceMemory, memory),
  };
  return {
    ...base,
    spec: { ...spec, containers: [{ ...first, resources: { ...first.resources, requests } }, ...rest] },
  };
}

/** Pods that differ only in name go to the same nodes: one probe for each spec. */
function probeKey(pod: Pod): string {
  const { nodeName: _n, hostname: _h, ...spec } = pod.spec ?? { containers: [] };
  return JSON.stringify([pod.metadata?.namespace, pod.metadata?.labels, spec]);
}

function cpuMemory(cpu: number, memory: number): CpuMemory {
  return {
    cpu: formatResourceAmount(ResourceCPU, cpu),
    memory: formatResourceAmount(ResourceMemory, memory),
  };
}

/** A shape by its amounts (millicores, bytes). */
interface Candidate {
  node: string;
  cpu: number;
  memory: number;
}

/** Orders candidates: the most of `first`, then the most of the other, then by node name. */
function before(a: Candidate, b: Candidate, first: "cpu" | "memory"): boolean {
  const second = first === "cpu" ? "memory" : "cpu";
  if (a[first] !== b[first]) return a[first] > b[first];
  if (a[second] !== b[second]) return a[second] > b[second];
  return a.node < b.node;
}

function pick(a: Candidate | null, b: Candidate | null, first: "cpu" | "memory"): Candidate | null {
  if (!a) return b;
  if (!b) return a;
  return before(a, b, first) ? a : b;
}

/**
 * The largest shape the template can still get on one of `members` it reaches, ordered by
 * `first`: candidates are the nodes' free amounts, each checked with the Filter plugins (the
 * template asking for exactly that); the first accepted is the answer.
 */
function largest(
  fits: (cpu: number, memory: number) => ReadonlySet<string>,
  members: readonly NodeFree[],
  reach: ReadonlySet<string>,
  first: "cpu" | "memory",
): Candidate | null {
  const candidates: Candidate[] = members
    .filter((n) => reach.has(n.ni.nodeName) && n.cpu > 0 && n.memory > 0)
    .map((n) => ({ node: n.ni.nodeName, cpu: n.cpu, memory: n.memory }))
    .sort((a, b) => (before(a, b, first) ? -1 : before(b, a, first) ? 1 : 0));
  for (const c of candidates) if (fits(c.cpu, c.memory).has(c.node)) return c;
  return null;
}

function toShape(c: Candidate | null): PodShape | null {
  return c ? { ...cpuMemory(c.cpu, c.memory), node: c.node } : null;
}

/**
 * The fragmentation of the scheduler's current state: `templates` (in order; the first is the
 * shape probe) and `unscheduled` (pending pods left) are the reference pods; nodes are grouped by
 * the value of `groupBy`.
 */
export function fragmentation(
  sched: Scheduler,
  templates: readonly Pod[],
  unscheduled: readonly Pod[],
  groupBy: string = defaultFragmentationLabel,
): FragmentationReport {
  const nodes: NodeFree[] = [...sched.cache.dump().nodes.values()]
    .filter((ni) => ni.node !== null)
    .map((ni) => ({
      ni,
      cpu: Math.max(0, ni.allocatable.milliCPU - ni.requested.milliCPU),
      memory: Math.max(0, ni.allocatable.memory - ni.requested.memory),
    }));
  // A pod no profile schedules (another schedulerName) cannot use anything here.
  const references = [...templates, ...unscheduled].filter((p) => sched.responsibleForPod(p));

  // Which nodes each distinct reference pod reaches, and its cpu/memory requests.
  const probes = new Map<string, { reach: Set<string>; cpu: number; memory: number }>();
  const reachOf: { reach: Set<string>; cpu: number; memory: number }[] = [];
  for (const pod of references) {
    const key = probeKey(pod);
    let probe = probes.get(key);
    if (!probe) {
      const d = sched.diagnoseFilters(withoutCpuMemory(pod));
      const req = podRequests(pod);
      probe = {
        reach: new Set((d?.nodes ?? []).filter(nodeFits).map((n) => n.nodeName)),
        cpu: req.get(ResourceCPU) ?? 0,
        memory: req.get(ResourceMemory) ?? 0,
      };
      probes.set(key, probe);
    }
    reachOf.push(probe);
  }
  const distinct = [...probes.values()];

  const groups = new Map<string | null, NodeFree[]>();
  for (const n of nodes) {
    const v = n.ni.node?.metadata?.labels?.[groupBy] ?? null;
    const list = groups.get(v) ?? [];
    list.push(n);
    groups.set(v, list);
  }

  const first = templates[0];
  const firstReach = first && sched.responsibleForPod(first) ? reachOf[0]?.reach : undefined;
  // The nodes the template asking for exactly a shape fits, by shape: one diagnostic pass
  // answers for every node, and groups of like nodes ask for the same shapes.
  const fitsByShape = new Map<string, ReadonlySet<string>>();
  const fits = (cpu: number, memory: number): ReadonlySet<string> => {
    const key = `${cpu}/${memory}`;
    let set = fitsByShape.get(key);
    if (!set) {
      const d = first ? sched.diagnoseFilters(shaped(first, cpu, memory)) : undefined;
      set = new Set((d?.nodes ?? []).filter(nodeFits).map((n) => n.nodeName));
      fitsByShape.set(key, set);
    }
    return set;
  };
  const out: FragmentationGroup[] = [];
  let overallCpu: Candidate | null = null;
  let overallMemory: Candidate | null = null;
  const values = [...groups.keys()].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0,
  );
  for (const value of values) {
    const members = groups.get(value) as NodeFree[];
    let allocCpu = 0;
    let allocMem = 0;
    let freeCpu = 0;
    let freeMem = 0;
    let strandedCpu = 0;
    let strandedMem = 0;
    let unreachableCpu = 0;
    let unreachableMem = 0;
    for (const n of members) {
      allocCpu += n.ni.allocatable.milliCPU;
      allocMem += n.ni.allocatable.memory;
      freeCpu += n.cpu;
      freeMem += n.memory;
      const reachers = distinct.filter((p) => p.reach.has(n.ni.nodeName));
      if (reachers.length === 0) {
        unreachableCpu += n.cpu;
        unreachableMem += n.memory;
        continue;
      }
      const smallest = (f: (p: { cpu: number; memory: number }) => number) => {
        const asks = reachers.map(f).filter((v) => v > 0);
        return asks.length > 0 ? Math.min(...asks) : 1;
      };
      const memoryFull = n.memory < smallest((p) => p.memory);
      const cpuFull = n.cpu < smallest((p) => p.cpu);
      if (memoryFull) strandedCpu += n.cpu;
      if (cpuFull) strandedMem += n.memory;
    }
    const cpuFirst = firstReach ? largest(fits, members, firstReach, "cpu") : null;
    const memoryFirst = firstReach ? largest(fits, members, firstReach, "memory") : null;
    overallCpu = pick(overallCpu, cpuFirst, "cpu");
    overallMemory = pick(overallMemory, memoryFirst, "memory");
    out.push({
      value,
      nodes: members.length,
      allocatable: cpuMemory(allocCpu, allocMem),
      free: cpuMemory(freeCpu, freeMem),
      stranded: cpuMemory(strandedCpu, strandedMem),
      unreachable: cpuMemory(unreachableCpu, unreachableMem),
      largestShapes: { cpuFirst: toShape(cpuFirst), memoryFirst: toShape(memoryFirst) },
    });
  }
  return {
    groupBy,
    referencePods: references.map((p) => podKey(p)),
    groups: out,
    largestShapes: { cpuFirst: toShape(overallCpu), memoryFirst: toShape(overallMemory) },
  };
}
