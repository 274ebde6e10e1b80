// kubesched why: why a pending pod does not fit, on a snapshot. Every reason on every node (the
// scheduler's all-filters diagnostic pass, with the plugins' numbers), grouped for people, and
// preemption as the pod's PostFilter plugin would find it: which victims on which node, and why
// preemption fails where it does (upstream preemption.Evaluator's dry run, on every node). It
// explains and changes nothing: no cycle runs, nothing is nominated, evicted or bound. Verified
// fixes (why-fixes.ts) are then proven by simulating changed copies of the objects.
import { type Pod, podKey } from "@kubesched/api";
import type { KubeSchedulerConfiguration } from "@kubesched/config";
import {
  Code,
  type CodeName,
  CycleState,
  codeName,
  type Features,
  type FilterDetail,
  type Logger,
  NodeToStatus,
  type Registry,
  Status,
} from "@kubesched/framework";
import type { Evaluator } from "@kubesched/preemption";
import {
  type FilterDiagnosis,
  type Framework,
  groupFilterDiagnosis,
  nodeFits,
  preFilterRejects,
} from "@kubesched/runtime";
import { admit } from "./admission";
import type { SourcedObject } from "./load";
import { openSimulation } from "./simulate";
import { findFixes, type WhyFix, type WhyFixSearch } from "./why-fixes";

/** The versioned output of `kubesched why` (schema: whyReportSchema). */
export interface WhyReport {
  apiVersion: "kubesched.io/v1alpha1";
  kind: "WhyReport";
  pod: { namespace: string; name: string; schedulerName: string };
  /** Nodes in the snapshot and how many every Filter passes. */
  summary: {
    nodes: number;
    feasible: number;
    /**
     * The PreFilter plugin that rejects the pod, the first in the profile's order (upstream's cycle
     * stops there and evaluates no node; its FitError says `0/N nodes are available: <message>.`).
     * Absent when every PreFilter passes.
     */
    preFilterRejection?: { plugin: string; code: CodeName; message: string };
    /**
     * The PreEnqueue plugin that holds the pod back, the first in the profile's order (upstream's
     * queue keeps it in the unschedulable pool as its gating plugin and records it among the
     * pod's UnschedulablePlugins; SchedulingGates' gate is also the pod condition
     * `PodScheduled=False, reason SchedulingGated`). The pod never enters a scheduling cycle: no
     * PreFilter or Filter runs and no node is evaluated, so the diagnosis below is empty. Absent
     * when every PreEnqueue plugin admits the pod.
     */
    gated?: { plugin: string; code: CodeName; message: string };
  };
  /** Every PreFilter plugin's outcome. */
  preFilter: { plugin: string; code: CodeName; reasons: string[]; nodeNames?: string[] }[];
  /** The nodes grouped by reason, largest group first. */
  groups: { plugin: string; reason: string; detail: string; count: number; nodes: string[] }[];
  /** Every node: every Filter plugin's rejection, with the plugins' details. */
  nodes: {
    name: string;
    excludedBy: string[];
    withNominatedPods: boolean;
    rejections: { plugin: string; code: CodeName; reasons: string[]; details: FilterDetail[] }[];
  }[];
  preemption: WhyPreemption;
  /** Changes proven to make the pod schedulable, smallest first (absent when not searched). */
  fixes?: WhyFix[];
  /** How the search for fixes went (absent when not searched). */
  fixSearch?: WhyFixSearch;
}

/** What preemption would do for the pod. */
export interface WhyPreemption {
  /** The PostFilter plugin that preempts (DefaultPreemption); null when the profile has none. */
  plugin: string | null;
  /** Whether the pod may preempt (preemptionPolicy, a nominated node with terminating victims). */
  eligible: boolean;
  /** Why not, or why preemption is not needed. */
  reason: string;
  /** Nodes where evicting lower-priority pods lets the pod fit, with the victims. */
  candidates: { node: string; victims: string[]; pdbViolations: number }[];
  /** The candidate the plugin would pick among all of them; null when none. */
  selected: string | null;
  /** Nodes where preemption cannot help, with why. */
  notHelpful: { node: string; code: CodeName; reasons: string[] }[];
}

/** Bad input for why: the pod is not pending, not found, or of another scheduler. */
export class WhyError extends Error {}

export interface WhyOptions {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  objects: readonly SourcedObject[];
  /** The pending pod, as namespace/name among the objects. */
  pod: { namespace: string; name: string };
  logger: Logger;
  features?: Partial<Features>;
  /** The emulated Kubernetes release (`--emulated-version`; SimulateOptions.kubernetesVersion). */
  kubernetesVersion?: string;
  seed?: number;
  /**
   * Search for verified fixes (each proven by simulating the changed snapshot with every pending
   * pod, or with the pod `alone`): the wall-clock budget in seconds and how many to report.
   * Absent: no search.
   */
  fixes?: { budgetSeconds: number; maxFixes: number; alone?: boolean; podFromManifest?: boolean };
}

/**
 * What `kubesched why` says before the reasons when no node is evaluated: the PreEnqueue plugin
 * holding the pod back (`summary.gated`, two sentences) and the PreFilter rejection
 * (`summary.preFilterRejection`, with the FitError it ends in). The text view and the HTML
 * report (`@kubesched/report`) say it alike.
 */
export function whyCycleNotes(summary: WhyReport["summary"]): {
  gated?: string[];
  preFilterRejection?: string;
} {
  const gate = summary.gated;
  const rejection = summary.preFilterRejection;
  return {
    ...(gate
      ? {
          gated: [
            `The pod never enters a scheduling cycle: PreEnqueue of ${gate.plugin} holds it back (${gate.code}): ${gate.message}`,
            "No PreFilter or Filter plugin runs and no node is evaluated until an event lets it pass.",
          ],
        }
      : {}),
    ...(rejection
      ? {
          preFilterRejection:
            rejection.code === "Error"
              ? `PreFilter of ${rejection.plugin} fails: no node is evaluated; the attempt ends in an error: ${rejection.message}`
              : `PreFilter of ${rejection.plugin} rejects the pod (${rejection.code}): no node is evaluated. FitError: 0/${summary.nodes} nodes are available: ${rejection.message}.`,
        }
      : {}),
  };
}

function reasonsOf(s: Status | null): { code: CodeName; reasons: string[] } {
  return s === null
    ? { code: "Success", reasons: [] }
    : { code: codeName(s.code), reasons: [...s.getReasons()] };
}

/** Why the pod does not fit, on the objects' cluster; WhyError for bad input. */
export async function why(opts: WhyOptions): Promise<WhyReport> {
  const key = `${opts.pod.namespace}/${opts.pod.name}`;
  // The diagnosis and the fixes' simulations run with the same options.
  const simulation = {
    config: opts.config,
    registry: opts.registry,
    logger: opts.logger,
    ...(opts.features ? { features: opts.features } : {}),
    ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
    seed: opts.seed ?? 0,
  };
  const { session, pending } = await openSimulation(simulation, admit(opts.objects));
  const sched = session.sched;
  let report: WhyReport;
  try {
    const found = pending.find((p) => podKey(p) === key);
    if (found === undefined) {
      const running = session.cluster.pods.get(opts.pod.namespace, opts.pod.name);
      if (running) throw new WhyError(`pod ${key} is not pending: it runs on node ${running.spec?.nodeName}`);
      throw new WhyError(`pod ${key} not found`);
    }
    // The claims its templates generate exist, as they would for the pending pod in a cluster.
    const pod = session.createClaims(found);
    const schedulerName = pod.spec?.schedulerName || "default-scheduler";
    const noProfile = `pod ${key} is for scheduler "${schedulerName}", which no profile of the configuration is`;
    const fwk = sched.frameworkForPod(pod);
    if (fwk === undefined) throw new WhyError(noProfile);
    const podRef = { namespace: opts.pod.namespace, name: opts.pod.name, schedulerName };
    const gate = preEnqueueGate(fwk, pod);
    if (gate !== null) {
      report = gatedReport(podRef, session.cluster.nodes.list().length, gate, preemptingPlugin(fwk));
    } else {
      const d = sched.diagnoseFilters(pod);
      if (d === undefined) throw new WhyError(noProfile);
      const rejection = d.preFilter.find(preFilterRejects);
      report = {
        apiVersion: "kubesched.io/v1alpha1",
        kind: "WhyReport",
        pod: podRef,
        summary: {
          nodes: d.nodes.length,
          feasible: d.nodes.filter(nodeFits).length,
          ...(rejection?.status
            ? {
                preFilterRejection: {
                  plugin: rejection.plugin,
                  code: codeName(rejection.status.code),
                  message: rejection.status.message(),
                },
              }
            : {}),
        },
        preFilter: d.preFilter.map((p) => ({
          plugin: p.plugin,
          ...reasonsOf(p.status),
          ...(p.nodeNames ? { nodeNames: [...p.nodeNames].sort() } : {}),
        })),
        groups: groupFilterDiagnosis(d).map((g) => ({ ...g, count: g.nodes.length })),
        nodes: d.nodes.map((n) => ({
          name: n.nodeName,
          excludedBy: n.excludedBy,
          withNominatedPods: n.withNominatedPods,
          rejections: n.rejections.map((r) => ({
            plugin: r.plugin,
            ...reasonsOf(r.status),
            details: r.details,
          })),
        })),
        preemption: preemption(fwk, pod, d),
      };
    }
  } finally {
    sched.close();
  }
  if (opts.fixes === undefined) return report;
  const { fixes, fixSearch } = await findFixes(report, {
    ...simulation,
    objects: opts.objects,
    pod: key,
    ...opts.fixes,
  });
  return { ...report, fixes, fixSearch };
}

/**
 * The first PreEnqueue plugin of the profile that does not admit the pod, as the scheduling queue
 * runs them when the pod is added (upstream runPreEnqueuePlugins); null when all admit it.
 */
function preEnqueueGate(fwk: Framework, pod: Pod): { plugin: string; status: Status } | null {
  for (const pl of fwk.preEnqueuePlugins()) {
    let status: Status | null;
    try {
      status = pl.preEnqueue(pod);
    } catch {
      // The queue gates the pod on a plugin that throws, with this message.
      status = new Status(Code.Error, `PreEnqueue plugin ${pl.name()} failed`);
    }
    if (status !== null && !status.isSuccess()) return { plugin: pl.name(), status };
  }
  return null;
}

/** The report of a pod a PreEnqueue plugin holds back: it never reaches PreFilter or Filter. */
function gatedReport(
  pod: WhyReport["pod"],
  nodes: number,
  gate: { plugin: string; status: Status },
  preempting: { name: string } | null,
): WhyReport {
  return {
    apiVersion: "kubesched.io/v1alpha1",
    kind: "WhyReport",
    pod,
    summary: {
      nodes,
      feasible: 0,
      gated: { plugin: gate.plugin, code: codeName(gate.status.code), message: gate.status.message() },
    },
    preFilter: [],
    groups: [],
    nodes: [],
    preemption: {
      plugin: preempting?.name ?? null,
      eligible: false,
      reason: `the pod never enters a scheduling cycle: PreEnqueue of ${gate.plugin} holds it back`,
      candidates: [],
      selected: null,
      notHelpful: [],
    },
  };
}

/** A PostFilter plugin with upstream's preemption Evaluator (DefaultPreemption, CapacityScheduling). */
function preemptingPlugin(fwk: Framework): { name: string; evaluator: Evaluator } | null {
  for (const { name } of fwk.listPlugins().postFilter ?? []) {
    const pl = fwk.plugin(name) as { evaluator?: Evaluator } | undefined;
    if (pl?.evaluator !== undefined) return { name, evaluator: pl.evaluator };
  }
  return null;
}

/**
 * The preemption dry run on every node the cycle's statuses leave to it: the statuses are the
 * diagnostic pass' first rejections (the cycle's), nodes a PreFilter result leaves out are
 * unresolvable, as in a cycle.
 */
function preemption(fwk: Framework, pod: Pod, d: FilterDiagnosis): WhyPreemption {
  const none = { candidates: [], selected: null, notHelpful: [] };
  const p = preemptingPlugin(fwk);
  if (p === null)
    return { plugin: null, eligible: false, reason: "the profile has no preemption plugin", ...none };
  if (d.nodes.some(nodeFits)) {
    return { plugin: p.name, eligible: false, reason: "the pod fits: no preemption needed", ...none };
  }
  const state = new CycleState();
  const pre = fwk.runPreFilterPlugins(state, pod);
  const m = new NodeToStatus();
  if (pre.status !== null && !pre.status.isSuccess()) {
    m.absentNodesStatus = pre.status;
  } else {
    for (const n of d.nodes) {
      const first = n.rejections[0]?.status;
      if (n.excludedBy.length === 0 && first !== undefined) m.set(n.nodeName, first);
    }
  }
  const { evaluator } = p;
  const { eligible, reason } = evaluator.iface.podEligibleToPreemptOthers(
    pod,
    m.get(pod.status?.nominatedNodeName ?? ""),
  );
  if (!eligible) return { plugin: p.name, eligible, reason, ...none };
  const lister = fwk.snapshotSharedLister().nodeInfos();
  const potential = m.nodesForStatusCode(lister, Code.Unschedulable);
  const pdbs = fwk.listers().podDisruptionBudgets.list();
  const dry = evaluator.dryRunPreemption(state, pod, potential, pdbs, 0, potential.length);
  const selected = evaluator.selectCandidate(dry.candidates);
  const potentialNames = new Set(potential.map((n) => n.nodeName));
  const notHelpful: WhyPreemption["notHelpful"] = [];
  for (const ni of lister.list()) {
    const name = ni.nodeName;
    if (!potentialNames.has(name)) {
      // Rejected by something removing pods cannot change (the cycle's status says what).
      notHelpful.push({ node: name, ...reasonsOf(m.get(name)) });
    } else if (dry.nodeToStatus.has(name)) {
      notHelpful.push({ node: name, ...reasonsOf(dry.nodeToStatus.get(name)) });
    }
  }
  return {
    plugin: p.name,
    eligible: true,
    reason: dry.candidates.length === 0 ? "preemption is not helpful on any node" : "",
    candidates: dry.candidates.map((c) => ({
      node: c.name,
      victims: c.victims.pods.map(podKey),
      pdbViolations: c.victims.numPDBViolations,
    })),
    selected: selected?.name ?? null,
    notHelpful,
  };
}
