// An API-server emulator for tests (node:http on 127.0.0.1, an ephemeral port), faithful to the
// list/watch semantics clients depend on:
//
// - one resourceVersion counter for every kind (etcd's revision); lists are sorted by key;
// - list: resourceVersion "" is a consistent read, "0" any state (the watch cache: `limit` is
//   ignored unless `watchCacheIgnoresLimit` is off), N "not older than" N (no limit) — or exactly
//   N with resourceVersionMatch=Exact or with a limit (served from history; 410 Expired once
//   compacted); a version newer than the server's is a 504 "Too large resource version". `limit` pages with `continue` tokens that pin the first page's version (410 once
//   that version is compacted);
// - watch: from "" or "0" synthetic ADDED events of the current state, from N every change after
//   N (410 ERROR "too old resource version" once compacted); field selectors turn changes into
//   ADDED/DELETED as objects enter or leave them; BOOKMARK events (allowWatchBookmarks) every
//   `bookmarkIntervalMs`; the stream ends at `timeoutSeconds`;
// - get, create, replace (resourceVersion preconditions), merge patches, delete, pods/binding
//   (409 when already bound), pods/status, events (create and series patches), Leases,
//   TokenReview and SubjectAccessReview (for delegated authentication of the serving endpoints).
//
// Fault injection: failing or hanging matching requests, watches closed after N events, ERROR
// events and abrupt resets on open watches, compaction, lease theft. Every request is recorded
// with its arrival time. Not a conformant API server: the scheduler's traffic, exactly.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  userAgent: string | undefined;
  body: unknown;
  /** Arrival time (Date.now()). */
  at: number;
}

export interface Fault {
  method: string;
  /** Matches the path (without the query): a prefix string or a regular expression. */
  path: string | RegExp;
  /** The status to answer with; absent with `hang`. */
  status?: number;
  /** Never answer (until `releaseHung()` or close). */
  hang?: boolean;
  /** Serve the request normally, but answer only after this many ms (a reply the client may miss). */
  delayMs?: number;
  /** How many matching requests are affected (default 1; Infinity for all). */
  times?: number;
  reason?: string;
  /** metav1.Status details.causes types of the answer (e.g. ResourceVersionTooLarge). */
  causes?: string[];
  /** Only requests for which this holds (e.g. on their query). */
  match?: (r: RecordedRequest) => boolean;
}

export interface FakeApiServerOptions {
  /** Interval of BOOKMARK events on watches that allow them (default 60 s, as the API server). */
  bookmarkIntervalMs?: number;
  /** Upper bound of a watch's life in seconds whatever timeoutSeconds says (default none). */
  maxWatchSeconds?: number;
  /** List with resourceVersion=0 ignores `limit`, as the API server's watch cache (default true). */
  watchCacheIgnoresLimit?: boolean;
}

interface KindInfo {
  kind: string;
  apiVersion: string;
  namespaced: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, inspected loosely by tests
type Obj = Record<string, any>;

interface HistoryEntry {
  rv: number;
  type: "ADDED" | "MODIFIED" | "DELETED";
  key: string;
  obj: Obj;
  old: Obj | undefined;
}

interface Watcher {
  kind: string;
  namespace: string | undefined;
  selector: FieldSelector;
  res: http.ServerResponse;
  bookmarks: boolean;
  /** Events sent (bookmarks included). */
  sent: number;
  timers: NodeJS.Timeout[];
}

interface Hung {
  res: http.ServerResponse;
  request: RecordedRequest;
}

/** The collections served, by "<group-version path>/<resource>". */
const collections: Record<string, KindInfo> = {
  "api/v1/nodes": { kind: "Node", apiVersion: "v1", namespaced: false },
  "api/v1/pods": { kind: "Pod", apiVersion: "v1", namespaced: true },
  "api/v1/namespaces": { kind: "Namespace", apiVersion: "v1", namespaced: false },
  "api/v1/persistentvolumes": { kind: "PersistentVolume", apiVersion: "v1", namespaced: false },
  "api/v1/persistentvolumeclaims": { kind: "PersistentVolumeClaim", apiVersion: "v1", namespaced: true },
  "api/v1/services": { kind: "Service", apiVersion: "v1", namespaced: true },
  "api/v1/replicationcontrollers": { kind: "ReplicationController", apiVersion: "v1", namespaced: true },
  "apis/storage.k8s.io/v1/storageclasses": {
    kind: "StorageClass",
    apiVersion: "storage.k8s.io/v1",
    namespaced: false,
  },
  "apis/storage.k8s.io/v1/csinodes": { kind: "CSINode", apiVersion: "storage.k8s.io/v1", namespaced: false },
  "apis/policy/v1/poddisruptionbudgets": {
    kind: "PodDisruptionBudget",
    apiVersion: "policy/v1",
    namespaced: true,
  },
  "apis/apps/v1/replicasets": { kind: "ReplicaSet", apiVersion: "apps/v1", namespaced: true },
  "apis/apps/v1/statefulsets": { kind: "StatefulSet", apiVersion: "apps/v1", namespaced: true },
  "apis/scheduling.k8s.io/v1/priorityclasses": {
    kind: "PriorityClass",
    apiVersion: "scheduling.k8s.io/v1",
    namespaced: false,
  },
  "apis/coordination.k8s.io/v1/leases": {
    kind: "Lease",
    apiVersion: "coordination.k8s.io/v1",
    namespaced: true,
  },
  "apis/events.k8s.io/v1/events": { kind: "Event", apiVersion: "events.k8s.io/v1", namespaced: true },
  // scheduler-plugins' CRDs, as if installed, for the informers of plugins' custom resources
  "apis/scheduling.x-k8s.io/v1alpha1/podgroups": {
    kind: "PodGroup",
    apiVersion: "scheduling.x-k8s.io/v1alpha1",
    namespaced: true,
  },
  "apis/scheduling.x-k8s.io/v1alpha1/elasticquotas": {
    kind: "ElasticQuota",
    apiVersion: "scheduling.x-k8s.io/v1alpha1",
    namespaced: true,
  },
};

type FieldSelector = { field: string; op: "=" | "!="; value: string }[];

function parseFieldSelector(s: string | undefined): FieldSelector {
  if (!s) return [];
  return s.split(",").map((term) => {
    const neq = term.indexOf("!=");
    if (neq >= 0) return { field: term.slice(0, neq), op: "!=" as const, value: term.slice(neq + 2) };
    const eq = term.indexOf("=");
    const v = term.slice(eq + 1);
    return { field: term.slice(0, eq), op: "=" as const, value: v.startsWith("=") ? v.slice(1) : v };
  });
}

function fieldValue(obj: Obj, field: string): string {
  let cur: unknown = obj;
  for (const part of field.split(".")) {
    if (cur === null || typeof cur !== "object") return "";
    cur = (cur as Obj)[part];
  }
  return cur === undefined || cur === null ? "" : String(cur);
}

function matches(sel: FieldSelector, obj: Obj): boolean {
  for (const t of sel) {
    const v = fieldValue(obj, t.field);
    if (t.op === "=" ? v !== t.value : v === t.value) return false;
  }
  return true;
}

function keyOf(info: KindInfo, namespace: string | undefined, name: string): string {
  return `${info.namespaced ? (namespace ?? "") : ""}/${name}`;
}

function status(code: number, reason: string, message: string, causes?: { type: string }[]): Obj {
  return {
    apiVersion: "v1",
    kind: "Status",
    status: "Failure",
    code,
    reason,
    message,
    metadata: {},
    ...(causes ? { details: { causes } } : {}),
  };
}

const reasons: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  410: "Expired",
  415: "UnsupportedMediaType",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

function isoNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Strategic merge of a pod status patch: conditions by type, null deletes a field. */
function mergeStatus(cur: Obj, patch: Obj): Obj {
  const next: Obj = { ...cur };
  for (const [k, v] of Object.entries(patch)) {
    if (k === "conditions" && Array.isArray(v)) {
      const conds: Obj[] = [...(cur.conditions ?? [])];
      for (const c of v as Obj[]) {
        const i = conds.findIndex((x) => x.type === c.type);
        if (i < 0) conds.push(c);
        else conds[i] = { ...conds[i], ...c };
      }
      next.conditions = conds;
    } else if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}

/** JSON merge patch (RFC 7386): objects merge, null deletes, anything else replaces. */
function mergePatch(cur: Obj, patch: Obj): Obj {
  const next: Obj = { ...cur };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else if (typeof v === "object" && !Array.isArray(v) && typeof cur[k] === "object" && cur[k] !== null) {
      next[k] = mergePatch(cur[k], v);
    } else next[k] = v;
  }
  return next;
}

function encodeContinue(rv: number, after: string): string {
  return Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv, start: after })).toString("base64");
}

function decodeContinue(token: string): { rv: number; start: string } | null {
  try {
    const o = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
    return typeof o.rv === "number" && typeof o.start === "string" ? { rv: o.rv, start: o.start } : null;
  } catch {
    return null;
  }
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  /** Successful bindings per pod ("namespace/name"): a pod bound twice shows 2. */
  readonly bindings = new Map<string, number>();
  private readonly objects = new Map<string, Map<string, Obj>>();
  private readonly history = new Map<string, HistoryEntry[]>();
  /** Versions at or below this are compacted: history is gone (410 Expired). */
  private compactedRevision = 0;
  private readonly watchers = new Set<Watcher>();
  private readonly faults: Fault[] = [];
  private readonly hung = new Set<Hung>();
  private readonly sockets = new Set<Socket>();
  private rv = 1;
  private closeWatchesAfter: { n: number; kind: string | undefined } | null = null;
  private readonly tokens = new Map<string, { username: string; groups: string[] }>();
  private readonly allowed = new Set<string>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly options: FakeApiServerOptions,
  ) {}

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

  /** The current resourceVersion (etcd revision). */
  resourceVersion(): number {
    return this.rv;
  }

  private info(kind: string): KindInfo {
    const info = Object.values(collections).find((c) => c.kind === kind);
    if (!info) throw new Error(`the fake API server does not serve ${kind}`);
    return info;
  }

  private store(kind: string): Map<string, Obj> {
    let m = this.objects.get(kind);
    if (!m) {
      m = new Map();
      this.objects.set(kind, m);
    }
    return m;
  }

  /** Current objects of a kind. */
  list(kind: string): Obj[] {
    return [...this.store(kind).values()];
  }

  get(kind: string, namespace: string | undefined, name: string): Obj | undefined {
    return this.store(kind).get(keyOf(this.info(kind), namespace, name));
  }

  /**
   * Creates or replaces an object (new resourceVersion). `silent`: the change is in the history
   * but not sent to the watches open now (a change they missed).
   */
  put(kind: string, obj: Obj, opts: { silent?: boolean } = {}): Obj {
    const info = this.info(kind);
    const meta = obj.metadata ?? {};
    const key = keyOf(info, meta.namespace ?? (info.namespaced ? "default" : undefined), meta.name);
    const old = this.store(kind).get(key);
    const stored: Obj = {
      ...obj,
      apiVersion: info.apiVersion,
      kind: info.kind,
      metadata: {
        ...meta,
        ...(info.namespaced ? { namespace: meta.namespace ?? "default" } : {}),
        uid: meta.uid ?? old?.metadata?.uid ?? randomUUID(),
        creationTimestamp: meta.creationTimestamp ?? old?.metadata?.creationTimestamp ?? isoNow(),
        resourceVersion: String(++this.rv),
      },
    };
    this.store(kind).set(key, stored);
    this.record(kind, old ? "MODIFIED" : "ADDED", key, stored, old, opts.silent);
    return stored;
  }

  /** Deletes an object (see `put` for `silent`); false when it did not exist. */
  remove(
    kind: string,
    namespace: string | undefined,
    name: string,
    opts: { silent?: boolean } = {},
  ): boolean {
    const key = keyOf(this.info(kind), namespace, name);
    const old = this.store(kind).get(key);
    if (!old) return false;
    this.store(kind).delete(key);
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.rv) } };
    this.record(kind, "DELETED", key, gone, old, opts.silent);
    return true;
  }

  /**
   * Compacts the history up to now: watches resuming from an older resourceVersion, exact lists
   * at one, and continue tokens pinned to one get 410 Expired.
   */
  compact(): void {
    this.compactedRevision = this.rv;
    for (const h of this.history.values()) h.length = 0;
  }

  /**
   * Compacts the history and ends every open watch of a kind with an ERROR event (410 "too old
   * resource version"), as a watch cache that dropped a slow watcher: informers must relist.
   */
  expire(kind: string): void {
    this.compact();
    for (const w of [...this.watchers]) {
      if (w.kind !== kind) continue;
      this.send(w, "ERROR", status(410, "Expired", `too old resource version: ${this.rv} (${this.rv})`));
      this.endWatch(w);
    }
  }

  /** Sends an ERROR event with `code` on every open watch of a kind, and ends them. */
  errorWatches(kind: string, code: number, message = "injected watch error"): void {
    for (const w of [...this.watchers]) {
      if (w.kind !== kind) continue;
      this.send(w, "ERROR", status(code, reasons[code] ?? "Unknown", message));
      this.endWatch(w);
    }
  }

  /** Ends every open watch of a kind normally (as the server's watch timeout would). */
  closeWatches(kind: string): void {
    for (const w of [...this.watchers]) if (w.kind === kind) this.endWatch(w);
  }

  /** Cuts every open watch of a kind at the TCP level (a reset, no clean end of the stream). */
  resetWatches(kind: string): void {
    for (const w of [...this.watchers]) {
      if (w.kind !== kind) continue;
      this.watchers.delete(w);
      for (const t of w.timers) clearTimeout(t);
      w.res.socket?.destroy();
    }
  }

  /** From now on, every watch (of `kind`, or of any kind) ends after sending `n` events; null: never. */
  setCloseWatchesAfter(n: number | null, kind?: string): void {
    this.closeWatchesAfter = n === null ? null : { n, kind };
  }

  /** Sends a BOOKMARK now on every open watch that allows them. */
  bookmark(): void {
    for (const w of this.watchers) if (w.bookmarks) this.sendBookmark(w);
  }

  /** Number of open watches of a kind. */
  openWatches(kind: string): number {
    let n = 0;
    for (const w of this.watchers) if (w.kind === kind) n++;
    return n;
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
      if (!h.res.writableEnded && !h.res.destroyed) this.error(h.res, 503, "released");
    }
  }

  /** Writes the Lease as held by `holder` (another candidate took it). */
  stealLease(namespace: string, name: string, holder: string, leaseDurationSeconds = 15): Obj {
    const cur = this.get("Lease", namespace, name);
    const now = new Date().toISOString().replace("Z", "000Z");
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
    this.tokens.set(token, { username, groups });
  }

  /** SubjectAccessReview: `user` may `get` non-resource `path` ("*" for every path). */
  allow(user: string, path = "*"): void {
    this.allowed.add(`${user} ${path}`);
  }

  /** Recorded requests matching method and path (prefix or regular expression). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === "string" ? r.path.startsWith(path) : path.test(r.path)),
    );
  }

  async close(): Promise<void> {
    for (const w of [...this.watchers]) this.endWatch(w);
    for (const h of [...this.hung]) h.res.destroy();
    this.hung.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
      for (const s of this.sockets) s.destroy();
    });
  }

  private record(
    kind: string,
    type: HistoryEntry["type"],
    key: string,
    obj: Obj,
    old: Obj | undefined,
    silent?: boolean,
  ): void {
    const entry: HistoryEntry = { rv: this.rv, type, key, obj, old };
    let h = this.history.get(kind);
    if (!h) {
      h = [];
      this.history.set(kind, h);
    }
    h.push(entry);
    if (silent) return;
    for (const w of [...this.watchers]) if (w.kind === kind) this.deliver(w, entry);
  }

  /** Sends one history entry to a watcher, translated through its selector as the server does. */
  private deliver(w: Watcher, e: HistoryEntry): void {
    const ns = (o: Obj | undefined) => w.namespace === undefined || o?.metadata?.namespace === w.namespace;
    const oldIn = e.old !== undefined && ns(e.old) && matches(w.selector, e.old);
    const newIn = e.type !== "DELETED" && ns(e.obj) && matches(w.selector, e.obj);
    if (e.type === "DELETED") {
      if (oldIn) this.send(w, "DELETED", e.obj);
    } else if (oldIn && newIn) this.send(w, "MODIFIED", e.obj);
    else if (newIn) this.send(w, "ADDED", e.obj);
    else if (oldIn) this.send(w, "DELETED", e.obj);
  }

  private send(w: Watcher, type: string, object: Obj): void {
    if (!this.watchers.has(w) && type !== "ERROR") return;
    w.res.write(`${JSON.stringify({ type, object })}\n`);
    w.sent++;
    const limit = this.closeWatchesAfter;
    if (limit && (limit.kind === undefined || limit.kind === w.kind) && w.sent >= limit.n) this.endWatch(w);
  }

  private sendBookmark(w: Watcher): void {
    const info = this.info(w.kind);
    this.send(w, "BOOKMARK", {
      apiVersion: info.apiVersion,
      kind: info.kind,
      metadata: { resourceVersion: String(this.rv) },
    });
  }

  private endWatch(w: Watcher): void {
    this.watchers.delete(w);
    for (const t of w.timers) clearTimeout(t);
    if (!w.res.writableEnded) w.res.end();
  }

  private reply(res: http.ServerResponse, code: number, body: Obj): void {
    if (res.writableEnded || res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  }

  private error(res: http.ServerResponse, code: number, message: string, causes?: { type: string }[]): void {
    this.reply(res, code, status(code, reasons[code] ?? "Unknown", message, causes));
  }

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
      const r: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        contentType: req.headers["content-type"],
        authorization: req.headers.authorization,
        userAgent: req.headers["user-agent"],
        body,
        at: Date.now(),
      };
      this.requests.push(r);
      const fault = this.faults.find(
        (f) =>
          f.method === r.method &&
          (typeof f.path === "string" ? r.path.startsWith(f.path) : f.path.test(r.path)) &&
          (f.match === undefined || f.match(r)),
      );
      if (fault) {
        fault.times = (fault.times ?? 1) - 1;
        if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
        if (fault.delayMs !== undefined) {
          setTimeout(() => {
            try {
              this.route(r, res);
            } catch (e) {
              this.error(res, 500, e instanceof Error ? e.message : String(e));
            }
          }, fault.delayMs);
          return;
        }
        if (fault.hang) {
          const h: Hung = { res, request: r };
          this.hung.add(h);
          res.on("close", () => this.hung.delete(h));
          return;
        }
        const code = fault.status ?? 500;
        const causes = fault.causes?.map((type) => ({ type }));
        this.reply(res, code, status(code, fault.reason ?? reasons[code] ?? "", "injected", causes));
        return;
      }
      try {
        this.route(r, res);
      } catch (e) {
        this.error(res, 500, e instanceof Error ? e.message : String(e));
      }
    });
  }

  private route(r: RecordedRequest, res: http.ServerResponse) {
    const segs = r.path.split("/").filter(Boolean);
    const gvLen = segs[0] === "api" ? 2 : 3;
    const gv = segs.slice(0, gvLen).join("/");
    let rest = segs.slice(gvLen);
    let namespace: string | undefined;
    if (rest[0] === "namespaces" && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const m = r.method;
    if (gv === "apis/authentication.k8s.io/v1" && rest[0] === "tokenreviews" && m === "POST") {
      return this.tokenReview(r.body as Obj, res);
    }
    if (gv === "apis/authorization.k8s.io/v1" && rest[0] === "subjectaccessreviews" && m === "POST") {
      return this.subjectAccessReview(r.body as Obj, res);
    }
    const info = collections[`${gv}/${rest[0] ?? ""}`];
    if (!info) return this.error(res, 404, `the server could not find the requested resource (${r.path})`);
    const name = rest[1];
    const sub = rest[2];
    if (name === undefined) {
      if (m === "GET" && r.query.watch === "true") return this.watch(info, namespace, r, res);
      if (m === "GET") return this.listReply(info, namespace, r, res);
      if (m === "POST") return this.create(info, namespace, r.body as Obj, res);
    } else if (sub === undefined) {
      const key = keyOf(info, namespace, name);
      const cur = this.store(info.kind).get(key);
      if (m === "GET") return cur ? this.reply(res, 200, cur) : this.notFound(res, info, name);
      if (m === "PUT") return this.replace(info, namespace, name, cur, r.body as Obj, res);
      if (m === "PATCH") return this.patch(info, namespace, name, cur, r, res);
      if (m === "DELETE") {
        if (!cur) return this.notFound(res, info, name);
        this.remove(info.kind, namespace, name);
        return this.reply(res, 200, cur);
      }
    } else if (info.kind === "Pod" && sub === "binding" && m === "POST") {
      return this.bind(namespace, name, r.body as Obj, res);
    } else if (info.kind === "Pod" && sub === "status" && m === "PATCH") {
      return this.patchStatus(namespace, name, r, res);
    }
    this.error(res, 405, `${m} is not supported on ${r.path}`);
  }

  private notFound(res: http.ServerResponse, info: KindInfo, name: string): void {
    this.error(res, 404, `${info.kind.toLowerCase()}s "${name}" not found`);
  }

  /** The objects of a kind as they were at `rv` (undoing the history after it), by key. */
  private stateAt(kind: string, rv: number): Map<string, Obj> {
    const state = new Map(this.store(kind));
    if (rv >= this.rv) return state;
    const h = this.history.get(kind) ?? [];
    for (let i = h.length - 1; i >= 0; i--) {
      const e = h[i] as HistoryEntry;
      if (e.rv <= rv) break;
      if (e.type === "ADDED") state.delete(e.key);
      else if (e.old) state.set(e.key, e.old);
    }
    return state;
  }

  private listReply(
    info: KindInfo,
    namespace: string | undefined,
    r: RecordedRequest,
    res: http.ServerResponse,
  ) {
    const q = r.query;
    const limit = q.limit ? Number(q.limit) : 0;
    const match = q.resourceVersionMatch ?? "";
    let at = this.rv;
    let after = "";
    let pageLimit = limit;
    if (q.continue) {
      if (q.resourceVersion) {
        return this.error(res, 400, "specifying resource version is not allowed when using continue");
      }
      const token = decodeContinue(q.continue);
      if (!token)
        return this.error(res, 400, "continue key is not valid: incorrect encoded start resourceVersion");
      if (token.rv <= this.compactedRevision && token.rv < this.rv) {
        return this.error(
          res,
          410,
          "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
        );
      }
      at = token.rv;
      after = token.start;
    } else if (q.resourceVersion === "0") {
      if (this.options.watchCacheIgnoresLimit ?? true) pageLimit = 0;
    } else if (q.resourceVersion) {
      const want = Number(q.resourceVersion);
      if (!Number.isInteger(want) || want < 0) {
        return this.error(res, 400, `invalid resource version: ${q.resourceVersion}`);
      }
      const exact = match === "Exact" || (match === "" && limit > 0);
      if (want > this.rv) {
        return this.error(res, 504, "Too large resource version", [{ type: "ResourceVersionTooLarge" }]);
      }
      if (exact) {
        if (want < this.rv && want <= this.compactedRevision) {
          return this.error(res, 410, "The resourceVersion for the provided list is too old.");
        }
        at = want;
      }
    }
    const sel = parseFieldSelector(q.fieldSelector);
    const state = at === this.rv ? this.store(info.kind) : this.stateAt(info.kind, at);
    const keys = [...state.keys()].filter((k) => k > after).sort();
    const items: Obj[] = [];
    let cont = "";
    let remaining = 0;
    for (let i = 0; i < keys.length; i++) {
      const o = state.get(keys[i] as string) as Obj;
      if (namespace !== undefined && o.metadata?.namespace !== namespace) continue;
      if (!matches(sel, o)) continue;
      if (pageLimit > 0 && items.length >= pageLimit) {
        cont = encodeContinue(at, keys[i - 1] as string);
        remaining = keys.length - i;
        break;
      }
      // Items of a list carry no apiVersion/kind on the wire.
      const { apiVersion: _a, kind: _k, ...bare } = o;
      items.push(bare);
    }
    this.reply(res, 200, {
      apiVersion: info.apiVersion,
      kind: `${info.kind}List`,
      metadata: {
        resourceVersion: String(at),
        ...(cont ? { continue: cont, remainingItemCount: remaining } : {}),
      },
      items,
    });
  }

  private watch(info: KindInfo, namespace: string | undefined, r: RecordedRequest, res: http.ServerResponse) {
    res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
    res.flushHeaders();
    const w: Watcher = {
      kind: info.kind,
      namespace,
      selector: parseFieldSelector(r.query.fieldSelector),
      res,
      bookmarks: r.query.allowWatchBookmarks === "true",
      sent: 0,
      timers: [],
    };
    this.watchers.add(w);
    res.on("close", () => {
      this.watchers.delete(w);
      for (const t of w.timers) clearTimeout(t);
    });
    const fromText = r.query.resourceVersion ?? "";
    const from = Number(fromText || "0");
    if (fromText === "" || fromText === "0") {
      const state = this.store(info.kind);
      for (const k of [...state.keys()].sort()) {
        const o = state.get(k) as Obj;
        if ((namespace === undefined || o.metadata?.namespace === namespace) && matches(w.selector, o)) {
          this.send(w, "ADDED", o);
          if (!this.watchers.has(w)) return;
        }
      }
    } else if (from < this.compactedRevision) {
      this.send(
        w,
        "ERROR",
        status(410, "Expired", `too old resource version: ${from} (${this.compactedRevision})`),
      );
      this.endWatch(w);
      return;
    } else {
      const h = this.history.get(info.kind) ?? [];
      let lo = 0;
      let hi = h.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((h[mid] as HistoryEntry).rv <= from) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < h.length && this.watchers.has(w); i++) this.deliver(w, h[i] as HistoryEntry);
    }
    if (!this.watchers.has(w)) return;
    const timeout = Number(r.query.timeoutSeconds || "0");
    const max = this.options.maxWatchSeconds ?? 0;
    const seconds = timeout > 0 && max > 0 ? Math.min(timeout, max) : timeout || max;
    if (seconds > 0) w.timers.push(setTimeout(() => this.endWatch(w), seconds * 1000));
    if (w.bookmarks) {
      const every = this.options.bookmarkIntervalMs ?? 60_000;
      const tick = () => {
        if (!this.watchers.has(w)) return;
        this.sendBookmark(w);
        w.timers.push(setTimeout(tick, every));
      };
      w.timers.push(setTimeout(tick, every));
    }
  }

  private create(info: KindInfo, namespace: string | undefined, body: Obj, res: http.ServerResponse) {
    const ns = info.namespaced ? (namespace ?? body.metadata?.namespace ?? "default") : undefined;
    const name = body.metadata?.name;
    if (!name) return this.error(res, 400, "metadata.name: Required value");
    if (this.store(info.kind).has(keyOf(info, ns, name))) {
      return this.reply(
        res,
        409,
        status(409, "AlreadyExists", `${info.kind.toLowerCase()}s "${name}" already exists`),
      );
    }
    const obj = { ...body, metadata: { ...body.metadata, ...(ns !== undefined ? { namespace: ns } : {}) } };
    this.reply(res, 201, this.put(info.kind, obj));
  }

  private replace(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
    cur: Obj | undefined,
    body: Obj,
    res: http.ServerResponse,
  ) {
    if (!cur) return this.notFound(res, info, name);
    const want = body.metadata?.resourceVersion;
    if (want !== undefined && want !== cur.metadata?.resourceVersion) {
      return this.error(
        res,
        409,
        `Operation cannot be fulfilled on ${info.kind.toLowerCase()}s "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    const ns = info.namespaced ? namespace : undefined;
    this.reply(
      res,
      200,
      this.put(info.kind, { ...body, metadata: { ...body.metadata, name, namespace: ns } }),
    );
  }

  private patch(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
    cur: Obj | undefined,
    r: RecordedRequest,
    res: http.ServerResponse,
  ) {
    if (!cur) return this.notFound(res, info, name);
    const ct = r.contentType ?? "";
    if (
      !ct.startsWith("application/strategic-merge-patch+json") &&
      !ct.startsWith("application/merge-patch+json")
    ) {
      return this.error(res, 415, `the body of the request was in an unknown format: ${ct}`);
    }
    const { metadata: _m, ...patch } = (r.body as Obj | undefined) ?? {};
    const ns = info.namespaced ? namespace : undefined;
    this.reply(
      res,
      200,
      this.put(info.kind, { ...mergePatch(cur, patch), metadata: { ...cur.metadata, namespace: ns } }),
    );
  }

  private bind(namespace: string | undefined, name: string, body: Obj, res: http.ServerResponse) {
    const pod = this.get("Pod", namespace, name);
    if (!pod) return this.error(res, 404, `pods "${name}" not found`);
    const uid = body.metadata?.uid;
    if (uid && uid !== pod.metadata?.uid) {
      return this.error(
        res,
        409,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata?.uid}`,
      );
    }
    if (pod.spec?.nodeName) {
      return this.error(
        res,
        409,
        `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "${pod.spec.nodeName}"`,
      );
    }
    const conditions = mergeStatus(pod.status ?? {}, {
      conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: isoNow() }],
    }).conditions;
    this.put("Pod", {
      ...pod,
      spec: { ...pod.spec, nodeName: body.target?.name },
      status: { ...pod.status, conditions },
    });
    const key = `${pod.metadata?.namespace}/${name}`;
    this.bindings.set(key, (this.bindings.get(key) ?? 0) + 1);
    this.reply(res, 201, { apiVersion: "v1", kind: "Status", status: "Success", code: 201, metadata: {} });
  }

  private patchStatus(
    namespace: string | undefined,
    name: string,
    r: RecordedRequest,
    res: http.ServerResponse,
  ) {
    const pod = this.get("Pod", namespace, name);
    if (!pod) return this.error(res, 404, `pods "${name}" not found`);
    const ct = r.contentType ?? "";
    if (
      !ct.startsWith("application/strategic-merge-patch+json") &&
      !ct.startsWith("application/merge-patch+json")
    ) {
      return this.error(res, 415, `the body of the request was in an unknown format: ${ct}`);
    }
    const patch = (r.body as Obj | undefined)?.status ?? {};
    this.reply(res, 200, this.put("Pod", { ...pod, status: mergeStatus(pod.status ?? {}, patch) }));
  }

  private tokenReview(body: Obj, res: http.ServerResponse) {
    const token = body?.spec?.token ?? "";
    const user = this.tokens.get(token);
    this.reply(res, 201, {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenReview",
      spec: { token },
      status: user ? { authenticated: true, user: { username: user.username, groups: user.groups } } : {},
    });
  }

  private subjectAccessReview(body: Obj, res: http.ServerResponse) {
    const spec = body?.spec ?? {};
    const path = spec.nonResourceAttributes?.path ?? "";
    const user = spec.user ?? "";
    const allowed = this.allowed.has(`${user} *`) || this.allowed.has(`${user} ${path}`);
    this.reply(res, 201, {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec,
      status: allowed ? { allowed: true } : { allowed: false, reason: "no RBAC policy matched" },
    });
  }
}

/** Polls `fn` (sync or async) every 5 ms until it gives something other than undefined/false. */
export async function waitFor<T>(
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 3000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
