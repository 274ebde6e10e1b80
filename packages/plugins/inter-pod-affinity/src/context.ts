import type { Handle } from "@kubesched/framework";
import type { InterPodAffinityArgs } from "./args";
import type { FilteringMemos } from "./filtering";
import type { ScoringMemo } from "./scoring";

/** What the extension points of one plugin instance share. */
export interface InterPodAffinityContext {
  readonly handle: Handle;
  readonly args: InterPodAffinityArgs;
  /** null: always take the full computation (no memo across cycles). */
  readonly filteringMemos: FilteringMemos | null;
  readonly scoringMemo: ScoringMemo | null;
}
