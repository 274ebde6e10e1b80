// UnschedulablePods keeps the entries that are not gated apart (events no gating plugin registered
// walk only those): while `ungatedInOrder`, they are exactly podInfoMap's ungated entries in
// podInfoMap's order, through any sequence of additions, in-place updates and removals.
import { ManualClock, seededRandom } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { newQueuedPodInfo } from "./scheduling-queue.test-util";
import { UnschedulablePods } from "./unschedulable-pods";

describe("UnschedulablePods.ungatedMap", () => {
  it("holds the ungated entries in the pool's order, or says it does not", () => {
    const clock = new ManualClock(0);
    for (const seed of [1, 2, 3]) {
      const rand = seededRandom(seed);
      const pool = new UnschedulablePods();
      const infos = Array.from({ length: 40 }, (_, i) =>
        newQueuedPodInfo(clock, makePod().name(`p${i}`).namespace("ns").obj()),
      );
      let sawOutOfOrder = false;
      for (let step = 0; step < 3000; step++) {
        const p = infos[rand.intn(infos.length)]!;
        const r = rand.float();
        if (r < 0.6) {
          // Added, or updated in place with its gate possibly changed (as PreEnqueue does).
          if (rand.float() < 0.5) p.gatingPlugin = p.gatingPlugin === "" ? "Gate" : "";
          pool.addOrUpdate(p);
        } else if (pool.get(p) !== undefined) {
          pool.delete(p);
        }
        const all = [...pool.podInfoMap.values()];
        expect(pool.gatedCount).toBe(all.filter((x) => x.gatingPlugin !== "").length);
        const ungated = all.filter((x) => x.gatingPlugin === "");
        expect(new Set(pool.ungatedMap.values())).toEqual(new Set(ungated));
        if (pool.ungatedInOrder) expect([...pool.ungatedMap.values()]).toEqual(ungated);
        else sawOutOfOrder = true;
        if (pool.size === 0) expect(pool.ungatedInOrder).toBe(true);
      }
      expect(sawOutOfOrder).toBe(true);
    }
  });
});
