// What the user runs, in process, on inputs the API server (or kube-scheduler) would refuse or
// that try to break the CLI: each gets one `error: WHERE: WHAT` line (or a warning) naming the
// file, object and field, and the command keeps its exit codes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-input-validation-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: tmp });
  return { code, stdout, stderr };
}

function file(name: string, text: string): string {
  writeFileSync(join(tmp, name), text);
  return name;
}

const configHead = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

describe("kubesched config validate", () => {
  it("rejects Object.prototype's keys as unknown fields, in args and at the top level", async () => {
    const f = file(
      "prototype-keys.yaml",
      `${configHead}constructor: 1\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {toString: x, hasOwnProperty: 1, __proto__: {a: 1}}\n`,
    );
    expect(await run("config", "validate", f)).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        `${f}: constructor: unknown field`,
        `${f}: profiles[0].pluginConfig[0].args.toString: unknown field`,
        `${f}: profiles[0].pluginConfig[0].args.hasOwnProperty: unknown field`,
        `${f}: profiles[0].pluginConfig[0].args.__proto__: unknown field`,
        "",
      ].join("\n"),
    });
  });

  it("rejects negative plugin weights", async () => {
    const f = file(
      "negative-weight.yaml",
      `${configHead}profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeResourcesFit, weight: -3}]\n`,
    );
    const r = await run("config", "validate", f);
    expect(r.stderr).toBe(
      `${f}: profiles[0].plugins.score.enabled[0].weight: Invalid value: -3: must be greater than or equal to 0\n`,
    );
    expect(r.code).toBe(1);
  });
});
