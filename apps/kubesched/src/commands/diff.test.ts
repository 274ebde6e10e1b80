// kubesched diff, in process: the bundled examples, a generated 5000-node cluster, errors.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { writeGeneratedCluster } from "./generated-cluster.test-util";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-diff-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...argv: string[]) => runCliIn(root, argv);

interface Diff {
  kind: string;
  changed: number;
  pods: {
    name: string;
    a: { node: string | null };
    b: { node: string | null };
    why: string | null;
    decidingScore: { plugin: string } | null;
  }[];
  summary: { a: { label: string; nodesUsed: number }; b: { label: string; nodesUsed: number } };
}

describe("kubesched diff", () => {
  it("default vs bin-packing on the bundled example: which pods move and which plugin moved them", async () => {
    const argv = [
      "diff",
      "--cluster",
      "examples/cluster.yaml",
      "--config",
      "default",
      "--config",
      "examples/config/bin-packing.yaml",
    ];
    const json = await run(...argv, "-o", "json");
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
    const d = JSON.parse(json.stdout) as Diff;
    expect(d.kind).toBe("SimulationDiff");
    expect(d.summary.a.label).toBe("default");
    expect(d.summary.b.label).toBe("examples/config/bin-packing.yaml");
    const web1 = d.pods.find((p) => p.name === "web-1");
    expect(web1?.a.node).not.toBe(web1?.b.node);
    expect(web1?.decidingScore?.plugin).toBe("NodeResourcesFit");
    expect(d.changed).toBe(d.pods.filter((p) => p.why !== null).length);
    const table = await run(...argv);
    expect(table.stdout).toContain(`${d.changed} of 11 pending pods placed differently (seed 0)`);
    expect(table.stdout).toMatch(/\nshop\/web-1 +node-\S+ +node-\S+ +default scored /);
    expect(table.stdout).toMatch(/\nnodes used +\d+ +\d+\n/);
  });

  it("--report writes the diff as a self-contained HTML report", async () => {
    const file = join(tmp, "diff.html");
    const r = await run(
      "diff",
      "--cluster",
      "examples/cluster.yaml",
      "--config",
      "default",
      "--config",
      "examples/config/bin-packing.yaml",
      "--report",
      file,
      "-o",
      "json",
    );
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as Diff;
    const html = readFileSync(file, "utf8");
    expect(html).toContain("<title>kubesched diff report</title>");
    expect(html).toContain(
      "kubesched diff --cluster examples/cluster.yaml --config default --config examples/config/bin-packing.yaml --seed 0",
    );
    const data = /<script type="application\/json" id="kubesched-report-data">(.*?)<\/script>/s.exec(
      html,
    )?.[1];
    const model = JSON.parse(data ?? "{}") as { sections: { kind: string; changed: number }[] };
    expect(model.sections.map((s) => [s.kind, s.changed])).toEqual([["diff", d.changed]]);
  });

  it("runs on a generated 5000-node cluster", async () => {
    const cluster = writeGeneratedCluster(tmp, 5000, 4);
    const { code, stdout, stderr } = await run(
      "diff",
      "--cluster",
      cluster,
      "--config",
      "default",
      "--config",
      "examples/config/bin-packing.yaml",
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const d = JSON.parse(stdout) as Diff;
    expect(d.pods).toHaveLength(4);
    // The default spreads the four pods; MostAllocated packs where it can, but each cycle scores
    // only a window of the 5000 nodes (percentageOfNodesToScore), so it may not see the others.
    expect(d.summary.a.nodesUsed).toBe(4);
    expect(d.summary.b.nodesUsed).toBeLessThanOrEqual(4);
  }, 60_000);

  it("needs --config exactly twice; a missing file has the common wording", async () => {
    const once = await run("diff", "--cluster", "examples/cluster.yaml", "--config", "default");
    expect(once.code).toBe(2);
    expect(once.stderr).toBe("error: --config must be given exactly twice (A and B), got 1\n");
    expect(
      await run("diff", "--cluster", "examples/cluster.yaml", "--config", "default", "--config", "nope.yaml"),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: nope.yaml: no such file or directory\n",
    });
  });
});
