// upstream scheduler_perf dra/compatibilitygroups (performance-config.yaml at 21605d77:
// CompatibilityGroups, DRAPartitionableDevices and DRADeviceCompatibilityGroups on) with its
// templates resourceslice-partitionable-countersets.yaml (16913111, shared with
// dra/partitionabledevices), resourceslice-compatibilitygroups-devices.yaml (752b8875: two devices
// on the node, each consuming two of the counter set's four counters and declaring the group
// `mig`) and resourceclaimtemplate-for-two-devices.yaml (07df777c). The row is upstream's
// empty_500nodes (labelled performance): no init claims, a steady state of 10 pods for 10 s.
import type { ResourceSlice } from "@kubesched/api";
import { ResourceAPIVersion } from "@kubesched/api";
import { makePartitionableCounterSets, makeTwoDeviceTemplate } from "./dra-partitionable";
import { testDriver } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { DRAObject, Workload } from "./workloads";

const source = "test/integration/scheduler_perf/dra/compatibilitygroups/performance-config.yaml";

/** resourceslice-compatibilitygroups-devices.yaml for `scheduler-perf-dra-<index>`. */
export function makeCompatibilityGroupsDevices(index: number): ResourceSlice {
  const name = `resourceslice-devices-${index}`;
  const device = (deviceName: string, counters: string[]) => ({
    name: deviceName,
    // The template's devices have no attributes; resourceclaimtemplate-for-two-devices.yaml's
    // matchAttribute names dra.example.com/slice, which kubesched's port of that template
    // keeps, so the devices carry it (both devices of a node share it).
    attributes: { "dra.example.com/slice": { int: index } },
    consumesCounters: [
      {
        counterSet: "counter-set",
        counters: Object.fromEntries(counters.map((c) => [c, { value: "1" }])),
        compatibilityGroups: ["mig"],
      },
    ],
  });
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceSlice",
    metadata: { name, uid: `ResourceSlice/${name}` },
    spec: {
      pool: { name: `resourceslice-${index}`, generation: 1, resourceSliceCount: 2 },
      driver: testDriver,
      nodeName: `scheduler-perf-dra-${index}`,
      devices: [device("device-1", ["counter1", "counter2"]), device("device-2", ["counter3", "counter4"])],
    },
  };
}

/**
 * CompatibilityGroups/empty_500nodes: 500 DRA nodes, each with one pool of a counter set (through a
 * node selector) and two `mig` devices; each pod's claim takes both devices of one node, so the
 * allocator runs the compatibility-group intersection on every co-allocation. A steady state of
 * 10 pods for 10 s. No CI threshold upstream.
 */
export function compatibilityGroupsWorkloads(verify: VerifyRule[]): Workload[] {
  const slices: DRAObject = (i) => [
    { kind: "ResourceSlice", object: makePartitionableCounterSets(i) },
    { kind: "ResourceSlice", object: makeCompatibilityGroupsDevices(i) },
  ];
  return [
    {
      name: "CompatibilityGroups/empty_500nodes",
      source,
      ops: [
        { opcode: "createNodes", count: 500, template: "node-with-dra-test-driver" },
        { opcode: "createAny", template: "resourceslice-compatibilitygroups", count: 500, make: slices },
        { opcode: "createAny", template: "deviceclass" },
        {
          opcode: "createAny",
          template: "resourceclaimtemplate-for-two-devices",
          namespace: "test",
          make: (_i, ns) => [{ kind: "ResourceClaimTemplate", object: makeTwoDeviceTemplate(ns) }],
        },
        {
          opcode: "createPods",
          count: 10,
          template: "pod-with-claim-template",
          namespace: "test",
          collectMetrics: true,
          steadyStateMs: 10_000,
        },
      ],
      featureGates: { DRAPartitionableDevices: true, DRADeviceCompatibilityGroups: true },
      threshold: null,
      target: null,
      rssTargetMB: 500,
      timeoutMs: 90_000,
      verify,
      notes: "no CI threshold; each pod takes both `mig` devices of one node (a steady state of 10 pods)",
    },
  ];
}
