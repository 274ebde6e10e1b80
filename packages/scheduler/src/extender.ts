// upstream: pkg/scheduler/extender.go and staging/src/k8s.io/kube-scheduler/extender/v1/types.go
// (the JSON wire format).
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Node, Pod } from "@kubesched/api";
import type { Extender, ExtenderFilterResult, ExtenderVictims, NodeInfo } from "@kubesched/framework";

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
  /** Milliseconds (the config's duration, decoded). Default 5 s. */
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

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ ok: boolean; status: number; statusText: string; json(): Promise<unknown> }>;

interface WireFilterResult {
  nodes?: { items?: Node[] } | null;
  nodenames?: string[] | null;
  failedNodes?: Record<string, string> | null;
  failedAndUnresolvableNodes?: Record<string, string> | null;
  error?: string;
}

interface WireVictims {
  pods?: Pod[];
  numPDBViolations?: number;
}
interface WireMetaVictims {
  pods?: { uid: string }[];
  numPDBViolations?: number;
}

/** An extender reached over HTTP with upstream's JSON wire format. */
export class HTTPExtender implements Extender {
  private readonly managed: Set<string>;
  private readonly fetchFn: FetchLike;

  constructor(
    readonly config: ExtenderConfig,
    fetchFn?: FetchLike,
  ) {
    this.managed = new Set((config.managedResources ?? []).map((r) => r.name));
    this.fetchFn = fetchFn ?? nodeFetch(tlsAgent(config));
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
    const args = this.config.nodeCacheCapable
      ? { pod, nodenames: nodes.map((n) => n.nodeName) }
      : { pod, nodes: { items: nodes.map((n) => n.node).filter((n): n is Node => n !== null) } };
    const res = (await this.send(this.config.filterVerb, args)) as WireFilterResult;
    if (res.error) throw new Error(res.error);
    const names = this.config.nodeCacheCapable
      ? (res.nodenames ?? [])
      : (res.nodes?.items ?? []).map((n) => n.metadata?.name ?? "");
    const out: NodeInfo[] = [];
    for (const n of names) {
      const ni = byName.get(n);
      if (ni) out.push(ni);
      else if (this.config.nodeCacheCapable) {
        throw new Error(
          `extender "${this.config.urlPrefix}" claims a filtered node "${n}" which is not found in the input node list`,
        );
      }
    }
    return {
      nodes: out,
      failedNodes: new Map(Object.entries(res.failedNodes ?? {})),
      failedAndUnresolvableNodes: new Map(Object.entries(res.failedAndUnresolvableNodes ?? {})),
    };
  }

  async prioritize(pod: Pod, nodes: NodeInfo[]): Promise<{ scores: Map<string, number>; weight: number }> {
    const weight = this.config.weight ?? 0;
    if (!this.config.prioritizeVerb) {
      return { scores: new Map(nodes.map((n) => [n.nodeName, 0] as const)), weight: 0 };
    }
    const args = this.config.nodeCacheCapable
      ? { pod, nodenames: nodes.map((n) => n.nodeName) }
      : { pod, nodes: { items: nodes.map((n) => n.node).filter((n): n is Node => n !== null) } };
    const res = (await this.send(this.config.prioritizeVerb, args)) as
      | { host: string; score: number }[]
      | null;
    const scores = new Map<string, number>();
    for (const hp of res ?? []) scores.set(hp.host, hp.score);
    return { scores, weight };
  }

  async bind(pod: Pod, nodeName: string): Promise<void> {
    if (!this.config.bindVerb) throw new Error("unexpected empty bindVerb in extender");
    const res = (await this.send(this.config.bindVerb, {
      podName: pod.metadata?.name ?? "",
      podNamespace: pod.metadata?.namespace ?? "",
      podUID: pod.metadata?.uid ?? "",
      node: nodeName,
    })) as { error?: string } | null;
    if (res?.error) throw new Error(res.error);
  }

  async processPreemption(
    pod: Pod,
    victims: Map<string, ExtenderVictims>,
  ): Promise<Map<string, ExtenderVictims>> {
    if (!this.config.preemptVerb) throw new Error("preempt verb is not defined for extender");
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
    const res = (await this.send(this.config.preemptVerb, args)) as {
      nodeNameToMetaVictims?: Record<string, WireMetaVictims>;
    } | null;
    // Convert the returned UIDs back to the pods we offered (upstream convertToVictims).
    const out = new Map<string, ExtenderVictims>();
    for (const [node, mv] of Object.entries(res?.nodeNameToMetaVictims ?? {})) {
      const offered = victims.get(node);
      if (!offered) throw new Error(`extender returned node ${node} that was not a candidate`);
      const pods: Pod[] = [];
      for (const mp of mv.pods ?? []) {
        const p = offered.pods.find((x) => (x.metadata?.uid ?? "") === mp.uid);
        if (!p) throw new Error(`extender returned victim ${mp.uid} that was not offered on node ${node}`);
        pods.push(p);
      }
      out.set(node, { pods, numPDBViolations: mv.numPDBViolations ?? 0 });
    }
    return out;
  }

  private async send(verb: string, body: unknown): Promise<unknown> {
    const url = `${this.config.urlPrefix.replace(/\/+$/, "")}/${verb}`;
    const ctl = new AbortController();
    const timeout = setTimeout(() => ctl.abort(), this.config.httpTimeoutMs ?? 5000);
    try {
      const res = await this.fetchFn(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      // upstream accepts 200 only (extender.go: resp.StatusCode != http.StatusOK).
      if (res.status !== 200)
        throw new Error(`failed ${verb} with extender at URL ${url}, code ${res.status}`);
      return await res.json();
    } finally {
      clearTimeout(timeout);
    }
  }
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

/** POSTs over node:http(s) with the extender's TLS agent (global fetch takes no TLS options). */
function nodeFetch(agent: HttpsAgent | undefined): FetchLike {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const u = new URL(url);
      const https = u.protocol === "https:";
      const req = (https ? httpsRequest : httpRequest)(
        u,
        {
          method: init.method,
          headers: init.headers,
          signal: init.signal,
          ...(https && agent ? { agent } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({
              ok: status >= 200 && status < 300,
              status,
              statusText: res.statusMessage ?? "",
              json: async () => JSON.parse(text) as unknown,
            });
          });
        },
      );
      req.on("error", reject);
      req.end(init.body);
    });
}
