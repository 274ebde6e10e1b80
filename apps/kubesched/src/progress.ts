// The progress display of long runs (simulate, capacity, diff): on stderr, pods scheduled /
// unschedulable / pending, the rate and the ETA, drawn by cli-progress (a bar with its own ETA,
// any output stream, a line-per-update mode for streams that are not terminals, one small
// dependency, plain CommonJS that runs on every Node; ora draws a spinner with no ETA, listr2 and
// @clack/prompts are built for task lists and prompts).
// Shown when stderr is a terminal (and -v is below 2) and the run has taken 2 s, or at once with --progress;
// --no-progress never. The scheduler's observer drives it: a simulation runs in one stretch of
// the event loop, so every redraw happens on a scheduling event, never on a timer.

import { Writable } from "node:stream";
import type { Pod } from "@kubesched/api";
import type { SchedulingObserver } from "@kubesched/scheduler";
import cliProgress from "cli-progress";
import type { CommandContext } from "./cli";
import { boolFlag } from "./flags";

export const progressFlag = boolFlag({
  name: "progress",
  description:
    "Show progress on stderr (pods scheduled, unschedulable and pending, pods/s, ETA). Default: when stderr is a terminal, once a run takes 2 s; --no-progress: never.",
});

/** How long a run goes before the progress display appears (when not forced). */
export const progressDelayMs = 2000;
/**
 * How often a line is written when stderr is not a terminal. cli-progress writes those lines from
 * a timer, which never fires while a simulation holds the event loop: they are written here, on
 * the scheduling events.
 */
export const progressLineIntervalMs = 2000;

export interface Progress {
  /** An observer to give a simulation; `run` tells runs over the same pods apart (diff's two). */
  observer(run?: string): SchedulingObserver;
  /** Ends the display (it clears its line on a terminal). Call before writing the output. */
  stop(): void;
}

const noProgress: Progress = { observer: () => ({}), stop() {} };

/** stderr as a stream for cli-progress: a terminal's width and isTTY, or a plain text stream. */
function stderrStream(ctx: CommandContext): NodeJS.WritableStream & { isTTY?: boolean; columns?: number } {
  const stream = new Writable({
    write(chunk, _enc, done) {
      ctx.io.stderrDrawing(String(chunk));
      done();
    },
  });
  // write() is synchronous here (the simulation holds the event loop until it ends).
  stream.write = (chunk: unknown) => {
    ctx.io.stderrDrawing(String(chunk));
    return true;
  };
  if (ctx.io.stderrTerminal) {
    return Object.assign(stream, {
      isTTY: true,
      get columns() {
        return process.stderr.columns ?? 80;
      },
    });
  }
  return stream;
}

const podKey = (pod: Pod) => `${pod.metadata?.namespace ?? "default"}/${pod.metadata?.name ?? ""}`;

/**
 * A progress display for `total` pods (unknown: no bar and no ETA, e.g. capacity's replicas),
 * per --progress and whether stderr is a terminal.
 */
export function startProgress(
  ctx: CommandContext,
  forced: boolean | undefined,
  what: { label: string; total?: number },
): Progress {
  // By default not at -v 2 and up either: a log line per pod shares stderr with the display.
  if (forced === false) return noProgress;
  if (forced === undefined && (!ctx.io.stderrTerminal || ctx.logger.v(2))) return noProgress;
  const total = what.total;
  const started = performance.now();
  const scheduled = new Set<string>();
  const unschedulable = new Set<string>();
  let bar: cliProgress.SingleBar | undefined;
  let lastLine = 0;

  const payload = () => {
    const seconds = (performance.now() - started) / 1000;
    const done = scheduled.size + unschedulable.size;
    return {
      label: what.label,
      scheduled: scheduled.size,
      unschedulable: unschedulable.size,
      pending: total === undefined ? 0 : Math.max(0, total - done),
      rate: seconds > 0 ? Math.round(scheduled.size / seconds) : 0,
    };
  };
  const format =
    total === undefined
      ? "{label}: {scheduled} pods scheduled | {unschedulable} unschedulable | {rate} pods/s"
      : "{label} [{bar}] {percentage}% | {scheduled} scheduled, {unschedulable} unschedulable, {pending} pending | {rate} pods/s | ETA {eta_formatted}";

  const update = () => {
    const p = payload();
    const value = p.scheduled + p.unschedulable;
    if (bar === undefined) {
      if (forced !== true && performance.now() - started < progressDelayMs) return;
      bar = new cliProgress.SingleBar(
        {
          format,
          stream: stderrStream(ctx),
          noTTYOutput: true,
          clearOnComplete: true,
          hideCursor: false,
          barsize: 24,
          etaBuffer: 200,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total ?? 0, value, p);
      lastLine = performance.now();
      return;
    }
    bar.update(value, p);
    if (!ctx.io.stderrTerminal && performance.now() - lastLine >= progressLineIntervalMs) {
      bar.render();
      lastLine = performance.now();
    }
  };

  return {
    observer(run = "") {
      const key = (pod: Pod) => `${run}${podKey(pod)}`;
      return {
        onScheduled(pod) {
          scheduled.add(key(pod));
          unschedulable.delete(key(pod));
          update();
        },
        onFailed(pod) {
          if (!scheduled.has(key(pod))) unschedulable.add(key(pod));
          update();
        },
      };
    },
    stop() {
      if (forced === true && bar === undefined) update();
      bar?.stop();
      bar = undefined;
    },
  };
}

/** The pods a snapshot leaves to schedule: its pods without spec.nodeName. */
export function pendingPods(objects: readonly { kind: string; obj: unknown }[]): number {
  let n = 0;
  for (const o of objects) if (o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName) n++;
  return n;
}
