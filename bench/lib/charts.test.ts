import { describe, expect, it } from "vitest";
import { niceTicks, scalingChart, throughputChart } from "./charts";

describe("charts", () => {
  it("niceTicks: round steps from 0 past the maximum", () => {
    expect(niceTicks(2300)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(niceTicks(9.5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });

  it("throughput over time: one point per sample, reference lines, escaped text, no scripts", () => {
    const svg = throughputChart({
      title: "A/B <c> & d",
      subtitle: "sub",
      samples: [
        { t: 1, rate: 100 },
        { t: 2, rate: 300 },
        { t: 3, rate: 200 },
      ],
      lines: [{ value: 200, label: "average 200", color: "#000" }],
      durationS: 3.4,
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg).toContain("average 200");
    expect(svg).toContain("A/B &lt;c&gt; &amp; d");
    expect(svg).not.toMatch(/<script|href=/);
  });

  it("throughput over time without samples says why", () => {
    const svg = throughputChart({
      title: "t",
      subtitle: "s",
      samples: [],
      lines: [],
      durationS: 0.4,
      emptyNote: "no 1-s samples",
    });
    expect(svg).toContain("no 1-s samples");
    expect(svg).not.toContain("<polyline");
  });

  it("scaling: both panels, each size labelled with its share of the ceiling", () => {
    const svg = scalingChart("s", "sub", [
      { nodes: 5000, podsPerSecond: 2000, msPerPod: 0.5, ceiling: 100000 },
      { nodes: 500, podsPerSecond: 2500, msPerPod: 0.4, ceiling: null },
    ]);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain("2k (2.0%)");
    expect(svg).toContain("0.40 ms");
  });
});
