// kubesched sweep, in process: a 16-cell matrix over the bundled examples (two snapshots, two
// configurations, a node pool, a workload scale; capacity per cell), each cell checked against
// what `kubesched simulate` and `kubesched capacity` print for the same inputs; serial and
// worker-process runs byte for byte; the report against its schema; the matrix file's errors.
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parse as parseYAML } from "yaml";
import { gate, writePackage } from "../plugins/fixtures.test-util";
import { runCliIn } from "./run-cli.test-util";
import type { SweepCellResult } from "./sweep-cell";
import type { SweepReport } from "./sweep-report";

// Worker processes compile the CLI's sources on the fly: seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin.ts");
const dir = mkdtempSync(join(tmpdir(), "kubesched-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

copyFileSync(join(root, "examples/cluster.yaml"), join(dir, "cluster.yaml"));
copyFileSync(join(root, "examples/workloads/deployment.yaml"), join(dir, "workloads.yaml"));
copyFileSync(join(root, "examples/config/bin-packing.yaml"), join(dir, "bin-packing.yaml"));
copyFileSync(join(root, "examples/workloads/web-pod.yaml"), join(dir, "web-pod.yaml"));

const bigNode = `{metadata: {labels: {pool: big}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}`;
const matrix = `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
seed: 7
snapshots: [cluster.yaml, workloads.yaml]
configs: [default, bin-packing.yaml]
emulatedVersions: ["1.37"]
pools:
  - {name: none, count: 0}
  - {name: big, count: 2, node: ${bigNode}}
scales: [1, 2]
capacity: {pods: [web-pod.yaml], max: 40}
`;
writeFileSync(join(dir, "sweep.yaml"), matrix);

/** The pool's nodes as the sweep adds them, and the workloads at scale 2, as files simulate reads. */
writeFileSync(
  join(dir, "big-pool.yaml"),
  [1, 2]
    .map(
      (i) => `apiVersion: v1
kind: Node
metadata: {name: big-${i}, labels: {pool: big, kubernetes.io/hostname: big-${i}}}
status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
`,
    )
    .join("---\n"),
);

const run = (...argv: string[]) => runCliIn(dir, argv);

function writeMatrix(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

describe("kubesched sweep", () => {
  let serial: string;
  let report: SweepReport;

  it("runs every cell, in worker processes and one after the other alike, and the JSON matches its schema", async () => {
    const parallel = await run("sweep", "sweep.yaml", "-o", "json", "--parallelism", "2");
    expect(parallel.stderr).toBe("");
    expect(parallel.code).toBe(0);
    const one = await run("sweep", "sweep.yaml", "-o", "json", "--parallelism", "1");
    expect(one.code).toBe(0);
    serial = one.stdout;
    expect(parallel.stdout).toBe(serial);
    report = JSON.parse(serial) as SweepReport;
    expect(report.kind).toBe("SweepReport");
    expect(report.spec.cells).toBe(16);
    expect(report.status.cells.map((c) => c.index)).toEqual([...Array(16).keys()]);
    const schema = JSON.parse((await run("sweep", "--schema")).stdout);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it("gives each cell what simulate and capacity print for the same snapshot, pool, scale and configuration", async () => {
    const cell = (snapshot: string, config: string, pool: string, scale: number) =>
      report.status.cells.find(
        (c) => c.snapshot === snapshot && c.config === config && c.pool === pool && c.scale === scale,
      ) as SweepCellResult;
    // The Deployment at scale 2: 6 replicas instead of 3.
    writeFileSync(
      join(dir, "workloads-x2.yaml"),
      (await import("node:fs"))
        .readFileSync(join(dir, "workloads.yaml"), "utf8")
        .replace("replicas: 3", "replicas: 6"),
    );
    const cases: [string, string, string, number, string[]][] = [
      ["cluster.yaml", "default", "none", 1, ["--cluster", "cluster.yaml"]],
      [
        "cluster.yaml",
        "bin-packing.yaml",
        "big",
        1,
        ["--cluster", "cluster.yaml", "--cluster", "big-pool.yaml", "--config", "bin-packing.yaml"],
      ],
      [
        "workloads.yaml",
        "default",
        "big",
        2,
        ["--cluster", "workloads-x2.yaml", "--cluster", "big-pool.yaml"],
      ],
      [
        "workloads.yaml",
        "bin-packing.yaml",
        "big",
        1,
        ["--cluster", "workloads.yaml", "--cluster", "big-pool.yaml", "--config", "bin-packing.yaml"],
      ],
    ];
    for (const [snapshot, config, pool, scale, flags] of cases) {
      const c = cell(snapshot, config, pool, scale);
      const common = [...flags, "--seed", "7", "--emulated-version", "1.37", "-o", "json"];
      const sim = await run("simulate", ...common);
      expect(sim.code, sim.stderr).toBe(0);
      const s = JSON.parse(sim.stdout);
      expect({
        pods: c.pods,
        scheduled: c.scheduled,
        unschedulable: c.unschedulable,
        nodes: c.nodes,
      }).toEqual({
        pods: s.summary.pods,
        scheduled: s.summary.scheduled,
        unschedulable: s.summary.unschedulable,
        nodes: s.nodes.length,
      });
      const cap = await run("capacity", ...common, "--pod", "web-pod.yaml", "--max", "40");
      expect(cap.code, cap.stderr).toBe(0);
      expect(c.capacity?.replicas).toBe(JSON.parse(cap.stdout).status.replicas);
    }
    // The pool adds its nodes; the scale multiplies the workloads' replicas.
    expect(cell("cluster.yaml", "default", "big", 1).nodes).toBe(
      cell("cluster.yaml", "default", "none", 1).nodes + 2,
    );
    expect(cell("workloads.yaml", "default", "big", 2).pods).toBe(
      cell("workloads.yaml", "default", "big", 1).pods + 3,
    );
    // Without nodes, the Deployment's pods stay pending, each for the one reason given.
    expect(cell("workloads.yaml", "default", "none", 1).reasons).toEqual([
      { reason: "no nodes available to schedule pods", pods: 3 },
    ]);
  });

  it("prints a table comparing the cells, and YAML that is the JSON's report", async () => {
    const f = writeMatrix(
      "two.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
seed: 7
snapshots: [cluster.yaml]
pools:
  - {name: none, count: 0}
  - {name: big, count: 2, node: ${bigNode}}
capacity: {pods: [web-pod.yaml], max: 40}
`,
    );
    const table = await run("sweep", f, "--parallelism", "1");
    expect(table.code).toBe(0);
    const json = JSON.parse(
      (await run("sweep", f, "-o", "json", "--parallelism", "1")).stdout,
    ) as SweepReport;
    const [none, big] = json.status.cells as [SweepCellResult, SweepCellResult];
    const pct = (n: number) => `${n}%`;
    expect(table.stdout).toBe(
      [
        "CELL  SNAPSHOT      CONFIG   VERSION  POOL      SCALE  PODS  SCHEDULED  UNSCHEDULABLE  NODES USED  CPU  MEMORY  CAPACITY",
        `0     cluster.yaml  default  1.37     none      ×1     ${none.pods}    ${none.scheduled}          ${none.unschedulable}              ${none.nodesUsed}/${none.nodes}         ${pct(none.cpuPercent)}  ${pct(none.memoryPercent)}     ${none.capacity?.replicas}`,
        `1     cluster.yaml  default  1.37     big (+2)  ×1     ${big.pods}    ${big.scheduled}          ${big.unschedulable}              ${big.nodesUsed}/${big.nodes}         ${pct(big.cpuPercent)}  ${pct(big.memoryPercent)}     ${big.capacity?.replicas}`,
        "",
        "Why pods stayed pending (pods per reason):",
        `  cell 0: ${none.reasons.map((r) => `${r.pods} ${r.reason}`).join("; ")}`,
        `  cell 1: ${big.reasons.map((r) => `${r.pods} ${r.reason}`).join("; ")}`,
        "",
        `2 cell(s), seed 7, matrix ${json.spec.matrixHash.slice(0, 19)}`,
        "",
      ].join("\n"),
    );
    expect(big.capacity?.replicas).toBeGreaterThan(none.capacity?.replicas ?? 0);
    const yaml = await run("sweep", f, "-o", "yaml", "--parallelism", "1");
    expect(parseYAML(yaml.stdout)).toEqual(json);
  });

  it("prints the README's example: examples/sweep.yaml, 16 cells", async () => {
    const r = await runCliIn(root, ["sweep", "examples/sweep.yaml"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain(
      `$ kubesched sweep examples/sweep.yaml\n${r.stdout}\`\`\``,
    );
  });

  it("loads --plugin packages in each worker process: Coscheduling's all-or-nothing in every cell", async () => {
    const gang = join(dir, "gang");
    mkdirSync(gang);
    for (const f of ["cluster.yaml", "scheduler-config.yaml"])
      copyFileSync(join(root, "examples/gang-scheduling", f), join(gang, f));
    writeFileSync(
      join(gang, "sweep.yaml"),
      "apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\nsnapshots: [cluster.yaml]\nconfigs: [scheduler-config.yaml]\nscales: [1, 2]\n",
    );
    const plugin = join(root, "packages/plugins-contrib/coscheduling");
    const sweep = (parallelism: string) =>
      run("sweep", "gang/sweep.yaml", "--plugin", plugin, "-o", "json", "--parallelism", parallelism);
    const threads = await sweep("2");
    expect(threads.code, threads.stderr).toBe(0);
    expect(threads.stdout).toBe((await sweep("1")).stdout);
    // The training gang (3) schedules, the inference gang (4) is rejected as a whole.
    const cells = (JSON.parse(threads.stdout) as SweepReport).status.cells;
    expect(cells.map((c) => [c.scheduled, c.unschedulable])).toEqual([
      [3, 4],
      [3, 4],
    ]);
  });

  /** A plugin package that notes, when a process loads it, where (its pid, its Node options). */
  const probe = join(dir, "probe");
  const notes = join(dir, "probe-notes.jsonl");
  type Note = { pid: number; isMainThread: boolean; execArgv: string[] };
  const probePlugin = join(probe, "node_modules/where-probe");
  writePackage(join(probe, "node_modules"), {
    name: "where-probe",
    framework: ">=0.0.0",
    index: `import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
appendFileSync(${JSON.stringify(notes)}, JSON.stringify({ pid: process.pid, isMainThread, execArgv: process.execArgv }) + "\\n");
${gate("WhereProbe")}`,
  });
  /** The notes written since the last call (the CLI's process loads the probe once, each worker once more). */
  function takeNotes(): Note[] {
    let text = "";
    try {
      text = readFileSync(notes, "utf8");
    } catch {
      return [];
    }
    rmSync(notes);
    return text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Note);
  }
  const probeSweep = (...more: string[]) =>
    run("sweep", "sweep.yaml", "--plugin", probePlugin, "-o", "json", ...more);

  it("runs cells in this process and N - 1 worker processes, each with V8's single-threaded garbage collector", async () => {
    takeNotes();
    const parallel = await probeSweep("--parallelism", "2");
    expect(parallel.code, parallel.stderr).toBe(0);
    expect(parallel.stdout).toBe(serial);
    // --parallelism 2: this process and one worker.
    const seen = takeNotes().filter((n) => n.pid !== process.pid);
    expect(new Set(seen.map((n) => n.pid)).size).toBe(1);
    for (const w of seen) {
      expect(w.isMainThread).toBe(true);
      expect(w.execArgv).toContain("--single-threaded-gc");
    }
  });

  /**
   * HoldProbe notes each instance it makes (one per profile of a cell's run) with its process.
   * Once hold.json ({pid, until}) is there, its next instance in process `pid` waits — up to 90 s
   * — until other processes have made `until` instances; with `workerWaits`, its next instance in
   * any other process waits until process `pid` is gone.
   */
  const hold = join(dir, "hold");
  const holdNotes = join(hold, "notes.jsonl");
  const holdFile = join(hold, "hold.json");
  const holdPlugin = writePackage(join(hold, "node_modules"), {
    name: "hold-probe",
    framework: ">=0.0.0",
    index: `import { appendFileSync, existsSync, readFileSync } from "node:fs";
const notes = ${JSON.stringify(holdNotes)};
const hold = ${JSON.stringify(holdFile)};
let held = false;
function others(pid) {
  return readFileSync(notes, "utf8").trim().split("\\n").filter((l) => JSON.parse(l).pid !== pid).length;
}
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
export default {
  name: "HoldProbe",
  factory: () => {
    appendFileSync(notes, JSON.stringify({ pid: process.pid }) + "\\n");
    if (!held && existsSync(hold)) {
      held = true;
      const { pid, until, workerWaits } = JSON.parse(readFileSync(hold, "utf8"));
      const wait = new Int32Array(new SharedArrayBuffer(4));
      const holds = () => (process.pid === pid ? others(pid) < until : workerWaits === true && alive(pid));
      for (let t = 0; holds() && t < 90_000; t += 20) Atomics.wait(wait, 0, 0, 20);
    }
    return { name: () => "HoldProbe", filter: () => null };
  },
};
`,
  });
  writeFileSync(
    join(hold, "hold-config.yaml"),
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n  - plugins:\n      filter:\n        enabled:\n          - name: HoldProbe\n",
  );
  copyFileSync(join(dir, "cluster.yaml"), join(hold, "cluster.yaml"));
  writeFileSync(
    join(hold, "sweep.yaml"),
    `apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\nsnapshots: [cluster.yaml]\nconfigs: [hold-config.yaml]\npools:\n  - {name: none, count: 0}\n  - {name: big, count: 2, node: ${bigNode}}\nscales: [1, 2]\n`,
  );
  const holdArgs = (parallelism: string) => [
    "sweep",
    join(hold, "sweep.yaml"),
    "--plugin",
    holdPlugin,
    "-o",
    "json",
    "--parallelism",
    parallelism,
  ];
  /** The processes of HoldProbe's instances so far. */
  function holdInstances(): number[] {
    if (!existsSync(holdNotes)) return [];
    return readFileSync(holdNotes, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { pid: number }).pid);
  }
  /** Instances a cell of hold/sweep.yaml makes (serially: 4 cells, all in this process). */
  let perCell = 0;

  it("lets no cell wait for a busy process: while this process's first cell runs, the worker takes every other cell", async () => {
    const one = await run(...holdArgs("1"));
    expect(one.code, one.stderr).toBe(0);
    perCell = holdInstances().length / 4;
    rmSync(holdNotes);
    expect(Number.isInteger(perCell) && perCell > 0).toBe(true);
    // This process's first cell waits until the worker has begun the three others. A worker
    // handed its cells by this process (which reads no message while a cell of its own runs)
    // would wait with it.
    writeFileSync(holdFile, JSON.stringify({ pid: process.pid, until: 3 * perCell }));
    const two = await run(...holdArgs("2"));
    rmSync(holdFile);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const pids = holdInstances();
    rmSync(holdNotes);
    // This process ran its first cell only; the worker the three others.
    expect(pids.filter((p) => p === process.pid)).toHaveLength(perCell);
    expect(pids.filter((p) => p !== process.pid)).toHaveLength(3 * perCell);
  }, 240_000);

  it("ends a worker's work with the CLI's process: killed, it leaves no worker running the rest of the cells", async () => {
    expect(perCell).toBeGreaterThan(0);
    // From the package, where `tsx` resolves.
    const child = spawn(process.execPath, ["--import", "tsx", bin, ...holdArgs("2")], {
      cwd: join(root, "apps/kubesched"),
      stdio: "ignore",
      // The claims' folder of the killed CLI stays behind: in this test's folder.
      env: { ...process.env, TMPDIR: hold },
    });
    const cli = child.pid as number;
    const closed = new Promise((r) => child.on("close", r));
    // The CLI's first cell waits until it is killed; the worker's first cell until the CLI's
    // process is gone.
    writeFileSync(holdFile, JSON.stringify({ pid: cli, until: 1000, workerWaits: true }));
    const until = async (ok: () => boolean) => {
      for (let t = 0; !ok() && t < 120_000; t += 50) await new Promise((r) => setTimeout(r, 50));
    };
    await until(() => holdInstances().includes(cli) && holdInstances().some((p) => p !== cli));
    const worker = holdInstances().find((p) => p !== cli) as number;
    expect(worker).toBeDefined();
    child.kill("SIGKILL");
    await closed;
    const alive = () => {
      try {
        process.kill(worker, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until(() => !alive());
    rmSync(holdFile);
    const gone = !alive();
    if (!gone) process.kill(worker, "SIGKILL");
    expect(gone).toBe(true);
    // The worker finished the cell it had begun and took no other.
    expect(holdInstances().filter((p) => p === worker)).toHaveLength(perCell);
    rmSync(holdNotes);
  }, 240_000);

  it("runs a small matrix in this process only by default: worker processes would not pay", async () => {
    takeNotes();
    const r = await probeSweep();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(serial);
    expect(takeNotes().filter((n) => n.pid !== process.pid)).toEqual([]);
  });

  it("starts no worker with the CLI's inspector: `node --inspect kubesched sweep` debugs the CLI's process only", async () => {
    takeNotes();
    // From the package, where `tsx` resolves.
    const child = spawn(
      process.execPath,
      ["--inspect=127.0.0.1:0", "--import", "tsx", bin, "sweep", join(dir, "sweep.yaml")].concat([
        "--plugin",
        probePlugin,
        "--parallelism",
        "2",
        "-o",
        "json",
      ]),
      { cwd: join(root, "apps/kubesched"), stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(serial);
    // One inspector: the CLI's.
    expect(stderr.match(/Debugger listening on/g)?.length, stderr).toBe(1);
    const seen = takeNotes();
    const cli = seen.filter((n) => n.pid === child.pid);
    const workers = seen.filter((n) => n.pid !== child.pid);
    expect(cli.map((n) => n.execArgv.filter((a) => a.includes("inspect")))).toEqual([
      ["--inspect=127.0.0.1:0"],
    ]);
    expect(new Set(workers.map((n) => n.pid)).size).toBe(1);
    for (const w of workers) {
      expect(w.execArgv.filter((a) => a.includes("inspect"))).toEqual([]);
      expect(w.execArgv).toContain("--single-threaded-gc");
    }
  });

  it("prints the matrix file's JSON Schema", async () => {
    const r = await run("sweep", "--matrix-schema");
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.required).toEqual(["apiVersion", "kind", "snapshots"]);
    expect(Object.keys(schema.properties)).toEqual([
      "apiVersion",
      "kind",
      "seed",
      "snapshots",
      "configs",
      "emulatedVersions",
      "pools",
      "scales",
      "capacity",
    ]);
  });
});

describe("kubesched sweep: bad input, refused before any cell runs", () => {
  it("names every problem of the matrix file with its field path", async () => {
    const f = writeMatrix(
      "bad.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
snapshots: [cluster.yaml]
emulatedVersions: ["1.30", "1.37"]
pools:
  - {name: tiny, count: 1, node: {status: {allocatable: {cpu: "1"}}}}
  - {name: tiny, count: 2}
scales: [2, 2]
seeds: 1
`,
    );
    const r = await run("sweep", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toEqual([
      "error: bad.yaml: seeds: unknown field",
      "error: bad.yaml: scales[1]: Duplicate value: 2",
      'error: bad.yaml: pools[1].name: Duplicate value: "tiny"',
      'error: bad.yaml: emulatedVersions[0]: Invalid value: "1.30": emulation version 1.30 is not between [1.33, 1.37.0]',
      "error: bad.yaml: pools[1].node: Required value: a pool that adds nodes needs a Node template",
      "",
    ]);
    const wrongKind = await run(
      "sweep",
      writeMatrix("kind.yaml", "apiVersion: v1\nkind: Pod\nsnapshots: []\n"),
    );
    expect(wrongKind.stderr).toBe(
      [
        'error: kind.yaml: apiVersion: Unsupported value: "v1": supported values: "kubesched.io/v1alpha1"',
        'error: kind.yaml: kind: Unsupported value: "Pod": supported values: "SweepMatrix"',
        "error: kind.yaml: snapshots: Required value: must have at least 1 item",
        "",
      ].join("\n"),
    );
  });

  it("refuses a matrix of more cells than --max-cells, and runs it with a larger one", async () => {
    const f = writeMatrix(
      "wide.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
snapshots: [workloads.yaml]
emulatedVersions: ["1.33", "1.34", "1.35", "1.36", "1.37"]
scales: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201]
`,
    );
    const r = await run("sweep", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "error: wide.yaml: the matrix has 1005 cells (1 snapshot(s) × 1 config(s) × 5 emulated version(s) × 1 pool(s) × 201 scale(s)), more than --max-cells 1000; give --max-cells 1005 to run it\n",
    );
    const small = writeMatrix(
      "three.yaml",
      "apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\nsnapshots: [workloads.yaml]\nscales: [1, 2, 3]\n",
    );
    expect((await run("sweep", small, "--max-cells", "2")).stderr).toContain("give --max-cells 3 to run it");
    const ok = await run("sweep", small, "--max-cells", "3", "--parallelism", "1");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("3 cell(s)");
  });

  it("refuses a pool whose nodes cannot hold their own DaemonSet pods", async () => {
    const f = writeMatrix(
      "tiny.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
snapshots: [workloads.yaml]
pools:
  - {name: tiny, count: 3, node: {status: {allocatable: {cpu: 50m, memory: 64Mi, pods: "10"}}}}
`,
    );
    const r = await run("sweep", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "error: tiny.yaml: pools[0] (tiny): the node template's allocatable cpu (50m) is below its DaemonSet pods' requests (100m: kube-system/log-agent-lf4m7) (snapshot workloads.yaml)",
        "error: tiny.yaml: pools[0] (tiny): the node template's allocatable memory (64Mi) is below its DaemonSet pods' requests (128Mi: kube-system/log-agent-lf4m7) (snapshot workloads.yaml)",
        "",
      ].join("\n"),
    );
  });

  it("writes no report when a cell fails while running (here: a scale whose pods collide with a pod of the snapshot)", async () => {
    // The Deployment's sixth pod (scale 2) has the name of a pod the snapshot already holds.
    writeFileSync(
      join(dir, "collides.yaml"),
      `${readFileSync(join(dir, "workloads.yaml"), "utf8")}---
apiVersion: v1
kind: Pod
metadata: {name: api-688d99f469-7kgrj, namespace: shop}
spec: {containers: [{name: c, image: i}]}
`,
    );
    const f = writeMatrix(
      "collides-sweep.yaml",
      "apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\nsnapshots: [collides.yaml]\nscales: [1, 2]\n",
    );
    for (const parallelism of ["1", "2"]) {
      const r = await run("sweep", f, "--parallelism", parallelism);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        [
          "error: cell 1 (snapshot collides.yaml, config default, version 1.37, pool none, scale 2): collides.yaml: document 1 (Deployment shop/api): would create Pod shop/api-688d99f469-7kgrj, already defined in collides.yaml: document 3",
          "error: 1 of 2 cell(s) failed; no report written",
          "",
        ].join("\n"),
      );
    }
  });

  it("names the input a cell cannot load: a configuration, a snapshot", async () => {
    writeFileSync(
      join(dir, "broken-config.yaml"),
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 0\n",
    );
    const f = writeMatrix(
      "inputs.yaml",
      "apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\nsnapshots: [workloads.yaml, missing.yaml]\nconfigs: [broken-config.yaml]\n",
    );
    const r = await run("sweep", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "error: broken-config.yaml: parallelism: Invalid value: 0: should be an integer value greater than zero",
        "error: missing.yaml: no such file or directory",
        "",
      ].join("\n"),
    );
  });
});
