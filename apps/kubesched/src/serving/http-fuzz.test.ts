// A property test of the serving stack (issue 22's fuzz suite, its HTTP part): a few hundred
// random and malformed requests — request lines, targets, methods, versions, headers, bodies,
// requests cut short, bytes that are not HTTP, TLS ClientHellos cut short or garbled — sent on raw
// sockets to both listeners of `kubesched run` (runScheduler against the API-server emulator,
// which answers the TokenReviews and SubjectAccessReviews). Each case: the connection gets an
// answer or is closed within 10 s, no handler fails unexpectedly (no 500 of ours), the plain
// listener never serves /debug/pprof, the process stays under 1 GB RSS, and an authorized
// request on each listener still succeeds afterwards.
//
// Deterministic: seed 22, or KUBESCHED_FUZZ_SEED=N; a failure prints the seed and the path of
// the counterexample (fast-check's report) to replay it.
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getPlain,
  getSecure,
  type LiveServing,
  sendRaw,
  startLiveServing,
  statusOf,
} from "./serving.test-util";

const seed = Number(process.env.KUBESCHED_FUZZ_SEED ?? 22);
const numRuns = 300;
const caseTimeoutMs = 10_000;
const maxRssBytes = 1024 ** 3;

/** One case: what to send, where, and what the client does afterwards. */
interface Case {
  listener: "secure" | "plain";
  /** "http": HTTP bytes (over TLS on the secure listener); "tls": raw bytes to the TLS port. */
  layer: "http" | "tls";
  bytes: Uint8Array;
  /** keep: wait for an answer; end: half-close; destroy: cut the connection. */
  after: "keep" | "end" | "destroy";
  /** The request names a /debug/pprof path. */
  pprof: boolean;
}

const text = (maxLength: number) => fc.string({ unit: "binary-ascii", maxLength });
/** Characters that keep a header line one line. */
const noNewline = (maxLength: number) => text(maxLength).map((s) => s.replace(/[\r\n]/g, ""));

const paths = [
  "/healthz",
  "/healthz?verbose",
  "/healthz/ping",
  "/livez",
  "/readyz?exclude=shutdown&verbose",
  "/readyz/sched-handler-sync",
  "/metrics",
  "/configz",
  "/debug/pprof",
  "/debug/pprof/",
  "/debug/pprof/heap",
  "/debug/pprof/profile?seconds=1",
  "/healthz/../debug/pprof/heap",
  "/%2e%2e/metrics",
  "//[",
  "/constructor",
  "/__proto__/x",
  "/%",
  "/%zz",
  "http://%zz/",
  "http://[::1/metrics",
  "http://example/metrics",
  "*",
  "metrics",
  "",
];

// Mostly what a client would send, so that most cases reach authentication and the handlers.
const target = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...paths) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...paths), noNewline(40))
      .map(([p, s]) => `${p}${s.replace(/ /g, "")}`),
  },
  { weight: 2, arbitrary: noNewline(60) },
  { weight: 1, arbitrary: fc.constant(`/${"a".repeat(20_000)}`) },
);

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant("GET") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "HEAD",
      "POST",
      "PUT",
      "DELETE",
      "OPTIONS",
      "PATCH",
      "TRACE",
      "CONNECT",
      "PRI",
      "get",
      "G ET",
    ),
  },
  { weight: 1, arbitrary: noNewline(12) },
);

const version = fc.oneof(
  { weight: 12, arbitrary: fc.constant("HTTP/1.1") },
  { weight: 3, arbitrary: fc.constantFrom("HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "HTTP/1.10", "http/1.1", "") },
  { weight: 1, arbitrary: noNewline(10) },
);

/** Headers a client would send. */
const header = fc.constantFrom(
  "Authorization: Bearer fuzz-ok",
  "Authorization: Bearer fuzz-ok",
  "Authorization: Bearer fuzz-unknown",
  "Authorization: Basic Zm9vOmJhcg==",
  "Authorization: Bearer",
  "Connection: close",
  "Connection: keep-alive",
  "Accept: */*",
  "Content-Length: 0",
  "Content-Type: application/json",
  "Connection: Upgrade",
  "Upgrade: websocket",
  "Upgrade: h2c",
  "Expect: 100-continue",
  "Transfer-Encoding: chunked",
);

/** Headers a hostile or broken client sends. */
const hostileHeader = fc.oneof(
  fc.constantFrom(
    "Authorization: bearer  fuzz-ok",
    "Expect: the-unexpected",
    "Transfer-Encoding: gzip, chunked",
    "Content-Length: -1",
    "Content-Length: 99999999999999999999",
    "Content-Length: abc",
    "Host:",
    "Host: a b",
    " Folded: header",
    ": empty-name",
  ),
  fc.nat({ max: 2_000_000 }).map((n) => `Content-Length: ${n}`),
  fc.tuple(noNewline(20), noNewline(60)).map(([n, v]) => `${n}: ${v}`),
  fc.tuple(noNewline(20), noNewline(60)).map(([n, v]) => `Authorization: Bearer ${n}${v}`),
  fc.constant(`X-Big: ${"b".repeat(20_000)}`),
);

const body = fc.oneof(
  fc.constant(new Uint8Array()),
  fc.uint8Array({ maxLength: 2048 }),
  fc.constant(new TextEncoder().encode("5\r\nhello\r\n0\r\n\r\n")),
  fc.constant(new TextEncoder().encode("zz\r\nnot chunked\r\n")),
);

/** An HTTP/1 request (maybe malformed); `complete`: its head ends, so the server can answer it. */
const request = fc
  .record({
    method,
    target,
    version,
    // HTTP/1.1 without Host is 400 (Node's requireHostHeader, as Go's server).
    host: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    headers: fc.array(header, { maxLength: 4 }),
    hostile: fc.option(hostileHeader, { freq: 2 }),
    eol: fc.oneof({ weight: 8, arbitrary: fc.constant("\r\n") }, { weight: 1, arbitrary: fc.constant("\n") }),
    body,
  })
  .map((r) => {
    const head = [
      `${r.method} ${r.target} ${r.version}`.trimEnd(),
      ...(r.host ? ["Host: localhost"] : []),
      ...r.headers,
      ...(r.hostile === null ? [] : [r.hostile]),
    ].join(r.eol);
    const bytes = Buffer.concat([Buffer.from(`${head}${r.eol}${r.eol}`, "latin1"), r.body]);
    return { bytes: new Uint8Array(bytes), pprof: r.target.includes("pprof") };
  });

/** Requests a real client sends: they reach authentication, authorization and the handlers. */
const wellFormed = fc
  .record({
    method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST"),
    path: fc.constantFrom(...paths.filter((p) => p.startsWith("/"))),
    token: fc.constantFrom("fuzz-ok", "fuzz-ok", "fuzz-unknown", null),
    headers: fc.array(header, { maxLength: 3 }),
  })
  .map((r) => {
    const head = [
      `${r.method} ${r.path} HTTP/1.1`,
      "Host: localhost",
      ...(r.token ? [`Authorization: Bearer ${r.token}`] : []),
      ...r.headers,
    ].join("\r\n");
    return {
      bytes: new Uint8Array(Buffer.from(`${head}\r\n\r\n`, "latin1")),
      pprof: r.path.includes("pprof"),
    };
  });

/** Captured once: the ClientHello Node's TLS client sends, to cut short and garble. */
let clientHello: Uint8Array = new Uint8Array();

const tlsBytes = fc.oneof(
  fc.nat().map((n) => clientHello.slice(0, n % (clientHello.length + 1))),
  fc
    .tuple(fc.nat(), fc.nat({ max: 255 }))
    .map(([i, b]) => clientHello.map((x, j) => (j === i % clientHello.length ? b : x))),
  fc.uint8Array({ maxLength: 600 }).map((r) => new Uint8Array([0x16, 0x03, 0x01, ...r])),
  fc.uint8Array({ maxLength: 600 }),
);

const fuzzCase: fc.Arbitrary<Case> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom("secure", "plain"), wellFormed)
      .map(([listener, r]): Case => ({ listener, layer: "http", ...r, after: "keep" })),
  },
  // Whole requests, answered while the client waits.
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom("secure", "plain"), request)
      .map(([listener, r]): Case => ({ listener, layer: "http", ...r, after: "keep" })),
  },
  // Requests cut anywhere, then half-closed or cut.
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom("secure", "plain"), request, fc.nat(), fc.constantFrom("end", "destroy"))
      .map(
        ([listener, r, cut, after]): Case => ({
          listener,
          layer: "http",
          bytes: r.bytes.slice(0, cut % (r.bytes.length + 1)),
          after,
          pprof: r.pprof,
        }),
      ),
  },
  // Bytes that are not HTTP.
  fc
    .tuple(
      fc.constantFrom("secure", "plain"),
      fc.uint8Array({ maxLength: 4096 }),
      fc.constantFrom("end", "destroy"),
    )
    .map(([listener, bytes, after]): Case => ({ listener, layer: "http", bytes, after, pprof: false })),
  // TLS handshakes cut short or garbled.
  {
    weight: 2,
    arbitrary: fc
      .tuple(tlsBytes, fc.constantFrom("end", "destroy"))
      .map(([bytes, after]): Case => ({ listener: "secure", layer: "tls", bytes, after, pprof: false })),
  },
);

/** The first bytes Node's TLS client sends: a ClientHello. */
async function captureClientHello(): Promise<Uint8Array> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  const hello = new Promise<Buffer>((resolve) => server.once("connection", (s) => s.once("data", resolve)));
  const client = tls.connect({ host: "127.0.0.1", port, servername: "localhost", rejectUnauthorized: false });
  client.on("error", () => undefined);
  const bytes = await hello;
  client.destroy();
  server.close();
  return new Uint8Array(bytes);
}

describe("HTTP fuzz of the serving stack", () => {
  let live: LiveServing;
  const agent = new https.Agent({ keepAlive: true });
  beforeAll(async () => {
    clientHello = await captureClientHello();
    live = await startLiveServing();
    live.api.addToken("fuzz-ok", "fuzz");
    live.api.allow("fuzz", "/metrics");
    live.api.allow("fuzz", "/configz");
  }, 60_000);
  afterAll(async () => {
    agent.destroy();
    await live?.stop();
  });

  it(`never crashes or hangs (${numRuns} cases, seed ${seed})`, { timeout: 600_000 }, async () => {
    const internalErrors = () =>
      live.logger.entries.filter((e) => e.msg === "Internal error serving a request");
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        const s = live.serving;
        const port = c.listener === "secure" ? s.securePort : s.insecurePort;
        const answer = await sendRaw(port, c.bytes, {
          tls: c.listener === "secure" && c.layer === "http",
          after: c.after,
          timeoutMs: caseTimeoutMs,
          stopOnAnswer: c.after === "keep",
        });
        // An answer, or a closed connection, in time.
        if (c.after !== "destroy") expect(answer.end).not.toBe("timeout");
        if (c.listener === "plain" && c.pprof) expect(statusOf(answer.data)).not.toBe(200);
        expect(internalErrors()).toEqual([]);
        expect(process.memoryUsage().rss).toBeLessThan(maxRssBytes);
        // Still serving, on both listeners.
        expect((await getSecure(s, "/metrics", { token: "fuzz-ok", agent })).status).toBe(200);
        expect((await getPlain(s, "/healthz")).status).toBe(200);
      }),
      { seed, numRuns },
    );
  });
});
