// The answers of TokenReviews and SubjectAccessReviews, cached and shared as upstream's delegating
// authenticator and authorizer keep them (k8s.io/apiserver pkg/authentication/token/cache
// cached_token_authenticator.go; plugin/pkg/authorizer/webhook/webhook.go):
//
// - an answer is kept for the TTL of its kind: success (authenticated, allowed) or failure;
//   errors are never kept (the next request asks again);
// - concurrent lookups of one key share one review (upstream's singleflight);
// - keys are HMAC-SHA256 digests under a random key (upstream's keyFunc): no token is kept as a
//   key, and an entry's size does not depend on what a client sent;
// - the cache is bounded (least recently used entries go first), successes and failures apart so
//   that a flood of failing lookups cannot evict a good answer;
// - reviews of keys that never succeeded pass a gate (a few in flight, a bounded queue, then
//   ReviewBusyError): a flood of unknown tokens or paths cannot queue ahead of the reviews of
//   clients that succeeded before, which go straight to the API server. Upstream lets both
//   compete in the client's rate limiter (a deviation; see the README).
import { createHmac, randomBytes } from "node:crypto";

export interface ReviewCacheOptions<V> {
  /** Whether an answer is a success (kept for successTtlMs) or a failure (failureTtlMs). */
  succeeded: (answer: V) => boolean;
  /** 0: not kept (concurrent lookups still share one review). */
  successTtlMs: number;
  failureTtlMs: number;
  /** Entries kept of each kind. */
  maxEntries: number;
  /** Reviews of keys that never succeeded, in flight at once. */
  maxNewInFlight: number;
  /** Lookups of such keys waiting for the gate; one more is refused (ReviewBusyError). */
  maxNewQueued: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Too many reviews of unknown keys are waiting already (the request gets 429). */
export class ReviewBusyError extends Error {
  override name = "ReviewBusyError";
}

interface Entry<V> {
  answer: V;
  expiresAt: number;
}

/** A map that forgets its least recently used entry past `max`. */
class LruMap<V> {
  private readonly m = new Map<string, Entry<V>>();
  constructor(private readonly max: number) {}
  /** The entry, expired or not, without touching its recency. */
  peek(key: string): Entry<V> | undefined {
    return this.m.get(key);
  }
  touch(key: string, e: Entry<V>): void {
    this.m.delete(key);
    this.m.set(key, e);
  }
  set(key: string, e: Entry<V>): void {
    this.touch(key, e);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as string);
  }
  delete(key: string): void {
    this.m.delete(key);
  }
  get size(): number {
    return this.m.size;
  }
}

export class ReviewCache<V> {
  private readonly hmacKey = randomBytes(32);
  private readonly successes: LruMap<V>;
  private readonly failures: LruMap<V>;
  private readonly inflight = new Map<string, Promise<V>>();
  private newInFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: ReviewCacheOptions<V>) {
    this.successes = new LruMap(opts.maxEntries);
    this.failures = new LruMap(opts.maxEntries);
    this.now = opts.now ?? Date.now;
  }

  /** The cache key of `parts` (length-prefixed, so ["ab", "c"] and ["a", "bc"] differ). */
  key(...parts: readonly string[]): string {
    const h = createHmac("sha256", this.hmacKey);
    for (const p of parts) {
      const b = Buffer.from(p, "utf8");
      const len = Buffer.alloc(4);
      len.writeUInt32BE(b.length);
      h.update(len).update(b);
    }
    return h.digest("base64");
  }

  /** Entries kept (successes, failures). */
  size(): { successes: number; failures: number } {
    return { successes: this.successes.size, failures: this.failures.size };
  }

  /**
   * The kept answer for `key`, else the one `review` gives (shared with every concurrent lookup of
   * the key). Rejects with review's error (not kept) or ReviewBusyError.
   */
  lookup(key: string, review: () => Promise<V>): Promise<V> {
    const now = this.now();
    for (const lru of [this.successes, this.failures]) {
      const e = lru.peek(key);
      if (e && e.expiresAt > now) {
        lru.touch(key, e);
        return Promise.resolve(e.answer);
      }
    }
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const p = this.review(key, review).finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  private async review(key: string, review: () => Promise<V>): Promise<V> {
    // Known: it succeeded before (its answer may have expired).
    const known = this.successes.peek(key) !== undefined;
    if (!known) await this.enterGate();
    try {
      const answer = await review();
      this.keep(key, answer);
      return answer;
    } finally {
      if (!known) this.leaveGate();
    }
  }

  private keep(key: string, answer: V): void {
    const ok = this.opts.succeeded(answer);
    const ttl = ok ? this.opts.successTtlMs : this.opts.failureTtlMs;
    (ok ? this.failures : this.successes).delete(key);
    if (ttl > 0) (ok ? this.successes : this.failures).set(key, { answer, expiresAt: this.now() + ttl });
  }

  private enterGate(): Promise<void> {
    if (this.newInFlight < this.opts.maxNewInFlight) {
      this.newInFlight++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.opts.maxNewQueued) {
      return Promise.reject(new ReviewBusyError("too many reviews of unknown credentials are waiting"));
    }
    // The slot of a review that ends passes to the first waiting one.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private leaveGate(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.newInFlight--;
  }
}
