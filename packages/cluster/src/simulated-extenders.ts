// The configuration's extenders in a simulation: production's HTTPExtenders (real HTTP calls,
// each bounded by its httpTimeout), their bindings applied to the in-memory cluster, simulated
// time kept honest about calls that time out, and a bound on how long a pod failing on an
// extender is retried.
//
// Upstream (pkg/scheduler/extender.go, schedule_one.go) fails the attempt on a non-ignorable
// extender's error and the queue retries the pod with backoff (podInitialBackoffSeconds doubling
// up to podMaxBackoffSeconds) for as long as the scheduler runs, each attempt calling the
// extender once. A simulation lets simulated time pass to the next backoff until an hour
// without a binding (the idle horizon): about 3600 s / 11 s ≈ 330 attempts at the 10 s maximum
// backoff, each of which waited in real time for an unresponsive extender's httpTimeout.
import { type Pod, podKey } from "@kubesched/api";
import { formatDuration } from "@kubesched/config";
import type { ClusterClient, Extender, ManualClock } from "@kubesched/framework";
import { ExtenderError } from "@kubesched/scheduler";

/**
 * Simulated time a pod is retried for while its attempts keep failing on an extender: enough for
 * the default backoff to reach its 10 s maximum (1 + 2 + 4 + 8 s) and retry there, 5 to 7
 * attempts with the defaults. Retrying longer on a simulated clock would not give a real
 * extender more real time to recover: the attempts follow each other at once.
 */
export const extenderRetryLimitMs = 30_000;

/**
 * The extender as a simulation drives it: its calls are real HTTP calls, and what they would do to
 * the cluster and to time is applied to the simulation.
 * - A bind that succeeded binds the pod in the in-memory cluster: a binder extender binds through
 *   the API server, which the in-memory cluster stands for.
 * - A call that got no answer within httpTimeout waited that long in a real scheduler, so the
 *   simulated clock advances by it (calls that answer take no simulated time, as every other step
 *   of a simulation). Calls made in parallel (prioritize over several extenders) are charged one
 *   after the other.
 */
export function simulatedExtender(ext: Extender, clock: ManualClock, client: ClusterClient): Extender {
  const charged = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (err instanceof ExtenderError && err.timeoutMs !== undefined) clock.advance(err.timeoutMs);
      throw err;
    });
  return {
    name: () => ext.name(),
    isIgnorable: () => ext.isIgnorable(),
    isInterested: (pod) => ext.isInterested(pod),
    isFilter: () => ext.isFilter(),
    isPrioritizer: () => ext.isPrioritizer(),
    isBinder: () => ext.isBinder(),
    supportsPreemption: () => ext.supportsPreemption(),
    filter: (pod, nodes) => charged(ext.filter(pod, nodes)),
    prioritize: (pod, nodes) => charged(ext.prioritize(pod, nodes)),
    bind: async (pod, nodeName) => {
      await charged(ext.bind(pod, nodeName));
      await client.bindPod(pod, nodeName);
    },
    processPreemption: (pod, victims) => charged(ext.processPreemption(pod, victims)),
  };
}

/**
 * Which pods have been failing on an extender since when (simulated time), to end their retries
 * after {@link extenderRetryLimitMs}.
 */
export class ExtenderRetries {
  private readonly failingSince = new Map<string, number>();

  constructor(private readonly clock: ManualClock) {}

  /**
   * An attempt of the pod failed with `err`. Returns what to add to its message when the pod is
   * not to be retried any more, else null.
   */
  failed(pod: Pod, err: Error | null, attempts: number): string | null {
    const key = podKey(pod);
    if (!(err instanceof ExtenderError)) {
      this.failingSince.delete(key);
      return null;
    }
    const now = this.clock.now();
    const since = this.failingSince.get(key) ?? now;
    this.failingSince.set(key, since);
    if (now - since < extenderRetryLimitMs) return null;
    return `; simulate stopped retrying the pod after ${attempts} attempts failing on extender "${err.extender}" (${err.url}) for ${formatDuration(Math.round(now - since))} of simulated time (the limit is ${formatDuration(extenderRetryLimitMs)})`;
  }

  /** The pod was bound. */
  scheduled(pod: Pod): void {
    this.failingSince.delete(podKey(pod));
  }
}
