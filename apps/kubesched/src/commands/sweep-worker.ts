// A worker process of `kubesched sweep` (run by tinypool): runs one cell per task with the in-tree
// plugins and the plugin packages the command loaded (loaded again here: a registry holds code,
// which cannot cross processes), and answers with the cell's result or the errors its run printed.
// A worker lives for one sweep: the snapshots it parses are kept for its next cells.
import { ParsedInputCache } from "@kubesched/cluster";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createLogger } from "@kubesched/scheduler";
import type { CommandContext } from "../cli";
import { loadPlugins, type PluginRequest } from "../plugins/plugin-packages";
import { runCell, SweepCellError, type SweepCellResult } from "./sweep-cell";
import type { SweepCell, SweepMatrixFile } from "./sweep-matrix";

export interface SweepTask {
  matrix: SweepMatrixFile;
  cell: SweepCell;
  plugins: PluginRequest[];
  maxInputBytes: number;
}

export type SweepTaskResult = { result: SweepCellResult } | { errors: string[] };

type ImportModule = (url: string) => Promise<unknown>;

let context: { key: string; ctx: Promise<CommandContext<unknown>> } | undefined;

function contextFor(
  plugins: PluginRequest[],
  importModule: ImportModule | undefined,
): Promise<CommandContext<unknown>> {
  const key = JSON.stringify(plugins);
  if (context?.key !== key) {
    const quiet = () => {};
    const ctx = loadPlugins(plugins, inTreeRegistry, importModule ? { importModule } : {}).then(
      ({ registry, loaded }): CommandContext<unknown> => ({
        flags: {},
        args: [],
        io: {
          stdout: quiet,
          stderr: quiet,
          cwd: process.cwd(),
          env: process.env,
          stderrTerminal: false,
          stderrDrawing: quiet,
        },
        registry,
        pluginPackages: loaded,
        logger: createLogger({ verbosity: 0, format: "text", write: quiet }),
      }),
    );
    context = { key, ctx };
  }
  return context.ctx;
}

/**
 * The task function of a worker; `importModule` imports plugin packages (default `import()`).
 * The CLI hands a worker its next cell while the current one runs: cells run one after the other
 * all the same, in the order they came.
 */
export function sweepWorker(importModule?: ImportModule): (task: SweepTask) => Promise<SweepTaskResult> {
  const parsedInputs = new ParsedInputCache();
  const runTask = async (task: SweepTask): Promise<SweepTaskResult> => {
    try {
      const ctx = await contextFor(task.plugins, importModule);
      return { result: await runCell(ctx, task.matrix, task.cell, task.maxInputBytes, parsedInputs) };
    } catch (e) {
      if (e instanceof SweepCellError) return { errors: [...e.errors] };
      return { errors: [e instanceof Error ? e.message : String(e)] };
    }
  };
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const next = last.then(() => runTask(task));
    last = next;
    return next;
  };
}

export default sweepWorker();
