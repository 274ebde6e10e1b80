// upstream: pkg/scheduler/framework/plugins/volumebinding/scorer_test.go (TestScore, default shape)
import { describe, expect, it } from "vitest";
import { defaultShape } from "./args";
import { buildScorerFunction, type ClassResourceMap } from "./scorer";

const cr = (...r: Array<[string, number, number]>): ClassResourceMap =>
  new Map(r.map(([c, requested, capacity]) => [c, { requested, capacity }]));

describe("TestScore", () => {
  const f = buildScorerFunction(defaultShape());
  it.each([
    { name: "no classes", classResources: cr(), want: 0 },
    { name: "empty capacity scores as full", classResources: cr(["sc", 10, 0]), want: 0 },
    { name: "0% utilization", classResources: cr(["sc", 0, 100]), want: 100 },
    { name: "30% utilization", classResources: cr(["sc", 30, 100]), want: 70 },
    { name: "50% utilization", classResources: cr(["sc", 50, 100]), want: 50 },
    { name: "requested over capacity", classResources: cr(["sc", 200, 100]), want: 0 },
    { name: "two classes are averaged", classResources: cr(["a", 30, 100], ["b", 50, 100]), want: 60 },
  ])("$name", ({ classResources, want }) => {
    expect(f(classResources)).toBe(want);
  });

  it("uses a custom shape with integer interpolation", () => {
    const g = buildScorerFunction([
      { utilization: 0, score: 0 },
      { utilization: 30, score: 5 },
      { utilization: 50, score: 10 },
    ]);
    expect(g(cr(["sc", 20, 100]))).toBe(33);
    expect(g(cr(["sc", 40, 100]))).toBe(75);
    expect(g(cr(["sc", 80, 100]))).toBe(100);
  });
});
