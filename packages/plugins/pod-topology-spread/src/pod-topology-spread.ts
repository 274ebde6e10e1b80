// upstream: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go
import type { Pod, TopologySpreadConstraint } from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  type ClusterListers,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type NodeScore,
  type PodInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SharedLister,
  type SignPlugin,
  type SignPodResult,
  Status,
} from "@kubesched/framework";
import type {
  ColumnarFilterPlugin,
  ColumnarPreScorePlugin,
  ColumnarScoreExtensions,
  ColumnarScorePlugin,
  ColumnWindow,
} from "@kubesched/framework/columnar";
import { type PodTopologySpreadArgs, SystemDefaulting } from "./args";
import {
  type ConstraintOptions,
  filterTopologySpreadConstraints,
  type SpreadConstraint,
  systemDefaultConstraints,
  type UnsatisfiableConstraintAction,
} from "./common";
import type { CountOptions, SpreadCounter } from "./counting";
import { defaultSelector } from "./default-selector";
import { eventsToRegister } from "./events";
import {
  calPreFilterState,
  filterNode,
  filterNodeDetails,
  filterNodes,
  getPreFilterState,
  preFilterStateKey,
  updateWithPod,
} from "./filtering";
import { SpreadCountsMemo } from "./memo";
import {
  calPreScoreState,
  calPreScoreStateBatch,
  getPreScoreState,
  HostnameCountsMemo,
  normalizeScores,
  normalizeScoresBatch,
  type PreScoreState,
  preScoreStateKey,
  scoreNode,
  scoreNodes,
} from "./scoring";

/** The plugin's registered name. */
export const name = "PodTopologySpread";

type DefaultListers = Pick<
  ClusterListers,
  "services" | "replicationControllers" | "replicaSets" | "statefulSets"
>;

/** Ensures the pod's topology spread constraints (or the defaults) are satisfied. */
export class PodTopologySpread
  implements
    PreFilterPlugin,
    PreFilterExtensions,
    FilterPlugin,
    FilterDetailsPlugin,
    ColumnarFilterPlugin,
    PreScorePlugin,
    ColumnarPreScorePlugin,
    ScorePlugin,
    ColumnarScorePlugin,
    ScoreExtensions,
    ColumnarScoreExtensions,
    EnqueueExtensions,
    SignPlugin
{
  /** Whether the defaults are upstream's system defaults (then nodes need not carry every key to be scored). */
  readonly systemDefaulted: boolean;
  readonly defaultConstraints: readonly TopologySpreadConstraint[];
  private readonly listers: DefaultListers | null;
  private readonly sharedLister: SharedLister;
  readonly constraintOptions: ConstraintOptions;
  readonly countOptions: CountOptions;
  private readonly counter: SpreadCounter;
  /** Per-node counts of hostname constraints, for columnar Score. */
  private readonly hostCounts = new HostnameCountsMemo();

  constructor(args: PodTopologySpreadArgs, handle: Handle) {
    const fts = handle.features();
    this.sharedLister = handle.snapshotSharedLister();
    this.systemDefaulted = args.defaultingType === SystemDefaulting;
    this.defaultConstraints = this.systemDefaulted ? systemDefaultConstraints : args.defaultConstraints;
    this.listers = this.defaultConstraints.length > 0 ? handle.listers() : null;
    this.constraintOptions = {
      enableMatchLabelKeys: fts.enableMatchLabelKeysInPodTopologySpread,
      enableNodeInclusionPolicy: fts.enableNodeInclusionPolicyInPodTopologySpread,
    };
    this.countOptions = {
      enableNodeInclusionPolicy: fts.enableNodeInclusionPolicyInPodTopologySpread,
      tolerationOptions: { enableComparisonOperators: fts.enableTaintTolerationComparisonOperators },
    };
    this.counter = new SpreadCountsMemo(() => handle.snapshotSharedLister().nodeInfos());
  }

  name(): string {
    return name;
  }

  /**
   * Spreading depends on where other pods are, not on the pod and node alone: pods with
   * constraints, explicit or defaulted, are not signed (upstream SignPod).
   */
  signPod(pod: Pod): SignPodResult {
    if ((pod.spec?.topologySpreadConstraints?.length ?? 0) > 0) {
      return {
        fragments: [],
        status: new Status(Code.Unschedulable, "pods with topology constraints are not signable"),
      };
    }
    if (this.defaultConstraints.length > 0) {
      return {
        fragments: [],
        status: new Status(Code.Unschedulable, "pods with default topology constraints are not signable"),
      };
    }
    return { fragments: [], status: null };
  }

  /**
   * The pod's constraints with `whenUnsatisfiable == action`, or the default constraints with a
   * selector built from the workloads selecting the pod when the pod has none. Throws on an
   * invalid label selector.
   */
  constraintsFor(pod: Pod, action: UnsatisfiableConstraintAction): SpreadConstraint[] {
    const own = pod.spec?.topologySpreadConstraints;
    if (own && own.length > 0) {
      return filterTopologySpreadConstraints(own, pod.metadata?.labels, action, this.constraintOptions);
    }
    return this.buildDefaultConstraints(pod, action);
  }

  /** upstream buildDefaultConstraints. */
  private buildDefaultConstraints(pod: Pod, action: UnsatisfiableConstraintAction): SpreadConstraint[] {
    const constraints = filterTopologySpreadConstraints(
      this.defaultConstraints,
      pod.metadata?.labels,
      action,
      this.constraintOptions,
    );
    if (constraints.length === 0 || this.listers === null) return [];
    const selector = defaultSelector(pod, this.listers);
    if (selector.empty()) return [];
    return constraints.map((c) => ({ ...c, selector }));
  }

  /** The DoNotSchedule constraints used by Filter (upstream getConstraints), with upstream's error wording. */
  getConstraints(pod: Pod): SpreadConstraint[] {
    const own = (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0;
    try {
      return this.constraintsFor(pod, "DoNotSchedule");
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new Error(
        own
          ? `obtaining pod's hard topology spread constraints: ${msg}`
          : `setting default hard topology spread constraints: ${msg}`,
      );
    }
  }

  preFilter(cycleState: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    let constraints: SpreadConstraint[];
    try {
      constraints = this.getConstraints(pod);
    } catch (e) {
      return asStatus(new Error(`get constraints from pod: ${(e as Error).message}`));
    }
    if (constraints.length === 0) return new Status(Code.Skip);
    cycleState.write(
      preFilterStateKey,
      calPreFilterState(pod, nodes, constraints, this.counter, this.countOptions),
    );
    return null;
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(
    cycleState: CycleState,
    podToSchedule: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    return this.updateWithPod(cycleState, podToSchedule, podInfoToAdd, nodeInfo, 1);
  }

  removePod(
    cycleState: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null {
    return this.updateWithPod(cycleState, podToSchedule, podInfoToRemove, nodeInfo, -1);
  }

  private updateWithPod(
    cycleState: CycleState,
    podToSchedule: Pod,
    podInfo: PodInfo,
    nodeInfo: NodeInfo,
    delta: number,
  ): Status | null {
    try {
      updateWithPod(
        getPreFilterState(cycleState),
        podInfo.pod,
        podToSchedule,
        nodeInfo.node,
        delta,
        this.countOptions,
      );
      return null;
    } catch (e) {
      return asStatus(e);
    }
  }

  filter(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = cycleState.read(preFilterStateKey);
    if (s === undefined) {
      return asStatus(new Error(`reading "${preFilterStateKey}" from cycleState: not found`));
    }
    return filterNode(s, nodeInfo);
  }

  /** Every DoNotSchedule constraint the node violates: its domain, skew and maxSkew. */
  filterDetails(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo): FilterDetail[] {
    const s = cycleState.read(preFilterStateKey);
    return s === undefined ? [] : filterNodeDetails(s, nodeInfo);
  }

  filterColumns(cycleState: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const s = cycleState.read(preFilterStateKey);
    if (s === undefined) {
      for (let k = 0; k < count; k++) out[k] = this.filter(cycleState, pod, columns.nodeInfos[indices[k]!]!);
      return;
    }
    filterNodes(s, window, out);
  }

  preScore(cycleState: CycleState, pod: Pod, filteredNodes: readonly NodeInfo[]): Status | null {
    return this.preScoreOf(cycleState, pod, (constraints, allNodes, requireAllTopologies) =>
      calPreScoreState(
        pod,
        constraints,
        filteredNodes,
        allNodes,
        requireAllTopologies,
        this.counter,
        this.countOptions,
      ),
    );
  }

  /** preScore with the filtered nodes' topology values read from the snapshot's columns. */
  preScoreColumns(cycleState: CycleState, pod: Pod, window: ColumnWindow): Status | null {
    return this.preScoreOf(cycleState, pod, (constraints, allNodes, requireAllTopologies) =>
      calPreScoreStateBatch(
        pod,
        constraints,
        window,
        allNodes,
        requireAllTopologies,
        this.counter,
        this.countOptions,
      ),
    );
  }

  private preScoreOf(
    cycleState: CycleState,
    pod: Pod,
    build: (
      constraints: SpreadConstraint[],
      allNodes: readonly NodeInfo[],
      requireAllTopologies: boolean,
    ) => PreScoreState,
  ): Status | null {
    const allNodes = this.sharedLister.nodeInfos().list();
    if (allNodes.length === 0) return new Status(Code.Skip);
    let constraints: SpreadConstraint[];
    const own = (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0;
    try {
      constraints = this.constraintsFor(pod, "ScheduleAnyway");
    } catch (e) {
      const what = own
        ? "obtaining pod's soft topology spread constraints"
        : "setting default soft topology spread constraints";
      return asStatus(new Error(`calculating preScoreState: ${what}: ${(e as Error).message}`));
    }
    if (constraints.length === 0) return new Status(Code.Skip);
    // Only non-system defaults require every topology key on a node: nodes without a zone label
    // still get hostname spreading under the system defaults.
    const requireAllTopologies = own || !this.systemDefaulted;
    cycleState.write(preScoreStateKey, build(constraints, allNodes, requireAllTopologies));
    return null;
  }

  score(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = cycleState.read(preScoreStateKey);
    if (s === undefined) {
      return asStatus(new Error(`error reading "${preScoreStateKey}" from cycleState: not found`));
    }
    return scoreNode(s, nodeInfo);
  }

  scoreColumns(cycleState: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const { columns, indices, count } = window;
    const s = cycleState.read(preScoreStateKey);
    if (s === undefined) {
      if (count === 0) return null;
      return this.score(cycleState, pod, columns.nodeInfos[indices[0]!]!) as Status;
    }
    scoreNodes(s, window, scores, this.hostCounts);
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(cycleState: CycleState, _pod: Pod, scores: NodeScore[]): Status | null {
    try {
      normalizeScores(getPreScoreState(cycleState), scores);
      return null;
    } catch (e) {
      return asStatus(e);
    }
  }

  normalizeScoreColumns(
    cycleState: CycleState,
    _pod: Pod,
    window: ColumnWindow,
    scores: Float64Array,
  ): Status | null {
    try {
      normalizeScoresBatch(getPreScoreState(cycleState), window, scores);
      return null;
    } catch (e) {
      return asStatus(e);
    }
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this);
  }
}
