// upstream scheduler_perf workloads (test/integration/scheduler_perf/<topic>/performance-config.yaml),
// as data: node count and labelling, the ops in order, thresholds. Namespaces follow upstream:
// createPods without a namespace uses `namespace-<opIndex>`; createNamespaces makes sched-0/1.
import type { PodTemplateName } from "./templates";
import type { VerifyRule } from "./verify";

export interface NodeLabelling {
  key: string;
  /** Assigned round-robin (labelNodePrepareStrategy). */
  values: string[];
}

export interface CreatePodsOp {
  template: PodTemplateName;
  count: number;
  namespace: string;
}

export interface ChurnOp {
  template: PodTemplateName;
  namespace: string;
  intervalMs: number;
}

export interface Workload {
  /** `<TestCase>/<workload>` as upstream names them. */
  name: string;
  /** Upstream source file. */
  source: string;
  nodes: number;
  nodeLabels?: NodeLabelling;
  namespaces: string[];
  /** A Service (templates/service.yaml) in this namespace. */
  serviceNamespace?: string;
  /** Created and scheduled before measuring, in order. */
  init: CreatePodsOp[];
  /** Churn started before the measured pods are created (mode create), running to the end. */
  churn?: ChurnOp;
  measured: CreatePodsOp;
  /** Upstream's measured count when ours is reduced to fit the time budget. */
  upstreamMeasured?: number;
  /** Upstream CI threshold (SchedulingThroughput Average, pods/s); null when none. */
  threshold: number | null;
  /** The target for us (pods/s Average); null when none. */
  target: number | null;
  /** Peak RSS target in MB; null when none. */
  rssTargetMB: number | null;
  /** Stop measuring after this much wall time (the row is then marked incomplete). */
  timeoutMs: number;
  /** What the outcome must show (checked after the run; bench/lib/verify.ts). */
  verify: VerifyRule[];
  notes?: string;
}

const misc = "test/integration/scheduler_perf/misc/performance-config.yaml";
const affinity = "test/integration/scheduler_perf/affinity/performance-config.yaml";
const spreading = "test/integration/scheduler_perf/topology_spreading/performance-config.yaml";
const zone = "topology.kubernetes.io/zone";
const moons: NodeLabelling = { key: zone, values: ["moon-1", "moon-2", "moon-3"] };
const zone1: NodeLabelling = { key: zone, values: ["zone1"] };
const sched = ["sched-0", "sched-1"];

/** Basic shape: nodes (op 0), init pods (op 1, namespace-1), measured (op 2, namespace-2). */
function basic(
  template: PodTemplateName,
  initTemplate: PodTemplateName,
  init: number,
  measured: number,
): Pick<Workload, "namespaces" | "init" | "measured"> {
  return {
    namespaces: ["namespace-1", "namespace-2"],
    init: [{ template: initTemplate, count: init, namespace: "namespace-1" }],
    measured: { template, count: measured, namespace: "namespace-2" },
  };
}

/** Affinity shape: nodes (op 0), createNamespaces sched-0/1 (op 1), init in sched-0, measured in sched-1. */
function affinityShape(
  template: PodTemplateName,
  init: number,
  measured: number,
): Pick<Workload, "namespaces" | "init" | "measured"> {
  return {
    namespaces: sched,
    init: [{ template, count: init, namespace: "sched-0" }],
    measured: { template, count: measured, namespace: "sched-1" },
  };
}

export const workloads: Workload[] = [
  {
    name: "SchedulingBasic/500Nodes",
    source: misc,
    nodes: 500,
    ...basic("pod-default", "pod-default", 500, 1000),
    threshold: null,
    target: null,
    rssTargetMB: null,
    timeoutMs: 60_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "pluginRan", plugin: "NodeResourcesFit", point: "Score" },
    ],
    notes: "local size, no CI threshold",
  },
  {
    name: "SchedulingBasic/5000Nodes_10000Pods",
    source: misc,
    nodes: 5000,
    ...basic("pod-default", "pod-default", 1000, 10000),
    threshold: 680,
    target: 3400,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "pluginRan", plugin: "NodeResourcesFit", point: "Score" },
    ],
  },
  {
    name: "SchedulingPodAntiAffinity/5000Nodes_2000Pods",
    source: affinity,
    nodes: 5000,
    ...affinityShape("pod-with-pod-anti-affinity", 1000, 2000),
    threshold: 60,
    target: 1000,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "requiredAntiAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
  },
  {
    name: "SchedulingPodAffinity/5000Nodes_5000Pods",
    source: affinity,
    nodes: 5000,
    nodeLabels: zone1,
    ...affinityShape("pod-with-pod-affinity", 5000, 5000),
    threshold: 35,
    target: 700,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "requiredAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
  },
  {
    name: "SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
    source: affinity,
    nodes: 5000,
    ...affinityShape("pod-with-preferred-pod-affinity", 5000, 5000),
    threshold: 90,
    target: null,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "packed", podsPerHost: 40, factor: 5 },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Score" },
    ],
  },
  {
    name: "SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods",
    source: affinity,
    nodes: 5000,
    ...affinityShape("pod-with-preferred-pod-anti-affinity", 5000, 5000),
    threshold: 90,
    target: null,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "maxPerHost", max: 4 },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Score" },
    ],
  },
  {
    name: "SchedulingNodeAffinity/5000Nodes_10000Pods",
    source: affinity,
    nodes: 5000,
    nodeLabels: zone1,
    ...basic("pod-with-node-affinity", "pod-with-node-affinity", 5000, 10000),
    threshold: 220,
    target: 1100,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "nodeAffinity" },
      { kind: "pluginRan", plugin: "NodeAffinity", point: "Filter" },
    ],
  },
  {
    name: "TopologySpreading/5000Nodes_5000Pods",
    source: spreading,
    nodes: 5000,
    nodeLabels: moons,
    ...basic("pod-with-topology-spreading", "pod-default", 5000, 5000),
    threshold: 460,
    target: 2300,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "zoneSkew", maxSkew: 5 },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Filter" },
    ],
  },
  {
    name: "PreferredTopologySpreading/5000Nodes_5000Pods",
    source: spreading,
    nodes: 5000,
    nodeLabels: moons,
    ...basic("pod-with-preferred-topology-spreading", "pod-default", 5000, 5000),
    threshold: 340,
    target: 1700,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "zoneSkew", maxSkew: 5 },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Score" },
    ],
  },
  {
    // ops: createNodes (0), createAny Service in service-ns (1), init pods (2, namespace-2),
    // measured pod-with-label pods in service-ns (3).
    name: "DefaultTopologySpreading/5000Nodes_50000Pods",
    source: spreading,
    nodes: 5000,
    nodeLabels: moons,
    namespaces: ["namespace-2", "service-ns"],
    serviceNamespace: "service-ns",
    init: [{ template: "pod-default", count: 5000, namespace: "namespace-2" }],
    measured: { template: "pod-with-label", count: 50000, namespace: "service-ns" },
    threshold: 160,
    target: null,
    rssTargetMB: 500,
    timeoutMs: 120_000,
    verify: [
      { kind: "allMeasuredBound" },
      { kind: "withinCapacity" },
      { kind: "defaultSpreadingZoneSkew" },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Score" },
    ],
  },
  {
    name: "PreemptionBasic/1000Nodes",
    source: misc,
    nodes: 1000,
    ...basic("pod-high-priority", "pod-low-priority", 4000, 1000),
    threshold: null,
    target: null,
    rssTargetMB: null,
    timeoutMs: 90_000,
    verify: [{ kind: "allMeasuredBound" }, { kind: "withinCapacity" }, { kind: "preempted" }],
    notes: "no CI threshold (old 500Nodes floor was 18)",
  },
  {
    // ops: createNodes (0), init pods (1, namespace-1), churn (2, namespace-2), measured (3, namespace-3).
    name: "Unschedulable/5kNodes/100Init/10kPods",
    source: misc,
    nodes: 5000,
    namespaces: ["namespace-1", "namespace-2", "namespace-3"],
    init: [{ template: "pod-default", count: 100, namespace: "namespace-1" }],
    churn: { template: "pod-high-priority-large-cpu", namespace: "namespace-2", intervalMs: 200 },
    measured: { template: "pod-default", count: 10000, namespace: "namespace-3" },
    threshold: 590,
    target: 3000,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    verify: [{ kind: "allMeasuredBound" }, { kind: "withinCapacity" }, { kind: "churnPending" }],
    notes: "churn: one 9-CPU priority-10 pod every 200 ms of wall time",
  },
];

/** Workloads whose name matches `filter` (a case-insensitive regular expression, or a substring if it is not one). */
export function selectWorkloads(filter: string | undefined): Workload[] {
  if (!filter) return workloads;
  let re: RegExp;
  try {
    re = new RegExp(filter, "i");
  } catch {
    const f = filter.toLowerCase();
    return workloads.filter((w) => w.name.toLowerCase().includes(f));
  }
  return workloads.filter((w) => re.test(w.name));
}

export function findWorkload(name: string): Workload | undefined {
  return workloads.find((w) => w.name === name);
}
