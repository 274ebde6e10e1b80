// The CLI run in process for tests: its exit code and what it wrote on stdout and stderr.
import { type CliIO, runCli } from "../cli";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `kubesched ...argv` in `cwd`; `io` adds to (or replaces) the captured stdout/stderr. */
export async function runCliIn(cwd: string, argv: string[], io: Partial<CliIO> = {}): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd, ...io });
  return { code, stdout, stderr };
}
