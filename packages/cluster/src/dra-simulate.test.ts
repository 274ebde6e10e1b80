// DynamicResources through the assembled scheduler: simulate() with the default profile on a
// snapshot with a DeviceClass, ResourceSlices of 8 GPUs on 2 nodes, pods with a shared
// ResourceClaim and pods with a ResourceClaimTemplate (their generated claims in the snapshot, with
// pod.status.resourceClaimStatuses as the resourceclaim controller would set them); and extended
// resources backed by a DeviceClass (DRAExtendedResource): a class whose extendedResourceName is
// example.com/gpu, ResourceSlices of 4 GPUs on each of 2 nodes, node-b also with a device plugin's
// allocatable for example.com/gpu, pods asking `resources.requests["example.com/gpu"]: 2`. On
// node-a DynamicResources allocates the request through the special claim it creates; on node-b
// NodeResourcesFit counts it against the device plugin's allocatable.
import { readFileSync } from "node:fs";
import type { Pod, ResourceClaim } from "@kubesched/api";
import { emulatedReleaseOf, type KubeSchedulerConfiguration, loadConfig } from "@kubesched/config";
import type { Features } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it, vi } from "vitest";
import { admit } from "./admission";
import { capacity } from "./capacity";
import { loadSnapshotTexts } from "./load";
import { openSimulation, type SimulateOptions, simulate } from "./simulate";
import { why } from "./why";

/** The default configuration loaded at a release (absent: the newest), as the CLI loads it for --emulated-version. */
const configAt = (kubernetesVersion?: string): KubeSchedulerConfiguration =>
  loadConfig("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", {
    registry: inTreeRegistry,
    kubernetesVersion,
  });
const config = configAt();

/** A node with 4 GPUs in a ResourceSlice and, given `devicePluginGPUs`, a device plugin's example.com/gpu. */
const node = (name: string, devicePluginGPUs?: string) => `apiVersion: v1
kind: Node
metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name} } }
status: { allocatable: { cpu: "16", memory: 64Gi, pods: "110"${devicePluginGPUs ? `, example.com/gpu: "${devicePluginGPUs}"` : ""} } }
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: ${name}-gpus }
spec:
  driver: gpu.example.com
  nodeName: ${name}
  pool: { name: ${name}, generation: 1, resourceSliceCount: 1 }
  devices:
${[0, 1, 2, 3].map((i) => `    - { name: gpu-${i}, attributes: { model: { string: A100 } } }`).join("\n")}
---
`;

/** A pod with a claim from the two-gpus template, and the claim the controller generated for it. */
const trainPod = (name: string) => `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: ${name}-gpus-x7k2p
  namespace: default
  uid: claim-${name}
  annotations: { resource.kubernetes.io/pod-claim-name: gpus }
  ownerReferences: [{ apiVersion: v1, kind: Pod, name: ${name}, uid: pod-${name}, controller: true, blockOwnerDeletion: true }]
spec:
  devices:
    requests: [{ name: gpus, exactly: { deviceClassName: gpu.example.com, count: 2 } }]
---
apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: pod-${name} }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpus }] } }]
  resourceClaims: [{ name: gpus, resourceClaimTemplateName: two-gpus }]
status:
  resourceClaimStatuses: [{ name: gpus, resourceClaimName: ${name}-gpus-x7k2p }]
---
`;

/** A pod sharing the claim `shared-gpu` by name. */
const inferPod = (name: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: pod-${name} }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpu }] } }]
  resourceClaims: [{ name: gpu, resourceClaimName: shared-gpu }]
---
`;

const snapshot = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: { name: two-gpus, namespace: default }
spec:
  spec:
    devices:
      requests: [{ name: gpus, exactly: { deviceClassName: gpu.example.com, count: 2 } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: shared-gpu, namespace: default, uid: claim-shared }
spec:
  devices:
    requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }]
---
${node("node-a")}${node("node-b")}${trainPod("train-0")}${trainPod("train-1")}${trainPod("train-2")}${inferPod("infer-0")}${inferPod("infer-1")}${trainPod("train-3")}`;

const objects = () => loadSnapshotTexts([{ name: "gpus.yaml", text: snapshot }]).objects;

/** Runs the simulation of `objs` to its end; the cluster as it ended. */
async function drained(objs: ReturnType<typeof objects>) {
  const { session, pending } = await openSimulation(
    { config, registry: inTreeRegistry, logger: recordingLogger() },
    admit(objs),
  );
  for (const p of pending) session.addPending(p);
  await session.drain();
  session.sched.close();
  return session.cluster;
}

describe("DynamicResources in simulate", () => {
  it("allocates GPUs to template and shared claims; the pod that needs more than is left gets upstream's FitError", async () => {
    const r = await simulate({
      config,
      registry: inTreeRegistry,
      objects: objects(),
      logger: recordingLogger(),
    });
    const byName = Object.fromEntries(r.pods.map((p) => [p.name, p]));
    for (const n of ["train-0", "train-1", "train-2", "infer-0", "infer-1"]) {
      expect(byName[n]?.outcome, n).toBe("Scheduled");
    }
    // The shared claim's allocation pins the second pod to the first one's node.
    expect(byName["infer-1"]?.node).toBe(byName["infer-0"]?.node);
    expect(byName["train-3"]).toMatchObject({
      outcome: "Unschedulable",
      message:
        "0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    });
  });

  it("writes each allocation and reservedFor to the claims; no device is allocated twice", async () => {
    const cluster = await drained(objects());
    const claims = cluster.resourceClaims.list() as ResourceClaim[];
    const devices = claims.flatMap((c) =>
      (c.status?.allocation?.devices?.results ?? []).map((d) => `${d.driver}/${d.pool}/${d.device}`),
    );
    expect(devices).toHaveLength(7);
    expect(new Set(devices).size).toBe(7);
    const byName = Object.fromEntries(claims.map((c) => [c.metadata?.name ?? "", c]));
    const shared = byName["shared-gpu"];
    expect(shared?.metadata?.finalizers).toEqual(["resource.kubernetes.io/delete-protection"]);
    expect(shared?.status?.reservedFor?.map((r) => r.name).sort()).toEqual(["infer-0", "infer-1"]);
    const node = cluster.pods.get("default", "infer-0")?.spec?.nodeName;
    expect(shared?.status?.allocation?.nodeSelector).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: [node] }] }],
    });
    for (const n of ["train-0", "train-1", "train-2"]) {
      const c = byName[`${n}-gpus-x7k2p`];
      const pool = cluster.pods.get("default", n)?.spec?.nodeName;
      expect(c?.status?.reservedFor, n).toEqual([{ resource: "pods", name: n, uid: `pod-${n}` }]);
      expect(
        c?.status?.allocation?.devices?.results?.map((d) => ({ request: d.request, pool: d.pool })),
        n,
      ).toEqual([
        { request: "gpus", pool },
        { request: "gpus", pool },
      ]);
    }
    expect(byName["train-3-gpus-x7k2p"]?.status?.allocation).toBeUndefined();
  });
});

// The allocator's features follow the gates of the release emulated (DRAPartitionableDevices is
// beta and on from 1.36): a GPU split MIG-style through counters is allocated at 1.37, and not
// with the gate turned off (the CLI test covers --emulated-version 1.35).
const partitioned = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
---
apiVersion: v1
kind: Node
metadata: { name: node-a, labels: { kubernetes.io/hostname: node-a } }
status: { allocatable: { cpu: "16", memory: 64Gi, pods: "110" } }
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: node-a-counters }
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: { name: node-a, generation: 1, resourceSliceCount: 2 }
  sharedCounters: [{ name: gpu-0, counters: { slice-0: { value: "1" }, slice-1: { value: "1" } } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: node-a-devices }
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: { name: node-a, generation: 1, resourceSliceCount: 2 }
  devices:
    - { name: gpu-0-mig-0, consumesCounters: [{ counterSet: gpu-0, counters: { slice-0: { value: "1" } } }] }
    - { name: gpu-0-mig-1, consumesCounters: [{ counterSet: gpu-0, counters: { slice-1: { value: "1" } } }] }
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: half-gpu, namespace: default, uid: claim-half }
spec:
  devices:
    requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }]
---
${inferPod("infer-0").replace("shared-gpu", "half-gpu")}`;

describe("DynamicResources follows the release's DRA gates", () => {
  const run = async (kubernetesVersion: string, features?: { enableDRAPartitionableDevices: boolean }) => {
    const r = await simulate({
      config,
      registry: inTreeRegistry,
      objects: loadSnapshotTexts([{ name: "partitioned.yaml", text: partitioned }]).objects,
      logger: recordingLogger(),
      kubernetesVersion,
      ...(features ? { features } : {}),
    });
    return r.pods.find((p) => p.name === "infer-0");
  };
  it("allocates a counter-partitioned device at 1.37 (DRAPartitionableDevices on)", async () => {
    expect(await run("1.37")).toMatchObject({ outcome: "Scheduled", node: "node-a" });
  });
  it("does not at 1.37 with DRAPartitionableDevices=false", async () => {
    expect((await run("1.37", { enableDRAPartitionableDevices: false }))?.outcome).toBe("Unschedulable");
  });
});

// A PreFilter that rejects with UnschedulableAndUnresolvable stops the PreFilter pass (upstream
// RunPreFilterPlugins), so DynamicResources' PreFilter, later in the default profile, never writes
// its cycle state. Its PostFilter (before DefaultPreemption's) then fails as upstream's does:
// getStateData returns the cycle state's "not found", statusError wraps it as an Error status,
// RunPostFilterPlugins stops there and the scheduler appends the message to the FitError
// (dynamicresources.go PostFilter, schedule_one.go schedulingAlgorithm, types.go FitError.Error).
const missingPvcPod = `apiVersion: v1
kind: Pod
metadata: { name: needs-pvc, namespace: default, uid: pod-needs-pvc }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" } } }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: missing } }]
---
`;

describe("DynamicResources' PostFilter after an earlier PreFilter rejection", () => {
  const run = async (kubernetesVersion?: string) => {
    const r = await simulate({
      config: configAt(kubernetesVersion),
      registry: inTreeRegistry,
      objects: loadSnapshotTexts([{ name: "pvc.yaml", text: `${node("node-a")}${missingPvcPod}` }]).objects,
      logger: recordingLogger(),
      ...(kubernetesVersion ? { kubernetesVersion } : {}),
    });
    return r.pods.find((p) => p.name === "needs-pvc");
  };
  it("after its own PreFilter's rejection its state is there: `no new claims to deallocate` before 1.37, no reason from 1.37 (TestPlugin's missing-class; kubernetes/kubernetes#140222)", async () => {
    const noClass = `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: gpu, namespace: default, uid: claim-gpu }
spec:
  devices:
    requests: [{ name: gpu, exactly: { deviceClassName: missing.example.com } }]
---
${inferPod("infer-0").replace("shared-gpu", "gpu")}`;
    const message = async (kubernetesVersion?: string) =>
      (
        await simulate({
          config: configAt(kubernetesVersion),
          registry: inTreeRegistry,
          objects: loadSnapshotTexts([{ name: "no-class.yaml", text: `${node("node-a")}${noClass}` }])
            .objects,
          logger: recordingLogger(),
          ...(kubernetesVersion ? { kubernetesVersion } : {}),
        })
      ).pods[0]?.message;
    expect(await message("1.36")).toBe(
      "0/1 nodes are available: request gpu: device class missing.example.com does not exist. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    );
    expect(await message()).toBe(
      "0/1 nodes are available: request gpu: device class missing.example.com does not exist. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    );
  });
  it("ends the FitError with upstream's `not found` (its state was never written), in every release", async () => {
    for (const v of [undefined, "1.34", "1.36"]) {
      expect(await run(v), v).toMatchObject({
        outcome: "Unschedulable",
        message: '0/1 nodes are available: persistentvolumeclaim "missing" not found. not found',
      });
    }
  });
});

const gpuPod = (name: string, gpus: number) => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: pod-${name} }
spec:
  containers:
    - name: c
      image: i
      resources:
        requests: { cpu: "1", example.com/gpu: "${gpus}" }
        limits: { example.com/gpu: "${gpus}" }
---
`;

const extendedSnapshot = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  extendedResourceName: example.com/gpu
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
---
${node("node-a")}${node("node-b", "4")}${[0, 1, 2, 3].map((i) => gpuPod(`train-${i}`, 2)).join("")}${gpuPod("huge", 5)}`;

const extendedObjects = () => loadSnapshotTexts([{ name: "extended.yaml", text: extendedSnapshot }]).objects;

describe("extended resources backed by a DeviceClass in simulate", () => {
  it("schedules the pods on DRA devices and device-plugin GPUs; the pod asking too many gets upstream's FitError", async () => {
    const r = await simulate({
      config,
      registry: inTreeRegistry,
      objects: extendedObjects(),
      logger: recordingLogger(),
    });
    const byName = Object.fromEntries(r.pods.map((p) => [p.name, p]));
    const onNode = (n: string) =>
      ["train-0", "train-1", "train-2", "train-3"].filter((p) => byName[p]?.node === n).sort();
    for (const n of ["train-0", "train-1", "train-2", "train-3"])
      expect(byName[n]?.outcome, n).toBe("Scheduled");
    expect(onNode("node-a")).toHaveLength(2);
    expect(onNode("node-b")).toHaveLength(2);
    // The claims DynamicResources created show in the JSON output, with their devices.
    for (const n of onNode("node-a")) {
      expect(byName[n]?.resourceClaims, n).toEqual([
        {
          name: "example.com/gpu",
          extendedResources: true,
          resourceClaim: expect.stringMatching(new RegExp(`^${n}-extended-resources-[a-z0-9]{5}$`)),
          allocated: true,
          devices: [
            {
              request: "container-0-request-1",
              driver: "gpu.example.com",
              pool: "node-a",
              device: expect.any(String),
            },
            {
              request: "container-0-request-1",
              driver: "gpu.example.com",
              pool: "node-a",
              device: expect.any(String),
            },
          ],
        },
      ]);
    }
    for (const n of onNode("node-b")) expect(byName[n]?.resourceClaims, n).toBeUndefined();
    expect(byName.huge).toMatchObject({
      outcome: "Unschedulable",
      message:
        "0/2 nodes are available: 1 Insufficient example.com/gpu, 1 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    });
  });

  it("creates one claim per DRA-served pod, owned by it, with the pod's status pointing at it; no device twice", async () => {
    const cluster = await drained(extendedObjects());
    const claims = cluster.resourceClaims.list() as ResourceClaim[];
    expect(claims).toHaveLength(2);
    const devices = claims.flatMap((c) =>
      (c.status?.allocation?.devices?.results ?? []).map((d) => d.device),
    );
    expect(new Set(devices).size).toBe(4);
    for (const c of claims) {
      const owner = c.metadata?.ownerReferences?.[0];
      const p = cluster.pods.get("default", owner?.name ?? "");
      expect(p?.spec?.nodeName).toBe("node-a");
      expect(c.metadata?.annotations).toEqual({ "resource.kubernetes.io/extended-resource-claim": "true" });
      expect(owner).toEqual({
        apiVersion: "v1",
        kind: "Pod",
        name: p?.metadata?.name,
        uid: p?.metadata?.uid,
        controller: true,
      });
      expect(c.metadata?.finalizers).toEqual(["resource.kubernetes.io/delete-protection"]);
      expect(c.status?.reservedFor).toEqual([
        { resource: "pods", name: p?.metadata?.name, uid: p?.metadata?.uid },
      ]);
      expect(c.spec?.devices?.requests).toEqual([
        {
          name: "container-0-request-1",
          exactly: { deviceClassName: "gpu.example.com", allocationMode: "ExactCount", count: 2 },
        },
      ]);
      expect(p?.status?.extendedResourceClaimStatus).toEqual({
        resourceClaimName: c.metadata?.name,
        requestMappings: [
          { containerName: "c", resourceName: "example.com/gpu", requestName: "container-0-request-1" },
        ],
      });
    }
  });

  it("leaves every request to NodeResourcesFit with DRAExtendedResource off (the default before 1.36)", async () => {
    const r = await simulate({
      config,
      registry: inTreeRegistry,
      objects: extendedObjects(),
      logger: recordingLogger(),
      features: { enableDRAExtendedResource: false },
    });
    const byName = Object.fromEntries(r.pods.map((p) => [p.name, p]));
    const scheduled = r.pods.filter((p) => p.outcome === "Scheduled");
    expect(scheduled.map((p) => p.node)).toEqual(["node-b", "node-b"]);
    expect(scheduled.every((p) => p.resourceClaims === undefined)).toBe(true);
    expect(byName.huge?.message).toBe(
      "0/2 nodes are available: 2 Insufficient example.com/gpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
  });
});

// The plugin keeps each node's pools, candidates and selector results between cycles (the
// allocator's PoolCache): a slice or class that changes while pods wait must change the answer.
describe("DynamicResources in simulate: slices and classes changed between cycles", () => {
  const gpuClass = (model: string) => ({
    apiVersion: "resource.k8s.io/v1",
    kind: "DeviceClass",
    metadata: { name: "gpu" },
    spec: {
      selectors: [{ cel: { expression: `device.attributes["gpu.example.com"].model == "${model}"` } }],
    },
  });
  const slice = (models: string[]) => ({
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceSlice",
    metadata: { name: "node-a-gpus" },
    spec: {
      driver: "gpu.example.com",
      nodeName: "node-a",
      pool: { name: "node-a", generation: 1, resourceSliceCount: 1 },
      devices: models.map((model, i) => ({ name: `gpu-${i}`, attributes: { model: { string: model } } })),
    },
  });
  const claimAndPod = (name: string) => `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: ${name}-gpu, namespace: default, uid: claim-${name} }
spec:
  devices:
    requests: [{ name: gpu, exactly: { deviceClassName: gpu } }]
---
apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: pod-${name} }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpu }] } }]
  resourceClaims: [{ name: gpu, resourceClaimName: ${name}-gpu }]
---
`;
  const text = `apiVersion: v1
kind: Node
metadata: { name: node-a, labels: { kubernetes.io/hostname: node-a } }
status: { allocatable: { cpu: "16", memory: 64Gi, pods: "110" } }
---
${[gpuClass("H100"), slice(["A100", "A100"])].map((o) => JSON.stringify(o)).join("\n---\n")}
---
${claimAndPod("p1")}${claimAndPod("p2")}${claimAndPod("p3")}`;

  it("a slice updated, a slice deleted and a class updated between cycles each change where claims fit", async () => {
    const objs = loadSnapshotTexts([{ name: "gpus.yaml", text }]).objects;
    const { session, pending } = await openSimulation(
      { config, registry: inTreeRegistry, logger: recordingLogger() },
      admit(objs),
    );
    const byName = new Map(pending.map((p) => [p.metadata?.name, p]));
    const cluster = session.cluster;
    const nodeOf = (name: string) => cluster.pods.get("default", name)?.spec?.nodeName;
    const allocated = (name: string) =>
      cluster.resourceClaims
        .get("default", `${name}-gpu`)
        ?.status?.allocation?.devices?.results?.map((r) => r.device);

    // Only A100s: the H100 class selects none.
    session.addPending(byName.get("p1")!);
    await session.drain();
    expect(nodeOf("p1")).toBeUndefined();
    expect(session.lastFailure.get("default/p1")?.message).toContain("cannot allocate all claims");

    // The slice updated to H100s: p1 fits.
    cluster.apply("ResourceSlice", slice(["H100", "H100"]));
    await session.drain();
    expect(nodeOf("p1")).toBe("node-a");
    expect(allocated("p1")).toEqual(["gpu-0"]);

    // The slice deleted: gpu-1 is gone.
    cluster.delete("ResourceSlice", slice([]));
    session.addPending(byName.get("p2")!);
    await session.drain();
    expect(nodeOf("p2")).toBeUndefined();

    // Published again: p2 takes gpu-1.
    cluster.apply("ResourceSlice", slice(["H100", "H100", "A100"]));
    await session.drain();
    expect(nodeOf("p2")).toBe("node-a");
    expect(allocated("p2")).toEqual(["gpu-1"]);

    // The class updated to select A100s: p3 takes gpu-2, the only one.
    cluster.apply("DeviceClass", gpuClass("A100"));
    session.addPending(byName.get("p3")!);
    await session.drain();
    expect(nodeOf("p3")).toBe("node-a");
    expect(allocated("p3")).toEqual(["gpu-2"]);
    session.sched.close();
  });
});

/** A profile whose NodeResourcesFit scores example.com/gpu alone with `type`. */
const gpuScoringConfig = (type: "LeastAllocated" | "MostAllocated") =>
  loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: ${type}
            resources: [{ name: example.com/gpu, weight: 1 }]
`,
    { registry: inTreeRegistry },
  );

// upstream: noderesources/resource_allocation.go calculateDRAExtendedResourceAllocatableRequest —
// a scoring resource a node has no allocatable for, backed by a DeviceClass, is scored on the
// node's devices of that class and those claims hold.
describe("NodeResourcesFit scores an extended resource backed by a DeviceClass in simulate", () => {
  const text = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  extendedResourceName: example.com/gpu
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
---
${node("node-a")}${node("node-b")}${[0, 1, 2, 3].map((i) => gpuPod(`infer-${i}`, 1)).join("")}`;
  const run = async (type: "LeastAllocated" | "MostAllocated") => {
    const r = await simulate({
      config: gpuScoringConfig(type),
      registry: inTreeRegistry,
      objects: loadSnapshotTexts([{ name: "gpu-scoring.yaml", text }]).objects,
      logger: recordingLogger(),
    });
    expect(r.pods.map((p) => p.outcome)).toEqual(["Scheduled", "Scheduled", "Scheduled", "Scheduled"]);
    const perNode = new Map<string, number>();
    for (const p of r.pods) perNode.set(p.node ?? "", (perNode.get(p.node ?? "") ?? 0) + 1);
    return [...perNode.values()].sort();
  };
  it("MostAllocated packs the 1-GPU pods onto one node's devices", async () => {
    expect(await run("MostAllocated")).toEqual([4]);
  });
  it("LeastAllocated spreads them over both nodes' devices", async () => {
    expect(await run("LeastAllocated")).toEqual([2, 2]);
  });
});

describe("a library call at an emulated release applies its feature-gate defaults, as the CLI does", () => {
  // One node whose only GPUs are a DeviceClass-backed extended resource: DRAExtendedResource is
  // off by default at 1.35 (alpha), beta from 1.36, GA and locked at 1.37.
  const text = (serverVersion: string) => `apiVersion: v1
kind: List
metadata:
  annotations:
    kubesched.io/server-version: '{"major":"1","minor":"${serverVersion.split(".")[1]}","gitVersion":"${serverVersion}"}'
items:
  - apiVersion: resource.k8s.io/v1
    kind: DeviceClass
    metadata: { name: gpu.example.com }
    spec:
      extendedResourceName: example.com/gpu
      selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
${loadSnapshotTexts([{ name: "n", text: node("node-a") + gpuPod("train", 1) }])
  .objects.map((o) => `  - ${JSON.stringify(o.obj)}`)
  .join("\n")}
`;
  const load = (serverVersion = "v1.37.0") =>
    loadSnapshotTexts([{ name: "extended.yaml", text: text(serverVersion) }]);
  const outcome = async (
    opts: Pick<SimulateOptions, "kubernetesVersion" | "features">,
    serverVersion?: string,
  ) => {
    const r = await simulate({
      config: configAt(opts.kubernetesVersion),
      registry: inTreeRegistry,
      objects: load(serverVersion).objects,
      logger: recordingLogger(),
      ...opts,
    });
    return r.pods.map((p) => `${p.outcome} ${p.message ?? ""}`.trim());
  };
  // 1.34–1.36's DynamicResources PostFilter still says it had nothing to deallocate (#140222).
  const insufficient =
    "Unschedulable 0/1 nodes are available: 1 Insufficient example.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";

  it("simulate: 1.37 and 1.36 allocate the extended resource's devices, 1.35 does not; explicit features win", async () => {
    expect(await outcome({ kubernetesVersion: "1.37" })).toEqual(["Scheduled"]);
    expect(await outcome({ kubernetesVersion: "1.36" })).toEqual(["Scheduled"]);
    expect(await outcome({ kubernetesVersion: "1.35" })).toEqual([insufficient]);
    expect(
      await outcome({ kubernetesVersion: "1.35", features: { enableDRAExtendedResource: true } }),
    ).toEqual(["Scheduled"]);
    expect(
      await outcome({ kubernetesVersion: "1.36", features: { enableDRAExtendedResource: false } }),
    ).toEqual([insufficient]);
  });

  it("simulate: the snapshot's recorded /version gives the release (emulatedReleaseOf), as the CLI takes it", async () => {
    const at = async (serverVersion: string) => {
      const release = emulatedReleaseOf(load(serverVersion).serverVersion?.info ?? {});
      return outcome(release ? { kubernetesVersion: release } : {}, serverVersion);
    };
    expect(await at("v1.35.2")).toEqual([insufficient]);
    expect(await at("v1.37.0")).toEqual(["Scheduled"]);
    // Not a release kubesched emulates: the newest, as the CLI behaves (it warns).
    expect(emulatedReleaseOf({ gitVersion: "v1.29.0" })).toBeUndefined();
    expect(await at("v1.29.0")).toEqual(["Scheduled"]);
  });

  it("capacity and why take the release's gates too", async () => {
    const { objects } = load();
    const template = objects.find((o) => o.kind === "Pod")?.obj as Pod;
    const base = { registry: inTreeRegistry, logger: recordingLogger() };
    const replicas = async (kubernetesVersion: string) =>
      (
        await capacity({
          ...base,
          config: configAt(kubernetesVersion),
          objects: objects.filter((o) => o.kind !== "Pod"),
          templates: [template],
          kubernetesVersion,
        })
      ).status.replicas;
    expect(await replicas("1.37")).toBe(4);
    expect(await replicas("1.35")).toBe(0);
    const feasible = async (kubernetesVersion: string) =>
      (
        await why({
          ...base,
          config: configAt(kubernetesVersion),
          objects,
          pod: { namespace: "default", name: "train" },
          kubernetesVersion,
        })
      ).summary.feasible;
    expect(await feasible("1.37")).toBe(1);
    expect(await feasible("1.35")).toBe(0);
  });
});

describe("DRASchedulerFilterTimeout in simulate", () => {
  // DynamicResources' filterTimeout of 10ms, and a wall clock read by the allocator's deadline
  // that moves a second on every read: each allocation runs past the timeout.
  const timeoutConfig = loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: DynamicResources
        args: { filterTimeout: 10ms }
`,
    { registry: inTreeRegistry },
  );
  // The GPU snapshot's class and shared claim, node-a with its slice, one pod of the claim.
  const keep = new Set(["gpu.example.com", "shared-gpu", "node-a", "node-a-gpus", "infer-0"]);
  const timeoutObjects = () =>
    objects().filter((o) => keep.has((o.obj as { metadata?: { name?: string } }).metadata?.name ?? ""));
  const run = async (features: Partial<Features>) => {
    let now = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => (now += 1000));
    try {
      const r = await simulate({
        config: timeoutConfig,
        registry: inTreeRegistry,
        objects: timeoutObjects(),
        logger: recordingLogger(),
        features,
        idleHorizonMs: 60_000,
      });
      return r.pods.map((p) => [p.outcome, p.message]);
    } finally {
      clock.mockRestore();
    }
  };
  it("on (the default): the allocation times out with upstream's Error; off: the allocator runs to the end", async () => {
    expect(await run({})).toEqual([
      [
        "Error",
        'running "DynamicResources" filter plugin: node node-a: timed out trying to allocate devices',
      ],
    ]);
    expect(await run({ enableDRASchedulerFilterTimeout: false })).toEqual([["Scheduled", null]]);
  });
});

describe("simulate's node devices count a DeviceTaintRule's taints only where the release applies rules", () => {
  const files = ["examples/dra-gpu/cluster.yaml", "examples/dra-gpu/maintenance.yaml"].map((f) => ({
    name: f,
    text: readFileSync(new URL(`../../../${f}`, import.meta.url), "utf8"),
  }));
  const tainted = async (kubernetesVersion: string) => {
    const r = await simulate({
      config: configAt(kubernetesVersion),
      registry: inTreeRegistry,
      objects: loadSnapshotTexts(files).objects,
      logger: recordingLogger(),
      kubernetesVersion,
    });
    return r.nodes.find((n) => n.name === "gpu-node-1")?.devices?.map((d) => d.tainted);
  };
  it("1.37 (DRADeviceTaintRules GA) counts gpu-node-1's 4 GPUs tainted; 1.36 (beta, off) none", async () => {
    expect(await tainted("1.37")).toEqual([4]);
    expect(await tainted("1.36")).toEqual([undefined]);
  });
});
