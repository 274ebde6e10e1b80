// upstream: pkg/scheduler/framework/preemption/executor.go (v1.37: Executor, PreemptPod,
// prepareCandidate, prepareCandidateAsync, IsPodRunningPreemption, clearNominatedNodeName,
// getLowerPriorityNominatedPods). Async preemption is KEP-4832 (gate SchedulerAsyncPreemption).
import { type Pod, type PodCondition, podKey, podPriority, podUID, updatePodCondition } from "@kubesched/api";
import { asStatus, type ExtenderVictims, type Handle, type PodInfo, type Status } from "@kubesched/framework";

/** A node on which the preemptor fits once `victims` are gone (upstream preemption.Candidate). */
export interface Candidate {
  /** The node the preemptor would be nominated to. */
  readonly name: string;
  /** The pods to preempt (most important first) and how many of them violate a PDB. */
  readonly victims: ExtenderVictims;
  /**
   * The PodInfos of `victims.pods`, in their order, when the dry run had them
   * (SelectVictimsResult.victimInfos): candidate selection reads priorities and start times
   * from them.
   */
  readonly victimInfos?: readonly PodInfo[] | undefined;
}

/** Makes the API calls that preempt one victim; returns the error that stops the preparation, or null. */
export type PreemptPodFunc = (candidate: Candidate, preemptor: Pod, victim: Pod) => Promise<Error | null>;

/** upstream parallelize.DefaultParallelism: victims preempted at once by prepareCandidateAsync. */
const parallelism = 16;

/** A NotFound API error (the victim is already gone): not a failure of the preemption. */
function isNotFound(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { reason?: unknown; code?: unknown; statusCode?: unknown };
  return e.reason === "NotFound" || e.code === 404 || e.statusCode === 404;
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Pods nominated to `nodeName` with a lower priority than `pod` (upstream
 * getLowerPriorityNominatedPods): they may no longer fit once the preemptor lands there.
 */
export function getLowerPriorityNominatedPods(handle: Handle, pod: Pod, nodeName: string): Pod[] {
  const nominated = handle.nominatedPodsForNode(nodeName);
  if (nominated.length === 0) return [];
  const prio = podPriority(pod);
  const out: Pod[] = [];
  for (const pi of nominated) if (podPriority(pi.pod) < prio) out.push(pi.pod);
  return out;
}

/**
 * Carries out the preemption of a chosen candidate (upstream preemption.Executor): the victims'
 * API calls, synchronously inside PostFilter or, with SchedulerAsyncPreemption, off the
 * scheduling cycle while DefaultPreemption's PreEnqueue holds the preemptor back.
 */
export class Executor {
  /** Preempts one victim; replaceable in tests, as upstream's PreemptPod field. */
  preemptPod: PreemptPodFunc;
  /**
   * Preemptors whose asynchronous preparation is running (upstream `preempting`); they must not
   * enter a scheduling cycle meanwhile.
   */
  readonly preempting = new Set<string>();
  /**
   * Preemptor UID → the last victim, while its deletion is the one step left (upstream
   * `lastVictimsPendingPreemption`): once that victim is gone or terminating, the preemptor is
   * released even before the preparation returns, so that the victim's deletion event, which may
   * arrive first, does not leave it in the unschedulable pool.
   */
  readonly lastVictimsPendingPreemption = new Map<string, { namespace: string; name: string }>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    readonly pluginName: string,
    readonly handle: Handle,
  ) {
    this.preemptPod = (c, preemptor, victim) => this.defaultPreemptPod(c, preemptor, victim);
  }

  /** upstream IsPodRunningPreemption: whether the pod's asynchronous preemption still runs. */
  isPodRunningPreemption(uid: string): boolean {
    if (!this.preempting.has(uid)) return false;
    const victim = this.lastVictimsPendingPreemption.get(uid);
    // In `preempting` with no last victim registered yet: the preparation is pending.
    if (!victim) return true;
    const live = this.handle.listers().pods.get(victim.namespace, victim.name);
    // Deleted, or its graceful deletion has started: the preemption is done.
    return live !== undefined && live.metadata?.deletionTimestamp == null;
  }

  /** Resolves once every preparation prepareCandidateAsync started has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /**
   * Preempts the victims (those not already being deleted), then clears the nomination of
   * lower-priority pods nominated to the node (upstream prepareCandidate). Returns the first
   * failure as an Error status.
   */
  async prepareCandidate(c: Candidate, preemptor: Pod): Promise<Status | null> {
    for (const victim of c.victims.pods) {
      // Graceful deletion has already started: another API call is unnecessary.
      if (victim.metadata?.deletionTimestamp != null) continue;
      const err = await this.callPreemptPod(c, preemptor, victim);
      if (err) return asStatus(err);
    }
    await this.clearNominatedNodeName(getLowerPriorityNominatedPods(this.handle, preemptor, c.name));
    return null;
  }

  /**
   * upstream prepareCandidateAsync: registers the preemptor in `preempting` at once, then, off
   * the scheduling cycle, clears lower-priority nominations on the node, preempts all victims
   * but the last in parallel and, if they all succeeded, the last one (tracked in
   * `lastVictimsPendingPreemption`). On any API error the preemptor is activated: it may
   * otherwise wait in the unschedulable pool for an event that never comes.
   */
  prepareCandidateAsync(c: Candidate, preemptor: Pod): void {
    const victims: Pod[] = [];
    // Graceful deletion has already started: another API call is unnecessary.
    for (const v of c.victims.pods) if (v.metadata?.deletionTimestamp == null) victims.push(v);
    if (victims.length === 0) return;
    this.handle.pluginMetrics().preemptionVictims(c.victims.pods.length);
    const uid = podUID(preemptor);
    this.preempting.add(uid);
    const run = this.runAsync(c, preemptor, uid, victims);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async runAsync(c: Candidate, preemptor: Pod, uid: string, victims: Pod[]): Promise<void> {
    // Off the cycle: the caller's PostFilter has returned before anything below runs.
    await Promise.resolve();
    const logger = this.handle.logger();
    let failed = false;
    try {
      const nominated = getLowerPriorityNominatedPods(this.handle, preemptor, c.name);
      if (!(await this.clearNominatedNodeName(nominated))) failed = true;
      let preemptLastVictim = true;
      if (victims.length > 1) {
        const err = await this.preemptInParallel(c, preemptor, victims.slice(0, -1));
        if (err) {
          logger.error("Error occurred during async preemption", { err, pod: podKey(preemptor) });
          failed = true;
          // Skip the last victim: the preemptor re-enters the scheduling cycle sooner.
          preemptLastVictim = false;
        }
      }
      if (preemptLastVictim) {
        const last = victims[victims.length - 1] as Pod;
        this.lastVictimsPendingPreemption.set(uid, {
          namespace: last.metadata?.namespace ?? "",
          name: last.metadata?.name ?? "",
        });
        const err = await this.callPreemptPod(c, preemptor, last);
        if (err) {
          logger.error("Error occurred during async preemption of the last victim", {
            err,
            pod: podKey(preemptor),
          });
          failed = true;
        }
      }
    } finally {
      this.preempting.delete(uid);
      this.lastVictimsPendingPreemption.delete(uid);
      // After the API calls failed the pod may be stuck in the unschedulable pool: activate it.
      // Keyed by name, as upstream's activation map.
      if (failed) this.handle.activate(new Map([[preemptor.metadata?.name ?? "", preemptor]]));
    }
  }

  /**
   * Preempts `victims`, at most `parallelism` at a time (upstream Parallelizer.Until with a
   * cancelling result channel): after the first error no further victim is started.
   */
  private async preemptInParallel(
    c: Candidate,
    preemptor: Pod,
    victims: readonly Pod[],
  ): Promise<Error | null> {
    let first: Error | null = null;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (first === null && next < victims.length) {
        const victim = victims[next++] as Pod;
        const err = await this.callPreemptPod(c, preemptor, victim);
        if (err && first === null) first = err;
      }
    };
    const workers: Promise<void>[] = [];
    for (let i = 0; i < Math.min(parallelism, victims.length); i++) workers.push(worker());
    await Promise.all(workers);
    return first;
  }

  /** preemptPod, with a throw turned into the returned error. */
  private async callPreemptPod(c: Candidate, preemptor: Pod, victim: Pod): Promise<Error | null> {
    try {
      return await this.preemptPod(c, preemptor, victim);
    } catch (err) {
      return toError(err);
    }
  }

  /**
   * upstream clearNominatedNodeName: patches each pod's status.nominatedNodeName away. Failures
   * are logged, not returned (not critical: the pod keeps its nomination until it is scheduled
   * again); false when there was one.
   */
  private async clearNominatedNodeName(pods: readonly Pod[]): Promise<boolean> {
    let ok = true;
    const client = this.handle.client();
    for (const p of pods) {
      if (!p.status?.nominatedNodeName) continue;
      try {
        await client.patchPodStatus(p, { nominatedNodeName: null });
      } catch (err) {
        ok = false;
        this.handle.logger().error("Cannot clear 'NominatedNodeName' field of pod", { err, pod: podKey(p) });
      }
    }
    return ok;
  }

  /**
   * upstream Executor.PreemptPod: a pod waiting at Permit is preempted there, a pod in PreBind has
   * its binding cycle cancelled (kubernetes#135502); otherwise the DisruptionTarget condition is
   * added and the pod deleted (NotFound tolerated). Then the `Preempted` event on the victim.
   */
  private async defaultPreemptPod(c: Candidate, preemptor: Pod, victim: Pod): Promise<Error | null> {
    const handle = this.handle;
    const uid = podUID(victim);
    const waiting = handle.getWaitingPod(uid);
    let inMemory = false;
    if (waiting) {
      inMemory = waiting.preempt(this.pluginName, "preempted");
    } else {
      inMemory = handle.getPodInPreBind(uid)?.cancelPod(`preempted by ${this.pluginName}`) ?? false;
    }
    let eventMessage = `Preempted by pod ${podUID(preemptor)} on node ${c.name}`;
    if (inMemory) {
      eventMessage += " (in kube-scheduler memory).";
    } else {
      const schedulerName = preemptor.spec?.schedulerName || handle.profileName();
      const condition: PodCondition = {
        type: "DisruptionTarget",
        status: "True",
        reason: "PreemptionByScheduler",
        message: `${schedulerName}: preempting to accommodate a higher priority pod`,
      };
      const newStatus = { ...victim.status, conditions: [...(victim.status?.conditions ?? [])] };
      if (updatePodCondition(newStatus, condition, new Date(handle.clock().now()))) {
        const updated = newStatus.conditions?.find((x) => x.type === "DisruptionTarget");
        try {
          await handle.client().patchPodStatus(victim, { conditions: updated ? [updated] : [condition] });
        } catch (err) {
          return isNotFound(err) ? null : toError(err);
        }
      }
      try {
        await handle.client().deletePod(victim);
      } catch (err) {
        return isNotFound(err) ? null : toError(err);
      }
    }
    handle.eventRecorder().eventf(victim, preemptor, "Normal", "Preempted", "Preempting", eventMessage);
    return null;
  }
}
