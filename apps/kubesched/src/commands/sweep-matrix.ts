// The matrix file of `kubesched sweep` (kubesched.io/v1alpha1 SweepMatrix), declared once with
// TypeBox through @kubesched/framework's v1 object adapter (strict decoding with field paths,
// defaults, the field rules, the JSON Schema of `sweep --matrix-schema`), and the cells it
// spans: snapshots × configurations × emulated versions × node pools × workload scales.
//
//   apiVersion: kubesched.io/v1alpha1
//   kind: SweepMatrix
//   seed: 0                              # every cell's simulate/capacity seed
//   snapshots: [cluster.yaml]            # --cluster paths, relative to this file's folder
//   configs: [default, bin-packing.yaml] # --config files; "default": upstream's defaults
//   emulatedVersions: ["1.35", "1.37"]   # --emulated-version values; default the newest
//   pools:                               # a pool: `count` nodes like `node` added to the snapshot
//     - {name: none, count: 0}
//     - {name: m5, count: 3, node: {metadata: {labels: {pool: m5}}, status: {allocatable: {...}}}}
//   scales: [1, 2]                       # workloads' replicas multiplied by this (rounded up)
//   capacity: {pods: [web-pod.yaml], max: 100}   # also run capacity with these templates
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { FeatureGateError, newestRelease, parseEmulatedVersion } from "@kubesched/config";
import {
  argRules,
  defineV1Object,
  type FieldError,
  fieldErrors,
  formatFieldError,
  type StaticDecode,
  type TSchema,
  Type,
  type V1ObjectSpec,
} from "@kubesched/framework";
import { parse } from "yaml";
import { fileErrorReason } from "./inputs";

export const sweepApiVersion = "kubesched.io/v1alpha1";
export const sweepMatrixKind = "SweepMatrix";

/** How many cells a matrix may have unless `--max-cells` says more. */
export const defaultMaxCells = 1000;

/** A node pool's name (SweepMatrix and NodePools files). */
export function poolNameField(description: string) {
  return argRules(Type.String({ minLength: 1, description }), { message: "can not be empty" });
}

/** A node pool's Node template (SweepMatrix and NodePools files); `more` completes the description. */
export function poolNodeField(more: string) {
  return Type.Unsafe<Record<string, unknown>>({
    type: "object",
    description: `A core/v1 Node, the template of the pool's nodes: labels, taints, allocatable (status.allocatable) and capacity.${more}`,
  });
}

/** The field errors of a pool's Node template that the loader does not report: its kind. */
export function poolNodeErrors(path: string, node: Record<string, unknown> | undefined): FieldError[] {
  const kind = node?.kind;
  return kind !== undefined && kind !== "Node"
    ? [fieldErrors.notSupported(`${path}.kind`, kind, ["Node"])]
    : [];
}

const pool = Type.Object({
  name: poolNameField("The pool's name in the report; its nodes are NAME-1 … NAME-COUNT."),
  count: Type.Integer({
    minimum: 0,
    description: "How many nodes the pool adds (0: the snapshot as it is).",
  }),
  node: Type.Optional(poolNodeField(" Required when count is above 0.")),
});

const capacity = Type.Object({
  pods: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    description: "Pod manifests whose replicas capacity counts (capacity's --pod files), in order.",
  }),
  max: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: "Stop after this many replicas over all pods (capacity's --max).",
    }),
  ),
});

/** The declaration of SweepMatrix. */
export const sweepMatrix = defineV1Object(
  Type.Object({
    apiVersion: Type.Literal(sweepApiVersion),
    kind: Type.Literal(sweepMatrixKind),
    seed: Type.Integer({ minimum: 0, maximum: 0xffffffff, default: 0, description: "Every cell's seed." }),
    snapshots: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      description:
        "Cluster snapshots (--cluster: a file or a directory), relative to the matrix file's folder.",
    }),
    configs: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      default: ["default"],
      description: 'KubeSchedulerConfiguration files (--config); "default" means upstream\'s defaults.',
    }),
    emulatedVersions: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      default: [newestRelease],
      description: "Kubernetes releases to behave as (--emulated-version values).",
    }),
    pools: Type.Array(pool, {
      default: [{ name: "none", count: 0 }],
      description: "Node pools, one per cell: N nodes from a Node template added to the snapshot.",
    }),
    scales: Type.Array(Type.Number({ exclusiveMinimum: 0 }), {
      minItems: 1,
      default: [1],
      description:
        "Workload scales: the replicas of the snapshots' Deployments, ReplicaSets, StatefulSets and Jobs multiplied by this, rounded up.",
    }),
    capacity: Type.Optional(capacity),
  }),
);

export type SweepMatrix = StaticDecode<typeof sweepMatrix.schema>;
export type SweepPool = SweepMatrix["pools"][number];

/** A matrix file read and checked: its values, where it is and the hash of its text. */
export interface SweepMatrixFile {
  /** As given on the command line (messages name it). */
  file: string;
  /** The folder its paths are relative to (absolute). */
  dir: string;
  /** `sha256:HEX` of the file's text: shards of a sweep carry it, merge compares it. */
  hash: string;
  matrix: SweepMatrix;
}

/** A matrix file that cannot be used: every problem, `FILE: PATH: WHAT`. */
export class SweepMatrixError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(errors.join("\n"));
    this.name = "SweepMatrixError";
  }
}

/** One cell of the matrix: a simulate (and capacity) run. */
export interface SweepCell {
  /** Its position in the matrix's order (snapshots, configs, versions, pools, scales; the last fastest). */
  index: number;
  snapshot: string;
  config: string;
  emulatedVersion: string;
  pool: SweepPool;
  scale: number;
}

/** Checks across fields the declaration cannot state: known releases, unique values, pool templates. */
function crossFieldErrors(m: SweepMatrix): FieldError[] {
  const errors: FieldError[] = [];
  const unique = (field: string, values: readonly unknown[], sub = "") => {
    values.forEach((v, i) => {
      if (values.indexOf(v) !== i) errors.push(fieldErrors.duplicate(`${field}[${i}]${sub}`, v));
    });
  };
  unique("snapshots", m.snapshots);
  unique("configs", m.configs);
  unique("scales", m.scales);
  unique(
    "pools",
    m.pools.map((p) => p.name),
    ".name",
  );
  m.emulatedVersions.forEach((v, i) => {
    try {
      parseEmulatedVersion([v]);
    } catch (e) {
      if (!(e instanceof FeatureGateError)) throw e;
      errors.push(fieldErrors.invalid(`emulatedVersions[${i}]`, v, e.message));
    }
  });
  unique(
    "emulatedVersions",
    m.emulatedVersions.map((v, i) => {
      try {
        return parseEmulatedVersion([v]);
      } catch {
        return `invalid ${i}`;
      }
    }),
  );
  m.pools.forEach((p, i) => {
    if (p.count > 0 && p.node === undefined) {
      errors.push(fieldErrors.required(`pools[${i}].node`, "a pool that adds nodes needs a Node template"));
    }
    errors.push(...poolNodeErrors(`pools[${i}].node`, p.node));
  });
  return errors;
}

/**
 * A kubesched.io/v1alpha1 file's text (`kind`) decoded strictly with `spec`, defaulted and
 * checked, `crossField` run once the field rules pass: the value, or every problem as
 * `FILE: PATH: WHAT` (the SweepMatrix and NodePools files).
 */
export function decodeV1alpha1File<S extends TSchema>(
  text: string,
  file: string,
  kind: string,
  spec: V1ObjectSpec<S>,
  crossField: (value: StaticDecode<S>) => FieldError[],
): { value: StaticDecode<S> } | { errors: string[] } {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return { errors: [`${file}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`] };
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    return { errors: [`${file}: must be a ${kind} object (apiVersion: ${sweepApiVersion})`] };
  const raw = doc as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (raw.apiVersion !== sweepApiVersion)
    errors.push(fieldErrors.notSupported("apiVersion", raw.apiVersion, [sweepApiVersion]));
  if (raw.kind !== kind) errors.push(fieldErrors.notSupported("kind", raw.kind, [kind]));
  // Decoding leaves out what it reported; the rest is defaulted and checked too, so that one run
  // reports every problem.
  const value = spec.withDefaults(spec.decode(raw, "", errors));
  const rules = spec.validate(value, "");
  errors.push(...rules);
  if (rules.length === 0) errors.push(...crossField(value));
  if (errors.length === 0) return { value };
  return { errors: errors.map((e) => `${file}: ${formatFieldError(e)}`) };
}

/** Parses and checks a matrix file's text (strict: unknown fields are errors). */
export function parseSweepMatrix(text: string, file: string, dir: string): SweepMatrixFile {
  const decoded = decodeV1alpha1File(text, file, sweepMatrixKind, sweepMatrix, crossFieldErrors);
  if ("errors" in decoded) throw new SweepMatrixError(decoded.errors);
  const hash = `sha256:${createHash("sha256").update(text).digest("hex")}`;
  return { file, dir, hash, matrix: decoded.value };
}

/** Reads and checks the matrix file at `path` (absolute); messages name it `file`. */
export function readSweepMatrix(path: string, file: string): SweepMatrixFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new SweepMatrixError([`${file}: ${fileErrorReason(e)}`]);
  }
  return parseSweepMatrix(text, file, dirname(path));
}

/** The number of cells: the product of the axes' lengths. */
export function cellCount(m: SweepMatrix): number {
  return m.snapshots.length * m.configs.length * m.emulatedVersions.length * m.pools.length * m.scales.length;
}

/** The axes' lengths in words: "2 snapshots × 3 configs × …". */
export function axesInWords(m: SweepMatrix): string {
  return [
    `${m.snapshots.length} snapshot(s)`,
    `${m.configs.length} config(s)`,
    `${m.emulatedVersions.length} emulated version(s)`,
    `${m.pools.length} pool(s)`,
    `${m.scales.length} scale(s)`,
  ].join(" × ");
}

/** Every cell, in the matrix's order. */
export function sweepCells(m: SweepMatrix): SweepCell[] {
  const cells: SweepCell[] = [];
  for (const snapshot of m.snapshots)
    for (const config of m.configs)
      for (const version of m.emulatedVersions)
        for (const p of m.pools)
          for (const scale of m.scales) {
            const emulatedVersion = parseEmulatedVersion([version]);
            cells.push({ index: cells.length, snapshot, config, emulatedVersion, pool: p, scale });
          }
  return cells;
}

/** The pool's nodes as a snapshot text the loader reads after the snapshot (LoadOptions.additionalInputs). */
export function poolInput(
  file: string,
  index: number,
  p: Pick<SweepPool, "name" | "count" | "node">,
): { name: string; text: string } | null {
  if (p.count === 0 || p.node === undefined) return null;
  const template = p.node as { metadata?: { labels?: Record<string, string> } };
  const items = [];
  for (let i = 1; i <= p.count; i++) {
    const name = `${p.name}-${i}`;
    items.push({
      ...template,
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        ...template.metadata,
        name,
        labels: { ...template.metadata?.labels, "kubernetes.io/hostname": name },
      },
    });
  }
  return { name: `${file}: pools[${index}] (pool ${p.name})`, text: JSON.stringify({ kind: "List", items }) };
}
