import { describe, expect, it } from "vitest";
import { formatMicroTime, formatTime, parseTime } from "./micro-time";

describe("MicroTime", () => {
  it("writes six fractional digits, as metav1.MicroTime's RFC3339Micro layout requires", () => {
    expect(formatMicroTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678))).toBe("2024-01-02T03:04:05.678000Z");
    expect(formatMicroTime(Date.UTC(2024, 0, 2, 3, 4, 5, 0))).toBe("2024-01-02T03:04:05.000000Z");
  });

  it("writes metav1.Time in whole seconds", () => {
    expect(formatTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678))).toBe("2024-01-02T03:04:05Z");
  });

  it("parses both forms", () => {
    expect(parseTime("2024-01-02T03:04:05.678000Z")).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    expect(parseTime("2024-01-02T03:04:05Z")).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(parseTime(undefined)).toBeNaN();
  });
});
