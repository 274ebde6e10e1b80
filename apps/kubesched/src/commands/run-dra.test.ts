// `kubesched run` with DynamicResources against the API-server emulator: the pod's claim is
// allocated from the ResourceSlice and PreBind writes the finalizer (PUT resourceclaims), then the
// allocation and reservedFor (PUT resourceclaims/status), before the binding.
import { defaultConfig } from "@kubesched/config";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runScheduler } from "./run";

let server: FakeApiServer;

beforeEach(async () => {
  server = await FakeApiServer.start();
  server.put(
    "Node",
    makeNode().name("n1").label("kubernetes.io/hostname", "n1").capacity({ cpu: "4" }).obj(),
  );
  server.put("DeviceClass", { metadata: { name: "gpu.example.com" }, spec: {} });
  server.put("ResourceSlice", {
    metadata: { name: "n1-gpu" },
    spec: {
      driver: "gpu.example.com",
      nodeName: "n1",
      pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
      devices: [{ name: "gpu-0" }],
    },
  });
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

describe("kubesched run with DynamicResources", { timeout: 30_000 }, () => {
  it("allocates the claim's device, writes allocation and reservedFor through the API, then binds", async () => {
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
    });
    await waitFor(() => server.bindings.get("default/p1") === 1, 20_000, "the binding");
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
    ac.abort();
    await done;
  });
});
