// The one manual clock: the simulator's and every test's.
import { describe, expect, it } from "vitest";
import { ManualClock } from "./manual-clock";

describe("ManualClock", () => {
  it("fires due timers in time order, then in the order they were set", () => {
    const clock = new ManualClock(100);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push("b@200"), 100);
    clock.setTimeout(() => fired.push("a@150"), 50);
    clock.setTimeout(() => fired.push("c@200"), 100);
    const cancelled = clock.setTimeout(() => fired.push("x"), 10);
    cancelled.cancel();
    expect(clock.nextTimerAt()).toBe(150);
    clock.advanceTo(200);
    expect(fired).toEqual(["a@150", "b@200", "c@200"]);
    expect(clock.now()).toBe(200);
    expect(clock.nextTimerAt()).toBeNull();
  });

  it("timers set by timers fire in the same advance when due", () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 0);
    }, 10);
    clock.advance(10);
    expect(fired).toEqual([10, 10]);
  });

  it("never goes back in time", () => {
    const clock = new ManualClock(500);
    clock.advanceTo(100);
    expect(clock.now()).toBe(500);
    clock.setTimeout(() => {}, -5);
    expect(clock.nextTimerAt()).toBe(500);
  });

  it("a timer's callback sees its own due time while a longer advance goes on", () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => seen.push(clock.now()), 5);
    clock.setTimeout(() => seen.push(clock.now()), 7);
    clock.advance(10);
    expect(seen).toEqual([5, 7]);
    expect(clock.now()).toBe(10);
  });

  it("counts pending timers", () => {
    const clock = new ManualClock(0);
    const a = clock.setTimeout(() => {}, 5);
    clock.setTimeout(() => {}, 7);
    a.cancel();
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(7);
    expect(clock.pendingTimers()).toBe(0);
  });
});
