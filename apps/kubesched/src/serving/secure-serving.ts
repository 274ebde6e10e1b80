// kube-scheduler's serving (upstream cmd/kube-scheduler/app/server.go buildHandlerChain,
// k8s.io/apiserver pkg/server/secure_serving.go and options/serving.go):
//
// - Secure serving on --secure-port (default 10259) over TLS: the given certificate, or one
//   generated at start (self-signed-cert.ts; written to --cert-dir when given), as
//   SecureServingOptions.MaybeDefaultWithSelfSignedCerts. Requests are authenticated and
//   authorized through the API server (delegated-auth.ts), then served (endpoints.ts).
// - Plain HTTP without authentication only on an explicitly given --port, on 127.0.0.1 unless
//   --bind-address is given, and never /debug/pprof (a heap snapshot holds the credentials).
// - Nothing a client sends takes the process down: a malformed request target, header or
//   method, a failed TLS handshake, an aborted connection, oversized headers, a body (never
//   read: the connection closes after the answer), a slow client (the timeouts below, as
//   upstream's http.Server: ReadHeaderTimeout 32 s, IdleTimeout 90 s, MaxHeaderBytes) and an
//   error inside a handler each get an HTTP error (or a closed connection) and a log line, at
//   most one line per kind of problem per second.
import { constants } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import type { LogFields, Logger } from "@kubesched/framework";
import {
  type AuthCacheTTLs,
  DelegatedAuth,
  defaultAuthCacheTTLs,
  type ReviewClient,
  type User,
} from "./delegated-auth";
import { type EndpointsOptions, endpointsHandler } from "./endpoints";
import { writable, writeStatus, writeText } from "./responses";
import { ReviewBusyError } from "./review-cache";
import { generateSelfSignedCert } from "./self-signed-cert";

export type { AuthCacheTTLs } from "./delegated-auth";
export { defaultAuthCacheTTLs } from "./delegated-auth";
export type { EndpointsOptions, HealthCheck } from "./endpoints";
export { pingCheck } from "./endpoints";

/** upstream DefaultKubeSchedulerPort. */
export const defaultSecurePort = 10259;
export const defaultAlwaysAllowPaths = ["/healthz", "/readyz", "/livez"];
/** --bind-address's default: the secure port listens on every interface. */
export const defaultBindAddress = "0.0.0.0";
/** Where --port listens unless --bind-address is given: plain HTTP stays on this machine. */
export const defaultInsecureBindAddress = "127.0.0.1";

export interface TLSFiles {
  certFile?: string;
  keyFile?: string;
  /** Where a generated pair is written (kube-scheduler.crt/.key), and read back next time. */
  certDir?: string;
}

/** How long the servers wait for a client, in ms. */
export interface ServingTimeouts {
  /** To receive a request's headers, and to finish a TLS handshake (upstream ReadHeaderTimeout). */
  headersMs: number;
  /** To receive a whole request. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (upstream IdleTimeout). */
  idleMs: number;
}

export const defaultServingTimeouts: ServingTimeouts = {
  headersMs: 32_000,
  requestMs: 60_000,
  idleMs: 90_000,
};
/** Request headers beyond this get 431 (Node's default; upstream's MaxHeaderBytes is 1 MiB). */
export const maxHeaderBytes = 16 * 1024;

export interface ServingOptions {
  /** Where the secure port listens. */
  bindAddress: string;
  /** 0: no secure serving; -1: any free port (tests). */
  securePort: number;
  /** Where the plain HTTP port listens (default 127.0.0.1). */
  insecureBindAddress?: string;
  /** Plain HTTP without authentication; 0: none; -1: any free port (tests). */
  insecurePort: number;
  tls: TLSFiles;
  /** Client for TokenReview and SubjectAccessReview. */
  authClient: ReviewClient;
  alwaysAllowPaths: string[];
  /** How long review answers are cached (default kube-scheduler's: 10 s each). */
  authCacheTTLs?: AuthCacheTTLs;
  /** Default defaultServingTimeouts. */
  timeouts?: Partial<ServingTimeouts>;
  endpoints: EndpointsOptions;
}

export interface Serving {
  /** Ports actually bound (0 when that server is off). */
  securePort: number;
  insecurePort: number;
  /** The serving certificate chain in PEM (to trust the generated certificate in tests). */
  certificate: string | null;
  close(): Promise<void>;
}

/** A serving error for the user (a port in use, unreadable certificate files). */
export class ServingError extends Error {}

/** The certificate and key to serve: given files, a pair in --cert-dir, or a new one. */
export async function servingCertificate(
  tls: TLSFiles,
  logger: Logger,
): Promise<{ cert: string; key: string }> {
  if (tls.certFile || tls.keyFile) {
    if (!tls.certFile || !tls.keyFile) {
      throw new ServingError("--tls-cert-file and --tls-private-key-file must be given together");
    }
    try {
      return { cert: readFileSync(tls.certFile, "utf8"), key: readFileSync(tls.keyFile, "utf8") };
    } catch (e) {
      throw new ServingError(`cannot read the serving certificate: ${(e as Error).message}`);
    }
  }
  const certPath = tls.certDir ? join(tls.certDir, "kube-scheduler.crt") : "";
  const keyPath = tls.certDir ? join(tls.certDir, "kube-scheduler.key") : "";
  if (tls.certDir && existsSync(certPath) && existsSync(keyPath)) {
    return { cert: readFileSync(certPath, "utf8"), key: readFileSync(keyPath, "utf8") };
  }
  const pair = await generateSelfSignedCert();
  if (tls.certDir) {
    try {
      mkdirSync(tls.certDir, { recursive: true });
      writeFileSync(certPath, pair.cert);
      writeFileSync(keyPath, pair.key, { mode: 0o600 });
    } catch (e) {
      throw new ServingError(
        `cannot write the generated certificate to ${tls.certDir}: ${(e as Error).message}`,
      );
    }
    logger.info("Generated self-signed cert", { certFile: certPath, keyFile: keyPath });
  } else logger.info("Generated self-signed cert in-memory");
  return pair;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Log lines a client can cause, at most one per kind per interval: the next one says how many
 * were dropped (`suppressed`), so a flood of bad requests cannot flood the log.
 */
class LimitedLog {
  private readonly last = new Map<string, { at: number; dropped: number }>();
  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  write(level: "info" | "error", kind: string, msg: string, fields: LogFields): void {
    const now = Date.now();
    const seen = this.last.get(kind);
    if (seen && now - seen.at < this.intervalMs) {
      seen.dropped++;
      return;
    }
    this.last.set(kind, { at: now, dropped: 0 });
    this.logger[level](msg, seen?.dropped ? { ...fields, suppressed: seen.dropped } : fields);
  }
}

/** A request target, shortened for a log line. */
function shown(target: string | undefined): string {
  const t = target ?? "";
  return t.length > 200 ? `${t.slice(0, 200)}...` : t;
}

/**
 * The URL of a request target as Go's http server takes it (url.ParseRequestURI): an absolute
 * path, or an absolute URL whose host is ignored; null for anything else (400).
 */
export function requestURL(target: string | undefined): URL | null {
  if (target === undefined) return null;
  try {
    // A path: never read as a protocol-relative URL ("//host/x" is the path "//host/x").
    if (target.startsWith("/")) return new URL(`http://localhost${target}`);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return new URL(target);
  } catch {
    // not a URL: 400 below
  }
  return null;
}

/** The request declares a body (never read: the connection closes after the answer). */
function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

interface Chain {
  /** null: the plain HTTP listener (no authentication, no profiling). */
  auth: DelegatedAuth | null;
  handle: (url: URL, res: http.ServerResponse) => Promise<void>;
  log: LimitedLog;
  /** Sockets whose response is being written (a parse error then closes instead of answering). */
  busy: WeakSet<Duplex>;
}

async function authorized(
  c: Chain & { auth: DelegatedAuth },
  url: URL,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<boolean> {
  const remote = req.socket.remoteAddress;
  const busy = (e: unknown) => {
    if (!(e instanceof ReviewBusyError)) return false;
    c.log.write("info", "busy", "Refused a request: too many reviews of unknown credentials waiting", {
      remote,
    });
    writeStatus(res, 429, "TooManyRequests", "too many requests, please try again later", {
      "Retry-After": "1",
    });
    return true;
  };
  let user: User | null;
  try {
    user = await c.auth.authenticate(req.headers.authorization);
  } catch (e) {
    if (busy(e)) return false;
    // upstream WithAuthentication: an error is logged and answered 401.
    c.log.write("error", "authn", "Unable to authenticate the request", { remote, err: message(e) });
    user = null;
  }
  if (!user) {
    writeStatus(res, 401, "Unauthorized", "Unauthorized");
    return false;
  }
  try {
    if (await c.auth.authorize(user, url.pathname)) return true;
  } catch (e) {
    if (busy(e)) return false;
    // upstream WithAuthorization: an error (no decision) is answered 500.
    c.log.write("error", "authz", "Authorization error", { user: user.username, err: message(e) });
    writeStatus(res, 500, "InternalError", `Internal Server Error: "${url.pathname}": ${message(e)}`);
    return false;
  }
  writeStatus(res, 403, "Forbidden", `forbidden: User "${user.username}" cannot get path "${url.pathname}"`);
  return false;
}

async function serveRequest(c: Chain, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = requestURL(req.url);
  if (url === null) {
    c.log.write("info", "target", "Rejected a request with a malformed target", {
      remote: req.socket.remoteAddress,
      target: shown(req.url),
    });
    return writeStatus(res, 400, "BadRequest", "malformed request target");
  }
  if (hasBody(req)) res.shouldKeepAlive = false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    return writeStatus(res, 405, "MethodNotAllowed", `the server does not allow this method: ${req.method}`);
  }
  if (c.auth) {
    if (!(await authorized({ ...c, auth: c.auth }, url, req, res))) return;
  } else if (url.pathname.startsWith("/debug/pprof")) {
    return writeStatus(
      res,
      403,
      "Forbidden",
      "forbidden: /debug/pprof is served only on the secure port (--secure-port), to authorized users",
    );
  }
  await c.handle(url, res);
}

/** The request listener: it never throws, whatever the request and the handlers do. */
function handlerChain(c: Chain): http.RequestListener {
  return (req, res) => {
    const socket = req.socket;
    c.busy.add(socket);
    res.once("close", () => c.busy.delete(socket));
    res.on("error", (e) =>
      c.log.write("error", "response", "Writing a response failed", { err: message(e) }),
    );
    serveRequest(c, req, res).catch((e: unknown) => {
      c.log.write("error", "handler", "Internal error serving a request", {
        path: shown(req.url),
        err: message(e),
      });
      if (writable(res)) writeText(res, 500, `${message(e)}\n`);
      else res.destroy();
    });
  };
}

/** Node's answer to a request it cannot parse (its default 'clientError' handling), logged. */
function onClientError(c: Chain): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    const code = err.code ?? "";
    if (code !== "ECONNRESET") {
      c.log.write("info", "client", "Rejected a malformed request", {
        remote: (socket as Socket).remoteAddress,
        err: code || message(err),
      });
    }
    // Answer only when no response is being written on this connection (it would corrupt it).
    if (code === "ECONNRESET" || !socket.writable || c.busy.has(socket)) {
      socket.destroy();
      return;
    }
    const status =
      code === "HPE_HEADER_OVERFLOW"
        ? "431 Request Header Fields Too Large"
        : code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "408 Request Timeout"
          : "400 Bad Request";
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  };
}

function listen(server: http.Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) =>
      reject(new ServingError(`failed to listen on ${host}:${port} (${what}): ${e.code ?? e.message}`));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the secure and (when asked) insecure servers; throws ServingError when one cannot. */
export async function startServing(opts: ServingOptions): Promise<Serving> {
  const handle = endpointsHandler(opts.endpoints);
  const logger = opts.endpoints.logger;
  const log = new LimitedLog(logger);
  const t = { ...defaultServingTimeouts, ...opts.timeouts };
  const serverOptions: http.ServerOptions = {
    maxHeaderSize: maxHeaderBytes,
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.idleMs,
    // How often headersTimeout and requestTimeout are enforced (Node's default is 30 s).
    connectionsCheckingInterval: Math.min(1000, t.headersMs),
  };
  const prepare = (server: http.Server, chain: Chain) => {
    server.on("clientError", onClientError(chain));
    // Accept errors (EMFILE, ...) after listening: logged, the server keeps running.
    server.on("listening", () =>
      server.on("error", (e) => log.write("error", "server", "Serving error", { err: message(e) })),
    );
    return server;
  };

  const servers: http.Server[] = [];
  let securePort = 0;
  let insecurePort = 0;
  let certificate: string | null = null;
  try {
    if (opts.securePort > 0 || opts.securePort === -1) {
      const pair = await servingCertificate(opts.tls, logger);
      certificate = pair.cert;
      const chain: Chain = {
        auth: new DelegatedAuth({
          client: opts.authClient,
          alwaysAllowPaths: opts.alwaysAllowPaths,
          ttls: opts.authCacheTTLs ?? defaultAuthCacheTTLs,
        }),
        handle,
        log,
        busy: new WeakSet(),
      };
      const s = prepare(
        https.createServer(
          {
            ...serverOptions,
            cert: pair.cert,
            key: pair.key,
            minVersion: "TLSv1.2",
            // Go's crypto/tls never renegotiates as a server.
            secureOptions: constants.SSL_OP_NO_RENEGOTIATION,
            handshakeTimeout: t.headersMs,
          },
          handlerChain(chain),
        ),
        chain,
      );
      // upstream: "http: TLS handshake error from ...".
      s.on("tlsClientError", (err: NodeJS.ErrnoException, socket) => {
        log.write("info", "tls", "TLS handshake error", {
          remote: socket.remoteAddress,
          err: err.code ?? message(err),
        });
        socket.destroy();
      });
      servers.push(s);
      securePort = await listen(s, Math.max(opts.securePort, 0), opts.bindAddress, "--secure-port");
      logger.info("Serving securely", { address: `${opts.bindAddress}:${securePort}` });
    }
    if (opts.insecurePort > 0 || opts.insecurePort === -1) {
      const host = opts.insecureBindAddress ?? defaultInsecureBindAddress;
      // Its own handler without profiling: /debug/pprof is refused above it and absent in it.
      const plain = endpointsHandler({ ...opts.endpoints, profiling: false });
      const chain: Chain = { auth: null, handle: plain, log, busy: new WeakSet() };
      const s = prepare(http.createServer(serverOptions, handlerChain(chain)), chain);
      servers.push(s);
      insecurePort = await listen(s, Math.max(opts.insecurePort, 0), host, "--port");
      logger.warn("Serving insecurely (plain HTTP, no authentication, no /debug/pprof)", {
        address: `${host}:${insecurePort}`,
      });
    }
  } catch (e) {
    await Promise.all(servers.map(closeServer));
    throw e;
  }
  return {
    securePort,
    insecurePort,
    certificate,
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}
