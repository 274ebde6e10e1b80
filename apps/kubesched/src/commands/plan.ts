// kubesched plan: which nodes, and how many, to add from node pools so that every pending pod
// schedules as the real scheduler would place it (packages/cluster/src/plan.ts: an exact search
// over the pools' counts, or a cluster-autoscaler expander, each candidate a simulate on the
// counterfactual engine), proven by a full simulate of the answer. Output: a table, or the
// versioned PlanReport (kubesched.io/v1alpha1, JSON Schema from `--schema`).
import { escapeTerminal } from "@kubesched/api";
import {
  AdmissionError,
  capErrors,
  type PlanDevices,
  type PlanExpander,
  type PlanReport,
  plan,
  planExpanders,
  planReportSchema,
} from "@kubesched/cluster";
import { defaultFeatures } from "@kubesched/framework";
import { renderReport } from "@kubesched/report";
import { defineCommand } from "../cli";
import { boolFlag, choiceFlag, integer, invalidValue, listFlag, valueFlag } from "../flags";
import { loadClusterInput, loadConfigFlag, printErrors, reloadConfigFlag, resolvePath } from "./inputs";
import {
  type NodePools,
  NodePoolsError,
  planPools,
  poolDeviceWarnings,
  poolProbeInputs,
  readNodePools,
} from "./node-pools";
import { formatted, writeFile, writeOutput } from "./outputs";
import {
  clusterInputFlags,
  configFlag,
  emulationFlags,
  emulationOf,
  optionsFlag,
  outFlag,
  outputFlag,
  pluginFlag,
  schedulerEmulation,
  seedFlag,
} from "./shared-flags";
import { forTerminal, pad } from "./table";

const percent = (f: number) => `${(f * 100).toFixed(1)}%`;

export function renderPlanTable(report: PlanReport): string {
  const r = forTerminal(report);
  const s = r.status;
  const lines: string[] = [];
  const how =
    r.spec.expander === null
      ? `exact search, smallest by ${r.spec.optimize === "cost" ? "price" : "node count"}`
      : `${r.spec.expander} expander, not searched for the smallest`;
  if (s.found) {
    lines.push(`Plan (${how}): add ${s.nodes} node(s)${s.cost !== null ? `, cost ${s.cost}` : ""}`);
    if (s.additions.length > 0)
      lines.push(
        pad([
          ["POOL", "ADD", "PRICE", "NODES"],
          ...s.additions.map((a) => [
            a.pool,
            String(a.count),
            a.price === null ? "-" : String(a.price),
            a.nodes.join(", "),
          ]),
        ]),
      );
    else lines.push("(nothing to add: the pods a pool could host schedule on the snapshot's nodes)");
  } else {
    lines.push(`No plan (${how}): ${s.message}`);
  }
  if (s.excluded.length > 0) {
    lines.push("", "Pods no pool can host (left out of the goal):");
    for (const e of s.excluded)
      lines.push(
        `  ${e.pod}: ${e.reasons.map((x) => (x.pool === "*" ? x.reason : `${x.pool}: ${x.reason}`)).join("; ")}`,
      );
  }
  const scheduled = s.pods.filter((p) => p.outcome === "Scheduled").length;
  lines.push(
    "",
    `Proof: simulate of the snapshot ${s.found ? "with the added nodes" : "with every pool at its maxCount"}: ${scheduled}/${s.pods.length} pending pod(s) scheduled`,
    pad([
      ["POD", "NODE", "POOL"],
      ...s.pods.map((p) => [p.pod, p.node ?? `(${p.outcome})`, p.pool ?? (p.node === null ? "" : "-")]),
    ]),
    "",
    `Utilisation (requested/allocatable): cpu ${percent(s.utilisation.before.cpu)} → ${percent(s.utilisation.after.cpu)}, memory ${percent(s.utilisation.before.memory)} → ${percent(s.utilisation.after.memory)}, nodes ${s.utilisation.before.nodes} → ${s.utilisation.after.nodes}`,
    `Search: ${s.search.simulations} simulation(s), ${s.search.pruned} addition(s) ruled out by the lower bounds${s.search.lowerBound !== null ? ` (${r.spec.optimize === "cost" ? "price" : "nodes"} ≥ ${s.search.lowerBound})` : ""}${s.search.exhausted ? ", stopped at --max-simulations" : ""}`,
  );
  if (s.devices !== undefined) lines.push(...deviceLines(s.devices));
  return `${lines.join("\n")}\n`;
}

/** The proof's devices: per pool adding nodes with ResourceSlices, per DeviceClass. */
function deviceLines(d: PlanDevices): string[] {
  const lines = ["", "Devices in the proof (allocated/published):"];
  if (d.pools.length > 0)
    lines.push(pad([["POOL", "DEVICES"], ...d.pools.map((p) => [p.pool, `${p.allocated}/${p.published}`])]));
  if (d.classes.length > 0)
    lines.push(
      pad([
        ["DEVICE CLASS", "DEVICES", "ADDED"],
        ...d.classes.map((c) => [c.name, `${c.allocated}/${c.published}`, String(c.added)]),
      ]),
    );
  return lines;
}

export const planCommand = defineCommand({
  name: "plan",
  summary:
    "Which nodes to add from node pools so that every pending pod schedules: the smallest addition, proven by simulate.",
  flags: [
    ...clusterInputFlags,
    listFlag({
      name: "workloads",
      value: "FILE",
      description:
        "More objects to schedule with the snapshot (pending pods, Deployments, Jobs, ...), loaded after it. Repeatable.",
    }),
    valueFlag({
      name: "pools",
      value: "FILE",
      description:
        "The node pools (kind: NodePools, apiVersion: kubesched.io/v1alpha1): per pool a name, a Node template, maxCount, and optionally minCount, price, priority.",
    }),
    configFlag,
    pluginFlag,
    optionsFlag,
    ...emulationFlags,
    seedFlag,
    choiceFlag({
      name: "optimize",
      value: "WHAT",
      values: ["count", "cost"],
      default: "count",
      description: "What the exact search minimizes: the number of added nodes, or their total price.",
    }),
    valueFlag({
      name: "expander",
      value: "NAME",
      description: `Instead of the exact search, cluster-autoscaler's scale-up loop with this expander (${planExpanders.join(", ")}): faster, not minimal.`,
      parse: (raw, flag) => {
        if (!(planExpanders as readonly string[]).includes(raw))
          throw invalidValue(raw, flag, `must be one of ${planExpanders.join(", ")}`);
        return raw as PlanExpander;
      },
    }),
    valueFlag({
      name: "max-simulations",
      value: "N",
      default: "500",
      description: "Stop the search after N simulations (the report then says it found none).",
      parse: integer(1, Number.POSITIVE_INFINITY, "must be a positive integer"),
    }),
    outputFlag,
    outFlag("the report"),
    valueFlag({
      name: "report",
      value: "FILE",
      description:
        "Also write the plan as a self-contained HTML page to FILE: nodes added per pool, cost, utilisation before and after (inline SVG plots), every pod's node in the proof (the same PlanReport as -o json).",
    }),
    boolFlag({ name: "schema", description: "Print the JSON Schema of the PlanReport output and exit." }),
  ],
  async run(ctx) {
    if (ctx.flags.schema === true) {
      ctx.io.stdout(`${JSON.stringify(planReportSchema, null, 2)}\n`);
      return 0;
    }
    const poolsFile = ctx.flags.pools;
    if (poolsFile === undefined) {
      ctx.io.stderr("error: --pools is required (a NodePools file)\n");
      return 2;
    }
    let pools: NodePools;
    try {
      pools = readNodePools(resolvePath(ctx, poolsFile), poolsFile);
    } catch (e) {
      if (!(e instanceof NodePoolsError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    }
    const { optimize, expander } = ctx.flags;
    if (optimize === "cost" || expander === "price") {
      const unpriced = pools.pools.flatMap((p, i) =>
        p.price === undefined ? [`pools[${i}] (pool ${p.name})`] : [],
      );
      if (unpriced.length > 0) {
        ctx.io.stderr(
          `error: ${poolsFile}: ${unpriced.join(", ")}: no price; ${optimize === "cost" ? "--optimize cost" : "--expander price"} needs a price on every pool\n`,
        );
        return 1;
      }
    }
    const flagged = emulationOf(ctx);
    const flaggedConfig = loadConfigFlag(ctx, ctx.flags.config, flagged);
    if (flaggedConfig === null) return 1;
    const loaded = await loadClusterInput(ctx, flagged, {
      files: ctx.flags.workloads,
      additionalInputs: poolProbeInputs(poolsFile, pools),
    });
    if (loaded === 1 || loaded === 2) return loaded;
    const { emulation } = loaded;
    const config = reloadConfigFlag(ctx, ctx.flags.config, flaggedConfig, flagged, emulation);
    if (config === null) return 1;
    const planned = planPools(loaded, poolsFile, pools);
    if ("errors" in planned) {
      printErrors(ctx, planned.errors);
      return 1;
    }
    for (const w of capErrors(
      poolDeviceWarnings(poolsFile, planned, { ...defaultFeatures, ...emulation.features }),
    ))
      ctx.io.stderr(`warning: ${escapeTerminal(w)}\n`);
    let report: PlanReport;
    try {
      report = await plan({
        config,
        registry: ctx.registry,
        objects: planned.objects,
        pools: planned.pools,
        logger: ctx.logger,
        ...schedulerEmulation(emulation),
        seed: ctx.flags.seed,
        optimize,
        ...(expander !== undefined ? { expander } : {}),
        maxSimulations: ctx.flags["max-simulations"],
      });
    } catch (e) {
      if (!(e instanceof AdmissionError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    }
    const text = formatted(ctx.flags.output, report, () => renderPlanTable(report));
    if (!writeOutput(ctx, ctx.flags.out, text)) return 1;
    const html = ctx.flags.report;
    if (html !== undefined) {
      const subtitle = `kubesched plan on ${loaded.source} with the pools of ${poolsFile}`;
      if (!writeFile(ctx, html, renderReport({ plan: report, subtitle }))) return 1;
    }
    return report.status.found ? 0 : 1;
  },
});
