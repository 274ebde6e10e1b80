// Rendering a SimulationResult: table (for people), json and yaml (for tools).
import { type Quantity, tryParseQuantity } from "@kubesched/api";
import type { PodClaimResult, PodResult, SimulationResult } from "@kubesched/cluster";
import { jsonChunks, yamlChunks } from "./outputs";
import { forTerminal, pad } from "./table";

export type OutputFormat = "table" | "json" | "yaml";

/** " (25%)": `req` of `alloc` in the unit `of` reads; nothing when alloc is missing, bad or 0. */
function percent(req: string, alloc: string | undefined, of: (q: Quantity) => number): string {
  const a = tryParseQuantity(alloc);
  const total = a ? of(a) : 0;
  if (!total) return "";
  const r = tryParseQuantity(req);
  return ` (${Math.round(((r ? of(r) : 0) / total) * 100)}%)`;
}

const cpu = (q: Quantity) => q.milliValue();
const bytes = (q: Quantity) => q.value();

/** The tied nodes a tie line names (the JSON/YAML `explain.tiedNodes` has them all). */
const maxTiedNodesNamed = 10;

/**
 * The explanation of one pod for people: which plugins rejected how many nodes and why (and how
 * many of the cluster's `nodeCount` nodes Filter evaluated, when it stopped early), the top-N
 * nodes' weighted scores per plugin (and the selected node, always), and the nodes tied for the
 * best score.
 */
export function renderExplain(p: PodResult, top: number, nodeCount: number): string[] {
  const e = p.explain;
  if (!e) return [];
  const where = p.node ? ` on ${p.node}` : "";
  const lines = [`${p.namespace}/${p.name}: ${p.outcome}${where}`];
  for (const c of p.resourceClaims ?? []) {
    lines.push(
      `  claim ${c.name}${c.resourceClaim ? ` (${c.resourceClaim})` : ""}: ${claimDevices(c).join(", ")}`,
    );
  }
  for (const [plugin, st] of Object.entries(e.preFilter)) {
    if (st.code !== "Success" && st.code !== "Skip") {
      lines.push(`  preFilter ${plugin}: ${st.code}${st.reasons ? `: ${st.reasons.join("; ")}` : ""}`);
    } else if (st.nodeNames) {
      lines.push(`  preFilter ${plugin}: only ${st.nodeNames.length} node(s) considered`);
    }
  }
  const nodes = Object.entries(e.filter);
  if (nodes.length) {
    const rejected = new Map<string, { nodes: number; reasons: Map<string, number> }>();
    let passed = 0;
    for (const [, byPlugin] of nodes) {
      const failed = Object.entries(byPlugin).find(([, st]) => st.code !== "Success" && st.code !== "Skip");
      if (!failed) {
        passed++;
        continue;
      }
      const [plugin, st] = failed;
      let agg = rejected.get(plugin);
      if (!agg) {
        agg = { nodes: 0, reasons: new Map() };
        rejected.set(plugin, agg);
      }
      agg.nodes++;
      for (const reason of st.reasons ?? [st.code])
        agg.reasons.set(reason, (agg.reasons.get(reason) ?? 0) + 1);
    }
    // The nodes the pod could go to: the cluster's, or those PreFilter narrowed it to.
    let considered = nodeCount;
    for (const st of Object.values(e.preFilter)) {
      if (st.nodeNames) considered = Math.min(considered, st.nodeNames.length);
    }
    // upstream findNodesThatPassFilters: the search stops once numFeasibleNodesToFind nodes
    // passed (percentageOfNodesToScore), so on a large cluster only some nodes are evaluated.
    // upstream evaluateNominatedNode: a pod nominated by an earlier preemption is tried on its
    // nominated node first, and when that node passes no other is evaluated.
    const nominatedOnly = p.nominatedNode !== null && nodes.length === 1 && nodes[0]?.[0] === p.nominatedNode;
    lines.push(
      nominatedOnly && passed === 1
        ? `  filter: 1/1 nodes passed (the nominated node, evaluated first: it passed, so no other node was evaluated)`
        : nodes.length < considered
          ? `  filter: ${passed} of ${nodes.length} nodes evaluated passed (percentageOfNodesToScore: the search stopped at ${nodes.length} of ${considered} nodes)`
          : `  filter: ${passed}/${nodes.length} nodes passed`,
    );
    for (const [plugin, agg] of [...rejected].sort(
      (a, b) => b[1].nodes - a[1].nodes || (a[0] < b[0] ? -1 : 1),
    )) {
      const reasons = [...agg.reasons].map(([reason, n]) => `${n} ${reason}`).join(", ");
      lines.push(`    ${plugin} rejected ${agg.nodes}: ${reasons}`);
    }
  }
  for (const [plugin, st] of Object.entries(e.postFilter ?? {})) {
    const nominated = st.nominatedNode ? ` (nominated ${st.nominatedNode})` : "";
    lines.push(
      `  postFilter ${plugin}: ${st.code}${nominated}${st.reasons ? `: ${st.reasons.join("; ")}` : ""}`,
    );
  }
  if (e.finalScore) {
    const ranked = Object.entries(e.finalScore).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const shown = ranked.slice(0, top);
    // In a tie the seed may pick a node ranked below the top N: it is shown too, as one more row.
    const selected = ranked.find(([node]) => node === e.selectedNode);
    const extra = selected && !shown.includes(selected);
    if (extra) shown.push(selected);
    lines.push(
      `  score (top ${shown.length - (extra ? 1 : 0)} of ${ranked.length}${extra ? ", and the selected node" : ""}; weighted per plugin, zeros left out):`,
    );
    const rows = shown.map(([node, total]) => {
      const parts = Object.entries(e.score?.[node] ?? {})
        .filter(([, s]) => s.weighted !== 0)
        .map(([plugin, s]) => `${plugin} ${s.weighted}`);
      const mark = node === e.selectedNode ? "*" : " ";
      return [`   ${mark}${node}`, String(total), parts.join(", ")];
    });
    lines.push(pad(rows));
    if (e.tiedNodes) {
      const named = e.tiedNodes.slice(0, maxTiedNodesNamed).join(", ");
      const more = e.tiedNodes.length - maxTiedNodesNamed;
      lines.push(
        `  tie: ${e.tiedNodes.length} nodes share the best score ${ranked[0]?.[1] ?? 0} (${named}${more > 0 ? ` and ${more} more` : ""}); the seed picked ${e.selectedNode ?? "none"}`,
      );
    }
  }
  return lines;
}

/** A claim's allocated devices, `request: driver/pool/device` each; or why there are none. */
function claimDevices(c: PodClaimResult): string[] {
  if (c.resourceClaim === null) return ["(not created)"];
  if (!c.allocated) return ["(not allocated)"];
  return c.devices.map((d) => `${d.request}: ${d.driver}/${d.pool}/${d.device}`);
}

/**
 * The claims table (each pending pod's claims and their devices), the devices table (each
 * node's published devices and how many claims hold, after/before) and the device classes table
 * (the devices each class matches, the same), when there are any.
 */
function deviceTables(r: SimulationResult): string[] {
  const out: string[] = [];
  const claims = [["POD", "CLAIM", "RESOURCECLAIM", "DEVICES"]];
  for (const p of r.pods) {
    for (const c of p.resourceClaims ?? []) {
      claims.push([`${p.namespace}/${p.name}`, c.name, c.resourceClaim ?? "-", claimDevices(c).join(", ")]);
    }
  }
  if (claims.length > 1) out.push("", pad(claims));
  // TAINTED only when some device is (a DeviceTaintRule or its slice taints it NoSchedule/NoExecute).
  const anyTainted = r.nodes.some((n) => (n.devices ?? []).some((d) => d.tainted !== undefined));
  const devices = [["NODE", "DRIVER", "POOL", "ALLOCATED", "BEFORE", ...(anyTainted ? ["TAINTED"] : [])]];
  for (const n of r.nodes) {
    for (const d of n.devices ?? []) {
      devices.push([
        n.name,
        d.driver,
        d.pool,
        `${d.allocated}/${d.published}`,
        `${d.allocatedBefore}/${d.published}`,
        ...(anyTainted ? [`${d.tainted ?? 0}/${d.published}`] : []),
      ]);
    }
  }
  if (devices.length > 1) out.push("", pad(devices));
  const classes = [["DEVICECLASS", "ALLOCATED", "BEFORE"]];
  for (const c of r.deviceClasses ?? []) {
    classes.push([c.name, `${c.allocated}/${c.published}`, `${c.allocatedBefore}/${c.published}`]);
  }
  if (classes.length > 1) out.push("", pad(classes));
  return out;
}

/**
 * The table for people, in pieces: the pods and nodes tables, the summary and preemptions, then
 * each explained pod's explanation one at a time (read from its store as it is written).
 */
export function* tableChunks(result: SimulationResult, top = 3): Generator<string> {
  // The explanations are escaped pod by pod below, not here with the rest.
  const r = forTerminal({ ...result, pods: result.pods.map(({ explain: _, ...p }) => p) });
  const pods = [["POD", "OUTCOME", "NODE", "ATTEMPTS", "MESSAGE"]];
  for (const p of r.pods) {
    const node = p.node ?? (p.nominatedNode ? `(nominated ${p.nominatedNode})` : "-");
    pods.push([`${p.namespace}/${p.name}`, p.outcome, node, String(p.attempts), p.message ?? ""]);
  }
  const nodes = [["NODE", "CPU REQUESTED", "MEMORY REQUESTED", "PODS"]];
  for (const n of r.nodes) {
    nodes.push([
      n.name,
      `${n.requested.cpu ?? "0"}/${n.allocatable.cpu ?? "?"}${percent(n.requested.cpu ?? "0", n.allocatable.cpu, cpu)}`,
      `${n.requested.memory ?? "0"}/${n.allocatable.memory ?? "?"}${percent(n.requested.memory ?? "0", n.allocatable.memory, bytes)}`,
      `${n.pods}/${n.allocatable.pods ?? "?"}`,
    ]);
  }
  const s = r.summary;
  const lines = [
    pad(pods),
    "",
    pad(nodes),
    ...deviceTables(r),
    "",
    `${s.pods} pending pods: ${s.scheduled} scheduled, ${s.unschedulable} unschedulable, ${s.error} error, ${s.gated} gated, ${s.skipped} skipped${s.refused ? `; ${s.refused} refused by admission (not created)` : ""}`,
  ];
  if (r.preemptions.length) {
    lines.push("", "PREEMPTIONS");
    for (const p of r.preemptions) lines.push(`${p.preemptor} on ${p.node}: evicted ${p.victims.join(", ")}`);
  }
  yield lines.join("\n");
  let first = true;
  for (const pod of result.pods) {
    if (!("explain" in pod)) continue;
    const explained = forTerminal({ ...pod });
    if (!explained.explain) continue;
    if (first) yield "\n\nEXPLAIN";
    first = false;
    yield `\n${renderExplain(explained, top, r.nodes.length).join("\n")}`;
  }
  yield "\n";
}

/** The result in an `--output` format, in pieces (see jsonChunks, yamlChunks, tableChunks). */
export function resultChunks(r: SimulationResult, format: OutputFormat, top = 3): Iterable<string> {
  if (format === "json") return chunksThenNewline(jsonChunks(r, 2));
  if (format === "yaml") return yamlChunks({ ...r });
  return tableChunks(r, top);
}

function* chunksThenNewline(chunks: Iterable<string>): Generator<string> {
  yield* chunks;
  yield "\n";
}
