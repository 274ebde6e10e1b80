// The README's command forms in a checkout, through pnpm itself: `pnpm kubesched …` runs the
// workspace's bin (bin/kubesched.js: src/bin.ts through tsx). Its stdout is kubesched's alone (a
// pnpm script would print a "> kubesched-monorepo@ kubesched …" banner there first), and relative
// paths resolve in the folder the command was typed in (pnpm runs the bin from the root).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * pnpm's CLI: the one running the tests (`pnpm test`), else a `pnpm` on PATH, else pnpm 9 through
 * npx (the README's `npx -y pnpm@9`, from npm's cache when it has it).
 */
function findPnpm(): string[] {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm\.c?js$/.test(execpath)) return [process.execPath, execpath];
  const onPath = (process.env.PATH ?? "").split(delimiter).find((d) => d && existsSync(join(d, "pnpm")));
  return onPath ? [join(onPath, "pnpm")] : ["npx", "--prefer-offline", "-y", "pnpm@9"];
}

function run(cmd: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No "update available" box from pnpm on stderr.
    const env = { ...process.env, npm_config_update_notifier: "false" };
    const child = spawn(cmd[0] as string, cmd.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const pnpm = findPnpm();

// Each run starts pnpm, then node with tsx: slow on a loaded machine.
describe("pnpm kubesched … in a checkout (the README's form)", { timeout: 180_000 }, () => {
  const kubesched = (cwd: string, ...argv: string[]) => run([...pnpm, "kubesched", ...argv], cwd);

  it("`pnpm kubesched simulate … -o json > out.json` writes JSON and nothing else", async () => {
    const r = await kubesched(root, "simulate", "--cluster", "examples/cluster.yaml", "-o", "json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("{\n")).toBe(true);
    expect((JSON.parse(r.stdout) as { kind: string }).kind).toBe("SimulationResult");
  });

  // pnpm runs the bin from the root; kubesched finds the folder pnpm was started in (/proc on Linux).
  it.skipIf(process.platform !== "linux")(
    "`cd examples && pnpm kubesched simulate --cluster cluster.yaml`: paths are relative to examples/",
    async () => {
      const r = await kubesched(
        join(root, "examples"),
        "simulate",
        "--cluster",
        "cluster.yaml",
        "-o",
        "json",
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { pods: unknown[] }).pods).toHaveLength(11);
      const capacity = await kubesched(
        join(root, "examples", "workloads"),
        "capacity",
        "--cluster",
        "../cluster.yaml",
        "--pod",
        "web-pod.yaml",
        "--config",
        "../config/default.yaml",
      );
      expect(capacity.stderr).toBe("");
      expect(capacity.stdout).toContain("28 replica(s) in total");
    },
  );
});
