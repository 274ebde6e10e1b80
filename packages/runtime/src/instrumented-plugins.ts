// upstream: pkg/scheduler/framework/runtime/instrumented_plugins.go — a profile's plugins wrapped
// for an observer when the profile is built, one wrapper per extension point a plugin fills, so
// that the runtime's loops stay plain: what upstream's frameworkImpl times inline (runXPlugin on
// sampled cycles, its metricsRecorder) and what `simulate --explain` records happen here.
// Nothing is wrapped without an observer that asks for plugin events (observesPlugins).
//
// Plugin durations are measured only on cycles with `state.recordPluginMetrics`, as upstream. A
// Filter plugin over a window of nodes is timed once per window: every wrapped Filter plugin
// offers `filterColumns` (the plain per-node loop when the plugin has no columnar method), so the
// runtime hands it the window in one call; its runs are observed at the window's average, grouped
// by status code.
import type { Pod } from "@kubesched/api";
import {
  type BindPlugin,
  Code,
  type CycleState,
  type FilterPlugin,
  isStatus,
  type NodeInfo,
  type NodeScore,
  type NodeToStatus,
  monotonicNow as now,
  type PermitOutput,
  type PermitPlugin,
  type Plugin,
  type PodInfo,
  type PostBindPlugin,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ReservePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type Status,
} from "@kubesched/framework";
import {
  type ColumnarFilterPlugin,
  type ColumnarPreScorePlugin,
  type ColumnarScoreExtensions,
  type ColumnarScorePlugin,
  type ColumnWindow,
  isColumnarFilterPlugin,
  isColumnarPreScorePlugin,
  isColumnarScoreExtensions,
  isColumnarScorePlugin,
} from "@kubesched/framework/columnar";
import { filterEach } from "./node-window";
import type { SchedulingObserver } from "./observer";
import { filterFailure } from "./statuses";

function ignore(): void {}

/** A plugin wrapped for one extension point: its name and the observer's plugin events. */
abstract class Instrumented<P extends Plugin> implements Plugin {
  protected readonly pluginName: string;
  /** Whether durations are observed (on sampled cycles). */
  protected readonly timing: boolean;

  constructor(
    protected readonly plugin: P,
    protected readonly obs: SchedulingObserver,
  ) {
    this.pluginName = plugin.name();
    this.timing = obs.onPluginDuration !== undefined;
  }

  name(): string {
    return this.pluginName;
  }

  /** The time now when this cycle's durations are observed, else -1. */
  protected startOf(state: CycleState): number {
    return this.timing && state.recordPluginMetrics ? now() : -1;
  }

  /** One run's duration, when `start` was taken. */
  protected ran(point: string, status: Status | null, start: number): void {
    if (start >= 0) this.obs.onPluginDuration?.(this.pluginName, point, status, now() - start, 1);
  }

  /** An asynchronous run's duration, when it settles (the caller awaits the same promise). */
  protected settled<T>(point: string, p: Promise<T>, start: number, statusOf: (v: T) => Status | null): void {
    p.then((v) => this.ran(point, statusOf(v), start), ignore);
  }
}

class InstrumentedPreFilter extends Instrumented<PreFilterPlugin> implements PreFilterPlugin {
  private inner: PreFilterExtensions | null = null;
  private wrapped: PreFilterExtensions | null = null;

  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    const start = this.startOf(state);
    const r = this.plugin.preFilter(state, pod, nodes);
    const s = isStatus(r) ? r : null;
    this.ran("PreFilter", s, start);
    this.obs.onPreFilter?.(this.pluginName, s, s === null ? (r as PreFilterResult | null) : null);
    return r;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    const ext = this.plugin.preFilterExtensions();
    if (ext === null || !this.timing) return ext;
    if (ext !== this.inner) {
      this.inner = ext;
      this.wrapped = new InstrumentedPreFilterExtensions(this.pluginName, ext, this.obs);
    }
    return this.wrapped;
  }
}

class InstrumentedPreFilterExtensions implements PreFilterExtensions {
  constructor(
    private readonly pluginName: string,
    private readonly ext: PreFilterExtensions,
    private readonly obs: SchedulingObserver,
  ) {}

  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | null {
    const start = state.recordPluginMetrics ? now() : -1;
    const s = this.ext.addPod(state, podToSchedule, podInfoToAdd, nodeInfo);
    if (start >= 0)
      this.obs.onPluginDuration?.(this.pluginName, "PreFilterExtensionAddPod", s, now() - start, 1);
    return s;
  }

  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    const start = state.recordPluginMetrics ? now() : -1;
    const s = this.ext.removePod(state, podToSchedule, podInfoToRemove, nodeInfo);
    if (start >= 0) {
      this.obs.onPluginDuration?.(this.pluginName, "PreFilterExtensionRemovePod", s, now() - start, 1);
    }
    return s;
  }
}

// Runs of a window per status code (single-threaded and synchronous: shared scratch).
const runsByCode = new Float64Array(8);
const statusByCode: (Status | null)[] = new Array(8).fill(null);

class InstrumentedFilter extends Instrumented<FilterPlugin> implements ColumnarFilterPlugin {
  private readonly columnar: ColumnarFilterPlugin | null;

  constructor(plugin: FilterPlugin, obs: SchedulingObserver) {
    super(plugin, obs);
    this.columnar = isColumnarFilterPlugin(plugin) ? plugin : null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    const start = this.startOf(state);
    const s = this.plugin.filter(state, pod, nodeInfo);
    this.ran("Filter", s, start);
    const onFilter = this.obs.onFilter;
    if (onFilter !== undefined) onFilter.call(this.obs, this.pluginName, nodeInfo.nodeName, this.reported(s));
    return s;
  }

  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const start = this.startOf(state);
    if (this.columnar !== null) this.columnar.filterColumns(state, pod, window, out);
    else filterEach(this.plugin, state, pod, window, out);
    const { columns, indices, count } = window;
    if (start >= 0 && count > 0) this.ranOnWindow(out, count, (now() - start) / count);
    const onFilter = this.obs.onFilter;
    if (onFilter !== undefined) {
      for (let k = 0; k < count; k++) {
        const ni = columns.nodeInfos[indices[k] as number] as NodeInfo;
        onFilter.call(this.obs, this.pluginName, ni.nodeName, this.reported(out[k] ?? null));
      }
    }
  }

  private reported(s: Status | null): Status | null {
    return s === null || s.code === Code.Success ? null : filterFailure(this.pluginName, s);
  }

  private ranOnWindow(out: readonly (Status | null)[], count: number, eachMs: number): void {
    for (let k = 0; k < count; k++) {
      const s = out[k] ?? null;
      const code = s === null ? Code.Success : s.code;
      runsByCode[code] = (runsByCode[code] as number) + 1;
      if (code !== Code.Success) statusByCode[code] = s;
    }
    for (let code = 0; code < runsByCode.length; code++) {
      const runs = runsByCode[code] as number;
      if (runs === 0) continue;
      this.obs.onPluginDuration?.(this.pluginName, "Filter", statusByCode[code] ?? null, eachMs, runs);
      runsByCode[code] = 0;
      statusByCode[code] = null;
    }
  }
}

class InstrumentedPostFilter extends Instrumented<PostFilterPlugin> implements PostFilterPlugin {
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatusMap: NodeToStatus,
  ): PostFilterOutput | Promise<PostFilterOutput> {
    const start = this.startOf(state);
    const r = this.plugin.postFilter(state, pod, filteredNodeStatusMap);
    // The runtime awaits the plugin's own promise: observed when it settles, before the runtime goes on.
    if (r instanceof Promise) r.then((out) => this.done(out, start), ignore);
    else this.done(r, start);
    return r;
  }

  private done(out: PostFilterOutput, start: number): void {
    this.ran("PostFilter", out.status, start);
    this.obs.onPostFilter?.(this.pluginName, out.status, out.result);
  }
}

class InstrumentedPreScore extends Instrumented<PreScorePlugin> implements PreScorePlugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null {
    const start = this.startOf(state);
    return this.done(this.plugin.preScore(state, pod, nodes), start);
  }

  protected done(s: Status | null, start: number): Status | null {
    this.ran("PreScore", s, start);
    this.obs.onPreScore?.(this.pluginName, s);
    return s;
  }
}

class InstrumentedColumnarPreScore extends InstrumentedPreScore implements ColumnarPreScorePlugin {
  preScoreColumns(state: CycleState, pod: Pod, window: ColumnWindow): Status | null {
    const start = this.startOf(state);
    return this.done((this.plugin as ColumnarPreScorePlugin).preScoreColumns(state, pod, window), start);
  }
}

class InstrumentedScore extends Instrumented<ScorePlugin> implements ScorePlugin {
  private inner: ScoreExtensions | null = null;
  private wrapped: ScoreExtensions | null = null;

  constructor(
    plugin: ScorePlugin,
    obs: SchedulingObserver,
    protected readonly weight: number,
  ) {
    super(plugin, obs);
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const start = this.startOf(state);
    const r = this.plugin.score(state, pod, nodeInfo);
    const failed = typeof r !== "number" && !r.isSuccess();
    this.ran("Score", failed ? (r as Status) : null, start);
    if (!failed)
      this.obs.onScore?.(this.pluginName, nodeInfo.nodeName, typeof r === "number" ? r : 0, this.weight);
    return r;
  }

  scoreExtensions(): ScoreExtensions | null {
    const ext = this.plugin.scoreExtensions();
    if (ext === null) return null;
    if (ext !== this.inner) {
      this.inner = ext;
      this.wrapped = isColumnarScoreExtensions(ext)
        ? new InstrumentedColumnarScoreExtensions(this.pluginName, ext, this.obs, this.weight)
        : new InstrumentedScoreExtensions(this.pluginName, ext, this.obs, this.weight);
    }
    return this.wrapped;
  }
}

class InstrumentedColumnarScore extends InstrumentedScore implements ColumnarScorePlugin {
  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const start = this.startOf(state);
    const s = (this.plugin as ColumnarScorePlugin).scoreColumns(state, pod, window, scores);
    const { columns, indices, count } = window;
    const failed = s !== null && !s.isSuccess();
    if (start >= 0) {
      if (failed) this.ran("Score", s, start);
      else if (count > 0)
        this.obs.onPluginDuration?.(this.pluginName, "Score", null, (now() - start) / count, count);
    }
    const onScore = this.obs.onScore;
    if (!failed && onScore !== undefined) {
      for (let k = 0; k < count; k++) {
        const ni = columns.nodeInfos[indices[k] as number] as NodeInfo;
        onScore.call(this.obs, this.pluginName, ni.nodeName, scores[k] as number, this.weight);
      }
    }
    return s;
  }
}

class InstrumentedScoreExtensions implements ScoreExtensions {
  constructor(
    protected readonly pluginName: string,
    protected readonly ext: ScoreExtensions,
    protected readonly obs: SchedulingObserver,
    protected readonly weight: number,
  ) {}

  protected startOf(state: CycleState): number {
    return this.obs.onPluginDuration !== undefined && state.recordPluginMetrics ? now() : -1;
  }

  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): Status | null {
    const start = this.startOf(state);
    const s = this.ext.normalizeScore(state, pod, scores);
    this.ran(s, start);
    const on = this.obs.onNormalizeScore;
    if (on !== undefined && (s === null || s.isSuccess())) {
      for (const ns of scores) on.call(this.obs, this.pluginName, ns.name, ns.score, this.weight);
    }
    return s;
  }

  protected ran(s: Status | null, start: number): void {
    if (start >= 0) {
      this.obs.onPluginDuration?.(this.pluginName, "ScoreExtensionNormalize", s, now() - start, 1);
    }
  }
}

class InstrumentedColumnarScoreExtensions
  extends InstrumentedScoreExtensions
  implements ColumnarScoreExtensions
{
  normalizeScoreColumns(
    state: CycleState,
    pod: Pod,
    window: ColumnWindow,
    scores: Float64Array,
  ): Status | null {
    const start = this.startOf(state);
    const s = (this.ext as ColumnarScoreExtensions).normalizeScoreColumns(state, pod, window, scores);
    this.ran(s, start);
    const on = this.obs.onNormalizeScore;
    if (on !== undefined && (s === null || s.isSuccess())) {
      const { columns, indices, count } = window;
      for (let k = 0; k < count; k++) {
        const ni = columns.nodeInfos[indices[k] as number] as NodeInfo;
        on.call(this.obs, this.pluginName, ni.nodeName, scores[k] as number, this.weight);
      }
    }
    return s;
  }
}

class InstrumentedReserve extends Instrumented<ReservePlugin> implements ReservePlugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const start = this.startOf(state);
    const s = this.plugin.reserve(state, pod, nodeName);
    this.ran("Reserve", s, start);
    return s;
  }

  unreserve(state: CycleState, pod: Pod, nodeName: string): void {
    const start = this.startOf(state);
    this.plugin.unreserve(state, pod, nodeName);
    this.ran("Unreserve", null, start);
  }
}

class InstrumentedPermit extends Instrumented<PermitPlugin> implements PermitPlugin {
  permit(state: CycleState, pod: Pod, nodeName: string): PermitOutput {
    const start = this.startOf(state);
    const out = this.plugin.permit(state, pod, nodeName);
    this.ran("Permit", out.status, start);
    return out;
  }
}

class InstrumentedPreBind extends Instrumented<PreBindPlugin> implements PreBindPlugin {
  preBindPreFlight(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const start = this.startOf(state);
    const s = this.plugin.preBindPreFlight(state, pod, nodeName);
    this.ran("PreBindPreFlight", s, start);
    return s;
  }

  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    const start = this.startOf(state);
    const p = this.plugin.preBind(state, pod, nodeName);
    if (start >= 0) this.settled("PreBind", p, start, (s) => s);
    return p;
  }
}

class InstrumentedBind extends Instrumented<BindPlugin> implements BindPlugin {
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    const start = this.startOf(state);
    const p = this.plugin.bind(state, pod, nodeName);
    if (start >= 0) this.settled("Bind", p, start, (s) => s);
    return p;
  }
}

class InstrumentedPostBind extends Instrumented<PostBindPlugin> implements PostBindPlugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void {
    const start = this.startOf(state);
    this.plugin.postBind(state, pod, nodeName);
    this.ran("PostBind", null, start);
  }
}

/** The plugin lists of a profile, by extension point (the runtime's own lists). */
export interface PluginLists {
  preFilter: PreFilterPlugin[];
  filter: FilterPlugin[];
  postFilter: PostFilterPlugin[];
  preScore: PreScorePlugin[];
  score: ScorePlugin[];
  reserve: ReservePlugin[];
  permit: PermitPlugin[];
  preBind: PreBindPlugin[];
  bind: BindPlugin[];
  postBind: PostBindPlugin[];
}

/**
 * The lists with every plugin wrapped for `obs` (upstream's instrumented plugins); `weightOf`
 * gives a Score plugin's weight. PreEnqueue and QueueSort run in the queue and are not wrapped.
 */
export function instrumentPlugins(
  lists: PluginLists,
  obs: SchedulingObserver,
  weightOf: (name: string) => number,
): PluginLists {
  return {
    preFilter: lists.preFilter.map((p) => new InstrumentedPreFilter(p, obs)),
    filter: lists.filter.map((p) => new InstrumentedFilter(p, obs)),
    postFilter: lists.postFilter.map((p) => new InstrumentedPostFilter(p, obs)),
    preScore: lists.preScore.map((p) =>
      isColumnarPreScorePlugin(p)
        ? new InstrumentedColumnarPreScore(p, obs)
        : new InstrumentedPreScore(p, obs),
    ),
    score: lists.score.map((p) =>
      isColumnarScorePlugin(p)
        ? new InstrumentedColumnarScore(p, obs, weightOf(p.name()))
        : new InstrumentedScore(p, obs, weightOf(p.name())),
    ),
    reserve: lists.reserve.map((p) => new InstrumentedReserve(p, obs)),
    permit: lists.permit.map((p) => new InstrumentedPermit(p, obs)),
    preBind: lists.preBind.map((p) => new InstrumentedPreBind(p, obs)),
    bind: lists.bind.map((p) => new InstrumentedBind(p, obs)),
    postBind: lists.postBind.map((p) => new InstrumentedPostBind(p, obs)),
  };
}
