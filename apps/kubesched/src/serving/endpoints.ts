// kube-scheduler's endpoints (upstream cmd/kube-scheduler/app/server.go newEndpointsHandler,
// k8s.io/apiserver pkg/server/healthz, configz, routes.Profiling): /healthz, /livez, /readyz with
// their named checks (/healthz/leaderElection, ...), `?verbose` and `?exclude=`; /metrics;
// /configz; /debug/pprof/* when profiling is enabled. Authentication and authorization come
// before them (secure-serving.ts).
import type http from "node:http";
import type { Logger } from "@kubesched/framework";
import { serveProfiling } from "./profiling";
import { writeText } from "./responses";

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
  /** enableProfiling: /debug/pprof on the secure port. */
  profiling: boolean;
  logger: Logger;
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
  if (failed) writeText(res, 500, `${out}${name} check failed\n`);
  else if (!url.searchParams.has("verbose")) writeText(res, 200, "ok");
  else writeText(res, 200, `${out}${name} check passed\n`);
}

/** The endpoints' request handler (upstream newEndpointsHandler); rejects on a handler's error. */
export function endpointsHandler(
  opts: EndpointsOptions,
): (url: URL, res: http.ServerResponse) => Promise<void> {
  const groups: Record<string, HealthCheck[]> = {
    healthz: opts.healthz.length ? opts.healthz : [pingCheck],
    livez: opts.livez.length ? opts.livez : [pingCheck],
    readyz: opts.readyz.length ? opts.readyz : [pingCheck],
  };
  return async (url, res) => {
    const path = url.pathname;
    const [, first, second, ...more] = path.split("/");
    const checks = first ? Object.hasOwn(groups, first) && groups[first] : undefined;
    if (checks && more.length === 0) {
      if (!second) return rootHealth(first as string, checks, url, res);
      const c = checks.find((x) => x.name === second);
      if (c) {
        const problem = c.check();
        return problem === null
          ? writeText(res, 200, "ok")
          : writeText(res, 500, `internal server error: ${problem}\n`);
      }
    }
    if (path === "/metrics") {
      const m = await opts.metrics();
      res.writeHead(200, { "Content-Type": m.contentType }).end(m.text);
      return;
    }
    if (path === "/configz") {
      const body = JSON.stringify({ componentconfig: opts.configz() });
      res.writeHead(200, { "Content-Type": "application/json" }).end(body);
      return;
    }
    if (opts.profiling && path.startsWith("/debug/pprof") && (await serveProfiling(url, res))) return;
    writeText(res, 404, "404 page not found\n");
  };
}
