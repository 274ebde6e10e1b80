// upstream: pkg/scheduler/framework/runtime/framework.go (frameworkImpl). The loops here carry no
// instrumentation: an observer's plugins are wrapped when the profile is built
// (instrumented-plugins.ts) and its extension points timed by ObservedFramework.
import { type Pod, podPriority, podUID } from "@kubesched/api";
import type { PluginEntry, PluginSet, Plugins, ProfileConfig } from "@kubesched/config";
import {
  ActionType,
  type BindPlugin,
  type Clock,
  type ClusterClient,
  type ClusterEventWithHint,
  type ClusterListers,
  Code,
  type CycleState,
  codeName,
  type Diagnosis,
  defaultFeatures,
  defaultKubernetesVersion,
  type EnqueueExtensions,
  type EventRecorder,
  EventResource,
  type Extender,
  type Features,
  type FilterPlugin,
  formatFieldErrors,
  type Handle,
  isBindPlugin,
  isEnqueueExtensions,
  isFilterPlugin,
  isPermitPlugin,
  isPostBindPlugin,
  isPostFilterPlugin,
  isPreBindPlugin,
  isPreEnqueuePlugin,
  isPreFilterPlugin,
  isPreScorePlugin,
  isQueueSortPlugin,
  isReservePlugin,
  isScorePlugin,
  isSignPlugin,
  isStatus,
  type Logger,
  MaxNodeScore,
  MaxTotalScore,
  MinNodeScore,
  minorOf,
  type NodeInfo,
  type NodePluginScores,
  type NodeScore,
  type NodeToStatus,
  type NominatingInfo,
  NominatingMode,
  type PermitPlugin,
  type Plugin,
  type PluginDescriptor,
  type PluginMetrics,
  type PluginScore,
  type PodActivator,
  type PodInfo,
  type PodInPreBind,
  type PodNominator,
  type PostBindPlugin,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueuedPodInfo,
  type QueueSortPlugin,
  type Random,
  type Registry,
  type ReservePlugin,
  realClock,
  SchedulerNameSignerName,
  type ScorePlugin,
  type SharedDRAManager,
  type SharedLister,
  type SignPlugin,
  Status,
  seededRandom,
  type WaitingPod,
} from "@kubesched/framework";
import {
  type ColumnarFilterPlugin,
  columnarNodeInfos,
  isColumnarFilterPlugin,
  isColumnarPreScorePlugin,
  isColumnarScoreExtensions,
  isColumnarScorePlugin,
  type NodeColumns,
} from "@kubesched/framework/columnar";
import {
  type BatchStats,
  maxBatchAgeMs,
  OpportunisticBatch,
  type RawNodeScores,
  type ScoredCandidate,
  SortedScoredNodes,
} from "./batch";
import { instrumentPlugins, type PluginLists } from "./instrumented-plugins";
import { FeasibleIndex, FilterWindow, filterEach, ReusedColumnWindow, ScoreRows } from "./node-window";
import { observesPlugins, type SchedulingObserver } from "./observer";
import { DefaultParallelism, Parallelizer } from "./parallelize";
import { errMessage, filterFailure, wrapError } from "./statuses";
import { WaitingPodImpl, WaitingPodsMap } from "./waiting-pods-map";

/**
 * A pod in PreBind (upstream podInPreBind): cancelling it settles `cancelled` with an Error status
 * the PreBind loop races each plugin against (a plugin's own promise cannot be aborted, so the
 * binding cycle stops waiting for it).
 */
class PodInPreBindImpl implements PodInPreBind {
  readonly cancelled: Promise<Status>;
  private settle: (s: Status) => void = () => {};
  private active = true;

  constructor(
    private readonly pod: Pod,
    private readonly registry: Map<string, PodInPreBindImpl>,
  ) {
    this.cancelled = new Promise<Status>((resolve) => {
      this.settle = resolve;
    });
  }

  getPod(): Pod {
    return this.pod;
  }

  cancelPod(msg: string): boolean {
    if (!this.active) return false;
    this.leave();
    this.settle(new Status(Code.Error, msg));
    return true;
  }

  /** The binding cycle left PreBind. */
  leave(): void {
    if (!this.active) return;
    this.active = false;
    const uid = podUID(this.pod);
    if (this.registry.get(uid) === this) this.registry.delete(uid);
  }
}

/** Upstream maxTimeout: the longest a Permit plugin may make a pod wait. */
export const MaxPermitTimeoutMs = 15 * 60 * 1000;

/** The pseudo-plugin name under which extenders register for cluster events (upstream ExtenderName). */
export const ExtenderName = "Extender";

export interface FrameworkOptions {
  listers: ClusterListers;
  client: ClusterClient;
  eventRecorder: EventRecorder;
  extenders?: readonly Extender[];
  clock?: Clock;
  rand?: Random;
  features?: Features;
  /** The release plugins read from `handle.kubernetesVersion()`; default the framework's. */
  kubernetesVersion?: string;
  nominator?: PodNominator;
  activator?: PodActivator;
  /** Share one map between profiles (upstream WithWaitingPods); default: a map of its own. */
  waitingPods?: WaitingPodsMap;
  /**
   * The scheduler's one DRA manager, shared by every profile (upstream WithSharedDRAManager;
   * `handle.sharedDRAManager()`). newProfileMap makes it when DynamicResourceAllocation is on;
   * absent, the handle answers null and the DRA plugins refuse to be built.
   */
  sharedDRAManager?: SharedDRAManager | null;
  /**
   * The snapshot every cycle reads (upstream WithSnapshotSharedLister). Required: plugins take it
   * in their constructors, so a framework built without it would never see a node.
   */
  snapshot: SharedLister;
  /** The profile's logger (`handle.logger()`); required, as upstream's contextual logger. */
  logger: Logger;
  parallelism?: number;
  /**
   * What watches the profile (metrics, explain): its plugins are wrapped when it observes plugin
   * events, its extension points timed when it implements `onExtensionPoint` (newFramework), and
   * `handle.pluginMetrics()` reports to it. Absent: nothing is wrapped.
   */
  observer?: SchedulingObserver;
}

/** Names of the extension points, as the v1 Plugins fields (multiPoint excluded). */
export type ExtensionPointName = Exclude<keyof Plugins, "multiPoint">;

/** Events a plugin registered, with the plugin's name (for the queue). */
export interface PluginEvents {
  pluginName: string;
  events: ClusterEventWithHint[];
}

export interface PreFilterOutput {
  result: PreFilterResult | null;
  status: Status | null;
  /** Plugins whose PreFilterResult narrowed the nodes (upstream's third return value). */
  unschedulablePlugins: Set<string>;
}

export interface ScoreOutput {
  scores: NodePluginScores[];
  status: Status | null;
}

/**
 * Scores of one cycle with the totals in a typed array (runScorePluginsOnNodes). Valid until the
 * framework's next Score: the arrays are reused.
 */
export interface NodeScoresOutput {
  status: Status | null;
  /** Total weighted score of `nodes[n]` at n (length may exceed the number of nodes). */
  totals: Float64Array;
  /** The same scores as upstream's NodePluginScores list (built on demand). */
  list(): NodePluginScores[];
  /**
   * The nodes but `chosen`, best first, with their raw scores (opportunistic batching's state);
   * null unless Score ran with `keepRawScores`.
   */
  sortedOtherNodes(chosen: string): SortedScoredNodes | null;
}

/** Filter's window never shrinks below this many nodes (when more are needed, fewer would mean more rounds). */
const minFilterChunk = 16;

/** No observer of the plugins' own metrics: recording does nothing. */
const noPluginMetrics: PluginMetrics = { preemptionAttempt() {}, preemptionVictims() {} };

/** What plugins record through `handle.pluginMetrics()`, reported to the observer. */
function pluginMetricsOf(o: SchedulingObserver | null): PluginMetrics {
  if (o === null || (o.onPreemptionAttempt === undefined && o.onPreemptionVictims === undefined)) {
    return noPluginMetrics;
  }
  return {
    preemptionAttempt: () => o.onPreemptionAttempt?.(),
    preemptionVictims: (count) => o.onPreemptionVictims?.(count),
  };
}

/** Upstream UnrollWildCardResource: what a plugin without EventsToRegister is requeued on. */
function unrollWildCardResource(): ClusterEventWithHint[] {
  return [
    EventResource.Pod,
    EventResource.Node,
    EventResource.PersistentVolume,
    EventResource.PersistentVolumeClaim,
    EventResource.CSINode,
    EventResource.CSIDriver,
    EventResource.CSIStorageCapacity,
    EventResource.StorageClass,
    EventResource.ResourceClaim,
    EventResource.DeviceClass,
  ].map((resource) => ({ event: { resource, actionType: ActionType.All } }));
}

/** An extension point: its v1 field, upstream interface name and type guard. */
interface PointSpec {
  key: ExtensionPointName;
  iface: string;
  is: (p: Plugin) => boolean;
}

// Upstream getExtensionPoints order: specific points are filled, and expanded, in this order.
const extensionPoints: readonly PointSpec[] = [
  { key: "preFilter", iface: "PreFilterPlugin", is: isPreFilterPlugin },
  { key: "filter", iface: "FilterPlugin", is: isFilterPlugin },
  { key: "postFilter", iface: "PostFilterPlugin", is: isPostFilterPlugin },
  { key: "reserve", iface: "ReservePlugin", is: isReservePlugin },
  { key: "preScore", iface: "PreScorePlugin", is: isPreScorePlugin },
  { key: "score", iface: "ScorePlugin", is: isScorePlugin },
  { key: "preBind", iface: "PreBindPlugin", is: isPreBindPlugin },
  { key: "bind", iface: "BindPlugin", is: isBindPlugin },
  { key: "postBind", iface: "PostBindPlugin", is: isPostBindPlugin },
  { key: "permit", iface: "PermitPlugin", is: isPermitPlugin },
  { key: "preEnqueue", iface: "PreEnqueuePlugin", is: isPreEnqueuePlugin },
  { key: "queueSort", iface: "QueueSortPlugin", is: isQueueSortPlugin },
];

function allNodes(r: PreFilterResult | null): boolean {
  return r === null || r.nodeNames === null;
}

/** Upstream PreFilterResult.Merge: the intersection of the node sets; null means all nodes. */
function mergePreFilterResult(p: PreFilterResult | null, r: PreFilterResult | null): PreFilterResult | null {
  const a = p?.nodeNames ?? null;
  const b = r?.nodeNames ?? null;
  if (a === null && b === null) return null;
  if (a === null) return { nodeNames: new Set(b) };
  if (b === null) return { nodeNames: new Set(a) };
  const out = new Set<string>();
  for (const n of a) if (b.has(n)) out.add(n);
  return { nodeNames: out };
}

/**
 * A profile's plugins and the rules for running them. It is the Handle plugins get, as upstream's
 * frameworkImpl.
 */
export class Framework implements Handle {
  private readonly registry: Registry;
  private profileNameValue = "";
  private percentageOfNodesToScoreValue: number | null = null;
  private readonly pluginsMap = new Map<string, Plugin>();
  private readonly scorePluginWeight = new Map<string, number>();
  private readonly enqueueExtensionList: EnqueueExtensions[] = [];

  private preEnqueue: PreEnqueuePlugin[] = [];
  private queueSort: QueueSortPlugin[] = [];
  private preFilter: PreFilterPlugin[] = [];
  private filter: FilterPlugin[] = [];
  private postFilter: PostFilterPlugin[] = [];
  private preScore: PreScorePlugin[] = [];
  private score: ScorePlugin[] = [];
  private reserve: ReservePlugin[] = [];
  private permit: PermitPlugin[] = [];
  private preBind: PreBindPlugin[] = [];
  private bind: BindPlugin[] = [];
  private postBind: PostBindPlugin[] = [];

  private readonly snapshotLister: SharedLister;
  private readonly loggerImpl: Logger;
  private nominatorImpl: PodNominator | null;
  private activatorImpl: PodActivator | null;
  private readonly waitingPods: WaitingPodsMap;
  /** Pods whose binding cycle runs PreBind plugins, by UID. */
  private readonly podsInPreBind = new Map<string, PodInPreBindImpl>();
  private readonly opts: FrameworkOptions;
  private readonly clockImpl: Clock;
  private readonly randImpl: Random;
  private readonly featuresImpl: Features;
  private readonly kubernetesVersionImpl: string;
  private readonly parallelizerImpl: Parallelizer;
  private readonly pluginMetricsImpl: PluginMetrics;
  /**
   * The most nodes a Filter window holds: 1 when the observer reports Filter outcomes per node (a
   * window would run plugins past the early stop, which the per-node loop never reaches).
   */
  private readonly filterWindowMax: number;

  /** Use newFramework(); the constructor builds an empty framework (no profile). */
  constructor(registry: Registry, opts: FrameworkOptions) {
    this.registry = registry;
    this.opts = opts;
    if (!opts.snapshot) throw new Error("newFramework: a snapshot is required (FrameworkOptions.snapshot)");
    if (!opts.logger) throw new Error("newFramework: a logger is required (FrameworkOptions.logger)");
    this.snapshotLister = opts.snapshot;
    this.loggerImpl = opts.logger;
    this.nominatorImpl = opts.nominator ?? null;
    this.activatorImpl = opts.activator ?? null;
    this.waitingPods = opts.waitingPods ?? new WaitingPodsMap();
    this.clockImpl = opts.clock ?? realClock;
    this.randImpl = opts.rand ?? seededRandom(0);
    this.featuresImpl = opts.features ?? defaultFeatures;
    this.kubernetesVersionImpl = opts.kubernetesVersion ?? defaultKubernetesVersion;
    this.parallelizerImpl = new Parallelizer(opts.parallelism ?? DefaultParallelism);
    this.pluginMetricsImpl = pluginMetricsOf(opts.observer ?? null);
    this.filterWindowMax = opts.observer?.onFilter !== undefined ? 1 : Number.POSITIVE_INFINITY;
    if ((opts.extenders?.length ?? 0) > 0) {
      this.enqueueExtensionList.push(defaultEnqueueExtension(ExtenderName));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Construction (upstream NewFramework)

  /** @internal Builds the plugin lists of `profile`; called once by newFramework. */
  async init(profile: ProfileConfig): Promise<void> {
    this.profileNameValue = profile.schedulerName;
    this.percentageOfNodesToScoreValue = profile.percentageOfNodesToScore ?? null;
    const plugins = profile.plugins;

    const pluginConfig = new Map<string, unknown>();
    for (const pc of profile.pluginConfig) {
      if (pluginConfig.has(pc.name)) throw new Error(`repeated config for plugin ${pc.name}`);
      pluginConfig.set(pc.name, pc.args);
    }

    for (const name of pluginsNeeded(plugins)) {
      const d = this.registry.get(name);
      if (!d) continue; // reported below as "<Iface> "<name>" does not exist"
      const args = pluginConfig.has(name) ? pluginConfig.get(name) : this.defaultArgs(d);
      let p: Plugin;
      try {
        // Args are validated in one place, the descriptor's args spec: config validation reports
        // its errors with field paths; here it guards profiles built without it (upstream's New
        // functions validate again for the same reason).
        const invalid = d.args && pluginConfig.has(name) ? d.args.validate(args, "", this.featuresImpl) : [];
        if (invalid.length > 0) throw new Error(formatFieldErrors(invalid));
        p = await d.factory(args, this);
      } catch (e) {
        throw new Error(`initializing plugin "${name}": ${e instanceof Error ? e.message : String(e)}`);
      }
      this.pluginsMap.set(name, p);
      this.fillEnqueueExtensions(p);
    }

    for (const pt of extensionPoints) this.updatePluginList(pt, plugins[pt.key]);

    if (plugins.multiPoint.enabled.length > 0) this.expandMultiPointPlugins(plugins);

    if (this.queueSort.length !== 1) {
      throw new Error(
        `only one queue sort plugin required for profile with scheduler name "${profile.schedulerName}", but got ${this.queueSort.length}`,
      );
    }
    if (this.bind.length === 0) {
      throw new Error(
        `at least one bind plugin is needed for profile with scheduler name "${profile.schedulerName}"`,
      );
    }

    this.setScoreWeights([...plugins.score.enabled, ...plugins.multiPoint.enabled]);
    for (const sp of this.score) {
      if (!this.scorePluginWeight.get(sp.name())) {
        throw new Error(`score plugin "${sp.name()}" is not configured with weight`);
      }
    }

    this.initSignatures();
    const observer = this.opts.observer;
    if (observer !== undefined && observesPlugins(observer)) this.instrument(observer);
  }

  // ---------------------------------------------------------------------------------------------
  // Pod signatures and opportunistic batching (KEP-5598; upstream frameworkImpl's SignPod,
  // GetNodeHint and StoreScheduleResults)

  private batchablePlugins: SignPlugin[] = [];
  private enableSignatures = false;
  private batch: OpportunisticBatch | null = null;

  /**
   * Pods are signed only when every PreFilter, Filter, PreScore and Score plugin can sign and no
   * extender is configured (upstream): any other plugin or an extender may depend on more of the
   * pod than the signature holds. Before instrumentation: the plugins themselves sign.
   */
  private initSignatures(): void {
    this.batch = new OpportunisticBatch(
      {
        profileName: () => this.profileNameValue,
        rescoring: () => minorOf(this.kubernetesVersionImpl) >= 37,
        getNodeInfo: (name) => this.snapshotLister.nodeInfos().get(name),
        runFilterPlugins: (state, pod, ni) => this.runFilterPlugins(state, pod, ni),
        runPreScorePlugins: (state, pod, nodes) => this.runPreScorePlugins(state, pod, nodes),
        runRawScorePlugins: (state, pod, ni) => this.runRawScorePlugins(state, pod, ni),
        normalizeScores: (state, pod, plugins, candidates) =>
          this.normalizeScores(state, pod, plugins, candidates),
      },
      this.clockImpl,
      maxBatchAgeMs,
      this.opts.observer ?? null,
    );
    this.enableSignatures = (this.opts.extenders?.length ?? 0) === 0;
    const seen = new Set<string>();
    for (const pl of [...this.preFilter, ...this.filter, ...this.preScore, ...this.score]) {
      if (seen.has(pl.name())) continue;
      seen.add(pl.name());
      if (isSignPlugin(pl)) this.batchablePlugins.push(pl);
      else this.enableSignatures = false;
    }
  }

  /**
   * The pod's signature (upstream SignPod): equal signatures get the same feasibility and scores
   * on the same nodes in the same state. null when the profile cannot sign or a plugin refuses.
   */
  signPod(pod: Pod): string | null {
    if (!this.enableSignatures) return null;
    const sig: Record<string, unknown> = { [SchedulerNameSignerName]: pod.spec?.schedulerName ?? "" };
    for (const pl of this.batchablePlugins) {
      const { fragments, status } = pl.signPod(pod);
      if (status !== null && !status.isSuccess()) {
        if (status.code === Code.Error) {
          this.loggerImpl.error("SignPod failed for plugin", { err: status.asError(), plugin: pl.name() });
        }
        return null;
      }
      for (const f of fragments) sig[f.key] = f.value;
    }
    // Keys sorted, as Go marshals a map.
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(sig).sort()) sorted[k] = sig[k];
    return JSON.stringify(sorted);
  }

  /** A node hint for `pod` from the previous cycles (upstream GetNodeHint), or "". */
  getNodeHint(pod: Pod, signature: string | null, state: CycleState, cycleCount: number): string {
    return (this.batch as OpportunisticBatch).getNodeHint(pod, signature, state, cycleCount);
  }

  /** Keeps a cycle's results for the next pods with the same signature (upstream StoreScheduleResults). */
  storeScheduleResults(
    signature: string | null,
    hintedNode: string,
    chosenNode: string,
    otherNodes: SortedScoredNodes | null,
    cycleCount: number,
  ): void {
    (this.batch as OpportunisticBatch).storeScheduleResults(
      signature,
      hintedNode,
      chosenNode,
      otherNodes,
      cycleCount,
    );
  }

  /**
   * The raw Score of every Score plugin PreScore did not skip on one node (upstream
   * RunRawScorePlugins, for batching's rescoring).
   */
  runRawScorePlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): RawNodeScores | Status {
    const plugins: string[] = [];
    const scores: number[] = [];
    for (const pl of this.score) {
      if (state.skipScorePlugins.has(pl.name())) continue;
      const r = pl.score(state, pod, nodeInfo);
      if (typeof r !== "number" && !r.isSuccess()) {
        return wrapError(`running Score plugins: plugin "${pl.name()}" failed with: ${errMessage(r)}`);
      }
      plugins.push(pl.name());
      scores.push(typeof r === "number" ? r : 0);
    }
    return { plugins, scores: Float64Array.from(scores) };
  }

  /**
   * NormalizeScore of every Score plugin over the candidates' raw scores, range check and
   * weights: each candidate's total (upstream NormalizeScores, for batching's rescoring).
   */
  normalizeScores(
    state: CycleState,
    pod: Pod,
    plugins: readonly string[],
    candidates: readonly ScoredCandidate[],
  ): Status | null {
    for (const c of candidates) c.total = 0;
    for (let p = 0; p < plugins.length; p++) {
      const name = plugins[p] as string;
      const pl = this.score.find((s) => s.name() === name);
      const list: NodeScore[] = candidates.map((c) => ({ name: c.name, score: c.raw[p] as number }));
      const ext = pl?.scoreExtensions();
      if (ext) {
        const s = ext.normalizeScore(state, pod, list);
        if (s && !s.isSuccess()) {
          return wrapError(
            `running Normalize on Score plugins: plugin "${name}" failed with: ${errMessage(s)}`,
          );
        }
      }
      const w = this.scorePluginWeight.get(name) ?? 0;
      for (let n = 0; n < candidates.length; n++) {
        const score = (list[n] as NodeScore).score;
        if (score > MaxNodeScore || score < MinNodeScore) {
          return wrapError(
            `applying score defaultWeights on Score plugins: plugin "${name}" returns an invalid score ${score}, it should in the range of [${MinNodeScore}, ${MaxNodeScore}] after normalizing`,
          );
        }
        (candidates[n] as ScoredCandidate).total += score * w;
      }
    }
    return null;
  }

  /** What opportunistic batching did in this profile (upstream's batch metrics). */
  batchStats(): Readonly<BatchStats> {
    return (this.batch as OpportunisticBatch).stats;
  }

  /** Every plugin of the lists wrapped for the observer (upstream's instrumented plugins). */
  private instrument(observer: SchedulingObserver): void {
    const lists: PluginLists = {
      preFilter: this.preFilter,
      filter: this.filter,
      postFilter: this.postFilter,
      preScore: this.preScore,
      score: this.score,
      reserve: this.reserve,
      permit: this.permit,
      preBind: this.preBind,
      bind: this.bind,
      postBind: this.postBind,
    };
    const wrapped = instrumentPlugins(lists, observer, (name) => this.scoreWeight(name));
    for (const key of Object.keys(wrapped) as (keyof PluginLists)[]) this.setList(key, wrapped[key]);
  }

  private defaultArgs(d: PluginDescriptor): unknown {
    if (!d.args) return undefined;
    const { args, errors } = d.args.decode(undefined, "", this.featuresImpl);
    if (errors.length > 0) {
      throw new Error(`initializing plugin "${d.name}": default args are invalid: ${errors.length} error(s)`);
    }
    return args;
  }

  private fillEnqueueExtensions(p: Plugin): void {
    // Only PreEnqueue, PreFilter, Filter, Reserve and Permit plugins can reject a pod.
    if (
      !isPreEnqueuePlugin(p) &&
      !isPreFilterPlugin(p) &&
      !isFilterPlugin(p) &&
      !isReservePlugin(p) &&
      !isPermitPlugin(p)
    ) {
      return;
    }
    this.enqueueExtensionList.push(isEnqueueExtensions(p) ? p : defaultEnqueueExtension(p.name()));
  }

  private list(key: ExtensionPointName): Plugin[] {
    return this[key] as Plugin[];
  }

  private setList(key: ExtensionPointName, plugins: Plugin[]): void {
    (this as unknown as Record<ExtensionPointName, Plugin[]>)[key] = plugins;
  }

  private updatePluginList(pt: PointSpec, set: PluginSet): void {
    const seen = new Set<string>();
    const out = this.list(pt.key);
    for (const e of set.enabled) {
      const pg = this.pluginsMap.get(e.name);
      if (!pg) throw new Error(`${pt.iface} "${e.name}" does not exist`);
      if (!pt.is(pg)) throw new Error(`plugin "${e.name}" does not extend ${pt.iface} plugin`);
      if (seen.has(e.name)) throw new Error(`plugin "${e.name}" already registered as "${pt.iface}"`);
      seen.add(e.name);
      out.push(pg);
    }
  }

  private expandMultiPointPlugins(plugins: Plugins): void {
    for (const pt of extensionPoints) {
      const set = plugins[pt.key];
      const enabled: string[] = [];
      for (const e of set.enabled) if (!enabled.includes(e.name)) enabled.push(e.name);
      const disabled = new Set(set.disabled.map((d) => d.name));
      if (disabled.has("*")) continue;

      const multiPointEnabled: string[] = [];
      const overridePlugins = new Set<string>();
      for (const ep of plugins.multiPoint.enabled) {
        const pg = this.pluginsMap.get(ep.name);
        if (!pg) throw new Error(`${pt.iface} "${ep.name}" does not exist`);
        if (!pt.is(pg)) continue;
        if (disabled.has(ep.name)) continue;
        if (enabled.includes(ep.name)) {
          // The specific point's entry overrides the multiPoint one.
          overridePlugins.add(ep.name);
          continue;
        }
        if (multiPointEnabled.includes(ep.name)) {
          throw new Error(`plugin "${ep.name}" already registered as "${pt.iface}"`);
        }
        multiPointEnabled.push(ep.name);
      }

      // Order: overridden plugins (in the point's order), multiPoint plugins, the rest of the point's.
      const ordered: string[] = [];
      for (const n of enabled) if (overridePlugins.has(n)) ordered.push(n);
      ordered.push(...multiPointEnabled);
      for (const n of enabled) if (!overridePlugins.has(n)) ordered.push(n);
      this.setList(
        pt.key,
        ordered.map((n) => this.pluginsMap.get(n) as Plugin),
      );
    }
  }

  private setScoreWeights(entries: readonly PluginEntry[]): void {
    let totalPriority = 0;
    for (const e of entries) {
      const pg = this.pluginsMap.get(e.name);
      if (!pg || !isScorePlugin(pg)) continue;
      // A specific Score entry comes first and wins over the multiPoint one.
      if (this.scorePluginWeight.has(e.name)) continue;
      const w = e.weight ? e.weight : 1;
      this.scorePluginWeight.set(e.name, w);
      if (w * MaxNodeScore > MaxTotalScore - totalPriority) {
        throw new Error("total score of Score plugins could overflow");
      }
      totalPriority += w * MaxNodeScore;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Profile information

  profileName(): string {
    return this.profileNameValue;
  }

  percentageOfNodesToScore(): number | null {
    return this.percentageOfNodesToScoreValue;
  }

  queueSortFunc(): (a: QueuedPodInfo, b: QueuedPodInfo) => boolean {
    const pl = this.queueSort[0];
    if (!pl) throw new Error("No QueueSort plugin is registered in the frameworkImpl.");
    return (a, b) => pl.less(a, b);
  }

  preEnqueuePlugins(): PreEnqueuePlugin[] {
    return this.preEnqueue;
  }

  /** Registered events per plugin that can reject pods (plus "Extender" with extenders). */
  enqueueExtensions(): PluginEvents[] {
    return this.enqueueExtensionList.map((e) => ({ pluginName: e.name(), events: e.eventsToRegister() }));
  }

  /** The plugins of each non-empty extension point; weights on Score plugins only (upstream ListPlugins). */
  listPlugins(): Partial<Record<ExtensionPointName, PluginEntry[]>> {
    const out: Partial<Record<ExtensionPointName, PluginEntry[]>> = {};
    for (const pt of extensionPoints) {
      const l = this.list(pt.key);
      if (l.length === 0) continue;
      out[pt.key] = l.map((p) =>
        pt.key === "score"
          ? { name: p.name(), weight: this.scorePluginWeight.get(p.name()) ?? 0 }
          : { name: p.name() },
      );
    }
    return out;
  }

  hasFilterPlugins(): boolean {
    return this.filter.length > 0;
  }

  hasPostFilterPlugins(): boolean {
    return this.postFilter.length > 0;
  }

  /** Whether the named plugin runs at PostFilter in this profile. */
  hasPostFilterPlugin(name: string): boolean {
    return this.postFilter.some((pl) => pl.name() === name);
  }

  hasScorePlugins(): boolean {
    return this.score.length > 0;
  }

  /** The weight of a Score plugin (0 when it is not one). */
  scoreWeight(pluginName: string): number {
    return this.scorePluginWeight.get(pluginName) ?? 0;
  }

  plugin(name: string): Plugin | undefined {
    return this.pluginsMap.get(name);
  }

  parallelizer(): Parallelizer {
    return this.parallelizerImpl;
  }

  // ---------------------------------------------------------------------------------------------
  // Late wiring, as upstream SetPodNominator/SetPodActivator: the queue that implements both is
  // built from the profiles' PreEnqueue plugins and queueing hints, so it exists only after them.

  setNominator(n: PodNominator): void {
    this.nominatorImpl = n;
  }

  setActivator(a: PodActivator): void {
    this.activatorImpl = a;
  }

  private nominator(): PodNominator {
    if (!this.nominatorImpl) {
      throw new Error(`framework "${this.profileNameValue}": the pod nominator is used before it was set`);
    }
    return this.nominatorImpl;
  }

  // ---------------------------------------------------------------------------------------------
  // Handle

  snapshotSharedLister(): SharedLister {
    return this.snapshotLister;
  }

  listers(): ClusterListers {
    return this.opts.listers;
  }

  sharedDRAManager(): SharedDRAManager | null {
    return this.opts.sharedDRAManager ?? null;
  }

  client(): ClusterClient {
    return this.opts.client;
  }

  eventRecorder(): EventRecorder {
    return this.opts.eventRecorder;
  }

  extenders(): readonly Extender[] {
    return this.opts.extenders ?? [];
  }

  clock(): Clock {
    return this.clockImpl;
  }

  rand(): Random {
    return this.randImpl;
  }

  features(): Features {
    return this.featuresImpl;
  }

  kubernetesVersion(): string {
    return this.kubernetesVersionImpl;
  }

  logger(): Logger {
    return this.loggerImpl;
  }

  pluginMetrics(): PluginMetrics {
    return this.pluginMetricsImpl;
  }

  addNominatedPod(pod: PodInfo, nominatingInfo: NominatingInfo | null): void {
    this.nominator().addNominatedPod(pod, nominatingInfo);
  }

  deleteNominatedPodIfExists(pod: Pod): void {
    this.nominator().deleteNominatedPodIfExists(pod);
  }

  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void {
    this.nominator().updateNominatedPod(oldPod, newPodInfo);
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.nominator().nominatedPodsForNode(nodeName);
  }

  activate(pods: Map<string, Pod>): void {
    if (!this.activatorImpl) {
      throw new Error(`framework "${this.profileNameValue}": the pod activator is used before it was set`);
    }
    this.activatorImpl.activate(pods);
  }

  iterateOverWaitingPods(callback: (wp: WaitingPod) => void): void {
    this.waitingPods.iterate(callback);
  }

  getWaitingPod(uid: string): WaitingPod | undefined {
    return this.waitingPods.get(uid);
  }

  rejectWaitingPod(uid: string): boolean {
    const wp = this.waitingPods.get(uid);
    if (!wp) return false;
    wp.reject("", "removed");
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // PreFilter

  /** The cycle snapshot's columns, when it has them (the scheduler cache's Snapshot does). */
  private columns(): NodeColumns | null {
    const lister = this.snapshotLister.nodeInfos();
    return columnarNodeInfos(lister)?.columns() ?? null;
  }

  /**
   * Runs PreFilter plugins (upstream RunPreFilterPlugins): Skip marks the plugin's Filter as
   * skipped; Unschedulable continues (preemption needs every PreFilter state), any other
   * rejection stops; results are intersected, and an empty intersection rejects every node.
   */
  runPreFilterPlugins(state: CycleState, pod: Pod): PreFilterOutput {
    const skipPlugins = new Set<string>();
    state.skipFilterPlugins = skipPlugins;
    const nodes = this.snapshotLister.nodeInfos().list();
    let result: PreFilterResult | null = null;
    const pluginsWithNodes = new Set<string>();
    let returnStatus: Status | null = null;
    for (const pl of this.preFilter) {
      const name = pl.name();
      const r = pl.preFilter(state, pod, nodes);
      let s: Status | null = null;
      let res: PreFilterResult | null = null;
      if (isStatus(r)) s = r;
      else res = r;
      if (s?.isSkip()) {
        skipPlugins.add(name);
        continue;
      }
      if (s && !s.isSuccess()) {
        s.withPlugin(name);
        if (s.code === Code.UnschedulableAndUnresolvable) {
          return { result: null, status: s, unschedulablePlugins: new Set() };
        }
        if (s.code === Code.Unschedulable) {
          returnStatus = s;
          continue;
        }
        return {
          result: null,
          status: wrapError(`running PreFilter plugin "${name}": ${errMessage(s)}`).withPlugin(name),
          unschedulablePlugins: new Set(),
        };
      }
      if (!allNodes(res)) pluginsWithNodes.add(name);
      result = mergePreFilterResult(result, res);
      if (!allNodes(result) && result?.nodeNames?.size === 0) {
        const names = [...pluginsWithNodes].sort();
        const msg =
          names.length === 1
            ? `node(s) didn't satisfy plugin ${names[0]}`
            : `node(s) didn't satisfy plugin(s) [${names.join(" ")}] simultaneously`;
        return {
          result,
          status: new Status(Code.UnschedulableAndUnresolvable, msg),
          unschedulablePlugins: pluginsWithNodes,
        };
      }
    }
    return { result, status: returnStatus, unschedulablePlugins: pluginsWithNodes };
  }

  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    return this.runPreFilterExtension("AddPod", state, podToSchedule, podInfoToAdd, nodeInfo);
  }

  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    return this.runPreFilterExtension("RemovePod", state, podToSchedule, podInfoToRemove, nodeInfo);
  }

  /** AddPod or RemovePod of every PreFilter plugin not skipped this cycle, stopping at a failure. */
  private runPreFilterExtension(
    op: "AddPod" | "RemovePod",
    state: CycleState,
    podToSchedule: Pod,
    podInfo: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    const active = this.activePreFilterExtensions(state.skipFilterPlugins);
    for (let i = 0; i < active.length; i++) {
      const { plugin, ext } = active[i] as ActivePreFilterExtension;
      const s =
        op === "AddPod"
          ? ext.addPod(state, podToSchedule, podInfo, nodeInfo)
          : ext.removePod(state, podToSchedule, podInfo, nodeInfo);
      if (s && !s.isSuccess()) {
        return wrapError(`running ${op} on PreFilter plugin "${plugin.name()}": ${errMessage(s)}`);
      }
    }
    return null;
  }

  // The PreFilter extensions of the plugins not skipped, asked once per skip set (once per cycle:
  // clones of the cycle's state share its set) instead of at every AddPod/RemovePod, which a
  // preemption dry run calls for every pod of every candidate node.
  private extSkipSeen: ReadonlySet<string> | null = null;
  private extSkipSize = -1;
  private activeExtensions: readonly ActivePreFilterExtension[] = [];

  private activePreFilterExtensions(skip: ReadonlySet<string>): readonly ActivePreFilterExtension[] {
    if (skip === this.extSkipSeen && skip.size === this.extSkipSize) return this.activeExtensions;
    const active: ActivePreFilterExtension[] = [];
    for (const plugin of this.preFilter) {
      const ext = plugin.preFilterExtensions();
      if (ext && !skip.has(plugin.name())) active.push({ plugin, ext });
    }
    this.activeExtensions = active;
    this.extSkipSeen = skip;
    this.extSkipSize = skip.size;
    return active;
  }

  // ---------------------------------------------------------------------------------------------
  // Filter

  /**
   * Runs Filter plugins on one node until the first that does not succeed (upstream
   * RunFilterPlugins). The status carries the plugin's name; a non-rejection becomes an Error.
   */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    const plugins = this.activeFilterPlugins(state.skipFilterPlugins);
    for (let i = 0; i < plugins.length; i++) {
      const pl = plugins[i] as FilterPlugin;
      const s = pl.filter(state, pod, nodeInfo);
      if (s !== null && s.code !== Code.Success) return filterFailure(pl.name(), s);
    }
    return null;
  }

  // The Filter plugins not skipped by PreFilter, computed once per skip set (once per cycle,
  // and once per cloned state) instead of a set lookup per plugin per node.
  private skipSetSeen: ReadonlySet<string> | null = null;
  private skipSetSize = -1;
  private activeFilter: readonly FilterPlugin[] = [];
  /** Per plugin of activeFilter: whether it is a ColumnarFilterPlugin (checked once, not per window). */
  private activeFilterColumnar: readonly boolean[] = [];

  private activeFilterPlugins(skip: ReadonlySet<string>): readonly FilterPlugin[] {
    if (skip === this.skipSetSeen && skip.size === this.skipSetSize) return this.activeFilter;
    this.activeFilter = skip.size === 0 ? this.filter : this.filter.filter((pl) => !skip.has(pl.name()));
    this.activeFilterColumnar = this.activeFilter.map(isColumnarFilterPlugin);
    this.skipSetSeen = skip;
    this.skipSetSize = skip.size;
    return this.activeFilter;
  }

  // Per column, 1 when the node has nominated pods during one runFilterPluginsOnNodes call (all 0
  // between calls), and the columns set.
  private nominatedMarks = new Uint8Array(0);
  private readonly nominatedMarked: number[] = [];

  /**
   * Marks the columns of the nodes some pod is nominated to, when the nominator can list them;
   * null otherwise (the caller then asks per node). Nodes not in the columns are not marked:
   * they run per node anyway.
   */
  private markNominatedColumns(cols: NodeColumns): Uint8Array | null {
    const names = this.nominatorImpl?.nominatedNodeNames?.();
    if (names === undefined) return null;
    // Marks left by a call that threw.
    if (this.nominatedMarked.length > 0) this.clearNominatedMarks(this.nominatedMarks);
    if (this.nominatedMarks.length < cols.size) this.nominatedMarks = new Uint8Array(cols.size);
    const marks = this.nominatedMarks;
    const lister = this.snapshotLister.nodeInfos();
    for (const name of names) {
      const ni = lister.get(name);
      if (ni === undefined) continue;
      const idx = cols.indexOf(ni);
      if (idx < 0 || marks[idx] === 1) continue;
      marks[idx] = 1;
      this.nominatedMarked.push(idx);
    }
    return marks;
  }

  private clearNominatedMarks(marks: Uint8Array): void {
    const marked = this.nominatedMarked;
    for (let k = 0; k < marked.length; k++) marks[marked[k] as number] = 0;
    marked.length = 0;
  }

  private readonly filterWindow = new FilterWindow();
  private readonly feasibleIndex = new FeasibleIndex();
  /** The window each columnar method gets (Filter, PreScore, Score and NormalizeScore calls). */
  private readonly columnWindow = new ReusedColumnWindow();

  /**
   * Filter (with nominated pods) on `nodes[(start + i) % nodes.length]` for i = 0, 1, ... until
   * `numToFind` nodes passed, a node's Filter errored, or every node was tried: the loop of
   * upstream findNodesThatPassFilters, in node order. Passing nodes are returned in that order;
   * rejected ones are recorded in `diagnosis` (status and plugin). With the snapshot's columns,
   * Filter runs over windows of nodes in three steps each: window selection (the next nodes from
   * the rotating start; those with nominated pods run per node, two passes as upstream
   * RunFilterPluginsWithNominatedPods), the plugin pass (plugin by plugin over the nodes every
   * earlier plugin passed: a columnar plugin's `filterColumns` once, the others node by node) and
   * result assembly (in node order up to the early stop: what the per-node loop returns, with the
   * same statuses).
   */
  runFilterPluginsOnNodes(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
    start: number,
    numToFind: number,
    diagnosis: Diagnosis,
  ): { feasible: NodeInfo[]; error: Error | null } {
    this.feasibleIndex.reset();
    const numAll = nodes.length;
    const cols = numAll > 0 ? this.columns() : null;
    if (cols === null) return this.filterNodeByNode(state, pod, nodes, start, numToFind, diagnosis);
    const plugins = this.activeFilterPlugins(state.skipFilterPlugins);
    const checkNominated = this.nominatorImpl?.hasNominatedPods?.() ?? true;
    const run: FilterRun = {
      state,
      pod,
      nodes,
      cols,
      plugins,
      columnar: this.activeFilterColumnar,
      diagnosis,
      checkNominated,
      // The columns of the nodes with nominated pods, marked once (a few nodes) rather than a
      // nominator lookup per node; null: ask node by node.
      nominatedMarks: checkNominated ? this.markNominatedColumns(cols) : null,
      // At most numToFind pass: one array of that size (set and trimmed, not grown by push).
      feasible: new Array(Math.max(0, Math.min(numToFind, numAll))),
      numToFind,
      numFeasible: 0,
      allIndexed: true,
      rejectedBy: new Array(plugins.length).fill(null),
      lastRecorded: null,
      error: null,
    };
    for (let i = 0; i < numAll && run.numFeasible < numToFind; ) {
      const chunk = Math.min(
        numAll - i,
        Math.max(numToFind - run.numFeasible, minFilterChunk),
        this.filterWindowMax,
      );
      const first = (start + i) % numAll;
      const numAlive = this.selectFilterWindow(run, first, chunk);
      this.runFilterWindow(run, numAlive);
      if (this.assembleFilterWindow(run, first, chunk)) break;
      i += chunk;
    }
    const { feasible, numFeasible } = run;
    feasible.length = numFeasible;
    if (run.nominatedMarks !== null) this.clearNominatedMarks(run.nominatedMarks);
    if (run.allIndexed) {
      this.feasibleIndex.nodes = feasible;
      this.feasibleIndex.count = numFeasible;
    }
    return { feasible, error: run.error };
  }

  /** runFilterPluginsOnNodes without columns: node by node. */
  private filterNodeByNode(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
    start: number,
    numToFind: number,
    diagnosis: Diagnosis,
  ): { feasible: NodeInfo[]; error: Error | null } {
    const numAll = nodes.length;
    const feasible: NodeInfo[] = [];
    for (let i = 0; i < numAll && feasible.length < numToFind; i++) {
      const ni = nodes[(start + i) % numAll] as NodeInfo;
      const st = this.runFilterPluginsWithNominatedPods(state, pod, ni);
      if (st === null || st.code === Code.Success) {
        feasible.push(ni);
      } else if (st.code === Code.Error) {
        return { feasible, error: st.asError() };
      } else {
        diagnosis.nodeToStatus.set(ni.nodeName, st);
        diagnosis.addPluginStatus(st);
      }
    }
    return { feasible, error: null };
  }

  /**
   * Window selection: the `chunk` nodes from `nodes[first]` (wrapping) with their column indices;
   * those with nominated pods, or without a column, are set to run per node (failAt -1). Returns
   * how many run plugin by plugin (their column indices and window positions in alive/aliveK).
   */
  private selectFilterWindow(run: FilterRun, first: number, chunk: number): number {
    const { nodes, cols, checkNominated, nominatedMarks } = run;
    const numAll = nodes.length;
    const np = run.plugins.length;
    const direct = nodes === cols.nodeInfos;
    const w = this.filterWindow;
    w.ensure(chunk);
    const { colIdx, failAt, alive, aliveK } = w;
    let numAlive = 0;
    let pos = first;
    for (let k = 0; k < chunk; k++) {
      const ni = nodes[pos] as NodeInfo;
      const idx = direct ? pos : cols.indexOf(ni);
      colIdx[k] = idx;
      failAt[k] = np;
      if (
        idx < 0 ||
        (checkNominated &&
          (nominatedMarks !== null
            ? nominatedMarks[idx] === 1
            : this.nominatedPodsForNode(ni.nodeName).length > 0))
      ) {
        failAt[k] = -1; // per node
      } else {
        alive[numAlive] = idx;
        aliveK[numAlive] = k;
        numAlive++;
      }
      pos = pos + 1 === numAll ? 0 : pos + 1;
    }
    return numAlive;
  }

  /**
   * Plugin pass: plugin by plugin over the window's nodes every earlier plugin passed. A rejected
   * node records the plugin (failAt) and, unless the plugin returned the same status object for
   * the node rejected before it in the window, the status the runtime reports.
   */
  private runFilterWindow(run: FilterRun, numAlive: number): void {
    const { state, pod, cols, plugins, columnar } = run;
    const w = this.filterWindow;
    const { failAt, alive, aliveK, out } = w;
    for (let p = 0; p < plugins.length && numAlive > 0; p++) {
      const pl = plugins[p] as FilterPlugin;
      const window = this.columnWindow.at(cols, alive, numAlive);
      if (columnar[p] === true) {
        (pl as ColumnarFilterPlugin).filterColumns(state, pod, window, out);
      } else {
        filterEach(pl, state, pod, window, out);
      }
      // Drop the rejected nodes (nothing to move while every node passes).
      let j = 0;
      while (j < numAlive) {
        const s = out[j] ?? null;
        if (s !== null && s.code !== Code.Success) break;
        j++;
      }
      let m = j;
      // A status object the plugin returned for several nodes in a row is reported once: the
      // first of them carries it, the others (status left null) take the status of the node
      // this plugin rejected before them (assembleFilterWindow).
      let last: Status | null = null;
      for (; j < numAlive; j++) {
        const s = out[j] ?? null;
        if (s !== null && s.code !== Code.Success) {
          const k = aliveK[j] as number;
          failAt[k] = p;
          if (s !== last) {
            last = s;
            w.status[k] = filterFailure(pl.name(), s);
          }
        } else {
          alive[m] = alive[j] as number;
          aliveK[m] = aliveK[j] as number;
          m++;
        }
      }
      numAlive = m;
    }
  }

  /**
   * Result assembly: the window's nodes in order, up to the early stop (numToFind feasible nodes,
   * or an error): feasible ones appended, rejected ones' statuses recorded in the diagnosis (a
   * status object shared by nodes adds its plugin once), the per-node ones filtered now. True
   * when the call stops.
   */
  private assembleFilterWindow(run: FilterRun, first: number, chunk: number): boolean {
    const { state, pod, nodes, diagnosis, feasible, rejectedBy } = run;
    const numAll = nodes.length;
    const np = run.plugins.length;
    const w = this.filterWindow;
    const { colIdx, failAt } = w;
    let pos = first;
    for (let k = 0; k < chunk; k++) {
      const ni = nodes[pos] as NodeInfo;
      pos = pos + 1 === numAll ? 0 : pos + 1;
      const f = failAt[k] as number;
      let st: Status | null = null;
      if (f < 0) {
        st = this.runFilterPluginsWithNominatedPods(state, pod, ni);
      } else if (f < np) {
        st = w.status[k] ?? null;
        if (st !== null) {
          w.status[k] = null;
          rejectedBy[f] = st;
        } else {
          st = rejectedBy[f] ?? null;
        }
      }
      if (st === null || st.code === Code.Success) {
        const idx = colIdx[k] as number;
        if (idx < 0) run.allIndexed = false;
        this.feasibleIndex.push(run.numFeasible, idx);
        feasible[run.numFeasible++] = ni;
        if (run.numFeasible >= run.numToFind) {
          w.clearFrom(k + 1, chunk);
          return true;
        }
      } else if (st.code === Code.Error) {
        run.error = st.asError();
        w.clearFrom(k + 1, chunk);
        return true;
      } else {
        // Each node once per call: recorded without a map insertion until read.
        diagnosis.nodeToStatus.setNew(ni, st);
        if (st !== run.lastRecorded) {
          diagnosis.addPluginStatus(st);
          run.lastRecorded = st;
        }
      }
    }
    return false;
  }

  /**
   * Filter with the pods nominated to the node of equal or higher priority added (first pass)
   * and, when that passes and some were added, without them (upstream
   * RunFilterPluginsWithNominatedPods).
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, info: NodeInfo): Status | null {
    // Most nodes have no nominated pods: one pass, nothing to clone.
    if (this.nominatedPodsForNode(info.nodeName).length === 0) return this.runFilterPlugins(state, pod, info);
    let status: Status | null = null;
    let podsAdded = false;
    for (let i = 0; i < 2; i++) {
      let stateToUse = state;
      let nodeInfoToUse = info;
      if (i === 0) {
        const added = this.addGENominatedPods(pod, state, info);
        if (added.error) return added.error;
        podsAdded = added.podsAdded;
        stateToUse = added.state;
        nodeInfoToUse = added.nodeInfo;
      } else if (!podsAdded || (status !== null && !status.isSuccess())) {
        break;
      }
      status = this.runFilterPlugins(stateToUse, pod, nodeInfoToUse);
      if (status !== null && !status.isSuccess() && !status.isRejected()) return status;
    }
    return status;
  }

  /**
   * A copy of the state and node with the pods nominated to the node of equal or higher priority
   * added (upstream addGENominatedPods); the inputs themselves when there are none. For the
   * runtime's own passes (RunFilterPluginsWithNominatedPods and the diagnostic pass).
   * @internal
   */
  addGENominatedPods(
    pod: Pod,
    state: CycleState,
    nodeInfo: NodeInfo,
  ): { podsAdded: boolean; state: CycleState; nodeInfo: NodeInfo; error: Status | null } {
    const nominated = this.nominatedPodsForNode(nodeInfo.nodeName);
    if (nominated.length === 0) return { podsAdded: false, state, nodeInfo, error: null };
    const nodeInfoOut = nodeInfo.snapshot();
    const stateOut = state.clone();
    let podsAdded = false;
    const prio = podPriority(pod);
    const uid = podUID(pod);
    for (const pi of nominated) {
      if (podPriority(pi.pod) >= prio && podUID(pi.pod) !== uid) {
        nodeInfoOut.addPodInfo(pi);
        const s = this.runPreFilterExtensionAddPod(stateOut, pod, pi, nodeInfoOut);
        if (s !== null && !s.isSuccess()) {
          return { podsAdded: false, state, nodeInfo, error: wrapError(errMessage(s)) };
        }
        podsAdded = true;
      }
    }
    return { podsAdded, state: stateOut, nodeInfo: nodeInfoOut, error: null };
  }

  // ---------------------------------------------------------------------------------------------
  // PostFilter

  /**
   * Runs PostFilter plugins until one succeeds, returns UnschedulableAndUnresolvable or fails
   * (upstream RunPostFilterPlugins); otherwise Unschedulable with every plugin's reasons.
   */
  async runPostFilterPlugins(
    state: CycleState,
    pod: Pod,
    nodeToStatus: NodeToStatus,
  ): Promise<PostFilterOutput> {
    // Awaited here (not returned) so that the binding cycles in flight see the same turns of the
    // event loop as they always have: simulations interleave by them.
    const out = await this.runPostFilter(state, pod, nodeToStatus);
    return out;
  }

  private async runPostFilter(
    state: CycleState,
    pod: Pod,
    nodeToStatus: NodeToStatus,
  ): Promise<PostFilterOutput> {
    let result: PostFilterResult | null = null;
    const reasons: string[] = [];
    let rejectorPlugin = "";
    for (const pl of this.postFilter) {
      const name = pl.name();
      const { result: r, status: s } = await pl.postFilter(state, pod, nodeToStatus);
      if (s === null || s.isSuccess()) return { result: r, status: s };
      if (s.code === Code.UnschedulableAndUnresolvable) return { result: r, status: s.withPlugin(name) };
      if (!s.isRejected()) return { result: null, status: wrapError(errMessage(s)).withPlugin(name) };
      if (r?.nominatingInfo && r.nominatingInfo.nominatingMode !== NominatingMode.Noop) result = r;
      reasons.push(...s.getReasons());
      if (!rejectorPlugin) rejectorPlugin = name;
    }
    return { result, status: new Status(Code.Unschedulable, ...reasons).withPlugin(rejectorPlugin) };
  }

  // ---------------------------------------------------------------------------------------------
  // PreScore and Score

  /** Runs PreScore plugins; Skip marks the plugin's Score as skipped (upstream RunPreScorePlugins). */
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null {
    const skipPlugins = new Set<string>();
    state.skipScorePlugins = skipPlugins;
    let cols: NodeColumns | null | undefined;
    for (const pl of this.preScore) {
      const name = pl.name();
      let s: Status | null;
      if (isColumnarPreScorePlugin(pl)) {
        // The nodes' column indices (in scoreRows.indices), found once for the columnar plugins.
        if (cols === undefined) {
          this.scoreRows.ensure(0, nodes.length);
          cols = this.columnIndicesOf(nodes);
        }
        s =
          cols === null
            ? pl.preScore(state, pod, nodes)
            : pl.preScoreColumns(
                state,
                pod,
                this.columnWindow.at(cols, this.scoreRows.indices, nodes.length),
              );
      } else {
        s = pl.preScore(state, pod, nodes);
      }
      if (s?.isSkip()) {
        skipPlugins.add(name);
        continue;
      }
      if (s && !s.isSuccess()) return wrapError(`running PreScore plugin "${name}": ${errMessage(s)}`);
    }
    return null;
  }

  /**
   * Score on every node for every non-skipped Score plugin, NormalizeScore per plugin, range
   * check, weights and totals (upstream RunScorePlugins).
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreOutput {
    const out = this.runScorePluginsOnNodes(state, pod, nodes);
    return { scores: out.status === null ? out.list() : [], status: out.status };
  }

  private readonly scoreRows = new ScoreRows();
  private scoreCall = 0;

  private scoreFailure(status: Status): NodeScoresOutput {
    return new ScoreFailure(status, this.scoreRows.totals);
  }

  /**
   * runScorePlugins with the totals in a typed array, the per-plugin lists built only when
   * asked for: columnar Score plugins score every node at once over the snapshot's columns, the
   * others node by node; normalization, checks and weights as upstream's.
   */
  runScorePluginsOnNodes(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
    keepRawScores = false,
  ): NodeScoresOutput {
    const plugins: ScorePlugin[] = [];
    for (const pl of this.score) if (!state.skipScorePlugins.has(pl.name())) plugins.push(pl);
    const np = plugins.length;
    const numNodes = nodes.length;
    const rows = this.scoreRows;
    rows.ensure(np, numNodes);
    const call = ++this.scoreCall;
    const buf = rows.rows;
    const cols = np > 0 ? this.columnIndicesOf(nodes) : null;
    const window = cols === null ? null : this.columnWindow.at(cols, rows.indices, numNodes);

    for (let p = 0; p < np; p++) {
      const pl = plugins[p] as ScorePlugin;
      const row = buf[p] as Float64Array;
      if (window !== null && isColumnarScorePlugin(pl)) {
        const s = pl.scoreColumns(state, pod, window, row);
        if (s !== null && !s.isSuccess()) {
          return this.scoreFailure(
            wrapError(`running Score plugins: plugin "${pl.name()}" failed with: ${errMessage(s)}`),
          );
        }
        continue;
      }
      for (let n = 0; n < numNodes; n++) {
        const r = pl.score(state, pod, nodes[n] as NodeInfo);
        let score = 0;
        if (typeof r === "number") {
          score = r;
        } else if (!r.isSuccess()) {
          return this.scoreFailure(
            wrapError(`running Score plugins: plugin "${pl.name()}" failed with: ${errMessage(r)}`),
          );
        }
        row[n] = score;
      }
    }

    // Opportunistic batching keeps the raw scores to normalize again when it rescores a node.
    const raw = keepRawScores ? buf.slice(0, np).map((row) => row.slice(0, numNodes)) : null;
    for (let p = 0; p < np; p++) {
      const pl = plugins[p] as ScorePlugin;
      const ext = pl.scoreExtensions();
      if (!ext) continue;
      const row = buf[p] as Float64Array;
      let s: Status | null;
      if (window !== null && isColumnarScorePlugin(pl) && isColumnarScoreExtensions(ext)) {
        s = ext.normalizeScoreColumns(state, pod, window, row);
      } else {
        // A fresh list per plugin per cycle, as upstream: the plugin may keep it.
        const list: NodeScore[] = new Array(numNodes);
        for (let n = 0; n < numNodes; n++)
          list[n] = { name: (nodes[n] as NodeInfo).nodeName, score: row[n]! };
        s = ext.normalizeScore(state, pod, list);
        for (let n = 0; n < numNodes; n++) row[n] = (list[n] as NodeScore).score;
      }
      if (s && !s.isSuccess()) {
        return this.scoreFailure(
          wrapError(
            `running Normalize on Score plugins: plugin "${pl.name()}" failed with: ${errMessage(s)}`,
          ),
        );
      }
    }

    const weights = new Float64Array(np);
    for (let p = 0; p < np; p++)
      weights[p] = this.scorePluginWeight.get((plugins[p] as ScorePlugin).name()) ?? 0;
    // Plugin by plugin (the additions per node in plugin order, as node by node would do them).
    const totals = rows.totals;
    totals.fill(0, 0, numNodes);
    for (let p = 0; p < np; p++) {
      const w = weights[p] as number;
      const row = buf[p] as Float64Array;
      for (let n = 0; n < numNodes; n++) {
        const score = row[n] as number;
        if (score > MaxNodeScore || score < MinNodeScore) return this.invalidScore(plugins, buf, numNodes);
        totals[n] = (totals[n] as number) + score * w;
      }
    }
    return new ScoredNodes(this, call, plugins, weights, nodes, buf, totals, raw);
  }

  /** A score out of range: the first in upstream's order (node by node, plugin by plugin). */
  private invalidScore(
    plugins: readonly ScorePlugin[],
    buf: readonly Float64Array[],
    numNodes: number,
  ): NodeScoresOutput {
    for (let n = 0; n < numNodes; n++) {
      for (let p = 0; p < plugins.length; p++) {
        const score = (buf[p] as Float64Array)[n] as number;
        if (score <= MaxNodeScore && score >= MinNodeScore) continue;
        return this.scoreFailure(
          wrapError(
            `applying score defaultWeights on Score plugins: plugin "${(plugins[p] as ScorePlugin).name()}" returns an invalid score ${score}, it should in the range of [${MinNodeScore}, ${MaxNodeScore}] after normalizing`,
          ),
        );
      }
    }
    throw new Error("invalidScore: every score is in range");
  }

  /** @internal Whether `call` is still the last Score (its arrays are not reused yet). */
  isCurrentScore(call: number): boolean {
    return call === this.scoreCall;
  }

  /**
   * The snapshot's columns with the column index of every node in `rows.indices`, or null when
   * some node is not in them (then every plugin scores node by node).
   */
  private columnIndicesOf(nodes: readonly NodeInfo[]): NodeColumns | null {
    const cols = this.columns();
    if (cols === null) return null;
    const indices = this.scoreRows.indices;
    const fi = this.feasibleIndex;
    if (fi.nodes === nodes && fi.count === nodes.length) {
      indices.set(fi.indices.subarray(0, fi.count));
      return cols;
    }
    for (let n = 0; n < nodes.length; n++) {
      const idx = cols.indexOf(nodes[n] as NodeInfo);
      if (idx < 0) return null;
      indices[n] = idx;
    }
    return cols;
  }

  // ---------------------------------------------------------------------------------------------
  // Reserve, Permit

  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status | null {
    for (const pl of this.reserve) {
      const s = pl.reserve(state, pod, nodeName);
      if (s && !s.isSuccess()) {
        return s.isRejected()
          ? s.withPlugin(pl.name())
          : wrapError(`running Reserve plugin "${pl.name()}": ${errMessage(s)}`);
      }
    }
    return null;
  }

  /** Unreserve in the reverse order of Reserve. */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reserve.length - 1; i >= 0; i--) {
      (this.reserve[i] as ReservePlugin).unreserve(state, pod, nodeName);
    }
  }

  /**
   * Runs Permit plugins (upstream RunPermitPlugins). When some ask to wait and none rejects, the
   * pod is registered as waiting (timeouts capped at 15 minutes) and a Wait status returned.
   */
  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const pluginsWaitTime = new Map<string, number>();
    let wait = false;
    for (const pl of this.permit) {
      const name = pl.name();
      const { status, timeoutMs } = pl.permit(state, pod, nodeName);
      if (status === null || status.isSuccess()) continue;
      if (status.isRejected()) return status.withPlugin(name);
      if (status.isWait()) {
        pluginsWaitTime.set(name, Math.min(timeoutMs, MaxPermitTimeoutMs));
        wait = true;
        continue;
      }
      return wrapError(`running Permit plugin "${name}": ${errMessage(status)}`).withPlugin(name);
    }
    if (wait) {
      this.waitingPods.add(new WaitingPodImpl(pod, pluginsWaitTime, this.clockImpl));
      return new Status(
        Code.Wait,
        `one or more plugins asked to wait and no plugin rejected pod "${pod.metadata?.name ?? ""}"`,
      );
    }
    return null;
  }

  /** Whether the pod is waiting at Permit. */
  willWaitOnPermit(pod: Pod): boolean {
    return this.waitingPods.get(podUID(pod)) !== undefined;
  }

  /**
   * Resolves when the waiting pod is allowed (null), rejected (its Unschedulable status) or
   * fails (an Error); resolves at once when the pod is not waiting (upstream WaitOnPermit).
   */
  async waitOnPermit(pod: Pod): Promise<Status | null> {
    const uid = podUID(pod);
    const wp = this.waitingPods.get(uid);
    if (!wp) return null;
    let s: Status | null;
    try {
      s = await wp.signal;
    } finally {
      this.waitingPods.remove(uid);
    }
    if (s === null || s.isSuccess()) return null;
    if (s.isRejected()) return s;
    return wrapError(`waiting on permit for pod: ${errMessage(s)}`).withPlugin(s.plugin);
  }

  // ---------------------------------------------------------------------------------------------
  // PreBind, Bind, PostBind

  /**
   * Success when some PreBind plugin will act; Skip when all skip (they are then skipped in
   * PreBind); Error on any error (upstream RunPreBindPreFlights).
   */
  runPreBindPreFlights(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const skipPlugins = new Set<string>();
    let returning: Status | null = new Status(Code.Skip);
    for (const pl of this.preBind) {
      const name = pl.name();
      const s = pl.preBindPreFlight(state, pod, nodeName);
      const code = s ? s.code : Code.Success;
      if (code === Code.Error) {
        return wrapError(`running PreBindPreFlight "${name}": ${errMessage(s as Status)}`);
      }
      if (code === Code.Success) returning = null;
      else if (code === Code.Skip) skipPlugins.add(name);
      else {
        return wrapError(
          `PreBindPreFlight ${name} returned "${codeName(code)}", which is unsupported. It is supposed to return Success, Skip, or Error status`,
        );
      }
    }
    state.skipPreBindPlugins = skipPlugins;
    return returning;
  }

  async runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    let status: Status | null = null;
    // Registered while a PreBind plugin runs, so that preemption can cancel the binding cycle.
    let inPreBind: PodInPreBindImpl | null = null;
    try {
      for (const pl of this.preBind) {
        const name = pl.name();
        if (state.skipPreBindPlugins.has(name)) continue;
        if (!inPreBind) {
          inPreBind = new PodInPreBindImpl(pod, this.podsInPreBind);
          this.podsInPreBind.set(podUID(pod), inPreBind);
        }
        const s = await Promise.race([pl.preBind(state, pod, nodeName), inPreBind.cancelled]);
        if (s && !s.isSuccess()) {
          status = s.isRejected()
            ? s.withPlugin(name)
            : wrapError(`running PreBind plugin "${name}": ${errMessage(s)}`);
          break;
        }
      }
    } finally {
      inPreBind?.leave();
    }
    return status;
  }

  getPodInPreBind(uid: string): PodInPreBind | undefined {
    return this.podsInPreBind.get(uid);
  }

  /** Runs Bind plugins until one does not Skip; Skip when all skip (upstream RunBindPlugins). */
  async runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    // Awaited here, as runPostFilterPlugins.
    const s = await this.runBind(state, pod, nodeName);
    return s;
  }

  private async runBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    if (this.bind.length === 0) return new Status(Code.Skip, "");
    let status: Status | null = null;
    for (const pl of this.bind) {
      const name = pl.name();
      status = await pl.bind(state, pod, nodeName);
      if (status?.isSkip()) continue;
      if (status && !status.isSuccess()) {
        if (status.isRejected()) return status.withPlugin(name);
        return wrapError(`running Bind plugin "${name}": ${errMessage(status)}`);
      }
      return status;
    }
    return status;
  }

  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (const pl of this.postBind) pl.postBind(state, pod, nodeName);
  }
}

/** A PreFilter plugin not skipped this cycle and its extensions (AddPod/RemovePod). */
interface ActivePreFilterExtension {
  readonly plugin: PreFilterPlugin;
  readonly ext: PreFilterExtensions;
}

/** One runFilterPluginsOnNodes call over windows of the snapshot's columns: what its steps share. */
interface FilterRun {
  readonly state: CycleState;
  readonly pod: Pod;
  readonly nodes: readonly NodeInfo[];
  readonly cols: NodeColumns;
  /** The Filter plugins not skipped, and which of them are columnar. */
  readonly plugins: readonly FilterPlugin[];
  readonly columnar: readonly boolean[];
  readonly diagnosis: Diagnosis;
  /** Whether any node may have nominated pods; with marks, exactly the marked columns do. */
  readonly checkNominated: boolean;
  readonly nominatedMarks: Uint8Array | null;
  readonly feasible: NodeInfo[];
  readonly numToFind: number;
  numFeasible: number;
  /** Whether every feasible node has a column index (Score then reuses them). */
  allIndexed: boolean;
  /** Per plugin: the status of the last node it rejected (a status shared by nodes is reported once). */
  readonly rejectedBy: (Status | null)[];
  /** The status last recorded in the diagnosis (its plugin is added once). */
  lastRecorded: Status | null;
  error: Error | null;
}

/** A failed Score: the status, no scores. */
class ScoreFailure implements NodeScoresOutput {
  constructor(
    readonly status: Status,
    readonly totals: Float64Array,
  ) {}
  list(): NodePluginScores[] {
    return [];
  }
  sortedOtherNodes(): SortedScoredNodes | null {
    return null;
  }
}

/** A Score's results: totals per node, and upstream's per-plugin list built on demand. */
class ScoredNodes implements NodeScoresOutput {
  readonly status = null;
  constructor(
    private readonly fwk: Framework,
    private readonly call: number,
    private readonly plugins: readonly ScorePlugin[],
    private readonly weights: Float64Array,
    private readonly nodes: readonly NodeInfo[],
    private readonly buf: readonly Float64Array[],
    readonly totals: Float64Array,
    private readonly raw: readonly Float64Array[] | null,
  ) {}

  sortedOtherNodes(chosen: string): SortedScoredNodes | null {
    const { raw, nodes, totals } = this;
    if (raw === null) return null;
    const candidates: ScoredCandidate[] = [];
    for (let n = 0; n < nodes.length; n++) {
      const name = (nodes[n] as NodeInfo).nodeName;
      if (name === chosen) continue;
      const r = new Float64Array(raw.length);
      for (let p = 0; p < raw.length; p++) r[p] = (raw[p] as Float64Array)[n] as number;
      candidates.push({ name, raw: r, total: totals[n] as number });
    }
    return new SortedScoredNodes(
      this.plugins.map((pl) => pl.name()),
      candidates,
    );
  }

  list(): NodePluginScores[] {
    if (!this.fwk.isCurrentScore(this.call)) {
      throw new Error("runScorePluginsOnNodes: list() after a later Score");
    }
    const { plugins, weights, nodes, buf, totals } = this;
    const np = plugins.length;
    const numNodes = nodes.length;
    const all: NodePluginScores[] = new Array(numNodes);
    for (let n = 0; n < numNodes; n++) {
      const scores: PluginScore[] = new Array(np);
      for (let p = 0; p < np; p++) {
        scores[p] = {
          name: (plugins[p] as ScorePlugin).name(),
          score: ((buf[p] as Float64Array)[n] as number) * (weights[p] as number),
        };
      }
      all[n] = { name: (nodes[n] as NodeInfo).nodeName, scores, totalScore: totals[n] as number };
    }
    return all;
  }
}

function defaultEnqueueExtension(pluginName: string): EnqueueExtensions {
  return { name: () => pluginName, eventsToRegister: unrollWildCardResource };
}

/** Upstream pluginsNeeded: enabled names of every point, then multiPoint, first occurrence order. */
function pluginsNeeded(plugins: Plugins): string[] {
  const out = new Set<string>();
  for (const pt of extensionPoints) for (const e of plugins[pt.key].enabled) out.add(e.name);
  for (const e of plugins.multiPoint.enabled) out.add(e.name);
  return [...out];
}
