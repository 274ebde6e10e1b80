// The diagnostic pass' result grouped for people: one line per reason with the nodes it applies to
// and the plugins' numbers summarised ("412 nodes: Insufficient cpu (short 200m–1.5)").
import { formatResourceAmount, taintToString } from "@kubesched/api";
import type { FilterDetail } from "@kubesched/framework";
import { type FilterDiagnosis, nodeFits, preFilterRejects } from "./diagnose-filters";

/**
 * Nodes that share one reason.
 * @public
 */
export interface ReasonGroup {
  /** The plugin that gives the reason; "" for nodes every Filter passes. */
  plugin: string;
  /** Upstream's reason ("Insufficient cpu"), or how the nodes were set apart. */
  reason: string;
  /** The plugins' numbers summarised ("short 200m–1.5", "dedicated=gpu:NoSchedule"); "" for none. */
  detail: string;
  /** The nodes, in the snapshot's order. */
  nodes: string[];
}

/** How many distinct details a group names before "and N more". */
const maxDetails = 3;

interface Building {
  group: ReasonGroup;
  details: FilterDetail[];
}

/**
 * The nodes of a diagnosis grouped by reason: a node with several reasons is in several groups
 * (as upstream's FitError counts reasons), nodes that a PreFilter leaves out in one group per
 * plugin (a rejecting one: per reason, every node), nodes every Filter passes in one group. Largest group first, then by reason.
 * @public
 */
export function groupFilterDiagnosis(d: FilterDiagnosis): ReasonGroup[] {
  const groups = new Map<string, Building>();
  const add = (plugin: string, reason: string, node: string, details: readonly FilterDetail[]): void => {
    const key = `${plugin}\u0000${reason}`;
    let b = groups.get(key);
    if (b === undefined) {
      b = { group: { plugin, reason, detail: "", nodes: [] }, details: [] };
      groups.set(key, b);
    }
    b.group.nodes.push(node);
    b.details.push(...details);
  };
  // A PreFilter that rejects the pod leaves every node out with its own reasons (upstream's FitError
  // then says its message); one whose result names other nodes, with upstream's wording for that.
  const preFilterReasons = new Map<string, readonly string[]>();
  for (const p of d.preFilter) {
    if (p.status !== null && preFilterRejects(p)) {
      const reasons = p.status.getReasons();
      preFilterReasons.set(p.plugin, reasons.length > 0 ? reasons : [p.status.message()]);
    }
  }
  for (const n of d.nodes) {
    for (const p of n.excludedBy) {
      const reasons = preFilterReasons.get(p) ?? [`node(s) didn't satisfy plugin ${p} (PreFilter)`];
      for (const reason of reasons) add(p, reason, n.nodeName, []);
    }
    for (const r of n.rejections) {
      const reasons = r.status.getReasons();
      // A detail goes with its reason (NodeResourcesFit's, one per resource), others with the first.
      (reasons.length > 0 ? reasons : [r.status.message()]).forEach((reason, i) => {
        const details = r.details.filter((x) => {
          const own = detailReason(x);
          return own === null ? i === 0 : own === reason;
        });
        add(r.plugin, reason, n.nodeName, details);
      });
    }
    if (nodeFits(n)) add("", "fits", n.nodeName, []);
  }
  const out: ReasonGroup[] = [];
  for (const { group, details } of groups.values()) {
    group.detail = summarize(details);
    out.push(group);
  }
  return out.sort(
    (a, b) => b.nodes.length - a.nodes.length || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0),
  );
}

/**
 * A group as one line: "412 nodes: Insufficient cpu (short 200m–1.5)".
 * @public
 */
export function formatReasonGroup(g: ReasonGroup): string {
  const n = g.nodes.length;
  return `${n} node${n === 1 ? "" : "s"}: ${g.reason}${g.detail ? ` (${g.detail})` : ""}`;
}

/** The reason a detail belongs to, for rejections with several reasons (NodeResourcesFit's). */
function detailReason(d: FilterDetail): string | null {
  if (d.kind !== "InsufficientResource") return null;
  return d.resource === "pods" ? "Too many pods" : `Insufficient ${d.resource}`;
}

function summarize(details: readonly FilterDetail[]): string {
  const shortfalls = new Map<string, [number, number]>();
  const texts: string[] = [];
  for (const d of details) {
    if (d.kind === "InsufficientResource") {
      const r = shortfalls.get(d.resource);
      if (r === undefined) shortfalls.set(d.resource, [d.short, d.short]);
      else shortfalls.set(d.resource, [Math.min(r[0], d.short), Math.max(r[1], d.short)]);
      continue;
    }
    const t = formatFilterDetail(d);
    if (!texts.includes(t)) texts.push(t);
  }
  const parts: string[] = [];
  for (const [resource, [lo, hi]] of shortfalls) {
    const a = formatResourceAmount(resource, lo);
    parts.push(lo === hi ? `short ${a}` : `short ${a}–${formatResourceAmount(resource, hi)}`);
  }
  parts.push(...texts.slice(0, maxDetails));
  if (texts.length > maxDetails) parts.push(`and ${texts.length - maxDetails} more`);
  return parts.join("; ");
}

/**
 * One detail in words: "dedicated=gpu:NoSchedule", "zone=a: skew 3 > maxSkew 1", ...
 * @public
 */
export function formatFilterDetail(d: FilterDetail): string {
  switch (d.kind) {
    case "InsufficientResource":
      return `${d.resource}: requested ${formatResourceAmount(d.resource, d.requested)}, free ${formatResourceAmount(d.resource, d.capacity - d.used)} of ${formatResourceAmount(d.resource, d.capacity)}, short ${formatResourceAmount(d.resource, d.short)}`;
    case "UntoleratedTaint":
      return taintToString(d.taint);
    case "Cordoned":
      return "cordoned";
    case "NodeLabelMismatch":
      return `${d.source} ${d.requirement}: node has ${d.nodeValue === null ? `no ${d.key}` : `${d.key}=${d.nodeValue}`}`;
    case "HostPortConflict":
      return `${d.protocol} ${d.hostIP}:${d.hostPort} in use`;
    case "TopologySpread":
      return d.domain === null || d.skew === null
        ? `no ${d.topologyKey} label`
        : `${d.topologyKey}=${d.domain}: skew ${d.skew} > maxSkew ${d.maxSkew}`;
    case "PodAffinity": {
      const where = d.domain === null ? `no ${d.topologyKey} label` : `${d.topologyKey}=${d.domain}`;
      if (d.pods.length === 0) return `${where}: no pod matches`;
      const more = d.pods.length > maxDetails ? ` and ${d.pods.length - maxDetails} more` : "";
      return `${where}: ${d.rule} conflicts with ${d.pods.slice(0, maxDetails).join(", ")}${more}`;
    }
  }
}
