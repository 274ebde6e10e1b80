import { fullCounter, type SpreadCounter } from "./counting";

export class SpreadCountsMemo implements SpreadCounter {
  countDoNotSchedule: SpreadCounter["countDoNotSchedule"] = fullCounter.countDoNotSchedule;
  countScheduleAnyway: SpreadCounter["countScheduleAnyway"] = fullCounter.countScheduleAnyway;
}
