// scheduler_perf's dra/consumablecapacity/performance-config.yaml (read at kubernetes/kubernetes
// 030880a5, the newest stored version): SteadyStateClusterResourceClaimTemplateConsumableCapacity,
// with resourceslice-consumablecapacity.yaml and resourceclaimtemplate-consumablecapacity.yaml (both
// c4b5de20) and deviceclass-consumablecapacity.yaml (16913111): one pool `resourceslice-<i>` per
// index on every `node-with-dra` node, a single `shareable-device` that allows multiple allocations
// with 80Gi of memory (requestPolicy default 1Gi, min 1Gi), and claims of two requests for 40Gi
// each of a `test-class` that admits only such devices. The test driver's own per-node devices
// (createResourceDriver, 20 per node) do not allow multiple allocations, so the class leaves them out.
import { type DeviceClass, ResourceAPIVersion, type ResourceSlice } from "@kubesched/api";
import { claimTemplate, nodeSelectorSlice, poolSteadyState } from "./dra-subtopics";
import { testClass, testDriver } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { Workload } from "./workloads";

const source = "test/integration/scheduler_perf/dra/consumablecapacity/performance-config.yaml";

/** resourceslice-consumablecapacity.yaml: `shareable-device`, 80Gi of memory shared in steps of at least 1Gi. */
export function makeConsumableCapacitySlice(index: number): ResourceSlice {
  return nodeSelectorSlice(`resourceslice-${index}`, `resourceslice-${index}`, 1, {
    devices: [
      {
        name: "shareable-device",
        allowMultipleAllocations: true,
        capacity: {
          memory: { value: "80Gi", requestPolicy: { default: "1Gi", validRange: { min: "1Gi" } } },
        },
      },
    ],
  });
}

/** deviceclass-consumablecapacity.yaml: `test-class`, the test driver's devices that allow multiple allocations. */
export function makeConsumableCapacityClass(): DeviceClass {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "DeviceClass",
    metadata: { name: testClass, uid: `DeviceClass/${testClass}` },
    spec: {
      selectors: [
        {
          cel: { expression: `device.driver == "${testDriver}" &&\ndevice.allowMultipleAllocations == true` },
        },
      ],
    },
  };
}

/** resourceclaimtemplate-consumablecapacity.yaml: `req-0` and `req-1`, 40Gi of memory each. */
export function makeConsumableCapacityTemplate(namespace: string) {
  const request = (name: string) => ({
    name,
    exactly: { deviceClassName: testClass, capacity: { requests: { memory: "40Gi" } } },
  });
  return claimTemplate(namespace, { devices: { requests: [request("req-0"), request("req-1")] } });
}

/**
 * SteadyStateClusterResourceClaimTemplateConsumableCapacity/2000pods_100nodes: 100 DRA nodes (20
 * test-driver devices each), 2000 shareable devices every node reaches, batches of 2000 pods each
 * asking for 2 × 40Gi: a batch uses all 160,000Gi. No threshold upstream.
 */
export function consumableCapacityWorkloads(verify: VerifyRule[]): Workload[] {
  return [
    poolSteadyState({
      name: "SteadyStateClusterResourceClaimTemplateConsumableCapacity/2000pods_100nodes",
      source,
      setup: [
        { opcode: "createNodes", count: 100, template: "node-with-dra-test-driver" },
        {
          opcode: "createResourceDriver",
          driverName: testDriver,
          nodes: "scheduler-perf-dra-*",
          maxClaimsPerNode: 20,
        },
        {
          opcode: "createAny",
          template: "resourceslice-consumablecapacity",
          count: 2000,
          make: (i) => [{ kind: "ResourceSlice", object: makeConsumableCapacitySlice(i) }],
        },
        {
          opcode: "createAny",
          template: "deviceclass-consumablecapacity",
          make: () => [{ kind: "DeviceClass", object: makeConsumableCapacityClass() }],
        },
        {
          opcode: "createAny",
          template: "resourceclaimtemplate-consumablecapacity",
          namespace: "test",
          make: (_i, ns) => [{ kind: "ResourceClaimTemplate", object: makeConsumableCapacityTemplate(ns) }],
        },
      ],
      featureGates: { DRAConsumableCapacity: true },
      verify,
      notes: "no CI threshold; each batch of pods takes all the shareable devices' memory",
    }),
  ];
}
