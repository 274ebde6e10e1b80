import { describe, expect, it } from "vitest";
import { formatDuration } from "./duration";

describe("formatDuration (Go time.Duration.String)", () => {
  const cases: [number, string][] = [
    [0, "0s"],
    [0.000001, "1ns"],
    [0.0015, "1.5µs"],
    [100, "100ms"],
    [1500, "1.5s"],
    [10_000, "10s"],
    [60_000, "1m0s"],
    [15 * 60_000, "15m0s"],
    [3_600_000, "1h0m0s"],
    [3_723_500, "1h2m3.5s"],
    [-2000, "-2s"],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms → ${want}`, () => expect(formatDuration(ms)).toBe(want));
  }
});
