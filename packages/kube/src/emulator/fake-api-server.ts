// An API-server emulator for tests (node:http on 127.0.0.1, an ephemeral port), faithful to the
// list/watch semantics clients depend on (list.ts, watches.ts) over one store with etcd's single
// revision counter (object-store.ts): get, create, replace (resourceVersion preconditions), merge
// patches, delete, pods/binding (BindingREST's refusals), pods/status, events (create and series
// patches), status subresource PUTs (resourceclaims/status), Leases (writes.ts), TokenReview and SubjectAccessReview for delegated authentication
// of the serving endpoints (auth.ts).
//
// Fault injection: failing, hanging or cut matching requests (or served with their answer lost),
// watches closed after N events, ERROR events and abrupt resets on open watches, compaction, lease
// theft. Every request is recorded with its arrival time, the status it was answered and its
// RequestInfo (request-info.ts: what an RBAC rule must allow). Not a conformant API server: the
// scheduler's traffic, exactly.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { formatMicroTime, type VersionInfo } from "@kubesched/api";
import { DelegatedAuth } from "./auth";
import { collections, keyOf, optionalCollections } from "./collections";
import { discoveryDocument, isServed, type RuntimeConfig } from "./discovery";
import { listAnswer } from "./list";
import { type Obj, ObjectStore } from "./object-store";
import { requestInfo } from "./request-info";
import { type Fault, pathMatches, type RecordedRequest } from "./requests";
import { type Answer, failure, ok, reasons, status } from "./status";
import { Watches, type WatchOptions } from "./watches";
import { bind, create, notFound, patch, patchStatus, remove, replace, replaceStatus } from "./writes";

export interface FakeApiServerOptions extends WatchOptions {
  /** List with resourceVersion=0 ignores `limit`, as the API server's watch cache (default true). */
  watchCacheIgnoresLimit?: boolean;
  /**
   * What `GET /version` answers (default `defaultServerVersion`, a v1.37.0 server); null: 404, as
   * a server that does not serve it. `setVersion` changes it later.
   */
  version?: VersionInfo | null;
  /**
   * kube-apiserver's --runtime-config: `{"resource.k8s.io/v1/devicetaintrules": false}` stops
   * serving a resource, `{"resource.k8s.io/v1": false}` a whole group version (its discovery
   * too); `true` serves an optional collection (DeviceTaintRules in v1beta2 or v1alpha3).
   * `setRuntimeConfig` changes it later.
   */
  runtimeConfig?: RuntimeConfig;
}

/** The emulator's default /version: an upstream v1.37.0 build. */
export const defaultServerVersion: VersionInfo = {
  major: "1",
  minor: "37",
  emulationMajor: "1",
  emulationMinor: "37",
  minCompatibilityMajor: "1",
  minCompatibilityMinor: "36",
  gitVersion: "v1.37.0",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-08-26T00:00:00Z",
  goVersion: "go1.26.0",
  compiler: "gc",
  platform: "linux/amd64",
};

interface Hung {
  res: http.ServerResponse;
  request: RecordedRequest;
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  /** Successful bindings per pod ("namespace/name"): a pod bound twice shows 2. */
  readonly bindings = new Map<string, number>();
  private readonly store: ObjectStore;
  private readonly watches: Watches;
  private readonly auth = new DelegatedAuth();
  private readonly faults: Fault[] = [];
  private readonly hung = new Set<Hung>();
  private readonly sockets = new Set<Socket>();
  private version: VersionInfo | null;
  private runtimeConfig: RuntimeConfig;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly options: FakeApiServerOptions,
  ) {
    this.version = options.version === undefined ? defaultServerVersion : options.version;
    this.runtimeConfig = options.runtimeConfig ?? {};
    this.store = new ObjectStore((kind, entry) => this.watches.broadcast(kind, entry));
    this.watches = new Watches(this.store, options);
  }

  static async start(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const server = http.createServer();
    // Bindings of thousands of pods arrive at once; so do their connections.
    server.maxHeadersCount = 0;
    await new Promise<void>((resolve) =>
      server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve),
    );
    const { port } = server.address() as AddressInfo;
    const fake = new FakeApiServer(server, `http://127.0.0.1:${port}`, options);
    server.on("request", (req, res) => fake.handle(req, res));
    server.on("connection", (s: Socket) => {
      fake.sockets.add(s);
      s.on("close", () => fake.sockets.delete(s));
    });
    return fake;
  }

  /** A KubeConfig for this server (plain HTTP, so skipTLSVerify, and a bearer token). */
  kubeConfig(token = "fake-token"): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "fake", server: this.url, skipTLSVerify: true }],
      users: [{ name: "fake", token }],
      contexts: [{ name: "fake", cluster: "fake", user: "fake" }],
      currentContext: "fake",
    });
    return kc;
  }

  /** The same, as a kubeconfig file's text. */
  kubeConfigYAML(): string {
    return [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "- name: fake",
      "  cluster:",
      `    server: ${this.url}`,
      "    insecure-skip-tls-verify: true",
      "users:",
      "- name: fake",
      "  user:",
      "    token: fake-token",
      "contexts:",
      "- name: fake",
      "  context:",
      "    cluster: fake",
      "    user: fake",
      "current-context: fake",
      "",
    ].join("\n");
  }

  /** What `GET /version` answers from now on; null: 404. */
  setVersion(version: VersionInfo | null): void {
    this.version = version;
  }

  /** What is served from now on (see `FakeApiServerOptions.runtimeConfig`); open watches stay open. */
  setRuntimeConfig(config: RuntimeConfig): void {
    this.runtimeConfig = config;
  }

  /** The current resourceVersion (etcd revision). */
  resourceVersion(): number {
    return this.store.resourceVersion();
  }

  /** Current objects of a kind. */
  list(kind: string): Obj[] {
    return [...this.store.of(kind).values()];
  }

  get(kind: string, namespace: string | undefined, name: string): Obj | undefined {
    return this.store.get(kind, namespace, name);
  }

  /**
   * Creates or replaces an object (new resourceVersion). `silent`: the change is in the history
   * but not sent to the watches open now (a change they missed).
   */
  put(kind: string, obj: Obj, opts: { silent?: boolean } = {}): Obj {
    return this.store.put(kind, obj, opts.silent);
  }

  /** Deletes an object (see `put` for `silent`); false when it did not exist. */
  remove(
    kind: string,
    namespace: string | undefined,
    name: string,
    opts: { silent?: boolean } = {},
  ): boolean {
    return this.store.remove(kind, namespace, name, opts.silent);
  }

  /**
   * Compacts the history up to now: watches resuming from an older resourceVersion, exact lists
   * at one, and continue tokens pinned to one get 410 Expired.
   */
  compact(): void {
    this.store.compact();
  }

  /**
   * Compacts the history and ends every open watch of a kind with an ERROR event (410 "too old
   * resource version"), as a watch cache that dropped a slow watcher: informers must relist.
   */
  expire(kind: string): void {
    this.store.compact();
    this.watches.expire(kind);
  }

  /** Sends an ERROR event with `code` on every open watch of a kind, and ends them. */
  errorWatches(kind: string, code: number, message = "injected watch error"): void {
    this.watches.error(kind, code, message);
  }

  /** Ends every open watch of a kind normally (as the server's watch timeout would). */
  closeWatches(kind: string): void {
    this.watches.close(kind);
  }

  /** Cuts every open watch of a kind at the TCP level (a reset, no clean end of the stream). */
  resetWatches(kind: string): void {
    this.watches.reset(kind);
  }

  /** From now on, every watch (of `kind`, or of any kind) ends after sending `n` events; null: never. */
  setCloseWatchesAfter(n: number | null, kind?: string): void {
    this.watches.setCloseAfter(n, kind);
  }

  /** Sends a BOOKMARK now on every open watch that allows them. */
  bookmark(): void {
    this.watches.bookmark();
  }

  /** Number of open watches of a kind. */
  openWatches(kind: string): number {
    return this.watches.count(kind);
  }

  /** Makes matching requests fail with `status`, or hang. */
  fail(fault: Fault): void {
    this.faults.push({ times: 1, ...fault });
  }

  /** Removes every fault not yet used up. */
  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Requests hanging now. */
  hungRequests(): RecordedRequest[] {
    return [...this.hung].map((h) => h.request);
  }

  /** Answers every hanging request with 503 (the server is back). */
  releaseHung(): void {
    for (const h of [...this.hung]) {
      this.hung.delete(h);
      if (!h.res.writableEnded && !h.res.destroyed) this.reply(h.request, h.res, failure(503, "released"));
    }
  }

  /** Writes the Lease as held by `holder` (another candidate took it). */
  stealLease(namespace: string, name: string, holder: string, leaseDurationSeconds = 15): Obj {
    const cur = this.get("Lease", namespace, name);
    const now = formatMicroTime(Date.now());
    return this.put("Lease", {
      metadata: { name, namespace },
      spec: {
        holderIdentity: holder,
        leaseDurationSeconds,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: (cur?.spec?.leaseTransitions ?? 0) + 1,
      },
    });
  }

  /** TokenReview: `token` authenticates as `username` (in `groups`). */
  addToken(token: string, username: string, groups: string[] = []): void {
    this.auth.addToken(token, username, groups);
  }

  /** SubjectAccessReview: `user` may `get` non-resource `path` ("*" for every path). */
  allow(user: string, path = "*"): void {
    this.auth.allow(user, path);
  }

  /** Recorded requests matching method and path (prefix or regular expression). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pathMatches(r.path, path));
  }

  async close(): Promise<void> {
    this.watches.closeAll();
    for (const h of [...this.hung]) h.res.destroy();
    this.hung.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
      for (const s of this.sockets) s.destroy();
    });
  }

  private reply(r: RecordedRequest, res: http.ServerResponse, answer: Answer): void {
    if (res.writableEnded || res.destroyed) return;
    r.status = answer.code;
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.code, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(text),
    });
    res.end(text);
  }

  /** Records the request, then applies the first matching fault or serves it. */
  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", this.url);
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const method = req.method ?? "GET";
      const query = Object.fromEntries(url.searchParams);
      const r: RecordedRequest = {
        method,
        path: url.pathname,
        query,
        contentType: req.headers["content-type"],
        authorization: req.headers.authorization,
        userAgent: req.headers["user-agent"],
        body,
        at: Date.now(),
        info: requestInfo(method, url.pathname, query),
      };
      this.requests.push(r);
      const fault = this.faults.find(
        (f) => f.method === r.method && pathMatches(r.path, f.path) && (f.match === undefined || f.match(r)),
      );
      if (fault) {
        fault.times = (fault.times ?? 1) - 1;
        if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
        if (fault.delayMs !== undefined) {
          setTimeout(() => this.serve(r, res), fault.delayMs);
          return;
        }
        if (fault.hang) {
          const h: Hung = { res, request: r };
          this.hung.add(h);
          res.on("close", () => this.hung.delete(h));
          return;
        }
        // A write whose answer is lost: served (its change happens), the answer thrown away.
        if (fault.applied) this.answer(r, res);
        if (fault.reset) {
          r.status = 0;
          res.destroy();
          return;
        }
        const code = fault.status ?? 500;
        const causes = fault.causes?.map((type) => ({ type }));
        this.reply(r, res, ok(code, status(code, fault.reason ?? reasons[code] ?? "", "injected", causes)));
        return;
      }
      this.serve(r, res);
    });
  }

  private serve(r: RecordedRequest, res: http.ServerResponse): void {
    const answer = this.answer(r, res);
    if (answer) this.reply(r, res, answer);
  }

  /** Serves a request: its answer, or undefined for a watch (answered on `res`, status 200). */
  private answer(r: RecordedRequest, res: http.ServerResponse): Answer | undefined {
    try {
      const answer = this.route(r, res);
      if (!answer) r.status = 200;
      return answer;
    } catch (e) {
      return failure(500, e instanceof Error ? e.message : String(e));
    }
  }

  /** The answer to a request; undefined for a watch, which answers on `res` itself. */
  private route(r: RecordedRequest, res: http.ServerResponse): Answer | undefined {
    const segs = r.path.split("/").filter(Boolean);
    if (r.path === "/version" && r.method === "GET") {
      return this.version
        ? ok(200, this.version)
        : failure(404, "the server could not find the requested resource");
    }
    if (r.method === "GET" && segs.length <= (segs[0] === "api" ? 2 : 3)) {
      const doc = discoveryDocument(r.path, this.runtimeConfig);
      return doc ? ok(200, doc) : failure(404, "the server could not find the requested resource");
    }
    const gvLen = segs[0] === "api" ? 2 : 3;
    const gv = segs.slice(0, gvLen).join("/");
    let rest = segs.slice(gvLen);
    let namespace: string | undefined;
    if (rest[0] === "namespaces" && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const m = r.method;
    const body = r.body as Obj;
    if (gv === "apis/authentication.k8s.io/v1" && rest[0] === "tokenreviews" && m === "POST") {
      return ok(201, this.auth.tokenReview(body));
    }
    if (gv === "apis/authorization.k8s.io/v1" && rest[0] === "subjectaccessreviews" && m === "POST") {
      return ok(201, this.auth.subjectAccessReview(body));
    }
    const key = `${gv}/${rest[0] ?? ""}`;
    const info = isServed(key, this.runtimeConfig)
      ? (collections[key] ?? optionalCollections[key])
      : undefined;
    if (!info) return failure(404, `the server could not find the requested resource (${r.path})`);
    const name = rest[1];
    const sub = rest[2];
    const contentType = r.contentType ?? "";
    if (name === undefined) {
      if (m === "GET" && r.query.watch === "true") {
        return this.watches.serve(info, namespace, r.query, res);
      }
      if (m === "GET") {
        return listAnswer(this.store, info, namespace, r.query, this.options.watchCacheIgnoresLimit ?? true);
      }
      if (m === "POST") return create(this.store, info, namespace, body);
    } else if (sub === undefined) {
      if (m === "GET") {
        const cur = this.store.of(info.kind).get(keyOf(info, namespace, name));
        return cur ? ok(200, cur) : notFound(info, name);
      }
      if (m === "PUT") return replace(this.store, info, namespace, name, body);
      if (m === "PATCH") return patch(this.store, info, namespace, name, contentType, body);
      if (m === "DELETE") return remove(this.store, info, namespace, name);
    } else if (info.kind === "Pod" && sub === "binding" && m === "POST") {
      return bind(this.store, this.bindings, namespace, name, body);
    } else if (info.kind === "Pod" && sub === "status" && m === "PATCH") {
      return patchStatus(this.store, namespace, name, contentType, body);
    } else if (info.kind !== "Pod" && sub === "status" && m === "PUT") {
      return replaceStatus(this.store, info, namespace, name, body);
    }
    return failure(405, `${m} is not supported on ${r.path}`);
  }
}
