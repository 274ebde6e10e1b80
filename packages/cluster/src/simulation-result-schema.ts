// The JSON Schema of `kubesched simulate -o json|yaml` (SimulationResult in simulate.ts, the
// explanation from @kubesched/scheduler's ExplainRecorder), as `kubesched simulate --schema`
// prints it. The contract and its compatibility policy: docs/simulate.md. The CLI's tests validate
// every example's output against it, so a change to the output that the schema does not admit
// fails there; `additionalProperties: false` everywhere makes an added field a schema change too.

import { Code, codeName } from "@kubesched/framework";

/** The version of the SimulationResult contract (the schema's `$id` ends with it). */
export const simulationResultSchemaVersion = "v1alpha1";

/** Upstream's Status code names, as the explanation prints them (`codeName`). */
const codeNames = Object.values(Code).map(codeName);

const strings = { type: "array", items: { type: "string" } } as const;
const quantities = {
  type: "object",
  description: "resource name → quantity (Kubernetes quantity strings: 1500m, 16Gi)",
  additionalProperties: { type: "string" },
} as const;
const statusProperties = {
  code: { enum: codeNames, description: "upstream's Status code name" },
  reasons: { ...strings, description: "upstream's reason strings, verbatim" },
} as const;
/** plugin name → what it returned. */
const byPlugin = (status: object) => ({ type: "object", additionalProperties: status }) as const;

/** The JSON Schema (draft 2020-12) of SimulationResult. */
export const simulationResultSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: `https://kubesched.io/schemas/${simulationResultSchemaVersion}/simulation-result.json`,
  title: "SimulationResult",
  description: `kubesched simulate's result (contract ${simulationResultSchemaVersion}): where every pending pod went and why.`,
  type: "object",
  required: ["kind", "pods", "preemptions", "nodes", "summary"],
  additionalProperties: false,
  $defs: {
    status: {
      type: "object",
      required: ["code"],
      additionalProperties: false,
      properties: statusProperties,
    },
    explanation: {
      type: "object",
      description: "with --explain: what every plugin decided in the attempt that decided the outcome",
      required: ["preFilter", "filter", "selectedNode"],
      additionalProperties: false,
      properties: {
        preFilter: byPlugin({
          type: "object",
          required: ["code"],
          additionalProperties: false,
          properties: {
            ...statusProperties,
            nodeNames: { ...strings, description: "PreFilterResult.NodeNames" },
          },
        }),
        filter: {
          type: "object",
          description:
            "node → plugin → status, the plugins in the order they ran, up to the first that failed",
          additionalProperties: byPlugin({ $ref: "#/$defs/status" }),
        },
        postFilter: byPlugin({
          type: "object",
          required: ["code", "nominatedNode"],
          additionalProperties: false,
          properties: { ...statusProperties, nominatedNode: { type: ["string", "null"] } },
        }),
        preScore: byPlugin({ $ref: "#/$defs/status" }),
        score: {
          type: "object",
          description: "node → plugin → scores; present when scoring ran (two or more feasible nodes)",
          additionalProperties: byPlugin({
            type: "object",
            required: ["raw", "normalized", "weighted"],
            additionalProperties: false,
            properties: {
              raw: { type: "number" },
              normalized: { type: "number" },
              weighted: { type: "number" },
            },
          }),
        },
        finalScore: {
          type: "object",
          description: "node → final score",
          additionalProperties: { type: "number" },
        },
        tiedNodes: {
          ...strings,
          description: "the nodes sharing the best final score (two or more), sorted",
        },
        selectedNode: { type: ["string", "null"] },
      },
    },
  },
  properties: {
    kind: { const: "SimulationResult" },
    pods: {
      type: "array",
      description: "every pending pod, in the order the input listed them",
      items: {
        type: "object",
        required: ["namespace", "name", "outcome", "node", "nominatedNode", "attempts", "message"],
        additionalProperties: false,
        properties: {
          namespace: { type: "string" },
          name: { type: "string" },
          outcome: { enum: ["Scheduled", "Unschedulable", "Error", "Gated", "Skipped", "Refused"] },
          node: { type: ["string", "null"], description: "null unless Scheduled" },
          nominatedNode: { type: ["string", "null"], description: "set when preemption nominated a node" },
          attempts: { type: "integer", minimum: 0 },
          message: { type: ["string", "null"], description: "kube-scheduler's message for the outcome" },
          resourceClaims: {
            type: "array",
            description:
              "the pod's spec.resourceClaims, each with its ResourceClaim and the devices allocated when the simulation ended, then the claim created for its extended resources backed by DeviceClasses (if any); absent for a pod without claims",
            items: {
              type: "object",
              required: ["name", "resourceClaim", "allocated", "devices"],
              additionalProperties: false,
              properties: {
                name: {
                  type: "string",
                  description:
                    "the pod's name for the claim; for the extended-resource claim, the extended resources it serves (comma-separated)",
                },
                extendedResources: {
                  const: true,
                  description:
                    "the claim DynamicResources created for the pod's extended resources backed by DeviceClasses (status.extendedResourceClaimStatus)",
                },
                resourceClaim: {
                  type: ["string", "null"],
                  description:
                    "the ResourceClaim (generated from a template: its generated name); null while not created",
                },
                allocated: { type: "boolean", description: "the claim has status.allocation" },
                devices: {
                  type: "array",
                  description: "status.allocation.devices.results, in order",
                  items: {
                    type: "object",
                    required: ["request", "driver", "pool", "device"],
                    additionalProperties: false,
                    properties: {
                      request: { type: "string" },
                      driver: { type: "string" },
                      pool: { type: "string" },
                      device: { type: "string" },
                    },
                  },
                },
              },
            },
          },
          nodeAllocatableResourceClaimStatuses: {
            type: "array",
            description:
              "DRANodeAllocatableResources: the pod's status.nodeAllocatableResourceClaimStatuses when the simulation ended, the node allocatable resources (cpu, memory, hugepages) its claims' devices map to or cost, as the scheduler wrote them; absent when there are none",
            items: {
              type: "object",
              required: ["resourceClaimName"],
              additionalProperties: false,
              properties: {
                resourceClaimName: { type: "string" },
                containers: { ...strings, description: "the pod's containers referencing the claim" },
                mapping: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["name", "quantity"],
                    additionalProperties: false,
                    properties: { name: { type: "string" }, quantity: { type: "string" } },
                  },
                },
                overhead: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["name"],
                    additionalProperties: false,
                    properties: {
                      name: { type: "string" },
                      perPod: { type: "string" },
                      perContainer: { type: "string" },
                    },
                  },
                },
              },
            },
          },
          explain: { $ref: "#/$defs/explanation" },
        },
      },
    },
    preemptions: {
      type: "array",
      items: {
        type: "object",
        required: ["preemptor", "node", "victims"],
        additionalProperties: false,
        properties: {
          preemptor: { type: "string", description: "namespace/name" },
          node: { type: "string" },
          victims: { ...strings, description: "namespace/name of each evicted pod" },
        },
      },
    },
    nodes: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "allocatable", "requested", "pods", "before"],
        additionalProperties: false,
        properties: {
          name: { type: "string" },
          allocatable: quantities,
          requested: quantities,
          pods: { type: "integer", minimum: 0 },
          before: {
            type: "object",
            description: "what the node held before the simulation (the snapshot's running pods)",
            required: ["requested", "pods"],
            additionalProperties: false,
            properties: { requested: quantities, pods: { type: "integer", minimum: 0 } },
          },
          scalarResources: {
            type: "object",
            description: "extended resources and hugepages the node offers or its pods request",
            additionalProperties: {
              type: "object",
              required: ["allocatable", "requested", "requestedBefore"],
              additionalProperties: false,
              properties: {
                allocatable: { type: "string" },
                requested: { type: "string" },
                requestedBefore: { type: "string" },
              },
            },
          },
          devices: {
            type: "array",
            description:
              "per driver and pool, the devices the node's ResourceSlices publish and how many claims hold, after and before; absent when no slice names the node",
            items: {
              type: "object",
              required: ["driver", "pool", "published", "allocated", "allocatedBefore"],
              additionalProperties: false,
              properties: {
                driver: { type: "string" },
                pool: { type: "string" },
                published: { type: "integer", minimum: 0 },
                allocated: { type: "integer", minimum: 0 },
                allocatedBefore: { type: "integer", minimum: 0 },
                tainted: {
                  type: "integer",
                  minimum: 1,
                  description:
                    "published devices with a NoSchedule or NoExecute taint (the slice's or a DeviceTaintRule's): only requests tolerating it get them; absent when none",
                },
              },
            },
          },
        },
      },
    },
    deviceClasses: {
      type: "array",
      description:
        "per DeviceClass, the devices its selectors match over every pool and how many claims hold, after and before; absent when the cluster has no DeviceClass",
      items: {
        type: "object",
        required: ["name", "published", "allocated", "allocatedBefore"],
        additionalProperties: false,
        properties: {
          name: { type: "string" },
          published: { type: "integer", minimum: 0 },
          allocated: { type: "integer", minimum: 0 },
          allocatedBefore: { type: "integer", minimum: 0 },
        },
      },
    },
    summary: {
      type: "object",
      required: [
        "pods",
        "scheduled",
        "unschedulable",
        "error",
        "gated",
        "skipped",
        "wallMs",
        "podsPerSecond",
      ],
      additionalProperties: false,
      properties: {
        pods: { type: "integer", minimum: 0 },
        scheduled: { type: "integer", minimum: 0 },
        unschedulable: { type: "integer", minimum: 0 },
        error: { type: "integer", minimum: 0 },
        gated: { type: "integer", minimum: 0 },
        skipped: { type: "integer", minimum: 0 },
        refused: {
          type: "integer",
          minimum: 1,
          description: "workloads' pods admission refused (outcome Refused); absent when none",
        },
        wallMs: { type: ["number", "null"], description: "null unless --timing" },
        podsPerSecond: { type: ["number", "null"], description: "null unless --timing" },
      },
    },
  },
} as const;
