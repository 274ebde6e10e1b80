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

// biome-ignore lint/suspicious/noControlCharactersInRegex: what the terminal must never receive.
const controlButNewline = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe("terminal escape sequences in object names", () => {
  const evil = "evil\u001b[2J\nfake  Scheduled  node-x\u009b";
  const snapshot = JSON.stringify({
    kind: "List",
    items: [
      {
        kind: "Node",
        metadata: { name: "n1" },
        status: { allocatable: { cpu: "4", memory: "8Gi", pods: "110" } },
      },
      { kind: "Pod", metadata: { name: evil, namespace: "default" }, spec: { containers: [{ name: "c" }] } },
      { kind: "Widget", metadata: { name: evil } },
    ],
  });

  it("the table and explain show them escaped, one row per pod", async () => {
    const f = file("evil.json", snapshot);
    const { code, stdout, stderr } = await run("simulate", "--cluster", f, "--explain");
    expect(code).toBe(0);
    expect(stdout).not.toMatch(controlButNewline);
    expect(stdout).toMatch(/^default\/evil\^\[\[2J\\nfake {2}Scheduled {2}node-x\\u009b +Scheduled +n1 +1$/m);
    expect(stdout).toContain("default/evil^[[2J\\nfake  Scheduled  node-x\\u009b: Scheduled on n1\n");
    expect(stdout.split("\n").filter((l) => l.includes("fake"))).toHaveLength(2);
    expect(stderr).not.toMatch(controlButNewline);
  });

  it("the JSON output keeps them as JSON escapes (the value as it is)", async () => {
    const f = file("evil-json.json", snapshot);
    const { stdout } = await run("simulate", "--cluster", f, "-o", "json");
    expect((JSON.parse(stdout) as { pods: { name: string }[] }).pods[0]?.name).toBe(evil);
  });

  it("errors show them escaped, one line each", async () => {
    const f = file(
      "evil-dup.yaml",
      `kind: Pod\nmetadata: {name: "${JSON.stringify(evil).slice(1, -1)}"}\nspec: {containers: [{name: c}]}\n---\n`.repeat(
        2,
      ),
    );
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(controlButNewline);
    expect(stderr.trimEnd().split("\n")).toEqual([
      `error: ${f}: document 2 (Pod evil^[[2J\\nfake  Scheduled  node-x\\u009b): duplicate Pod default/evil^[[2J\\nfake  Scheduled  node-x\\u009b (first defined in ${f}: document 1)`,
    ]);
  });
});
