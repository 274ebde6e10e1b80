// scheduler_perf's dra/devicetaints/performance-config.yaml (read at kubernetes/kubernetes
// 07c71097): SchedulingWithResourceClaimTemplateToleration, SchedulingWithResourceClaimTemplate
// with devicetaintrule.yaml (b94367ca: `taint-all-devices`, no selector, so every device gets
// example.com/taint=tainted:NoSchedule) and resourceclaimtemplate-toleration.yaml (0b1dcaba: `req-0`
// of test-class tolerating example.com/taint with Exists). Upstream has only integration-test sizes
// (no performance size, no threshold): `fast` (queueing hints off) and `fast_QueueingHintsEnabled`,
// 1 node with the test driver's 10 devices and 1 without, 10 pods, no init pods. Both run here, the
// decisions verified: every claim allocated a device the rule taints, its request tolerating it.
import { type DeviceTaintRule, ResourceAPIVersion } from "@kubesched/api";
import { claimTemplate, fastDRANodeOps, fastMeasuredPods } from "./dra-subtopics";
import { testClass } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { Workload } from "./workloads";

const source = "test/integration/scheduler_perf/dra/devicetaints/performance-config.yaml";

/** devicetaintrule.yaml: taints every device NoSchedule (`deviceSelector:` empty). */
export function makeTaintAllDevicesRule(): DeviceTaintRule {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "DeviceTaintRule",
    metadata: { name: "taint-all-devices", uid: "DeviceTaintRule/taint-all-devices" },
    spec: { taint: { key: "example.com/taint", value: "tainted", effect: "NoSchedule" } },
  };
}

/** resourceclaimtemplate-toleration.yaml: one test-class device, tolerating example.com/taint. */
export function makeTolerationTemplate(namespace: string) {
  return claimTemplate(namespace, {
    devices: {
      requests: [
        {
          name: "req-0",
          exactly: {
            deviceClassName: testClass,
            allocationMode: "ExactCount",
            count: 1,
            tolerations: [{ key: "example.com/taint", operator: "Exists" }],
          },
        },
      ],
    },
  });
}

export function deviceTaintsWorkloads(verify: VerifyRule[]): Workload[] {
  return [
    { name: "fast", queueingHints: false },
    { name: "fast_QueueingHintsEnabled", queueingHints: true },
  ].map(({ name, queueingHints }) => ({
    name: `SchedulingWithResourceClaimTemplateToleration/${name}`,
    source,
    ops: [
      { opcode: "createNodes", count: 1 },
      {
        opcode: "createAny",
        template: "devicetaintrule",
        make: () => [{ kind: "DeviceTaintRule", object: makeTaintAllDevicesRule() }],
      },
      ...fastDRANodeOps,
      { opcode: "createAny", template: "deviceclass" },
      // initPods is 0 at these sizes: the `init` namespace's template and pods are left out.
      {
        opcode: "createAny",
        template: "resourceclaimtemplate-toleration",
        namespace: "test",
        make: (_i, ns) => [{ kind: "ResourceClaimTemplate", object: makeTolerationTemplate(ns) }],
      },
      fastMeasuredPods,
    ],
    threshold: null,
    target: null,
    rssTargetMB: null,
    timeoutMs: 30_000,
    featureGates: {
      DynamicResourceAllocation: true,
      DRADeviceTaints: true,
      SchedulerQueueingHints: queueingHints,
    },
    // 10 pods (1 when scaled) may leave the sampled plugin metrics without a Filter sample; the
    // allocation check shows DynamicResources allocated and reserved every claim.
    verify: verify.filter((r) => r.kind !== "pluginRan"),
    notes:
      "integration-test size (upstream has no performance size); every device tainted by the rule, every claim's request tolerates it",
  }));
}
