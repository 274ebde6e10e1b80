// `kubesched diff`: the same snapshot and seed through two scheduler configurations. Per pod,
// where each put it and why they differ (the plugin and score that made the difference); per
// configuration, a summary of utilisation, spread and outcomes, side by side.
import { tryParseQuantity } from "@kubesched/api";
import type { KubeSchedulerConfiguration } from "@kubesched/config";
import type { AttemptExplanation, SchedulingObserver } from "@kubesched/scheduler";
import {
  type PodOutcome,
  type PodResult,
  type SimulateOptions,
  type SimulationResult,
  simulate,
} from "./simulate";

export const simulationDiffApiVersion = "kubesched.io/v1alpha1";

/** One configuration's placement of a pod. */
export interface DiffPlacement {
  outcome: PodOutcome;
  node: string | null;
  message: string | null;
}

/** The plugin whose weighted score moved the most between the two configurations. */
export interface DecidingScore {
  plugin: string;
  /** Weighted score of the plugin on A's node minus on B's node, under A (positive: favours A's node). */
  marginA: number;
  /** The same margin under B (negative: favours B's node). */
  marginB: number;
}

export interface PodDiff {
  namespace: string;
  name: string;
  a: DiffPlacement;
  b: DiffPlacement;
  /** Why the configurations placed the pod differently, in words; null when they agree. */
  why: string | null;
  /** Set when both configurations scored both nodes. */
  decidingScore: DecidingScore | null;
}

/** What one configuration did to the cluster as a whole. */
export interface DiffSummary extends SimulationSummary {
  label: string;
}

/** What a simulation did to the cluster as a whole: outcomes, utilisation, packing. */
export interface SimulationSummary {
  scheduled: number;
  unschedulable: number;
  error: number;
  gated: number;
  skipped: number;
  preemptions: number;
  /** Nodes running at least one pod after the run. */
  nodesUsed: number;
  /** Requested over allocatable, over all nodes, in percent (rounded). */
  cpuPercent: number;
  memoryPercent: number;
  /** The fullest node's cpu requested over allocatable, in percent (rounded): packing vs spread. */
  maxNodeCpuPercent: number;
  /** Pending pods placed per node used (mean, two decimals): high means packed, low spread. */
  podsPerNodeUsed: number;
}

/** The typed result of diff(): `kubesched diff -o json` prints it, the HTML report renders it. */
export interface SimulationDiff {
  apiVersion: typeof simulationDiffApiVersion;
  kind: "SimulationDiff";
  seed: number;
  summary: { a: DiffSummary; b: DiffSummary };
  /** Every pending pod, in file order; `changed` counts those whose placement differs. */
  pods: PodDiff[];
  changed: number;
  /** The two full results (without the per-pod explanations, which `pods[].why` condenses). */
  results: { a: SimulationResult; b: SimulationResult };
}

export interface DiffOptions
  extends Omit<
    SimulateOptions,
    "config" | "explain" | "explainPods" | "explainStore" | "timing" | "observer"
  > {
  configs: readonly [KubeSchedulerConfiguration, KubeSchedulerConfiguration];
  /** Watch each run (the first configuration's, the second's) as its scheduler's observer. */
  observers?: readonly [SchedulingObserver | undefined, SchedulingObserver | undefined];
  /** Names for the two configurations in messages (their file names in the CLI). */
  labels: readonly [string, string];
}

/** The outcomes, utilisation and packing of a simulation (diff's summaries, sweep's cells). */
export function summarizeSimulation(r: SimulationResult): SimulationSummary {
  let cpuReq = 0;
  let cpuAlloc = 0;
  let memReq = 0;
  let memAlloc = 0;
  let maxCpu = 0;
  const placedNodes = new Set(r.pods.filter((p) => p.node).map((p) => p.node));
  let used = 0;
  for (const n of r.nodes) {
    // A missing or malformed quantity counts as 0.
    const cr = tryParseQuantity(n.requested.cpu)?.milliValue() ?? 0;
    const ca = tryParseQuantity(n.allocatable.cpu)?.milliValue() ?? 0;
    cpuReq += cr;
    cpuAlloc += ca;
    memReq += tryParseQuantity(n.requested.memory)?.value() ?? 0;
    memAlloc += tryParseQuantity(n.allocatable.memory)?.value() ?? 0;
    if (ca > 0) maxCpu = Math.max(maxCpu, cr / ca);
    if (n.pods > 0) used++;
  }
  const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) : 0);
  const s = r.summary;
  return {
    scheduled: s.scheduled,
    unschedulable: s.unschedulable,
    error: s.error,
    gated: s.gated,
    skipped: s.skipped,
    preemptions: r.preemptions.length,
    nodesUsed: used,
    cpuPercent: pct(cpuReq, cpuAlloc),
    memoryPercent: pct(memReq, memAlloc),
    maxNodeCpuPercent: Math.round(maxCpu * 100),
    podsPerNodeUsed: placedNodes.size ? Math.round((s.scheduled / placedNodes.size) * 100) / 100 : 0,
  };
}

function placement(p: PodResult): DiffPlacement {
  return { outcome: p.outcome, node: p.node, message: p.message };
}

function weighted(e: AttemptExplanation | undefined, node: string, plugin: string): number {
  return e?.score?.[node]?.[plugin]?.weighted ?? 0;
}

/** Why `node` was not feasible in an attempt: the first plugin that rejected it, with reasons. */
function rejection(e: AttemptExplanation | undefined, node: string): string | null {
  const byPlugin = e?.filter[node];
  if (!byPlugin) return null;
  for (const [plugin, st] of Object.entries(byPlugin)) {
    if (st.code !== "Success" && st.code !== "Skip")
      return `${plugin} rejected it (${(st.reasons ?? [st.code]).join(", ")})`;
  }
  return null;
}

function explainDifference(
  pa: PodResult,
  pb: PodResult,
  labels: readonly [string, string],
): { why: string; decidingScore: DecidingScore | null } {
  const [la, lb] = labels;
  if (pa.outcome !== pb.outcome) {
    const msg = (p: PodResult, l: string) =>
      `${l}: ${p.outcome}${p.node ? ` on ${p.node}` : ""}${p.message ? ` (${p.message})` : ""}`;
    return { why: `${msg(pa, la)}; ${msg(pb, lb)}`, decidingScore: null };
  }
  const x = pa.node ?? "";
  const y = pb.node ?? "";
  const ea = pa.explain;
  const eb = pb.explain;
  const rejectedInA = rejection(ea, y);
  if (rejectedInA) return { why: `under ${la}, ${y} was not feasible: ${rejectedInA}`, decidingScore: null };
  const rejectedInB = rejection(eb, x);
  if (rejectedInB) return { why: `under ${lb}, ${x} was not feasible: ${rejectedInB}`, decidingScore: null };
  if (
    !ea?.finalScore ||
    !eb?.finalScore ||
    ea.finalScore[y] === undefined ||
    eb.finalScore[x] === undefined
  ) {
    return {
      why: `${la} put it on ${x}, ${lb} on ${y}; the two nodes were not both scored (earlier placements differ)`,
      decidingScore: null,
    };
  }
  const plugins = new Set([...Object.keys(ea.score?.[x] ?? {}), ...Object.keys(eb.score?.[y] ?? {})]);
  let best: DecidingScore | null = null;
  for (const plugin of plugins) {
    const marginA = weighted(ea, x, plugin) - weighted(ea, y, plugin);
    const marginB = weighted(eb, x, plugin) - weighted(eb, y, plugin);
    if (!best || Math.abs(marginA - marginB) > Math.abs(best.marginA - best.marginB))
      best = { plugin, marginA, marginB };
  }
  const totals = `${la} scored ${x} ${ea.finalScore[x]} vs ${y} ${ea.finalScore[y]}; ${lb} scored ${x} ${eb.finalScore[x]} vs ${y} ${eb.finalScore[y]}`;
  if (ea.finalScore[x] === ea.finalScore[y] || eb.finalScore[x] === eb.finalScore[y]) {
    return { why: `${totals}: a tie broken by the seed`, decidingScore: best };
  }
  const d = best
    ? `; ${best.plugin} moved most (${x} − ${y}: ${best.marginA} under ${la}, ${best.marginB} under ${lb})`
    : "";
  return { why: `${totals}${d}`, decidingScore: best };
}

/** Runs the snapshot through both configurations with the same seed and compares them. */
export async function diff(opts: DiffOptions): Promise<SimulationDiff> {
  const { configs, labels, observers, ...rest } = opts;
  const watched = (i: 0 | 1) => (observers?.[i] ? { observer: observers[i] } : {});
  const a = await simulate({ ...rest, config: configs[0], explain: true, ...watched(0) });
  const b = await simulate({ ...rest, config: configs[1], explain: true, ...watched(1) });
  const pods: PodDiff[] = [];
  let changed = 0;
  a.pods.forEach((pa, i) => {
    const pb = b.pods[i] as PodResult;
    const same = pa.outcome === pb.outcome && pa.node === pb.node;
    const d = same ? { why: null, decidingScore: null } : explainDifference(pa, pb, labels);
    if (!same) changed++;
    pods.push({ namespace: pa.namespace, name: pa.name, a: placement(pa), b: placement(pb), ...d });
  });
  return {
    apiVersion: simulationDiffApiVersion,
    kind: "SimulationDiff",
    seed: rest.seed ?? 0,
    summary: {
      a: { label: labels[0], ...summarizeSimulation(a) },
      b: { label: labels[1], ...summarizeSimulation(b) },
    },
    pods,
    changed,
    results: { a: withoutExplain(a), b: withoutExplain(b) },
  };
}

function withoutExplain(r: SimulationResult): SimulationResult {
  return { ...r, pods: r.pods.map(({ explain: _, ...p }) => p) };
}
