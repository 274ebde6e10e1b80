// kubesched diff: the same snapshot and seed through two configurations; per pod where each put
// it and why they differ, and a summary side by side. The result is @kubesched/cluster's
// SimulationDiff (json/yaml print it as is).
import { AdmissionError, type DiffPlacement, diff, type SimulationDiff } from "@kubesched/cluster";
import type { KubeSchedulerConfiguration } from "@kubesched/config";
import { renderReport } from "@kubesched/report";
import { defineCommand } from "../cli";
import { listFlag, valueFlag } from "../flags";
import { pendingPods, progressFlag, startProgress } from "../progress";
import { loadClusterInput, loadConfigFlag, printErrors, reloadConfigFlag } from "./inputs";
import { formatted, writeFile, writeOutput } from "./outputs";
import {
  clusterInputFlags,
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

function where(p: DiffPlacement): string {
  return p.node ?? p.outcome;
}

export function renderDiffTable(result: SimulationDiff): string {
  const d = forTerminal(result);
  const { a, b } = d.summary;
  const lines: string[] = [];
  const rows = [["POD", `A: ${a.label}`, `B: ${b.label}`, "WHY"]];
  for (const p of d.pods) {
    if (p.why !== null) rows.push([`${p.namespace}/${p.name}`, where(p.a), where(p.b), p.why]);
  }
  if (rows.length > 1) lines.push(pad(rows), "");
  lines.push(`${d.changed} of ${d.pods.length} pending pods placed differently (seed ${d.seed})`, "");
  const s = (k: keyof typeof a, suffix = "") => [String(a[k]) + suffix, String(b[k]) + suffix];
  lines.push(
    pad([
      ["", `A: ${a.label}`, `B: ${b.label}`],
      ["scheduled", ...s("scheduled")],
      ["unschedulable", ...s("unschedulable")],
      ["error", ...s("error")],
      ["gated", ...s("gated")],
      ["skipped", ...s("skipped")],
      ["preemptions", ...s("preemptions")],
      ["nodes used", ...s("nodesUsed")],
      ["pods per node used", ...s("podsPerNodeUsed")],
      ["cpu requested", ...s("cpuPercent", "%")],
      ["memory requested", ...s("memoryPercent", "%")],
      ["fullest node cpu", ...s("maxNodeCpuPercent", "%")],
    ]),
  );
  return `${lines.join("\n")}\n`;
}

export const diffCommand = defineCommand({
  name: "diff",
  summary: "Run a snapshot through two scheduler configurations and show what changes and why.",
  flags: [
    ...clusterInputFlags,
    listFlag({
      name: "config",
      value: "FILE",
      description:
        'A KubeSchedulerConfiguration; give it twice (A, then B). "default" means upstream\'s defaults.',
    }),
    pluginFlag,
    optionsFlag,
    ...emulationFlags,
    seedFlag,
    outputFlag,
    outFlag("the result"),
    valueFlag({
      name: "report",
      value: "FILE",
      description:
        "Also write a self-contained HTML report to FILE (the two summaries side by side, each pod's placements and why they differ).",
    }),
    progressFlag,
  ],
  async run(ctx) {
    const files = ctx.flags.config;
    if (files.length !== 2) {
      ctx.io.stderr(`error: --config must be given exactly twice (A and B), got ${files.length}\n`);
      return 2;
    }
    const seed = ctx.flags.seed;
    const flagged = emulationOf(ctx);
    const flaggedConfigs: KubeSchedulerConfiguration[] = [];
    for (const f of files) {
      const c = loadConfigFlag(ctx, f === "default" ? null : f, flagged);
      if (c === null) return 1;
      flaggedConfigs.push(c);
    }
    const loaded = await loadClusterInput(ctx, flagged);
    if (loaded === 1 || loaded === 2) return loaded;
    const { emulation } = loaded;
    const configs: KubeSchedulerConfiguration[] = [];
    for (const [i, f] of files.entries()) {
      const c = reloadConfigFlag(
        ctx,
        f === "default" ? null : f,
        flaggedConfigs[i] as KubeSchedulerConfiguration,
        flagged,
        emulation,
      );
      if (c === null) return 1;
      configs.push(c);
    }
    let result: SimulationDiff;
    const progress = startProgress(ctx, ctx.flags.progress, {
      label: "diff",
      total: 2 * pendingPods(loaded.objects),
    });
    try {
      result = await diff({
        configs: [configs[0] as KubeSchedulerConfiguration, configs[1] as KubeSchedulerConfiguration],
        labels: [files[0] as string, files[1] as string],
        registry: ctx.registry,
        objects: loaded.objects,
        logger: ctx.logger,
        ...schedulerEmulation(emulation),
        seed,
        observers: [progress.observer("a:"), progress.observer("b:")],
      });
    } catch (e) {
      if (!(e instanceof AdmissionError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    } finally {
      progress.stop();
    }
    const text = formatted(ctx.flags.output, result, () => renderDiffTable(result));
    const { out, report, cluster } = ctx.flags;
    if (!writeOutput(ctx, out, text)) return 1;
    if (report !== undefined) {
      const input =
        cluster.length > 0 ? cluster.map((c) => `--cluster ${c}`).join(" ") : `--kubeconfig ${loaded.source}`;
      const subtitle = `kubesched diff ${input} --config ${files[0]} --config ${files[1]} --seed ${seed}`;
      if (!writeFile(ctx, report, renderReport({ diff: result, subtitle }))) return 1;
    }
    return 0;
  },
});
