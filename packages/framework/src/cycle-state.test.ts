// CycleState.clone: entries cloned, skip sets shared (the framework replaces them, never changes
// one in place), so that a preemption dry run's per-node clones keep the Filter plugin list the
// runtime derived from the set.
import { describe, expect, it } from "vitest";
import { CycleState, type StateData, stateKey } from "./cycle-state";

class Counter implements StateData {
  constructor(public n: number) {}
  clone(): StateData {
    return new Counter(this.n);
  }
}
const key = stateKey<Counter>("PreFilterCounter");

describe("CycleState.clone", () => {
  it("clones every entry: changing the clone's leaves the original's", () => {
    const s = new CycleState();
    s.write(key, new Counter(1));
    const c = s.clone();
    (c.read(key) as Counter).n = 2;
    expect(s.read(key)?.n).toBe(1);
    expect(c.read(key)?.n).toBe(2);
  });

  it("shares the skip sets and the metrics flag's value; replacing a clone's set leaves the original's", () => {
    const s = new CycleState();
    s.skipFilterPlugins = new Set(["NodePorts"]);
    s.skipScorePlugins = new Set(["ImageLocality"]);
    s.skipPreBindPlugins = new Set(["VolumeBinding"]);
    s.recordPluginMetrics = true;
    const c = s.clone();
    expect(c.skipFilterPlugins).toBe(s.skipFilterPlugins);
    expect(c.skipScorePlugins).toBe(s.skipScorePlugins);
    expect(c.skipPreBindPlugins).toBe(s.skipPreBindPlugins);
    expect(c.recordPluginMetrics).toBe(true);
    c.skipFilterPlugins = new Set();
    expect([...s.skipFilterPlugins]).toEqual(["NodePorts"]);
  });
});
