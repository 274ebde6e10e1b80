// `kubesched run` with DynamicResources against the API-server emulator: the pod's claim is
// allocated from the ResourceSlice and PreBind writes the finalizer (PUT resourceclaims), then the
// allocation and reservedFor (PUT resourceclaims/status), before the binding. With extended
// resources backed by a DeviceClass (DRAExtendedResource): a pod asking `example.com/gpu: 2` on a
// node without a device plugin for it gets the claim DynamicResources creates in PreBind (POST
// resourceclaims with generateName `<pod>-extended-resources-`), allocated and reserved for it,
// and its status.extendedResourceClaimStatus (PATCH pods/status), before the binding. With
// DRANodeAllocatableResources, the cpus a device maps to reach the pod's
// status.nodeAllocatableResourceClaimStatuses (PATCH pods/status) before the binding.
import { defaultConfig } from "@kubesched/config";
import type { Features } from "@kubesched/framework";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runScheduler } from "./run";

let server: FakeApiServer;

/** The ResourceSlice of node n1 with these devices of gpu.example.com. */
function putSlice(...devices: string[]): void {
  server.put("ResourceSlice", {
    metadata: { name: "n1-gpu" },
    spec: {
      driver: "gpu.example.com",
      nodeName: "n1",
      pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
      devices: devices.map((name) => ({ name })),
    },
  });
}

beforeEach(async () => {
  server = await FakeApiServer.start();
  server.put(
    "Node",
    makeNode().name("n1").label("kubernetes.io/hostname", "n1").capacity({ cpu: "4" }).obj(),
  );
  server.put("DeviceClass", { metadata: { name: "gpu.example.com" }, spec: {} });
  putSlice("gpu-0");
  server.put("ResourceClaim", {
    metadata: { name: "gpu", namespace: "default" },
    spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] } },
  });
  server.put(
    "Pod",
    makePod()
      .name("p1")
      .namespace("default")
      .uid("uid-p1")
      .podResourceClaims({ name: "gpu", resourceClaimName: "gpu" })
      .obj(),
  );
});

afterEach(async () => {
  await server.close();
});

/** Runs the scheduler until `pod` (namespace/name) is bound, then `check`s and stops it. */
async function whenBound(
  pod: string,
  check: () => void,
  before?: () => Promise<void>,
  features?: Partial<Features>,
): Promise<void> {
  const ac = new AbortController();
  const config = defaultConfig({ registry: inTreeRegistry });
  config.leaderElection = { ...config.leaderElection, leaderElect: false };
  const done = runScheduler({
    config,
    registry: inTreeRegistry,
    kubeConfig: server.kubeConfig(),
    logger: recordingLogger(),
    serving: null,
    signal: ac.signal,
    ...(features ? { features } : {}),
  });
  try {
    await before?.();
    await waitFor(() => server.bindings.get(pod) === 1, 20_000, "the binding");
    check();
  } finally {
    ac.abort();
    await done;
  }
}

describe("kubesched run with DynamicResources", { timeout: 30_000 }, () => {
  it("allocates the claim's device, writes allocation and reservedFor through the API, then binds", async () => {
    await whenBound("default/p1", () => {
      const claim = server.get("ResourceClaim", "default", "gpu");
      expect(claim?.metadata?.finalizers).toEqual(["resource.kubernetes.io/delete-protection"]);
      expect(claim?.status).toEqual({
        allocation: {
          // DRADeviceBindingConditions and DRAResourceClaimDeviceStatus (on in 1.37) add the time.
          allocationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          devices: { results: [{ request: "gpu", driver: "gpu.example.com", pool: "n1", device: "gpu-0" }] },
          nodeSelector: {
            nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }],
          },
        },
        reservedFor: [{ resource: "pods", name: "p1", uid: "uid-p1" }],
      });
      expect(
        server.requestsTo("PUT", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/gpu/status"),
      ).toHaveLength(1);
    });
  });
});

describe("kubesched run with a DeviceTaintRule (DRADeviceTaintRules, GA in 1.37)", {
  timeout: 30_000,
}, () => {
  it("watches DeviceTaintRules: the pod waits while the rule taints the only device, and binds once it is deleted", async () => {
    server.put("DeviceTaintRule", {
      metadata: { name: "maintenance" },
      spec: { deviceSelector: { device: "gpu-0" }, taint: { key: "maintenance", effect: "NoSchedule" } },
    });
    const unschedulable = () =>
      (
        server.get("Pod", "default", "p1") as {
          status?: { conditions?: { type: string; reason?: string }[] };
        }
      )?.status?.conditions?.some((c) => c.type === "PodScheduled" && c.reason === "Unschedulable") === true;
    await whenBound(
      "default/p1",
      () => {
        const claim = server.get("ResourceClaim", "default", "gpu");
        expect(claim?.status?.allocation?.devices?.results).toEqual([
          { request: "gpu", driver: "gpu.example.com", pool: "n1", device: "gpu-0" },
        ]);
      },
      async () => {
        await waitFor(unschedulable, 20_000, "the pod's Unschedulable condition");
        expect(server.bindings.get("default/p1")).toBeUndefined();
        expect(server.requestsTo("GET", "/apis/resource.k8s.io/v1/devicetaintrules").length).toBeGreaterThan(
          0,
        );
        server.remove("DeviceTaintRule", undefined, "maintenance");
      },
    );
  });
});

describe("kubesched run with extended resources backed by a DeviceClass", { timeout: 30_000 }, () => {
  beforeEach(() => {
    // The class also backs example.com/gpu; p2 asks for two of its devices that way.
    server.put("DeviceClass", {
      metadata: { name: "gpu.example.com" },
      spec: { extendedResourceName: "example.com/gpu" },
    });
    putSlice("gpu-0", "gpu-1", "gpu-2");
    server.put(
      "Pod",
      makePod().name("p2").namespace("default").uid("uid-p2").req({ "example.com/gpu": "2" }).obj(),
    );
  });

  it("creates the pod's claim, allocates and reserves it, records it in the pod's status, then binds", async () => {
    await whenBound("default/p2", () => {
      expect(
        server.requestsTo("POST", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"),
      ).toHaveLength(1);
      const claim = server.list("ResourceClaim").find((c) => c.metadata?.name !== "gpu");
      expect(claim?.metadata?.name).toMatch(/^p2-extended-resources-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(claim?.metadata?.annotations).toEqual({
        "resource.kubernetes.io/extended-resource-claim": "true",
      });
      expect(claim?.metadata?.ownerReferences).toEqual([
        { apiVersion: "v1", kind: "Pod", name: "p2", uid: "uid-p2", controller: true },
      ]);
      expect(claim?.metadata?.finalizers).toEqual(["resource.kubernetes.io/delete-protection"]);
      expect(claim?.spec?.devices?.requests).toEqual([
        {
          name: "container-0-request-0",
          exactly: { deviceClassName: "gpu.example.com", allocationMode: "ExactCount", count: 2 },
        },
      ]);
      expect(claim?.status?.reservedFor).toEqual([{ resource: "pods", name: "p2", uid: "uid-p2" }]);
      expect(claim?.status?.allocation?.devices?.results).toHaveLength(2);
      const pod = server.get("Pod", "default", "p2");
      expect(pod?.spec?.nodeName).toBe("n1");
      expect(pod?.status?.extendedResourceClaimStatus).toEqual({
        resourceClaimName: claim?.metadata?.name,
        requestMappings: [
          { containerName: "con0", resourceName: "example.com/gpu", requestName: "container-0-request-0" },
        ],
      });
    });
  });
});

describe("kubesched run with DRANodeAllocatableResources", { timeout: 30_000 }, () => {
  it("DRANodeAllocatableResources: the pod's status gets the cpus its device maps to (PATCH pods/status), then it binds", async () => {
    // p1's class (no selector) would take any device: only p3 here.
    server.remove("Pod", "default", "p1");
    server.put("ResourceSlice", {
      metadata: { name: "n1-cpu" },
      spec: {
        driver: "dra.cpu",
        nodeName: "n1",
        pool: { name: "n1-cpu", generation: 1, resourceSliceCount: 1 },
        devices: [
          { name: "numa0", nodeAllocatableResources: { cpu: { mapping: { deviceMultiplier: "2" } } } },
        ],
      },
    });
    server.put("DeviceClass", {
      metadata: { name: "dra.cpu" },
      spec: { selectors: [{ cel: { expression: "device.driver == 'dra.cpu'" } }] },
    });
    server.put("ResourceClaim", {
      metadata: { name: "cpus", namespace: "default" },
      spec: { devices: { requests: [{ name: "cpus", exactly: { deviceClassName: "dra.cpu" } }] } },
    });
    const p3 = makePod()
      .name("p3")
      .namespace("default")
      .uid("uid-p3")
      .podResourceClaims({ name: "cpus", resourceClaimName: "cpus" })
      .obj();
    server.put("Pod", {
      ...p3,
      spec: {
        ...p3.spec,
        containers: [
          { name: "main", image: "i", resources: { requests: { cpu: "1" }, claims: [{ name: "cpus" }] } },
        ],
      },
    });
    const statuses = [
      { resourceClaimName: "cpus", containers: ["main"], mapping: [{ name: "cpu", quantity: "2" }] },
    ];
    await whenBound(
      "default/p3",
      () => {
        const patches = server
          .requestsTo("PATCH", "/api/v1/namespaces/default/pods/p3/status")
          .map((r) => r.body as { status?: { nodeAllocatableResourceClaimStatuses?: unknown } })
          .filter((b) => b.status?.nodeAllocatableResourceClaimStatuses !== undefined);
        expect(patches).toEqual([{ status: { nodeAllocatableResourceClaimStatuses: statuses } }]);
        const pod = server.get("Pod", "default", "p3");
        expect(pod?.spec?.nodeName).toBe("n1");
        expect(pod?.status?.nodeAllocatableResourceClaimStatuses).toEqual(statuses);
      },
      undefined,
      { enableDRANodeAllocatableResources: true },
    );
  });
});
