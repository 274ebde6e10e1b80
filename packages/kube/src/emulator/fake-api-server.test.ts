// The emulator's fault injection and request record: writes whose answer is lost (applied, then
// answered 500 or cut), requests cut before they are served, and the status each was answered.
import { makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultServerVersion, FakeApiServer, waitFor } from "../testing";

let server: FakeApiServer;

beforeEach(async () => {
  server = await FakeApiServer.start();
  server.put("Pod", makePod().name("foo").namespace("ns").obj());
});

afterEach(async () => {
  await server.close();
});

const bindingPath = "/api/v1/namespaces/ns/pods/foo/binding";

/** POSTs a binding of ns/foo to `node`: the status, or "reset" when the connection was cut. */
async function bind(node: string): Promise<number | "reset"> {
  try {
    const res = await fetch(`${server.url}${bindingPath}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ metadata: { name: "foo", namespace: "ns" }, target: { name: node } }),
    });
    await res.text();
    return res.status;
  } catch {
    return "reset";
  }
}

describe("faults", () => {
  it("applies a write and answers 500 instead (applied)", async () => {
    server.fail({ method: "POST", path: bindingPath, applied: true, status: 500 });
    expect(await bind("n1")).toBe(500);
    expect(server.get("Pod", "ns", "foo")?.spec.nodeName).toBe("n1");
    expect(await bind("n2")).toBe(409);
    expect(server.requestsTo("POST", bindingPath).map((r) => r.status)).toEqual([500, 409]);
    expect([...server.bindings]).toEqual([["ns/foo", 1]]);
  });

  it("applies a write and cuts the connection instead of answering (applied, reset)", async () => {
    server.fail({ method: "POST", path: bindingPath, applied: true, reset: true });
    expect(await bind("n1")).toBe("reset");
    expect(server.get("Pod", "ns", "foo")?.spec.nodeName).toBe("n1");
    expect(server.requestsTo("POST", bindingPath).map((r) => r.status)).toEqual([0]);
  });

  it("cuts the connection of a request it does not serve (reset)", async () => {
    server.fail({ method: "POST", path: bindingPath, reset: true });
    expect(await bind("n1")).toBe("reset");
    expect(server.get("Pod", "ns", "foo")?.spec.nodeName).toBeUndefined();
    expect(await bind("n2")).toBe(201);
    expect(server.requestsTo("POST", bindingPath).map((r) => r.status)).toEqual([0, 201]);
  });

  it("records no status for a request that hangs until it is released", async () => {
    server.fail({ method: "POST", path: bindingPath, hang: true });
    const answer = bind("n1");
    const hung = await waitFor(() => server.hungRequests()[0], 30_000, "the hung request");
    expect(hung.status).toBeUndefined();
    server.releaseHung();
    expect(await answer).toBe(503);
    expect(hung.status).toBe(503);
  });
});

describe("GET /version", () => {
  it("answers a v1.37.0 server by default, what the test configures, or 404", async () => {
    const api = await FakeApiServer.start({
      version: { ...defaultServerVersion, gitVersion: "v1.35.1", minor: "35" },
    });
    try {
      const get = () =>
        fetch(`${api.url}/version`).then(async (r) => ({ status: r.status, body: await r.json() }));
      expect(await get()).toMatchObject({ status: 200, body: { gitVersion: "v1.35.1", minor: "35" } });
      api.setVersion(null);
      expect((await get()).status).toBe(404);
    } finally {
      await api.close();
    }
    const plain = await FakeApiServer.start();
    try {
      expect(await fetch(`${plain.url}/version`).then((r) => r.json())).toEqual(defaultServerVersion);
    } finally {
      await plain.close();
    }
  });
});
