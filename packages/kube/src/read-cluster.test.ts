// readCluster over the fake API server: every kind listed once, kinds set, pending pods filtered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCluster } from "./read-cluster";
import { FakeApiServer } from "./testing";

let api: FakeApiServer;
beforeAll(async () => {
  api = await FakeApiServer.start();
  api.put("Node", { metadata: { name: "n1", labels: { a: "b" } }, status: { allocatable: { cpu: "4" } } });
  const pod = (ns: string, name: string, labels: Record<string, string>, nodeName?: string) =>
    api.put("Pod", {
      metadata: { namespace: ns, name, labels },
      spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: "c", image: "x" }] },
    });
  pod("team-a", "running", { app: "x" }, "n1");
  pod("team-a", "web", { app: "web" });
  pod("team-a", "batch", { app: "batch" });
  pod("team-b", "web", { app: "web" });
});
afterAll(async () => {
  await api.close();
});

describe("readCluster", () => {
  it("lists every kind once, with kind and apiVersion on each item", async () => {
    const objs = await readCluster(api.kubeConfig());
    expect(objs.filter((o) => o.kind === "Node").map((o) => o.metadata?.name)).toEqual(["n1"]);
    expect(objs.filter((o) => o.kind === "Pod")).toHaveLength(4);
    expect(objs.every((o) => typeof o.apiVersion === "string")).toBe(true);
    expect(api.requestsTo("GET", "/api/v1/pods")[0]?.query.fieldSelector).toBe(
      "status.phase!=Succeeded,status.phase!=Failed",
    );
    expect(api.requests.some((r) => r.query.watch === "true")).toBe(false);
  });

  it("--namespace and --selector keep only matching pending pods; running pods all stay", async () => {
    const objs = await readCluster(api.kubeConfig(), { namespace: "team-a", selector: "app=web" });
    expect(
      objs
        .filter((o) => o.kind === "Pod")
        .map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`)
        .sort(),
    ).toEqual(["team-a/running", "team-a/web"]);
  });

  it("pages its lists as client-go's pager (limit, then continue tokens)", async () => {
    const before = api.requestsTo("GET", "/api/v1/pods").length;
    const objs = await readCluster(api.kubeConfig(), { pageSize: 1 });
    expect(objs.filter((o) => o.kind === "Pod")).toHaveLength(4);
    const pages = api.requestsTo("GET", "/api/v1/pods").slice(before);
    expect(pages.map((r) => r.query.limit)).toEqual(["1", "1", "1", "1"]);
    expect(pages[0]?.query.continue).toBeUndefined();
    expect(pages.slice(1).every((r) => typeof r.query.continue === "string")).toBe(true);
    expect(pages.every((r) => r.query.fieldSelector === "status.phase!=Succeeded,status.phase!=Failed")).toBe(
      true,
    );
  });
});
