// Loading big cluster snapshots (`--cluster`): time and peak RSS of the cases, each load in
// a process of its own so that its peak RSS is its own. The inputs are written on the fly to a
// temporary directory (bench/lib/snapshot-files.ts) and removed afterwards.
//   pnpm bench:snapshot-load [--only RE] [--json FILE] [--keep DIR]
// Cases:
//   yaml-100MB   `kubectl get nodes,pods -o yaml` of 10,000 nodes and 463,000 small pods (~100 MB),
//                read by loadSnapshotFiles (streamed, item by item);                 target ≤ 1.5 GB
//   json-500MB   `kubectl get nodes,pods -o json` of API-server objects (managedFields,
//                last-applied-configuration, full status) to 500 MB;                 target ≤ 2.5 GB
//   json-500MB-small  the small pods of yaml-100MB as `kubectl get -o json`, to 500 MB (about 5×
//                as many objects);                                                    target ≤ 2.5 GB
//   compare-*    the parsers on a 20 MB YAML / 100 MB JSON cut of the same data: the YAML library over
//                the whole text (the loader before streaming), js-yaml over the whole text, JSON.parse
//                over the whole text, and the streaming loader.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeApiServerJson, writeSmallPodsJson, writeSmallPodsYaml } from "./lib/snapshot-files";

type Parser = "stream" | "yaml-whole" | "js-yaml-whole" | "json-whole";

interface ChildResult {
  objects: number;
  ms: number;
  /** CPU time (user + system) of the load: on a shared machine, steadier than the wall time. */
  cpuMs: number;
  maxRssMB: number;
  error?: string;
}

/** In the child: one load, then its numbers as one JSON line on stdout. */
async function child(parser: Parser, file: string): Promise<void> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let objects = 0;
  try {
    if (parser === "stream") {
      const { loadSnapshotFiles } = await import("@kubesched/cluster");
      const r = loadSnapshotFiles([file], process.cwd(), { maxInputBytes: 4 * 1024 ** 3 });
      objects = r.objects.length;
    } else {
      const text = readFileSync(file, "utf8");
      let docs: unknown[];
      if (parser === "json-whole") docs = [JSON.parse(text)];
      else if (parser === "js-yaml-whole") docs = (await import("js-yaml")).loadAll(text);
      else docs = (await import("yaml")).parseAllDocuments(text).map((d) => d.toJS({ maxAliasCount: 1000 }));
      for (const d of docs) {
        const items = (d as { items?: unknown[] } | null)?.items;
        objects += Array.isArray(items) ? items.length : 1;
      }
    }
  } catch (e) {
    const r: ChildResult = {
      objects,
      ms: 0,
      cpuMs: 0,
      maxRssMB: 0,
      error: (e as Error).message.split("\n")[0],
    };
    process.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const r: ChildResult = { objects, ms, cpuMs, maxRssMB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

const self = fileURLToPath(import.meta.url);

/** Runs one load in a fresh process, with node's default heap limit as the CLI has. */
function measure(parser: Parser, file: string): ChildResult {
  const r = spawnSync(process.execPath, ["--import", "tsx", self, "--child", parser, file], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
    timeout: 30 * 60_000,
  });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as ChildResult;
  } catch {
    const why = r.signal
      ? `killed by ${r.signal}`
      : (r.stderr.trim().split("\n").pop() ?? `exit ${r.status}`);
    return { objects: 0, ms: 0, cpuMs: 0, maxRssMB: 0, error: why };
  }
}

interface Case {
  name: string;
  parser: Parser;
  input: string;
  targetMB?: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: "string" },
      only: { type: "string" },
      json: { type: "string" },
      keep: { type: "string" },
    },
    allowPositionals: true,
  });
  if (values.child) {
    const file = process.argv[process.argv.length - 1] ?? "";
    await child(values.child as Parser, file);
    return;
  }
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), "kubesched-snapshot-load-"));
  mkdirSync(dir, { recursive: true });
  const inputs: Record<string, { file: string; write: (f: string) => number }> = {
    "yaml-100MB": { file: join(dir, "pods-100MB.yaml"), write: (f) => writeSmallPodsYaml(f) },
    "json-500MB": { file: join(dir, "apiserver-500MB.json"), write: (f) => writeApiServerJson(f) },
    "json-500MB-small": { file: join(dir, "pods-500MB.json"), write: (f) => writeSmallPodsJson(f) },
    "yaml-20MB": {
      file: join(dir, "pods-20MB.yaml"),
      write: (f) => writeSmallPodsYaml(f, { nodes: 2_000, runningPods: 92_000, pendingPods: 200 }),
    },
    "json-100MB": {
      file: join(dir, "apiserver-100MB.json"),
      write: (f) => writeApiServerJson(f, { nodes: 2_000, pendingPods: 200, bytes: 100_000_000 }),
    },
  };
  const cases: Case[] = [
    { name: "yaml-100MB stream", parser: "stream", input: "yaml-100MB", targetMB: 1536 },
    { name: "json-500MB stream", parser: "stream", input: "json-500MB", targetMB: 2560 },
    { name: "json-500MB-small stream", parser: "stream", input: "json-500MB-small", targetMB: 2560 },
    { name: "compare-yaml-20MB yaml-whole", parser: "yaml-whole", input: "yaml-20MB" },
    { name: "compare-yaml-20MB js-yaml-whole", parser: "js-yaml-whole", input: "yaml-20MB" },
    { name: "compare-yaml-20MB stream", parser: "stream", input: "yaml-20MB" },
    { name: "compare-json-100MB json-whole", parser: "json-whole", input: "json-100MB" },
    { name: "compare-json-100MB stream", parser: "stream", input: "json-100MB" },
  ];
  const only = values.only ? new RegExp(values.only, "i") : null;
  const selected = cases.filter((c) => !only || only.test(c.name));
  const rows: (Case & ChildResult & { inputMB: number; load: string })[] = [];
  try {
    for (const c of selected) {
      const input = inputs[c.input];
      if (!input) throw new Error(`no input ${c.input}`);
      let size: number;
      try {
        size = statSync(input.file).size; // written by an earlier run with --keep
      } catch {
        // Written under another name and renamed when complete: a run stopped midway leaves no
        // truncated input for the next.
        size = input.write(`${input.file}.part`);
        renameSync(`${input.file}.part`, input.file);
      }
      const load = loadavg()
        .map((l) => l.toFixed(1))
        .join(" ");
      const r = measure(c.parser, input.file);
      const row = { ...c, ...r, inputMB: size / 1e6, load };
      rows.push(row);
      const verdict =
        r.error !== undefined
          ? `failed: ${r.error}`
          : c.targetMB === undefined
            ? ""
            : r.maxRssMB <= c.targetMB
              ? `within the ${c.targetMB} MB target`
              : `OVER the ${c.targetMB} MB target`;
      console.log(
        `${c.name.padEnd(34)} ${row.inputMB.toFixed(0).padStart(5)} MB  ${String(r.objects).padStart(7)} objects  ${(r.ms / 1000).toFixed(1).padStart(6)} s (CPU ${(r.cpuMs / 1000).toFixed(1)} s)  peak RSS ${r.maxRssMB.toFixed(0).padStart(5)} MB  (load ${load})  ${verdict}`,
      );
    }
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
  if (rows.some((r) => r.error === undefined && r.targetMB !== undefined && r.maxRssMB > r.targetMB))
    process.exitCode = 1;
}

await main();
