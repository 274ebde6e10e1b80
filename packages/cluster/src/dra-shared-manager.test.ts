// One DRA manager per scheduler (upstream scheduler.go New: NewDRAManager handed to every profile
// through WithSharedDRAManager): with two profiles whose pods ask for the cluster's only device,
// a device one profile has allocated in flight (Reserve done, PreBind not yet) is taken for the
// other profile too, and simulate() allocates it once. Built through the production wiring
// (newProfileMap, as simulate and run build their profiles) with the in-tree registry.
import type { DeviceClass, Node, Pod, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { newSnapshot } from "@kubesched/cache";
import { type KubeSchedulerConfiguration, loadConfig } from "@kubesched/config";
import { Code, CycleState, defaultFeatures } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { newProfileMap } from "@kubesched/runtime";
import {
  FakeListers,
  RecordingClusterClient,
  recordingEventRecorder,
  recordingLogger,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { loadSnapshotTexts } from "./load";
import { simulate } from "./simulate";

const twoProfiles = (): KubeSchedulerConfiguration =>
  loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
  - schedulerName: second
`,
    { registry: inTreeRegistry },
  );

const node: Node = {
  metadata: { name: "n1", labels: { "kubernetes.io/hostname": "n1" } },
  status: { allocatable: { cpu: "8", memory: "16Gi", pods: "110" } },
};
const gpuClass: DeviceClass = {
  metadata: { name: "gpu.example.com" },
  spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
};
const oneGPU: ResourceSlice = {
  metadata: { name: "n1-gpus" },
  spec: {
    driver: "gpu.example.com",
    nodeName: "n1",
    pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
    devices: [{ name: "gpu-0" }],
  },
};
const claimFor = (pod: string): ResourceClaim => ({
  metadata: { name: `${pod}-gpu`, namespace: "default", uid: `claim-${pod}`, resourceVersion: "1" },
  spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] } },
});
const podOf = (name: string, schedulerName: string): Pod => ({
  metadata: { name, namespace: "default", uid: `pod-${name}` },
  spec: {
    schedulerName,
    containers: [{ name: "c", image: "i", resources: { claims: [{ name: "gpu" }] } }],
    resourceClaims: [{ name: "gpu", resourceClaimName: `${name}-gpu` }],
  },
});

describe("the shared DRA manager", () => {
  it("every profile sees a device another profile allocated in flight", async () => {
    const a = podOf("a", "default-scheduler");
    const b = podOf("b", "second");
    const listers = new FakeListers({
      nodes: [node],
      pods: [a, b],
      deviceClasses: [gpuClass],
      resourceSlices: [oneGPU],
      resourceClaims: [claimFor("a"), claimFor("b")],
    });
    const snapshot = newSnapshot([], [node]);
    const profiles = await newProfileMap(inTreeRegistry, twoProfiles().profiles, {
      listers,
      client: new RecordingClusterClient(null),
      eventRecorder: recordingEventRecorder(null),
      features: defaultFeatures,
      snapshot,
      logger: recordingLogger(),
    });
    const fwkA = profiles.get("default-scheduler");
    const fwkB = profiles.get("second");
    if (!fwkA || !fwkB) throw new Error("profiles missing");
    const manager = fwkA.sharedDRAManager();
    expect(manager).not.toBeNull();
    expect(fwkB.sharedDRAManager()).toBe(manager);
    const nodeInfo = snapshot.nodeInfos().get("n1");
    if (!nodeInfo) throw new Error("node missing");

    // Profile A's pod: PreFilter, Filter and Reserve allocate gpu-0 (in flight until PreBind).
    const stateA = new CycleState();
    expect(fwkA.runPreFilterPlugins(stateA, a).status).toBeNull();
    expect(fwkA.runFilterPlugins(stateA, a, nodeInfo)).toBeNull();
    expect(fwkA.runReservePluginsReserve(stateA, a, "n1")).toBeNull();
    expect(manager?.resourceClaims().claimHasPendingAllocation("claim-a")).toBe(true);

    // Profile B's pod finds no free device on the node.
    const stateB = new CycleState();
    expect(fwkB.runPreFilterPlugins(stateB, b).status).toBeNull();
    const filtered = fwkB.runFilterPlugins(stateB, b, nodeInfo);
    expect(filtered?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(filtered?.reasons).toEqual(["cannot allocate all claims"]);
  });

  it("simulate with two profiles allocates the only device once", async () => {
    const yaml = `apiVersion: v1
kind: Node
metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
status: { allocatable: { cpu: "8", memory: 16Gi, pods: "110" } }
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] }
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: n1-gpus }
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: { name: n1, generation: 1, resourceSliceCount: 1 }
  devices: [{ name: gpu-0 }]
---
${["a", "b", "c", "d"]
  .map(
    (p, i) => `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: ${p}-gpu, namespace: default, uid: claim-${p} }
spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }] } }
---
apiVersion: v1
kind: Pod
metadata: { name: ${p}, namespace: default, uid: pod-${p} }
spec:
  schedulerName: ${i % 2 === 0 ? "default-scheduler" : "second"}
  containers: [{ name: c, image: i, resources: { claims: [{ name: gpu }] } }]
  resourceClaims: [{ name: gpu, resourceClaimName: ${p}-gpu }]
`,
  )
  .join("---\n")}`;
    const r = await simulate({
      config: twoProfiles(),
      registry: inTreeRegistry,
      objects: loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects,
      logger: recordingLogger(),
    });
    const bound = r.pods.filter((p) => p.node !== null && p.node !== undefined);
    expect(bound).toHaveLength(1);
  });
});
