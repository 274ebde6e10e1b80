// A command run as a child process with its wall time and peak RSS: `/usr/bin/time -v` when
// present, else the child's /proc/PID/status VmHWM polled. The bench's CLI measurements
// (`pnpm bench:newcomer`, the `pnpm bench` CLI rows) run through it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";

const gnuTime = "/usr/bin/time";

export interface MeasuredRun {
  exitCode: number | null;
  /** Wall time of the whole command, in seconds. */
  wallSeconds: number;
  /** Peak RSS in MB (0 when it could not be measured). */
  peakRssMB: number;
  /** How peak RSS was measured. */
  rssFrom: "time -v" | "VmHWM";
  /** User + system CPU seconds of the command (`time -v`; null without it): less load-bound than wall time. */
  cpuSeconds: number | null;
  /** Load average (1, 5, 15 min) when the run started. */
  load: string;
  stderr: string;
}

/** Polls a process's VmHWM (peak RSS, kB) until it exits. */
function pollPeakRss(pid: number): { stop(): number } {
  let peak = 0;
  const read = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]));
    } catch {
      // exited
    }
  };
  const timer = setInterval(read, 50);
  read();
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * Runs `node ...args` in `cwd` and measures it. `onStderr` sees stderr as it comes (`time -v`'s
 * report included, at the end).
 */
export async function runMeasured(
  args: readonly string[],
  cwd: string,
  onStderr?: (all: string) => void,
): Promise<MeasuredRun> {
  const useTime = existsSync(gnuTime);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const started = performance.now();
  const child = useTime
    ? spawn(gnuTime, ["-v", process.execPath, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, [...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const poll = useTime || child.pid === undefined ? null : pollPeakRss(child.pid);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
    onStderr?.(stderr);
  });
  child.stdout.resume();
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  let peakKB = poll?.stop() ?? 0;
  let cpuSeconds: number | null = null;
  if (useTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    peakKB = m ? Number(m[1]) : 0;
    const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
    const sys = /System time \(seconds\): ([\d.]+)/.exec(stderr);
    if (user && sys) cpuSeconds = Number(user[1]) + Number(sys[1]);
  }
  return {
    exitCode,
    wallSeconds,
    peakRssMB: peakKB / 1024,
    rssFrom: useTime ? "time -v" : "VmHWM",
    cpuSeconds,
    load,
    stderr,
  };
}
