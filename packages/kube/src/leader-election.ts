// Leader election over a coordination.k8s.io/v1 Lease, with client-go's algorithm
// (upstream: staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go and
// resourcelock/leaselock.go). @kubernetes/client-node has no leader election.
//
// - acquire: tryAcquireOrRenew every retryPeriod (jittered by up to 1.2×) until it succeeds.
// - renew: every retryPeriod; each renewal may retry (every retryPeriod) for up to
//   renewDeadline, after which leadership is lost.
// - tryAcquireOrRenew: a leader whose lease is still valid updates optimistically with the lease
//   it last saw (resourceVersion: a Conflict means someone else wrote it); otherwise get the
//   Lease (create it when missing), and if another holder's lease has not expired — judged by
//   when *we* last saw the record change plus its leaseDurationSeconds, never by the holder's
//   clock — give up; else write ourselves as holder (leaseTransitions + 1 when taking over).
// - release (on cancel, ReleaseOnCancel): get the Lease; if we still hold it, write an empty
//   holder with leaseDurationSeconds 1 (retried on conflict), within renewDeadline. The caller
//   decides whether releasing is safe (`beforeRelease`): it is not while writes made under the
//   lease may still land.
// - metrics: leader_election_master_status{name} 1 while leading, leader_election_slowpath_total.
import { formatMicroTime } from "@kubesched/api";
import type { Clock } from "@kubesched/framework";
import { realClock } from "@kubesched/framework";
import { isConflict, isNotFound, KubeApiError } from "./api-error";
import type { ClientMetrics } from "./metrics";
import type { RawClient } from "./raw-client";

/** upstream wait.JitterUntil factor used by acquire. */
export const jitterFactor = 1.2;

export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaseTransitions: number;
}

export interface LeaderCallbacks {
  /** Leadership acquired; `signal` aborts when it ends (lost, or the elector was stopped). */
  onStartedLeading(signal: AbortSignal): void;
  /** Always called when run() ends, whether or not leadership was ever held. */
  onStoppedLeading(): void;
  /** The observed holder changed (also reports ourselves). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectorOptions {
  client: RawClient;
  /** Lease name (config leaderElection.resourceName, default kube-scheduler). */
  name: string;
  /** Lease namespace (config leaderElection.resourceNamespace, default kube-system). */
  namespace: string;
  /** This candidate's identity (kube-scheduler: `<hostname>_<uuid>`). */
  identity: string;
  /** ms; default 15000. */
  leaseDuration?: number;
  /** ms; default 10000. */
  renewDeadline?: number;
  /** ms; default 2000. */
  retryPeriod?: number;
  /** Give the lease up when stopped (kube-scheduler: true). Default true. */
  releaseOnCancel?: boolean;
  /**
   * Called when leading ends because `signal` aborted, before the release: everything done
   * under the lease must be over first (client-go: "you must ensure all code guarded by this
   * lease has successfully completed prior to cancelling the context"). Resolving false skips
   * the release: the lease then expires after leaseDuration.
   */
  beforeRelease?: () => Promise<boolean>;
  /** The name of leader_election_* metrics (kube-scheduler: "kube-scheduler"). */
  metricsName?: string;
  metrics?: ClientMetrics;
  callbacks: LeaderCallbacks;
  clock?: Clock;
  onError?: (err: Error) => void;
}

interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: Partial<LeaderElectionRecord> & { holderIdentity?: string | null };
}

function recordFromLease(lease: Lease): LeaderElectionRecord {
  const s = lease.spec ?? {};
  return {
    holderIdentity: s.holderIdentity ?? "",
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ?? "",
    renewTime: s.renewTime ?? "",
    leaseTransitions: s.leaseTransitions ?? 0,
  };
}

function leaseSpec(r: LeaderElectionRecord): Lease["spec"] {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    ...(r.acquireTime ? { acquireTime: r.acquireTime } : {}),
    ...(r.renewTime ? { renewTime: r.renewTime } : {}),
    leaseTransitions: r.leaseTransitions,
  };
}

export class LeaderElector {
  private observedRecord: LeaderElectionRecord | null = null;
  private observedRaw = "";
  private observedTime = 0;
  private lease: Lease | null = null;
  private reportedLeader = "";
  private readonly clock: Clock;
  private readonly leaseDuration: number;
  private readonly renewDeadline: number;
  private readonly retryPeriod: number;

  constructor(private readonly opts: LeaderElectorOptions) {
    this.clock = opts.clock ?? realClock;
    this.leaseDuration = opts.leaseDuration ?? 15_000;
    this.renewDeadline = opts.renewDeadline ?? 10_000;
    this.retryPeriod = opts.retryPeriod ?? 2_000;
    if (this.leaseDuration <= this.renewDeadline) {
      throw new Error("leaseDuration must be greater than renewDeadline");
    }
    if (this.renewDeadline <= jitterFactor * this.retryPeriod) {
      throw new Error("renewDeadline must be greater than retryPeriod*JitterFactor");
    }
    if (this.retryPeriod < 1 || this.leaseDuration < 1000) {
      throw new Error("retryPeriod must be positive and leaseDuration at least one second");
    }
    if (!opts.identity) throw new Error("the leader election identity must not be empty");
  }

  private get path(): string {
    const ns = encodeURIComponent(this.opts.namespace);
    return `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
  }

  /** "<namespace>/<name>", for messages. */
  describe(): string {
    return `${this.opts.namespace}/${this.opts.name}`;
  }

  isLeader(): boolean {
    return this.observedRecord?.holderIdentity === this.opts.identity;
  }

  /** The holder last observed ("" when none). */
  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? "";
  }

  /**
   * Campaigns until leadership is acquired, then renews until it is lost or `signal` aborts.
   * Resolves after onStoppedLeading.
   */
  async run(signal: AbortSignal): Promise<void> {
    try {
      if (!(await this.acquire(signal))) return;
      const leading = new AbortController();
      const stop = () => leading.abort();
      signal.addEventListener("abort", stop, { once: true });
      this.setMetric(1);
      try {
        this.opts.callbacks.onStartedLeading(leading.signal);
        await this.renew(signal);
      } finally {
        signal.removeEventListener("abort", stop);
        leading.abort();
      }
      if (signal.aborted && (this.opts.releaseOnCancel ?? true)) {
        if (!this.opts.beforeRelease || (await this.opts.beforeRelease())) await this.release();
      }
    } finally {
      this.setMetric(0);
      this.opts.callbacks.onStoppedLeading();
    }
  }

  /**
   * upstream LeaderElector.Check (the /healthz leader-election check): an error message when we
   * lead but have not renewed for longer than leaseDuration + `maxTolerableExpiredLease` ms.
   */
  check(maxTolerableExpiredLease: number): string | null {
    if (!this.isLeader()) return null;
    if (this.clock.now() - this.observedTime > this.leaseDuration + maxTolerableExpiredLease) {
      return `failed election to renew leadership on lease ${this.opts.name}`;
    }
    return null;
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      const ok = await this.tryAcquireOrRenew(signal);
      this.maybeReportTransition();
      if (ok) return true;
      await this.sleep(this.retryPeriod * (1 + Math.random() * jitterFactor), signal);
    }
    return false;
  }

  private async renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = this.clock.now() + this.renewDeadline;
      const timeout = new AbortController();
      const onAbort = () => timeout.abort();
      signal.addEventListener("abort", onAbort, { once: true });
      const timer = this.clock.setTimeout(() => timeout.abort(), this.renewDeadline);
      let renewed = false;
      try {
        // wait.PollImmediateUntil(retryPeriod, tryAcquireOrRenew, timeoutCtx.Done())
        while (!timeout.signal.aborted) {
          if (await this.tryAcquireOrRenew(timeout.signal)) {
            renewed = true;
            break;
          }
          if (this.clock.now() >= deadline) break;
          await this.sleep(this.retryPeriod, timeout.signal);
        }
      } finally {
        timer.cancel();
        signal.removeEventListener("abort", onAbort);
      }
      this.maybeReportTransition();
      if (!renewed) {
        if (!signal.aborted) {
          this.setMetric(0);
          this.opts.onError?.(new Error(`failed to renew lease ${this.describe()}`));
        }
        return;
      }
      await this.sleep(this.retryPeriod, signal);
    }
  }

  private setMetric(v: 0 | 1): void {
    this.opts.metrics?.leaderElectionMasterStatus.set({ name: this.opts.metricsName ?? this.opts.name }, v);
  }

  /** upstream release/tryRelease, bounded by renewDeadline. */
  private async release(): Promise<void> {
    if (!this.isLeader()) return;
    const signal = AbortSignal.timeout(this.renewDeadline);
    try {
      for (let attempt = 0; attempt < 10 && !signal.aborted; attempt++) {
        const cur = await this.opts.client.request<Lease>(
          "GET",
          `${this.path}/${encodeURIComponent(this.opts.name)}`,
          { signal },
        );
        const old = recordFromLease(cur);
        if (old.holderIdentity !== this.opts.identity) return;
        this.lease = cur;
        const now = formatMicroTime(this.clock.now());
        const record: LeaderElectionRecord = {
          holderIdentity: "",
          leaseDurationSeconds: 1,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: old.leaseTransitions,
        };
        try {
          await this.update(record, signal);
        } catch (e) {
          // A renewal cut short by the stop may have landed meanwhile: read again.
          if (isConflict(e)) continue;
          throw e;
        }
        this.setObservedRecord(record);
        return;
      }
    } catch (e) {
      if (isNotFound(e)) return;
      this.report(e, `failed to release lock ${this.describe()}`);
    }
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + (this.observedRecord?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private setObservedRecord(r: LeaderElectionRecord): void {
    this.observedRecord = r;
    this.observedTime = this.clock.now();
  }

  /** One step of the algorithm; true when we hold the lease afterwards. */
  async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    const nowMs = this.clock.now();
    const now = formatMicroTime(nowMs);
    const record: LeaderElectionRecord = {
      holderIdentity: this.opts.identity,
      leaseDurationSeconds: Math.floor(this.leaseDuration / 1000),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };

    // 1. Fast path: the leader updates optimistically with the lease it last saw.
    if (this.isLeader() && this.isLeaseValid(nowMs) && this.observedRecord && this.lease) {
      record.acquireTime = this.observedRecord.acquireTime;
      record.leaseTransitions = this.observedRecord.leaseTransitions;
      try {
        await this.update(record, signal);
        this.setObservedRecord(record);
        return true;
      } catch (e) {
        this.report(e, `failed to update lock ${this.describe()} optimistically, falling back to slow path`);
      }
    }

    // 2. Get or create.
    let old: LeaderElectionRecord;
    try {
      const lease = await this.opts.client.request<Lease>(
        "GET",
        `${this.path}/${encodeURIComponent(this.opts.name)}`,
        { ...(signal ? { signal } : {}) },
      );
      this.lease = lease;
      old = recordFromLease(lease);
    } catch (e) {
      if (!isNotFound(e)) {
        this.report(e, `error retrieving resource lock ${this.describe()}`);
        return false;
      }
      try {
        this.lease = await this.opts.client.request<Lease>("POST", this.path, {
          body: {
            apiVersion: "coordination.k8s.io/v1",
            kind: "Lease",
            metadata: { name: this.opts.name, namespace: this.opts.namespace },
            spec: leaseSpec(record),
          },
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        this.report(err, `error initially creating leader election record ${this.describe()}`);
        return false;
      }
      this.setObservedRecord(record);
      return true;
    }

    // 3. Check the holder and the time (as observed locally).
    const raw = JSON.stringify(old);
    if (raw !== this.observedRaw) {
      this.setObservedRecord(old);
      this.observedRaw = raw;
    }
    if (old.holderIdentity !== "" && this.isLeaseValid(nowMs) && !this.isLeader()) return false;

    // 4. Write ourselves as the holder.
    if (this.isLeader()) {
      record.acquireTime = old.acquireTime;
      record.leaseTransitions = old.leaseTransitions;
      this.opts.metrics?.leaderElectionSlowpath.inc({ name: this.opts.metricsName ?? this.opts.name });
    } else {
      record.leaseTransitions = old.leaseTransitions + 1;
    }
    try {
      await this.update(record, signal);
    } catch (e) {
      this.report(e, `failed to update lock ${this.describe()}`);
      return false;
    }
    this.setObservedRecord(record);
    return true;
  }

  /** PUT the lease last seen with the new spec; its resourceVersion makes it conditional. */
  private async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    if (!this.lease) throw new Error("lease not initialized, call get or create first");
    const body: Lease = {
      ...this.lease,
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      spec: { ...this.lease.spec, ...leaseSpec(record) },
    };
    this.lease = await this.opts.client.request<Lease>(
      "PUT",
      `${this.path}/${encodeURIComponent(this.opts.name)}`,
      { body, ...(signal ? { signal } : {}) },
    );
  }

  private maybeReportTransition(): void {
    const holder = this.observedRecord?.holderIdentity ?? "";
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    this.opts.callbacks.onNewLeader?.(holder);
  }

  private report(e: unknown, what: string): void {
    const detail = e instanceof KubeApiError || e instanceof Error ? e.message : String(e);
    this.opts.onError?.(new Error(`${what}: ${detail}`));
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        timer.cancel();
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = this.clock.setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
