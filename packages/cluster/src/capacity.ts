// `kubesched capacity`: cluster-capacity's question ("how many more of this pod fit?") answered
// by the real engine. Replicas of each template are added one at a time to the same simulation
// `simulate` runs (same Scheduler.create wiring, same loop) until one does not fit or the limit
// is reached; then the next template fills what is left (a workload mix, in order).
// upstream: kubernetes-sigs/cluster-capacity pkg/framework/simulator.go, report.go
import { type Pod, podKey } from "@kubesched/api";
import { AdmissionError, admit, admitCreatedPod, createdObjectAdmission } from "./admission";
import { defaultFragmentationLabel, type FragmentationReport, fragmentation } from "./fragmentation";
import type { K8sObject } from "./in-memory-cluster";
import type { SourcedObject } from "./load";
import { openSimulation, type SimulateOptions, simulationEpoch } from "./simulate";

export const capacityReportApiVersion = "kubesched.io/v1alpha1";

/** cluster-capacity's ReplicasOnNode. */
export interface ReplicasOnNode {
  nodeName: string;
  replicas: number;
}

/** cluster-capacity's FailReasonSummary: one reason of the FitError and how many nodes gave it. */
export interface FailReasonSummary {
  reason: string;
  count: number;
}

/**
 * cluster-capacity's ClusterCapacityReviewScheduleFailReason, with its values: the stop reason
 * "Unschedulable: <the PodScheduled condition's message>" (upstream's FitError message) or
 * "LimitReached: Maximum number of pods simulated: N", split at the first colon.
 * upstream: kubernetes-sigs/cluster-capacity pkg/framework/simulator.go (Update, postBindHook)
 * and report.go (getMainFailReason).
 */
export interface CapacityFailReason {
  /**
   * "Unschedulable" (the next replica did not fit), "LimitReached" (--max), "QuotaExceeded" (a
   * ResourceQuota of the namespace refused the next replica: upstream's `exceeded quota: ...`
   * message), or "SchedulerError" (the condition reason of a scheduling error, where
   * cluster-capacity would hang: it only stops on Unschedulable).
   */
  failType: "Unschedulable" | "LimitReached" | "QuotaExceeded" | "SchedulerError";
  failMessage: string;
}

/** cluster-capacity's ClusterCapacityReviewResult, one per template. */
export interface CapacityPodResult {
  podName: string;
  /** Replicas of this template that were placed. */
  replicas: number;
  replicasOnNodes: ReplicasOnNode[];
  /** Why this template's next replica did not fit (empty when the limit stopped it). */
  failSummary: FailReasonSummary[];
  failReason: CapacityFailReason;
}

/** The versioned output of `kubesched capacity` (schema: capacityReportSchema). */
export interface CapacityReport {
  apiVersion: typeof capacityReportApiVersion;
  kind: "CapacityReport";
  spec: {
    templates: Pod[];
    /** Replicas simulated at most, over all templates; null without a limit. */
    maxReplicas: number | null;
  };
  status: {
    creationTimestamp: string;
    /** Replicas placed, over all templates. */
    replicas: number;
    /** Why the last template stopped. */
    failReason: CapacityFailReason;
    pods: CapacityPodResult[];
    /** Stranded capacity per node group, when asked for (`fragmentation` option). */
    fragmentation?: FragmentationReport;
  };
}

export interface CapacityOptions
  extends Omit<SimulateOptions, "objects" | "timing" | "explain" | "explainPods" | "explainStore"> {
  /** The cluster snapshot; its pending pods are scheduled first, as simulate would. */
  objects: readonly SourcedObject[];
  /** The pods whose replicas are counted, in order. */
  templates: readonly Pod[];
  /** Stop after this many replicas over all templates (cluster-capacity's --max-limit); 0 or absent: no limit. */
  maxReplicas?: number;
  /**
   * Report the stranded capacity the run leaves (fragmentation.ts), nodes grouped by the value
   * of `groupBy` (default `node.kubernetes.io/instance-type`).
   */
  fragmentation?: { groupBy?: string };
}

/** The reasons of a FitError message ("0/3 nodes are available: 1 Insufficient cpu, 2 ..."). */
export function failSummaryOf(message: string): FailReasonSummary[] {
  const m = /nodes are available: (.*?)\.(?: |$)/.exec(message);
  if (!m?.[1]) return [];
  const out: FailReasonSummary[] = [];
  for (const part of m[1].split(/, (?=\d+ )/)) {
    const r = /^(\d+) (.+)$/.exec(part);
    if (r?.[1] && r[2]) out.push({ reason: r[2], count: Number(r[1]) });
  }
  return out;
}

function replicaOf(template: Pod, index: number): Pod {
  const copy = structuredClone(template);
  const md = copy.metadata ?? {};
  copy.metadata = {
    ...md,
    // cluster-capacity names replicas <template>-<n>.
    name: `${md.name ?? "pod"}-${index}`,
    namespace: md.namespace || "default",
    uid: `capacity-${md.namespace || "default"}-${md.name ?? "pod"}-${index}`,
  };
  const { nodeName: _, ...spec } = copy.spec ?? { containers: [] };
  const { status: __, ...rest } = copy;
  return { ...rest, spec } as Pod;
}

export async function capacity(opts: CapacityOptions): Promise<CapacityReport> {
  const templates = opts.templates.map((t) => structuredClone(t));
  const checked = admit([
    ...opts.objects,
    ...templates.map(
      (t, i): SourcedObject => ({ kind: "Pod", obj: t as K8sObject, origin: `template ${i + 1}` }),
    ),
  ]);
  const snapshot = checked.slice(0, opts.objects.length);
  // Replicas are created through the API server: LimitRanger defaults and checks the template
  // (every replica is the same), ResourceQuota counts each replica against what exists.
  const admission = createdObjectAdmission(snapshot);
  const errors: string[] = [];
  const admittedTemplates = checked.slice(opts.objects.length).map((o, i) => {
    const t = o.obj as Pod;
    const limited = admission.limitRanges.admitPod(t);
    if ("error" in limited) {
      errors.push(`template ${i + 1} (Pod ${t.metadata?.namespace}/${t.metadata?.name}): ${limited.error}`);
      return t;
    }
    const refused = admission.quotas.constraints(limited.pod);
    if (refused)
      errors.push(`template ${i + 1} (Pod ${t.metadata?.namespace}/${t.metadata?.name}): ${refused}`);
    return limited.pod;
  });
  if (errors.length) throw new AdmissionError(errors);
  const { session, pending } = await openSimulation(opts, snapshot);
  const { cluster, sched, lastFailure } = session;
  for (const p of pending) session.addPending(p);
  await session.drain();

  const limit = opts.maxReplicas && opts.maxReplicas > 0 ? opts.maxReplicas : null;
  let total = 0;
  const results: CapacityPodResult[] = [];
  let last: CapacityFailReason = { failType: "LimitReached", failMessage: "no templates" };
  for (const t of admittedTemplates) {
    const perNode = new Map<string, number>();
    const result: CapacityPodResult = {
      podName: `${t.metadata?.namespace ?? "default"}/${t.metadata?.name ?? ""}`,
      replicas: 0,
      replicasOnNodes: [],
      failSummary: [],
      failReason: { failType: "LimitReached", failMessage: "" },
    };
    for (let i = 0; ; i++) {
      if (limit !== null && total >= limit) {
        result.failReason = {
          failType: "LimitReached",
          failMessage: `Maximum number of pods simulated: ${limit}`,
        };
        break;
      }
      const replica = replicaOf(t, i);
      const admitted = admitCreatedPod(admission, replica);
      if ("error" in admitted) {
        result.failReason = { failType: "QuotaExceeded", failMessage: admitted.error };
        break;
      }
      session.addPending(replica);
      await session.drain();
      const ns = replica.metadata?.namespace ?? "default";
      const name = replica.metadata?.name ?? "";
      const cur = cluster.pods.get(ns, name);
      const node = cur?.spec?.nodeName;
      if (node) {
        perNode.set(node, (perNode.get(node) ?? 0) + 1);
        result.replicas++;
        total++;
        continue;
      }
      const fail = lastFailure.get(podKey(replica));
      const gate = cur && !fail ? session.gatedBy(cur) : null;
      const message =
        fail?.message ??
        (gate
          ? `the replica is gated: ${gate}`
          : "the replica was not attempted (no profile for its schedulerName, or gated)");
      result.failReason = {
        failType: fail?.reason === "SchedulerError" ? "SchedulerError" : "Unschedulable",
        failMessage: message,
      };
      result.failSummary = failSummaryOf(message);
      // The replica that did not fit leaves, so it neither holds a nomination nor comes back
      // when the next template's pods change the cluster.
      if (cur) cluster.delete("Pod", cur as K8sObject);
      admission.quotas.release(replica);
      await session.drain();
      break;
    }
    result.replicasOnNodes = [...perNode.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([nodeName, replicas]) => ({ nodeName, replicas }));
    last = result.failReason;
    results.push(result);
  }
  const fragments = opts.fragmentation
    ? fragmentation(
        sched,
        admittedTemplates,
        pending.filter(
          (p) =>
            !cluster.pods.get(p.metadata?.namespace ?? "default", p.metadata?.name ?? "")?.spec?.nodeName,
        ),
        opts.fragmentation.groupBy ?? defaultFragmentationLabel,
      )
    : undefined;
  sched.close();
  return {
    apiVersion: capacityReportApiVersion,
    kind: "CapacityReport",
    spec: { templates: admittedTemplates, maxReplicas: limit },
    status: {
      // The simulated epoch: the report is reproducible byte for byte.
      creationTimestamp: new Date(simulationEpoch).toISOString(),
      replicas: total,
      failReason: last,
      pods: results,
      ...(fragments ? { fragmentation: fragments } : {}),
    },
  };
}

/** The JSON Schema (draft 2020-12) of CapacityReport, as `kubesched capacity --schema` prints it. */
export const capacityReportSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://kubesched.io/schemas/v1alpha1/capacity-report.json",
  title: "CapacityReport",
  type: "object",
  required: ["apiVersion", "kind", "spec", "status"],
  additionalProperties: false,
  $defs: {
    cpuMemory: {
      type: "object",
      required: ["cpu", "memory"],
      additionalProperties: false,
      properties: { cpu: { type: "string" }, memory: { type: "string" } },
    },
    podShape: {
      oneOf: [
        { type: "null" },
        {
          type: "object",
          required: ["cpu", "memory", "node"],
          additionalProperties: false,
          properties: { cpu: { type: "string" }, memory: { type: "string" }, node: { type: "string" } },
        },
      ],
    },
    largestShapes: {
      type: "object",
      required: ["cpuFirst", "memoryFirst"],
      additionalProperties: false,
      properties: { cpuFirst: { $ref: "#/$defs/podShape" }, memoryFirst: { $ref: "#/$defs/podShape" } },
    },
    fragmentation: {
      type: "object",
      required: ["groupBy", "referencePods", "groups", "largestShapes"],
      additionalProperties: false,
      properties: {
        groupBy: { type: "string" },
        referencePods: { type: "array", items: { type: "string" } },
        groups: {
          type: "array",
          items: {
            type: "object",
            required: ["value", "nodes", "allocatable", "free", "stranded", "unreachable", "largestShapes"],
            additionalProperties: false,
            properties: {
              value: { type: ["string", "null"] },
              nodes: { type: "integer", minimum: 1 },
              allocatable: { $ref: "#/$defs/cpuMemory" },
              free: { $ref: "#/$defs/cpuMemory" },
              stranded: { $ref: "#/$defs/cpuMemory" },
              unreachable: { $ref: "#/$defs/cpuMemory" },
              largestShapes: { $ref: "#/$defs/largestShapes" },
            },
          },
        },
        largestShapes: { $ref: "#/$defs/largestShapes" },
      },
    },
    failReason: {
      type: "object",
      required: ["failType", "failMessage"],
      additionalProperties: false,
      properties: {
        failType: { enum: ["Unschedulable", "LimitReached", "QuotaExceeded", "SchedulerError"] },
        failMessage: { type: "string" },
      },
    },
  },
  properties: {
    apiVersion: { const: capacityReportApiVersion },
    kind: { const: "CapacityReport" },
    spec: {
      type: "object",
      required: ["templates", "maxReplicas"],
      additionalProperties: false,
      properties: {
        templates: { type: "array", items: { type: "object", description: "a core/v1 Pod" } },
        maxReplicas: { type: ["integer", "null"], minimum: 1 },
      },
    },
    status: {
      type: "object",
      required: ["creationTimestamp", "replicas", "failReason", "pods"],
      additionalProperties: false,
      properties: {
        creationTimestamp: { type: "string", format: "date-time" },
        replicas: { type: "integer", minimum: 0 },
        failReason: { $ref: "#/$defs/failReason" },
        fragmentation: { $ref: "#/$defs/fragmentation" },
        pods: {
          type: "array",
          items: {
            type: "object",
            required: ["podName", "replicas", "replicasOnNodes", "failSummary", "failReason"],
            additionalProperties: false,
            properties: {
              podName: { type: "string" },
              replicas: { type: "integer", minimum: 0 },
              replicasOnNodes: {
                type: "array",
                items: {
                  type: "object",
                  required: ["nodeName", "replicas"],
                  additionalProperties: false,
                  properties: { nodeName: { type: "string" }, replicas: { type: "integer", minimum: 1 } },
                },
              },
              failSummary: {
                type: "array",
                items: {
                  type: "object",
                  required: ["reason", "count"],
                  additionalProperties: false,
                  properties: { reason: { type: "string" }, count: { type: "integer", minimum: 1 } },
                },
              },
              failReason: { $ref: "#/$defs/failReason" },
            },
          },
        },
      },
    },
  },
} as const;
