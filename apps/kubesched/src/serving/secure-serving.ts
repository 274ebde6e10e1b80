// kube-scheduler's endpoints (upstream cmd/kube-scheduler/app/server.go newEndpointsHandler and
// buildHandlerChain, k8s.io/apiserver healthz, configz, delegated authentication/authorization):
//
// - /healthz, /livez, /readyz with their named checks (/healthz/leaderElection, ...), `?verbose`
//   and `?exclude=`; /metrics; /configz; /debug/pprof/* when profiling is enabled.
// - Secure serving on --secure-port (default 10259) over TLS: the given certificate, or one
//   generated at start (self-signed CA + serving certificate for localhost/127.0.0.1, written to
//   --cert-dir when given), as SecureServingOptions.MaybeDefaultWithSelfSignedCerts.
// - Requests are authenticated by TokenReview (bearer tokens; none: system:anonymous) and
//   authorized by SubjectAccessReview (`get` on the path), both through the API server and
//   cached for 10 s; --authorization-always-allow-paths (default /healthz, /readyz, /livez) and
//   the system:masters group are always allowed.
// - Plain HTTP without authentication only on an explicitly given --port.
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { Session } from "node:inspector";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getHeapSnapshot } from "node:v8";
import type { Logger } from "@kubesched/framework";
import type { RawClient } from "@kubesched/kube";

/** upstream DefaultKubeSchedulerPort. */
export const defaultSecurePort = 10259;
export const defaultAlwaysAllowPaths = ["/healthz", "/readyz", "/livez"];

/** A named health check: null when healthy, else why not (upstream healthz.HealthChecker). */
export interface HealthCheck {
  name: string;
  check: () => string | null;
}

export const pingCheck: HealthCheck = { name: "ping", check: () => null };

export interface EndpointsOptions {
  healthz: HealthCheck[];
  livez: HealthCheck[];
  readyz: HealthCheck[];
  /** Prometheus text exposition and its content type. */
  metrics: () => Promise<{ contentType: string; text: string }>;
  /** The effective configuration, as /configz serves it under "componentconfig". */
  configz: () => unknown;
  profiling: boolean;
  logger: Logger;
}

export interface TLSFiles {
  certFile?: string;
  keyFile?: string;
  /** Where a generated pair is written (kube-scheduler.crt/.key), and read back next time. */
  certDir?: string;
}

export interface ServingOptions {
  bindAddress: string;
  /** 0: no secure serving. */
  securePort: number;
  /** Plain HTTP without authentication; 0: none. */
  insecurePort: number;
  tls: TLSFiles;
  /** Client for TokenReview and SubjectAccessReview. */
  authClient: RawClient;
  alwaysAllowPaths: string[];
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

/**
 * A self-signed CA and a serving certificate for `host` (and 127.0.0.1), as client-go's
 * GenerateSelfSignedCertKeyWithFixtures: RSA 2048, valid for a year. Node's crypto generates the
 * keys; node-forge writes the X.509 certificates (Node cannot).
 */
export async function generateSelfSignedCert(
  host = "localhost",
  ips: string[] = ["127.0.0.1"],
): Promise<{ cert: string; key: string }> {
  // Loaded only when a certificate is generated: the other commands never pay for it.
  const { default: forge } = await import("node-forge");
  const now = Date.now();
  const notAfter = new Date(now + 365 * 24 * 3600 * 1000);
  const keyPair = () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const priv = forge.pki.privateKeyFromPem(privateKey);
    return { priv, pub: forge.pki.setRsaPublicKey(priv.n, priv.e), pem: privateKey };
  };
  const serial = () => forge.util.bytesToHex(forge.random.getBytesSync(16)).replace(/^[89a-f]/, "1");
  const seconds = Math.floor(now / 1000);

  const ca = keyPair();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.pub;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = new Date(now - 3600 * 1000);
  caCert.validity.notAfter = notAfter;
  const caName = [{ name: "commonName", value: `${host}-ca@${seconds}` }];
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
  ]);
  caCert.sign(ca.priv, forge.md.sha256.create());

  const srv = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = srv.pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - 3600 * 1000);
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: "commonName", value: `${host}@${seconds}` }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [...ips.map((ip) => ({ type: 7, ip })), { type: 2, value: host }],
    },
  ]);
  cert.sign(ca.priv, forge.md.sha256.create());
  return {
    cert: forge.pki.certificateToPem(cert) + forge.pki.certificateToPem(caCert),
    key: srv.pem,
  };
}

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

interface User {
  username: string;
  groups: string[];
}

/** A small TTL cache (upstream caches TokenReview and SubjectAccessReview answers for 10 s). */
class TTLCache<V> {
  private readonly m = new Map<string, { v: V; until: number }>();
  constructor(private readonly ttlMs: number) {}
  get(k: string): V | undefined {
    const e = this.m.get(k);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.m.delete(k);
      return undefined;
    }
    return e.v;
  }
  set(k: string, v: V): void {
    if (this.m.size > 10_000) this.m.clear();
    this.m.set(k, { v, until: Date.now() + this.ttlMs });
  }
}

/** Delegated authentication and authorization (genericapifilters.WithAuthentication/WithAuthorization). */
class Delegation {
  private readonly tokens = new TTLCache<User | null>(10_000);
  private readonly decisions = new TTLCache<boolean>(10_000);
  constructor(
    private readonly client: RawClient,
    private readonly alwaysAllow: string[],
  ) {}

  async authenticate(req: http.IncomingMessage): Promise<User | null> {
    const auth = req.headers.authorization ?? "";
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) return { username: "system:anonymous", groups: ["system:unauthenticated"] };
    const token = m[1] as string;
    const cached = this.tokens.get(token);
    if (cached !== undefined) return cached;
    const review = await this.client.request<{
      status?: { authenticated?: boolean; user?: { username?: string; groups?: string[] } };
    }>("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
      body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token } },
      what: "TokenReview",
    });
    const u = review.status?.authenticated
      ? { username: review.status.user?.username ?? "", groups: review.status.user?.groups ?? [] }
      : null;
    this.tokens.set(token, u);
    return u;
  }

  private pathAllowed(path: string): boolean {
    return this.alwaysAllow.some((p) => (p.endsWith("*") ? path.startsWith(p.slice(0, -1)) : p === path));
  }

  async authorize(user: User, path: string): Promise<boolean> {
    if (this.pathAllowed(path) || user.groups.includes("system:masters")) return true;
    const key = `${user.username}\u0000${user.groups.join(",")}\u0000${path}`;
    const cached = this.decisions.get(key);
    if (cached !== undefined) return cached;
    const review = await this.client.request<{ status?: { allowed?: boolean } }>(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      {
        body: {
          apiVersion: "authorization.k8s.io/v1",
          kind: "SubjectAccessReview",
          spec: { user: user.username, groups: user.groups, nonResourceAttributes: { path, verb: "get" } },
        },
        what: "SubjectAccessReview",
      },
    );
    const allowed = review.status?.allowed === true;
    this.decisions.set(key, allowed);
    return allowed;
  }
}

function status(res: http.ServerResponse, code: number, reason: string, message: string): void {
  const body = JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  });
  res.writeHead(code, { "Content-Type": "application/json", "Cache-Control": "no-cache, private" }).end(body);
}

function text(res: http.ServerResponse, code: number, body: string): void {
  res
    .writeHead(code, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-cache, private",
    })
    .end(body);
}

/** healthz handleRootHealth: "ok", or every check's line and "<name> check failed" with 500. */
function rootHealth(name: string, checks: HealthCheck[], url: URL, res: http.ServerResponse): void {
  const excluded = new Set(url.searchParams.getAll("exclude").flatMap((e) => e.split(",")));
  let out = "";
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      out += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    if (c.check() !== null) {
      failed = true;
      out += `[-]${c.name} failed: reason withheld\n`;
    } else out += `[+]${c.name} ok\n`;
  }
  if (excluded.size > 0) {
    out += `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => `"${e}"`).join(",")}\n`;
  }
  if (failed) text(res, 500, `${out}${name} check failed\n`);
  else if (!url.searchParams.has("verbose")) text(res, 200, "ok");
  else text(res, 200, `${out}${name} check passed\n`);
}

async function cpuProfile(seconds: number): Promise<string> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
    );
  try {
    await post("Profiler.enable");
    await post("Profiler.start");
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const { profile } = (await post("Profiler.stop")) as { profile: unknown };
    return JSON.stringify(profile);
  } finally {
    session.disconnect();
  }
}

/** The endpoints' request handler (upstream newEndpointsHandler). */
function endpointsHandler(opts: EndpointsOptions): (url: URL, res: http.ServerResponse) => Promise<void> {
  const groups: Record<string, HealthCheck[]> = {
    healthz: opts.healthz.length ? opts.healthz : [pingCheck],
    livez: opts.livez.length ? opts.livez : [pingCheck],
    readyz: opts.readyz.length ? opts.readyz : [pingCheck],
  };
  return async (url, res) => {
    const path = url.pathname;
    const [, first, second, ...more] = path.split("/");
    const checks = first ? groups[first] : undefined;
    if (checks && more.length === 0) {
      if (!second) return rootHealth(first as string, checks, url, res);
      const c = checks.find((x) => x.name === second);
      if (c) {
        const problem = c.check();
        return problem === null
          ? text(res, 200, "ok")
          : text(res, 500, `internal server error: ${problem}\n`);
      }
    }
    if (path === "/metrics") {
      const m = await opts.metrics();
      res.writeHead(200, { "Content-Type": m.contentType }).end(m.text);
      return;
    }
    if (path === "/configz") {
      res
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ componentconfig: opts.configz() }));
      return;
    }
    if (opts.profiling && path.startsWith("/debug/pprof")) {
      if (path === "/debug/pprof/profile") {
        const seconds = Math.min(Math.max(Number(url.searchParams.get("seconds") ?? "30") || 30, 1), 300);
        const profile = await cpuProfile(seconds);
        res
          .writeHead(200, {
            "Content-Type": "application/json",
            "Content-Disposition": 'attachment; filename="kubesched.cpuprofile"',
          })
          .end(profile);
        return;
      }
      if (path === "/debug/pprof/heap") {
        res.writeHead(200, {
          "Content-Type": "application/json",
          "Content-Disposition": 'attachment; filename="kubesched.heapsnapshot"',
        });
        getHeapSnapshot().pipe(res);
        return;
      }
      if (path === "/debug/pprof" || path === "/debug/pprof/") {
        return text(
          res,
          200,
          "/debug/pprof/profile?seconds=N  V8 CPU profile (.cpuprofile, Chrome DevTools)\n/debug/pprof/heap  V8 heap snapshot (.heapsnapshot)\n",
        );
      }
    }
    text(res, 404, "404 page not found\n");
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
  const serveWith =
    (delegation: Delegation | null) => (req: http.IncomingMessage, res: http.ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const run = async () => {
        if (req.method !== "GET" && req.method !== "HEAD") {
          return status(res, 405, "MethodNotAllowed", `the server does not allow this method: ${req.method}`);
        }
        if (delegation) {
          let user: User | null;
          try {
            user = await delegation.authenticate(req);
          } catch (e) {
            logger.error("Unable to authenticate the request", { err: e });
            user = null;
          }
          if (!user) return status(res, 401, "Unauthorized", "Unauthorized");
          let allowed = false;
          try {
            allowed = await delegation.authorize(user, url.pathname);
          } catch (e) {
            logger.error("Authorization error", { err: e, user: user.username });
          }
          if (!allowed) {
            return status(
              res,
              403,
              "Forbidden",
              `forbidden: User "${user.username}" cannot get path "${url.pathname}"`,
            );
          }
        }
        await handle(url, res);
      };
      run().catch((e: unknown) => {
        if (!res.headersSent) text(res, 500, `${e instanceof Error ? e.message : String(e)}\n`);
        else res.destroy();
      });
    };

  const servers: http.Server[] = [];
  let securePort = 0;
  let insecurePort = 0;
  let certificate: string | null = null;
  try {
    if (opts.securePort > 0 || opts.securePort === -1) {
      const pair = await servingCertificate(opts.tls, logger);
      certificate = pair.cert;
      const s = https.createServer(
        { cert: pair.cert, key: pair.key, minVersion: "TLSv1.2" },
        serveWith(new Delegation(opts.authClient, opts.alwaysAllowPaths)),
      );
      servers.push(s);
      // -1: any free port (tests).
      securePort = await listen(s, Math.max(opts.securePort, 0), opts.bindAddress, "--secure-port");
      logger.info("Serving securely", { address: `${opts.bindAddress}:${securePort}` });
    }
    if (opts.insecurePort > 0 || opts.insecurePort === -1) {
      const s = http.createServer(serveWith(null));
      servers.push(s);
      insecurePort = await listen(s, Math.max(opts.insecurePort, 0), opts.bindAddress, "--port");
      logger.warn("Serving insecurely (plain HTTP, no authentication)", {
        address: `${opts.bindAddress}:${insecurePort}`,
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
