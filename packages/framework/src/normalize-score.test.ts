import { describe, expect, it } from "vitest";
import { type ColumnWindow, isColumnarScoreExtensions } from "./columnar/plugins";
import { CycleState } from "./cycle-state";
import type { NodeScore } from "./interface";
import { defaultNormalizer, defaultNormalizeScore } from "./normalize-score";

const pod = { metadata: { name: "p" } };
const cases: { name: string; reverse: boolean; scores: number[] }[] = [
  { name: "scales to the highest score", reverse: false, scores: [10, 20, 40, 0] },
  { name: "reversed", reverse: true, scores: [10, 20, 40, 0] },
  { name: "all zero stays zero", reverse: false, scores: [0, 0, 0] },
  { name: "all zero reversed is all max", reverse: true, scores: [0, 0] },
  { name: "truncates like Go's integer division", reverse: false, scores: [1, 3, 7] },
];

describe("defaultNormalizer", () => {
  for (const tc of cases) {
    it(`normalizes as defaultNormalizeScore, in both forms: ${tc.name}`, () => {
      const want: NodeScore[] = tc.scores.map((score, i) => ({ name: `n${i}`, score }));
      defaultNormalizeScore(100, tc.reverse, want);

      const ext = defaultNormalizer(100, tc.reverse);
      const list: NodeScore[] = tc.scores.map((score, i) => ({ name: `n${i}`, score }));
      expect(ext.normalizeScore(new CycleState(), pod, list)).toBeNull();
      expect(list).toEqual(want);

      expect(isColumnarScoreExtensions(ext)).toBe(true);
      if (!isColumnarScoreExtensions(ext)) return;
      const arr = new Float64Array([...tc.scores, 123]);
      const window = {
        columns: {} as ColumnWindow["columns"],
        indices: new Int32Array(tc.scores.length),
        count: tc.scores.length,
      };
      expect(ext.normalizeScoreColumns(new CycleState(), pod, window, arr)).toBeNull();
      expect([...arr]).toEqual([...want.map((s) => s.score), 123]);
    });
  }
});
