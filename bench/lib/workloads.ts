// upstream scheduler_perf workloads (test/integration/scheduler_perf/<topic>/performance-config.yaml),
// as data: each workload's ops in upstream's order with their parameters filled in (the
// performance-sized variant, the one with a CI threshold), the threshold, our target and the
// decisions to verify. bench/workload.ts executes the ops as upstream's WorkloadExecutor does
// (executor.go): a createPods op without a namespace uses `namespace-<opIndex>`, createNamespaces
// makes `<prefix>-<i>`, createPodSets makes one createPods op per `<namespacePrefix>-<i>`.

import type {
  DeviceClass,
  DeviceTaintRule,
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceSlice,
} from "@kubesched/api";
import type { WorkloadProfile } from "./config";
import { compatibilityGroupsWorkloads } from "./dra-compatibilitygroups";
import { consumableCapacityWorkloads } from "./dra-consumablecapacity";
import { deviceTaintsWorkloads } from "./dra-devicetaints";
import {
  type ExtendedResourceClassTemplate,
  type ExtendedResourcePodTemplate,
  extendedResourceWorkloads,
} from "./dra-extendedresource";
import { listAttributesWorkloads } from "./dra-listattributes";
import { partitionableWorkloads } from "./dra-partitionable";
import { prioritizedListWorkloads } from "./dra-prioritizedlist";
import type { DRAPodTemplateName } from "./dra-templates";
import type { NodeTemplateName, PodTemplateName } from "./templates";
import type { VerifyRule } from "./verify";

export interface NodeLabelling {
  key: string;
  /** Assigned round-robin (labelNodePrepareStrategy). */
  values: string[];
}

export interface CreatePodsOp {
  opcode: "createPods";
  count: number;
  template: PodTemplateName | DRAPodTemplateName | ExtendedResourcePodTemplate;
  /** Absent: `namespace-<opIndex>`. */
  namespace?: string;
  /** Do not wait for the pods to be scheduled (their namespace is remembered for barriers). */
  skipWaitToCompletion?: boolean;
  /** The measured op: throughput is collected while its pods are scheduled. */
  collectMetrics?: boolean;
  /** persistentVolumeTemplatePath pv-aws.yaml + persistentVolumeClaimTemplatePath pvc.yaml. */
  persistentVolumes?: boolean;
  /** upstream signatureBatchSizeParam: runs of this many pods share a signature. */
  signatureBatchSize?: number;
  /**
   * upstream steadyState with durationParam: `count` pods are created; each time all of them are
   * scheduled they are deleted and `count` new ones created, for this long (wall time).
   */
  steadyStateMs?: number;
  /**
   * The steady state's batch is sized to the cluster (one pod per pool, or one per node as
   * upstream's listattributes sizes it): at `--scale` it scales with it.
   */
  steadyStateBatchScales?: boolean;
}

/** The DRA objects createAny creates from upstream's dra/templates. */
export type DRAObjectTemplate =
  | "deviceclass"
  | "resourceclaimtemplate"
  | "resourceclaim"
  | ExtendedResourceClassTemplate
  /** dra/listattributes: resourceslice-list-attributes-devices (`count`: one per DRA node) and its claim template. */
  | "resourceslice-list-attributes-devices"
  | "resourceclaimtemplate-list-attributes";

/** A DRA object a subtopic's template makes. */
export type DRAObjectOf =
  | { kind: "ResourceSlice"; object: ResourceSlice }
  | { kind: "DeviceClass"; object: DeviceClass }
  | { kind: "ResourceClaim"; object: ResourceClaim }
  | { kind: "ResourceClaimTemplate"; object: ResourceClaimTemplate }
  | { kind: "DeviceTaintRule"; object: DeviceTaintRule };

/** The objects one createAny of a dra/ subtopic's template makes at `index` (the template's {{.Index}}). */
export type DRAObject = (index: number, namespace: string) => DRAObjectOf[];

/** One object a churn op creates (and, in recreate mode, deletes) per tick. */
export type ChurnTemplate =
  | { kind: "Pod"; template: PodTemplateName }
  | { kind: "Node"; template: NodeTemplateName }
  | { kind: "Service"; template: "churn/service-default" };

export type Op =
  | {
      opcode: "createNodes";
      count: number;
      template?: NodeTemplateName | "node-with-dra-test-driver";
      labelNodePrepareStrategy?: NodeLabelling;
    }
  | { opcode: "createNamespaces"; prefix: string; count: number; template?: "namespace-with-labels" }
  | { opcode: "createAny"; template: "service"; namespace: string }
  /** DRA objects: `count` ResourceClaims `test-claim-<i>`, else one object (a DeviceClass has no namespace). */
  | { opcode: "createAny"; template: DRAObjectTemplate; namespace?: string; count?: number }
  /**
   * A dra/ subtopic's template (named as upstream's file, without .yaml): `count` times (default 1)
   * the objects `make` builds for index 0, 1, …; counts scale with the workload.
   */
  | { opcode: "createAny"; template: string; namespace?: string; count?: number; make: DRAObject }
  /**
   * The DRA test driver's controller side: one ResourceSlice per node whose name matches the
   * glob `nodes`, with `maxClaimsPerNode` devices (upstream createResourceDriverOp).
   */
  | { opcode: "createResourceDriver"; driverName: string; nodes: string; maxClaimsPerNode: number }
  /** Every claim of the namespace allocated by the structured allocator (upstream allocResourceClaimsOp). */
  | { opcode: "allocResourceClaims"; namespace: string }
  | CreatePodsOp
  | {
      opcode: "createPodSets";
      /** Namespaces `<namespacePrefix>-0` … `-<count-1>`, one createPods op each. */
      count: number;
      namespacePrefix: string;
      createPodsOp: { count: number; template: PodTemplateName };
    }
  /** Waits until every pod of the namespaces created so far is attempted (or scheduled). */
  | { opcode: "barrier"; stageRequirement: "Attempted" | "Scheduled" }
  | { opcode: "deletePods"; namespace: string; deletePodsPerSecond: number; skipWaitToCompletion: boolean }
  | {
      opcode: "churn";
      /** create: every tick creates one of each template; recreate: ticks alternate create / delete. */
      mode: "create" | "recreate";
      /** recreate: objects per template kept alive (upstream `number`). */
      number?: number;
      templates: ChurnTemplate[];
      intervalMilliseconds: number;
    };

export interface Workload {
  /** `<TestCase>/<workload>` as upstream names them. */
  name: string;
  /** Upstream source file. */
  source: string;
  ops: Op[];
  /** Upstream's measured count when ours is reduced to fit the time budget. */
  upstreamMeasured?: number;
  /** Upstream CI threshold (SchedulingThroughput Average, pods/s); null when none. */
  threshold: number | null;
  /** The issue's own target (pods/s Average) where it names one; otherwise 5× the threshold applies. */
  target: number | null;
  /** Peak RSS target in MB; null when none. */
  rssTargetMB: number | null;
  /** Stop measuring after this much wall time (the row is then marked incomplete). */
  timeoutMs: number;
  /** What the outcome must show (checked after the run; bench/lib/verify.ts). */
  verify: VerifyRule[];
  /** A point of the scaling curve (SchedulingBasic at several node counts). */
  scaling?: boolean;
  /** upstream schedulerConfigPath: the workload's own profile (default: upstream's default profile). */
  profile?: WorkloadProfile;
  /** upstream featureGates: gates set over the defaults of the release kubesched tracks. */
  featureGates?: Readonly<Record<string, boolean>>;
  /** Not an upstream workload of its own: this one's ops at another size (the scaling curve's extra points). */
  sizeOf?: string;
  notes?: string;
}

const misc = "test/integration/scheduler_perf/misc/performance-config.yaml";
const affinity = "test/integration/scheduler_perf/affinity/performance-config.yaml";
const spreading = "test/integration/scheduler_perf/topology_spreading/performance-config.yaml";
const batching = "test/integration/scheduler_perf/batching/performance-config.yaml";
const volumes = "test/integration/scheduler_perf/volumes/performance-config.yaml";
const dra = "test/integration/scheduler_perf/dra/performance-config.yaml";
const zone = "topology.kubernetes.io/zone";
const moons: NodeLabelling = { key: zone, values: ["moon-1", "moon-2", "moon-3"] };
const zone1: NodeLabelling = { key: zone, values: ["zone1"] };

const nodes = (
  count: number,
  labels?: NodeLabelling,
  template?: NodeTemplateName | "node-with-dra-test-driver",
): Op => ({
  opcode: "createNodes",
  count,
  ...(template ? { template } : {}),
  ...(labels ? { labelNodePrepareStrategy: labels } : {}),
});
const pods = (
  count: number,
  template: CreatePodsOp["template"],
  extra: Partial<CreatePodsOp> = {},
): CreatePodsOp => ({
  opcode: "createPods",
  count,
  template,
  ...extra,
});
const measure = (
  count: number,
  template: CreatePodsOp["template"],
  extra: Partial<CreatePodsOp> = {},
): CreatePodsOp => pods(count, template, { ...extra, collectMetrics: true });
const schedNamespaces: Op = { opcode: "createNamespaces", prefix: "sched", count: 2 };

/** SchedulingBasic's shape: createNodes, init createPods, measured createPods (pod-default). */
function basic(nodeCount: number, init: number, measured: number): Op[] {
  return [nodes(nodeCount), pods(init, "pod-default"), measure(measured, "pod-default")];
}

/** The affinity tests' shape: createNodes, createNamespaces sched-0/1, init in sched-0, measured in sched-1. */
function affinityShape(
  template: PodTemplateName,
  init: number,
  measured: number,
  labels?: NodeLabelling,
): Op[] {
  return [
    nodes(5000, labels),
    schedNamespaces,
    pods(init, template, { namespace: "sched-0" }),
    measure(measured, template, { namespace: "sched-1" }),
  ];
}

/**
 * The namespace-selector tests' shape: createNodes, `initNamespaces` labelled namespaces
 * init-ns-<i> with `perNamespace` pods each (createPodSets), a labelled measure-ns-0 for the
 * measured pods.
 */
function nsSelectorShape(
  template: PodTemplateName,
  nodeCount: number,
  perNamespace: number,
  measured: number,
  labels?: NodeLabelling,
): Op[] {
  return [
    nodes(nodeCount, labels),
    { opcode: "createNamespaces", prefix: "init-ns", count: 100, template: "namespace-with-labels" },
    { opcode: "createNamespaces", prefix: "measure-ns", count: 1, template: "namespace-with-labels" },
    {
      opcode: "createPodSets",
      count: 100,
      namespacePrefix: "init-ns",
      createPodsOp: { count: perNamespace, template },
    },
    measure(measured, template, { namespace: "measure-ns-0" }),
  ];
}

const bound = [{ kind: "allMeasuredBound" }, { kind: "withinCapacity" }] as const satisfies VerifyRule[];
const basicVerify: VerifyRule[] = [
  ...bound,
  { kind: "pluginRan", plugin: "NodeResourcesFit", point: "Score" },
];
/** An extra size of the scaling curve: SchedulingBasic's ops at another node count. */
const scalingPoint = {
  scaling: true,
  sizeOf: "SchedulingBasic/5000Nodes_10000Pods",
  notes:
    "not an upstream size: a point of the scaling curve (SchedulingBasic's 1:5 init and 2:1 measured pods per node)",
} as const;
/** The 5000-node workloads' RSS target and time limit. */
const at5000 = { rssTargetMB: 500, timeoutMs: 90_000 } as const;
/** Preferred pod affinity packs pods on few hosts (40 fit a host), InterPodAffinity scoring. */
const packedByPreferredAffinity: VerifyRule[] = [
  ...bound,
  { kind: "packed", podsPerHost: 40, factor: 5 },
  { kind: "pluginRan", plugin: "InterPodAffinity", point: "Score" },
];

export const workloads: Workload[] = [
  {
    name: "SchedulingBasic/500Nodes",
    source: misc,
    ops: basic(500, 500, 1000),
    threshold: null,
    target: null,
    rssTargetMB: null,
    timeoutMs: 60_000,
    verify: basicVerify,
    scaling: true,
    notes: "local size, no CI threshold",
  },
  {
    name: "SchedulingBasic/1000Nodes",
    source: misc,
    ops: basic(1000, 200, 2000),
    threshold: null,
    target: null,
    rssTargetMB: null,
    timeoutMs: 60_000,
    verify: basicVerify,
    ...scalingPoint,
  },
  {
    name: "SchedulingBasic/5000Nodes_10000Pods",
    source: misc,
    ops: basic(5000, 1000, 10000),
    threshold: 680,
    target: 3400,
    ...at5000,
    verify: basicVerify,
    scaling: true,
  },
  {
    name: "SchedulingBasic/15000Nodes",
    source: misc,
    ops: basic(15000, 3000, 30000),
    threshold: null,
    target: null,
    rssTargetMB: 1024,
    timeoutMs: 180_000,
    verify: basicVerify,
    ...scalingPoint,
  },
  {
    // The daemonset case (issue #124709): NodeAffinity's PreFilterResult narrows every pod to
    // the one node its matchFields names, among 15000 others.
    name: "SchedulingDaemonset/15000Nodes",
    source: misc,
    ops: [
      nodes(1, undefined, "node-with-name"),
      nodes(15000, undefined, "node-default"),
      measure(30000, "daemonset-pod"),
    ],
    threshold: 1100,
    target: 5500,
    rssTargetMB: 1024,
    timeoutMs: 180_000,
    verify: [
      ...bound,
      { kind: "allOnNamedNode" },
      { kind: "pluginRan", plugin: "NodeAffinity", point: "PreFilter" },
    ],
  },
  {
    name: "SchedulingPodAntiAffinity/5000Nodes_2000Pods",
    source: affinity,
    ops: affinityShape("pod-with-pod-anti-affinity", 1000, 2000),
    threshold: 60,
    target: 1000,
    ...at5000,
    verify: [
      ...bound,
      { kind: "requiredAntiAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
  },
  {
    // The measured pods carry only the label the existing pods' anti-affinity selects: the
    // symmetric (existing pods') side of the filter does the work.
    name: "SchedulingPodMatchingAntiAffinity/5000Nodes_5000Pods",
    source: affinity,
    ops: [
      nodes(5000),
      schedNamespaces,
      pods(1000, "pod-with-pod-anti-affinity", { namespace: "sched-0" }),
      measure(5000, "pod-with-pod-anti-affinity-label", { namespace: "sched-1" }),
    ],
    threshold: 595,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "requiredAntiAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
    notes: "floor 595 is the QueueingHints-off variant's (543 with them on, as we run)",
  },
  {
    name: "SchedulingPodAffinity/5000Nodes_5000Pods",
    source: affinity,
    ops: affinityShape("pod-with-pod-affinity", 5000, 5000, zone1),
    threshold: 35,
    target: 700,
    ...at5000,
    verify: [
      ...bound,
      { kind: "requiredAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
  },
  {
    name: "SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
    source: affinity,
    ops: affinityShape("pod-with-preferred-pod-affinity", 5000, 5000),
    threshold: 90,
    target: null,
    ...at5000,
    verify: packedByPreferredAffinity,
  },
  {
    name: "SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods",
    source: affinity,
    ops: affinityShape("pod-with-preferred-pod-anti-affinity", 5000, 5000),
    threshold: 90,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "maxPerHost", max: 4 },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Score" },
    ],
  },
  {
    name: "SchedulingNodeAffinity/5000Nodes_10000Pods",
    source: affinity,
    ops: [nodes(5000, zone1), pods(5000, "pod-with-node-affinity"), measure(10000, "pod-with-node-affinity")],
    threshold: 220,
    target: 1100,
    ...at5000,
    verify: [
      ...bound,
      { kind: "nodeAffinity" },
      { kind: "pluginRan", plugin: "NodeAffinity", point: "Filter" },
    ],
  },
  {
    // Five kinds of existing pods (2000 each, sched-0), then plain pods measured in namespace-7.
    name: "MixedSchedulingBasePod/5000Nodes_5000Pods",
    source: affinity,
    ops: [
      nodes(5000, zone1),
      { opcode: "createNamespaces", prefix: "sched", count: 1 },
      pods(2000, "pod-default", { namespace: "sched-0" }),
      pods(2000, "pod-with-pod-affinity", { namespace: "sched-0" }),
      pods(2000, "pod-with-pod-anti-affinity", { namespace: "sched-0" }),
      pods(2000, "pod-with-preferred-pod-affinity", { namespace: "sched-0" }),
      pods(2000, "pod-with-preferred-pod-anti-affinity", { namespace: "sched-0" }),
      measure(5000, "pod-default"),
    ],
    threshold: 140,
    target: null,
    ...at5000,
    notes:
      "as upstream, each init op waits only until sched-0 has as many pods scheduled as it created (2000), so the measured pods start behind most of the 10000 init pods: Overall counts that wait, the Average (from the first measured bind) does not",
    verify: [
      ...bound,
      { kind: "requiredAntiAffinity" },
      { kind: "requiredAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Score" },
    ],
  },
  {
    // 6000 nodes for 4000 + 2000 pods that may not share a host: every node ends up with one.
    name: "SchedulingRequiredPodAntiAffinityWithNSSelector/5000Nodes_2000Pods",
    source: affinity,
    ops: nsSelectorShape("pod-anti-affinity-ns-selector", 6000, 40, 2000),
    threshold: 24,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "requiredAntiAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
  },
  {
    name: "SchedulingPreferredAntiAffinityWithNSSelector/5000Nodes_2000Pods",
    source: affinity,
    ops: nsSelectorShape("pod-preferred-anti-affinity-ns-selector", 5000, 40, 2000),
    threshold: 55,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "maxPerHost", max: 2, selector: { color: "green" } },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Score" },
    ],
  },
  {
    name: "SchedulingRequiredPodAffinityWithNSSelector/5000Nodes_2000Pods",
    source: affinity,
    ops: nsSelectorShape("pod-affinity-ns-selector", 5000, 50, 2000, zone1),
    threshold: 35,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "requiredAffinity" },
      { kind: "pluginRan", plugin: "InterPodAffinity", point: "Filter" },
    ],
  },
  {
    name: "SchedulingPreferredAffinityWithNSSelector/5000Nodes_5000Pods",
    source: affinity,
    ops: nsSelectorShape("pod-preferred-affinity-ns-selector", 5000, 50, 5000),
    threshold: 90,
    target: null,
    ...at5000,
    verify: packedByPreferredAffinity,
  },
  {
    name: "TopologySpreading/5000Nodes_5000Pods",
    source: spreading,
    ops: [nodes(5000, moons), pods(5000, "pod-default"), measure(5000, "pod-with-topology-spreading")],
    threshold: 460,
    target: 2300,
    ...at5000,
    verify: [
      ...bound,
      { kind: "zoneSkew", maxSkew: 5 },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Filter" },
    ],
  },
  {
    name: "PreferredTopologySpreading/5000Nodes_5000Pods",
    source: spreading,
    ops: [
      nodes(5000, moons),
      pods(5000, "pod-default"),
      measure(5000, "pod-with-preferred-topology-spreading"),
    ],
    threshold: 340,
    target: 1700,
    ...at5000,
    verify: [
      ...bound,
      { kind: "zoneSkew", maxSkew: 5 },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Score" },
    ],
  },
  {
    name: "DefaultTopologySpreading/5000Nodes_50000Pods",
    source: spreading,
    ops: [
      nodes(5000, moons),
      { opcode: "createAny", template: "service", namespace: "service-ns" },
      pods(5000, "pod-default"),
      measure(50000, "pod-with-label", { namespace: "service-ns" }),
    ],
    threshold: 160,
    target: null,
    rssTargetMB: 500,
    timeoutMs: 120_000,
    verify: [
      ...bound,
      { kind: "defaultSpreadingZoneSkew" },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Score" },
    ],
  },
  {
    // maxSkew 1 over hostname with nodeTaintsPolicy Honor: the 1000 tainted nodes are no
    // domains, so the 4000 pods land one per untainted node.
    name: "SchedulingWithNodeInclusionPolicy/5000Nodes",
    source: spreading,
    ops: [
      nodes(4000),
      nodes(1000, undefined, "node-with-taint"),
      measure(4000, "pod-with-node-inclusion-policy"),
    ],
    threshold: 270,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "hostSkewUntainted", maxSkew: 1 },
      { kind: "pluginRan", plugin: "PodTopologySpread", point: "Filter" },
    ],
  },
  {
    name: "PreemptionBasic/1000Nodes",
    source: misc,
    ops: [nodes(1000), pods(4000, "pod-low-priority"), measure(1000, "pod-high-priority")],
    threshold: null,
    target: null,
    rssTargetMB: null,
    timeoutMs: 90_000,
    verify: [...bound, { kind: "preempted" }],
    notes: "no CI threshold (old 500Nodes floor was 18)",
  },
  {
    // Schedulable pods interleaved with a priority-10 preemptor (3 CPU: evicts 3 of a node's 4
    // low-priority pods) every 200 ms. Runs with async preemption (SchedulerAsyncPreemption, the
    // default): the victims are deleted off the scheduling cycle while DefaultPreemption's
    // PreEnqueue holds the preemptor; upstream's floor is the same for the async and sync variants.
    name: "PreemptionAsync/5000Nodes",
    source: misc,
    ops: [
      nodes(5000),
      pods(20000, "pod-low-priority"),
      {
        opcode: "churn",
        mode: "create",
        templates: [{ kind: "Pod", template: "pod-high-priority" }],
        intervalMilliseconds: 200,
      },
      measure(5000, "pod-default"),
    ],
    threshold: 570,
    target: null,
    ...at5000,
    verify: [...bound, { kind: "preempted" }],
  },
  {
    name: "Unschedulable/5kNodes/100Init/10kPods",
    source: misc,
    ops: [
      nodes(5000),
      pods(100, "pod-default"),
      {
        opcode: "churn",
        mode: "create",
        templates: [{ kind: "Pod", template: "pod-high-priority-large-cpu" }],
        intervalMilliseconds: 200,
      },
      measure(10000, "pod-default"),
    ],
    threshold: 590,
    target: 3000,
    ...at5000,
    verify: [...bound, { kind: "churnPending" }],
    notes: "churn: one 9-CPU priority-10 pod every 200 ms of wall time",
  },
  {
    // Every second, a node nothing fits on, a 9-CPU priority-10 pod and a Service are created,
    // and deleted the next second (recreate mode, number 1).
    name: "SchedulingWithMixedChurn/5000Nodes_10000Pods",
    source: misc,
    ops: [
      nodes(5000),
      {
        opcode: "churn",
        mode: "recreate",
        number: 1,
        templates: [
          { kind: "Node", template: "churn/node-default" },
          { kind: "Pod", template: "pod-high-priority-large-cpu" },
          { kind: "Service", template: "churn/service-default" },
        ],
        intervalMilliseconds: 1000,
      },
      measure(10000, "pod-default"),
    ],
    threshold: 710,
    target: null,
    ...at5000,
    verify: [...bound, { kind: "churnPending" }, { kind: "churnRecreated" }],
  },
  {
    // 10000 gated pods wait in the queue while 20000 scheduled pods are deleted at 50/s (an
    // AssignedPodDelete event each) and 20000 more are scheduled, all on one node (issue #124384).
    name: "SchedulingWhileGated/1Node_10000GatedPods",
    source: misc,
    ops: [
      nodes(1, undefined, "node-with-name"),
      pods(10000, "gated-pod", { skipWaitToCompletion: true }),
      { opcode: "barrier", stageRequirement: "Attempted" },
      pods(20000, "light-pod"),
      { opcode: "deletePods", namespace: "namespace-3", deletePodsPerSecond: 50, skipWaitToCompletion: true },
      measure(20000, "light-pod"),
    ],
    threshold: 910,
    target: null,
    rssTargetMB: 500,
    timeoutMs: 180_000,
    verify: [...bound, { kind: "gatedStayPending" }, { kind: "deletedAtRate" }],
  },
  {
    // Pods with a finalizer are deleted at 100/s while they and the measured pods are scheduled:
    // they stay, marked for deletion, holding their place; pending ones must not be scheduled
    // (upstream PR #126962, an in-flight events leak on this path).
    name: "SchedulingDeletedPodsWithFinalizers/5000Node_5000DeletingPods",
    source: misc,
    ops: [
      nodes(5000),
      pods(5000, "pod-with-finalizer", { skipWaitToCompletion: true }),
      {
        opcode: "deletePods",
        namespace: "namespace-1",
        deletePodsPerSecond: 100,
        skipWaitToCompletion: true,
      },
      measure(5000, "light-pod"),
    ],
    threshold: 830,
    target: null,
    ...at5000,
    verify: [...bound, { kind: "deletingPodsHeld" }, { kind: "deletedAtRate" }, { kind: "noInFlightEvents" }],
  },
  {
    name: "SchedulingSecrets/5000Nodes_10000Pods",
    source: volumes,
    ops: [nodes(5000), pods(1000, "pod-with-secret-volume"), measure(10000, "pod-with-secret-volume")],
    threshold: 790,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "podsKeepVolumes" },
      { kind: "pluginRan", plugin: "NodeResourcesFit", point: "Score" },
    ],
  },
  {
    // Each pod has its own in-tree AWS EBS PV, pre-bound to its claim (makeBasePod's pod).
    name: "SchedulingInTreePVs/5000Nodes_2000Pods",
    source: volumes,
    ops: [
      nodes(5000),
      pods(1000, "pod-default", { persistentVolumes: true }),
      measure(2000, "pod-default", { persistentVolumes: true }),
    ],
    threshold: 290,
    target: null,
    ...at5000,
    verify: [
      ...bound,
      { kind: "podsKeepVolumes" },
      { kind: "volumeLimits" },
      { kind: "pluginRan", plugin: "VolumeBinding", point: "Filter" },
      { kind: "pluginRan", plugin: "NodeVolumeLimits", point: "Filter" },
    ],
  },
  ...batchingWorkloads("HostPortConflict", "pod-hostport-80"),
  ...batchingWorkloads("ResourceSaturation", "pod-saturation"),
  ...draWorkloads(),
  ...partitionableWorkloads(draVerify(true)),
  ...prioritizedListWorkloads(draVerify(false)),
  ...deviceTaintsWorkloads(draVerify(false)),
  ...consumableCapacityWorkloads(draVerify(true)),
  ...extendedResourceWorkloads(),
  ...listAttributesWorkloads(),
  ...compatibilityGroupsWorkloads(draVerify(true)),
];

/** What every DRA workload verifies (steady: a steady state's batches instead of the measured pods). */
function draVerify(steady: boolean): VerifyRule[] {
  return [
    steady ? { kind: "steadyStateBound" } : { kind: "allMeasuredBound" },
    { kind: "withinCapacity" },
    { kind: "draAllocations" },
    { kind: "pluginRan", plugin: "DynamicResources", point: "Filter" },
  ];
}

/**
 * upstream dra/performance-config.yaml (ops at 49bcfe68; the thresholds, which that version no
 * longer carries, from 03312ae5): 500 nodes with the DRA test driver's slices (`maxClaimsPerNode`
 * devices each), upstream's `test-class`, pods whose claims come from a template (the simulator's
 * resourceclaim controller creates them) or name shared claims. Upstream's `createNodes` of
 * `nodesWithoutDRA` (0 at these sizes) is left out. Where the QueueingHints-off and -on variants'
 * floors differ, the row uses the higher (we run with hints).
 */
function draWorkloads(): Workload[] {
  const driverNodes = (maxClaimsPerNode: number): Op[] => [
    nodes(500, undefined, "node-with-dra-test-driver"),
    {
      opcode: "createResourceDriver",
      driverName: "test-driver.cdi.k8s.io",
      nodes: "scheduler-perf-dra-*",
      maxClaimsPerNode,
    },
    { opcode: "createAny", template: "deviceclass" },
  ];
  const base = { source: dra, rssTargetMB: 500, timeoutMs: 90_000 } as const;
  const steady = (name: string, initClaims: number, threshold: number, notes?: string): Workload => ({
    ...base,
    name: `SteadyStateClusterResourceClaimTemplate/${name}`,
    ops: [
      ...driverNodes(10),
      ...(initClaims > 0
        ? ([
            { opcode: "createAny", template: "resourceclaim", namespace: "init", count: initClaims },
            { opcode: "allocResourceClaims", namespace: "init" },
          ] as const satisfies Op[])
        : []),
      { opcode: "createAny", template: "resourceclaimtemplate", namespace: "test" },
      measure(10, "pod-with-claim-template", { namespace: "test", steadyStateMs: 10_000 }),
    ],
    threshold,
    target: null,
    verify: draVerify(true),
    ...(notes ? { notes } : {}),
  });
  return [
    {
      ...base,
      name: "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
      ops: [
        ...driverNodes(10),
        { opcode: "createAny", template: "resourceclaimtemplate", namespace: "init" },
        pods(2500, "pod-with-claim-template", { namespace: "init" }),
        { opcode: "createAny", template: "resourceclaimtemplate", namespace: "test" },
        measure(2500, "pod-with-claim-template", { namespace: "test" }),
      ],
      threshold: 56,
      target: null,
      verify: draVerify(false),
      notes:
        "floor 56 is the QueueingHints-on variant's (40 with them off); the cluster ends full (5000 devices)",
    },
    steady("empty_500nodes", 0, 64),
    steady("half_500nodes", 2500, 70, "floor 70 is the QueueingHints-off variant's (60 with them on)"),
    steady("full_500nodes", 4990, 60, "the cluster holds exactly 10 more pods: each batch of 10 fills it"),
    {
      ...base,
      name: "SchedulingWithResourceClaim/5000pods_500nodes",
      ops: [
        ...driverNodes(2),
        { opcode: "createAny", template: "resourceclaim", namespace: "init", count: 500 },
        pods(2500, "pod-with-claim-ref", { namespace: "init" }),
        { opcode: "createAny", template: "resourceclaim", namespace: "test", count: 500 },
        measure(2500, "pod-with-claim-ref", { namespace: "test" }),
      ],
      threshold: null,
      target: null,
      verify: draVerify(false),
      notes: "no CI threshold; five pods share each claim",
    },
  ];
}

/**
 * upstream batching/: one pod per node (host port 80, or 3 of a node's 4 CPUs) on 20000 nodes, with
 * the profile without default topology spread, OpportunisticBatching on (signature batches of 1000
 * pods) and off. No CI threshold; the runs compare the gate on against off. The release is the one
 * kubesched tracks (1.37: NodeResourcesFit signs, the last chosen node is rescored when it still fits).
 */
function batchingWorkloads(testCase: string, template: PodTemplateName): Workload[] {
  const base = {
    source: batching,
    threshold: null,
    target: null,
    rssTargetMB: 1024,
    // Without batching every pod of the last thousands scans most of the 20000 full nodes.
    timeoutMs: 300_000,
    profile: "no-topology" as const,
  };
  const onePerNode: VerifyRule[] = [...bound, { kind: "maxPerHost", max: 1 }];
  return [
    {
      ...base,
      name: `${testCase}/20000Nodes_20000Pods_1000BatchSize`,
      ops: [nodes(20000), measure(20000, template, { signatureBatchSize: 1000 })],
      featureGates: { OpportunisticBatching: true },
      // The first pod of each signature batch is scheduled in full; most of the others take a hint.
      verify: [...onePerNode, { kind: "batched", min: 0.9 }],
    },
    {
      ...base,
      name: `${testCase}/20000Nodes_20000Pods_OpportunisticBatchingDisabled`,
      ops: [nodes(20000), measure(20000, template, { signatureBatchSize: 1 })],
      featureGates: { OpportunisticBatching: false },
      verify: [...onePerNode, { kind: "batched", min: 0, none: true }],
    },
  ];
}

/** Items whose name matches `filter` (a case-insensitive regular expression, or a substring if it is not one). */
export function selectByName<T extends { name: string }>(
  items: readonly T[],
  filter: string | undefined,
): T[] {
  if (!filter) return [...items];
  let re: RegExp;
  try {
    re = new RegExp(filter, "i");
  } catch {
    const f = filter.toLowerCase();
    return items.filter((w) => w.name.toLowerCase().includes(f));
  }
  return items.filter((w) => re.test(w.name));
}

/** Workloads whose name matches `filter` (see selectByName). */
export function selectWorkloads(filter: string | undefined): Workload[] {
  return selectByName(workloads, filter);
}

export function findWorkload(name: string): Workload | undefined {
  return workloads.find((w) => w.name === name);
}

/** The namespace a createPods op (at opIndex) puts its pods in. */
export function podsNamespace(op: CreatePodsOp, opIndex: number): string {
  return op.namespace ?? `namespace-${opIndex}`;
}

/** The measured op and its namespace. */
export function measuredOp(w: Workload): { op: CreatePodsOp; namespace: string } {
  const i = w.ops.findIndex((o) => o.opcode === "createPods" && o.collectMetrics);
  const op = w.ops[i];
  if (op?.opcode !== "createPods") throw new Error(`${w.name}: no createPods op collects metrics`);
  return { op, namespace: podsNamespace(op, i) };
}

/** The namespace a churn op creates its pods and Services in. */
export function churnNamespace(w: Workload): string | null {
  const i = w.ops.findIndex((o) => o.opcode === "churn");
  return i < 0 ? null : `namespace-${i}`;
}

/** The devices createResourceDriver publishes: per node, on how many nodes, in all. */
function draDevices(ops: readonly Op[]): { perNode: number; nodes: number; total: number } {
  const driver = ops.find((o) => o.opcode === "createResourceDriver");
  const perNode = driver?.opcode === "createResourceDriver" ? driver.maxClaimsPerNode : 0;
  let draNodes = 0;
  for (const o of ops)
    if (o.opcode === "createNodes" && o.template === "node-with-dra-test-driver") draNodes += o.count;
  return { perNode, nodes: draNodes, total: perNode * draNodes };
}

/** Nodes the workload creates up front (createNodes ops). */
export function nodeCount(w: Workload): number {
  let n = 0;
  for (const op of w.ops) if (op.opcode === "createNodes") n += op.count;
  return n;
}

/** Pods created before the measured op. */
export function initPodCount(w: Workload): number {
  let n = 0;
  for (const op of w.ops) {
    if (op.opcode === "createPods" && !op.collectMetrics) n += op.count;
    if (op.opcode === "createPodSets") n += op.count * op.createPodsOp.count;
  }
  return n;
}

/**
 * The workload with its counts scaled by `f` (quick runs and tests; no CI threshold applies):
 * nodes, pods per createPods op and namespaces per createPodSets (not pods per namespace).
 */
export function scaleWorkload(w: Workload, f: number): Workload {
  if (f === 1) return w;
  const n = (x: number) => Math.max(1, Math.round(x * f));
  const podSetPrefixes = new Set<string>();
  for (const op of w.ops) if (op.opcode === "createPodSets") podSetPrefixes.add(op.namespacePrefix);
  const devices = draDevices(w.ops);
  const steadyBatch = w.ops.find((o) => o.opcode === "createPods" && o.steadyStateMs !== undefined);
  const ops = w.ops.map((op): Op => {
    switch (op.opcode) {
      case "createPods":
        // A steady state's batch is no size: kept, its duration scaled (at least 1 s).
        if (op.steadyStateMs !== undefined)
          return {
            ...op,
            ...(op.steadyStateBatchScales ? { count: n(op.count) } : {}),
            steadyStateMs: Math.max(1000, Math.round(op.steadyStateMs * f)),
          };
        return { ...op, count: n(op.count) };
      case "createNodes":
        return { ...op, count: n(op.count) };
      case "createAny": {
        if ("make" in op) return op.count === undefined ? op : { ...op, count: n(op.count) };
        // ResourceSlices created one per DRA node scale with the nodes.
        if (op.template === "service" || op.count === undefined) return op;
        if (op.template.startsWith("resourceslice")) return { ...op, count: n(op.count) };
        if (op.template !== "resourceclaim") return op;
        // Claims keep their share of the devices; a cluster left with exactly one steady-state
        // batch free (upstream's "full") keeps that batch free.
        const free = devices.total - op.count;
        const scaledDevices = devices.perNode * n(devices.nodes);
        const batch = steadyBatch?.opcode === "createPods" ? steadyBatch.count : 0;
        const count =
          batch > 0 && free <= batch ? scaledDevices - free : Math.max(0, Math.round(op.count * f));
        return { ...op, count };
      }
      case "createPodSets":
        return { ...op, count: n(op.count) };
      case "createNamespaces":
        // The namespaces a createPodSets fills are scaled with it.
        return podSetPrefixes.has(op.prefix) ? { ...op, count: n(op.count) } : op;
      default:
        return op;
    }
  });
  return {
    ...w,
    ops,
    upstreamMeasured: w.upstreamMeasured ?? measuredOp(w).op.count,
    threshold: null,
    target: null,
    rssTargetMB: null,
    notes: `scaled ×${f}${w.notes ? `; ${w.notes}` : ""}`,
  };
}

/** The workload with `count` measured pods (upstream's count kept as upstreamMeasured). */
export function withMeasured(w: Workload, count: number): Workload {
  const { op } = measuredOp(w);
  return {
    ...w,
    upstreamMeasured: w.upstreamMeasured ?? op.count,
    ops: w.ops.map((o) => (o === op ? { ...op, count } : o)),
  };
}
