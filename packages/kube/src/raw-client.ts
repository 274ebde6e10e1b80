// Plain-JSON requests to the API server with the kubeconfig's TLS and credentials applied
// (KubeConfig.applyToHTTPSOptions: CA, client certificates, tokens, exec plugins, proxies).
// Lists go through here rather than the generated typed client, whose ObjectSerializer turns
// timestamps into Date and drops unknown fields: watch events are raw JSON, so informer caches
// would otherwise hold two shapes of the same object. Events and Leases go through here too
// because their MicroTime fields must be written with microseconds (see micro-time.ts).
import http from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { apiErrorFromResponse, KubeApiError } from "./api-error";

export interface RawRequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Content-Type of the body; default application/json. */
  contentType?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

export class RawClient {
  constructor(readonly kubeConfig: KubeConfig) {}

  /** The API server's base URL, from the kubeconfig's current cluster. */
  server(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig has no current cluster");
    return cluster.server.replace(/\/+$/, "");
  }

  /** Sends one request; resolves to the parsed JSON body, rejects with a KubeApiError. */
  async request<T>(method: string, path: string, opts: RawRequestOptions = {}): Promise<T> {
    const url = new URL(this.server() + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const reqOpts: https.RequestOptions = {
      method,
      headers: {
        Accept: "application/json",
        ...(payload !== undefined
          ? {
              "Content-Type": opts.contentType ?? "application/json",
              "Content-Length": String(Buffer.byteLength(payload)),
            }
          : {}),
      },
    };
    await this.kubeConfig.applyToHTTPSOptions(reqOpts);
    if (opts.signal) reqOpts.signal = opts.signal;
    const what = `${method} ${path}`;
    const transport = url.protocol === "https:" ? https : http;
    return new Promise<T>((resolve, reject) => {
      const req = transport.request(url, reqOpts, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => reject(new KubeApiError(0, "", `${what}: ${e.message}`)));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const code = res.statusCode ?? 0;
          if (code < 200 || code >= 300) {
            reject(apiErrorFromResponse(code, text, what));
            return;
          }
          try {
            resolve((text ? JSON.parse(text) : {}) as T);
          } catch {
            reject(new KubeApiError(code, "", `${what}: the response is not JSON`));
          }
        });
      });
      req.on("error", (e) => reject(new KubeApiError(0, "", `${what}: ${e.message}`)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}
