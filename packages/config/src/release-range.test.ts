import { describe, expect, it } from "vitest";
import { releaseInRange } from "./release-range";

describe("releaseInRange", () => {
  it.each([
    [">=1.33 <=1.37", "1.33", true],
    [">=1.33 <=1.37", "1.37", true],
    [">=1.33 <=1.36", "1.37", false],
    ["1.35", "1.35", true],
    ["1.35", "1.37", false],
    ["=1.37", "1.37", true],
    [">1.34", "1.35", true],
    ["<1.35", "1.35", false],
    ["  >=1.33   <1.38 ", "1.37", true],
  ])("%s contains %s: %s", (range, release, want) => {
    expect(releaseInRange(range, release)).toBe(want);
  });

  it.each(["", "latest", "^1.35", "1.35.2", ">=1.33 || 1.37", "~1.35"])("cannot read %j", (range) => {
    expect(releaseInRange(range, "1.37")).toBeNull();
  });
});
