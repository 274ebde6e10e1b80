// upstream scheduler_perf dra/listattributes (performance-config.yaml at 70174dc1:
// SchedulingWithResourceClaimTemplateListAttributes, DRAListTypeAttributes on) with upstream's
// templates resourceslice-list-attributes-devices.yaml (d1a2be3d) and resourceclaimtemplate.yaml
// (958ef682: numRequests requests `req-<i>` of test-class, the constraints given), built as
// resource.k8s.io/v1 objects.
import { ResourceAPIVersion, type ResourceClaimTemplate, type ResourceSlice } from "@kubesched/api";
import { testClaimTemplate, testClass, testDriver } from "./dra-templates";
import type { Workload } from "./workloads";

/** The workload's parameters (upstream's empty_500nodes). */
export const listAttributes = {
  numDevices: 64,
  numNonMatchingDevices: 32,
  numListValues: 47,
  numRequests: 32,
  matchAttribute: "dra.example.com/match",
} as const;

/**
 * resourceslice-list-attributes-devices.yaml for `scheduler-perf-dra-<index>`: pool and slice
 * `resourceslice-<index>`, `numDevices` devices `device-<d>` whose list attribute
 * `dra.example.com/match` holds `shared-value` (from device `numNonMatchingDevices` on) and
 * `numListValues` values of their own.
 */
export function makeListAttributesSlice(index: number): ResourceSlice {
  const name = `resourceslice-${index}`;
  const p = listAttributes;
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceSlice",
    metadata: { name, uid: `ResourceSlice/${name}` },
    spec: {
      driver: testDriver,
      nodeName: `scheduler-perf-dra-${index}`,
      pool: { name, generation: 1, resourceSliceCount: 1 },
      devices: Array.from({ length: p.numDevices }, (_, d) => ({
        name: `device-${d}`,
        attributes: {
          [p.matchAttribute]: {
            strings: [
              ...(d >= p.numNonMatchingDevices ? ["shared-value"] : []),
              ...Array.from({ length: p.numListValues }, (_, v) => `device-${d}-value-${v}`),
            ],
          },
        },
      })),
    },
  };
}

/**
 * resourceclaimtemplate.yaml with numRequests 32 and the constraint `matchAttribute:
 * dra.example.com/match`: `test-claim-template`, requests `req-0` … `req-31` of one test-class
 * device each. Only the 32 devices sharing `shared-value` satisfy it: one pod per node.
 */
export function makeListAttributesClaimTemplate(namespace: string): ResourceClaimTemplate {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceClaimTemplate",
    metadata: { name: testClaimTemplate, namespace, uid: `${namespace}/${testClaimTemplate}` },
    spec: {
      spec: {
        devices: {
          constraints: [{ matchAttribute: listAttributes.matchAttribute }],
          requests: Array.from({ length: listAttributes.numRequests }, (_, i) => ({
            name: `req-${i}`,
            exactly: { deviceClassName: testClass },
          })),
        },
      },
    },
  };
}

const source = "test/integration/scheduler_perf/dra/listattributes/performance-config.yaml";

/**
 * SchedulingWithResourceClaimTemplateListAttributes/empty_500nodes: 500 nodes, each with a slice of
 * 64 list-attribute devices; a steady state of 500 pods (one per node, the cluster's capacity), each
 * claim 32 devices whose `dra.example.com/match` lists intersect, for 10 s. No CI threshold.
 */
export function listAttributesWorkloads(): Workload[] {
  return [
    {
      name: "SchedulingWithResourceClaimTemplateListAttributes/empty_500nodes",
      source,
      ops: [
        { opcode: "createNodes", count: 500, template: "node-with-dra-test-driver" },
        { opcode: "createAny", template: "resourceslice-list-attributes-devices", count: 500 },
        { opcode: "createAny", template: "deviceclass" },
        { opcode: "createAny", template: "resourceclaimtemplate-list-attributes", namespace: "test" },
        {
          opcode: "createPods",
          count: 500,
          template: "pod-with-claim-template",
          namespace: "test",
          collectMetrics: true,
          steadyStateMs: 10_000,
          steadyStateBatchScales: true,
        },
      ],
      featureGates: { DRAListTypeAttributes: true },
      threshold: null,
      target: null,
      rssTargetMB: 500,
      timeoutMs: 90_000,
      verify: [
        { kind: "steadyStateBound" },
        { kind: "withinCapacity" },
        { kind: "draAllocations" },
        { kind: "pluginRan", plugin: "DynamicResources", point: "Filter" },
      ],
      notes:
        "no CI threshold; each batch of 500 fills the cluster (32 of a node's 64 devices share a list value)",
    },
  ];
}
