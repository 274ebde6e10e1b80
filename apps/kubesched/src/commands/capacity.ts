// kubesched capacity: how many more replicas of a pod fit, where they go, and why the next one
// does not: kubernetes-sigs/cluster-capacity's question on the simulate path, with a versioned
// output (kubesched.io/v1alpha1 CapacityReport, JSON Schema from `--schema`).
import {
  AdmissionError,
  type CapacityReport,
  capacity,
  capacityReportSchema,
  defaultFragmentationLabel,
  type FragmentationReport,
  type PodShape,
} from "@kubesched/cluster";
import { defineCommand } from "../cli";
import { boolFlag, integer, listFlag, valueFlag } from "../flags";
import { pendingPods, progressFlag, startProgress } from "../progress";
import { loadClusterInput, loadConfigFlag, loadPodTemplates, printErrors, reloadConfigFlag } from "./inputs";
import { formatted, writeOutput } from "./outputs";
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

function shapeCell(s: PodShape | null): string {
  return s ? `${s.cpu}/${s.memory} on ${s.node}` : "-";
}

/** The `--fragmentation` section of the table output. */
export function renderFragmentationTable(f: FragmentationReport): string {
  const rows = [
    [
      "GROUP",
      "NODES",
      "FREE CPU/MEMORY",
      "STRANDED CPU/MEMORY",
      "UNREACHABLE CPU/MEMORY",
      "LARGEST SHAPE (CPU FIRST)",
      "LARGEST SHAPE (MEMORY FIRST)",
    ],
    ...f.groups.map((g) => [
      g.value ?? "(no label)",
      String(g.nodes),
      `${g.free.cpu}/${g.free.memory}`,
      `${g.stranded.cpu}/${g.stranded.memory}`,
      `${g.unreachable.cpu}/${g.unreachable.memory}`,
      shapeCell(g.largestShapes.cpuFirst),
      shapeCell(g.largestShapes.memoryFirst),
    ]),
  ];
  return [
    `Fragmentation, nodes grouped by ${f.groupBy} (reference pods: ${f.referencePods.join(", ")}):`,
    pad(rows),
    `Largest shape anywhere: ${shapeCell(f.largestShapes.cpuFirst)} (cpu first), ${shapeCell(f.largestShapes.memoryFirst)} (memory first)`,
  ].join("\n");
}

export function renderCapacityTable(report: CapacityReport): string {
  const r = forTerminal(report);
  const lines: string[] = [];
  for (const p of r.status.pods) {
    lines.push(`${p.podName}: ${p.replicas} replica(s) fit`);
    for (const n of p.replicasOnNodes) lines.push(`  ${n.nodeName}: ${n.replicas}`);
    lines.push(`  stopped: ${p.failReason.failType}: ${p.failReason.failMessage}`);
    for (const f of p.failSummary) lines.push(`    ${f.count} ${f.reason}`);
  }
  lines.push("", `${r.status.replicas} replica(s) in total`);
  if (r.status.fragmentation) lines.push("", renderFragmentationTable(r.status.fragmentation));
  return `${lines.join("\n")}\n`;
}

export const capacityCommand = defineCommand({
  name: "capacity",
  summary: "How many more replicas of a pod fit the cluster, where they go, and why the next one does not.",
  flags: [
    ...clusterInputFlags,
    listFlag({
      name: "pod",
      value: "FILE",
      description:
        "The pod to count (a Pod manifest); several --pod files are filled in order, each in what the previous left. Repeatable.",
    }),
    valueFlag({
      name: "max",
      value: "N",
      description: "Stop after N replicas over all pods (cluster-capacity's --max-limit); default: no limit.",
      parse: integer(0, Number.POSITIVE_INFINITY, "must be a non-negative integer"),
    }),
    configFlag,
    pluginFlag,
    optionsFlag,
    ...emulationFlags,
    seedFlag,
    outputFlag,
    outFlag("the report"),
    boolFlag({
      name: "fragmentation",
      description:
        "Also report the stranded capacity the run leaves, per node group: free cpu on nodes whose memory is full and the reverse, free capacity on nodes no template or pending pod may use, and the largest pod shape like the first --pod that still fits.",
    }),
    valueFlag({
      name: "group-by",
      value: "LABEL",
      description: `The node label --fragmentation groups nodes by (default ${defaultFragmentationLabel}).`,
    }),
    boolFlag({ name: "schema", description: "Print the JSON Schema of the CapacityReport output and exit." }),
    progressFlag,
  ],
  async run(ctx) {
    if (ctx.flags.schema === true) {
      ctx.io.stdout(`${JSON.stringify(capacityReportSchema, null, 2)}\n`);
      return 0;
    }
    const podFiles = ctx.flags.pod;
    if (podFiles.length === 0) {
      ctx.io.stderr("error: --pod is required (a Pod manifest whose replicas are counted)\n");
      return 2;
    }
    const { seed, max = 0 } = ctx.flags;
    const groupBy = ctx.flags["group-by"];
    if (groupBy !== undefined && ctx.flags.fragmentation !== true) {
      ctx.io.stderr("error: --group-by: only with --fragmentation\n");
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
    const templates = loadPodTemplates(ctx, podFiles, ctx.flags["max-input-size"]);
    if (templates === null) return 1;
    let report: CapacityReport;
    // The snapshot's pending pods, then the replicas: how many is what capacity finds out.
    const progress = startProgress(ctx, ctx.flags.progress, {
      label: "capacity",
      ...(max > 0 ? { total: pendingPods(loaded.objects) + max } : {}),
    });
    try {
      report = await capacity({
        config,
        registry: ctx.registry,
        objects: loaded.objects,
        templates,
        logger: ctx.logger,
        ...schedulerEmulation(emulation),
        seed,
        ...(max > 0 ? { maxReplicas: max } : {}),
        ...(ctx.flags.fragmentation === true
          ? { fragmentation: groupBy !== undefined ? { groupBy } : {} }
          : {}),
        observer: progress.observer(),
      });
    } catch (e) {
      if (!(e instanceof AdmissionError)) throw e;
      printErrors(ctx, e.errors);
      return 1;
    } finally {
      progress.stop();
    }
    const text = formatted(ctx.flags.output, report, () => renderCapacityTable(report));
    return writeOutput(ctx, ctx.flags.out, text) ? 0 : 1;
  },
});
