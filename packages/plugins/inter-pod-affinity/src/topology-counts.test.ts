import type { LabelColumn } from "@kubesched/framework/columnar";
import { describe, expect, it } from "vitest";
import { TopologyCounts } from "./topology-counts";

/** A label column over fixed values (ids in order). */
function column(key: string, values: string[]): LabelColumn {
  return {
    key,
    valueIds: new Int32Array(0),
    values,
    idOf: (v) => values.indexOf(v),
  };
}

describe("TopologyCounts.byValueId", () => {
  it("mirrors the counts of a key by value id and follows every later change", () => {
    const c = new TopologyCounts();
    c.add("zone", "b", 2);
    c.add("host", "h1", 1);
    const zones = column("zone", ["a", "b", "c"]);
    const byId = c.byValueId("zone", zones);
    expect(byId && [...byId.subarray(0, 3)]).toEqual([0, 2, 0]);
    c.add("zone", "a", 3);
    c.add("zone", "b", -2);
    c.add("host", "h1", 5);
    const again = c.byValueId("zone", zones);
    expect(again).toBe(byId);
    expect([...(again as Float64Array).subarray(0, 3)]).toEqual([3, 0, 0]);
    for (const [i, v] of zones.values.entries()) expect((again as Float64Array)[i]).toBe(c.get("zone", v));
  });

  it("gives none when a counted value is not in the column, and drops a mirror that cannot follow", () => {
    const c = new TopologyCounts();
    c.add("zone", "x", 1);
    expect(c.byValueId("zone", column("zone", ["a"]))).toBeNull();
    const d = new TopologyCounts();
    d.add("zone", "a", 1);
    const col = column("zone", ["a"]);
    expect(d.byValueId("zone", col)).not.toBeNull();
    d.add("zone", "z", 1); // a value the column does not have: the mirror is dropped
    expect(d.byValueId("zone", col)).toBeNull();
  });

  it("is not shared by clones", () => {
    const c = new TopologyCounts();
    c.add("zone", "a", 1);
    const col = column("zone", ["a"]);
    const byId = c.byValueId("zone", col) as Float64Array;
    const copy = c.clone();
    copy.add("zone", "a", 4);
    expect(byId[0]).toBe(1);
    expect((copy.byValueId("zone", col) as Float64Array)[0]).toBe(5);
  });
});
