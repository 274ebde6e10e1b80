import { describe, expect, it } from "vitest";
import { formatMicroTime, formatTime } from "./time";

// Expected strings are Go's: metav1.NewTime(t).MarshalJSON() and metav1.NewMicroTime(t).MarshalJSON().
describe("formatTime (metav1.Time)", () => {
  it("writes RFC 3339 in UTC with whole seconds", () => {
    expect(formatTime(Date.UTC(2026, 10, 27))).toBe("2026-11-27T00:00:00Z");
    expect(formatTime(new Date(Date.UTC(2026, 10, 27)))).toBe("2026-11-27T00:00:00Z");
  });

  it("truncates the fraction as Go's time.RFC3339 layout does (no rounding)", () => {
    expect(formatTime(Date.UTC(2024, 0, 2, 3, 4, 5, 999))).toBe("2024-01-02T03:04:05Z");
    expect(formatTime(Date.UTC(1969, 11, 31, 23, 59, 59, 500))).toBe("1969-12-31T23:59:59Z");
  });

  it("gives each second its own text when times of one second come in a row (the last is kept)", () => {
    expect(formatTime(Date.UTC(2026, 10, 27, 1, 2, 3, 10))).toBe("2026-11-27T01:02:03Z");
    expect(formatTime(Date.UTC(2026, 10, 27, 1, 2, 3, 990))).toBe("2026-11-27T01:02:03Z");
    expect(formatTime(Date.UTC(2026, 10, 27, 1, 2, 4))).toBe("2026-11-27T01:02:04Z");
    expect(formatTime(Date.UTC(1969, 11, 31, 23, 59, 59, 1))).toBe("1969-12-31T23:59:59Z");
    expect(formatTime(Date.UTC(1969, 11, 31, 23, 59, 59, 999))).toBe("1969-12-31T23:59:59Z");
    expect(() => formatTime(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatMicroTime (metav1.MicroTime)", () => {
  it("writes RFC3339Micro: six fractional digits in UTC", () => {
    expect(formatMicroTime(Date.UTC(2026, 10, 27))).toBe("2026-11-27T00:00:00.000000Z");
    expect(formatMicroTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678))).toBe("2024-01-02T03:04:05.678000Z");
    expect(formatMicroTime(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 7)))).toBe("2024-01-02T03:04:05.007000Z");
  });
});
