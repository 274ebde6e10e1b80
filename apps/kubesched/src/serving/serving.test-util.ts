// The serving stack as `kubesched run` builds it (runScheduler against the API-server emulator,
// both listeners on free ports), and clients that send it raw bytes, for the serving tests.
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { defaultConfig } from "@kubesched/config";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, type RecordingLogger, recordingLogger } from "@kubesched/testing";
import { runScheduler, type ServingFlags } from "../commands/run";
import type { Serving } from "./secure-serving";

export interface LiveServing {
  api: FakeApiServer;
  serving: Serving;
  logger: RecordingLogger;
  /** Stops the scheduler and the emulator. */
  stop(): Promise<void>;
}

/** runScheduler with both listeners on free ports of 127.0.0.1 (leader election off). */
export async function startLiveServing(flags: Partial<ServingFlags> = {}): Promise<LiveServing> {
  const api = await FakeApiServer.start();
  api.put("Node", makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi" }).obj());
  const config = defaultConfig({ registry: inTreeRegistry });
  config.leaderElection.leaderElect = false;
  const logger = recordingLogger(0);
  const ac = new AbortController();
  let serving: Serving | undefined;
  const done = runScheduler({
    config,
    registry: inTreeRegistry,
    kubeConfig: api.kubeConfig(),
    signal: ac.signal,
    logger,
    serving: {
      bindAddress: "127.0.0.1",
      securePort: -1,
      insecurePort: -1,
      tls: {},
      alwaysAllowPaths: ["/healthz", "/readyz", "/livez"],
      ...flags,
    },
    onListening: (s) => {
      serving = s;
    },
  });
  const s = await Promise.race([
    waitFor(() => serving, 60_000, "the servers to listen"),
    done.then((code) => {
      throw new Error(`runScheduler ended with ${code} before listening`);
    }),
  ]);
  return {
    api,
    serving: s,
    logger,
    stop: async () => {
      ac.abort();
      await done;
      await api.close();
    },
  };
}

export interface RawAnswer {
  /** Every byte the server sent. */
  data: Buffer;
  /**
   * How it ended: the server closed the connection, an error (reset), an answer arrived (with
   * `stopOnAnswer`), or none of these in time.
   */
  end: "closed" | "error" | "answered" | "timeout";
}

export interface RawOptions {
  /** Over TLS (after the handshake); false: plain TCP (to either port). */
  tls: boolean;
  /** After writing: end our side ("half-close"), or cut the connection. */
  after: "end" | "destroy" | "keep";
  /** Give up (end "timeout") after this long. */
  timeoutMs: number;
  /** Stop once a status line arrived (the server may keep the connection open). */
  stopOnAnswer?: boolean;
}

/** Writes `bytes` on a new connection to 127.0.0.1:`port` and collects the answer until it closes. */
export function sendRaw(port: number, bytes: Uint8Array | string, o: RawOptions): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket: net.Socket = o.tls
      ? tls.connect({ host: "127.0.0.1", port, servername: "localhost", rejectUnauthorized: false })
      : net.connect({ host: "127.0.0.1", port });
    const finish = (end: RawAnswer["end"]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), end });
    };
    const timer = setTimeout(() => finish("timeout"), o.timeoutMs);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      if (o.stopOnAnswer && statusOf(Buffer.concat(chunks)) !== null) finish("answered");
    });
    socket.on("close", () => finish("closed"));
    socket.on("error", () => finish("error"));
    socket.once(o.tls ? "secureConnect" : "connect", () => {
      socket.write(bytes);
      if (o.after === "end") socket.end();
      else if (o.after === "destroy") finish("closed");
    });
  });
}

/** The status code of the first response in `data`; null when there is none. */
export function statusOf(data: Buffer): number | null {
  const m = /^HTTP\/1\.[01] (\d{3}) /.exec(data.subarray(0, 64).toString("latin1"));
  return m ? Number(m[1]) : null;
}

/** A GET over TLS trusting the scheduler's certificate; `agent` keeps connections alive. */
export function getSecure(
  serving: Serving,
  path: string,
  opts: { token?: string; agent?: https.Agent } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port: serving.securePort,
        path,
        servername: "localhost",
        ca: serving.certificate ?? undefined,
        ...(opts.agent ? { agent: opts.agent } : {}),
        headers: opts.token ? { Authorization: `Bearer ${opts.token}` } : {},
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** A GET over the plain HTTP listener. */
export async function getPlain(serving: Serving, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${serving.insecurePort}${path}`);
  return { status: res.status, body: await res.text() };
}
