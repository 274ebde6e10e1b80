import type { Pod } from "@kubesched/api";
import { type Handle, PodInfo } from "@kubesched/framework";
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
  /** The PodInfo of the last pod PreFilter or PreScore parsed (they see the same pod in a cycle). */
  lastPodInfo?: PodInfo;
}

/** The pod's PodInfo (its affinity terms parsed), reused while the same pod object comes back. */
export function podInfoFor(ctx: InterPodAffinityContext, pod: Pod): PodInfo {
  const last = ctx.lastPodInfo;
  if (last !== undefined && last.pod === pod) return last;
  const pi = new PodInfo(pod);
  ctx.lastPodInfo = pi;
  return pi;
}
