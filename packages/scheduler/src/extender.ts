// upstream: pkg/scheduler/extender.go and staging/src/k8s.io/kube-scheduler/extender/v1/types.go
// (the JSON wire format; responses are declared in extender-v1.ts and decoded as upstream's Go
// client decodes them, go-json.ts).
import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Node, Pod } from "@kubesched/api";
import { DefaultExtenderTimeoutMs, formatDuration, type KubeSchedulerConfiguration } from "@kubesched/config";
import type { Extender, ExtenderFilterResult, ExtenderVictims, NodeInfo } from "@kubesched/framework";
import type { Static, TSchema } from "@sinclair/typebox";
import * as v1 from "./extender-v1";
import { clip, decodeGoJSON } from "./go-json";

/**
 * How much larger than the request an extender's response may be. A response holds at most the
 * nodes it was sent (a filter answer without nodeCacheCapable echoes full Node objects, so the
 * bound grows with the request) plus a message per node: 16 MiB covers a 15,000-node cluster
 * with a 1 KiB message for every node. Upstream reads responses without a bound; this is a
 * constant (upstream has no knob to configure).
 */
export const maxResponseBytesOverRequest = 16 * 1024 * 1024;

/**
 * Strings an extender supplies (its `error`, failure messages, names it claims) are cut to this
 * many characters in errors and logs, as events cut their notes to 1024.
 */
export const maxExtenderStringLength = 1024;

/** The v1 Extender configuration (KubeSchedulerConfiguration.extenders[]). */
export interface ExtenderConfig {
  urlPrefix: string;
  filterVerb?: string;
  preemptVerb?: string;
  prioritizeVerb?: string;
  weight?: number;
  bindVerb?: string;
  enableHTTPS?: boolean;
  tlsConfig?: ExtenderTLSConfig;
  /**
   * Milliseconds (the config's duration, decoded) an exchange may take, from connecting to the
   * last byte of the response (upstream http.Client.Timeout). Default 5 s.
   */
  httpTimeoutMs?: number;
  nodeCacheCapable?: boolean;
  managedResources?: { name: string; ignoredByScheduler?: boolean }[];
  ignorable?: boolean;
}

/** The v1 ExtenderTLSConfig: files are paths, `*Data` are base64 PEM, as in the v1 JSON. */
export interface ExtenderTLSConfig {
  insecure?: boolean;
  serverName?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  certData?: string;
  keyData?: string;
  caData?: string;
}

/**
 * An extender call that failed: the transport, the status, the response's size or decoding, or
 * the extender's own error. Names the extender (its URL prefix) and the URL it called.
 */
export class ExtenderError extends Error {
  override name = "ExtenderError";
  constructor(
    message: string,
    /** The extender's name: its urlPrefix. */
    readonly extender: string,
    /** The URL of the call. */
    readonly url: string,
    /** Set when the call got no complete response within httpTimeout: that timeout, in ms. */
    readonly timeoutMs?: number,
  ) {
    super(message);
  }
}

interface WireVictims {
  pods?: Pod[];
  numPDBViolations?: number;
}
interface WireMetaVictims {
  pods?: { uid: string }[];
  numPDBViolations?: number;
}

/**
 * An extender reached over HTTP with upstream's JSON wire format. Each call is bounded: in time by
 * httpTimeout (connecting, sending, reading the whole response), in size by the request's size
 * plus {@link maxResponseBytesOverRequest}; its failures are {@link ExtenderError}s.
 */
export class HTTPExtender implements Extender {
  private readonly managed: Set<string>;
  private readonly agent: HttpsAgent | undefined;

  constructor(readonly config: ExtenderConfig) {
    this.managed = new Set((config.managedResources ?? []).map((r) => r.name));
    this.agent = tlsAgent(config);
  }

  name(): string {
    return this.config.urlPrefix;
  }
  isIgnorable(): boolean {
    return this.config.ignorable === true;
  }
  isFilter(): boolean {
    return !!this.config.filterVerb;
  }
  isPrioritizer(): boolean {
    return !!this.config.prioritizeVerb;
  }
  isBinder(): boolean {
    return !!this.config.bindVerb;
  }
  supportsPreemption(): boolean {
    return !!this.config.preemptVerb;
  }

  /** Interested when no managed resources are configured, or the pod requests/limits one. */
  isInterested(pod: Pod): boolean {
    if (this.managed.size === 0) return true;
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
    for (const c of containers) {
      for (const k of Object.keys(c.resources?.requests ?? {})) if (this.managed.has(k)) return true;
      for (const k of Object.keys(c.resources?.limits ?? {})) if (this.managed.has(k)) return true;
    }
    return false;
  }

  async filter(pod: Pod, nodes: NodeInfo[]): Promise<ExtenderFilterResult> {
    const byName = new Map(nodes.map((n) => [n.nodeName, n] as const));
    if (!this.config.filterVerb)
      return { nodes, failedNodes: new Map(), failedAndUnresolvableNodes: new Map() };
    const { value: res, url } = await this.send(
      this.config.filterVerb,
      this.args(pod, nodes),
      v1.ExtenderFilterResult,
    );
    if (res.Error !== "") throw this.error(url, clip(res.Error, maxExtenderStringLength));
    const out: NodeInfo[] = [];
    if (this.config.nodeCacheCapable && res.NodeNames !== null) {
      for (const n of res.NodeNames) {
        const ni = byName.get(n);
        if (!ni) {
          throw this.error(
            url,
            `extender "${this.config.urlPrefix}" claims a filtered node "${clip(n, maxExtenderStringLength)}" which is not found in the input node list`,
          );
        }
        out.push(ni);
      }
    } else if (res.Nodes !== null) {
      // The nodes are the scheduler's own, found by name (names it did not send are dropped).
      for (const n of res.Nodes.items) {
        const ni = byName.get(n.metadata.name);
        if (ni) out.push(ni);
      }
    }
    return {
      nodes: out,
      failedNodes: failureMessages(res.FailedNodes),
      failedAndUnresolvableNodes: failureMessages(res.FailedAndUnresolvableNodes),
    };
  }

  async prioritize(pod: Pod, nodes: NodeInfo[]): Promise<{ scores: Map<string, number>; weight: number }> {
    const weight = this.config.weight ?? 0;
    if (!this.config.prioritizeVerb) {
      return { scores: new Map(nodes.map((n) => [n.nodeName, 0] as const)), weight: 0 };
    }
    const { value: list } = await this.send(
      this.config.prioritizeVerb,
      this.args(pod, nodes),
      v1.HostPriorityList,
    );
    // A host listed twice gets the sum of its scores (upstream adds them up).
    const scores = new Map<string, number>();
    for (const hp of list) scores.set(hp.Host, (scores.get(hp.Host) ?? 0) + hp.Score);
    return { scores, weight };
  }

  async bind(pod: Pod, nodeName: string): Promise<void> {
    if (!this.config.bindVerb) throw new Error("unexpected empty bindVerb in extender");
    const { value: res, url } = await this.send(
      this.config.bindVerb,
      {
        podName: pod.metadata?.name ?? "",
        podNamespace: pod.metadata?.namespace ?? "",
        podUID: pod.metadata?.uid ?? "",
        node: nodeName,
      },
      v1.ExtenderBindingResult,
    );
    if (res.Error !== "") throw this.error(url, clip(res.Error, maxExtenderStringLength));
  }

  async processPreemption(
    pod: Pod,
    victims: Map<string, ExtenderVictims>,
  ): Promise<Map<string, ExtenderVictims>> {
    if (!this.config.preemptVerb) {
      throw new Error(
        `preempt verb is not defined for extender ${this.config.urlPrefix} but run into ProcessPreemption`,
      );
    }
    let args: unknown;
    if (this.config.nodeCacheCapable) {
      const meta: Record<string, WireMetaVictims> = {};
      for (const [n, v] of victims) {
        meta[n] = {
          pods: v.pods.map((p) => ({ uid: p.metadata?.uid ?? "" })),
          numPDBViolations: v.numPDBViolations,
        };
      }
      args = { pod, nodeNameToMetaVictims: meta };
    } else {
      const full: Record<string, WireVictims> = {};
      for (const [n, v] of victims) full[n] = { pods: v.pods, numPDBViolations: v.numPDBViolations };
      args = { pod, nodeNameToVictims: full };
    }
    const { value: res, url } = await this.send(this.config.preemptVerb, args, v1.ExtenderPreemptionResult);
    // Convert the returned UIDs back to the pods we offered (upstream convertToVictims).
    const out = new Map<string, ExtenderVictims>();
    for (const [node, mv] of Object.entries(res.NodeNameToMetaVictims)) {
      const shown = clip(node, maxExtenderStringLength);
      const offered = victims.get(node);
      const ext = `extender "${this.config.urlPrefix}"`;
      if (!offered) throw this.error(url, `${ext} returned node ${shown} that was not a candidate`);
      // Upstream dereferences these pointers (a nil one panics there).
      if (mv === null) throw this.error(url, `${ext} returned null victims for node ${shown}`);
      const pods: Pod[] = [];
      for (const mp of mv.Pods) {
        if (mp === null) throw this.error(url, `${ext} returned a null victim pod on node ${shown}`);
        const p = offered.pods.find((x) => (x.metadata?.uid ?? "") === mp.UID);
        if (!p) {
          throw this.error(
            url,
            `extender: ${this.config.urlPrefix} claims to preempt pod (UID: ${clip(mp.UID, maxExtenderStringLength)}) on node: ${shown}, but the pod is not found on that node`,
          );
        }
        pods.push(p);
      }
      out.set(node, { pods, numPDBViolations: mv.NumPDBViolations });
    }
    return out;
  }

  /** ExtenderArgs: the pod and the nodes, by name when the extender caches nodes. */
  private args(pod: Pod, nodes: NodeInfo[]): unknown {
    return this.config.nodeCacheCapable
      ? { pod, nodenames: nodes.map((n) => n.nodeName) }
      : { pod, nodes: { items: nodes.map((n) => n.node).filter((n): n is Node => n !== null) } };
  }

  private error(url: string, message: string, timeoutMs?: number): ExtenderError {
    return new ExtenderError(message, this.config.urlPrefix, url, timeoutMs);
  }

  /** POSTs `args` to the verb's URL and decodes the answer into the Go type `result` declares. */
  private async send<T extends TSchema>(
    verb: string,
    args: unknown,
    result: T,
  ): Promise<{ value: Static<T>; url: string }> {
    const url = `${this.config.urlPrefix.replace(/\/+$/, "")}/${verb}`;
    const body = JSON.stringify(args);
    const timeoutMs = this.config.httpTimeoutMs || DefaultExtenderTimeoutMs;
    const maxBytes = Buffer.byteLength(body) + maxResponseBytesOverRequest;
    const where = `extender "${this.config.urlPrefix}": POST ${url}`;
    let res: { status: number; body: Buffer };
    try {
      res = await post(url, body, { agent: this.agent, timeoutMs, maxBytes });
    } catch (e) {
      if (e instanceof CallLimitError) {
        const limit =
          e.limit === "timeout"
            ? `no complete response within httpTimeout ${formatDuration(timeoutMs)}`
            : `the response exceeds ${maxBytes} bytes (the request's ${maxBytes - maxResponseBytesOverRequest} bytes plus ${maxResponseBytesOverRequest / 1024 / 1024} MiB)`;
        throw this.error(url, `${where}: ${limit}`, e.limit === "timeout" ? timeoutMs : undefined);
      }
      throw this.error(url, `${where}: ${(e as Error).message}`);
    }
    // upstream accepts 200 only (extender.go: resp.StatusCode != http.StatusOK).
    if (res.status !== 200)
      throw this.error(url, `failed ${verb} with extender at URL ${url}, code ${res.status}`);
    try {
      return { value: decodeGoJSON(res.body.toString("utf8"), result), url };
    } catch (e) {
      throw this.error(url, `${where}: decoding the response: ${(e as Error).message}`);
    }
  }
}

/** The failure messages of FailedNodesMap, cut to maxExtenderStringLength. */
function failureMessages(m: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(m).map(([node, msg]) => [node, clip(msg, maxExtenderStringLength)]));
}

/** The configuration's extenders, as HTTPExtenders in their order (what Scheduler.create builds). */
export function httpExtenders(config: KubeSchedulerConfiguration): HTTPExtender[] {
  return config.extenders.map(
    (e) =>
      new HTTPExtender({
        urlPrefix: e.urlPrefix,
        filterVerb: e.filterVerb,
        preemptVerb: e.preemptVerb,
        prioritizeVerb: e.prioritizeVerb,
        weight: e.weight,
        bindVerb: e.bindVerb,
        enableHTTPS: e.enableHTTPS,
        ...(e.tlsConfig ? { tlsConfig: e.tlsConfig } : {}),
        httpTimeoutMs: e.httpTimeout,
        nodeCacheCapable: e.nodeCacheCapable,
        managedResources: e.managedResources,
        ignorable: e.ignorable,
      }),
  );
}

/**
 * The TLS settings of an extender's transport (upstream extender.go makeTransport): the config's
 * client certificate, CA and server name; with `enableHTTPS` and no CA, the server certificate is
 * not verified, as upstream. Files are read once, at construction; a missing file is an error.
 */
function tlsAgent(config: ExtenderConfig): HttpsAgent | undefined {
  const t = config.tlsConfig;
  if (!t && !config.enableHTTPS) return undefined;
  const read = (file: string | undefined, data: string | undefined, what: string): string | undefined => {
    if (data) return Buffer.from(data, "base64").toString("utf8");
    if (!file) return undefined;
    try {
      return readFileSync(file, "utf8");
    } catch (e) {
      throw new Error(
        `extender "${config.urlPrefix}": reading tlsConfig.${what} ${file}: ${(e as Error).message}`,
      );
    }
  };
  const ca = read(t?.caFile, t?.caData, "caFile");
  const cert = read(t?.certFile, t?.certData, "certFile");
  const key = read(t?.keyFile, t?.keyData, "keyFile");
  const insecure = t?.insecure === true || (config.enableHTTPS === true && ca === undefined);
  return new HttpsAgent({
    keepAlive: true,
    rejectUnauthorized: !insecure,
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(t?.serverName ? { servername: t.serverName } : {}),
  });
}

/** A call hit httpTimeout or the response size limit. */
class CallLimitError extends Error {
  constructor(readonly limit: "timeout" | "size") {
    super(limit);
  }
}

/**
 * POSTs `body` over node:http(s) with the extender's TLS agent (global fetch takes no TLS
 * options). Resolves with the status and, for a 200, the whole body; other statuses are not read
 * (upstream does not read them). Rejects with a CallLimitError when the exchange outlasts
 * `timeoutMs` or the body grows beyond `maxBytes` (the connection is dropped at once: nothing
 * more is read).
 */
function post(
  url: string,
  body: string,
  opts: { agent: HttpsAgent | undefined; timeoutMs: number; maxBytes: number },
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const https = u.protocol === "https:";
    let done = false;
    const finish = (err: Error | null, value?: { status: number; body: Buffer }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(value as { status: number; body: Buffer });
    };
    const req = (https ? httpsRequest : httpRequest)(
      u,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        ...(https && opts.agent ? { agent: opts.agent } : {}),
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.destroy();
          finish(null, { status, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(res.headers["content-length"]);
        if (declared > opts.maxBytes) {
          finish(new CallLimitError("size"));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) finish(new CallLimitError("size"));
          else chunks.push(c);
        });
        res.on("error", (e) => finish(e));
        res.on("end", () => finish(null, { status, body: Buffer.concat(chunks) }));
        res.on("close", () => finish(new Error("the connection closed before the response was complete")));
      },
    );
    const timer = setTimeout(() => finish(new CallLimitError("timeout")), opts.timeoutMs);
    req.on("error", (e) => finish(e));
    req.end(body);
  });
}
