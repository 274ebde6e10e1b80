// The client-side rate limiter of every API client (upstream client-go util/flowcontrol
// throttle.go NewTokenBucketRateLimiter, over golang.org/x/time/rate's Limiter): a bucket of
// `burst` tokens, initially full, refilled at `qps` tokens per second. Each request takes one
// token, waiting for it when the bucket is empty (clientConnection.qps / burst).
import { type Clock, realClock } from "@kubesched/framework";

/** Why a wait for a token ended without one. */
export class RateLimiterWaitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RateLimiterWaitError";
  }
}

/** A token reservation (x/time/rate Reservation), cancellable before it is due. */
interface Reservation {
  ok: boolean;
  tokens: number;
  timeToAct: number;
}

export class TokenBucketRateLimiter {
  private tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  private last: number;
  /** When the latest reservation acts (ms). */
  private lastEvent = 0;
  private readonly clock: Clock;

  constructor(
    /** Tokens per second; not a positive finite number: no limit (client-go with QPS < 0). */
    readonly qps: number,
    readonly burst: number,
    clock: Clock = realClock,
  ) {
    if (!(burst >= 0) || !Number.isFinite(burst))
      throw new Error(`burst must be a finite number >= 0, got ${burst}`);
    this.clock = clock;
    this.tokens = burst;
    this.last = clock.now();
  }

  private get unlimited(): boolean {
    return !(this.qps > 0 && Number.isFinite(this.qps));
  }

  /** Takes a token if one is there now. */
  tryAccept(): boolean {
    return this.reserve(this.clock.now(), 0).ok;
  }

  /**
   * Waits for a token; resolves to the milliseconds waited. Rejects (returning the token) when
   * `signal` aborts first, and at once when the wait would outlast `maxWaitMs`.
   */
  async wait(signal?: AbortSignal, maxWaitMs = Number.POSITIVE_INFINITY): Promise<number> {
    if (signal?.aborted) throw new RateLimiterWaitError("rate limiter wait: the request was cancelled");
    const now = this.clock.now();
    const r = this.reserve(now, maxWaitMs);
    if (!r.ok) {
      throw new RateLimiterWaitError(
        `rate limiter wait: would exceed the request's deadline (${this.burst} burst, ${this.qps} qps)`,
      );
    }
    const delay = Math.max(0, r.timeToAct - now);
    if (delay === 0) return 0;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        timer.cancel();
        this.cancel(r);
        reject(new RateLimiterWaitError("rate limiter wait: the request was cancelled"));
      };
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, delay);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    return delay;
  }

  /** Tokens in the bucket now (negative when reservations wait on them). */
  available(): number {
    return this.advance(this.clock.now());
  }

  private durationFromTokens(tokens: number): number {
    return (tokens / this.qps) * 1000;
  }

  private tokensFromDuration(ms: number): number {
    return (ms / 1000) * this.qps;
  }

  /** The tokens there would be at `t`, at most `burst`. */
  private advance(t: number): number {
    const last = Math.min(this.last, t);
    return Math.min(this.burst, this.tokens + this.tokensFromDuration(t - last));
  }

  private reserve(now: number, maxWaitMs: number): Reservation {
    if (this.unlimited) return { ok: true, tokens: 0, timeToAct: now };
    const tokens = this.advance(now) - 1;
    const wait = tokens < 0 ? this.durationFromTokens(-tokens) : 0;
    const ok = this.burst >= 1 && wait <= maxWaitMs;
    if (!ok) return { ok: false, tokens: 0, timeToAct: now };
    this.last = now;
    this.tokens = tokens;
    this.lastEvent = now + wait;
    return { ok: true, tokens: 1, timeToAct: now + wait };
  }

  /** x/time/rate Reservation.CancelAt: give back what later reservations have not used. */
  private cancel(r: Reservation): void {
    if (r.tokens === 0) return;
    const now = this.clock.now();
    if (r.timeToAct < now) return;
    const restore = r.tokens - this.tokensFromDuration(this.lastEvent - r.timeToAct);
    if (restore <= 0) return;
    this.tokens = Math.min(this.burst, this.advance(now) + restore);
    this.last = now;
    if (r.timeToAct === this.lastEvent) {
      const prev = r.timeToAct - this.durationFromTokens(r.tokens);
      if (prev >= now) this.lastEvent = prev;
    }
  }
}
