// kubesched simulate: the contract in ARCHITECTURE.md (flags, SimulationResult, determinism).
import { writeFileSync } from "node:fs";
import { quantityMilliValue, quantityValue } from "@kubesched/api";
import { AdmissionError, loadSnapshotFiles, SnapshotLoadError, simulate } from "@kubesched/cluster";
import { customResourcesOf } from "@kubesched/framework";
import type { CommandSpec } from "../cli";
import { loadConfigFlag, resolvePath } from "./common";
import { type OutputFormat, renderResult } from "./simulate-output";

function safe(parse: (s: string) => number): (s: string) => number {
  return (s) => {
    try {
      return parse(s);
    } catch {
      return 0;
    }
  };
}

export const simulateCommand: CommandSpec = {
  name: "simulate",
  summary: "Schedule a cluster snapshot's pending pods and report where each pod went and why.",
  flags: [
    {
      name: "config",
      value: "FILE",
      description:
        "A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); default: upstream's defaults.",
    },
    {
      name: "cluster",
      value: "PATH",
      repeatable: true,
      description:
        "Kubernetes objects (YAML or JSON: objects, lists, kubectl output); a directory means every *.yaml/*.yml/*.json in it. Repeatable.",
    },
    {
      name: "output",
      short: "o",
      value: "FORMAT",
      values: ["table", "json", "yaml"],
      default: "table",
      description: "Output format.",
    },
    { name: "explain", description: "Add each plugin's filter and score results (the deciding attempt)." },
    {
      name: "seed",
      value: "N",
      default: "0",
      description: "Seed for tie-breaking and other random choices.",
    },
    { name: "out", value: "FILE", description: "Write the result to FILE instead of stdout." },
    {
      name: "timing",
      description:
        "Measure wall time (summary.wallMs, podsPerSecond); the output is then no longer reproducible.",
    },
  ],
  async run(ctx) {
    const clusters = ctx.lists.cluster ?? [];
    if (clusters.length === 0) {
      ctx.io.stderr("error: --cluster is required (a file or directory of Kubernetes objects)\n");
      return 2;
    }
    const seedFlag = ctx.flags.seed;
    const seed = typeof seedFlag === "string" ? Number(seedFlag) : 0;
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      ctx.io.stderr(
        `error: invalid value "${String(seedFlag)}" for --seed: must be an integer from 0 to 4294967295\n`,
      );
      return 2;
    }
    const config = loadConfigFlag(ctx);
    if (config === null) return 1;
    let loaded: ReturnType<typeof loadSnapshotFiles>;
    try {
      loaded = loadSnapshotFiles(clusters, ctx.io.cwd, { customResources: customResourcesOf(ctx.registry) });
    } catch (e) {
      if (!(e instanceof SnapshotLoadError)) throw e;
      for (const line of e.errors) ctx.io.stderr(`error: ${line}\n`);
      return 1;
    }
    for (const w of loaded.warnings) ctx.io.stderr(`warning: ${w}\n`);
    let result: Awaited<ReturnType<typeof simulate>>;
    try {
      result = await simulate({
        config,
        registry: ctx.registry,
        objects: loaded.objects,
        logger: ctx.logger,
        seed,
        explain: ctx.flags.explain === true,
        timing: ctx.flags.timing === true,
      });
    } catch (e) {
      if (!(e instanceof AdmissionError)) throw e;
      for (const line of e.errors) ctx.io.stderr(`error: ${line}\n`);
      return 1;
    }
    const format = (typeof ctx.flags.output === "string" ? ctx.flags.output : "table") as OutputFormat;
    const text = renderResult(result, format, safe(quantityMilliValue), safe(quantityValue));
    const out = ctx.flags.out;
    if (typeof out === "string") writeFileSync(resolvePath(ctx, out), text);
    else ctx.io.stdout(text);
    if (format === "table" && result.summary.wallMs !== null) {
      ctx.io.stderr(
        `scheduled ${result.summary.scheduled} pods in ${result.summary.wallMs} ms (${result.summary.podsPerSecond} pods/s)\n`,
      );
    }
    return 0;
  },
};
