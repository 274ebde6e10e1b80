// pods/binding as the API server's BindingREST answers it (upstream
// pkg/registry/core/pod/storage/storage_test.go: TestEtcdCreateBinding, TestEtcdCreateWithConflict,
// TestEtcdCreateWithSchedulingGates, TestEtcdCreateBindingWithUIDAndResourceVersion), over HTTP.
import { makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeApiServer } from "../testing";
import type { Obj } from "./object-store";

let server: FakeApiServer;

beforeEach(async () => {
  server = await FakeApiServer.start();
});

afterEach(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<{ code: number; body: Obj }> {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { code: res.status, body: (await res.json()) as Obj };
}

const binding = (name: string, target: Obj, metadata: Obj = {}) => ({
  apiVersion: "v1",
  kind: "Binding",
  metadata: { name, namespace: "ns", ...metadata },
  target,
});

const bind = (name: string, body: Obj) => post(`/api/v1/namespaces/ns/pods/${name}/binding`, body);

describe("pods/binding", () => {
  it("binds an unassigned pod: nodeName, PodScheduled True replacing the failure's reason, nomination cleared", async () => {
    server.put(
      "Pod",
      makePod()
        .name("foo")
        .namespace("ns")
        .nominatedNodeName("n9")
        .conditions([
          {
            type: "PodScheduled",
            status: "False",
            reason: "Unschedulable",
            message: "0/1 nodes are available",
            lastTransitionTime: "2024-01-01T00:00:00Z",
          },
        ])
        .obj(),
    );
    const res = await bind("foo", binding("foo", { name: "n1" }, { annotations: { a: "b" } }));
    expect(res).toMatchObject({ code: 201, body: { kind: "Status", status: "Success" } });
    const pod = server.get("Pod", "ns", "foo");
    expect(pod?.spec.nodeName).toBe("n1");
    expect(pod?.metadata.annotations).toEqual({ a: "b" });
    expect(pod?.status.nominatedNodeName).toBeUndefined();
    expect(pod?.status.conditions).toEqual([
      { type: "PodScheduled", status: "True", lastTransitionTime: expect.any(String) },
    ]);
    expect(pod?.status.conditions[0].lastTransitionTime).not.toBe("2024-01-01T00:00:00Z");
    expect([...server.bindings]).toEqual([["ns/foo", 1]]);
  });

  it("refuses a second binding with 409 Conflict, whatever the target, and counts one binding", async () => {
    server.put("Pod", makePod().name("foo").namespace("ns").obj());
    expect((await bind("foo", binding("foo", { name: "n1" }))).code).toBe(201);
    for (const node of ["n1", "n2"]) {
      expect(await bind("foo", binding("foo", { name: node }))).toMatchObject({
        code: 409,
        body: {
          reason: "Conflict",
          message:
            'Operation cannot be fulfilled on pods/binding "foo": pod foo is already assigned to node "n1"',
        },
      });
    }
    expect(server.get("Pod", "ns", "foo")?.spec.nodeName).toBe("n1");
    expect([...server.bindings]).toEqual([["ns/foo", 1]]);
  });

  const refusals: { name: string; pod: Obj; message: string }[] = [
    {
      name: "a pod being deleted",
      pod: makePod().name("foo").namespace("ns").terminating("2024-01-01T00:00:00Z").obj(),
      message: "pod foo is being deleted, cannot be assigned to a host",
    },
    {
      name: "a pod with scheduling gates",
      pod: makePod().name("foo").namespace("ns").schedulingGates(["foo", "bar"]).obj(),
      message: "pod foo has non-empty .spec.schedulingGates",
    },
  ];
  it.each(refusals)("refuses to bind $name with 409 Conflict", async (tc) => {
    server.put("Pod", tc.pod);
    expect(await bind("foo", binding("foo", { name: "n1" }))).toMatchObject({
      code: 409,
      body: {
        reason: "Conflict",
        message: `Operation cannot be fulfilled on pods/binding "foo": ${tc.message}`,
      },
    });
    expect(server.get("Pod", "ns", "foo")?.spec.nodeName).toBeUndefined();
    expect(server.bindings.size).toBe(0);
  });

  it("checks the binding's uid and resourceVersion as preconditions on the pod (409 on pods)", async () => {
    const pod = server.put("Pod", makePod().name("foo").namespace("ns").uid("uid-1").obj());
    const storageError = (msg: string) =>
      `Operation cannot be fulfilled on pods "foo": StorageError: invalid object, Code: 4, Key: /registry/pods/ns/foo, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${msg}`;
    expect(await bind("foo", binding("foo", { name: "n1" }, { uid: "uid-0" }))).toMatchObject({
      code: 409,
      body: {
        reason: "Conflict",
        message: storageError("UID in precondition: uid-0, UID in object meta: uid-1"),
      },
    });
    expect(
      await bind("foo", binding("foo", { name: "n1" }, { uid: "uid-1", resourceVersion: "1" })),
    ).toMatchObject({
      code: 409,
      body: {
        message: storageError(
          `ResourceVersion in precondition: 1, ResourceVersion in object meta: ${pod.metadata.resourceVersion}`,
        ),
      },
    });
    expect(server.bindings.size).toBe(0);
    const ok = binding(
      "foo",
      { name: "n1" },
      { uid: "uid-1", resourceVersion: pod.metadata.resourceVersion },
    );
    expect((await bind("foo", ok)).code).toBe(201);
  });

  it("answers 404 for a pod that does not exist", async () => {
    expect(await bind("foo", binding("foo", { name: "n1" }))).toMatchObject({
      code: 404,
      body: { reason: "NotFound", message: 'pods "foo" not found' },
    });
  });

  it("refuses a binding whose name is not the URL's (400) or whose target is not a named Node", async () => {
    server.put("Pod", makePod().name("foo").namespace("ns").obj());
    expect(await bind("foo", binding("bar", { name: "n1" }))).toMatchObject({
      code: 400,
      body: { reason: "BadRequest", message: "name in URL does not match name in Binding object" },
    });
    // ValidatePodBinding's aggregate is not a status error: the server answers 500.
    expect(await bind("foo", binding("foo", {}))).toMatchObject({
      code: 500,
      body: { message: "target.name: Required value" },
    });
    expect(await bind("foo", binding("foo", { kind: "Pod" }))).toMatchObject({
      code: 500,
      body: {
        message:
          '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]',
      },
    });
    expect(server.get("Pod", "ns", "foo")?.spec.nodeName).toBeUndefined();
    expect(server.bindings.size).toBe(0);
  });
});

describe("create with generateName", () => {
  it("names the object from generateName plus 5 characters, a new name each time; neither: 400", async () => {
    const path = "/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims";
    const claim = { metadata: { generateName: "p1-extended-resources-" }, spec: {} };
    const a = await post(path, claim);
    const b = await post(path, claim);
    expect(a.code).toBe(201);
    expect(b.code).toBe(201);
    expect(a.body.metadata?.name).toMatch(/^p1-extended-resources-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(b.body.metadata?.name).not.toBe(a.body.metadata?.name);
    expect(server.list("ResourceClaim").map((c) => c.metadata?.name)).toHaveLength(2);
    const none = await post(path, { metadata: {}, spec: {} });
    expect(none.code).toBe(400);
    expect(none.body.message).toBe("metadata.name: Required value: name or generateName is required");
  });
});
