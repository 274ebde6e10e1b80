// The JSON Schemas of `kubesched sweep`'s outputs: SweepReport (`sweep --schema`) and the
// SweepShard a `--shard I/N` run writes. `additionalProperties: false` everywhere makes an added
// field a schema change; the CLI's tests validate their outputs against them.
import { sweepApiVersion } from "./sweep-matrix";

const int = { type: "integer", minimum: 0 };
const str = { type: "string" };
const strings = { type: "array", items: str };

/** An object schema whose every property is required. */
function object(properties: Record<string, unknown>) {
  return { type: "object", required: Object.keys(properties), additionalProperties: false, properties };
}

const spec = object({
  matrixHash: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
  seed: int,
  cells: int,
  axes: object({
    snapshots: strings,
    configs: strings,
    emulatedVersions: strings,
    pools: { type: "array", items: object({ name: str, count: int }) },
    scales: { type: "array", items: { type: "number", exclusiveMinimum: 0 } },
  }),
  capacity: {
    oneOf: [{ type: "null" }, object({ pods: strings, max: { type: ["integer", "null"], minimum: 1 } })],
  },
});

const cell = object({
  index: int,
  snapshot: str,
  config: str,
  emulatedVersion: str,
  pool: str,
  poolNodes: int,
  scale: { type: "number", exclusiveMinimum: 0 },
  nodes: int,
  pods: int,
  scheduled: int,
  unschedulable: int,
  error: int,
  gated: int,
  skipped: int,
  preemptions: int,
  nodesUsed: int,
  cpuPercent: int,
  memoryPercent: int,
  maxNodeCpuPercent: int,
  podsPerNodeUsed: { type: "number", minimum: 0 },
  reasons: { type: "array", items: object({ reason: str, pods: { type: "integer", minimum: 1 } }) },
  capacity: {
    oneOf: [
      { type: "null" },
      object({
        replicas: int,
        pods: {
          type: "array",
          items: object({
            podName: str,
            replicas: int,
            failType: { enum: ["Unschedulable", "LimitReached", "SchedulerError"] },
            failMessage: str,
          }),
        },
      }),
    ],
  },
});

const status = object({ cells: { type: "array", items: cell } });

/** The JSON Schema (draft 2020-12) of SweepReport. */
export const sweepReportSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://kubesched.io/schemas/v1alpha1/sweep-report.json",
  title: "SweepReport",
  ...object({ apiVersion: { const: sweepApiVersion }, kind: { const: "SweepReport" }, spec, status }),
};

/** The JSON Schema (draft 2020-12) of SweepShard. */
export const sweepShardSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://kubesched.io/schemas/v1alpha1/sweep-shard.json",
  title: "SweepShard",
  ...object({
    apiVersion: { const: sweepApiVersion },
    kind: { const: "SweepShard" },
    spec,
    shard: object({ index: int, count: { type: "integer", minimum: 1 } }),
    status,
  }),
};
