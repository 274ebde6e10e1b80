// scheduler_perf's dra/prioritizedlist/performance-config.yaml (read at kubernetes/kubernetes
// 2e090810: the test case `FirstAvailable`; the 030880a5 version names it
// SteadyStateClusterResourceClaimTemplateFirstAvailable and runs a steady state) with
// deviceclass-no-devices.yaml (2e090810) and resourceclaimtemplate-first-available.yaml. The stored
// version of that template (225d8bb2, v1alpha3) asks first for `no-such-class`; the config that
// creates deviceclass-no-devices.yaml does so for that first subrequest, so here the first
// subrequest names `no-devices-class` (a class that exists and matches no device) and the second
// `test-class`. Upstream has only integration-test sizes for it (no performance size, no threshold):
// the row is `fast_QueueingHintsEnabled` (1 node with the test driver's 10 devices, 1 without, 10
// pods), there to run the firstAvailable path end to end with its decisions verified.
import { type DeviceClass, ResourceAPIVersion } from "@kubesched/api";
import { claimTemplate, fastDRANodeOps, fastMeasuredPods } from "./dra-subtopics";
import { testClass } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { Workload } from "./workloads";

const source = "test/integration/scheduler_perf/dra/prioritizedlist/performance-config.yaml";

/** deviceclass-no-devices.yaml: `no-devices-class`, the devices of a driver no node has. */
export function makeNoDevicesClass(): DeviceClass {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "DeviceClass",
    metadata: { name: "no-devices-class", uid: "DeviceClass/no-devices-class" },
    spec: { selectors: [{ cel: { expression: 'device.driver == "no-such-driver.cdi.k8s.io"' } }] },
  };
}

/** resourceclaimtemplate-first-available.yaml: `req-0` is `sub-0` (no-devices-class) or else `sub-1` (test-class). */
export function makeFirstAvailableTemplate(namespace: string) {
  return claimTemplate(namespace, {
    devices: {
      requests: [
        {
          name: "req-0",
          firstAvailable: [
            { name: "sub-0", deviceClassName: "no-devices-class" },
            { name: "sub-1", deviceClassName: testClass },
          ],
        },
      ],
    },
  });
}

export function prioritizedListWorkloads(verify: VerifyRule[]): Workload[] {
  return [
    {
      name: "FirstAvailable/fast_QueueingHintsEnabled",
      source,
      ops: [
        { opcode: "createNodes", count: 1 },
        ...fastDRANodeOps,
        { opcode: "createAny", template: "deviceclass" },
        {
          opcode: "createAny",
          template: "deviceclass-no-devices",
          make: () => [{ kind: "DeviceClass", object: makeNoDevicesClass() }],
        },
        // initClaims is 0 at this size: upstream's createAny of resourceclaim.yaml and
        // allocResourceClaims in `init` have nothing to do.
        {
          opcode: "createAny",
          template: "resourceclaimtemplate-first-available",
          namespace: "test",
          make: (_i, ns) => [{ kind: "ResourceClaimTemplate", object: makeFirstAvailableTemplate(ns) }],
        },
        fastMeasuredPods,
      ],
      threshold: null,
      target: null,
      rssTargetMB: null,
      timeoutMs: 30_000,
      featureGates: { DRAPrioritizedList: true },
      // 10 pods (1 when scaled) may leave the sampled plugin metrics without a Filter sample; the
      // allocation check shows DynamicResources allocated and reserved every claim.
      verify: verify.filter((r) => r.kind !== "pluginRan"),
      notes: "integration-test size (upstream has no performance size); every claim gets sub-1, test-class",
    },
  ];
}
