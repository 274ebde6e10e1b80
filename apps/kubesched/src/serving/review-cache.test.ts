// The review cache as upstream's cached token authenticator and webhook authorizer behave
// (cached_token_authenticator_test.go, webhook_v1_test.go TestWebhookCache): TTLs per answer,
// errors never kept, one review for concurrent lookups, a bounded size; and the gate that keeps a
// flood of unknown keys from queueing ahead of known ones.
import { describe, expect, it } from "vitest";
import { ReviewBusyError, ReviewCache, type ReviewCacheOptions } from "./review-cache";

function cache(over: Partial<ReviewCacheOptions<boolean>> = {}) {
  let now = 1_000;
  const c = new ReviewCache<boolean>({
    succeeded: (ok) => ok,
    successTtlMs: 10_000,
    failureTtlMs: 5_000,
    maxEntries: 100,
    maxNewInFlight: 2,
    maxNewQueued: 2,
    now: () => now,
    ...over,
  });
  return { c, advance: (ms: number) => (now += ms) };
}

/** A review that counts its calls and answers `answer` when released. */
function deferredReview(answer: boolean) {
  let calls = 0;
  const releases: (() => void)[] = [];
  return {
    review: () => {
      calls++;
      return new Promise<boolean>((resolve) => releases.push(() => resolve(answer)));
    },
    calls: () => calls,
    releaseAll: () => {
      for (const r of releases.splice(0)) r();
    },
  };
}

const flush = () => new Promise((r) => setImmediate(r));

describe("ReviewCache", () => {
  it("keeps successes for successTtl and failures for failureTtl", async () => {
    const { c, advance } = cache();
    let calls = 0;
    const review = (answer: boolean) => () => {
      calls++;
      return Promise.resolve(answer);
    };
    expect(await c.lookup("good", review(true))).toBe(true);
    expect(await c.lookup("bad", review(false))).toBe(false);
    advance(4_999);
    await c.lookup("good", review(true));
    await c.lookup("bad", review(false));
    expect(calls).toBe(2);
    advance(1);
    await c.lookup("bad", review(false));
    expect(calls).toBe(3);
    advance(5_000);
    await c.lookup("good", review(true));
    expect(calls).toBe(4);
  });

  it("never keeps an error: the next lookup reviews again", async () => {
    const { c } = cache();
    await expect(c.lookup("k", () => Promise.reject(new Error("socket hang up")))).rejects.toThrow(
      "socket hang up",
    );
    expect(await c.lookup("k", () => Promise.resolve(true))).toBe(true);
  });

  it("concurrent lookups of one key share one review, errors included", async () => {
    const { c } = cache({ maxNewInFlight: 1, maxNewQueued: 0 });
    const d = deferredReview(true);
    const all = Array.from({ length: 200 }, () => c.lookup("token", d.review));
    await flush();
    d.releaseAll();
    expect(await Promise.all(all)).toEqual(Array(200).fill(true));
    expect(d.calls()).toBe(1);
    let fail: (e: Error) => void = () => undefined;
    const failing = () => new Promise<boolean>((_, reject) => (fail = reject));
    const both = [c.lookup("other", failing), c.lookup("other", failing)];
    await flush();
    fail(new Error("503"));
    for (const p of both) await expect(p).rejects.toThrow("503");
  });

  it("a TTL of 0 keeps nothing", async () => {
    const { c } = cache({ successTtlMs: 0, failureTtlMs: 0 });
    let calls = 0;
    const review = () => Promise.resolve(++calls > 0);
    await c.lookup("k", review);
    await c.lookup("k", review);
    expect(calls).toBe(2);
  });

  it("is bounded; failures never evict successes", async () => {
    const { c } = cache({ maxEntries: 3, maxNewInFlight: 1000 });
    await c.lookup("good", () => Promise.resolve(true));
    for (let i = 0; i < 50; i++) await c.lookup(`bad-${i}`, () => Promise.resolve(false));
    expect(c.size()).toEqual({ successes: 1, failures: 3 });
    let calls = 0;
    await c.lookup("good", () => Promise.resolve(++calls > 0));
    expect(calls).toBe(0);
    for (let i = 0; i < 5; i++) await c.lookup(`good-${i}`, () => Promise.resolve(true));
    expect(c.size().successes).toBe(3);
  });

  it("a key answered failure then success moves between the two", async () => {
    const { c, advance } = cache();
    await c.lookup("k", () => Promise.resolve(false));
    advance(6_000);
    await c.lookup("k", () => Promise.resolve(true));
    expect(c.size()).toEqual({ successes: 1, failures: 0 });
  });

  it("unknown keys wait at the gate (then are refused); known keys go straight to review", async () => {
    const { c, advance } = cache({ maxNewInFlight: 2, maxNewQueued: 2 });
    // "prometheus" succeeded once; its answer has expired since.
    await c.lookup(c.key("prometheus"), () => Promise.resolve(true));
    advance(20_000);
    const flood = deferredReview(false);
    const floods = Array.from({ length: 4 }, (_, i) => c.lookup(c.key(`flood-${i}`), flood.review));
    await flush();
    expect(flood.calls()).toBe(2);
    await expect(c.lookup(c.key("flood-5"), flood.review)).rejects.toBeInstanceOf(ReviewBusyError);
    // The known key is reviewed at once, while the flood waits.
    expect(await c.lookup(c.key("prometheus"), () => Promise.resolve(true))).toBe(true);
    while (flood.calls() < 4) {
      flood.releaseAll();
      await flush();
    }
    flood.releaseAll();
    expect(await Promise.all(floods)).toEqual([false, false, false, false]);
    // The gate is free again.
    expect(await c.lookup(c.key("late"), () => Promise.resolve(true))).toBe(true);
  });

  it("keys are HMAC digests: length-prefixed parts, no token kept", () => {
    const { c } = cache();
    expect(c.key("ab", "c")).not.toBe(c.key("a", "bc"));
    expect(c.key("secret-token")).not.toContain("secret");
    expect(c.key("x")).toBe(c.key("x"));
  });
});
