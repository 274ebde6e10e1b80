// The API client's metrics, with upstream's names, labels and buckets:
// component-base/metrics/prometheus/restclient (rest_client_*) and
// component-base/metrics/prometheus/clientgo/leaderelection (leader_election_*). They register in
// the registry the scheduler's metrics use, so /metrics serves them together.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

const latencyBuckets = [0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0];

export class ClientMetrics {
  readonly requestDuration: Histogram<"verb" | "host">;
  readonly rateLimiterDuration: Histogram<"verb" | "host">;
  readonly requests: Counter<"code" | "method" | "host">;
  readonly leaderElectionMasterStatus: Gauge<"name">;
  readonly leaderElectionSlowpath: Counter<"name">;

  constructor(registry: Registry) {
    this.requestDuration = new Histogram({
      name: "rest_client_request_duration_seconds",
      help: "Request latency in seconds. Broken down by verb, and host.",
      labelNames: ["verb", "host"],
      buckets: latencyBuckets,
      registers: [registry],
    });
    this.rateLimiterDuration = new Histogram({
      name: "rest_client_rate_limiter_duration_seconds",
      help: "Client side rate limiter latency in seconds. Broken down by verb, and host.",
      labelNames: ["verb", "host"],
      buckets: latencyBuckets,
      registers: [registry],
    });
    this.requests = new Counter({
      name: "rest_client_requests_total",
      help: "Number of HTTP requests, partitioned by status code, method, and host.",
      labelNames: ["code", "method", "host"],
      registers: [registry],
    });
    this.leaderElectionMasterStatus = new Gauge({
      name: "leader_election_master_status",
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ["name"],
      registers: [registry],
    });
    this.leaderElectionSlowpath = new Counter({
      name: "leader_election_slowpath_total",
      help: "Total number of slow path exercised in renewing leader leases. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ["name"],
      registers: [registry],
    });
  }

  /** One response (or "<error>" when none came), as client-go's request.go reports it. */
  observeRequest(verb: string, method: string, host: string, code: string, seconds: number): void {
    this.requests.inc({ code, method, host });
    this.requestDuration.observe({ verb, host }, seconds);
  }

  observeRateLimiter(verb: string, host: string, seconds: number): void {
    this.rateLimiterDuration.observe({ verb, host }, seconds);
  }
}
