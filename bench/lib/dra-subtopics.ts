// What the dra/ subtopics' templates share (test/integration/scheduler_perf/dra/templates): pools
// published through a node selector on node-with-dra-test-driver.yaml's `node-with-dra: "true"`,
// claim templates named `test-claim-template`, and steady states sized to the pools.
import {
  ResourceAPIVersion,
  type ResourceClaimSpec,
  type ResourceClaimTemplate,
  type ResourceSlice,
  type ResourceSliceSpec,
} from "@kubesched/api";
import { testClaimTemplate, testDriver } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { Op, Workload } from "./workloads";

/**
 * A test-driver ResourceSlice `name` of pool `pool` (generation 1, `resourceSliceCount` slices),
 * reachable from every node labelled `node-with-dra: "true"`.
 */
export function nodeSelectorSlice(
  name: string,
  pool: string,
  resourceSliceCount: number,
  content: Pick<ResourceSliceSpec, "devices" | "sharedCounters">,
): ResourceSlice {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceSlice",
    metadata: { name, uid: `ResourceSlice/${name}` },
    spec: {
      pool: { name: pool, generation: 1, resourceSliceCount },
      driver: testDriver,
      nodeSelector: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: "node-with-dra", operator: "In", values: ["true"] }] },
        ],
      },
      ...content,
    },
  };
}

/** A `test-claim-template` in `namespace` with this claim spec. */
export function claimTemplate(namespace: string, spec: ResourceClaimSpec): ResourceClaimTemplate {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceClaimTemplate",
    metadata: { name: testClaimTemplate, namespace, uid: `${namespace}/${testClaimTemplate}` },
    spec: { spec },
  };
}

/**
 * A subtopic's steady state at 2000pods_100nodes: `setup`, then batches of 2000
 * pod-with-claim-template pods in `test` for 10 s, the batch scaled with the pools. No CI threshold.
 */
export function poolSteadyState(w: {
  name: string;
  source: string;
  setup: Op[];
  featureGates: Readonly<Record<string, boolean>>;
  verify: VerifyRule[];
  notes: string;
}): Workload {
  return {
    name: w.name,
    source: w.source,
    ops: [
      ...w.setup,
      {
        opcode: "createPods",
        count: 2000,
        template: "pod-with-claim-template",
        namespace: "test",
        collectMetrics: true,
        steadyStateMs: 10_000,
        steadyStateBatchScales: true,
      },
    ],
    threshold: null,
    target: null,
    rssTargetMB: 500,
    timeoutMs: 90_000,
    featureGates: w.featureGates,
    verify: w.verify,
    notes: w.notes,
  };
}

/**
 * The DRA node of a subtopic's integration-test size (`nodesWithDRA: 1`, `maxClaimsPerNode: 10`):
 * one node-with-dra-test-driver and the test driver's slice of 10 devices on it.
 */
export const fastDRANodeOps: Op[] = [
  { opcode: "createNodes", count: 1, template: "node-with-dra-test-driver" },
  {
    opcode: "createResourceDriver",
    driverName: testDriver,
    nodes: "scheduler-perf-dra-*",
    maxClaimsPerNode: 10,
  },
];

/** The measured pods of a subtopic's integration-test size: 10 pod-with-claim-template in `test`. */
export const fastMeasuredPods: Op = {
  opcode: "createPods",
  count: 10,
  template: "pod-with-claim-template",
  namespace: "test",
  collectMetrics: true,
};
