// kubesched simulate: the contract in docs/simulate.md (flags, SimulationResult and its JSON Schema,
// determinism).
import {
  AdmissionError,
  defaultDeleteLatencyMs,
  SpillExplanationStore,
  simulate,
  simulationResultSchema,
} from "@kubesched/cluster";
import { formatDuration, parseDuration } from "@kubesched/config";
import { renderReport } from "@kubesched/report";
import { type CommandContext, defineCommand, type FlagValues } from "../cli";
import { boolFlag, integer, invalidValue, listFlag, valueFlag } from "../flags";
import { pendingPods, progressFlag, startProgress } from "../progress";
import { loadClusterInput, loadConfigFlag, printErrors, reloadConfigFlag } from "./inputs";
import { writeFile, writeOutputChunks } from "./outputs";
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
import { type OutputFormat, resultChunks } from "./simulate-output";

const simulateFlags = [
  configFlag,
  pluginFlag,
  optionsFlag,
  ...emulationFlags,
  ...clusterInputFlags,
  outputFlag,
  boolFlag({
    name: "explain",
    description:
      "Add each plugin's filter and score results (the deciding attempt); in the table: a filter summary and the top nodes' scores per pod.",
  }),
  listFlag({
    name: "pod",
    value: "NS/NAME",
    description: "Explain only these pods (implies --explain; every output format). Repeatable.",
    parse: (raw, flag) => {
      if (!/^[^/]+\/[^/]+$/.test(raw)) throw invalidValue(raw, flag, "use NAMESPACE/NAME");
      return raw;
    },
  }),
  valueFlag({
    name: "top",
    value: "N",
    default: "3",
    description: "With --explain and the table output: how many best-scored nodes to break down.",
    parse: integer(1, Number.POSITIVE_INFINITY, "must be a positive integer"),
  }),
  seedFlag,
  valueFlag({
    name: "delete-latency",
    value: "DURATION",
    default: formatDuration(defaultDeleteLatencyMs),
    description:
      "Simulated API latency of a pod DELETE (preemption's victims): with async preemption (SchedulerAsyncPreemption) the preemptor waits at PreEnqueue this long for its victims.",
    parse: (raw, flag) => {
      const ms = parseDuration(raw);
      if (ms === undefined || ms < 0) throw invalidValue(raw, flag, 'must be a duration such as "50ms"');
      return ms;
    },
  }),
  outFlag("the result"),
  valueFlag({
    name: "report",
    value: "FILE",
    description:
      "Also write a self-contained HTML report to FILE (summary, node utilisation before/after, pods; with --explain each pod's filter matrix and scores).",
  }),
  boolFlag({
    name: "timing",
    description:
      "Measure wall time (summary.wallMs, podsPerSecond); the output is then no longer reproducible.",
  }),
  progressFlag,
  boolFlag({ name: "schema", description: "Print the JSON Schema of the SimulationResult output and exit." }),
] as const;

/** The inputs, under the report's title: which snapshot, configuration and seed. */
function reportSubtitle(ctx: CommandContext<FlagValues<typeof simulateFlags>>, explain: boolean): string {
  const { cluster, config, seed } = ctx.flags;
  const parts = [`--cluster ${cluster.join(" --cluster ")}`];
  if (config !== undefined) parts.push(`--config ${config}`);
  parts.push(`--seed ${seed}`);
  if (explain) parts.push("--explain");
  return `kubesched simulate ${parts.join(" ")}`;
}

export const simulateCommand = defineCommand({
  name: "simulate",
  summary: "Schedule a cluster snapshot's pending pods and report where each pod went and why.",
  flags: simulateFlags,
  async run(ctx) {
    if (ctx.flags.schema === true) {
      ctx.io.stdout(`${JSON.stringify(simulationResultSchema, null, 2)}\n`);
      return 0;
    }
    const podFilter = ctx.flags.pod.length > 0 ? ctx.flags.pod : undefined;
    // --pod names the pods to explain: it means --explain (it has no use without it).
    if (podFilter && ctx.flags.explain === false) {
      ctx.io.stderr("error: --pod: it names the pods to explain, and --explain=false turns explain off\n");
      return 2;
    }
    const explain = ctx.flags.explain === true || podFilter !== undefined;
    const flagged = emulationOf(ctx);
    const flaggedConfig = loadConfigFlag(ctx, ctx.flags.config, flagged);
    if (flaggedConfig === null) return 1;
    const loaded = await loadClusterInput(ctx, flagged);
    if (loaded === 1 || loaded === 2) return loaded;
    const { emulation } = loaded;
    const config = reloadConfigFlag(ctx, ctx.flags.config, flaggedConfig, flagged, emulation);
    if (config === null) return 1;
    // Each explanation goes to a temporary file as it is recorded and is read back as the output
    // is written, pod by pod: memory does not grow with the pods explained.
    const explainStore = explain ? new SpillExplanationStore() : undefined;
    try {
      return await simulateAndWrite(ctx, { emulation, config, loaded, explain, podFilter, explainStore });
    } finally {
      explainStore?.close();
    }
  },
});

async function simulateAndWrite(
  ctx: CommandContext<FlagValues<typeof simulateFlags>>,
  o: {
    emulation: ReturnType<typeof emulationOf>;
    config: NonNullable<ReturnType<typeof loadConfigFlag>>;
    loaded: Exclude<Awaited<ReturnType<typeof loadClusterInput>>, 1 | 2>;
    explain: boolean;
    podFilter: string[] | undefined;
    explainStore: SpillExplanationStore | undefined;
  },
): Promise<number> {
  const { seed, top, timing } = ctx.flags;
  const { emulation, config, loaded, explain, podFilter, explainStore } = o;
  let result: Awaited<ReturnType<typeof simulate>>;
  const progress = startProgress(ctx, ctx.flags.progress, {
    label: "simulate",
    total: pendingPods(loaded.objects),
  });
  try {
    result = await simulate({
      config,
      registry: ctx.registry,
      objects: loaded.objects,
      refusedPods: loaded.refusedPods,
      logger: ctx.logger,
      ...schedulerEmulation(emulation),
      seed,
      deleteLatencyMs: ctx.flags["delete-latency"],
      explain,
      ...(podFilter ? { explainPods: podFilter } : {}),
      ...(explainStore ? { explainStore } : {}),
      timing: timing === true,
      observer: progress.observer(),
    });
  } catch (e) {
    if (!(e instanceof AdmissionError)) throw e;
    printErrors(ctx, e.errors);
    return 1;
  } finally {
    progress.stop();
  }
  if (result.summary.pods === 0) {
    ctx.io.stderr(`warning: no pending pods (pods without spec.nodeName) in ${loaded.source}\n`);
  }
  for (const p of podFilter ?? []) {
    if (!result.pods.some((r) => `${r.namespace}/${r.name}` === p)) {
      ctx.io.stderr(`warning: --pod ${p}: no such pending pod\n`);
    }
  }
  const format: OutputFormat = ctx.flags.output;
  const { out, report } = ctx.flags;
  if (!writeOutputChunks(ctx, out, resultChunks(result, format, top))) return 1;
  if (report !== undefined) {
    if (!writeFile(ctx, report, renderReport({ simulation: result, subtitle: reportSubtitle(ctx, explain) })))
      return 1;
  }
  if (format === "table" && result.summary.wallMs !== null) {
    ctx.io.stderr(
      `scheduled ${result.summary.scheduled} pods in ${result.summary.wallMs} ms (${result.summary.podsPerSecond} pods/s)\n`,
    );
  }
  return 0;
}
