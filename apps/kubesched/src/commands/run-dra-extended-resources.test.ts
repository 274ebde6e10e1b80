// `kubesched run` with extended resources backed by a DeviceClass (DRAExtendedResource) against
// the API-server emulator: a pod asking `example.com/gpu: 2` on a node without a device plugin
// for it gets the claim DynamicResources creates in PreBind (POST resourceclaims with
// generateName `<pod>-extended-resources-`), allocated and reserved for it (PUT
// resourceclaims/status), and its status.extendedResourceClaimStatus (PATCH pods/status), before
// the binding.
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
  server.put("DeviceClass", {
    metadata: { name: "gpu.example.com" },
    spec: { extendedResourceName: "example.com/gpu" },
  });
  server.put("ResourceSlice", {
    metadata: { name: "n1-gpu" },
    spec: {
      driver: "gpu.example.com",
      nodeName: "n1",
      pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
      devices: [{ name: "gpu-0" }, { name: "gpu-1" }, { name: "gpu-2" }],
    },
  });
  const pod = makePod().name("p1").namespace("default").uid("uid-p1").req({ "example.com/gpu": "2" }).obj();
  server.put("Pod", pod);
});

afterEach(async () => {
  await server.close();
});

describe("kubesched run with extended resources backed by a DeviceClass", { timeout: 30_000 }, () => {
  it("creates the pod's claim, allocates and reserves it, records it in the pod's status, then binds", async () => {
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
    expect(
      server.requestsTo("POST", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"),
    ).toHaveLength(1);
    const claims = server.list("ResourceClaim");
    expect(claims).toHaveLength(1);
    const claim = claims[0];
    expect(claim?.metadata?.name).toMatch(/^p1-extended-resources-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(claim?.metadata?.annotations).toEqual({
      "resource.kubernetes.io/extended-resource-claim": "true",
    });
    expect(claim?.metadata?.ownerReferences).toEqual([
      { apiVersion: "v1", kind: "Pod", name: "p1", uid: "uid-p1", controller: true },
    ]);
    expect(claim?.metadata?.finalizers).toEqual(["resource.kubernetes.io/delete-protection"]);
    expect(claim?.spec?.devices?.requests).toEqual([
      {
        name: "container-0-request-0",
        exactly: { deviceClassName: "gpu.example.com", allocationMode: "ExactCount", count: 2 },
      },
    ]);
    expect(claim?.status?.reservedFor).toEqual([{ resource: "pods", name: "p1", uid: "uid-p1" }]);
    expect(claim?.status?.allocation?.devices?.results).toHaveLength(2);
    const pod = server.get("Pod", "default", "p1");
    expect(pod?.spec?.nodeName).toBe("n1");
    expect(pod?.status?.extendedResourceClaimStatus).toEqual({
      resourceClaimName: claim?.metadata?.name,
      requestMappings: [
        { containerName: "con0", resourceName: "example.com/gpu", requestName: "container-0-request-0" },
      ],
    });
    ac.abort();
    await done;
  });
});
