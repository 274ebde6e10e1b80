// The allocation-free balance must equal upstream's (fractions collected, then std).
import { describe, expect, it } from "vitest";
import { balancedResourceScore, balancedResourceScorer } from "./balanced-allocation";

function reference(requested: number[], allocatable: number[]): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const f = Math.min(requested[i]! / allocatable[i]!, 1);
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum = sum + (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * 100);
}

describe("balancedResourceScore", () => {
  it("matches the collecting implementation on random inputs", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 2000; k++) {
      const n = 1 + Math.floor(rnd() * 5);
      const req = Array.from({ length: n }, () => Math.floor(rnd() * 20000));
      const alloc = Array.from({ length: n }, () => (rnd() < 0.2 ? 0 : Math.floor(rnd() * 16000)));
      expect(balancedResourceScore(Float64Array.from(req), Float64Array.from(alloc))).toBe(
        reference(req, alloc),
      );
    }
  });

  it("scores no change 75, balanced→imbalanced 50, imbalanced→balanced 100", () => {
    const alloc = Float64Array.from([100, 100]);
    expect(balancedResourceScorer(Float64Array.from([50, 50]), Float64Array.from([50, 50]), alloc)).toBe(75);
    expect(balancedResourceScorer(Float64Array.from([100, 0]), Float64Array.from([0, 0]), alloc)).toBe(50);
    expect(balancedResourceScorer(Float64Array.from([100, 100]), Float64Array.from([100, 0]), alloc)).toBe(
      100,
    );
  });
});
