// Test support for the engine's tests (not part of the package's surface): a ClusterSource over
// arrays, fake plugins ported from upstream pkg/scheduler/testing/framework (tf.*), and a
// builder that wires a Scheduler with them on a fake clock.
import type { Node, Pod } from "@kubesched/api";
import {
  defaultConfig,
  emptyPlugins,
  type KubeSchedulerConfiguration,
  type PluginEntry,
  type ProfileConfig,
} from "@kubesched/config";
import {
  Code,
  type CycleState,
  definePlugin,
  type Extender,
  type NodeInfo,
  type Plugin,
  type PluginDescriptor,
  type PreFilterResult,
  type QueuedPodInfo,
  type Registry,
  Status,
  seededRandom,
} from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { composeObservers, type ExtensionPointName, type SchedulingObserver } from "@kubesched/runtime";
import {
  type FakeClock,
  FakeListers,
  fakeClock,
  RecordingClusterClient,
  type RecordingLogger,
  recordingEventRecorder,
  recordingLogger,
} from "@kubesched/testing";
import type { ClusterEventHandlers, ClusterSource } from "./cluster-source";
import type { ExplainRecorder } from "./explain";
import type { SchedulerMetrics } from "./metrics";
import { Scheduler } from "./scheduler";

/** upstream tf.ErrReasonFake */
export const ErrReasonFake = "Nodes failed the fake plugin";

/** A ClusterSource over arrays; writes are recorded (not applied); events are sent by hand. */
export class FakeSource implements ClusterSource {
  readonly store: FakeListers;
  readonly calls = new RecordingClusterClient();
  readonly recorder = recordingEventRecorder();
  private readonly handlers: ClusterEventHandlers[] = [];

  constructor(nodes: Node[] = [], pods: Pod[] = []) {
    this.store = new FakeListers({ nodes, pods });
  }

  listers(): FakeListers {
    return this.store;
  }
  client(): RecordingClusterClient {
    return this.calls;
  }
  eventRecorder(): ReturnType<typeof recordingEventRecorder> {
    return this.recorder;
  }
  subscribe(h: ClusterEventHandlers): void {
    this.handlers.push(h);
    for (const n of this.store.nodes.list()) h.onNodeAdd(n);
    for (const p of this.store.pods.list()) h.onPodAdd(p);
  }

  addPod(pod: Pod): void {
    this.store.pods.add(pod);
    for (const h of this.handlers) h.onPodAdd(pod);
  }
  updatePod(oldPod: Pod, newPod: Pod): void {
    this.store.pods.add(newPod);
    for (const h of this.handlers) h.onPodUpdate(oldPod, newPod);
  }
  deletePod(pod: Pod): void {
    this.store.pods.remove(pod.metadata?.namespace ?? "", pod.metadata?.name ?? "");
    for (const h of this.handlers) h.onPodDelete(pod);
  }
  addNode(node: Node): void {
    this.store.nodes.add(node);
    for (const h of this.handlers) h.onNodeAdd(node);
  }

  /** Bindings made so far: pod name → node. */
  bindings(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const c of this.calls.calls) if (c.verb === "bind") out[c.pod.metadata?.name ?? ""] = c.nodeName;
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Fake plugins (upstream pkg/scheduler/testing/framework/fake_plugins.go and schedule_one_test.go)

const fake = <P extends Plugin>(name: string, make: () => P): PluginDescriptor<unknown> =>
  definePlugin<unknown>({ name, factory: () => make() });

export const trueFilter = fake("TrueFilter", () => ({
  name: () => "TrueFilter",
  filter: () => null,
}));

export const falseFilter = fake("FalseFilter", () => ({
  name: () => "FalseFilter",
  filter: () => new Status(Code.Unschedulable, ErrReasonFake),
}));

/** Fits only the node named like the pod. */
export const matchFilter = fake("MatchFilter", () => ({
  name: () => "MatchFilter",
  filter: (_s: CycleState, pod: Pod, ni: NodeInfo) =>
    ni.nodeName === pod.metadata?.name ? null : new Status(Code.Unschedulable, ErrReasonFake),
}));

export const noPodsFilter = fake("NoPodsFilter", () => ({
  name: () => "NoPodsFilter",
  filter: (_s: CycleState, _p: Pod, ni: NodeInfo) =>
    ni.pods.length === 0 ? null : new Status(Code.Unschedulable, ErrReasonFake),
}));

/** upstream tf.FakeFilterPlugin: fails the listed nodes with their code and counts calls. */
export function fakeFilter(
  name: string,
  failed: Record<string, number> = {},
): PluginDescriptor<unknown> & { calls: () => number } {
  let n = 0;
  const d = fake(name, () => ({
    name: () => name,
    filter: (_s: CycleState, pod: Pod, ni: NodeInfo) => {
      n++;
      const code = failed[ni.nodeName];
      if (code === undefined) return null;
      return new Status(code as Code, `injecting failure for pod ${pod.metadata?.name ?? ""}`);
    },
  }));
  return Object.assign(d, { calls: () => n });
}

/** upstream tf.FakePreFilterPlugin */
export function fakePreFilter(
  name: string,
  result: PreFilterResult | null,
  status: Status | null,
): PluginDescriptor<unknown> {
  return fake(name, () => ({
    name: () => name,
    preFilter: () => (status ? status.clone() : result),
    preFilterExtensions: () => null,
  }));
}

/** upstream tf.FakePreFilterAndFilterPlugin */
export function fakePreFilterAndFilter(
  name: string,
  preStatus: Status | null,
  failed: Record<string, number>,
): PluginDescriptor<unknown> {
  return fake(name, () => ({
    name: () => name,
    preFilter: () => (preStatus ? preStatus.clone() : null),
    preFilterExtensions: () => null,
    filter: (_s: CycleState, pod: Pod, ni: NodeInfo) => {
      const code = failed[ni.nodeName];
      return code === undefined
        ? null
        : new Status(code as Code, `injecting failure for pod ${pod.metadata?.name ?? ""}`);
    },
  }));
}

export const equalPrioritizer = fake("EqualPrioritizerPlugin", () => ({
  name: () => "EqualPrioritizerPlugin",
  score: () => 1,
  scoreExtensions: () => null,
}));

/** The node's name as a number. */
export const numericMap = fake("NumericMap", () => ({
  name: () => "NumericMap",
  score: (_s: CycleState, _p: Pod, ni: NodeInfo) => {
    const v = Number.parseInt(ni.nodeName, 10);
    return Number.isNaN(v) ? new Status(Code.Error, `Error converting nodename to int: ${ni.nodeName}`) : v;
  },
  scoreExtensions: () => null,
}));

/** The node's name as a number, normalized to max + min - score. */
export const reverseNumericMap = fake("ReverseNumericMap", () => {
  const pl = {
    name: () => "ReverseNumericMap",
    score: (_s: CycleState, _p: Pod, ni: NodeInfo) => Number.parseInt(ni.nodeName, 10),
    scoreExtensions: () => ({
      normalizeScore: (_s: CycleState, _p: Pod, scores: { name: string; score: number }[]) => {
        let max = 0;
        let min = Number.MAX_VALUE;
        for (const s of scores) {
          max = Math.max(max, s.score);
          min = Math.min(min, s.score);
        }
        for (const s of scores) s.score = Math.trunc(max + min - s.score);
        return null;
      },
    }),
  };
  return pl;
});

export const trueMap = fake("TrueMap", () => ({
  name: () => "TrueMap",
  score: () => 1,
  scoreExtensions: () => ({
    normalizeScore: (_s: CycleState, _p: Pod, scores: { name: string; score: number }[]) =>
      scores.some((s) => s.name === "") ? new Status(Code.Error, "unexpected empty host name") : null,
  }),
}));

export const falseMap = fake("FalseMap", () => ({
  name: () => "FalseMap",
  score: () => new Status(Code.Error).withError(new Error("priority map encounters an error")),
  scoreExtensions: () => null,
}));

/** upstream tf.NewNode2PrioritizerPlugin: 100 for node2, 10 for the others. */
export const node2Prioritizer = fake("Node2Prioritizer", () => ({
  name: () => "Node2Prioritizer",
  score: (_s: CycleState, _p: Pod, ni: NodeInfo) => (ni.nodeName === "node2" ? 100 : 10),
  scoreExtensions: () => null,
}));

/** upstream tf.NewFakePreScoreAndScorePlugin */
export function fakePreScoreAndScore(
  name: string,
  score: number,
  preScoreStatus: Status | null,
  scoreStatus: Status | null,
): PluginDescriptor<unknown> {
  return fake(name, () => ({
    name: () => name,
    preScore: () => preScoreStatus,
    score: () => scoreStatus ?? score,
    scoreExtensions: () => null,
  }));
}

export function fakeReserve(name: string, status: Status | null): PluginDescriptor<unknown> {
  return fake(name, () => ({
    name: () => name,
    reserve: () => (status ? status.clone() : null),
    unreserve: () => {},
  }));
}

export function fakePermit(
  name: string,
  status: Status | null,
  timeoutMs: number,
): PluginDescriptor<unknown> {
  return fake(name, () => ({
    name: () => name,
    permit: () => ({ status: status ? status.clone() : null, timeoutMs }),
  }));
}

export function fakePreBind(name: string, status: Status | null): PluginDescriptor<unknown> {
  return fake(name, () => ({
    name: () => name,
    preBindPreFlight: () => null,
    preBind: async () => (status ? status.clone() : null),
  }));
}

// ---------------------------------------------------------------------------------------------
// Scheduler wiring

export type PluginLists = Partial<Record<ExtensionPointName | "multiPoint", (string | PluginEntry)[]>>;

/** A profile enabling exactly `plugins` (plus PrioritySort and DefaultBinder unless given). */
export function profile(
  plugins: PluginLists,
  opts: {
    schedulerName?: string;
    percentageOfNodesToScore?: number;
    pluginConfig?: ProfileConfig["pluginConfig"];
  } = {},
): ProfileConfig {
  const p = emptyPlugins();
  const lists: PluginLists = { queueSort: ["PrioritySort"], bind: ["DefaultBinder"], ...plugins };
  for (const [point, entries] of Object.entries(lists)) {
    p[point as keyof typeof p].enabled = (entries ?? []).map((e) =>
      typeof e === "string" ? { name: e } : e,
    );
  }
  return {
    schedulerName: opts.schedulerName ?? "default-scheduler",
    ...(opts.percentageOfNodesToScore !== undefined
      ? { percentageOfNodesToScore: opts.percentageOfNodesToScore }
      : {}),
    plugins: p,
    pluginConfig: opts.pluginConfig ?? [],
  };
}

export interface Failure {
  pod: Pod;
  status: Status;
  reason: "Unschedulable" | "SchedulerError";
  message: string;
  info: QueuedPodInfo;
}

export interface TestScheduler {
  sched: Scheduler;
  source: FakeSource;
  clock: FakeClock;
  failures: Failure[];
  scheduled: { pod: Pod; node: string }[];
  logger: RecordingLogger;
  /** Adds a pending pod, pops it and runs its scheduling and binding cycles. */
  schedule(pod: Pod): Promise<void>;
  /** One scheduleOne() plus the binding cycle. */
  runOne(): Promise<boolean>;
}

export interface TestSchedulerOptions {
  plugins: PluginDescriptor<unknown>[];
  profiles: ProfileConfig[];
  nodes?: Node[];
  pods?: Pod[];
  extenders?: Extender[];
  percentageOfNodesToScore?: number;
  explain?: ExplainRecorder;
  seed?: number;
  config?: Partial<KubeSchedulerConfiguration>;
  /** Metrics to record into (default: metrics off). */
  metrics?: SchedulerMetrics;
  /** Another observer of the scheduler (the test's own outcomes are always observed). */
  observer?: SchedulingObserver;
}

export function registryWith(plugins: PluginDescriptor<unknown>[]): Registry {
  const r = new Map(inTreeRegistry);
  for (const p of plugins) r.set(p.name, p);
  return r;
}

export async function newTestScheduler(opts: TestSchedulerOptions): Promise<TestScheduler> {
  const base = defaultConfig({ registry: new Map() });
  const config: KubeSchedulerConfiguration = {
    ...base,
    percentageOfNodesToScore: opts.percentageOfNodesToScore ?? 0,
    ...opts.config,
    profiles: opts.profiles,
    extenders: opts.config?.extenders ?? [],
  };
  const source = new FakeSource(opts.nodes ?? [], opts.pods ?? []);
  const clock = fakeClock(1_000_000);
  const logger = recordingLogger();
  const failures: Failure[] = [];
  const scheduled: { pod: Pod; node: string }[] = [];
  const sched = await Scheduler.create({
    config,
    registry: registryWith(opts.plugins),
    source,
    logger,
    clock,
    rand: seededRandom(opts.seed ?? 1),
    ...(opts.extenders ? { extenders: opts.extenders } : {}),
    metrics: opts.metrics ?? false,
    queueTimers: false,
    observer: composeObservers(opts.explain, opts.observer, {
      onScheduled: (pod, node) => scheduled.push({ pod, node }),
      onFailed: (pod, status, reason, message, _ni, info) =>
        failures.push({ pod, status, reason, message, info }),
    }),
  });
  const runOne = async () => {
    const r = await sched.scheduleOne();
    await sched.waitForBindings();
    return r;
  };
  return {
    sched,
    source,
    clock,
    failures,
    scheduled,
    logger,
    runOne,
    async schedule(pod: Pod) {
      source.addPod(pod);
      await runOne();
    },
  };
}
