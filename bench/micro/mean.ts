import type { Task } from "tinybench";

/** A task's mean latency in milliseconds (NaN when it errored or was aborted). */
export function meanMs(t: Task): number {
  const r = t.result;
  return r !== undefined && "latency" in r ? r.latency.mean : Number.NaN;
}
