// The data the page renders: a SimulationResult turned into a compact, index-based form, so a
// 5000-node cluster with a few hundred explained pods stays a file a browser opens quickly.
// Strings (node and plugin names, codes, reasons) are interned once; identical filter rows and
// score rows (nodes of one shape in a homogeneous cluster) are stored once with the nodes that
// share them.
import { type Quantity, tryParseQuantity } from "@kubesched/api";
import {
  type NodeResult,
  type PlanReport,
  type PodResult,
  type SimulationDiff,
  type SimulationResult,
  type WhyReport,
  whyCycleNotes,
} from "@kubesched/cluster";
import { formatFilterDetail } from "@kubesched/runtime";

/** One resource of a node: allocatable, requested before and after, as shown and as numbers. */
export interface ResourceCell {
  /** Kubernetes quantities as in the SimulationResult: [allocatable, before, after]. */
  text: [string, string, string];
  /** The same in base units (cpu in millicores); allocatable 0 when the node has none. */
  value: [number, number, number];
  /**
   * A driver's devices only: how many of those published carry a NoSchedule or NoExecute taint
   * (the slice's or a DeviceTaintRule's; only requests tolerating it get them), the JSON's
   * `nodes[].devices[].tainted` summed over the node's pools. Absent when none is.
   */
  tainted?: number;
}

export interface NodeRow {
  name: string;
  /** By resource name (cpu, memory, pods, then scalar resources). */
  resources: Record<string, ResourceCell>;
}

/**
 * A node's filter results, one entry per plugin that ran, in order: plugin, code and reasons as
 * indexes into `strings`.
 */
export type FilterRow = [plugin: number, code: number, ...reasons: number[]][];

export interface PodExplain {
  preFilter: { plugin: number; code: number; reasons: number[]; nodeNames: number[] | null }[];
  /** Filter plugins in the order they ran (the matrix's columns). */
  filterPlugins: number[];
  /** Distinct filter rows, and for each the nodes (indexes into `strings`) that had it. */
  filterRows: FilterRow[];
  filterNodes: number[][];
  postFilter: { plugin: number; code: number; reasons: number[]; nominatedNode: number | null }[];
  /** Score plugins (columns); absent when scoring did not run (fewer than two feasible nodes). */
  scorePlugins?: number[];
  /** Distinct score rows: [final, raw, normalized, weighted for each score plugin...]. */
  scoreRows?: number[][];
  scoreNodes?: number[][];
  selectedNode: number | null;
}

export interface PodRow {
  namespace: string;
  name: string;
  outcome: PodResult["outcome"];
  node: string | null;
  nominatedNode: string | null;
  attempts: number;
  message: string | null;
  /** One line per allocated device (`claim CLAIM: request: driver/pool/device`), or why a claim has none. */
  devices?: string[];
  explain?: PodExplain;
}

export interface ReasonCount {
  reason: string;
  /** Pods whose last attempt failed with this reason. */
  pods: number;
  /** Nodes that reported it, summed over those pods. */
  nodes: number;
}

export interface SimulationSection {
  kind: "simulation";
  summary: SimulationResult["summary"];
  resources: string[];
  nodes: NodeRow[];
  pods: PodRow[];
  preemptions: SimulationResult["preemptions"];
  /** Devices per DeviceClass (absent when the cluster has none). */
  deviceClasses?: SimulationResult["deviceClasses"];
  reasons: ReasonCount[];
  /** Whether the simulation recorded explain data (`--explain`). */
  explained: boolean;
  strings: string[];
}

/** `kubesched diff`: the same snapshot through two configurations, side by side. */
export interface DiffSection {
  kind: "diff";
  /** The two configurations' names (their files), A then B. */
  labels: [string, string];
  seed: number;
  summary: SimulationDiff["summary"];
  /** Every pending pod, in file order. */
  pods: SimulationDiff["pods"];
  changed: number;
}

/**
 * `kubesched why --report`: one pod's view, from the WhyReport `why` prints (nothing is
 * diagnosed again): the reasons grouped, every node's rejections with the plugins' numbers as
 * text, preemption, and the verified fixes when the report has them.
 */
export interface WhySection {
  kind: "why";
  pod: WhyReport["pod"];
  summary: WhyReport["summary"];
  /** `summary.gated` and `summary.preFilterRejection` as `kubesched why` says them (`whyCycleNotes`). */
  notes: ReturnType<typeof whyCycleNotes>;
  preFilter: WhyReport["preFilter"];
  groups: WhyReport["groups"];
  nodes: {
    name: string;
    excludedBy: string[];
    withNominatedPods: boolean;
    rejections: { plugin: string; code: string; reasons: string[]; details: string[] }[];
  }[];
  preemption: WhyReport["preemption"];
  fixes?: WhyReport["fixes"];
  fixSearch?: WhyReport["fixSearch"];
}

/** Every section the page knows how to render; each has a client renderer of the same kind. */
/** `kubesched plan --report`: the PlanReport as plan printed it (the page computes nothing new). */
export interface PlanSection {
  kind: "plan";
  report: PlanReport;
}

export type ReportSection = SimulationSection | DiffSection | WhySection | PlanSection;

export interface ReportModel {
  title: string;
  sections: ReportSection[];
}

class Interner {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

/** Groups keys by an interned row: rows[i] is shared by every key in keys[i]. */
class RowGroups<R> {
  readonly rows: R[] = [];
  readonly keys: number[][] = [];
  private readonly index = new Map<string, number>();
  add(row: R, key: number): void {
    const sig = JSON.stringify(row);
    let i = this.index.get(sig);
    if (i === undefined) {
      i = this.rows.length;
      this.rows.push(row);
      this.keys.push([]);
      this.index.set(sig, i);
    }
    this.keys[i]?.push(key);
  }
}

const milli = (q: Quantity) => q.milliValue();
const units = (q: Quantity) => q.value();

function nodeRow(n: NodeResult): NodeRow {
  const resources: Record<string, ResourceCell> = {};
  const cell = (alloc: string | undefined, before: string, after: string, of: (q: Quantity) => number) => {
    // A value that is not a quantity shows as written and counts as 0.
    const n = (v: string | undefined) => {
      const q = tryParseQuantity(v);
      return q ? of(q) : 0;
    };
    return {
      text: [alloc ?? "", before, after] as [string, string, string],
      value: [n(alloc), n(before), n(after)] as [number, number, number],
    };
  };
  resources.cpu = cell(n.allocatable.cpu, n.before.requested.cpu ?? "0", n.requested.cpu ?? "0", milli);
  resources.memory = cell(
    n.allocatable.memory,
    n.before.requested.memory ?? "0",
    n.requested.memory ?? "0",
    units,
  );
  resources.pods = cell(n.allocatable.pods, String(n.before.pods), String(n.pods), units);
  for (const [name, s] of Object.entries(n.scalarResources ?? {})) {
    resources[name] = cell(s.allocatable, s.requestedBefore, s.requested, units);
  }
  // Devices per driver (a node's pools summed): published, allocated before and after.
  const byDriver = new Map<string, { value: [number, number, number]; tainted: number }>();
  for (const d of n.devices ?? []) {
    const sum = byDriver.get(d.driver) ?? { value: [0, 0, 0], tainted: 0 };
    byDriver.set(d.driver, {
      value: [sum.value[0] + d.published, sum.value[1] + d.allocatedBefore, sum.value[2] + d.allocated],
      tainted: sum.tainted + (d.tainted ?? 0),
    });
  }
  for (const [driver, { value: v, tainted }] of byDriver) {
    resources[deviceResource(driver)] = {
      text: [String(v[0]), String(v[1]), String(v[2])],
      value: v,
      ...(tainted > 0 ? { tainted } : {}),
    };
  }
  return { name: n.name, resources };
}

/** The node table's column of a driver's devices. */
const deviceResource = (driver: string) => `${driver} devices`;

/** A pod's devices as the pods table lists them. */
function podDevices(p: PodResult): string[] | undefined {
  if (!p.resourceClaims) return undefined;
  return p.resourceClaims.flatMap((c) =>
    c.resourceClaim === null
      ? [`claim ${c.name}: not created`]
      : !c.allocated
        ? [`claim ${c.name}: not allocated`]
        : c.devices.map((d) => `claim ${c.name}: ${d.request}: ${d.driver}/${d.pool}/${d.device}`),
  );
}

function podExplain(e: NonNullable<PodResult["explain"]>, s: Interner): PodExplain {
  const filterPlugins: number[] = [];
  const seen = new Set<number>();
  const filter = new RowGroups<FilterRow>();
  for (const [node, byPlugin] of Object.entries(e.filter)) {
    const row: FilterRow = [];
    for (const [plugin, st] of Object.entries(byPlugin)) {
      const p = s.id(plugin);
      if (!seen.has(p)) {
        seen.add(p);
        filterPlugins.push(p);
      }
      row.push([p, s.id(st.code), ...(st.reasons ?? []).map((r) => s.id(r))]);
    }
    filter.add(row, s.id(node));
  }
  const out: PodExplain = {
    preFilter: Object.entries(e.preFilter).map(([plugin, st]) => ({
      plugin: s.id(plugin),
      code: s.id(st.code),
      reasons: (st.reasons ?? []).map((r) => s.id(r)),
      nodeNames: st.nodeNames ? st.nodeNames.map((n) => s.id(n)) : null,
    })),
    filterPlugins,
    filterRows: filter.rows,
    filterNodes: filter.keys,
    postFilter: Object.entries(e.postFilter ?? {}).map(([plugin, st]) => ({
      plugin: s.id(plugin),
      code: s.id(st.code),
      reasons: (st.reasons ?? []).map((r) => s.id(r)),
      nominatedNode: st.nominatedNode === null ? null : s.id(st.nominatedNode),
    })),
    selectedNode: e.selectedNode === null ? null : s.id(e.selectedNode),
  };
  if (e.score || e.finalScore) {
    const score = e.score ?? {};
    const pluginNames: string[] = [];
    for (const byPlugin of Object.values(score)) {
      for (const p of Object.keys(byPlugin)) if (!pluginNames.includes(p)) pluginNames.push(p);
    }
    const rows = new RowGroups<number[]>();
    const nodes = new Set([...Object.keys(score), ...Object.keys(e.finalScore ?? {})]);
    for (const node of nodes) {
      const row = [e.finalScore?.[node] ?? 0];
      for (const p of pluginNames) {
        const v = score[node]?.[p];
        row.push(v?.raw ?? 0, v?.normalized ?? 0, v?.weighted ?? 0);
      }
      rows.add(row, s.id(node));
    }
    out.scorePlugins = pluginNames.map((p) => s.id(p));
    out.scoreRows = rows.rows;
    out.scoreNodes = rows.keys;
  }
  return out;
}

// upstream: pkg/scheduler/framework/types.go (FitError.Error): "0/N nodes are available: "
// followed by "<count> <reason>" joined with ", ", sorted, then "." and the PostFilter message.
const fitErrorPrefix = /^0\/\d+ nodes are available: /;

/** The reasons of a FitError message, with their node counts. */
export function fitErrorReasons(message: string): { reason: string; nodes: number }[] {
  const m = fitErrorPrefix.exec(message);
  if (!m) return [];
  const rest = message.slice(m[0].length);
  const end = rest.search(/\.( |$)/);
  const list = end === -1 ? rest : rest.slice(0, end);
  const out: { reason: string; nodes: number }[] = [];
  for (const part of list.split(/, (?=\d+ )/)) {
    const pm = /^(\d+) (.+)$/.exec(part);
    if (pm?.[1] && pm[2]) out.push({ reason: pm[2], nodes: Number(pm[1]) });
  }
  return out;
}

function aggregateReasons(pods: readonly PodResult[]): ReasonCount[] {
  const by = new Map<string, ReasonCount>();
  for (const p of pods) {
    if (p.outcome !== "Unschedulable" || !p.message) continue;
    for (const { reason, nodes } of fitErrorReasons(p.message)) {
      let c = by.get(reason);
      if (!c) {
        c = { reason, pods: 0, nodes: 0 };
        by.set(reason, c);
      }
      c.pods++;
      c.nodes += nodes;
    }
  }
  return [...by.values()].sort(
    (a, b) => b.pods - a.pods || b.nodes - a.nodes || (a.reason < b.reason ? -1 : 1),
  );
}

export function simulationSection(r: SimulationResult): SimulationSection {
  const s = new Interner();
  const nodes = r.nodes.map(nodeRow);
  const resources = ["cpu", "memory", "pods"];
  for (const n of r.nodes) {
    for (const name of Object.keys(n.scalarResources ?? {}))
      if (!resources.includes(name)) resources.push(name);
  }
  for (const n of r.nodes) {
    for (const d of n.devices ?? [])
      if (!resources.includes(deviceResource(d.driver))) resources.push(deviceResource(d.driver));
  }
  const pods: PodRow[] = r.pods.map((p) => {
    const row: PodRow = {
      namespace: p.namespace,
      name: p.name,
      outcome: p.outcome,
      node: p.node,
      nominatedNode: p.nominatedNode,
      attempts: p.attempts,
      message: p.message,
    };
    const devices = podDevices(p);
    if (devices) row.devices = devices;
    if (p.explain) row.explain = podExplain(p.explain, s);
    return row;
  });
  return {
    kind: "simulation",
    summary: r.summary,
    resources,
    nodes,
    pods,
    preemptions: r.preemptions,
    ...(r.deviceClasses ? { deviceClasses: r.deviceClasses } : {}),
    reasons: aggregateReasons(r.pods),
    explained: r.pods.some((p) => p.explain !== undefined),
    strings: s.strings,
  };
}

/** The diff section: what `kubesched diff` prints, without the two full results. */
export function diffSection(d: SimulationDiff): DiffSection {
  return {
    kind: "diff",
    labels: [d.summary.a.label, d.summary.b.label],
    seed: d.seed,
    summary: d.summary,
    pods: d.pods,
    changed: d.changed,
  };
}

/** The pod view of a WhyReport: its fields as they are, each filter detail as `kubesched why` writes it. */
export function whySection(r: WhyReport): WhySection {
  const out: WhySection = {
    kind: "why",
    pod: r.pod,
    summary: r.summary,
    notes: whyCycleNotes(r.summary),
    preFilter: r.preFilter,
    groups: r.groups,
    nodes: r.nodes.map((n) => ({
      name: n.name,
      excludedBy: n.excludedBy,
      withNominatedPods: n.withNominatedPods,
      rejections: n.rejections.map((j) => ({
        plugin: j.plugin,
        code: j.code,
        reasons: j.reasons,
        details: j.details.map(formatFilterDetail),
      })),
    })),
    preemption: r.preemption,
  };
  if (r.fixes) out.fixes = r.fixes;
  if (r.fixSearch) out.fixSearch = r.fixSearch;
  return out;
}
