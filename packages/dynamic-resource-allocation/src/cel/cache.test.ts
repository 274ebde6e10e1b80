// upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/cache_test.go (TestCacheSemantic).
// Not ported: TestCacheConcurrency (goroutines racing on the cache; JavaScript runs one
// compilation at a time) and TestCacheIsolation (derived attributes, DRADerivedAttributes alpha,
// not implemented).
import { describe, expect, it } from "vitest";
import { Cache } from "./cache";

describe("TestCacheSemantic", () => {
  it("caches successful compilations, least recently used out first, without cost estimation", () => {
    const cache = new Cache(2, { enableConsumableCapacity: false, enableListTypeAttributes: false });

    // Successful compilations get cached.
    const resultTrue = cache.getOrCompile("true");
    expect(resultTrue.error).toBeNull();
    expect(cache.getOrCompile("true")).toBe(resultTrue);

    // Unsuccessful ones don't.
    const resultFailed = cache.getOrCompile("no-such-variable");
    expect(resultFailed.error).not.toBeNull();
    expect(cache.getOrCompile("no-such-variable")).not.toBe(resultFailed);

    // The cache can hold a second result.
    const resultFalse = cache.getOrCompile("false");
    expect(resultFalse.error).toBeNull();
    expect(cache.getOrCompile("false")).toBe(resultFalse);
    expect(cache.getOrCompile("true")).toBe(resultTrue);

    // A third result pushes out the least recently used one.
    const resultOther = cache.getOrCompile("false && true");
    expect(resultOther.error).toBeNull();
    expect(cache.getOrCompile("false && true")).toBe(resultOther);
    const resultFalseAgain = cache.getOrCompile("false");
    expect(resultFalseAgain).not.toBe(resultFalse);

    // Cost estimation must be off (not needed by the scheduler).
    expect(resultFalseAgain.maxCost).toBe(Number.POSITIVE_INFINITY);
  });
});
