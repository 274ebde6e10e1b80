// `simulate --explain` writes its output pod by pod, each explanation read back from the file it
// was spilled to as it was recorded: the text is the one the whole result gives at once
// (JSON.stringify with two spaces, toYAML), to stdout and to --out.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSnapshotFiles, simulate } from "@kubesched/cluster";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { afterAll, describe, expect, it } from "vitest";
import { jsonChunks, toYAML, yamlChunks } from "./outputs";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = (...argv: string[]) => runCliIn(root, argv);
const tmp = mkdtempSync(join(tmpdir(), "kubesched-explain-stream-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The whole result at once, explanations in memory: what the output was before it streamed. */
async function wholeResult(file: string, explainPods?: string[]) {
  return simulate({
    config: defaultConfig({ registry: inTreeRegistry }),
    registry: inTreeRegistry,
    objects: loadSnapshotFiles([join(root, file)]).objects,
    logger: recordingLogger(),
    explain: true,
    ...(explainPods ? { explainPods } : {}),
  });
}

describe("simulate --explain, streamed", () => {
  it.each([
    ["examples/cluster.yaml", []],
    ["examples/preemption.yaml", []],
    ["examples/cluster.yaml", ["shop/web-1", "default/render-xl"]],
  ])("%s %j: -o json and -o yaml are the whole result's text; --out the same", async (file, pods) => {
    const podFlags = pods.flatMap((p) => ["--pod", p]);
    const whole = await wholeResult(file, pods.length ? pods : undefined);
    const json = await run("simulate", "--cluster", file, "--explain", ...podFlags, "-o", "json");
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    const yaml = await run("simulate", "--cluster", file, "--explain", ...podFlags, "-o", "yaml");
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toBe(toYAML(whole));
    const out = join(tmp, "out.json");
    const toFile = await run(
      "simulate",
      "--cluster",
      file,
      "--explain",
      ...podFlags,
      "-o",
      "json",
      "--out",
      out,
    );
    expect(toFile).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(out, "utf8")).toBe(json.stdout);
  });

  it("leaves no spill file behind", async () => {
    // The spill goes to the temporary directory: this test's own (test files run in processes
    // of their own, so TMPDIR is this file's to change).
    const spillParent = mkdtempSync(join(tmp, "tmpdir-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = spillParent;
    try {
      expect((await run("simulate", "--cluster", "examples/cluster.yaml", "--explain")).code).toBe(0);
      expect(
        (await run("simulate", "--cluster", "examples/cluster.yaml", "--explain", "--out", tmp)).code,
      ).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(readdirSync(spillParent)).toEqual([]);
  });

  it("--out to a directory: the one error line, and no spill file kept", async () => {
    const r = await run("simulate", "--cluster", "examples/cluster.yaml", "--explain", "--out", tmp);
    expect(r).toEqual({ code: 1, stdout: "", stderr: `error: ${tmp}: cannot write: is a directory\n` });
  });
});

describe("jsonChunks", () => {
  const values: unknown[] = [
    { kind: "X", pods: [{ a: 1, b: { c: [1, 2, { d: "e\nf" }] } }, { a: 2 }], empty: [], none: {}, n: null },
    { skipped: undefined, f: () => 1, arr: [undefined, () => 1, "s"], date: new Date(0) },
    [],
    {},
    "text",
    42,
    null,
    [[[]], [{}], { x: [{ y: [] }] }],
  ];
  it.each([0, 1, 2, 3, 5])("depth %i: the text of JSON.stringify(value, null, 2)", (depth) => {
    for (const v of values) expect([...jsonChunks(v, depth)].join("")).toBe(JSON.stringify(v, null, 2));
  });
});

describe("yamlChunks", () => {
  it("the text of toYAML(value), multi-line strings and nested lists included", () => {
    const v = {
      kind: "X",
      pods: [
        { name: "a", message: "line 1\nline 2\n", list: [1, [2, 3], { k: "v" }] },
        { name: "b", empty: [] },
      ],
      preemptions: [],
      nodes: [{ name: "n", allocatable: {} }],
      summary: { pods: 2, wallMs: null },
    };
    expect([...yamlChunks(v)].join("")).toBe(toYAML(v));
  });
});
