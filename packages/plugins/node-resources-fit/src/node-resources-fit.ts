// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go
import type { Container, Pod } from "@kubesched/api";
import {
  asStatus,
  Code,
  type CycleState,
  type DeviceClassResolver,
  defaultKubernetesVersion,
  type EnqueueExtensions,
  type Features,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  type NodeInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SharedDRAManager,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnarScorePlugin, ColumnWindow } from "@kubesched/framework/columnar";
import {
  DRAExtendedResourceScoring,
  type DRAPreScoreState,
  leastResourceScorer,
  mostResourceScorer,
  ResourceAllocationScorer,
  type ResourceScorerFn,
  requestedToCapacityRatioScorer,
  signPodResources,
} from "@kubesched/plugin-helpers";
import { LeastAllocated, MostAllocated, type NodeResourcesFitArgs, RequestedToCapacityRatio } from "./args";
import { eventsToRegister } from "./events";
import { computePodResourceRequest, fitsRequest, fitsRequestBatch, type PodResourceRequest } from "./fits";
import { ErrReasonSidecarContainersDisabled } from "./reasons";

/** The plugin's registered name. */
export const name = "NodeResourcesFit";

const preFilterStateKey = stateKey<PodResourceRequest>(`PreFilter${name}`);
const preScoreStateKey = stateKey<PreScoreState>(`PreScore${name}`);

/**
 * The pod's requests in the order of the scoring resources, computed in PreScore, and (with
 * DRAExtendedResource, when a DeviceClass backs a scoring resource) the devices claims hold.
 */
class PreScoreState implements StateData {
  constructor(
    readonly podRequests: Float64Array,
    readonly dra: DRAPreScoreState | null,
  ) {}
  clone(): StateData {
    return this;
  }
}

function hasRestartableInitContainer(pod: Pod): boolean {
  return (pod.spec?.initContainers ?? []).some((c: Container) => c.restartPolicy === "Always");
}

function strategyScorer(args: NodeResourcesFitArgs): ResourceScorerFn {
  const ss = args.scoringStrategy;
  switch (ss.type) {
    case LeastAllocated:
      return leastResourceScorer(ss.resources);
    case MostAllocated:
      return mostResourceScorer(ss.resources);
    case RequestedToCapacityRatio:
      return requestedToCapacityRatioScorer(ss.resources, ss.requestedToCapacityRatio?.shape ?? []);
    default:
      throw new Error(`scoring strategy ${ss.type} is not supported`);
  }
}

/**
 * NodeResourcesFit: Filter rejects nodes without enough allocatable for the pod's requests;
 * Score ranks nodes by the configured strategy (LeastAllocated by default).
 */
export class NodeResourcesFit
  implements
    PreFilterPlugin,
    FilterPlugin,
    FilterDetailsPlugin,
    ColumnarFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ColumnarScorePlugin,
    EnqueueExtensions,
    SignPlugin
{
  private readonly ignoredResources: ReadonlySet<string>;
  private readonly ignoredResourceGroups: ReadonlySet<string>;
  private readonly features: Features;
  private readonly scorer: ResourceAllocationScorer;
  /** DRAExtendedResource: the DeviceClasses backing extended resources (null with the gate off). */
  private readonly deviceClassResolver: DeviceClassResolver | null;
  /** DRAExtendedResource: scoring resources backed by DeviceClasses (null with the gate off). */
  private readonly draScoring: DRAExtendedResourceScoring | null;

  /** `args` are validated by the descriptor's args spec (nodeResourcesFitArgsSpec). */
  constructor(
    args: NodeResourcesFitArgs,
    features: Features,
    private readonly kubernetesVersion = defaultKubernetesVersion,
    /**
     * The scheduler's shared DRA manager (`handle.sharedDRAManager()`): its DeviceClass resolver,
     * and the claims' allocated state and the slices scoring reads; absent (tests calling the
     * constructor, as upstream's NewFit without a DRA manager): no class backs anything.
     */
    draManager?: SharedDRAManager | null,
  ) {
    const manager = features.enableDRAExtendedResource ? (draManager ?? null) : null;
    this.deviceClassResolver = manager?.deviceClassResolver() ?? null;
    this.draScoring =
      manager !== null
        ? new DRAExtendedResourceScoring(manager, {
            enableConsumableCapacity: features.enableConsumableCapacity,
            enableListTypeAttributes: features.enableDRAListTypeAttributes,
          })
        : null;
    this.ignoredResources = new Set(args.ignoredResources);
    this.ignoredResourceGroups = new Set(args.ignoredResourceGroups);
    this.features = features;
    this.scorer = new ResourceAllocationScorer({
      name: args.scoringStrategy.type,
      resources: args.scoringStrategy.resources,
      scorer: strategyScorer(args),
      useRequested: false,
      enableInPlacePodVerticalScaling: features.enableInPlacePodVerticalScaling,
      enablePodLevelResources: features.enablePodLevelResources,
    });
  }

  name(): string {
    return name;
  }

  /**
   * Filtering and scoring depend on the pod's requests and overhead (upstream SignPod). Up to
   * 1.36 no pod is signed while DRAExtendedResource is on; 1.37 refuses a pod requesting an
   * extended resource that a DeviceClass backs.
   */
  signPod(pod: Pod): SignPodResult {
    return signPodResources(pod, this.features, this.kubernetesVersion, this.deviceClassResolver);
  }

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    if (!this.features.enableSidecarContainers && hasRestartableInitContainer(pod)) {
      // Keeps the scheduler consistent with kubelets older than 1.28.
      return new Status(Code.UnschedulableAndUnresolvable, ErrReasonSidecarContainersDisabled);
    }
    state.write(
      preFilterStateKey,
      computePodResourceRequest(
        pod,
        {
          enablePodLevelResources: this.features.enablePodLevelResources,
          deviceClassResolver: this.deviceClassResolver,
        },
        this.ignoredResources,
        this.ignoredResourceGroups,
      ),
    );
    return null;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = state.read(preFilterStateKey);
    if (s === undefined) {
      return asStatus(new Error(`error reading "${preFilterStateKey}" from cycleState: not found`));
    }
    const insufficient = fitsRequest(s, nodeInfo);
    if (insufficient === null) return null;
    let code: Code = Code.Unschedulable;
    const reasons: string[] = [];
    for (const r of insufficient) {
      reasons.push(r.reason);
      if (r.unresolvable) code = Code.UnschedulableAndUnresolvable;
    }
    return new Status(code, ...reasons);
  }

  /** Per resource the node lacks: what the pod requests, what is used, allocatable and the shortfall. */
  filterDetails(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): FilterDetail[] {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return [];
    return (fitsRequest(s, nodeInfo) ?? []).map((r) => ({
      kind: "InsufficientResource",
      resource: r.resourceName,
      requested: r.requested,
      used: r.used,
      capacity: r.capacity,
      short: r.requested - (r.capacity - r.used),
    }));
  }

  /** filter() over the snapshot's columns: fits are decided there; rejections come from filter(). */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const s = state.read(preFilterStateKey);
    const infos = columns.nodeInfos;
    if (s === undefined) {
      for (let k = 0; k < count; k++) out[k] = this.filter(state, pod, infos[indices[k]!]!);
      return;
    }
    fitsRequestBatch(s, window, out);
    for (let k = 0; k < count; k++) {
      if (out[k] !== null) out[k] = this.filter(state, pod, infos[indices[k]!]!);
    }
  }

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    state.write(preScoreStateKey, this.computePreScoreState(pod));
    return null;
  }

  /** upstream PreScore's state: the pod's requests and, with DRAExtendedResource, getDRAPreScoredParams. */
  private computePreScoreState(pod: Pod): PreScoreState {
    return new PreScoreState(
      this.scorer.calculatePodResourceRequestList(pod),
      this.draScoring?.preScore(this.scorer.resources) ?? null,
    );
  }

  /** What PreScore kept, else computed (upstream Score without PreScore). */
  private preScoreState(state: CycleState, pod: Pod): PreScoreState {
    return state.read(preScoreStateKey) ?? this.computePreScoreState(pod);
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = this.preScoreState(state, pod);
    return this.scorer.score(nodeInfo, s.podRequests, s.dra);
  }

  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const s = this.preScoreState(state, pod);
    // DRA-backed resources: the nodes without allocatable for them read their devices.
    return this.scorer.scoreColumns(window, s.podRequests, scores, s.dra);
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }

  eventsToRegister() {
    return eventsToRegister(this.features, {
      enableInPlacePodVerticalScaling: this.features.enableInPlacePodVerticalScaling,
      enableInPlacePodLevelResourcesVerticalScaling:
        this.features.enableInPlacePodLevelResourcesVerticalScaling,
      enablePodLevelResources: this.features.enablePodLevelResources,
      deviceClassResolver: this.deviceClassResolver,
    });
  }
}
