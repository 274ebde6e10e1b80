// The outputs of `kubesched sweep`: the SweepReport comparing the cells (table, JSON, YAML; JSON
// Schema from `--schema`), the SweepShard a `--shard I/N` run writes, and `sweep merge`, which
// puts shards back together into the very report a local run prints — or says what is missing.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SweepCellResult } from "./sweep-cell";
import { type SweepMatrixFile, sweepApiVersion, sweepCells } from "./sweep-matrix";
import { forTerminal, pad } from "./table";

/** What a sweep ran: the matrix (by hash) and its axes. A shard carries it; merge compares it. */
export interface SweepSpec {
  /** `sha256:HEX` of the matrix file's text. */
  matrixHash: string;
  seed: number;
  /** The number of cells of the matrix. */
  cells: number;
  axes: {
    snapshots: string[];
    configs: string[];
    emulatedVersions: string[];
    pools: { name: string; count: number }[];
    scales: number[];
  };
  capacity: { pods: string[]; max: number | null } | null;
}

/** The versioned output of `kubesched sweep` and `kubesched sweep merge`. */
export interface SweepReport {
  apiVersion: typeof sweepApiVersion;
  kind: "SweepReport";
  spec: SweepSpec;
  status: { cells: SweepCellResult[] };
}

/** What `kubesched sweep --shard I/N` writes: the cells whose index is I modulo N. */
export interface SweepShard {
  apiVersion: typeof sweepApiVersion;
  kind: "SweepShard";
  spec: SweepSpec;
  shard: { index: number; count: number };
  status: { cells: SweepCellResult[] };
}

export function sweepSpec(m: SweepMatrixFile): SweepSpec {
  const x = m.matrix;
  const cells = sweepCells(x);
  return {
    matrixHash: m.hash,
    seed: x.seed,
    cells: cells.length,
    axes: {
      snapshots: [...x.snapshots],
      configs: [...x.configs],
      emulatedVersions: [...new Set(cells.map((c) => c.emulatedVersion))],
      pools: x.pools.map((p) => ({ name: p.name, count: p.count })),
      scales: [...x.scales],
    },
    capacity: x.capacity ? { pods: [...x.capacity.pods], max: x.capacity.max ?? null } : null,
  };
}

export function sweepReport(spec: SweepSpec, cells: readonly SweepCellResult[]): SweepReport {
  return {
    apiVersion: sweepApiVersion,
    kind: "SweepReport",
    spec,
    status: { cells: [...cells].sort((a, b) => a.index - b.index) },
  };
}

/** Whether cell `index` belongs to shard `shard` of `count`: round robin, so shards weigh alike. */
export function inShard(index: number, shard: number, count: number): boolean {
  return index % count === shard;
}

/** The report as a table: one row per cell, then the reasons pods stayed pending. */
export function renderSweepTable(report: SweepReport): string {
  const r = forTerminal(report);
  const withCapacity = r.spec.capacity !== null;
  const rows = [
    [
      "CELL",
      "SNAPSHOT",
      "CONFIG",
      "VERSION",
      "POOL",
      "SCALE",
      "PODS",
      "SCHEDULED",
      "UNSCHEDULABLE",
      "NODES USED",
      "CPU",
      "MEMORY",
      ...(withCapacity ? ["CAPACITY"] : []),
    ],
  ];
  for (const c of r.status.cells) {
    rows.push([
      String(c.index),
      c.snapshot,
      c.config,
      c.emulatedVersion,
      c.poolNodes > 0 ? `${c.pool} (+${c.poolNodes})` : c.pool,
      `×${c.scale}`,
      String(c.pods),
      String(c.scheduled),
      String(c.unschedulable + c.error),
      `${c.nodesUsed}/${c.nodes}`,
      `${c.cpuPercent}%`,
      `${c.memoryPercent}%`,
      ...(withCapacity ? [String(c.capacity?.replicas ?? "")] : []),
    ]);
  }
  const lines = [pad(rows)];
  const pending = r.status.cells.filter((c) => c.reasons.length > 0);
  if (pending.length > 0) {
    lines.push("", "Why pods stayed pending (pods per reason):");
    for (const c of pending) {
      lines.push(`  cell ${c.index}: ${c.reasons.map((x) => `${x.pods} ${x.reason}`).join("; ")}`);
    }
  }
  lines.push(
    "",
    `${r.status.cells.length} cell(s), seed ${r.spec.seed}, matrix ${r.spec.matrixHash.slice(0, "sha256:".length + 12)}`,
  );
  return `${lines.join("\n")}\n`;
}

/** Shard files that cannot be merged into a whole report: every problem found. */
export class SweepMergeError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(errors.join("\n"));
    this.name = "SweepMergeError";
  }
}

/** The shard files among `paths`: files as given, a directory's *.json files (sorted). */
export function shardFiles(paths: readonly string[], resolve: (p: string) => string): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let dir = false;
    try {
      dir = statSync(resolve(p)).isDirectory();
    } catch {
      throw new SweepMergeError([`${p}: no such file or directory`]);
    }
    if (!dir) out.push(p);
    else
      for (const n of readdirSync(resolve(p))
        .filter((n) => n.endsWith(".json"))
        .sort())
        out.push(join(p, n));
  }
  return out;
}

function isShard(v: unknown): v is SweepShard {
  const o = v as Partial<SweepShard> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    o.apiVersion === sweepApiVersion &&
    o.kind === "SweepShard" &&
    typeof o.spec?.matrixHash === "string" &&
    typeof o.shard?.index === "number" &&
    typeof o.shard?.count === "number" &&
    Array.isArray(o.status?.cells)
  );
}

/**
 * Combines shards into the SweepReport of the whole matrix. Shards of other matrices, shards
 * missing or given twice, and shards without all their cells are errors: a partial merge is never
 * presented as whole.
 */
export function mergeShards(files: readonly string[], read: (file: string) => string): SweepReport {
  if (files.length === 0) throw new SweepMergeError(["no shard files (*.json) given"]);
  const errors: string[] = [];
  const shards: { file: string; shard: SweepShard }[] = [];
  for (const file of files) {
    let doc: unknown;
    try {
      doc = JSON.parse(read(file));
    } catch (e) {
      errors.push(`${file}: not a SweepShard: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (!isShard(doc)) {
      errors.push(`${file}: not a SweepShard (apiVersion ${sweepApiVersion}, kind SweepShard)`);
      continue;
    }
    shards.push({ file, shard: doc });
  }
  if (errors.length > 0) throw new SweepMergeError(errors);
  const first = shards[0] as { file: string; shard: SweepShard };
  const spec = first.shard.spec;
  const count = first.shard.shard.count;
  for (const { file, shard } of shards.slice(1)) {
    if (shard.spec.matrixHash !== spec.matrixHash || JSON.stringify(shard.spec) !== JSON.stringify(spec)) {
      errors.push(
        `${file}: a shard of another matrix (${shard.spec.matrixHash}) than ${first.file} (${spec.matrixHash})`,
      );
    } else if (shard.shard.count !== count) {
      errors.push(
        `${file}: shard ${shard.shard.index}/${shard.shard.count}, but ${first.file} is one of ${count} shards`,
      );
    }
  }
  if (errors.length > 0) throw new SweepMergeError(errors);
  const byIndex = new Map<number, string>();
  for (const { file, shard } of shards) {
    const seen = byIndex.get(shard.shard.index);
    if (seen !== undefined)
      errors.push(`${file}: shard ${shard.shard.index}/${count} given twice (also ${seen})`);
    else byIndex.set(shard.shard.index, file);
  }
  const missing: number[] = [];
  for (let i = 0; i < count; i++) if (!byIndex.has(i)) missing.push(i);
  if (missing.length > 0) {
    errors.push(
      `missing shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")} of matrix ${spec.matrixHash} (${shards.length} of ${count} given)`,
    );
  }
  const cells: SweepCellResult[] = [];
  for (const { file, shard } of shards) {
    const want: number[] = [];
    for (let i = 0; i < spec.cells; i++) if (inShard(i, shard.shard.index, count)) want.push(i);
    const got = shard.status.cells.map((c) => c.index);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      errors.push(
        `${file}: shard ${shard.shard.index}/${count} holds cells [${got.join(", ")}], want [${want.join(", ")}]`,
      );
    }
    cells.push(...shard.status.cells);
  }
  if (errors.length > 0) throw new SweepMergeError(errors);
  return sweepReport(spec, cells);
}

/** Reads a shard file as UTF-8 text. */
export function readShardFile(path: string): string {
  return readFileSync(path, "utf8");
}
