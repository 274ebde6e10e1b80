// Watches as the API server serves them: from "" or "0" synthetic ADDED events of the current
// state, from N every change after N (an ERROR 410 "too old resource version" once compacted; 504
// "Too large resource version" for a version the server has not reached);
// field selectors turn changes into ADDED/DELETED as objects enter or leave them; BOOKMARK events
// (allowWatchBookmarks) every `bookmarkIntervalMs` and 2 s before the deadline; the stream ends at
// `timeoutSeconds`. The
// faults tests inject into open watches are here too.
import type http from "node:http";
import { type KindInfo, kindInfo } from "./collections";
import { type FieldSelector, matches, parseFieldSelector } from "./field-selector";
import type { HistoryEntry, Obj, ObjectStore } from "./object-store";
import { type Answer, reasons, status, tooLargeResourceVersion } from "./status";

export interface WatchOptions {
  /** Interval of BOOKMARK events on watches that allow them (default 60 s, as the API server). */
  bookmarkIntervalMs?: number;
  /** Upper bound of a watch's life in seconds whatever timeoutSeconds says (default none). */
  maxWatchSeconds?: number;
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

/** The open watches of the emulator. */
export class Watches {
  private readonly open = new Set<Watcher>();
  private closeAfter: { n: number; kind: string | undefined } | null = null;

  constructor(
    private readonly store: ObjectStore,
    private readonly options: WatchOptions,
  ) {}

  /**
   * Serves a watch request on `res` (query: resourceVersion, fieldSelector, allowWatchBookmarks,
   * timeoutSeconds); the answer instead when the watch is refused before it starts.
   */
  serve(
    info: KindInfo,
    namespace: string | undefined,
    query: Record<string, string>,
    res: http.ServerResponse,
  ): Answer | undefined {
    const fromText = query.resourceVersion ?? "";
    const from = Number(fromText || "0");
    // The watch cache waits up to 3 s for a version it has not seen, then gives up.
    if (from > this.store.resourceVersion())
      return tooLargeResourceVersion(from, this.store.resourceVersion());
    res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
    res.flushHeaders();
    const w: Watcher = {
      kind: info.kind,
      namespace,
      selector: parseFieldSelector(query.fieldSelector),
      res,
      bookmarks: query.allowWatchBookmarks === "true",
      sent: 0,
      timers: [],
    };
    this.open.add(w);
    res.on("close", () => {
      this.open.delete(w);
      for (const t of w.timers) clearTimeout(t);
    });
    const compacted = this.store.compactedRevision();
    if (fromText === "" || fromText === "0") {
      const state = this.store.of(info.kind);
      for (const k of [...state.keys()].sort()) {
        const o = state.get(k) as Obj;
        if ((namespace === undefined || o.metadata?.namespace === namespace) && matches(w.selector, o)) {
          this.send(w, "ADDED", o);
          if (!this.open.has(w)) return undefined;
        }
      }
    } else if (from < compacted) {
      this.send(w, "ERROR", status(410, "Expired", `too old resource version: ${from} (${compacted})`));
      this.end(w);
      return undefined;
    } else {
      for (const e of this.store.changesAfter(info.kind, from)) {
        if (!this.open.has(w)) break;
        this.deliver(w, e);
      }
    }
    if (!this.open.has(w)) return undefined;
    const timeout = Number(query.timeoutSeconds || "0");
    const max = this.options.maxWatchSeconds ?? 0;
    const seconds = timeout > 0 && max > 0 ? Math.min(timeout, max) : timeout || max;
    if (seconds > 0) w.timers.push(setTimeout(() => this.end(w), seconds * 1000));
    if (w.bookmarks) this.scheduleBookmark(w, seconds > 0 ? Date.now() + seconds * 1000 : null);
    return undefined;
  }

  /**
   * upstream cacheWatcher.nextBookmarkTime: a BOOKMARK every bookmarkIntervalMs, but never later
   * than 2 s before the watch's deadline (the client then resumes from a recent version).
   */
  private scheduleBookmark(w: Watcher, deadline: number | null): void {
    const now = Date.now();
    let at = now + (this.options.bookmarkIntervalMs ?? 60_000);
    if (deadline !== null && deadline - 2000 < at) at = deadline - 2000;
    if (at <= now) return;
    const tick = () => {
      if (!this.open.has(w)) return;
      this.sendBookmark(w);
      this.scheduleBookmark(w, deadline);
    };
    w.timers.push(setTimeout(tick, at - now));
  }

  /** Sends a change to the open watches of its kind. */
  broadcast(kind: string, e: HistoryEntry): void {
    for (const w of [...this.open]) if (w.kind === kind) this.deliver(w, e);
  }

  /** Ends every open watch of a kind with an ERROR event (410 "too old resource version"). */
  expire(kind: string): void {
    const rv = this.store.resourceVersion();
    for (const w of [...this.open]) {
      if (w.kind !== kind) continue;
      this.send(w, "ERROR", status(410, "Expired", `too old resource version: ${rv} (${rv})`));
      this.end(w);
    }
  }

  /** Sends an ERROR event with `code` on every open watch of a kind, and ends them. */
  error(kind: string, code: number, message: string): void {
    for (const w of [...this.open]) {
      if (w.kind !== kind) continue;
      this.send(w, "ERROR", status(code, reasons[code] ?? "Unknown", message));
      this.end(w);
    }
  }

  /** Ends every open watch of a kind normally (as the server's watch timeout would). */
  close(kind: string): void {
    for (const w of [...this.open]) if (w.kind === kind) this.end(w);
  }

  /** Ends every open watch. */
  closeAll(): void {
    for (const w of [...this.open]) this.end(w);
  }

  /** Cuts every open watch of a kind at the TCP level (a reset, no clean end of the stream). */
  reset(kind: string): void {
    for (const w of [...this.open]) {
      if (w.kind !== kind) continue;
      this.open.delete(w);
      for (const t of w.timers) clearTimeout(t);
      w.res.socket?.destroy();
    }
  }

  /** From now on, every watch (of `kind`, or of any kind) ends after sending `n` events; null: never. */
  setCloseAfter(n: number | null, kind?: string): void {
    this.closeAfter = n === null ? null : { n, kind };
  }

  /** Sends a BOOKMARK now on every open watch that allows them. */
  bookmark(): void {
    for (const w of this.open) if (w.bookmarks) this.sendBookmark(w);
  }

  /** Number of open watches of a kind. */
  count(kind: string): number {
    let n = 0;
    for (const w of this.open) if (w.kind === kind) n++;
    return n;
  }

  /** Sends one change to a watcher, translated through its selector as the server does. */
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
    if (!this.open.has(w) && type !== "ERROR") return;
    w.res.write(`${JSON.stringify({ type, object })}\n`);
    w.sent++;
    const limit = this.closeAfter;
    if (limit && (limit.kind === undefined || limit.kind === w.kind) && w.sent >= limit.n) this.end(w);
  }

  private sendBookmark(w: Watcher): void {
    const info = kindInfo(w.kind);
    this.send(w, "BOOKMARK", {
      apiVersion: info.apiVersion,
      kind: info.kind,
      metadata: { resourceVersion: String(this.store.resourceVersion()) },
    });
  }

  private end(w: Watcher): void {
    this.open.delete(w);
    for (const t of w.timers) clearTimeout(t);
    if (!w.res.writableEnded) w.res.end();
  }
}
