// DomainCounts must behave as the Map<string, number> it replaces (get, size, insertion order)
// under random sets and deletes, copies must be independent, and CriticalPaths.of must equal
// upstream's update over the domains in insertion order (ties included).

import { seededRandom } from "@kubesched/framework";
import type { LabelColumn } from "@kubesched/framework/columnar";
import { describe, expect, it } from "vitest";
import { DomainCounts, ValueIds } from "./domains";
import { CriticalPaths } from "./filtering";

function pathsByUpdate(m: Iterable<[string, number]>): CriticalPaths {
  const p = new CriticalPaths();
  for (const [v, n] of m) p.update(v, n);
  return p;
}

const plain = (p: CriticalPaths) => [p.value0, p.num0, p.value1, p.num1];

describe("DomainCounts", () => {
  it.each([0, 7])(
    "behaves as a Map under random sets and deletes; copies are independent (stamps up to %i)",
    (maxStamp) => {
      // With a low maximum, stamps are renumbered often (as after 2^31 insertions).
      const saved = DomainCounts.maxStamp;
      if (maxStamp > 0) DomainCounts.maxStamp = maxStamp;
      try {
        checkAgainstMap();
      } finally {
        DomainCounts.maxStamp = saved;
      }
    },
  );

  function checkAgainstMap(): void {
    const rnd = seededRandom(11);
    // "" is a value too (a label may be empty), and the critical paths' sentinel value.
    const values = ["", ...Array.from({ length: 40 }, (_, i) => `v${i}`)];
    for (let round = 0; round < 10; round++) {
      const ids = new ValueIds();
      // Some values interned before any domain exists (as a column translation does).
      for (let i = 0; i < rnd.intn(10); i++) ids.idOf(values[rnd.intn(values.length)]!);
      const m = new DomainCounts(ids);
      const ref = new Map<string, number>();
      let copies: [DomainCounts, Map<string, number>][] = [];
      for (let op = 0; op < 300; op++) {
        const v = values[rnd.intn(values.length)]!;
        const r = rnd.intn(10);
        if (r < 6) {
          // Few distinct counts, so ties are common.
          const n = rnd.intn(4) - (rnd.intn(20) === 0 ? 1 : 0);
          m.set(v, n);
          ref.set(v, n);
        } else if (r < 8) {
          const id = ids.find(v);
          if (id >= 0) m.deleteId(id);
          ref.delete(v);
        } else if (r < 9) {
          copies.push([m.copy(), new Map(ref)]);
        } else if (copies.length > 0) {
          // A copy mutated on its own.
          const [c, cref] = copies[rnd.intn(copies.length)]!;
          const n = rnd.intn(5);
          c.set(v, n);
          cref.set(v, n);
        }
        expect(m.size).toBe(ref.size);
        expect(m.get(v)).toBe(ref.get(v));
        expect(m.has(v)).toBe(ref.has(v));
        expect(m.countOf(ids.find(v))).toBe(ref.get(v) ?? 0);
        // The first two domains are kept through changes: checked now and then, so that some
        // stretches run on the kept ones and others start from a scan.
        if (rnd.intn(3) === 0) expect(plain(CriticalPaths.of(m))).toEqual(plain(pathsByUpdate(ref)));
      }
      expect([...m]).toEqual([...ref]);
      expect(plain(CriticalPaths.of(m))).toEqual(plain(pathsByUpdate(ref)));
      for (const [c, cref] of copies) {
        expect([...c]).toEqual([...cref]);
        expect(c.size).toBe(cref.size);
        expect(plain(CriticalPaths.of(c))).toEqual(plain(pathsByUpdate(cref)));
      }
      copies = [];
    }
  }

  it("keeps the critical paths while the first domains fill up one by one (as pods spread)", () => {
    const rnd = seededRandom(17);
    for (let round = 0; round < 6; round++) {
      const ids = new ValueIds();
      const m = new DomainCounts(ids);
      const ref = new Map<string, number>();
      const n = 60 + rnd.intn(40);
      for (let i = 0; i < n; i++) {
        m.set(`h${i}`, 0);
        ref.set(`h${i}`, 0);
      }
      for (let step = 0; step < 600; step++) {
        const p = CriticalPaths.of(m);
        expect(plain(p)).toEqual(plain(pathsByUpdate(ref)));
        // Mostly the first or second domain gains a pod, re-created as the memo does (deleted
        // and inserted last); sometimes any domain changes, leaves or comes back.
        const r = rnd.intn(10);
        const v = r < 5 ? p.value0 : r < 7 ? p.value1 : `h${rnd.intn(n)}`;
        const id = ids.find(v);
        const cur = ref.get(v);
        if (r === 9 && cur !== undefined) {
          m.deleteId(id);
          ref.delete(v);
        } else if (r < 7 && cur !== undefined) {
          m.deleteId(id);
          ref.delete(v);
          m.set(v, cur + 1);
          ref.set(v, cur + 1);
        } else {
          const c = Math.max(0, (cur ?? 0) + rnd.intn(3) - 1);
          m.set(v, c);
          ref.set(v, c);
        }
      }
    }
  });

  it("CriticalPaths.of equals update over insertion order on small maps", () => {
    const rnd = seededRandom(3);
    for (let round = 0; round < 500; round++) {
      const ids = new ValueIds();
      const m = new DomainCounts(ids);
      const ref = new Map<string, number>();
      const n = rnd.intn(5);
      for (let i = 0; i < n; i++) {
        const v = ["", "a", "b", "c", "d"][rnd.intn(5)]!;
        const c = rnd.intn(3);
        if (rnd.intn(4) === 0) {
          const id = ids.find(v);
          if (id >= 0) m.deleteId(id);
          ref.delete(v);
        } else {
          m.set(v, c);
          ref.set(v, c);
        }
      }
      expect(plain(CriticalPaths.of(m))).toEqual(plain(pathsByUpdate(ref)));
    }
  });
});

describe("ValueIds.fromColumn", () => {
  it("translates a growing column's ids (-1 for values not interned), again after values are interned, and for another column", () => {
    const ids = new ValueIds();
    ids.idOf("b");
    const values: string[] = ["a", "b"];
    const col = {
      key: "k",
      valueIds: new Int32Array(0),
      values,
      idOf: (v: string) => values.indexOf(v),
    } as LabelColumn;
    const check = (c: LabelColumn) => {
      const t = ids.fromColumn(c);
      for (let i = 0; i < c.values.length; i++) expect(t[i]).toBe(ids.find(c.values[i]!));
    };
    check(col);
    values.push("c", "a2");
    check(col);
    // "a" interned since: the translation must not keep its -1.
    ids.idOf("a");
    ids.idOf("z");
    check(col);
    const other: string[] = ["c", "z"];
    check({
      key: "k",
      valueIds: new Int32Array(0),
      values: other,
      idOf: (v: string) => other.indexOf(v),
    } as LabelColumn);
    check(col);
  });
});
