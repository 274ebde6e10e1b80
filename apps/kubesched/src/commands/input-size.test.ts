// --max-input-size and inputs that never end (/dev/zero, a FIFO): what simulate, capacity and diff
// read of --cluster (and --pod) stops at the limit with one error line saying how to raise it.
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-input-size-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...argv: string[]) => runCliIn(root, argv);

const cluster = "examples/cluster.yaml";
const size = statSync(join(root, cluster)).size;
const tooLarge = (file: string, limit: string) =>
  `error: ${file}: the input is larger than --max-input-size ${limit} (over all inputs read); give a larger --max-input-size to read it\n`;

describe("--max-input-size", () => {
  it("simulate, capacity and diff stop reading --cluster past the limit, with an error saying so", async () => {
    const pod = join(tmp, "pod.yaml");
    writeFileSync(
      pod,
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n",
    );
    for (const argv of [
      ["simulate"],
      ["capacity", "--pod", pod],
      ["diff", "--config", "examples/config/default.yaml", "--config", "examples/config/bin-packing.yaml"],
    ]) {
      const r = await run(...argv, "--cluster", cluster, "--max-input-size", "1Ki");
      expect(r.stderr, argv[0]).toBe(tooLarge(cluster, "1Ki"));
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
    }
  });

  it("counts every --cluster file; a limit that fits reads them all", async () => {
    const twice = await run(
      "simulate",
      "--cluster",
      cluster,
      "--cluster",
      cluster,
      "--max-input-size",
      String(size),
    );
    expect(twice.stderr).toBe(tooLarge(cluster, `${size} bytes`));
    const once = await run("simulate", "--cluster", cluster, "--max-input-size", String(size));
    expect(once.stderr).toBe("");
    expect(once.code).toBe(0);
  });

  it("each --pod file of capacity is read up to the limit too", async () => {
    const big = join(tmp, "big-pod.yaml");
    writeFileSync(
      big,
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {pad: "${"x".repeat(60)}"}}\nspec: {containers: [{name: c, image: i}]}\n${"# padding\n".repeat(Math.ceil(size / 10))}`,
    );
    const r = await run("capacity", "--cluster", cluster, "--pod", big, "--max-input-size", String(size));
    expect(r.stderr).toBe(tooLarge(big, `${size} bytes`));
    expect(r.code).toBe(1);
  });

  it("takes quantities; anything else is a usage error", async () => {
    expect((await run("simulate", "--cluster", cluster, "--max-input-size", "1Mi")).code).toBe(0);
    for (const bad of ["foo", "0", "-1Ki"]) {
      const r = await run("simulate", "--cluster", cluster, "--max-input-size", bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: invalid value "${bad}" for --max-input-size: `));
    }
  });

  it("the help names the flag and its default", async () => {
    for (const cmd of ["simulate", "capacity", "diff"]) {
      const r = await run(cmd, "--help");
      expect(r.stdout, cmd).toMatch(/--max-input-size SIZE .*\(default 1Gi\)/);
    }
  });
});

describe("inputs that are not files", () => {
  it.skipIf(process.platform === "win32")("--cluster /dev/zero is refused at once", async () => {
    const r = await run("simulate", "--cluster", "/dev/zero");
    expect(r.stderr).toBe("error: /dev/zero: line 1: not a text file (a NUL byte); expected YAML or JSON\n");
    expect(r.code).toBe(1);
  });
});
