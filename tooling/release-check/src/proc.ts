// Running commands for the round trip: output captured, failures thrown with what the command said.
import { spawn } from "node:child_process";

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Let a non-zero exit through (the caller looks at `code`). */
  allowFailure?: boolean;
  timeoutMs?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class CommandError extends Error {
  override name = "CommandError";
}

export function run(cmd: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), opts.timeoutMs ?? 600_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new CommandError(`${cmd} ${args.join(" ")}: ${e.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const r = { code: code ?? 1, stdout, stderr };
      if ((code !== 0 || signal) && !opts.allowFailure) {
        reject(
          new CommandError(
            `${cmd} ${args.join(" ")} (in ${opts.cwd}) exited ${signal ?? code}\n--- stdout\n${stdout.slice(-4000)}\n--- stderr\n${stderr.slice(-4000)}`,
          ),
        );
      } else {
        resolve(r);
      }
    });
  });
}

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
