// scheduler_perf's DRA templates (test/integration/scheduler_perf/dra/templates/*.yaml, read at
// kubernetes/kubernetes 030880a5 / 95f08499 / 81810de6 / 16913111: node-with-dra-test-driver,
// deviceclass, resourceclaimtemplate, resourceclaim, pod-with-claim-template, pod-with-claim-ref)
// and the ResourceSlice the createResourceDriver op publishes per node
// (test/integration/scheduler_perf/dra.go resourceSlice(), the version with attributes and
// capacity), built as resource.k8s.io/v1 objects.
import {
  type DeviceClass,
  type Node,
  type Pod,
  ResourceAPIVersion,
  type ResourceClaim,
  type ResourceClaimTemplate,
  type ResourceSlice,
} from "@kubesched/api";
import { generateName } from "./templates";

/** The driver createResourceDriver starts (`driverName`). */
export const testDriver = "test-driver.cdi.k8s.io";
/** deviceclass.yaml's class. */
export const testClass = "test-class";
/** resourceclaimtemplate.yaml's template. */
export const testClaimTemplate = "test-claim-template";
const pauseImage = "registry.k8s.io/pause:3.10.1";

/**
 * node-with-dra-test-driver.yaml (fa7ba8e2): `scheduler-perf-dra-<index>`, pods 110, cpu 4, memory
 * 32Gi, labelled `node-with-dra: "true"` (the node selector of the subtopics' ResourceSlices).
 */
export function makeDRANode(index: number): Node {
  const name = `scheduler-perf-dra-${index}`;
  const capacity = { pods: "110", cpu: "4", memory: "32Gi" };
  return {
    apiVersion: "v1",
    kind: "Node",
    // PrepareNodes sets kubernetes.io/hostname on every node it creates.
    metadata: { name, uid: name, labels: { "kubernetes.io/hostname": name, "node-with-dra": "true" } },
    spec: {},
    status: {
      capacity,
      allocatable: { ...capacity },
      conditions: [{ type: "Ready", status: "True" }],
      phase: "Running",
    },
  };
}

/**
 * dra.go resourceSlice(): one slice per node, named after it, a pool of its own (the node's
 * name, one slice), `capacity` devices `instance-<i>` with the test driver's attributes (model
 * A100, family GPU, driverVersion 1.2.3, dra.example.com/numa i) and 1Gi of memory.
 */
export function makeDriverSlice(driver: string, nodeName: string, capacity: number): ResourceSlice {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceSlice",
    metadata: { name: nodeName, uid: `ResourceSlice/${nodeName}` },
    spec: {
      driver,
      nodeName,
      pool: { name: nodeName, generation: 0, resourceSliceCount: 1 },
      devices: Array.from({ length: capacity }, (_, i) => ({
        name: `instance-${i}`,
        attributes: {
          model: { string: "A100" },
          family: { string: "GPU" },
          driverVersion: { version: "1.2.3" },
          "dra.example.com/numa": { int: i },
        },
        capacity: { memory: { value: "1Gi" } },
      })),
    },
  };
}

/** deviceclass.yaml: `test-class`, every device of the test driver. */
export function makeTestDeviceClass(): DeviceClass {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "DeviceClass",
    metadata: { name: testClass, uid: `DeviceClass/${testClass}` },
    spec: { selectors: [{ cel: { expression: `device.driver == "${testDriver}"` } }] },
  };
}

/** The claim spec both claim templates hold: one request `req-0` for one device of `test-class`. */
function oneDeviceSpec(): NonNullable<ResourceClaim["spec"]> {
  return { devices: { requests: [{ name: "req-0", exactly: { deviceClassName: testClass } }] } };
}

/** resourceclaimtemplate.yaml (numRequests 1, no selectors or constraints): `test-claim-template`. */
export function makeTestClaimTemplate(namespace: string): ResourceClaimTemplate {
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceClaimTemplate",
    metadata: { name: testClaimTemplate, namespace, uid: `${namespace}/${testClaimTemplate}` },
    spec: { spec: oneDeviceSpec() },
  };
}

/** resourceclaim.yaml: `test-claim-<index>`. */
export function makeTestClaim(namespace: string, index: number): ResourceClaim {
  const name = `test-claim-${index}`;
  return {
    apiVersion: ResourceAPIVersion,
    kind: "ResourceClaim",
    metadata: { name, namespace, uid: `${namespace}/${name}` },
    spec: oneDeviceSpec(),
  };
}

export type DRAPodTemplateName = "pod-with-claim-template" | "pod-with-claim-ref";

/**
 * pod-with-claim-template.yaml (generateName `test-dra`, the claim from `test-claim-template`) or
 * pod-with-claim-ref.yaml (`test-dra-<index>`, sharing `test-claim-<index / 5>` with four
 * others); the pause container uses the claim as `resource`. Defaults as makePod's.
 */
export function makeDRAPod(t: DRAPodTemplateName, namespace: string, index: number): Pod {
  const name = t === "pod-with-claim-ref" ? `test-dra-${index}` : generateName("test-dra");
  const source =
    t === "pod-with-claim-ref"
      ? { resourceClaimName: `test-claim-${Math.floor(index / 5)}` }
      : { resourceClaimTemplateName: testClaimTemplate };
  return pendingPod(
    namespace,
    name,
    [{ image: pauseImage, name: "pause", resources: { claims: [{ name: "resource" }] } }],
    {
      resourceClaims: [{ name: "resource", ...source }],
    },
  );
}

/** A pending pod of the DRA templates with makePod's defaults (priority 0, default scheduler). */
export function pendingPod(
  namespace: string,
  name: string,
  containers: NonNullable<Pod["spec"]>["containers"],
  spec: Partial<NonNullable<Pod["spec"]>> = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace, uid: `${namespace}/${name}` },
    spec: {
      priority: 0,
      schedulerName: "default-scheduler",
      preemptionPolicy: "PreemptLowerPriority",
      containers,
      ...spec,
    },
    status: { phase: "Pending" },
  };
}

/** filepath.Match for the `nodes` globs createResourceDriver takes (`*` and `?`; no classes). */
export function globMatch(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${re}$`).test(name);
}
