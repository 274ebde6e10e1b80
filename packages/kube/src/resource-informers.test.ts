// DRA objects (resource.k8s.io/v1) over the API server: the live source's informers fill the
// listers and deliver changes, and readCluster (`kubesched snapshot`, `--kubeconfig`) lists them.
import type { ClusterEventHandlers } from "@kubesched/scheduler";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeClusterSource } from "./kube-cluster-source";
import { readCluster } from "./read-cluster";
import { deviceTaintRuleAPIVersionAt } from "./resources";
import { FakeApiServer, waitFor } from "./testing";

let server: FakeApiServer;

/** A node's slice of one GPU. */
const slice = (node: string) => ({
  metadata: { name: `${node}-gpu` },
  spec: {
    driver: "gpu.example.com",
    nodeName: node,
    pool: { name: node, generation: 1, resourceSliceCount: 1 },
    devices: [{ name: "gpu-0" }],
  },
});
let source: KubeClusterSource | undefined;

/** Handlers that record `<kind> <action> <name>` of every event other than a node's or a pod's. */
const recordingOtherEvents = (events: string[]): ClusterEventHandlers => ({
  onNodeAdd: () => {},
  onNodeUpdate: () => {},
  onNodeDelete: () => {},
  onPodAdd: () => {},
  onPodUpdate: () => {},
  onPodDelete: () => {},
  onOtherEvent: (kind, action, o, n) =>
    events.push(`${kind} ${action} ${((n ?? o) as { metadata?: { name?: string } }).metadata?.name}`),
});

beforeEach(async () => {
  server = await FakeApiServer.start();
  server.put("DeviceClass", { metadata: { name: "gpu.example.com" }, spec: {} });
  server.put("ResourceSlice", slice("n1"));
  server.put("ResourceClaim", {
    metadata: { name: "c", namespace: "ml" },
    spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] } },
  });
  server.put("ResourceClaimTemplate", {
    metadata: { name: "t", namespace: "ml" },
    spec: { spec: { devices: { requests: [] } } },
  });
});

afterEach(async () => {
  await source?.stop();
  source = undefined;
  await server.close();
});

describe("DRA informers", () => {
  it("the live source lists and watches ResourceClaims, ResourceClaimTemplates, ResourceSlices and DeviceClasses", async () => {
    source = new KubeClusterSource({ kubeConfig: server.kubeConfig(), host: "test-host" });
    const events: string[] = [];
    source.start();
    expect(await source.waitForCacheSync()).toBe(true);
    source.subscribe(recordingOtherEvents(events));
    const listers = source.listers();
    expect(listers.deviceClasses.get("gpu.example.com")?.metadata?.name).toBe("gpu.example.com");
    expect(listers.resourceSlices.get("n1-gpu")?.spec.devices).toEqual([{ name: "gpu-0" }]);
    expect(listers.resourceClaims.get("ml", "c")?.spec?.devices?.requests?.[0]?.name).toBe("gpu");
    expect(listers.resourceClaimTemplates.get("ml", "t")).toBeDefined();
    for (const path of ["resourceclaims", "resourceclaimtemplates", "resourceslices", "deviceclasses"]) {
      expect(server.requestsTo("GET", `/apis/resource.k8s.io/v1/${path}`).length).toBeGreaterThan(0);
    }

    server.put("ResourceSlice", slice("n2"));
    await waitFor(() => events.includes("ResourceSlice Add n2-gpu"), 30_000);
    expect(listers.resourceSlices.list().map((s) => s.metadata?.name)).toEqual(["n1-gpu", "n2-gpu"]);
  }, 60_000);

  it("readCluster (kubesched snapshot) lists them with kind and apiVersion", async () => {
    const objs = await readCluster(server.kubeConfig());
    expect(
      objs
        .filter((o) => o.apiVersion === "resource.k8s.io/v1")
        .map((o) => `${o.kind} ${o.metadata?.namespace ?? ""}/${o.metadata?.name}`),
    ).toEqual([
      "ResourceClaim ml/c",
      "ResourceClaimTemplate ml/t",
      "ResourceSlice /n1-gpu",
      "DeviceClass /gpu.example.com",
    ]);
  }, 60_000);

  const rule = (name: string) => ({
    metadata: { name },
    spec: {
      deviceSelector: { driver: "gpu.example.com" },
      taint: { key: "maintenance", effect: "NoSchedule" },
    },
  });

  it("with DRADeviceTaintRules the live source watches DeviceTaintRules in the release's version and delivers them", async () => {
    expect([deviceTaintRuleAPIVersionAt("1.35"), deviceTaintRuleAPIVersionAt("1.36")]).toEqual([
      "resource.k8s.io/v1alpha3",
      "resource.k8s.io/v1beta2",
    ]);
    server.put("DeviceTaintRule", rule("r1"));
    source = new KubeClusterSource({
      kubeConfig: server.kubeConfig(),
      host: "test-host",
      deviceTaintRuleAPIVersion: deviceTaintRuleAPIVersionAt("1.37"),
    });
    const events: string[] = [];
    source.start();
    expect(await source.waitForCacheSync()).toBe(true);
    source.subscribe(recordingOtherEvents(events));
    const listers = source.listers();
    expect(listers.deviceTaintRules?.get("r1")?.spec.taint).toEqual({
      key: "maintenance",
      effect: "NoSchedule",
    });
    expect(server.requestsTo("GET", "/apis/resource.k8s.io/v1/devicetaintrules").length).toBeGreaterThan(0);
    server.put("DeviceTaintRule", rule("r2"));
    await waitFor(() => events.includes("DeviceTaintRule Add r2"), 30_000);
    server.remove("DeviceTaintRule", undefined, "r1");
    await waitFor(() => events.includes("DeviceTaintRule Delete r1"), 30_000);
    expect(listers.deviceTaintRules?.list().map((r) => r.metadata?.name)).toEqual(["r2"]);
  }, 60_000);

  it("without it no DeviceTaintRule informer runs (upstream starts none with the gate off)", async () => {
    source = new KubeClusterSource({ kubeConfig: server.kubeConfig(), host: "test-host" });
    source.start();
    expect(await source.waitForCacheSync()).toBe(true);
    expect(source.listers().deviceTaintRules).toBeUndefined();
    expect(server.requestsTo("GET", "/apis/resource.k8s.io/v1/devicetaintrules")).toEqual([]);
  }, 60_000);

  it("readCluster lists DeviceTaintRules in the newest version the server serves", async () => {
    server.put("DeviceTaintRule", rule("r1"));
    const objs = await readCluster(server.kubeConfig());
    expect(objs.filter((o) => o.kind === "DeviceTaintRule")).toMatchObject([
      { apiVersion: "resource.k8s.io/v1", metadata: { name: "r1" } },
    ]);
  }, 60_000);
});
