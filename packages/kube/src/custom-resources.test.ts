import { type CustomObject, defineCustomResource } from "@kubesched/framework";
import type { ClusterEventHandlers } from "@kubesched/scheduler";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeClusterSource } from "./kube-cluster-source";
import { FakeApiServer, waitFor } from "./testing";

interface PodGroup extends CustomObject {
  spec?: { minMember?: number };
}

const podGroups = defineCustomResource<PodGroup>({
  group: "scheduling.x-k8s.io",
  version: "v1alpha1",
  resource: "podgroups",
  kind: "PodGroup",
  namespaced: true,
});

let server: FakeApiServer;
let source: KubeClusterSource | undefined;

beforeEach(async () => {
  server = await FakeApiServer.start();
});

afterEach(async () => {
  await source?.stop();
  source = undefined;
  await server.close();
});

const noop = () => {};
function handlers(calls: string[]): ClusterEventHandlers {
  return {
    onNodeAdd: noop,
    onNodeUpdate: noop,
    onNodeDelete: noop,
    onPodAdd: noop,
    onPodUpdate: noop,
    onPodDelete: noop,
    onOtherEvent: noop,
    onCustomResourceEvent: (r, action, o, n) =>
      calls.push(
        `${r.kind} ${action} ${((n ?? o) as PodGroup).metadata?.name} ${((n ?? o) as PodGroup).spec?.minMember}`,
      ),
  };
}

describe("KubeClusterSource custom resources", () => {
  it("runs an informer for each declared resource and serves it through listers().custom", async () => {
    server.put("PodGroup", { metadata: { name: "pg1", namespace: "ns" }, spec: { minMember: 2 } });
    source = new KubeClusterSource({
      kubeConfig: server.kubeConfig(),
      host: "test-host",
      customResources: [podGroups, podGroups],
    });
    source.start();
    expect(await source.waitForCacheSync()).toBe(true);
    expect(server.requestsTo("GET", "/apis/scheduling.x-k8s.io/v1alpha1/podgroups").length).toBeGreaterThan(
      0,
    );
    const lister = source.listers().custom(podGroups);
    expect(lister.get("ns", "pg1")?.spec?.minMember).toBe(2);
    expect(lister.get("ns", "pg1")?.kind).toBe("PodGroup");

    const calls: string[] = [];
    source.subscribe(handlers(calls));
    await waitFor(() => server.openWatches("PodGroup") === 1);
    server.put("PodGroup", { metadata: { name: "pg1", namespace: "ns" }, spec: { minMember: 3 } });
    server.put("PodGroup", { metadata: { name: "pg2", namespace: "ns" }, spec: { minMember: 1 } });
    server.remove("PodGroup", "ns", "pg2");
    await waitFor(() => calls.length === 3, 3000, "3 custom resource events");
    expect(calls).toEqual(["PodGroup Update pg1 3", "PodGroup Add pg2 1", "PodGroup Delete pg2 1"]);
    expect(lister.list("ns").map((o) => o.metadata?.name)).toEqual(["pg1"]);
  });

  it("refuses a lister for a resource no plugin declared", async () => {
    source = new KubeClusterSource({ kubeConfig: server.kubeConfig(), host: "test-host" });
    expect(() => source?.listers().custom(podGroups)).toThrow(
      "custom resource scheduling.x-k8s.io/v1alpha1/podgroups (PodGroup) is not declared by any plugin of the registry",
    );
    expect(server.requestsTo("GET", "/apis/scheduling.x-k8s.io").length).toBe(0);
  });
});
