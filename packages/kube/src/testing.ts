// A fake API server for tests (node:http on 127.0.0.1, an ephemeral port): list and watch
// (newline-delimited JSON over a chunked response, resourceVersion resume, 410 for expired
// versions, field selectors on spec.nodeName / status.phase / metadata.*), get, create, replace
// with resourceVersion preconditions, delete, pods/binding, pods/status patches, events and
// Leases. Every request is recorded. Not a conformant API server: just enough of one for the
// scheduler's traffic.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  body: unknown;
}

export interface Fault {
  method: string;
  /** Matches the path (without the query): a prefix string or a regular expression. */
  path: string | RegExp;
  status: number;
  /** How many matching requests fail (default 1). */
  times?: number;
  reason?: string;
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
  obj: Obj;
  old: Obj | undefined;
}

interface Watcher {
  kind: string;
  namespace: string | undefined;
  selector: FieldSelector;
  res: http.ServerResponse;
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

function status(code: number, reason: string, message: string): Obj {
  return { apiVersion: "v1", kind: "Status", status: "Failure", code, reason, message, metadata: {} };
}

const reasons: Record<number, string> = {
  400: "BadRequest",
  404: "NotFound",
  409: "Conflict",
  410: "Expired",
  415: "UnsupportedMediaType",
  500: "InternalError",
  503: "ServiceUnavailable",
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

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly objects = new Map<string, Map<string, Obj>>();
  private readonly history = new Map<string, HistoryEntry[]>();
  /** Watches from a resourceVersion at or below this get 410 Gone. */
  private readonly compacted = new Map<string, number>();
  private readonly watchers = new Set<Watcher>();
  private readonly faults: Fault[] = [];
  private rv = 1;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeApiServer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeApiServer(server, `http://127.0.0.1:${port}`);
    server.on("request", (req, res) => fake.handle(req, res));
    return fake;
  }

  /** A KubeConfig for this server (plain HTTP, so skipTLSVerify, and a bearer token). */
  kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "fake", server: this.url, skipTLSVerify: true }],
      users: [{ name: "fake", token: "fake-token" }],
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

  /** Creates or replaces an object (new resourceVersion), notifying watchers unless silent. */
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
    this.record(kind, old ? "MODIFIED" : "ADDED", stored, old, opts.silent);
    return stored;
  }

  /** Deletes an object, notifying watchers unless silent; false when it did not exist. */
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
    this.record(kind, "DELETED", gone, old, opts.silent);
    return true;
  }

  /**
   * Compacts a kind's history: open watches get an ERROR event with code 410 and end, and
   * watches resuming from an older resourceVersion get the same. Informers must relist.
   */
  expire(kind: string): void {
    this.compacted.set(kind, this.rv);
    this.history.set(kind, []);
    for (const w of [...this.watchers]) {
      if (w.kind !== kind) continue;
      this.send(w.res, "ERROR", status(410, "Expired", "too old resource version"));
      this.endWatch(w);
    }
  }

  /** Ends every open watch of a kind normally (as the server's watch timeout would). */
  closeWatches(kind: string): void {
    for (const w of [...this.watchers]) if (w.kind === kind) this.endWatch(w);
  }

  /** Number of open watches of a kind. */
  openWatches(kind: string): number {
    let n = 0;
    for (const w of this.watchers) if (w.kind === kind) n++;
    return n;
  }

  /** Makes matching requests fail with `status`. */
  fail(fault: Fault): void {
    this.faults.push({ times: 1, ...fault });
  }

  /** Recorded requests matching method and path (prefix or regular expression). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === "string" ? r.path.startsWith(path) : path.test(r.path)),
    );
  }

  async close(): Promise<void> {
    for (const w of [...this.watchers]) this.endWatch(w);
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private record(
    kind: string,
    type: HistoryEntry["type"],
    obj: Obj,
    old: Obj | undefined,
    silent?: boolean,
  ): void {
    const entry: HistoryEntry = { rv: this.rv, type, obj, old };
    if (silent) return;
    let h = this.history.get(kind);
    if (!h) {
      h = [];
      this.history.set(kind, h);
    }
    h.push(entry);
    for (const w of this.watchers) if (w.kind === kind) this.deliver(w, entry);
  }

  /** Sends one history entry to a watcher, translated through its selector as the server does. */
  private deliver(w: Watcher, e: HistoryEntry): void {
    const ns = (o: Obj | undefined) => w.namespace === undefined || o?.metadata?.namespace === w.namespace;
    const oldIn = e.old !== undefined && ns(e.old) && matches(w.selector, e.old);
    const newIn = e.type !== "DELETED" && ns(e.obj) && matches(w.selector, e.obj);
    if (e.type === "DELETED") {
      if (oldIn) this.send(w.res, "DELETED", e.obj);
    } else if (oldIn && newIn) this.send(w.res, "MODIFIED", e.obj);
    else if (newIn) this.send(w.res, "ADDED", e.obj);
    else if (oldIn) this.send(w.res, "DELETED", e.obj);
  }

  private send(res: http.ServerResponse, type: string, object: Obj): void {
    res.write(`${JSON.stringify({ type, object })}\n`);
  }

  private endWatch(w: Watcher): void {
    this.watchers.delete(w);
    w.res.end();
  }

  private reply(res: http.ServerResponse, code: number, body: Obj): void {
    const text = JSON.stringify(body);
    res.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  }

  private error(res: http.ServerResponse, code: number, message: string): void {
    this.reply(res, code, status(code, reasons[code] ?? "Unknown", message));
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
        body,
      };
      this.requests.push(r);
      const fault = this.faults.find(
        (f) =>
          f.method === r.method &&
          (typeof f.path === "string" ? r.path.startsWith(f.path) : f.path.test(r.path)),
      );
      if (fault) {
        fault.times = (fault.times ?? 1) - 1;
        if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
        this.reply(
          res,
          fault.status,
          status(fault.status, fault.reason ?? reasons[fault.status] ?? "", "injected"),
        );
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
    const info = collections[`${gv}/${rest[0] ?? ""}`];
    if (!info) return this.error(res, 404, `the server could not find the requested resource (${r.path})`);
    const name = rest[1];
    const sub = rest[2];
    const m = r.method;
    if (name === undefined) {
      if (m === "GET" && r.query.watch === "true") return this.watch(info, namespace, r, res);
      if (m === "GET") return this.listReply(info, namespace, r, res);
      if (m === "POST") return this.create(info, namespace, r.body as Obj, res);
    } else if (sub === undefined) {
      const key = keyOf(info, namespace, name);
      const cur = this.store(info.kind).get(key);
      if (m === "GET") return cur ? this.reply(res, 200, cur) : this.notFound(res, info, name);
      if (m === "PUT") return this.replace(info, namespace, name, cur, r.body as Obj, res);
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

  private listReply(
    info: KindInfo,
    namespace: string | undefined,
    r: RecordedRequest,
    res: http.ServerResponse,
  ): void {
    const sel = parseFieldSelector(r.query.fieldSelector);
    const items = this.list(info.kind).filter(
      (o) => (namespace === undefined || o.metadata?.namespace === namespace) && matches(sel, o),
    );
    // Items of a list carry no apiVersion/kind on the wire.
    const bare = items.map(({ apiVersion: _a, kind: _k, ...o }) => o);
    this.reply(res, 200, {
      apiVersion: info.apiVersion,
      kind: `${info.kind}List`,
      metadata: { resourceVersion: String(this.rv) },
      items: bare,
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
    };
    const from = Number(r.query.resourceVersion || "0");
    if (from === 0) {
      for (const o of this.list(info.kind)) {
        if ((namespace === undefined || o.metadata?.namespace === namespace) && matches(w.selector, o)) {
          this.send(res, "ADDED", o);
        }
      }
    } else if (from < (this.compacted.get(info.kind) ?? 0)) {
      this.send(res, "ERROR", status(410, "Expired", `too old resource version: ${from}`));
      res.end();
      return;
    } else {
      for (const e of this.history.get(info.kind) ?? []) if (e.rv > from) this.deliver(w, e);
    }
    this.watchers.add(w);
    res.on("close", () => this.watchers.delete(w));
  }

  private create(info: KindInfo, namespace: string | undefined, body: Obj, res: http.ServerResponse) {
    const ns = info.namespaced ? (namespace ?? body.metadata?.namespace ?? "default") : undefined;
    const name = body.metadata?.name;
    if (!name) return this.error(res, 400, "metadata.name: Required value");
    if (this.store(info.kind).has(keyOf(info, ns, name))) {
      return this.error(res, 409, `${info.kind.toLowerCase()}s "${name}" already exists`);
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
}

/** Polls `fn` every 5 ms until it returns something other than undefined/false. */
export async function waitFor<T>(
  fn: () => T | undefined | false,
  timeoutMs = 3000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
