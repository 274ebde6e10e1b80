import { ManualClock } from "@kubesched/framework";

/** The clock tests use: @kubesched/framework's ManualClock, the one the simulator runs on. */
export type FakeClock = ManualClock;

/** A FakeClock starting at `start` milliseconds (time moves only with advance()). */
export function fakeClock(start = 0): FakeClock {
  return new ManualClock(start);
}
