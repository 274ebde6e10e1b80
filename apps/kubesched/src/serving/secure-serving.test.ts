// The serving stack of `kubesched run` against what a stranger sends: each request below once
// killed the process or hung a connection; now each gets an HTTP error (or a closed connection)
// and a log line, and the servers keep serving.
import { recordingLogger } from "@kubesched/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestURL, type Serving, startServing } from "./secure-serving";
import {
  getPlain,
  getSecure,
  type LiveServing,
  sendRaw,
  startLiveServing,
  statusOf,
} from "./serving.test-util";

// TLS handshakes and a scheduler on a loaded 2-core machine: generous timeouts.
const timeoutMs = 20_000;

describe("the serving stack keeps serving whatever a client sends", { timeout: 60_000 }, () => {
  let live: LiveServing;
  let s: Serving;
  beforeAll(async () => {
    live = await startLiveServing();
    s = live.serving;
    live.api.addToken("admin", "admin", ["system:masters"]);
  }, 60_000);
  afterAll(() => live?.stop());

  const stillServing = async () => {
    expect(await getSecure(s, "/metrics", { token: "admin" })).toMatchObject({ status: 200 });
    expect((await getPlain(s, "/healthz")).status).toBe(200);
  };
  const both = (fn: (port: number, tls: boolean) => Promise<void>) => async () => {
    await fn(s.securePort, true);
    await fn(s.insecurePort, false);
    await stillServing();
  };
  // Requests ask the server to close after its answer (a client that half-closes its side is
  // gone: Node, as Go, drops the answer to it).
  const raw = (port: number, tls: boolean, bytes: string) =>
    sendRaw(port, bytes, { tls, after: "keep", timeoutMs });
  const logged = (msg: string) => live.logger.entries.some((e) => e.msg === msg);

  it(
    "a request target that is not a URL (issue 22: `--request-target 'http://%zz/'`) gets 400",
    both(async (port, tls) => {
      const a = await raw(port, tls, "GET http://%zz/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      expect(statusOf(a.data)).toBe(400);
      expect(a.data.toString()).toContain('"reason":"BadRequest"');
      expect(
        (
          await raw(port, tls, "GET metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        ).data.toString(),
      ).toMatch(/^HTTP\/1\.1 400 /);
      expect(logged("Rejected a request with a malformed target")).toBe(true);
    }),
  );

  it(
    "a path that starts with // (issue 22: `--request-target '//['`) is a path, not a host",
    both(async (port, tls) => {
      // The secure port: anonymous may not get it (403); the plain port has no such page (404).
      expect(
        statusOf((await raw(port, tls, "GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).data),
      ).toBe(tls ? 403 : 404);
    }),
  );

  it(
    "a request Node cannot parse (method, header, version) gets 400, oversized headers 431",
    both(async (port, tls) => {
      for (const bad of [
        "FOO /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: \u0001\r\n\r\n",
        "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
        "\u0000\u0001\u0002\r\n\r\n",
      ]) {
        const a = await raw(port, tls, bad);
        expect(statusOf(a.data), JSON.stringify(bad)).toBe(400);
        expect(a.end).toBe("closed");
      }
      const huge = await raw(
        port,
        tls,
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      );
      expect(statusOf(huge.data)).toBe(431);
      expect(logged("Rejected a malformed request")).toBe(true);
    }),
  );

  it(
    "a body is never read: the answer closes the connection",
    both(async (port, tls) => {
      // 1 GB announced, a few bytes sent, the client still sending: 405 and the connection closes.
      const post = await sendRaw(
        port,
        "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\nabc",
        { tls, after: "keep", timeoutMs },
      );
      expect(statusOf(post.data)).toBe(405);
      expect(post.data.toString()).toMatch(/\r\nConnection: close\r\n/i);
      expect(post.end).toBe("closed");
      const get = await sendRaw(port, "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", {
        tls,
        after: "keep",
        timeoutMs,
      });
      expect(statusOf(get.data)).toBe(200);
      expect(get.end).toBe("closed");
    }),
  );

  it(
    "connections cut in the middle of a request, or of the TLS handshake, leave no trace but a log line",
    both(async (port, tls) => {
      for (const part of ["GET /metr", "GET /metrics HTTP/1.1\r\nHost: x\r\nAuthoriz"]) {
        await sendRaw(port, part, { tls, after: "destroy", timeoutMs });
        // Half-closed: a 400 if the server can still answer, else a closed connection.
        const a = await sendRaw(port, part, { tls, after: "end", timeoutMs });
        expect(a.end).toBe("closed");
        expect([400, null]).toContain(statusOf(a.data));
      }
      // A TLS ClientHello cut short, and bytes that are not TLS at all.
      const hello = Buffer.from("16030100c4010000c00303", "hex");
      for (const bytes of [hello, Buffer.from("GET / HTTP/1.1\r\n\r\n")]) {
        const a = await sendRaw(s.securePort, bytes, { tls: false, after: "end", timeoutMs });
        expect(a.end).not.toBe("timeout");
      }
      expect(logged("TLS handshake error")).toBe(true);
    }),
  );

  it(
    "paths that name Object.prototype members are not health check groups (404, not 500)",
    both(async (port, tls) => {
      for (const path of ["/constructor", "/__proto__/x", "/toString"]) {
        const a = await raw(
          port,
          tls,
          `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer admin\r\n\r\n`,
        );
        expect(statusOf(a.data), path).toBe(404);
      }
    }),
  );

  it("the plain listener never serves /debug/pprof (issue 22: the heap snapshot holds the credentials)", async () => {
    for (const path of [
      "/debug/pprof/heap",
      "/debug/pprof/profile?seconds=1",
      "/debug/pprof/",
      "/debug/pprof",
    ]) {
      const r = await getPlain(s, path);
      expect(r.status, path).toBe(403);
      expect(JSON.parse(r.body).message).toBe(
        "forbidden: /debug/pprof is served only on the secure port (--secure-port), to authorized users",
      );
    }
    // The secure port serves it to users the API server authorizes (here system:masters).
    expect((await getSecure(s, "/debug/pprof/", { token: "admin" })).status).toBe(200);
    expect((await getSecure(s, "/debug/pprof/heap")).status).toBe(403);
  });

  it("one CPU profile at a time, as Go's pprof", async () => {
    const first = getSecure(s, "/debug/pprof/profile?seconds=2", { token: "admin" });
    // The first holds the profiler until it is done: wait until a second one is refused.
    let second = await getSecure(s, "/debug/pprof/profile?seconds=1", { token: "admin" });
    for (let i = 0; i < 5 && second.status === 200; i++)
      second = await getSecure(s, "/debug/pprof/profile?seconds=1", { token: "admin" });
    expect(second).toEqual({
      status: 500,
      body: "Could not enable CPU profiling: cpu profiling already in use\n",
    });
    expect((await first).status).toBe(200);
  });
});

describe("startServing: errors inside handlers and slow clients", { timeout: 60_000 }, () => {
  it("a handler that throws answers 500 with a log line; the server keeps serving", async () => {
    const logger = recordingLogger(0);
    const serving = await startServing({
      bindAddress: "127.0.0.1",
      securePort: 0,
      insecurePort: -1,
      tls: {},
      authClient: {
        request: () => Promise.reject(new Error("no API server in this test")),
      },
      alwaysAllowPaths: [],
      endpoints: {
        healthz: [],
        livez: [],
        readyz: [],
        metrics: () => Promise.reject(new Error("the registry is broken")),
        configz: () => {
          throw new Error("the configuration cannot be encoded");
        },
        profiling: true,
        logger,
      },
    });
    try {
      expect(await getPlain(serving, "/metrics")).toEqual({ status: 500, body: "the registry is broken\n" });
      expect(await getPlain(serving, "/configz")).toEqual({
        status: 500,
        body: "the configuration cannot be encoded\n",
      });
      expect((await getPlain(serving, "/healthz")).status).toBe(200);
      expect(logger.entries.find((e) => e.msg === "Internal error serving a request")).toMatchObject({
        level: "error",
        fields: { path: "/metrics", err: "the registry is broken" },
      });
    } finally {
      await serving.close();
    }
  });

  it("a client that sends its headers slowly, or never finishes a TLS handshake, is cut off (408)", async () => {
    const logger = recordingLogger(0);
    const serving = await startServing({
      bindAddress: "127.0.0.1",
      securePort: -1,
      insecurePort: -1,
      tls: {},
      authClient: { request: () => Promise.reject(new Error("unused")) },
      alwaysAllowPaths: [],
      timeouts: { headersMs: 300, requestMs: 600, idleMs: 300 },
      endpoints: {
        healthz: [],
        livez: [],
        readyz: [],
        metrics: async () => ({ contentType: "text/plain", text: "" }),
        configz: () => ({}),
        profiling: false,
        logger,
      },
    });
    try {
      // Headers never finished; the client keeps the connection open.
      const slow = await sendRaw(serving.insecurePort, "GET /healthz HTTP/1.1\r\nHost: x\r\n", {
        tls: false,
        after: "keep",
        timeoutMs,
      });
      expect(statusOf(slow.data)).toBe(408);
      expect(slow.end).toBe("closed");
      // A TCP connection to the TLS port that never says anything.
      const silent = await sendRaw(serving.securePort, "", { tls: false, after: "keep", timeoutMs });
      expect(silent.end).not.toBe("timeout");
      // A keep-alive connection left idle after its answer is closed.
      const idle = await sendRaw(serving.insecurePort, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", {
        tls: false,
        after: "keep",
        timeoutMs,
      });
      expect(statusOf(idle.data)).toBe(200);
      expect(idle.end).toBe("closed");
    } finally {
      await serving.close();
    }
  });
});

describe("requestURL", () => {
  it("takes a path or an absolute URL, as Go's url.ParseRequestURI; nothing else", () => {
    expect(requestURL("/metrics?x=1")?.pathname).toBe("/metrics");
    expect(requestURL("//[")?.pathname).toBe("//[");
    expect(requestURL("//evil.example/metrics")?.pathname).toBe("//evil.example/metrics");
    expect(requestURL("http://example/metrics")?.pathname).toBe("/metrics");
    expect(requestURL("/healthz/../metrics")?.pathname).toBe("/metrics");
    for (const bad of ["http://%zz/", "metrics", "*", "", undefined]) expect(requestURL(bad)).toBeNull();
  });
});
