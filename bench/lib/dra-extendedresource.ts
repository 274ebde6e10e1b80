// upstream scheduler_perf dra/extendedresource (performance-config.yaml) and
// dra/extendedresource/scoring (performance-config.yaml, scheduler-config.yaml): pods asking for
// extended resources that DeviceClasses back (DRAExtendedResource), with upstream's templates
// (test/integration/scheduler_perf/dra/templates: deviceclass-extended-resource.yaml,
// deviceclass-implicit-extended-resource.yaml, deviceclass-extended-resource-scoring.yaml,
// pod-with-extended-resource{,-mod25,-mod50,-scoring}.yaml,
// pod-with-implicit-extended-resource-mod25.yaml) built as resource.k8s.io/v1 objects.
//
// Ops and thresholds: dra/extendedresource/performance-config.yaml at 439aa979 (ExtendedResource_25Classes
// floor 197, ExtendedResource_50Classes 195; 16913111 lists 120 and 130 and adds
// ImplicitExtendedResource_25Classes with 130), scoring/performance-config.yaml at 439aa979
// (2000pods_200nodes 336, 5000pods_500nodes 164; later versions carry no thresholds).
import { type DeviceClass, type Pod, ResourceAPIVersion, ResourceDeviceClassPrefix } from "@kubesched/api";
import { pendingPod, testDriver } from "./dra-templates";
import type { VerifyRule } from "./verify";
import type { Op, Workload } from "./workloads";

/** The DeviceClass templates of these workloads (createAny with `count`: one class per index). */
export type ExtendedResourceClassTemplate =
  | "deviceclass-extended-resource"
  | "deviceclass-implicit-extended-resource"
  | "deviceclass-extended-resource-scoring";

/** The pod templates of these workloads. */
export type ExtendedResourcePodTemplate =
  | "pod-with-extended-resource-mod25"
  | "pod-with-extended-resource-mod50"
  | "pod-with-implicit-extended-resource-mod25"
  | "pod-with-extended-resource-scoring";

const classTemplates: ReadonlySet<string> = new Set<ExtendedResourceClassTemplate>([
  "deviceclass-extended-resource",
  "deviceclass-implicit-extended-resource",
  "deviceclass-extended-resource-scoring",
]);
const podTemplates: ReadonlySet<string> = new Set<ExtendedResourcePodTemplate>([
  "pod-with-extended-resource-mod25",
  "pod-with-extended-resource-mod50",
  "pod-with-implicit-extended-resource-mod25",
  "pod-with-extended-resource-scoring",
]);

export function isExtendedResourceClassTemplate(t: string): t is ExtendedResourceClassTemplate {
  return classTemplates.has(t);
}

export function isExtendedResourcePodTemplate(t: string): t is ExtendedResourcePodTemplate {
  return podTemplates.has(t);
}

/**
 * deviceclass-extended-resource.yaml (`test-class-<i>`, `example.com/gpu-<i>`),
 * deviceclass-implicit-extended-resource.yaml (`test-class-<i>`, no extendedResourceName: the
 * implicit `deviceclass.resource.kubernetes.io/test-class-<i>`) or
 * deviceclass-extended-resource-scoring.yaml (`scoring-test-class-<i>`, all naming
 * `example.com/gpu`); every class selects every device of the test driver.
 */
export function makeExtendedResourceClass(t: ExtendedResourceClassTemplate, index: number): DeviceClass {
  const name =
    t === "deviceclass-extended-resource-scoring" ? `scoring-test-class-${index}` : `test-class-${index}`;
  const extendedResourceName =
    t === "deviceclass-extended-resource"
      ? `example.com/gpu-${index}`
      : t === "deviceclass-extended-resource-scoring"
        ? "example.com/gpu"
        : undefined;
  return {
    apiVersion: ResourceAPIVersion,
    kind: "DeviceClass",
    metadata: { name, uid: `DeviceClass/${name}` },
    spec: {
      selectors: [{ cel: { expression: `device.driver == "${testDriver}"` } }],
      ...(extendedResourceName ? { extendedResourceName } : {}),
    },
  };
}

/** The extended resource the template's pod `index` requests one of. */
function podResource(t: ExtendedResourcePodTemplate, index: number): string {
  switch (t) {
    case "pod-with-extended-resource-mod25":
      return `example.com/gpu-${index % 25}`;
    case "pod-with-extended-resource-mod50":
      return `example.com/gpu-${index % 50}`;
    case "pod-with-implicit-extended-resource-mod25":
      return `${ResourceDeviceClassPrefix}test-class-${index % 25}`;
    case "pod-with-extended-resource-scoring":
      return "example.com/gpu";
  }
}

/**
 * pod-with-extended-resource-mod25/-mod50 and pod-with-implicit-extended-resource-mod25
 * (`test-dra-<i>`) and pod-with-extended-resource-scoring (`scoring-test-pod-<i>`): one pause
 * container requesting (and limited to) one of the resource.
 */
export function makeExtendedResourcePod(
  t: ExtendedResourcePodTemplate,
  namespace: string,
  index: number,
): Pod {
  const name = t === "pod-with-extended-resource-scoring" ? `scoring-test-pod-${index}` : `test-dra-${index}`;
  const resource = podResource(t, index);
  return pendingPod(namespace, name, [
    {
      image: "registry.k8s.io/pause:3.9",
      name: "pause",
      resources: { requests: { [resource]: "1" }, limits: { [resource]: "1" } },
    },
  ]);
}

/** scoring/scheduler-config.yaml: LeastAllocated over cpu, memory and example.com/gpu. */
export const extendedResourceScoringConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: LeastAllocated
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
        - name: example.com/gpu
          weight: 1
`;

const extendedResource = "test/integration/scheduler_perf/dra/extendedresource/performance-config.yaml";
const scoring = "test/integration/scheduler_perf/dra/extendedresource/scoring/performance-config.yaml";

/**
 * The workloads with a performance variant: `nodesWithDRA` nodes with the test driver's slices
 * (`maxClaimsPerNode` devices each; `nodesWithoutDRA` is 0 at these sizes and left out), the
 * classes, init pods, measured pods. Verified: every measured pod bound; the DRA allocations
 * (each device once, matching its class); every bound pod's extended resources served by its
 * special claim (`<pod>-extended-resources-*`, allocated, reserved for it, on its node, one device of
 * the backing class per unit requested, as `status.extendedResourceClaimStatus` maps them).
 */
export function extendedResourceWorkloads(): Workload[] {
  const ops = (o: {
    nodes: number;
    maxClaimsPerNode: number;
    classTemplate: ExtendedResourceClassTemplate;
    classes: number;
    podTemplate: ExtendedResourcePodTemplate;
    initPods: number;
    measurePods: number;
  }): Op[] => [
    { opcode: "createNodes", count: o.nodes, template: "node-with-dra-test-driver" },
    {
      opcode: "createResourceDriver",
      driverName: testDriver,
      nodes: "scheduler-perf-dra-*",
      maxClaimsPerNode: o.maxClaimsPerNode,
    },
    { opcode: "createAny", template: o.classTemplate, count: o.classes },
    ...(o.initPods > 0
      ? [{ opcode: "createPods", count: o.initPods, template: o.podTemplate, namespace: "init" } as const]
      : []),
    {
      opcode: "createPods",
      count: o.measurePods,
      template: o.podTemplate,
      namespace: "test",
      collectMetrics: true,
    },
  ];
  const verify = (scored: boolean): VerifyRule[] => [
    { kind: "allMeasuredBound" },
    { kind: "withinCapacity" },
    { kind: "draAllocations" },
    { kind: "draExtendedResources" },
    { kind: "pluginRan", plugin: "DynamicResources", point: "Filter" },
    ...(scored ? [{ kind: "pluginRan", plugin: "NodeResourcesFit", point: "Score" } as const] : []),
  ];
  const base = { rssTargetMB: 500, timeoutMs: 90_000, target: null } as const;
  const classesRow = (
    testCase: string,
    classTemplate: ExtendedResourceClassTemplate,
    podTemplate: ExtendedResourcePodTemplate,
    classes: number,
    threshold: number,
    notes: string,
  ): Workload => ({
    ...base,
    name: `${testCase}/5000pods_500nodes`,
    source: extendedResource,
    ops: ops({
      nodes: 500,
      maxClaimsPerNode: 10,
      classTemplate,
      classes,
      podTemplate,
      initPods: 2500,
      measurePods: 2500,
    }),
    threshold,
    verify: verify(false),
    notes,
  });
  const scoringRow = (
    name: string,
    nodes: number,
    classes: number,
    pods: number,
    threshold: number,
  ): Workload => ({
    ...base,
    name: `ExtendedResourceScoring/${name}`,
    source: scoring,
    ops: ops({
      nodes,
      maxClaimsPerNode: 20,
      classTemplate: "deviceclass-extended-resource-scoring",
      classes,
      podTemplate: "pod-with-extended-resource-scoring",
      initPods: 0,
      measurePods: pods,
    }),
    threshold,
    verify: verify(true),
    profile: "dra-extended-resource-scoring",
    notes: `floor at 439aa979; every class names example.com/gpu (the newest, then the lowest name, backs it); NodeResourcesFit scores it on the nodes' devices`,
  });
  return [
    classesRow(
      "ExtendedResource_25Classes",
      "deviceclass-extended-resource",
      "pod-with-extended-resource-mod25",
      25,
      197,
      "floor 197 at 439aa979 (120 at 16913111); the cluster ends full (5000 devices)",
    ),
    classesRow(
      "ExtendedResource_50Classes",
      "deviceclass-extended-resource",
      "pod-with-extended-resource-mod50",
      50,
      195,
      "floor 195 at 439aa979 (130 at 16913111); the cluster ends full (5000 devices)",
    ),
    classesRow(
      "ImplicitExtendedResource_25Classes",
      "deviceclass-implicit-extended-resource",
      "pod-with-implicit-extended-resource-mod25",
      25,
      130,
      "floor at 16913111; pods ask for deviceclass.resource.kubernetes.io/test-class-<i mod 25>",
    ),
    scoringRow("2000pods_200nodes", 200, 10, 2000, 336),
    scoringRow("5000pods_500nodes", 500, 20, 5000, 164),
  ];
}
