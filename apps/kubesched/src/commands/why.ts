// kubesched why NS/NAME: every reason a pending pod does not fit, on every node, what
// preemption would do, and verified fixes (see @kubesched/cluster's why). Snapshot (--cluster) or cluster
// (--kubeconfig, read-only: it lists), or a pod spec (-f FILE) tried on either.
import type { Pod } from "@kubesched/api";
import {
  AdmissionError,
  WhyError,
  type WhyReport,
  why,
  whyCycleNotes,
  whyReportSchema,
} from "@kubesched/cluster";
import { renderReport } from "@kubesched/report";
import { formatFilterDetail } from "@kubesched/runtime";
import { defineCommand } from "../cli";
import { boolFlag, integer, valueFlag } from "../flags";
import { loadClusterInput, loadConfigFlag, loadObjectsFlag, printErrors, reloadConfigFlag } from "./inputs";
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
import { forTerminal } from "./table";

/** The report for people: the reasons grouped, every node's reasons, preemption. */
export function renderWhyTable(report: WhyReport): string {
  const r = forTerminal(report);
  const { pod, summary } = r;
  const lines = [
    `Pod ${pod.namespace}/${pod.name} (${pod.schedulerName}): ${summary.feasible}/${summary.nodes} nodes fit.`,
  ];
  const gate = summary.gated;
  const notes = whyCycleNotes(summary);
  lines.push(...(notes.gated ?? []));
  if (notes.preFilterRejection !== undefined) lines.push(notes.preFilterRejection);
  const pre = r.preFilter.filter((p) => p.code !== "Success" && p.code !== "Skip");
  const narrowing = r.preFilter.filter((p) => p.nodeNames !== undefined);
  if (pre.length > 0 || narrowing.length > 0) {
    lines.push("", "PreFilter:");
    for (const p of pre) lines.push(`  ${p.plugin}: ${p.code}: ${p.reasons.join(", ")}`);
    for (const p of narrowing) lines.push(`  ${p.plugin}: only nodes ${p.nodeNames?.join(", ")}`);
  }
  // A gated pod has no reasons per node: nothing evaluated it.
  if (gate === undefined) {
    lines.push("", "Reasons:");
    for (const g of r.groups) {
      const n = `${g.count} node${g.count === 1 ? "" : "s"}`;
      lines.push(`  ${n}: ${g.reason}${g.detail ? ` (${g.detail})` : ""}${g.plugin ? ` [${g.plugin}]` : ""}`);
    }
    lines.push("", "Nodes:");
    for (const n of r.nodes) {
      if (n.rejections.length === 0 && n.excludedBy.length === 0) {
        lines.push(`  ${n.name}: fits`);
        continue;
      }
      lines.push(`  ${n.name}:${n.withNominatedPods ? " (with the pods nominated to it)" : ""}`);
      if (n.excludedBy.length > 0) lines.push(`    left out by PreFilter of ${n.excludedBy.join(", ")}`);
      for (const rej of n.rejections) {
        lines.push(`    ${rej.plugin || "nominated pods"}: ${rej.reasons.join(", ")}`);
        for (const d of rej.details) lines.push(`      ${formatFilterDetail(d)}`);
      }
    }
  }
  const p = r.preemption;
  lines.push("", `Preemption${p.plugin ? ` (${p.plugin})` : ""}:`);
  if (p.reason) lines.push(`  ${p.reason}`);
  for (const c of p.candidates) {
    const pdb = c.pdbViolations > 0 ? `, violating ${c.pdbViolations} PodDisruptionBudget(s)` : "";
    const selected = c.node === p.selected ? " (the node it picks)" : "";
    lines.push(`  ${c.node}: evict ${c.victims.join(", ")}${pdb}${selected}`);
  }
  for (const n of p.notHelpful) lines.push(`  ${n.node}: not helpful: ${n.reasons.join(", ") || n.code}`);
  if (r.fixes !== undefined) lines.push("", ...renderFixes(r.fixes, r.fixSearch));
  return `${lines.join("\n")}\n`;
}

/** The verified fixes, smallest first, with the commands and what each displaces. */
function renderFixes(fixes: NonNullable<WhyReport["fixes"]>, search: WhyReport["fixSearch"]): string[] {
  const others = search?.withPendingPods === false ? "the pod alone" : "every pending pod";
  const lines = [`Fixes (each proven by simulating the changed cluster with ${others}):`];
  if (fixes.length === 0) lines.push("  none found");
  fixes.forEach((f, i) => {
    lines.push(`  ${i + 1}. [${f.target}] ${f.description}: the pod lands on ${f.node}`);
    for (const m of f.moved) lines.push(`       ${m.pod} moves to ${m.node ?? "no node: it stays pending"}`);
    lines.push(
      `       other pods that would no longer fit: ${f.displaces.length > 0 ? f.displaces.join(", ") : "none"}`,
    );
    for (const k of f.kubectl) lines.push(`       $ ${k}`);
  });
  if (search?.note) lines.push(`  (${search.note})`);
  return lines;
}

export const whyCommand = defineCommand({
  name: "why",
  summary:
    "Why a pending pod does not fit: every reason on every node, what preemption would do, and changes proven to fix it.",
  args: [{ name: "NS/NAME", required: false }],
  flags: [
    ...clusterInputFlags,
    valueFlag({
      name: "filename",
      short: "f",
      value: "FILE",
      description: "A Pod manifest to try on the cluster instead of a pending pod of it.",
    }),
    configFlag,
    pluginFlag,
    optionsFlag,
    ...emulationFlags,
    seedFlag,
    outputFlag,
    outFlag("the report"),
    valueFlag({
      name: "report",
      value: "FILE",
      description:
        "Also write the pod's view as a self-contained HTML page to FILE: the reasons grouped, every node's rejections with the plugins' numbers, preemption and fixes (the same WhyReport as -o json).",
    }),
    valueFlag({
      name: "max-fixes",
      value: "N",
      default: "5",
      description: "Report at most N verified fixes (the smallest changes first).",
      parse: integer(1, 1000, "must be an integer from 1 to 1000"),
    }),
    valueFlag({
      name: "fix-budget",
      value: "SECONDS",
      default: "60",
      description:
        "Wall-clock seconds for proving fixes (each is a simulation of the changed cluster); the report says when it ran out.",
      parse: integer(0, 86400, "must be a whole number of seconds from 0 to 86400"),
    }),
    boolFlag({
      name: "fix-alone",
      description: "Prove fixes with the pod alone, without the other pending pods (default: with them).",
    }),
    boolFlag({ name: "no-fixes", description: "Do not search for fixes (only the reasons and preemption)." }),
    boolFlag({ name: "schema", description: "Print the JSON Schema of the WhyReport output and exit." }),
  ],
  async run(ctx) {
    if (ctx.flags.schema === true) {
      ctx.io.stdout(`${JSON.stringify(whyReportSchema, null, 2)}\n`);
      return 0;
    }
    const file = ctx.flags.filename;
    const arg = ctx.args[0];
    if ((arg === undefined) === (file === undefined)) {
      ctx.io.stderr(
        "error: give either NS/NAME (a pending pod of the cluster) or -f FILE (a Pod manifest)\n",
      );
      return 2;
    }
    if (arg !== undefined && !/^[^/]+\/[^/]+$/.test(arg)) {
      ctx.io.stderr(`error: ${arg}: use NAMESPACE/NAME\n`);
      return 2;
    }
    const flagged = emulationOf(ctx);
    const flaggedConfig = loadConfigFlag(ctx, ctx.flags.config, flagged);
    if (flaggedConfig === null) return 1;
    const loaded = await loadClusterInput(ctx, flagged);
    if (loaded === 1 || loaded === 2) return loaded;
    const { emulation } = loaded;
    const config = reloadConfigFlag(ctx, ctx.flags.config, flaggedConfig, flagged, emulation);
    if (config === null) return 1;
    const objects = [...loaded.objects];
    let target: { namespace: string; name: string };
    if (file !== undefined) {
      const t = loadObjectsFlag(ctx, [file], ctx.flags["max-input-size"]);
      if (t === null) return 1;
      const only = t.objects[0];
      if (t.objects.length !== 1 || only?.kind !== "Pod") {
        ctx.io.stderr(`error: ${file}: expected exactly one Pod, found ${t.objects.length} object(s)\n`);
        return 1;
      }
      const pod = only.obj as Pod;
      const namespace = pod.metadata?.namespace || "default";
      target = { namespace, name: pod.metadata?.name ?? "" };
      objects.push({ ...only, obj: { ...pod, metadata: { ...pod.metadata, namespace } } });
    } else {
      const [namespace = "", name = ""] = (arg ?? "").split("/");
      target = { namespace, name };
    }
    let report: WhyReport;
    try {
      report = await why({
        config,
        registry: ctx.registry,
        objects,
        pod: target,
        logger: ctx.logger,
        ...schedulerEmulation(emulation),
        seed: ctx.flags.seed,
        ...(ctx.flags["no-fixes"] === true
          ? {}
          : {
              fixes: {
                budgetSeconds: ctx.flags["fix-budget"],
                maxFixes: ctx.flags["max-fixes"],
                alone: ctx.flags["fix-alone"] === true,
                podFromManifest: ctx.flags.filename !== undefined,
              },
            }),
      });
    } catch (e) {
      if (e instanceof WhyError) {
        ctx.io.stderr(`error: ${e.message}\n`);
        return 1;
      }
      if (!(e instanceof AdmissionError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    }
    const text = formatted(ctx.flags.output, report, () => renderWhyTable(report));
    if (!writeOutput(ctx, ctx.flags.out, text)) return 1;
    const html = ctx.flags.report;
    if (html !== undefined) {
      const source = file !== undefined ? `-f ${file}` : `${target.namespace}/${target.name}`;
      const subtitle = `kubesched why ${source} on ${loaded.source}`;
      if (!writeFile(ctx, html, renderReport({ why: report, subtitle }))) return 1;
    }
    return 0;
  },
});
