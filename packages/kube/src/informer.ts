// A reflector + store (upstream client-go tools/cache reflector.go): list, then watch from the
// list's resourceVersion; a watch that ends is resumed from the last resourceVersion seen;
// `410 Gone` (an HTTP status or an ERROR event with code 410) relists; other errors retry with
// exponential backoff (800 ms doubling to 30 s, client-go's reflector defaults). Objects stay the
// raw JSON of the wire (lists through RawClient, watch events as parsed by the library's Watch),
// with metadata.managedFields dropped as kube-scheduler's informer transform does.
//
// Why not @kubernetes/client-node's ListWatch (1.4): its update callback gets no old object,
// it has no "synced" signal, it stops for good on any error other than 410, and a stop() during
// the initial list still opens a watch afterwards. This reflector reuses the library's Watch
// (streaming, kubeconfig auth) and keeps those four things right.
import type { Watch } from "@kubernetes/client-node";
import { type KubeObject, ObjectStore, objectKey } from "@kubesched/scheduler";
import { apiErrorFromResponse, KubeApiError } from "./api-error";
import type { RawClient } from "./raw-client";
import type { ResourceSpec } from "./resources";

export interface InformerHandlers<T> {
  add(obj: T): void;
  update(oldObj: T, newObj: T): void;
  delete(obj: T): void;
}

export interface BackoffOptions {
  /** First delay after an error, in ms (client-go: 800). */
  initialMs: number;
  /** Largest delay, in ms (client-go: 30000). */
  maxMs: number;
}

export const defaultBackoff: BackoffOptions = { initialMs: 800, maxMs: 30_000 };

export interface InformerOptions<T> {
  resource: ResourceSpec;
  client: RawClient;
  watch: Watch;
  handlers: InformerHandlers<T>;
  backoff?: BackoffOptions;
  /** Items per list page (kube-scheduler's pager uses 500). */
  pageSize?: number;
  /** Server-side watch timeout range in seconds, [min, 2*min) (client-go: 300). */
  minWatchTimeoutSeconds?: number;
  /** Called for every list/watch failure before the retry. */
  onError?: (err: Error, resource: ResourceSpec) => void;
}

interface ListBody<T> {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

interface WatchStatus {
  code?: number;
  reason?: string;
  message?: string;
}

type WatchEnd = { kind: "closed" } | { kind: "gone" } | { kind: "error"; error: Error };

function trim<T extends KubeObject>(obj: T, spec: ResourceSpec): T {
  if (obj.metadata?.managedFields !== undefined) {
    const { managedFields: _dropped, ...metadata } = obj.metadata;
    obj.metadata = metadata;
  }
  // List items come without apiVersion/kind; watch objects carry them. Same shape either way.
  obj.apiVersion ??= spec.apiVersion;
  obj.kind ??= spec.kind;
  return obj;
}

function isGone(e: unknown): boolean {
  if (e instanceof KubeApiError) return e.statusCode === 410;
  return e !== null && typeof e === "object" && "statusCode" in e && e.statusCode === 410;
}

export class Informer<T extends KubeObject> {
  readonly store: ObjectStore<T>;
  private resourceVersion = "";
  private stopped = true;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private currentWatch: AbortController | null = null;
  private cancelWatch: (() => void) | null = null;
  private listAbort: AbortController | null = null;
  private wakeSleep: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  /** Number of full lists done (the first one and every relist). */
  lists = 0;

  constructor(private readonly opts: InformerOptions<T>) {
    this.store = new ObjectStore<T>(opts.resource.namespaced);
  }

  get resource(): ResourceSpec {
    return this.opts.resource;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list has filled the store. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Stops listing and watching; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.currentWatch?.abort();
    this.cancelWatch?.();
    this.listAbort?.abort();
    this.wakeSleep?.();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    const backoff = this.opts.backoff ?? defaultBackoff;
    let delay = backoff.initialMs;
    while (!this.stopped) {
      let failure: Error | null = null;
      let quick = false;
      try {
        if (this.resourceVersion === "") await this.list();
        if (this.stopped) return;
        const started = Date.now();
        const end = await this.watchOnce();
        if (end.kind === "gone") {
          this.resourceVersion = "";
          delay = backoff.initialMs;
          continue;
        }
        if (end.kind === "error") failure = end.error;
        // A watch the server ends at once, again and again, must not spin.
        else quick = Date.now() - started < backoff.initialMs;
      } catch (e) {
        if (this.stopped) return;
        if (isGone(e)) {
          this.resourceVersion = "";
          continue;
        }
        failure = e instanceof Error ? e : new Error(String(e));
      }
      if (this.stopped) return;
      if (failure === null && !quick) {
        delay = backoff.initialMs;
        continue;
      }
      if (failure !== null) this.opts.onError?.(failure, this.opts.resource);
      await this.sleep(delay);
      delay = Math.min(delay * 2, backoff.maxMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.wakeSleep = done;
    }).then(() => {
      this.wakeSleep = null;
    });
  }

  /** A paged list, then a replace of the store (deletes, adds, updates) as client-go's Replace. */
  private async list(): Promise<void> {
    const spec = this.opts.resource;
    const items: T[] = [];
    let cont: string | undefined;
    let rv = "";
    this.listAbort = new AbortController();
    try {
      do {
        const page: ListBody<T> = await this.opts.client.request<ListBody<T>>("GET", spec.path, {
          query: {
            fieldSelector: spec.fieldSelector,
            limit: String(this.opts.pageSize ?? 500),
            continue: cont,
          },
          signal: this.listAbort.signal,
        });
        for (const item of page.items ?? []) items.push(trim(item, spec));
        rv = page.metadata?.resourceVersion ?? rv;
        cont = page.metadata?.continue || undefined;
      } while (cont !== undefined && !this.stopped);
    } finally {
      this.listAbort = null;
    }
    if (this.stopped) return;
    this.lists++;
    this.replace(items);
    this.resourceVersion = rv;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private replace(items: T[]): void {
    const seen = new Set<string>();
    for (const item of items) seen.add(objectKey(item));
    for (const key of [...this.store.keys()]) {
      if (!seen.has(key)) {
        const old = this.store.removeKey(key);
        if (old !== undefined) this.opts.handlers.delete(old);
      }
    }
    for (const item of items) this.upsert(item);
  }

  private upsert(obj: T): void {
    const old = this.store.getByKey(objectKey(obj));
    if (old === undefined) {
      this.store.set(obj);
      this.opts.handlers.add(obj);
    } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
      this.store.set(obj);
      this.opts.handlers.update(old, obj);
    }
  }

  private watchOnce(): Promise<WatchEnd> {
    const spec = this.opts.resource;
    const min = this.opts.minWatchTimeoutSeconds ?? 300;
    const query: Record<string, string> = {
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: "true",
      timeoutSeconds: String(Math.floor(min * (1 + Math.random()))),
    };
    if (spec.fieldSelector !== undefined) query.fieldSelector = spec.fieldSelector;
    return new Promise<WatchEnd>((resolve) => {
      let end: WatchEnd | null = null;
      // stop() must not wait for a server that has not answered the watch yet.
      this.cancelWatch = () => resolve({ kind: "closed" });
      const onEvent = (phase: string, obj: unknown): void => {
        if (this.stopped || end !== null) return;
        if (phase === "ERROR") {
          const status = (obj ?? {}) as WatchStatus;
          end =
            status.code === 410
              ? { kind: "gone" }
              : {
                  kind: "error",
                  error: apiErrorFromResponse(status.code ?? 0, status, `watch ${spec.path}`),
                };
          this.currentWatch?.abort();
          return;
        }
        const o = trim(obj as T, spec);
        const rv = o.metadata?.resourceVersion;
        if (phase === "ADDED" || phase === "MODIFIED") this.upsert(o);
        else if (phase === "DELETED") {
          // The last state this cache saw: for a pod that left the selector by turning
          // terminal, that is the running pod the scheduler's cache holds.
          const old = this.store.removeKey(objectKey(o));
          if (old !== undefined) this.opts.handlers.delete(old);
        }
        if (rv) this.resourceVersion = rv;
      };
      const onDone = (err: unknown): void => {
        this.currentWatch = null;
        this.cancelWatch = null;
        if (end === null) {
          if (err === null || err === undefined || this.stopped) end = { kind: "closed" };
          else if (isGone(err)) end = { kind: "gone" };
          else end = { kind: "error", error: err instanceof Error ? err : new Error(String(err)) };
        }
        resolve(end);
      };
      this.opts.watch.watch(spec.path, query, onEvent, onDone).then(
        (ctrl) => {
          if (end !== null || this.stopped) ctrl.abort();
          else this.currentWatch = ctrl;
        },
        (e: unknown) => onDone(e instanceof Error ? e : new Error(String(e))),
      );
    });
  }
}
