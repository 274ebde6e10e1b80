// A reflector + store with client-go's semantics (upstream tools/cache/reflector.go, pager.go,
// and the shared informer's delivery):
//
// - Run: ListAndWatch, then a backoff delay, again and again until stopped. The delay is
//   jittered exponential (800 ms doubling to 30 s, jitter 1.0), reset every 2 minutes.
// - list: paged (500 a page, continue tokens) from resourceVersion "0" the first time (the API
//   server's cache), from the last resourceVersion seen afterwards ("not older than", unpaged so the
//   cache can serve it), from "" (a consistent read) after the server answered 410 Expired or
//   "too large resource version". A continue token that expires falls back to a full list. The
//   store is then replaced: objects gone from the list are deleted as DeletedFinalStateUnknown.
// - watch from the last resourceVersion with allowWatchBookmarks and a random timeoutSeconds in
//   [min, 2*min). A watch the server ends (or the network cuts) is re-opened at once, from the
//   last resourceVersion seen. A watch that ends within a second without any event, an ERROR
//   event (410 Expired or any other status), or a watch that cannot be opened ends ListAndWatch:
//   after the backoff delay, the reflector relists. Connection refused and 429 back off and
//   re-watch without relisting.
// - DELETED events hand the handlers the event's object (the final state the server sent).
//
// Objects stay the raw JSON of the wire, trimmed as they arrive of what the scheduler never reads
// (@kubesched/scheduler's trimObject: managedFields as kube-scheduler's informer transform, the
// last-applied-configuration annotation, pod status fields no scheduler reads), so the caches of
// a big cluster hold what is used.
import { type Clock, realClock } from "@kubesched/framework";
import { type KubeObject, ObjectStore, objectKey, trimObject } from "@kubesched/scheduler";
import {
  apiErrorFromResponse,
  isExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  type KubeApiError,
} from "./api-error";
import { type BackoffConfig, delayWithReset, reflectorBackoff, reflectorBackoffResetMs } from "./backoff";
import { isConnectionRefused, type RawClient } from "./raw-client";
import type { ResourceSpec } from "./resources";

/**
 * An object deleted while the watch was not looking (found missing by a relist): `obj` is the
 * last state this cache saw (upstream cache.DeletedFinalStateUnknown).
 */
export class DeletedFinalStateUnknown<T> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {}
}

export interface InformerHandlers<T> {
  add(obj: T): void;
  update(oldObj: T, newObj: T): void;
  /** The DELETED event's object, or the last known state when a relist found it gone. */
  delete(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface InformerOptions<T> {
  resource: ResourceSpec;
  client: RawClient;
  handlers: InformerHandlers<T>;
  /** The backoff between ListAndWatch attempts (default: client-go's reflector backoff). */
  backoff?: BackoffConfig;
  /** Items per list page (client-go's pager: 500). */
  pageSize?: number;
  /** Server-side watch timeout range in seconds, [min, 2*min) (client-go: 300). */
  minWatchTimeoutSeconds?: number;
  /** Called for every list/watch failure before the retry. */
  onError?: (err: Error, resource: ResourceSpec) => void;
  clock?: Clock;
  random?: () => number;
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

/** client-go VeryShortWatchError. */
export class VeryShortWatchError extends Error {
  constructor(name: string) {
    super(
      `very short watch: ${name}: Unexpected watch close - watch lasted less than a second and no items received`,
    );
    this.name = "VeryShortWatchError";
  }
}

/** The informer transform: the object fresh from the wire, trimmed in place (trimObject). */
function trim<T extends KubeObject>(obj: T, spec: ResourceSpec): T {
  // List items come without apiVersion/kind; watch objects carry them. Same shape either way.
  obj.apiVersion ??= spec.apiVersion;
  obj.kind ??= spec.kind;
  return trimObject(obj);
}

/** The stop of the informer, as an error that ends the current step. */
class Stopped extends Error {}

export class Informer<T extends KubeObject> {
  readonly store: ObjectStore<T>;
  private lastSyncResourceVersion = "";
  private lastSyncResourceVersionUnavailable = false;
  private paginatedResult = false;
  private stopped = true;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private stopController: AbortController | null = null;
  private loop: Promise<void> | null = null;
  private readonly clock: Clock;
  private readonly random: () => number;
  private delay: () => number;
  /** Number of full lists done (the first one and every relist). */
  lists = 0;
  /** Number of watches opened. */
  watches = 0;

  constructor(private readonly opts: InformerOptions<T>) {
    this.store = new ObjectStore<T>(opts.resource.namespaced);
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.delay = this.newDelay();
  }

  private newDelay(): () => number {
    return delayWithReset(
      this.opts.backoff ?? reflectorBackoff,
      this.clock,
      reflectorBackoffResetMs,
      this.random,
    );
  }

  get resource(): ResourceSpec {
    return this.opts.resource;
  }

  /** The resourceVersion the next watch (or relist) starts from. */
  lastSyncResourceVersionSeen(): string {
    return this.lastSyncResourceVersion;
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
    this.stopController = new AbortController();
    this.loop = this.run(this.stopController.signal);
  }

  /** Stops listing and watching; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopController?.abort(new Stopped("the informer was stopped"));
    await this.loop;
    this.loop = null;
  }

  private report(e: unknown): void {
    if (this.stopped) return;
    this.opts.onError?.(e instanceof Error ? e : new Error(String(e)), this.opts.resource);
  }

  /** wait.BackoffUntil(ListAndWatch, delay, sliding): a delay after every attempt. */
  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
      } catch (e) {
        if (!(e instanceof Stopped)) this.report(e);
      }
      if (signal.aborted) break;
      await this.sleep(this.delay(), signal);
    }
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        timer.cancel();
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = this.clock.setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  private async listAndWatch(signal: AbortSignal): Promise<void> {
    await this.list(signal);
    await this.watchLoop(signal);
  }

  /** relistResourceVersion: "" after an expired or too-large version, "0" at first, else the last seen. */
  private relistResourceVersion(): string {
    if (this.lastSyncResourceVersionUnavailable) return "";
    if (this.lastSyncResourceVersion === "") return "0";
    return this.lastSyncResourceVersion;
  }

  private async list(signal: AbortSignal): Promise<void> {
    const rv = this.relistResourceVersion();
    let pageSize = this.opts.pageSize ?? 500;
    // Paged lists skip the API server's cache: list unpaged from a known version (the cache
    // serves it, "not older than"), unless this server has shown it pages anyway.
    if (!this.paginatedResult && rv !== "" && rv !== "0") pageSize = 0;
    let result: { items: T[]; resourceVersion: string; paginated: boolean };
    try {
      result = await this.pagedList(rv, pageSize, signal);
    } catch (e) {
      if (!isExpired(e) && !isTooLargeResourceVersion(e)) throw this.stopOr(e, signal);
      this.lastSyncResourceVersionUnavailable = true;
      result = await this.pagedList(this.relistResourceVersion(), this.opts.pageSize ?? 500, signal);
    }
    if (signal.aborted) throw new Stopped();
    if (rv === "0" && result.paginated) this.paginatedResult = true;
    this.lastSyncResourceVersionUnavailable = false;
    this.lists++;
    this.replace(result.items);
    this.lastSyncResourceVersion = result.resourceVersion;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private stopOr(e: unknown, signal: AbortSignal): unknown {
    return signal.aborted ? new Stopped() : e;
  }

  /** tools/pager ListPager.List. */
  private async pagedList(
    resourceVersion: string,
    pageSize: number,
    signal: AbortSignal,
  ): Promise<{ items: T[]; resourceVersion: string; paginated: boolean }> {
    const spec = this.opts.resource;
    const get = (query: Record<string, string | undefined>) =>
      this.opts.client
        .request<ListBody<T>>("GET", spec.path, {
          query: { fieldSelector: spec.fieldSelector, ...query },
          signal,
        })
        .catch((e: unknown) => {
          throw this.stopOr(e, signal);
        });
    const items: T[] = [];
    let listRV = "";
    let paginated = false;
    let cont: string | undefined;
    for (;;) {
      let page: ListBody<T>;
      try {
        page = await get({
          resourceVersion: cont === undefined ? resourceVersion || undefined : undefined,
          limit: pageSize > 0 ? String(pageSize) : undefined,
          continue: cont,
        });
      } catch (e) {
        // The version the first page pinned was compacted while paging: one full list.
        if (!isExpired(e) || cont === undefined) throw e;
        const full = await get({ resourceVersion: resourceVersion || undefined });
        return {
          items: (full.items ?? []).map((i) => trim(i, spec)),
          resourceVersion: full.metadata?.resourceVersion ?? "",
          paginated,
        };
      }
      if (cont === undefined) listRV = page.metadata?.resourceVersion ?? "";
      for (const item of page.items ?? []) items.push(trim(item, spec));
      cont = page.metadata?.continue || undefined;
      if (cont === undefined) return { items, resourceVersion: listRV, paginated };
      paginated = true;
    }
  }

  /** DeltaFIFO.Replace as the shared informer delivers it. */
  private replace(items: T[]): void {
    const seen = new Set<string>();
    for (const item of items) seen.add(objectKey(item));
    for (const key of [...this.store.keys()]) {
      if (!seen.has(key)) {
        const old = this.store.removeKey(key);
        if (old !== undefined) this.opts.handlers.delete(new DeletedFinalStateUnknown(key, old));
      }
    }
    for (const item of items) this.upsert(item);
  }

  /**
   * Add, or update when the resourceVersion changed (the scheduler's handlers ignore updates
   * that carry an identical object, upstream #96071: they are not delivered at all here).
   */
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

  private remove(obj: T): void {
    const key = objectKey(obj);
    const old = this.store.removeKey(key);
    if (old !== undefined) this.opts.handlers.delete(obj);
  }

  /** Reflector.watch: watches until a watch ends in a way that needs a relist. */
  private async watchLoop(signal: AbortSignal): Promise<void> {
    const spec = this.opts.resource;
    const min = this.opts.minWatchTimeoutSeconds ?? 300;
    for (;;) {
      if (signal.aborted) return;
      const started = this.clock.now();
      const from = this.lastSyncResourceVersion;
      // Synthetic ADDED events of a watch from "" or "0" come in no resourceVersion order.
      const propagateFromStart = from !== "" && from !== "0";
      let besidesAdded = false;
      let failure: KubeApiError | null = null;
      const timeoutSeconds = Math.floor(min + this.random() * min);
      this.watches++;
      const result = await this.opts.client.watch(spec.path, {
        query: {
          fieldSelector: spec.fieldSelector,
          resourceVersion: from || undefined,
          allowWatchBookmarks: "true",
          timeoutSeconds: String(timeoutSeconds),
        },
        signal,
        // The server ends the watch at timeoutSeconds; this only bounds a server that does not.
        timeoutMs: (timeoutSeconds + 30) * 1000,
        onEvent: (type, raw) => {
          if (failure !== null || signal.aborted) return false;
          if (type === "ERROR") {
            const st = (raw ?? {}) as WatchStatus;
            failure = apiErrorFromResponse(st.code ?? 500, st, `watch ${spec.path}`);
            return false;
          }
          const o = trim(raw as T, spec);
          const rv = o.metadata?.resourceVersion ?? "";
          if (type === "ADDED") this.upsert(o);
          else if (type === "MODIFIED") {
            besidesAdded = true;
            this.upsert(o);
          } else if (type === "DELETED") {
            besidesAdded = true;
            this.remove(o);
          } else if (type === "BOOKMARK") besidesAdded = true;
          else return true;
          if (rv && (propagateFromStart || besidesAdded)) this.lastSyncResourceVersion = rv;
          return true;
        },
      });
      if (signal.aborted) return;
      if (failure !== null) {
        const err: KubeApiError = failure;
        if (isTooManyRequests(err)) {
          await this.sleep(this.delay(), signal);
          continue;
        }
        // 410 Expired: relist from the last version seen (the list is "not older than" it).
        // Any other status: relist too, after reporting it.
        if (!isExpired(err)) this.report(err);
        return;
      }
      if (result.kind === "error") {
        const err = result.error;
        // The server is away or busy: back off and re-watch from where we were.
        if (isConnectionRefused(err) || isTooManyRequests(err)) {
          this.report(err);
          await this.sleep(this.delay(), signal);
          continue;
        }
        if (!isExpired(err)) this.report(err);
        return;
      }
      if (this.clock.now() - started < 1000 && result.events === 0) {
        this.report(new VeryShortWatchError(spec.path));
        return;
      }
    }
  }
}
