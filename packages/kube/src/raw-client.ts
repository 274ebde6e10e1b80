// Plain-JSON requests to the API server with the kubeconfig's TLS and credentials applied
// (KubeConfig.applyToHTTPSOptions: CA, client certificates, tokens, exec plugins, proxies), as
// client-go's rest.Request does them: every request waits for a token of the client's rate
// limiter (clientConnection.qps/burst), has a deadline, and is counted in the rest_client_*
// metrics. Objects stay the raw JSON of the wire: the generated typed client's ObjectSerializer
// turns timestamps into Date and drops unknown fields, and MicroTime fields must be written with
// microseconds (`formatMicroTime` of @kubesched/api).
import http from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "@kubesched/framework";
import { apiErrorFromResponse, KubeApiError } from "./api-error";
import type { TokenBucketRateLimiter } from "./flowcontrol";
import type { ClientMetrics } from "./metrics";

export interface RawRequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Content-Type of the body; default application/json. */
  contentType?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** This request's deadline in ms (default: the client's requestTimeoutMs). */
  timeoutMs?: number;
  /** How errors name the request (default "<METHOD> <path>"). */
  what?: string;
}

export interface RawClientOptions {
  /** The client-side rate limiter; absent: no limit. One per client, as client-go's clientsets. */
  rateLimiter?: TokenBucketRateLimiter;
  /**
   * Deadline of a request in ms, from the rate limiter's wait to the end of the response
   * (default 60 000, the API server's own --request-timeout). 0: none.
   */
  requestTimeoutMs?: number;
  /** rest_client_* metrics. */
  metrics?: ClientMetrics;
  /** Sent as User-Agent (client-go: rest.AddUserAgent), e.g. "kubesched/scheduler". */
  userAgent?: string;
  /** Logs long client-side throttling as client-go does. */
  logger?: Logger;
}

/** How a watch stream ended. */
export type WatchResult =
  /** The server ended the stream, or a transient network error (reset, EOF, timeout) cut it. */
  | { kind: "closed"; events: number }
  /** The watch could not be opened (a status error, connection refused), or a line was not JSON. */
  | { kind: "error"; error: KubeApiError; events: number };

export interface WatchRequest {
  query: Record<string, string | undefined>;
  /**
   * Each event as it arrives: `type` is ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. Returning
   * false ends the watch (it resolves as closed).
   */
  onEvent: (type: string, object: unknown) => boolean;
  signal?: AbortSignal;
  /** Client-side bound on the whole stream (the server should end it at timeoutSeconds first). */
  timeoutMs?: number;
}

/** client-go request.go: waits longer than this are logged at V(3), longer than 1 s at info. */
const longThrottleLatencyMs = 50;
const extraLongThrottleLatencyMs = 1000;
const defaultRequestTimeoutMs = 60_000;

function errnoCode(e: unknown): string {
  return e !== null && typeof e === "object" && "code" in e && typeof e.code === "string" ? e.code : "";
}

/** Whether an error is a refused connection (client-go utilnet.IsConnectionRefused). */
export function isConnectionRefused(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 0 && e.netCode === "ECONNREFUSED";
}

/** An aborted or timed-out request: the error a caller sees. */
function abortError(what: string, reason: unknown): KubeApiError {
  const why = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "aborted";
  return new KubeApiError(0, "", `${what}: ${why}`, "ABORTED");
}

export class RawClient {
  private readonly inFlight = new Set<AbortController>();
  private closedReason: string | null = null;
  private agent: http.Agent | null = null;
  private lastThrottleLog = 0;
  readonly requestTimeoutMs: number;

  constructor(
    readonly kubeConfig: KubeConfig,
    readonly opts: RawClientOptions = {},
  ) {
    this.requestTimeoutMs = opts.requestTimeoutMs ?? defaultRequestTimeoutMs;
  }

  /** The API server's base URL, from the kubeconfig's current cluster. */
  server(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig has no current cluster");
    return cluster.server.replace(/\/+$/, "");
  }

  /** Requests in flight (waiting for a token or for the server). */
  pending(): number {
    return this.inFlight.size;
  }

  /**
   * Aborts every request in flight (they reject with `reason`) and, with `close`, every later
   * one: shutdown gives up on a server that does not answer.
   */
  abortAll(reason: string, close = false): void {
    if (close) this.closedReason = reason;
    for (const ac of [...this.inFlight]) ac.abort(new Error(reason));
  }

  /** Sends one request; resolves to the parsed JSON body, rejects with a KubeApiError. */
  async request<T>(method: string, path: string, opts: RawRequestOptions = {}): Promise<T> {
    const what = opts.what ?? `${method} ${path}`;
    const res = await this.send(method, path, opts.query, opts, what, false);
    return res as T;
  }

  /**
   * Opens a watch (`?watch=true` on a collection) and feeds its events to `onEvent` until the
   * stream ends. Never rejects: how it ended is the result.
   */
  async watch(path: string, req: WatchRequest): Promise<WatchResult> {
    const events = { n: 0 };
    try {
      await this.send(
        "GET",
        path,
        { ...req.query, watch: "true" },
        {
          ...(req.signal ? { signal: req.signal } : {}),
          timeoutMs: req.timeoutMs ?? 0,
        },
        `watch ${path}`,
        { onEvent: req.onEvent, events },
      );
      return { kind: "closed", events: events.n };
    } catch (e) {
      const err = e instanceof KubeApiError ? e : new KubeApiError(0, "", String(e));
      return { kind: "error", error: err, events: events.n };
    }
  }

  private async getAgent(reqOpts: https.RequestOptions, url: URL): Promise<void> {
    await this.kubeConfig.applyToHTTPSOptions(reqOpts);
    const cluster = this.kubeConfig.getCurrentCluster();
    if (cluster?.proxyUrl) return; // the library's proxy agent, per request
    if (!this.agent) {
      const a = reqOpts.agent as (http.Agent & { options?: https.AgentOptions }) | undefined;
      // One keep-alive agent with the kubeconfig's TLS settings, reused by every request.
      this.agent =
        url.protocol === "https:"
          ? new https.Agent({ ...(a?.options ?? {}), keepAlive: true })
          : new http.Agent({ keepAlive: true });
    }
    reqOpts.agent = this.agent;
  }

  private async send(
    method: string,
    path: string,
    query: Record<string, string | undefined> | undefined,
    opts: Omit<RawRequestOptions, "query">,
    what: string,
    stream: false | { onEvent: WatchRequest["onEvent"]; events: { n: number } },
  ): Promise<unknown> {
    if (this.closedReason !== null) throw abortError(what, this.closedReason);
    const url = new URL(this.server() + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const ac = new AbortController();
    const onCallerAbort = () => ac.abort(opts.signal?.reason ?? new Error("the request was cancelled"));
    if (opts.signal?.aborted) throw abortError(what, opts.signal.reason ?? "the request was cancelled");
    opts.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const timeoutMs = opts.timeoutMs ?? this.requestTimeoutMs;
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Number.POSITIVE_INFINITY;
    const timer =
      timeoutMs > 0
        ? setTimeout(
            () => ac.abort(new Error(`the request did not finish within ${timeoutMs} ms`)),
            timeoutMs,
          )
        : null;
    this.inFlight.add(ac);
    const host = url.host;
    const verb = method;
    try {
      if (this.opts.rateLimiter) {
        let waited: number;
        try {
          waited = await this.opts.rateLimiter.wait(ac.signal, deadline - Date.now());
        } catch (e) {
          throw ac.signal.aborted
            ? abortError(what, ac.signal.reason)
            : new KubeApiError(
                0,
                "",
                `${what}: client rate limiter: ${(e as Error).message}`,
                "RATE_LIMITER",
              );
        }
        this.opts.metrics?.observeRateLimiter(verb, host, waited / 1000);
        this.logThrottle(waited, method, url);
      }
      const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const reqOpts: https.RequestOptions = {
        method,
        headers: {
          Accept: "application/json",
          ...(this.opts.userAgent ? { "User-Agent": this.opts.userAgent } : {}),
          ...(payload !== undefined
            ? {
                "Content-Type": opts.contentType ?? "application/json",
                "Content-Length": String(Buffer.byteLength(payload)),
              }
            : {}),
        },
      };
      await this.getAgent(reqOpts, url);
      if (ac.signal.aborted) throw abortError(what, ac.signal.reason);
      reqOpts.signal = ac.signal;
      const started = performance.now();
      return await this.exchange(url, reqOpts, payload, what, ac, stream, (code) => {
        this.opts.metrics?.observeRequest(verb, method, host, code, (performance.now() - started) / 1000);
      });
    } finally {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onCallerAbort);
      this.inFlight.delete(ac);
    }
  }

  private logThrottle(waitedMs: number, method: string, url: URL): void {
    const logger = this.opts.logger;
    if (!logger || waitedMs <= longThrottleLatencyMs) return;
    const msg = `Waited for ${(waitedMs / 1000).toFixed(3)}s due to client-side throttling, not priority and fairness, request: ${method}:${url.pathname}${url.search}`;
    const now = Date.now();
    if (waitedMs > extraLongThrottleLatencyMs && now - this.lastThrottleLog >= 10_000) {
      this.lastThrottleLog = now;
      logger.info(msg);
    } else if (logger.v(3)) logger.debug(3, msg);
  }

  private exchange(
    url: URL,
    reqOpts: https.RequestOptions,
    payload: string | undefined,
    what: string,
    ac: AbortController,
    stream: false | { onEvent: WatchRequest["onEvent"]; events: { n: number } },
    done: (code: string) => void,
  ): Promise<unknown> {
    const transport = url.protocol === "https:" ? https : http;
    return new Promise<unknown>((resolve, reject) => {
      let opened = false;
      let settled = false;
      const fail = (e: KubeApiError) => {
        if (settled) return;
        settled = true;
        reject(e);
      };
      const netError = (e: unknown) => {
        if (stream && opened) {
          // A watch stream cut by the network (reset, EOF, our own deadline or stop) ends as if
          // the server closed it (client-go StreamWatcher: probable EOF and timeouts close).
          if (settled) return;
          settled = true;
          resolve(undefined);
          return;
        }
        if (!opened) done("<error>");
        if (ac.signal.aborted) return fail(abortError(what, ac.signal.reason));
        fail(new KubeApiError(0, "", `${what}: ${(e as Error).message ?? String(e)}`, errnoCode(e)));
      };
      const req = transport.request(url, reqOpts, (res) => {
        opened = true;
        const code = res.statusCode ?? 0;
        done(String(code));
        if (stream && code === 200) {
          let buf = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            buf += chunk;
            let nl = buf.indexOf("\n");
            while (nl >= 0) {
              const line = buf.slice(0, nl).trim();
              buf = buf.slice(nl + 1);
              nl = buf.indexOf("\n");
              if (line === "") continue;
              let ev: { type?: string; object?: unknown };
              try {
                ev = JSON.parse(line);
              } catch {
                fail(
                  new KubeApiError(
                    0,
                    "",
                    `${what}: unable to decode an event from the watch stream: ${line.slice(0, 200)}`,
                    "DECODE",
                  ),
                );
                req.destroy();
                return;
              }
              stream.events.n++;
              if (!stream.onEvent(ev.type ?? "", ev.object)) {
                settled = true;
                req.destroy();
                resolve(undefined);
                return;
              }
            }
          });
          res.on("error", netError);
          const ended = () => {
            if (settled) return;
            settled = true;
            resolve(undefined);
          };
          res.on("end", ended);
          res.on("close", ended);
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", netError);
        res.on("close", () => {
          if (!res.complete)
            netError(
              Object.assign(new Error("the connection closed before the response ended"), {
                code: "ECONNRESET",
              }),
            );
        });
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (code < 200 || code >= 300) {
            fail(apiErrorFromResponse(code, text, what));
            return;
          }
          if (settled) return;
          try {
            settled = true;
            resolve(text ? JSON.parse(text) : {});
          } catch {
            settled = false;
            fail(new KubeApiError(code, "", `${what}: the response is not JSON`));
          }
        });
      });
      req.on("error", netError);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}
