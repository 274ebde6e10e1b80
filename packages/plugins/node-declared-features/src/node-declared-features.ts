// upstream: pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go
import type { Pod } from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  FeaturesSignerName,
  type FilterPlugin,
  type NodeInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import { eventsToRegister } from "./events";
import { allFeatures, type DeclaredFeature, inferForPodScheduling } from "./features";
import { ErrReasonUnsatisfiedRequirements } from "./reasons";
import { kubernetesVersion, type Version } from "./version";

export const name = "NodeDeclaredFeatures";

/** The pod's required features (sorted), computed at PreFilter. */
class PreFilterState implements StateData {
  constructor(readonly reqs: readonly string[]) {}
  /** Never mutated after PreFilter: shared, as upstream. */
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${name}`);

/** The PreFilter state, or an Error when PreFilter did not write it (upstream getPreFilterState). */
export function getPreFilterState(state: CycleState): PreFilterState {
  const s = state.read(preFilterStateKey);
  if (s === undefined) throw new Error(`error reading "${preFilterStateKey}" from cycle-state: not found`);
  return s;
}

export interface NodeDeclaredFeaturesOptions {
  /** Feature gate NodeDeclaredFeatures; when off the plugin does nothing. */
  enabled: boolean;
  /** The declared features the pod's requirements are inferred from (default: the 1.37 registry). */
  registry?: readonly DeclaredFeature[];
  /** The version requirements are inferred for (default: 1.37.0); null makes inference fail. */
  version?: Version | null;
}

/**
 * Checks that a node declares (status.declaredFeatures) every feature the pod requires, as
 * inferred from the pod's spec.
 */
export class NodeDeclaredFeatures implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  private readonly enabled: boolean;
  private readonly registry: readonly DeclaredFeature[];
  private readonly version: Version | null;
  /** The registry's feature names, unique and sorted (upstream FeatureMapper's bit order). */
  private readonly registeredNames: readonly string[];

  constructor(opts: NodeDeclaredFeaturesOptions) {
    this.enabled = opts.enabled;
    this.registry = opts.registry ?? allFeatures;
    this.version = opts.version === undefined ? kubernetesVersion : opts.version;
    this.registeredNames = [...new Set(this.registry.map((f) => f.name))].sort();
  }

  name(): string {
    return name;
  }

  /**
   * Feasibility depends on the features the pod requires (upstream SignPod): the required set as
   * upstream's FeatureSet prints it, one character per registered feature in name order, "1"
   * where required. Upstream reads its nil feature framework when the gate is off; here a
   * disabled plugin adds nothing.
   */
  signPod(pod: Pod): SignPodResult {
    if (!this.enabled) return { fragments: [], status: null };
    let reqs: string[];
    try {
      reqs = inferForPodScheduling(this.registry, pod.spec, this.version);
    } catch (e) {
      return { fragments: [], status: asStatus(e) };
    }
    const required = new Set(reqs);
    let bits = "";
    for (const n of this.registeredNames) bits += required.has(n) ? "1" : "0";
    return { fragments: [{ key: FeaturesSignerName, value: bits }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enabled, this.registry, this.version);
  }

  /** Skip when disabled or the pod requires no feature; otherwise store the requirements. */
  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    if (!this.enabled) return new Status(Code.Skip);
    let reqs: string[];
    try {
      // Pod status is not set yet at scheduling: only the spec is inferred from, as upstream.
      reqs = inferForPodScheduling(this.registry, pod.spec, this.version);
    } catch (e) {
      return asStatus(e);
    }
    if (reqs.length === 0) return new Status(Code.Skip);
    state.write(preFilterStateKey, new PreFilterState(reqs));
    return null;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    if (!this.enabled) return null;
    const s = state.read(preFilterStateKey);
    if (s === undefined) {
      return asStatus(new Error(`error reading "${preFilterStateKey}" from cycle-state: not found`));
    }
    // Subset check without allocation; features the node declares but nobody requires are ignored.
    const declared = nodeInfo.node?.status?.declaredFeatures;
    const reqs = s.reqs;
    for (let i = 0; i < reqs.length; i++) {
      if (declared === undefined || !declared.includes(reqs[i]!)) {
        return new Status(Code.UnschedulableAndUnresolvable, ErrReasonUnsatisfiedRequirements);
      }
    }
    return null;
  }
}
