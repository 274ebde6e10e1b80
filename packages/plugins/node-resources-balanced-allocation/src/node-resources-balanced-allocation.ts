// upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go
import type { DeviceClass, Pod } from "@kubesched/api";
import {
  type ClusterScopedLister,
  Code,
  type CycleState,
  defaultKubernetesVersion,
  type Features,
  minorOf,
  type NodeInfo,
  type PreScorePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import type { ColumnarScorePlugin, ColumnWindow } from "@kubesched/framework/columnar";
import { DeviceClassResolver, ResourceAllocationScorer, signPodResources } from "@kubesched/plugin-helpers";
import type { NodeResourcesBalancedAllocationArgs } from "./args";
import { balancedResourceScorerFor } from "./balanced-allocation";

/** The plugin's registered name. */
export const name = "NodeResourcesBalancedAllocation";

const preScoreStateKey = stateKey<PreScoreState>(`PreScore${name}`);

/** The pod's requests in the order of the configured resources, computed in PreScore. */
class PreScoreState implements StateData {
  constructor(readonly podRequests: Float64Array) {}
  clone(): StateData {
    return this;
  }
}

/**
 * NodeResourcesBalancedAllocation: favors nodes whose resource usage becomes more balanced
 * (closer cpu/memory/... fractions) with the pod placed there.
 */
export class NodeResourcesBalancedAllocation
  implements PreScorePlugin, ScorePlugin, ColumnarScorePlugin, SignPlugin
{
  private readonly scorer: ResourceAllocationScorer;
  private readonly features: Features;
  private readonly kubernetesVersion: string;
  /** DRAExtendedResource: the DeviceClasses backing extended resources (SignPod); null with the gate off. */
  private readonly deviceClassResolver: DeviceClassResolver | null;

  /**
   * `args` are validated by the descriptor's args spec (nodeResourcesBalancedAllocationArgsSpec);
   * `kubernetesVersion` (`handle.kubernetesVersion()`) picks the release's formula.
   */
  constructor(
    args: NodeResourcesBalancedAllocationArgs,
    features: Features,
    kubernetesVersion = defaultKubernetesVersion,
    /** The DeviceClass lister (`handle.listers().deviceClasses`); absent: no class backs anything. */
    deviceClasses?: ClusterScopedLister<DeviceClass>,
  ) {
    this.deviceClassResolver =
      features.enableDRAExtendedResource && deviceClasses ? new DeviceClassResolver(deviceClasses) : null;
    this.features = features;
    this.kubernetesVersion = kubernetesVersion;
    this.scorer = new ResourceAllocationScorer({
      name,
      resources: args.resources,
      scorer: balancedResourceScorerFor(minorOf(kubernetesVersion)),
      useRequested: true,
      enableInPlacePodVerticalScaling: features.enableInPlacePodVerticalScaling,
      enablePodLevelResources: features.enablePodLevelResources,
    });
  }

  name(): string {
    return name;
  }

  /**
   * Scoring depends on the pod's requests and overhead (upstream SignPod; as NodeResourcesFit's,
   * refused up to 1.36 while DRAExtendedResource is on, from 1.37 for pods requesting an extended
   * resource a DeviceClass backs).
   */
  signPod(pod: Pod): SignPodResult {
    return signPodResources(pod, this.features, this.kubernetesVersion, this.deviceClassResolver);
  }

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    const podRequests = this.scorer.calculatePodResourceRequestList(pod);
    // Best-effort pods would otherwise pile onto one node (kubernetes/kubernetes#129138).
    if (ResourceAllocationScorer.isBestEffortPod(podRequests)) return new Status(Code.Skip);
    state.write(preScoreStateKey, new PreScoreState(podRequests));
    return null;
  }

  /**
   * The pod's requests PreScore kept, else computed; null for a best-effort pod without PreScore
   * (every node then scores 0).
   */
  private podRequests(state: CycleState, pod: Pod): Float64Array | null {
    const s = state.read(preScoreStateKey);
    if (s) return s.podRequests;
    const podRequests = this.scorer.calculatePodResourceRequestList(pod);
    return ResourceAllocationScorer.isBestEffortPod(podRequests) ? null : podRequests;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const podRequests = this.podRequests(state, pod);
    return podRequests === null ? 0 : this.scorer.score(nodeInfo, podRequests);
  }

  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const podRequests = this.podRequests(state, pod);
    if (podRequests !== null) return this.scorer.scoreColumns(window, podRequests, scores);
    scores.fill(0, 0, window.count);
    return null;
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }
}
