// upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/cache_test.go (TestCacheSemantic).
// Not ported: TestCacheConcurrency (goroutines racing on the cache; JavaScript runs one
// compilation at a time) and TestCacheIsolation (derived attributes, DRADerivedAttributes alpha,
// not implemented).
import { describe, expect, it, vi } from "vitest";
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

// kubesched's own: selector verdicts kept per ResourceSlice device object and expression.
describe("Cache.deviceMatches", () => {
  const features = { enableConsumableCapacity: true, enableListTypeAttributes: false };
  const gpu = { name: "gpu-0", attributes: { model: { string: "H100" } } };

  it("keeps a verdict per device object, driver and expression", () => {
    const cache = new Cache(10, features);
    const compiled = cache.getOrCompile('device.attributes["gpu.example.com"].model == "H100"');
    const evaluate = vi.spyOn(compiled, "deviceMatches");
    expect(cache.deviceMatches(compiled, gpu, "gpu.example.com")).toMatchObject({
      matches: true,
      error: null,
    });
    expect(evaluate).toHaveBeenCalledTimes(1);
    expect(cache.deviceMatches(compiled, gpu, "gpu.example.com")).toEqual({
      matches: true,
      actualCost: 0,
      error: null,
    });
    expect(evaluate).toHaveBeenCalledTimes(1);
    // Another device object (an updated slice) is evaluated, even with the same content.
    expect(cache.deviceMatches(compiled, { ...gpu }, "gpu.example.com").matches).toBe(true);
    expect(evaluate).toHaveBeenCalledTimes(2);
    // The driver is the domain of unqualified attribute names: another driver, another verdict.
    expect(cache.deviceMatches(compiled, gpu, "other.example.com").matches).toBe(false);
    expect(evaluate).toHaveBeenCalledTimes(3);
    // Another expression for the same device.
    const other = cache.getOrCompile('device.attributes["gpu.example.com"].model == "A100"');
    expect(cache.deviceMatches(other, gpu, "gpu.example.com").matches).toBe(false);
  });

  it("does not keep a runtime error: its message and cost are reported every time", () => {
    const cache = new Cache(10, features);
    const compiled = cache.getOrCompile('device.attributes["gpu.example.com"].noSuchAttr == 1');
    const evaluate = vi.spyOn(compiled, "deviceMatches");
    const first = cache.deviceMatches(compiled, gpu, "gpu.example.com");
    const second = cache.deviceMatches(compiled, gpu, "gpu.example.com");
    expect(evaluate).toHaveBeenCalledTimes(2);
    expect(first.error?.message).toBe("no such key: noSuchAttr");
    expect(second.error?.message).toBe(first.error?.message);
    expect(second.actualCost).toBe(first.actualCost);
    expect(first.actualCost).toBeGreaterThan(0);
  });
});
