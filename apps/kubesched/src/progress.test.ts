// Item: long runs show progress on stderr (pods scheduled / unschedulable / pending, rate, ETA):
// on a terminal once a run takes 2 s, at once with --progress, never with --no-progress or when
// stderr is not a terminal. The CLI's own commands, through runCli.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Pod } from "@kubesched/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CliIO, CommandContext } from "./cli";
import { runCliIn } from "./commands/run-cli.test-util";
import { progressDelayMs, progressLineIntervalMs, startProgress } from "./progress";

const root = fileURLToPath(new URL("../../../", import.meta.url));

const run = (io: Partial<CliIO>, ...argv: string[]) => runCliIn(root, argv, io);

const simulateArgs = ["simulate", "--cluster", "examples/cluster.yaml", "-o", "json"];

describe("progress of simulate, capacity, diff", { timeout: 60_000 }, () => {
  it("--progress forces it on stderr (a line per update when stderr is not a terminal); stdout is unchanged", async () => {
    const plain = await run({}, ...simulateArgs);
    const shown = await run({}, ...simulateArgs, "--progress");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(plain.stdout);
    expect(plain.stderr).toBe("");
    const lines = shown.stderr.trimEnd().split("\n");
    // The last line: the final state of the 11 pending pods (2 stay gated or skipped: pending).
    expect(lines.at(-1)).toMatch(
      /^simulate \[.*\] \d+% \| 8 scheduled, 1 unschedulable, 2 pending \| \d+ pods\/s \| ETA \S+$/,
    );
    expect(shown.stderr).not.toContain("\u001b[");
  });

  it("capacity (no total: counts and rate) and diff (both runs: twice the pending pods)", async () => {
    const cap = await run(
      {},
      "capacity",
      "--cluster",
      "examples/cluster.yaml",
      "--pod",
      "examples/workloads/web-pod.yaml",
      "--progress",
    );
    expect(cap.code).toBe(0);
    expect(cap.stderr.trimEnd().split("\n").at(-1)).toMatch(
      /^capacity: \d+ pods scheduled \| \d+ unschedulable \| \d+ pods\/s$/,
    );
    const diff = await run(
      {},
      "diff",
      "--cluster",
      "examples/cluster.yaml",
      "--config",
      "default",
      "--config",
      "examples/config/default.yaml",
      "--progress",
    );
    expect(diff.code).toBe(0);
    expect(diff.stderr.trimEnd().split("\n").at(-1)).toMatch(
      /^diff \[.*\] \d+% \| 16 scheduled, 2 unschedulable, 4 pending \|/,
    );
  });

  it("off when stderr is not a terminal, and with --no-progress on a terminal", async () => {
    expect((await run({ stderrTerminal: false }, ...simulateArgs)).stderr).toBe("");
    expect((await run({ stderrTerminal: true }, ...simulateArgs, "--no-progress")).stderr).toBe("");
    // A short run on a terminal ends before the display would appear.
    expect((await run({ stderrTerminal: true }, ...simulateArgs)).stderr).toBe("");
    // -v 2 logs a line per pod on stderr: no display by default, --progress still forces it.
    expect((await run({ stderrTerminal: true }, ...simulateArgs, "-v", "2")).stderr).not.toContain(
      "simulate [",
    );
    expect((await run({ stderrTerminal: false }, ...simulateArgs, "-v", "2", "--progress")).stderr).toContain(
      "simulate [",
    );
  });
});

describe("startProgress on a terminal", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const pod = (name: string) => ({ metadata: { namespace: "default", name } }) as Pod;

  it(`appears once the run has taken ${progressDelayMs} ms, redraws in place, and clears its line at the end`, () => {
    vi.useFakeTimers({ toFake: ["performance", "Date", "setTimeout", "clearTimeout"] });
    let stderr = "";
    const ctx = {
      io: {
        stderr: (s: string) => (stderr += s),
        stderrDrawing: (s: string) => (stderr += s),
        stderrTerminal: true,
      },
      logger: { v: () => false },
    } as unknown as CommandContext;
    const progress = startProgress(ctx, undefined, { label: "simulate", total: 100 });
    const observer = progress.observer();
    for (let i = 0; i < 10; i++)
      observer.onScheduled?.(pod(`p${i}`), "n", {} as never, "default-scheduler", 1);
    expect(stderr).toBe("");
    vi.advanceTimersByTime(progressDelayMs);
    observer.onScheduled?.(pod("p10"), "n", {} as never, "default-scheduler", 1);
    expect(stderr).toContain("11 scheduled, 0 unschedulable, 89 pending | 6 pods/s");
    vi.advanceTimersByTime(1000);
    for (let i = 11; i < 50; i++)
      observer.onScheduled?.(pod(`p${i}`), "n", {} as never, "default-scheduler", 1);
    observer.onFailed?.(
      pod("p50"),
      {} as never,
      "Unschedulable",
      "",
      null,
      {} as never,
      "default-scheduler",
      1,
    );
    // Redrawn at most every 100 ms on a terminal: the end draws the last state.
    progress.stop();
    expect(stderr).toContain("50 scheduled, 1 unschedulable, 49 pending | 17 pods/s | ETA");
    // In place (cursor to column 1, rest of line cleared), and the line cleared at the end.
    expect(stderr).toContain("\u001b[1Gsimulate [");
    expect(stderr.endsWith("\u001b[1G\u001b[2K")).toBe(true);
  });
});

describe("startProgress off a terminal (--progress)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`writes a line every ${progressLineIntervalMs} ms of a run that holds the event loop`, () => {
    // Only the clocks are fake: cli-progress's own timer never fires, as in a real simulation.
    vi.useFakeTimers({ toFake: ["performance", "Date"] });
    let stderr = "";
    const ctx = {
      io: {
        stderr: (s: string) => (stderr += s),
        stderrDrawing: (s: string) => (stderr += s),
        stderrTerminal: false,
      },
      logger: { v: () => false },
    } as unknown as CommandContext;
    const progress = startProgress(ctx, true, { label: "simulate", total: 100 });
    const observer = progress.observer();
    for (let i = 0; i < 100; i++) {
      vi.advanceTimersByTime(100);
      observer.onScheduled?.(
        { metadata: { namespace: "default", name: `p${i}` } } as Pod,
        "n",
        {} as never,
        "default-scheduler",
        1,
      );
    }
    progress.stop();
    // 10 s: the first line, then one every 2 s (at 21, 41, 61, 81 pods), the last on stop.
    const lines = stderr.trimEnd().split("\n");
    expect(lines.map((l) => /\| (\d+) scheduled/.exec(l)?.[1])).toEqual(["1", "21", "41", "61", "81", "100"]);
  });
});

// The kubesched command on a pseudo-terminal (util-linux `script`): stderr is a terminal.
describe.skipIf(!existsSync("/usr/bin/script"))("kubesched on a terminal", { timeout: 120_000 }, () => {
  it("draws the progress line in place with --progress", async () => {
    const command = `node --import tsx apps/kubesched/src/bin.ts ${simulateArgs.join(" ")} --progress`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile("/usr/bin/script", ["-qec", command, "/dev/null"], { cwd: root }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    expect(out).toContain("\u001b[1Gsimulate [");
    expect(out).toMatch(/simulate \[.*\] \d+% \| \d+ scheduled/);
    expect(out).toContain('"kind": "SimulationResult"');
  });
});
