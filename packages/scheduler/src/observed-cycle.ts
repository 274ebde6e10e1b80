// scheduleOne's phase functions decorated for an observer: the one place where an attempt is
// instrumented (upstream's schedule_one.go records its metrics inline: the scheduling algorithm
// and attempt durations, pod_scheduling_attempts, the sampled cycles of plugin metrics). Only what
// the observer implements is decorated; an asynchronous phase keeps its own promise (events
// ride on it), so no decorator adds a turn of the event loop.
import type { NodeInfo, NodeScore, QueuedPodInfo, Status } from "@kubesched/framework";
import { monotonicNow as now } from "@kubesched/framework";
import type { SchedulingObserver, SchedulingPhase } from "@kubesched/runtime";
import { type Attempt, type CyclePhases, failureReason, type Priorities } from "./schedule-one";

/** Upstream pluginMetricsSamplePercent: plugin durations are recorded on this share of cycles. */
const pluginMetricsSamplePercent = 10;

/** The final score of every feasible node, in their order (what the host was selected from). */
function finalScoresOf(feasible: readonly NodeInfo[], priorities: Priorities | null): NodeScore[] | null {
  if (priorities === null) return null;
  if (priorities.list !== null) return priorities.list.map((s) => ({ name: s.name, score: s.totalScore }));
  const totals = priorities.totals;
  return feasible.map((ni, n) => ({ name: ni.nodeName, score: totals[n] as number }));
}

/** `phases` with the observer's events: a phase function per event it implements, the rest as they are. */
export function observedCycle(phases: CyclePhases, obs: SchedulingObserver): CyclePhases {
  const onPhase = obs.onPhase;
  function timed<A extends unknown[], R>(phase: SchedulingPhase, fn: (...args: A) => R): (...args: A) => R {
    if (onPhase === undefined) return fn;
    return (...args) => {
      const start = now();
      try {
        return fn(...args);
      } finally {
        onPhase.call(obs, phase, start, now());
      }
    };
  }

  // Durations of attempts and of their algorithm come from the start times kept on the attempt.
  const timesAttempts = obs.onScheduled !== undefined || obs.onFailed !== undefined;
  const attemptMs = (a: Attempt): number => now() - a.startedMs;
  const sampled = obs.onPluginDuration !== undefined;
  let cycles = 0;

  const pop = timed("pop", phases.pop);
  const select = timed("select", phases.select);
  const bound = timed("bind", phases.bound);
  const { schedulePod, startBindingCycle, handleSchedulingFailure } = phases;

  return {
    pop(sched) {
      const a = pop(sched);
      if (typeof a === "boolean") return a;
      if (sampled) a.state.recordPluginMetrics = ++cycles % (100 / pluginMetricsSamplePercent) === 0;
      if (timesAttempts) a.startedMs = now();
      obs.onAttemptStart?.(a.pod, a.fwk.profileName(), a.state);
      return a;
    },
    schedulingCycle: phases.schedulingCycle,
    schedulingCycleDone:
      obs.onSchedulingCycleDone === undefined
        ? phases.schedulingCycleDone
        : (sched, a, o) => {
            phases.schedulingCycleDone(sched, a, o);
            obs.onSchedulingCycleDone?.(a.pod, o.status);
          },
    schedulePod:
      obs.onAlgorithmDone === undefined
        ? schedulePod
        : (sched, a) => {
            a.algorithmStartMs = now();
            return schedulePod(sched, a);
          },
    algorithmDone:
      obs.onAlgorithmDone === undefined
        ? phases.algorithmDone
        : (sched, a) => {
            phases.algorithmDone(sched, a);
            obs.onAlgorithmDone?.(a.pod, now() - a.algorithmStartMs);
          },
    updateSnapshot: timed("snapshot", phases.updateSnapshot),
    preFilter: timed("preFilter", phases.preFilter),
    filter: timed("filter", phases.filter),
    score: timed("score", phases.score),
    select:
      obs.onHostSelected === undefined
        ? select
        : (sched, a, feasible, priorities) => {
            const host = select(sched, a, feasible, priorities);
            obs.onHostSelected?.(a.pod, host, finalScoresOf(feasible, priorities));
            return host;
          },
    postFilter: timed("postFilter", phases.postFilter),
    assume: timed("assume", phases.assume),
    startBindingCycle:
      obs.onBindingStart === undefined
        ? startBindingCycle
        : (sched, a, outcome) => {
            startBindingCycle(sched, a, outcome);
            obs.onBindingStart?.(sched.inflightBindings.size);
          },
    preBindPreFlight: timed("bind", phases.preBindPreFlight),
    waitOnPermit: timed("bind", phases.waitOnPermit),
    permitted: timed("bind", phases.permitted),
    preBind: timed("bind", phases.preBind),
    bindPlugins: timed("bind", phases.bindPlugins),
    finishBinding: timed("bind", phases.finishBinding),
    scheduledEvent: timed("events", phases.scheduledEvent),
    // Upstream records a scheduled attempt after binding, before PostBind.
    bound:
      obs.onScheduled === undefined
        ? bound
        : (sched, a, assumed: QueuedPodInfo, result) => {
            const profile = a.fwk.profileName();
            obs.onScheduled?.(assumed.podInfo.pod, result.suggestedHost, assumed, profile, attemptMs(a));
            bound(sched, a, assumed, result);
          },
    handleSchedulingFailure:
      obs.onFailed === undefined
        ? handleSchedulingFailure
        : (sched, a, qpi, status: Status, nominatingInfo) => {
            const pod = qpi.podInfo.pod;
            handleSchedulingFailure(sched, a, qpi, status, nominatingInfo);
            const reason = failureReason(status);
            const profile = a.fwk.profileName();
            obs.onFailed?.(pod, status, reason, status.message(), nominatingInfo, qpi, profile, attemptMs(a));
          },
    requeue: timed("requeue", phases.requeue),
    failureEvents: timed("events", phases.failureEvents),
  };
}

/** Whether the observer needs the decorated cycle (an attempt event or phase timings). */
export function observesAttempts(o: SchedulingObserver): boolean {
  return (
    o.onAttemptStart !== undefined ||
    o.onPhase !== undefined ||
    o.onAlgorithmDone !== undefined ||
    o.onHostSelected !== undefined ||
    o.onSchedulingCycleDone !== undefined ||
    o.onBindingStart !== undefined ||
    o.onScheduled !== undefined ||
    o.onFailed !== undefined ||
    o.onPluginDuration !== undefined
  );
}
