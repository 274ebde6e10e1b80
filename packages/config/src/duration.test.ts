import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "./duration";

describe("Go durations", () => {
  const cases: [string, number, string][] = [
    ["15s", 15_000, "15s"],
    ["0", 0, "0s"],
    ["0s", 0, "0s"],
    ["1m30s", 90_000, "1m30s"],
    ["90s", 90_000, "1m30s"],
    ["1h", 3_600_000, "1h0m0s"],
    ["500ms", 500, "500ms"],
    ["1.5s", 1_500, "1.5s"],
    ["2h45m", 9_900_000, "2h45m0s"],
    ["1500us", 1.5, "1.5ms"],
    ["-2s", -2_000, "-2s"],
  ];
  for (const [text, ms, formatted] of cases) {
    it(`${text} is ${ms}ms and prints as ${formatted}`, () => {
      expect(parseDuration(text)).toBe(ms);
      expect(formatDuration(ms)).toBe(formatted);
    });
  }
  for (const bad of ["", "15", "s", "1x", "abc", "1.s.", "--1s"]) {
    it(`rejects ${JSON.stringify(bad)}`, () => {
      expect(parseDuration(bad)).toBeUndefined();
    });
  }
});

// The runtime's cases: its Permit timeout messages print durations with this function (it had a copy).

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
