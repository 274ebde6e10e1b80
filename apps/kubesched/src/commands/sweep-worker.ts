// A worker process of `kubesched sweep` (run by tinypool): one task per sweep, the matrix and its
// cells in order; the worker runs every cell it claims before another process does (CellClaims),
// with the in-tree plugins and the plugin packages the command loaded (loaded again here: a
// registry holds code, which cannot cross processes), and answers with its cells' results and
// the errors of those that failed. The snapshots it parses are kept for its next cells.
import { ParsedInputCache } from "@kubesched/cluster";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createLogger } from "@kubesched/scheduler";
import type { CommandContext } from "../cli";
import { loadPlugins, type PluginRequest } from "../plugins/plugin-packages";
import { runCell, runClaimedCells, SweepCellError, type SweepCellRuns } from "./sweep-cell";
import type { SweepCell, SweepMatrixFile } from "./sweep-matrix";
import { CellClaims } from "./sweep-schedule";

export interface SweepTask {
  matrix: SweepMatrixFile;
  /** Every cell of the sweep (or shard), in the order processes take them. */
  cells: SweepCell[];
  /** CellClaims' folder, shared with the CLI's process and the other workers. */
  claims: string;
  plugins: PluginRequest[];
  maxInputBytes: number;
}

export type SweepTaskResult = SweepCellRuns;

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
 * The task function of a worker; `importModule` imports plugin packages (default `import()`). The
 * CLI sends a task before it checks the inputs, so the worker takes its first cell as soon as it
 * has loaded; when the checks fail, the CLI ends the worker and nothing it ran is used. A worker
 * whose CLI process has gone (its IPC channel closed) takes no further cell.
 */
export function sweepWorker(importModule?: ImportModule): (task: SweepTask) => Promise<SweepTaskResult> {
  const parsedInputs = new ParsedInputCache();
  return async (task) => {
    // The plugins are loaded before the first claim, whether or not a cell is left for this worker.
    const ctx = await contextFor(task.plugins, importModule).catch((e: unknown) =>
      e instanceof Error ? e : new Error(String(e)),
    );
    const claims = CellClaims.at(task.claims);
    return runClaimedCells(
      task.cells,
      (i) => claims.claim(i),
      async (cell: SweepCell) => {
        if (ctx instanceof Error) throw new SweepCellError(cell, [ctx.message]);
        try {
          return await runCell(ctx, task.matrix, cell, task.maxInputBytes, parsedInputs);
        } catch (e) {
          if (e instanceof SweepCellError) throw e;
          throw new SweepCellError(cell, [e instanceof Error ? e.message : String(e)]);
        }
      },
      // No further cell once the CLI's process is gone (killed, say): nobody would read it. A
      // turn of the event loop first, in which the closed channel is noticed.
      () => new Promise((r) => setImmediate(() => r(process.connected !== false))),
    );
  };
}

export default sweepWorker();
