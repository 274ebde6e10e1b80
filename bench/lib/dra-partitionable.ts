// scheduler_perf's dra/partitionabledevices/performance-config.yaml (read at kubernetes/kubernetes
// 030880a5, the newest stored version): SteadyStateClusterResourceClaimTemplatePartitionable with
// its templates — resourceslice-partitionable-countersets.yaml (16913111) and
// resourceslice-partitionable-devices.yaml (76b564f1): one pool `resourceslice-<i>` per index, its
// counter set and its six devices in two resource.k8s.io/v1 slices (v1 keeps sharedCounters and
// devices apart; the older single-slice resourceslice-partitionable.yaml at 55b110a5 is v1beta2),
// available through a node selector on every node labelled `node-with-dra: "true"`;
// resourceclaim-with-selector.yaml (898b9f80) and resourceclaimtemplate-for-two-devices.yaml
// (07df777c). SteadyStateClusterResourceClaimTemplatePartitionableBacktracking has only
// integration-test sizes (no performance one), so it is not a row.
import { ResourceAPIVersion, type ResourceClaim, type ResourceSlice } from "@kubesched/api";
import { claimTemplate, nodeSelectorSlice, poolSteadyState } from "./dra-subtopics";
import { testClass, testDriver } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { DRAObject, Workload } from "./workloads";

const source = "test/integration/scheduler_perf/dra/partitionabledevices/performance-config.yaml";

/** resourceslice-partitionable-countersets.yaml: `counter-set` with counter1..counter4, each 1. */
export function makePartitionableCounterSets(index: number): ResourceSlice {
  const one = { value: "1" };
  return nodeSelectorSlice(`resourceslice-countersets-${index}`, `resourceslice-${index}`, 2, {
    sharedCounters: [
      { name: "counter-set", counters: { counter1: one, counter2: one, counter3: one, counter4: one } },
    ],
  });
}

/**
 * resourceslice-partitionable-devices.yaml: two devices consuming two counters each
 * (`device-2-counters-1` the only one with `preallocate: true`) and four consuming one each.
 */
export function makePartitionableDevices(index: number): ResourceSlice {
  const device = (name: string, preallocate: boolean, counters: string[]) => ({
    name,
    attributes: { preallocate: { bool: preallocate }, "dra.example.com/slice": { int: index } },
    capacity: { counters: { value: String(counters.length) } },
    consumesCounters: [
      { counterSet: "counter-set", counters: Object.fromEntries(counters.map((c) => [c, { value: "1" }])) },
    ],
  });
  return nodeSelectorSlice(`resourceslice-devices-${index}`, `resourceslice-${index}`, 2, {
    devices: [
      device("device-2-counters-1", true, ["counter1", "counter2"]),
      device("device-2-counters-2", false, ["counter3", "counter4"]),
      device("device-1-counter-1", false, ["counter1"]),
      device("device-1-counter-2", false, ["counter2"]),
      device("device-1-counter-3", false, ["counter3"]),
      device("device-1-counter-4", false, ["counter4"]),
    ],
  });
}

/** resourceclaim-with-selector.yaml: `test-claim-with-selector-<i>`, a 2-counter preallocate device. */
export function makeClaimWithSelector(namespace: string, index: number): ResourceClaim {
  const name = `test-claim-with-selector-${index}`;
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceClaim",
    metadata: { name, namespace, uid: `${namespace}/${name}` },
    spec: {
      devices: {
        requests: [
          {
            name: "req-0",
            exactly: {
              deviceClassName: testClass,
              selectors: [
                {
                  cel: {
                    expression: `device.capacity['${testDriver}'].counters.compareTo(quantity('2')) >= 0 &&\ndevice.attributes['${testDriver}'].preallocate`,
                  },
                },
              ],
            },
          },
        ],
      },
    },
  };
}

/** resourceclaimtemplate-for-two-devices.yaml: two devices of `test-class` from one slice (matchAttribute). */
export function makeTwoDeviceTemplate(namespace: string) {
  return claimTemplate(namespace, {
    devices: {
      requests: [{ name: "req-0", exactly: { deviceClassName: testClass, count: 2 } }],
      constraints: [{ requests: ["req-0"], matchAttribute: "dra.example.com/slice" }],
    },
  });
}

/**
 * SteadyStateClusterResourceClaimTemplatePartitionable/2000pods_100nodes: 100 DRA nodes, 2000 pools
 * every node reaches, 2000 init claims allocated (each takes a pool's `device-2-counters-1`, using
 * up counter1 and counter2), then batches of 2000 pods each asking for two devices of one pool: only
 * `device-1-counter-3` + `device-1-counter-4` remain possible (`device-2-counters-2` uses both
 * counters the second device needs: the allocator backtracks once per pool). No threshold upstream.
 */
export function partitionableWorkloads(verify: VerifyRule[]): Workload[] {
  const slices: DRAObject = (i) => [
    { kind: "ResourceSlice", object: makePartitionableCounterSets(i) },
    { kind: "ResourceSlice", object: makePartitionableDevices(i) },
  ];
  return [
    poolSteadyState({
      name: "SteadyStateClusterResourceClaimTemplatePartitionable/2000pods_100nodes",
      source,
      setup: [
        { opcode: "createNodes", count: 100, template: "node-with-dra-test-driver" },
        { opcode: "createAny", template: "resourceslice-partitionable", count: 2000, make: slices },
        { opcode: "createAny", template: "deviceclass" },
        {
          opcode: "createAny",
          template: "resourceclaim-with-selector",
          namespace: "init",
          count: 2000,
          make: (i, ns) => [{ kind: "ResourceClaim", object: makeClaimWithSelector(ns, i) }],
        },
        { opcode: "allocResourceClaims", namespace: "init" },
        {
          opcode: "createAny",
          template: "resourceclaimtemplate-for-two-devices",
          namespace: "test",
          make: (_i, ns) => [{ kind: "ResourceClaimTemplate", object: makeTwoDeviceTemplate(ns) }],
        },
      ],
      featureGates: { DRAPartitionableDevices: true },
      verify,
      notes: "no CI threshold; each pod needs the two 1-counter devices of one pool (a backtrack per pool)",
    }),
  ];
}
