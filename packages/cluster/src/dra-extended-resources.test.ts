// Extended resources backed by DeviceClasses (DRAExtendedResource) through the assembled
// scheduler: simulate() with the default profile on a snapshot with a DeviceClass whose
// extendedResourceName is example.com/gpu, ResourceSlices of 4 GPUs on each of 2 nodes, node-b
// also with a device plugin's allocatable for example.com/gpu, and pods asking
// `resources.requests["example.com/gpu"]: 2`. On node-a DynamicResources allocates the request
// through the special claim it creates; on node-b NodeResourcesFit counts it against the device
// plugin's allocatable.
import type { ResourceClaim } from "@kubesched/api";
import { type KubeSchedulerConfiguration, loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { admit } from "./admission";
import { loadSnapshotTexts } from "./load";
import { openSimulation, simulate } from "./simulate";

const config: KubeSchedulerConfiguration = loadConfig(
  "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
  { registry: inTreeRegistry },
);

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
${[0, 1, 2, 3].map((i) => `    - { name: gpu-${i} }`).join("\n")}
---
`;

const pod = (name: string, gpus: number) => `apiVersion: v1
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

const snapshot = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  extendedResourceName: example.com/gpu
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
---
${node("node-a")}${node("node-b", "4")}${[0, 1, 2, 3].map((i) => pod(`train-${i}`, 2)).join("")}${pod("huge", 5)}`;

const objects = () => loadSnapshotTexts([{ name: "gpus.yaml", text: snapshot }]).objects;

describe("extended resources backed by a DeviceClass in simulate", () => {
  it("schedules the pods on DRA devices and device-plugin GPUs; the pod asking too many gets upstream's FitError", async () => {
    const r = await simulate({
      config,
      registry: inTreeRegistry,
      objects: objects(),
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
        "0/2 nodes are available: 1 Insufficient example.com/gpu, 1 cannot allocate all claims. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    });
  });

  it("creates one claim per DRA-served pod, owned by it, with the pod's status pointing at it; no device twice", async () => {
    const { session, pending } = await openSimulation(
      { config, registry: inTreeRegistry, logger: recordingLogger() },
      admit(objects()),
    );
    for (const p of pending) session.addPending(p);
    await session.drain();
    session.sched.close();
    const claims = session.cluster.resourceClaims.list() as ResourceClaim[];
    expect(claims).toHaveLength(2);
    const devices = claims.flatMap((c) =>
      (c.status?.allocation?.devices?.results ?? []).map((d) => d.device),
    );
    expect(new Set(devices).size).toBe(4);
    for (const c of claims) {
      const owner = c.metadata?.ownerReferences?.[0];
      const p = session.cluster.pods.get("default", owner?.name ?? "");
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
      objects: objects(),
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
