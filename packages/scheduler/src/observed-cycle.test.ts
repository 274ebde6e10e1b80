// scheduleOne's phase functions: plain without an observer, decorated for the events one implements.
import { defaultConfig } from "@kubesched/config";
import { seededRandom } from "@kubesched/framework";
import { Framework, type SchedulingObserver, type SchedulingPhase } from "@kubesched/runtime";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  equalPrioritizer,
  FakeSource,
  falseFilter,
  newTestScheduler,
  profile,
  registryWith,
  trueFilter,
} from "./fake-source.test-util";
import { SchedulerMetrics } from "./metrics";
import { PhaseRecorder } from "./phases";
import { plainCycle } from "./schedule-one";
import { Scheduler, schedulerState } from "./scheduler";

const nodes = ["node1", "node2", "node3"].map((n) => makeNode().name(n).obj());
const pod = (name: string) => makePod().name(name).uid(name).obj();
const scoring = profile({ filter: ["TrueFilter"], score: ["EqualPrioritizerPlugin"] });

describe("an attempt's instrumentation", () => {
  it("without an observer or metrics, scheduleOne runs the plain phase functions and plain frameworks", async () => {
    const base = defaultConfig({ registry: new Map() });
    const create = (metrics: false | SchedulerMetrics) =>
      Scheduler.create({
        config: { ...base, profiles: [scoring], extenders: [] },
        registry: registryWith([trueFilter, equalPrioritizer]),
        source: new FakeSource(nodes, []),
        logger: recordingLogger(),
        rand: seededRandom(1),
        metrics,
        queueTimers: false,
      });
    const plain = await create(false);
    expect(schedulerState(plain).cycle).toBe(plainCycle);
    for (const fwk of plain.profiles.values()) expect(Object.getPrototypeOf(fwk)).toBe(Framework.prototype);
    const metered = await create(new SchedulerMetrics());
    expect(schedulerState(metered).cycle).not.toBe(plainCycle);
    for (const fwk of metered.profiles.values())
      expect(Object.getPrototypeOf(fwk)).not.toBe(Framework.prototype);
  });

  it("an attempt's events, in order, for a bound pod and a failed one", async () => {
    const seen: string[] = [];
    const observer: SchedulingObserver = {
      onAttemptStart: (p, profile) => seen.push(`start ${p.metadata?.name} ${profile}`),
      onAlgorithmDone: (p) => seen.push(`algorithm ${p.metadata?.name}`),
      onHostSelected: (_p, host, scores) => seen.push(`selected ${host} of ${scores?.length ?? 0}`),
      onSchedulingCycleDone: (p, s) => seen.push(`cycle ${p.metadata?.name} ${s === null ? "ok" : s.code}`),
      onBindingStart: (n) => seen.push(`binding ${n}`),
      onScheduled: (p, node, _info, profile) => seen.push(`scheduled ${p.metadata?.name} ${node} ${profile}`),
      onFailed: (p, _s, reason, message) => seen.push(`failed ${p.metadata?.name} ${reason} ${message}`),
    };
    const ok = await newTestScheduler({
      plugins: [trueFilter, equalPrioritizer],
      profiles: [scoring],
      nodes,
      observer,
    });
    await ok.schedule(pod("p"));
    const failing = await newTestScheduler({
      plugins: [falseFilter],
      profiles: [profile({ filter: ["FalseFilter"] })],
      nodes,
      observer,
    });
    await failing.schedule(pod("q"));
    expect(seen).toEqual([
      "start p default-scheduler",
      `selected ${ok.scheduled[0]?.node} of 3`,
      "algorithm p",
      "cycle p ok",
      "binding 1",
      `scheduled p ${ok.scheduled[0]?.node} default-scheduler`,
      "start q default-scheduler",
      "algorithm q",
      "cycle q 2",
      "failed q Unschedulable 0/3 nodes are available: 3 Nodes failed the fake plugin.",
    ]);
  });

  it("plugin durations are sampled on every 10th cycle (upstream pluginMetricsSamplePercent)", async () => {
    const sampled: boolean[] = [];
    const ts = await newTestScheduler({
      plugins: [trueFilter, equalPrioritizer],
      profiles: [scoring],
      nodes,
      observer: {
        onAttemptStart: (_p, _profile, state) => sampled.push(state.recordPluginMetrics),
        onPluginDuration() {},
      },
    });
    for (let i = 0; i < 20; i++) await ts.schedule(pod(`p${i}`));
    expect(sampled.flatMap((s, i) => (s ? [i + 1] : []))).toEqual([10, 20]);
  });

  it("phase timings cover the cycle's phases; the metrics' time is a phase of its own", async () => {
    const phases = new PhaseRecorder();
    const ts = await newTestScheduler({
      plugins: [trueFilter, equalPrioritizer],
      profiles: [scoring],
      nodes,
      metrics: new SchedulerMetrics(),
      observer: phases,
    });
    for (let i = 0; i < 5; i++) await ts.schedule(pod(`p${i}`));
    const t = phases.totals();
    const ran: SchedulingPhase[] = [
      "pop",
      "snapshot",
      "preFilter",
      "filter",
      "score",
      "select",
      "assume",
      "bind",
      "events",
      "metrics",
    ];
    for (const phase of ran) expect(t[phase], phase).toBeGreaterThan(0);
    expect(t.postFilter).toBe(0);
    expect(t.requeue).toBe(0);
  });
});

describe("PhaseRecorder", () => {
  it("takes the metrics stretches within a phase out of it, not those between phases", () => {
    const r = new PhaseRecorder();
    r.onPhase("metrics", 0, 1); // between phases
    r.onPhase("metrics", 12, 14); // within filter
    r.onPhase("filter", 10, 20);
    r.onPhase("score", 20, 25);
    const t = r.totals();
    expect(t.metrics).toBe(3);
    expect(t.filter).toBe(8);
    expect(t.score).toBe(5);
    r.reset();
    expect(Object.values(r.totals()).every((ms) => ms === 0)).toBe(true);
  });
});
