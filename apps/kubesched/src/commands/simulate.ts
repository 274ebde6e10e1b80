// kubesched simulate: the contract in ARCHITECTURE.md (flags, SimulationResult, determinism).
import { writeFileSync } from "node:fs";
import { AdmissionError, simulate } from "@kubesched/cluster";
import { renderReport } from "@kubesched/report";
import type { CommandContext, CommandSpec } from "../cli";
import {
  clusterFlag,
  configFlag,
  kubeconfigFlags,
  loadClusterInput,
  loadConfigFlag,
  outputFlag,
  parseSeedFlag,
  pluginFlag,
  printErrors,
  resolvePath,
  seedFlag,
} from "./common";
import { type OutputFormat, renderResult } from "./simulate-output";

/** The inputs, under the report's title: which snapshot, configuration and seed. */
function reportSubtitle(ctx: CommandContext): string {
  const parts = [`--cluster ${(ctx.lists.cluster ?? []).join(" --cluster ")}`];
  if (typeof ctx.flags.config === "string") parts.push(`--config ${ctx.flags.config}`);
  parts.push(`--seed ${typeof ctx.flags.seed === "string" ? ctx.flags.seed : "0"}`);
  if (ctx.flags.explain === true) parts.push("--explain");
  return `kubesched simulate ${parts.join(" ")}`;
}

export const simulateCommand: CommandSpec = {
  name: "simulate",
  summary: "Schedule a cluster snapshot's pending pods and report where each pod went and why.",
  flags: [
    configFlag,
    pluginFlag,
    clusterFlag,
    ...kubeconfigFlags,
    outputFlag,
    {
      name: "explain",
      description:
        "Add each plugin's filter and score results (the deciding attempt); in the table: a filter summary and the top nodes' scores per pod.",
    },
    {
      name: "pod",
      value: "NS/NAME",
      repeatable: true,
      description: "With --explain: explain only these pods (every output format). Repeatable.",
    },
    {
      name: "top",
      value: "N",
      default: "3",
      description: "With --explain and the table output: how many best-scored nodes to break down.",
    },
    seedFlag,
    { name: "out", value: "FILE", description: "Write the result to FILE instead of stdout." },
    {
      name: "report",
      value: "FILE",
      description:
        "Also write a self-contained HTML report to FILE (summary, node utilisation before/after, pods; with --explain each pod's filter matrix and scores).",
    },
    {
      name: "timing",
      description:
        "Measure wall time (summary.wallMs, podsPerSecond); the output is then no longer reproducible.",
    },
  ],
  async run(ctx) {
    const seed = parseSeedFlag(ctx);
    if (seed === null) return 2;
    const top = Number(ctx.flags.top ?? "3");
    if (!Number.isInteger(top) || top < 1) {
      ctx.io.stderr(
        `error: invalid value "${String(ctx.flags.top)}" for --top: must be a positive integer\n`,
      );
      return 2;
    }
    const podFilter = ctx.lists.pod;
    for (const p of podFilter ?? []) {
      if (!/^[^/]+\/[^/]+$/.test(p)) {
        ctx.io.stderr(`error: invalid value "${p}" for --pod: use NAMESPACE/NAME\n`);
        return 2;
      }
    }
    const config = loadConfigFlag(ctx);
    if (config === null) return 1;
    const loaded = await loadClusterInput(ctx);
    if (loaded === 1 || loaded === 2) return loaded;
    let result: Awaited<ReturnType<typeof simulate>>;
    try {
      result = await simulate({
        config,
        registry: ctx.registry,
        objects: loaded.objects,
        logger: ctx.logger,
        seed,
        explain: ctx.flags.explain === true,
        ...(podFilter ? { explainPods: podFilter } : {}),
        timing: ctx.flags.timing === true,
      });
    } catch (e) {
      if (!(e instanceof AdmissionError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    }
    if (result.summary.pods === 0) {
      ctx.io.stderr(
        `warning: no pending pods (pods without spec.nodeName) in ${(ctx.lists.cluster ?? [String(ctx.flags.kubeconfig)]).join(", ")}\n`,
      );
    }
    for (const p of podFilter ?? []) {
      if (!result.pods.some((r) => `${r.namespace}/${r.name}` === p)) {
        ctx.io.stderr(`warning: --pod ${p}: no such pending pod\n`);
      }
    }
    const format = (typeof ctx.flags.output === "string" ? ctx.flags.output : "table") as OutputFormat;
    const text = renderResult(result, format, top);
    const out = ctx.flags.out;
    if (typeof out === "string") writeFileSync(resolvePath(ctx, out), text);
    else ctx.io.stdout(text);
    const report = ctx.flags.report;
    if (typeof report === "string") {
      const file = resolvePath(ctx, report);
      try {
        writeFileSync(file, renderReport({ simulation: result, subtitle: reportSubtitle(ctx) }));
      } catch (e) {
        ctx.io.stderr(`error: cannot write --report ${report}: ${(e as Error).message}\n`);
        return 1;
      }
    }
    if (format === "table" && result.summary.wallMs !== null) {
      ctx.io.stderr(
        `scheduled ${result.summary.scheduled} pods in ${result.summary.wallMs} ms (${result.summary.podsPerSecond} pods/s)\n`,
      );
    }
    return 0;
  },
};
