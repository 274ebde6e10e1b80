// Runs one plugin through the real runtime over an in-memory snapshot, in upstream's call order
// (PreFilter → Filter; PreScore → Score → NormalizeScore), like upstream plugin tests that build
// a framework with runtime.NewFramework and a snapshot from cache.NewSnapshot.
import type { Node, Pod } from "@kubesched/api";
import { newSnapshot, nodeColumnsOf } from "@kubesched/cache";
import type { PluginSet, Plugins, ProfileConfig } from "@kubesched/config";
import {
  type BindPlugin,
  type Clock,
  type ClusterClient,
  type CustomObject,
  type CustomResource,
  CycleState,
  customResourceKey,
  customResourcesOf,
  defaultFeatures,
  type EventRecorder,
  type Extender,
  type Features,
  formatFieldErrors,
  isPreFilterPlugin,
  isPreScorePlugin,
  isScorePlugin,
  isStatus,
  type NodeInfo,
  type NodeScore,
  type Plugin,
  type PluginDescriptor,
  type PreFilterResult,
  type QueueSortPlugin,
  type Random,
  type Registry,
  type SharedLister,
  type Status,
} from "@kubesched/framework";
import { type Framework, newProfileMap, type SchedulingObserver } from "@kubesched/runtime";
import { checkFilterColumns, checkPreScoreColumns, checkScoreColumns } from "./columnar";
import { FakeListers, type ListerObjects } from "./fake-listers";
import { FakeNominator } from "./fake-nominator";
import { RecordingClusterClient, recordingEventRecorder } from "./recording-client";
import { type RecordingLogger, recordingLogger } from "./recording-logger";

/** The queue sort and binder the harness adds so that the profile is valid. */
export const HarnessQueueSortName = "HarnessQueueSort";
export const HarnessBinderName = "HarnessBinder";

/** The objects the listers serve besides nodes and pods (`FakeListers`' objects). */
export type HarnessObjects = Omit<ListerObjects, "pods" | "nodes">;

export interface HarnessOptions<A = unknown> {
  /** The plugin under test. */
  plugin: PluginDescriptor<A>;
  /**
   * Raw args as in a pluginConfig entry; decoded, defaulted and validated through
   * `plugin.args` (errors throw). Absent: the defaults. Without an args spec they are passed as is.
   */
  args?: unknown;
  /** Its Score weight (default 1). */
  weight?: number;
  nodes?: Node[];
  /** Existing pods; those whose spec.nodeName is one of `nodes` are on that node in the snapshot. */
  pods?: Pod[];
  objects?: Partial<HarnessObjects>;
  /**
   * Objects of custom resources the plugin (or an extra plugin) declares, served by
   * `handle.listers().custom(resource)`; a resource no plugin declares is an error.
   */
  customObjects?: ReadonlyArray<{ resource: CustomResource; objects: CustomObject[] }>;
  features?: Partial<Features>;
  /** The release `handle.kubernetesVersion()` returns (default the framework's). */
  kubernetesVersion?: string;
  /** Other plugins enabled too (multiPoint, after the plugin), e.g. filters for preemption tests. */
  extraPlugins?: PluginDescriptor[];
  /** Pods the nominator returns for their status.nominatedNodeName. */
  nominatedPods?: Pod[];
  clock?: Clock;
  rand?: Random;
  /** The framework's extenders (`handle.extenders()`), e.g. for preemption with extenders. */
  extenders?: Extender[];
  /**
   * A client the writes go to: `harness.client` is still a RecordingClusterClient, which records
   * each call and then forwards it to this one (and has `bindVolumes` exactly when it has).
   * Absent: the recording client applies nothing.
   */
  client?: ClusterClient;
  /** An event recorder the events go to as well (`harness.events` still records them). */
  eventRecorder?: EventRecorder;
  /**
   * The snapshot the framework reads instead of one built from `nodes` and `pods` (e.g. a
   * Snapshot a real Cache maintains).
   */
  snapshot?: SharedLister;
}

export interface HarnessScoreOptions {
  /** Default: a new CycleState. */
  state?: CycleState;
  /** Run the framework's PreFilter on the state first (default false). */
  runPreFilter?: boolean;
  /**
   * Run the plugin's PreScore first (default true). false: Score runs on the state as it is, as
   * upstream's "PreScore is not called" cases do.
   */
  runPreScore?: boolean;
}

/** The framework's PreFilter outcome, plus what the plugin under test's own PreFilter returned. */
export interface HarnessPreFilterOutput {
  /** framework.runPreFilterPlugins: the merged result. */
  result: PreFilterResult | null;
  /** framework.runPreFilterPlugins: null when every plugin succeeded or skipped. */
  status: Status | null;
  /**
   * The status the plugin under test's PreFilter returned, Skip included (null: Success, or
   * the plugin has no PreFilter or did not run).
   */
  pluginStatus: Status | null;
}

export interface HarnessFilterOutput {
  state: CycleState;
  preFilter: HarnessPreFilterOutput;
  /** Per node (in the requested order); empty when PreFilter did not succeed. */
  statuses: Map<string, Status | null>;
}

export interface HarnessScoreOutput {
  /** The first non-success of PreFilter (with runPreFilter), Score or NormalizeScore; null otherwise. */
  status: Status | null;
  /** Normalized, unweighted scores in node order; empty when PreScore skipped or anything failed. */
  scores: NodeScore[];
  /** What the plugin's PreScore returned (null when it has none). */
  preScoreStatus: Status | null;
}

export interface PluginHarness {
  /** The real runtime: the plugin and extraPlugins via multiPoint, plus a queue sort and a binder. */
  readonly framework: Framework;
  /** The instance under test. */
  readonly plugin: Plugin;
  /** The in-memory snapshot of nodes and pods (node order as given). */
  readonly snapshot: SharedLister;
  /**
   * Records bind/delete/patch calls, then forwards them to the `client` option (if any);
   * applies nothing otherwise.
   */
  readonly client: RecordingClusterClient;
  readonly listers: FakeListers;
  /** What the framework and its plugins logged. */
  readonly logger: RecordingLogger;
  readonly events: ReturnType<typeof recordingEventRecorder>["events"];
  /** The snapshot's NodeInfo of a node; throws when the node is unknown. */
  nodeInfo(name: string): NodeInfo;
  newCycleState(): CycleState;
  /**
   * The profile's PreEnqueue plugins in order (upstream runPreEnqueuePlugins): the first status
   * that is not a success, or null when the pod may enter activeQ.
   */
  preEnqueue(pod: Pod): Status | null;
  /** framework.runPreFilterPlugins, with the plugin's own status. */
  runPreFilter(state: CycleState, pod: Pod): HarnessPreFilterOutput;
  /** framework.runFilterPlugins on the snapshot's NodeInfo. */
  runFilter(state: CycleState, pod: Pod, nodeName: string): Status | null;
  /**
   * A new state, PreFilter, then Filter on each node (default: all, in order). A PreFilter that
   * does not succeed is returned as `preFilter.status` and no node is filtered.
   */
  filter(pod: Pod, nodeNames?: string[]): HarnessFilterOutput;
  /**
   * PreScore → Score → NormalizeScore of the plugin under test only, over the given nodes
   * (default: all); normalized scores without weight. `state` defaults to a new state; with
   * `runPreFilter` the framework's PreFilter runs on it first; with `runPreScore: false` the
   * plugin's PreScore is not called.
   */
  score(pod: Pod, nodeNames?: string[], opts?: HarnessScoreOptions): HarnessScoreOutput;
}

class HarnessQueueSort implements QueueSortPlugin {
  name(): string {
    return HarnessQueueSortName;
  }
  less(): boolean {
    return false;
  }
}

class HarnessBinder implements BindPlugin {
  name(): string {
    return HarnessBinderName;
  }
  async bind(): Promise<Status | null> {
    return null;
  }
}

const harnessDescriptors: PluginDescriptor[] = [
  { name: HarnessQueueSortName, factory: () => new HarnessQueueSort() },
  { name: HarnessBinderName, factory: () => new HarnessBinder() },
];

function emptySet(): PluginSet {
  return { enabled: [], disabled: [] };
}

function emptyPlugins(): Plugins {
  return {
    preEnqueue: emptySet(),
    queueSort: emptySet(),
    preFilter: emptySet(),
    filter: emptySet(),
    postFilter: emptySet(),
    preScore: emptySet(),
    score: emptySet(),
    reserve: emptySet(),
    permit: emptySet(),
    preBind: emptySet(),
    bind: emptySet(),
    postBind: emptySet(),
    multiPoint: emptySet(),
  };
}

function decodeArgs<A>(d: PluginDescriptor<A>, raw: unknown, features: Features): unknown {
  if (!d.args) return raw;
  const path = `pluginConfig[${d.name}].args`;
  const { args, errors } = d.args.decode(raw, path, features);
  if (errors.length > 0) throw new Error(`invalid args for plugin ${d.name}:\n${formatFieldErrors(errors)}`);
  const invalid = d.args.validate(args, path, features);
  if (invalid.length > 0)
    throw new Error(`invalid args for plugin ${d.name}:\n${formatFieldErrors(invalid)}`);
  return args;
}

/**
 * One harness call the assembled scheduler can replay (the engine conformance suite): what the
 * harness was built from, the pod, the nodes the call covered and what the harness computed.
 */
export interface EngineCall {
  /**
   * preEnqueue: the profile's PreEnqueue plugins on the pod; preFilter: the framework's PreFilter
   * on a state no Filter ran on afterwards; filter: PreFilter then Filter; score: PreScore, Score
   * and NormalizeScore.
   */
  kind: "preEnqueue" | "preFilter" | "filter" | "score";
  /**
   * Why a full cycle cannot observe the call (a Score without PreScore, a harness given its own
   * snapshot...): the checker counts it, with this reason, and replays nothing.
   */
  unobservable?: string;
  registry: Registry;
  profile: ProfileConfig;
  pluginName: string;
  nodes: readonly Node[];
  pods: readonly Pod[];
  objects: Partial<HarnessObjects>;
  features: Features;
  /** The harness's `kubernetesVersion`, when it set one. */
  kubernetesVersion?: string;
  pod: Pod;
  /** The nodes the call covered, in order. */
  nodeNames: string[];
  /** The plugin's own PreFilter status (preFilter and filter calls; score calls with runPreFilter). */
  preFilterStatus: Status | null;
  /** filter: every covered node's status (absent when PreFilter did not succeed). */
  statuses?: ReadonlyMap<string, Status | null>;
  /** score: the plugin's PreScore status, the call's status and normalized scores. */
  preScoreStatus?: Status | null;
  /**
   * score: the call did not run PreScore (upstream's "PreScore is not called" rows, which expect
   * the scores a cycle with PreScore gives).
   */
  withoutPreScore?: boolean;
  /** score: the call's status; preEnqueue: the first PreEnqueue status that is not a success. */
  status?: Status | null;
  scores?: readonly NodeScore[];
}

/** Replays a harness call through the assembled scheduler; rejects when the engine decides otherwise. */
export type EngineChecker = (call: EngineCall) => Promise<void>;

let engineChecker: EngineChecker | null = null;
const pendingEngineChecks: Promise<void>[] = [];
/** PreFilter calls replayed at the next flush unless a Filter on the same state follows. */
const deferredEngineChecks: (() => void)[] = [];

/**
 * Makes every plugin harness replay its filter() and score() calls through the engine (set by the
 * engine conformance suite's vitest setup file; null turns it off).
 */
export function setHarnessEngineChecker(checker: EngineChecker | null): void {
  engineChecker = checker;
}

/** Waits for the engine replays of the calls made so far; rejects with the first difference. */
export async function flushHarnessEngineChecks(): Promise<void> {
  for (const replay of deferredEngineChecks.splice(0)) replay();
  const checks = pendingEngineChecks.splice(0);
  await Promise.all(checks);
}

/** Builds a framework around one plugin; see PluginHarness. */
export async function createPluginHarness<A>(opts: HarnessOptions<A>): Promise<PluginHarness> {
  const features: Features = { ...defaultFeatures, ...opts.features };
  const nodes = opts.nodes ?? [];
  const pods = opts.pods ?? [];
  const under = opts.plugin as PluginDescriptor;
  const extras = opts.extraPlugins ?? [];

  const registry = new Map<string, PluginDescriptor>();
  for (const d of [under, ...extras, ...harnessDescriptors]) {
    if (registry.has(d.name)) throw new Error(`a plugin named ${d.name} already exists`);
    registry.set(d.name, d);
  }

  const plugins = emptyPlugins();
  plugins.multiPoint.enabled = [
    { name: under.name, ...(opts.weight !== undefined ? { weight: opts.weight } : {}) },
    ...extras.map((d) => ({ name: d.name })),
    { name: HarnessBinderName },
  ];
  // The harness's queue sort is the only one, so a QueueSort plugin can be tested too.
  plugins.queueSort = { enabled: [{ name: HarnessQueueSortName }], disabled: [{ name: "*" }] };

  const pluginConfig =
    under.args || opts.args !== undefined
      ? [{ name: under.name, args: decodeArgs(under, opts.args, features) }]
      : [];

  const snapshot = opts.snapshot ?? newSnapshot(pods, nodes);
  const logger = recordingLogger();
  const declared = customResourcesOf(registry);
  for (const c of opts.customObjects ?? []) {
    if (!declared.some((r) => customResourceKey(r) === customResourceKey(c.resource))) {
      throw new Error(
        `custom resource ${customResourceKey(c.resource)} is not declared by any plugin under test`,
      );
    }
  }
  const listers = new FakeListers(
    { ...opts.objects, pods, nodes },
    declared.map((resource) => ({
      resource,
      objects: (opts.customObjects ?? [])
        .filter((c) => customResourceKey(c.resource) === customResourceKey(resource))
        .flatMap((c) => c.objects),
    })),
  );
  const client = new RecordingClusterClient(opts.client ?? null);
  const recorder = recordingEventRecorder(opts.eventRecorder ?? null);
  // The plugin's own PreFilter status, which the framework folds away (Skip) or wraps (Error).
  let pluginPreFilterStatus: Status | null = null;
  const observer: SchedulingObserver = {
    onPreFilter(name, status) {
      if (name === under.name) pluginPreFilterStatus = status;
    },
  };
  // The production wiring (upstream profile.NewMap), with one profile.
  const profiles = await newProfileMap(
    registry,
    [{ schedulerName: "default-scheduler", plugins, pluginConfig }],
    {
      listers,
      client,
      eventRecorder: recorder,
      features,
      ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
      snapshot,
      logger,
      nominator: new FakeNominator(opts.nominatedPods ?? []),
      observer,
      ...(opts.clock ? { clock: opts.clock } : {}),
      ...(opts.rand ? { rand: opts.rand } : {}),
      ...(opts.extenders ? { extenders: opts.extenders } : {}),
    },
  );
  const framework = profiles.get("default-scheduler") as Framework;
  const plugin = framework.plugin(under.name) as Plugin;

  const nodeInfo = (name: string): NodeInfo => {
    const ni = snapshot.nodeInfos().get(name);
    if (!ni) throw new Error(`node "${name}" is not in the harness snapshot`);
    return ni;
  };
  const nodeInfosOf = (names: string[] | undefined): NodeInfo[] =>
    names ? names.map(nodeInfo) : [...snapshot.nodeInfos().list()];

  // The engine replays what a full cycle can observe: not the harness's own snapshot or nominator.
  const notReplayable =
    opts.snapshot !== undefined
      ? "the harness was given its own snapshot"
      : (opts.nominatedPods ?? []).length > 0
        ? "the harness was given nominated pods"
        : undefined;
  const replay = (
    call: Omit<EngineCall, "registry" | "profile" | "pluginName" | "nodes" | "pods" | "objects" | "features">,
  ): void => {
    if (!engineChecker) return;
    pendingEngineChecks.push(
      engineChecker({
        ...call,
        ...(notReplayable && !call.unobservable ? { unobservable: notReplayable } : {}),
        registry,
        profile: { schedulerName: "default-scheduler", plugins, pluginConfig },
        pluginName: under.name,
        nodes,
        pods,
        objects: opts.objects ?? {},
        features,
        ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
      }),
    );
  };

  // A plugin with columnar Filter/Score must decide on every call what its per-node methods decide:
  // checked on the calls a cycle makes (after PreFilter / PreScore), over columns of the snapshot.
  const filterBatchCheck = (state: CycleState, pod: Pod, infos: readonly NodeInfo[]): void => {
    if (state.skipFilterPlugins.has(under.name)) return;
    checkFilterColumns(plugin, state, pod, nodeColumnsOf(snapshot.nodeInfos().list()), infos);
  };

  // States that went through runPreFilter, with its pod and the plugin's own PreFilter status: a
  // runFilter on such a state is what a cycle does, and is replayed like filter(). A PreFilter no
  // Filter followed is replayed on its own at the next flush.
  const preFiltered = new WeakMap<CycleState, { pod: Pod; pluginStatus: Status | null; filtered: boolean }>();
  const runPreFilter = (state: CycleState, pod: Pod): HarnessPreFilterOutput => {
    pluginPreFilterStatus = null;
    fresh.delete(state);
    const { result, status } = framework.runPreFilterPlugins(state, pod);
    const entry = { pod, pluginStatus: pluginPreFilterStatus, filtered: false };
    preFiltered.set(state, entry);
    // Only the plugin under test's own PreFilter is compared.
    if (engineChecker && isPreFilterPlugin(plugin))
      deferredEngineChecks.push(() => {
        if (entry.filtered) return;
        replay({
          kind: "preFilter",
          pod,
          nodeNames: [...snapshot.nodeInfos().list()].map((n) => n.nodeName),
          preFilterStatus: entry.pluginStatus,
        });
      });
    return { result, status, pluginStatus: pluginPreFilterStatus };
  };
  // States from newCycleState() nothing ran on yet: a Score on one is a Score on a new state.
  const fresh = new WeakSet<CycleState>();
  /** A PreFilter another call replays (or that a test's own state makes unobservable). */
  const consumePreFilter = (state: CycleState): void => {
    const entry = preFiltered.get(state);
    if (entry) entry.filtered = true;
  };

  return {
    framework,
    plugin,
    snapshot,
    client,
    listers,
    logger,
    events: recorder.events,
    nodeInfo,
    newCycleState: () => {
      const state = new CycleState();
      fresh.add(state);
      return state;
    },
    runPreFilter,
    preEnqueue(pod) {
      let status: Status | null = null;
      for (const pl of framework.preEnqueuePlugins()) {
        const s = pl.preEnqueue(pod);
        if (s !== null && !s.isSuccess()) {
          status = s;
          break;
        }
      }
      replay({ kind: "preEnqueue", pod, nodeNames: [], preFilterStatus: null, status });
      return status;
    },
    runFilter(state, pod, nodeName) {
      fresh.delete(state);
      const status = framework.runFilterPlugins(state, pod, nodeInfo(nodeName));
      const pre = preFiltered.get(state);
      if (pre?.pod === pod) {
        pre.filtered = true;
        filterBatchCheck(state, pod, [nodeInfo(nodeName)]);
        replay({
          kind: "filter",
          pod,
          nodeNames: [nodeName],
          preFilterStatus: pre.pluginStatus,
          statuses: new Map([[nodeName, status]]),
        });
      }
      return status;
    },
    filter(pod, nodeNames) {
      const state = new CycleState();
      const preFilter = runPreFilter(state, pod);
      consumePreFilter(state);
      const statuses = new Map<string, Status | null>();
      if (preFilter.status === null || preFilter.status.isSuccess()) {
        for (const ni of nodeInfosOf(nodeNames))
          statuses.set(ni.nodeName, framework.runFilterPlugins(state, pod, ni));
        filterBatchCheck(state, pod, nodeInfosOf(nodeNames));
      }
      replay({
        kind: "filter",
        pod,
        nodeNames: nodeInfosOf(nodeNames).map((n) => n.nodeName),
        preFilterStatus: preFilter.pluginStatus,
        statuses,
      });
      return { state, preFilter, statuses };
    },
    score(pod, nodeNames, o = {}) {
      const state = o.state ?? new CycleState();
      const infos = nodeInfosOf(nodeNames);
      // What a cycle does: a Score on a new state (none given, or one nothing ran on yet), or on
      // the state the harness's PreFilter (and Filter) ran on with this pod. A Score on any other
      // state is not. A Score without PreScore is compared with the cycle's (which runs
      // PreScore): the plugin must score the same without it.
      const pre = o.state !== undefined && !o.runPreFilter ? preFiltered.get(o.state) : undefined;
      const cycleState = o.state === undefined || fresh.has(o.state) || pre?.pod === pod;
      const notACycle = cycleState ? undefined : "Score on a state the test built";
      fresh.delete(state);
      if (pre?.pod === pod) consumePreFilter(state);
      const done = (out: HarnessScoreOutput, failed?: string): HarnessScoreOutput => {
        const why = notACycle ?? failed;
        replay({
          kind: "score",
          ...(why ? { unobservable: why } : {}),
          pod,
          nodeNames: infos.map((n) => n.nodeName),
          preFilterStatus: pre?.pod === pod ? pre.pluginStatus : null,
          preScoreStatus: out.preScoreStatus,
          ...(o.runPreScore === false ? { withoutPreScore: true } : {}),
          status: out.status,
          scores: out.scores.map((x) => ({ ...x })),
        });
        return out;
      };
      if (o.runPreFilter) {
        const pre = runPreFilter(state, pod);
        consumePreFilter(state);
        if (pre.status !== null && !pre.status.isSuccess()) {
          return done({ status: pre.status, scores: [], preScoreStatus: null }, "PreFilter did not succeed");
        }
      }
      let preScoreStatus: Status | null = null;
      if (o.runPreScore !== false && isPreScorePlugin(plugin)) {
        const before = state.clone();
        preScoreStatus = plugin.preScore(state, pod, infos);
        // A columnar PreScore must return the same and leave a state that scores the same.
        const cols = nodeColumnsOf(snapshot.nodeInfos().list());
        checkPreScoreColumns(plugin, pod, cols, infos, preScoreStatus, state, before);
        if (preScoreStatus?.isSkip()) return done({ status: null, scores: [], preScoreStatus });
        if (preScoreStatus && !preScoreStatus.isSuccess()) {
          return done({ status: preScoreStatus, scores: [], preScoreStatus }, "PreScore did not succeed");
        }
      }
      if (!isScorePlugin(plugin)) throw new Error(`plugin ${under.name} is not a Score plugin`);
      const scores: NodeScore[] = [];
      for (const ni of infos) {
        const r = plugin.score(state, pod, ni);
        if (isStatus(r)) {
          if (!r.isSuccess()) return done({ status: r, scores: [], preScoreStatus }, "Score did not succeed");
          scores.push({ name: ni.nodeName, score: 0 });
        } else {
          scores.push({ name: ni.nodeName, score: r });
        }
      }
      const ext = plugin.scoreExtensions();
      if (ext) {
        const st = ext.normalizeScore(state, pod, scores);
        if (st && !st.isSuccess()) {
          return done({ status: st, scores: [], preScoreStatus }, "NormalizeScore did not succeed");
        }
      }
      // A columnar Score must give the same scores (on any state).
      checkScoreColumns(plugin, state, pod, nodeColumnsOf(snapshot.nodeInfos().list()), infos);
      return done({ status: null, scores, preScoreStatus });
    },
  };
}
