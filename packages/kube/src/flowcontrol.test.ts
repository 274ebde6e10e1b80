// Ported from client-go util/flowcontrol/throttle_test.go, on a manual clock (no sleeping).
import { ManualClock } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { RateLimiterWaitError, TokenBucketRateLimiter } from "./flowcontrol";

describe("TestBasicThrottle", () => {
  it("takes the burst, then refuses", () => {
    const r = new TokenBucketRateLimiter(1, 3, new ManualClock());
    for (let i = 0; i < 3; i++) expect(r.tryAccept()).toBe(true);
    expect(r.tryAccept()).toBe(false);
  });
});

describe("TestIncrementThrottle", () => {
  it("refills over time", () => {
    const clock = new ManualClock();
    const r = new TokenBucketRateLimiter(1, 1, clock);
    expect(r.tryAccept()).toBe(true);
    expect(r.tryAccept()).toBe(false);
    clock.advance(2000);
    expect(r.tryAccept()).toBe(true);
  });
});

describe("TestThrottle", () => {
  it("takes 5 tokens at once, and the other 11 at 10 qps (>= 1 s)", async () => {
    const clock = new ManualClock();
    const r = new TokenBucketRateLimiter(10, 5, clock);
    let waited = 0;
    for (let i = 0; i < 16; i++) {
      const w = r.wait();
      // Let the wait's timer be set, then fire it.
      await Promise.resolve();
      clock.advance(clock.nextTimerAt() === null ? 0 : (clock.nextTimerAt() as number) - clock.now());
      waited += await w;
    }
    expect(clock.now()).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeCloseTo(1100, 5);
  });
});

describe("TestMultithreadedThrottling", () => {
  it("never hands out 100 refilled tokens in less than a second", async () => {
    const clock = new ManualClock();
    const r = new TokenBucketRateLimiter(100, 1, clock);
    expect(r.tryAccept()).toBe(true);
    const granted: number[] = [];
    const waits = Array.from({ length: 100 }, () => r.wait().then(() => granted.push(clock.now())));
    await Promise.resolve();
    clock.advance(2000);
    await Promise.all(waits);
    expect(granted).toHaveLength(100);
    expect(Math.max(...granted)).toBeGreaterThanOrEqual(990);
  });
});

describe("TestWait", () => {
  it("fails a wait that would outlast the deadline and gives the token back", async () => {
    const r = new TokenBucketRateLimiter(0.0001, 1, new ManualClock());
    expect(await r.wait(undefined, 1000)).toBe(0);
    await expect(r.wait(undefined, 1000)).rejects.toBeInstanceOf(RateLimiterWaitError);
  });

  it("returns the token of a cancelled wait", async () => {
    const clock = new ManualClock();
    const r = new TokenBucketRateLimiter(1, 1, clock);
    expect(r.tryAccept()).toBe(true);
    const ac = new AbortController();
    const w = r.wait(ac.signal);
    expect(r.available()).toBe(-1);
    ac.abort();
    await expect(w).rejects.toBeInstanceOf(RateLimiterWaitError);
    expect(r.available()).toBe(0);
    clock.advance(1000);
    expect(r.tryAccept()).toBe(true);
  });
});

describe("TestRatePrecisionBug", () => {
  it("keeps accepting at just under the rate", () => {
    const qps = 1000 / 1031.425;
    const clock = new ManualClock();
    const tb = new TokenBucketRateLimiter(qps, 1, clock);
    for (let i = 0; i < 60; i++) {
      expect(tb.tryAccept(), `failed after ${i * 2} seconds`).toBe(true);
      clock.advance(2000);
    }
  });
});

describe("unlimited", () => {
  it("never waits with a negative qps (client-go: QPS < 0 disables the limiter)", async () => {
    const r = new TokenBucketRateLimiter(-1, 0, new ManualClock());
    for (let i = 0; i < 1000; i++) expect(r.tryAccept()).toBe(true);
    expect(await r.wait()).toBe(0);
  });
});
