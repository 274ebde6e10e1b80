// The emulator's discovery (/api, /apis, /apis/GROUP, /apis/GROUP/VERSION) and --runtime-config,
// and findUnservedResources over it: which watched collections a server does not serve, and in
// which versions it has them instead. A collection turned off is not found for lists and watches
// too, as on an API server where it is disabled.
import { afterEach, describe, expect, it } from "vitest";
import { Informer } from "./informer";
import { RawClient } from "./raw-client";
import { deviceTaintRuleResource, resources } from "./resources";
import { findUnservedResources } from "./served-resources";
import { FakeApiServer, type FakeApiServerOptions } from "./testing";

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(opts: FakeApiServerOptions = {}) {
  server = await FakeApiServer.start(opts);
  const get = async (path: string) => {
    const res = await fetch(`${server?.url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { server, get, client: new RawClient(server.kubeConfig()) };
}

describe("emulator discovery", () => {
  it("serves the groups, versions and resources of its collections, preferred version first", async () => {
    const { get } = await start({ runtimeConfig: { "resource.k8s.io/v1beta2/devicetaintrules": true } });
    expect((await get("/api")).body).toEqual({ kind: "APIVersions", versions: ["v1"] });
    const core = (await get("/api/v1")).body as { resources: { name: string }[] };
    expect(core.resources.map((r) => r.name)).toContain("pods");
    const groups = (await get("/apis")).body as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining(["apps", "resource.k8s.io", "storage.k8s.io", "scheduling.x-k8s.io"]),
    );
    expect((await get("/apis/resource.k8s.io")).body).toEqual({
      kind: "APIGroup",
      apiVersion: "v1",
      name: "resource.k8s.io",
      versions: [
        { groupVersion: "resource.k8s.io/v1", version: "v1" },
        { groupVersion: "resource.k8s.io/v1beta2", version: "v1beta2" },
      ],
      preferredVersion: { groupVersion: "resource.k8s.io/v1", version: "v1" },
    });
    const v1beta2 = (await get("/apis/resource.k8s.io/v1beta2")).body;
    expect(v1beta2).toMatchObject({
      kind: "APIResourceList",
      groupVersion: "resource.k8s.io/v1beta2",
      resources: [{ name: "devicetaintrules", kind: "DeviceTaintRule", namespaced: false }],
    });
    expect((await get("/apis/resource.k8s.io/v1alpha3")).status).toBe(404);
  });

  it("runtimeConfig turns off a resource or a whole group version: discovery, lists and watches", async () => {
    const { server: s, get } = await start({
      runtimeConfig: { "resource.k8s.io/v1/devicetaintrules": false },
    });
    const v1 = (await get("/apis/resource.k8s.io/v1")).body as { resources: { name: string }[] };
    expect(v1.resources.map((r) => r.name)).not.toContain("devicetaintrules");
    expect((await get("/apis/resource.k8s.io/v1/devicetaintrules")).status).toBe(404);
    expect((await get("/apis/resource.k8s.io/v1/devicetaintrules?watch=true")).status).toBe(404);
    s.setRuntimeConfig({ "resource.k8s.io/v1": false });
    expect((await get("/apis/resource.k8s.io/v1")).status).toBe(404);
    expect((await get("/apis/resource.k8s.io")).status).toBe(404);
    expect((await get("/apis/resource.k8s.io/v1/resourceclaims")).status).toBe(404);
    s.setRuntimeConfig({});
    expect((await get("/apis/resource.k8s.io/v1/devicetaintrules")).status).toBe(200);
  });

  it("an informer over a collection turned off never syncs (what `run` checks for first)", async () => {
    const { client } = await start({ runtimeConfig: { "resource.k8s.io/v1/devicetaintrules": false } });
    const errors: string[] = [];
    const informer = new Informer({
      client,
      resource: deviceTaintRuleResource("resource.k8s.io/v1"),
      handlers: { add: () => undefined, update: () => undefined, delete: () => undefined },
      backoff: { durationMs: 10, capMs: 10, steps: 1, factor: 1, jitter: 0 },
      onError: (e) => errors.push(e.message),
    });
    informer.start();
    await new Promise((r) => setTimeout(r, 200));
    await informer.stop();
    expect(informer.hasSynced()).toBe(false);
    expect(errors.length).toBeGreaterThan(1);
    expect(errors[0]).toMatch(/could not find the requested resource/);
  });
});

describe("findUnservedResources", () => {
  const watched = [resources.Node, resources.ResourceClaim, deviceTaintRuleResource("resource.k8s.io/v1")];

  it("nothing when every collection is served", async () => {
    const { client } = await start();
    expect(await findUnservedResources(client, watched)).toEqual([]);
  });

  it("a resource served in another version: where the server has it", async () => {
    const { client } = await start({
      runtimeConfig: {
        "resource.k8s.io/v1/devicetaintrules": false,
        "resource.k8s.io/v1beta2/devicetaintrules": true,
        "resource.k8s.io/v1alpha3/devicetaintrules": true,
      },
    });
    expect(await findUnservedResources(client, watched)).toEqual([
      {
        spec: watched[2],
        resource: "devicetaintrules",
        group: "resource.k8s.io",
        servedIn: ["resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"],
        groupVersions: ["resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"],
      },
    ]);
  });

  it("a group not served at all: every collection of it, with no versions", async () => {
    const { client } = await start({ runtimeConfig: { "resource.k8s.io/v1": false } });
    const unserved = await findUnservedResources(client, watched);
    expect(unserved.map((u) => [u.resource, u.servedIn, u.groupVersions])).toEqual([
      ["resourceclaims", [], []],
      ["devicetaintrules", [], []],
    ]);
  });

  it("discovery errors other than 404 are thrown", async () => {
    const { server: s, client } = await start();
    s.fail({ method: "GET", path: "/api/v1", status: 403 });
    await expect(findUnservedResources(client, watched)).rejects.toMatchObject({ statusCode: 403 });
  });
});
