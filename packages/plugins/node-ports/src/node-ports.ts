// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go
import { type ContainerPort, getContainerPorts, type Pod } from "@kubesched/api";
import {
  asStatus,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type Features,
  type FilterDetail,
  type FilterDetailsPlugin,
  type FilterPlugin,
  HostPortsSignerName,
  hostPortsSigner,
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
import type { ColumnarFilterPlugin, ColumnWindow } from "@kubesched/framework/columnar";
import { eventsToRegister } from "./events";
import { conflictingPorts, fitsPorts } from "./fits";
import { ErrReason } from "./reasons";

export const name = "NodePorts";

/** The pod's host ports, collected once per cycle. */
class PreFilterState implements StateData {
  constructor(readonly ports: readonly ContainerPort[]) {}
  /** Not affected by pod additions or removals. */
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${name}`);

/** Checks that the host ports a pod asks for are free on the node. */
export class NodePorts
  implements
    PreFilterPlugin,
    FilterPlugin,
    ColumnarFilterPlugin,
    FilterDetailsPlugin,
    EnqueueExtensions,
    SignPlugin
{
  private readonly enableSchedulingQueueHint: boolean;

  constructor(features: Features) {
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
  }

  name(): string {
    return name;
  }

  /** Feasibility depends on the pod's host ports (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: HostPortsSignerName, value: hostPortsSigner(pod) }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint);
  }

  /** Collects host ports of containers and sidecar init containers; Skip when there are none. */
  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    const ports = getContainerPorts(pod);
    if (ports.length === 0) return new Status(Code.Skip);
    state.write(preFilterStateKey, new PreFilterState(ports));
    return null;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = state.read(preFilterStateKey);
    if (s === undefined) {
      return asStatus(new Error(`reading "${preFilterStateKey}" from cycleState: not found`));
    }
    return fitsPorts(s.ports, nodeInfo.usedPorts) ? null : new Status(Code.Unschedulable, ErrReason);
  }

  /** Nodes whose pods use no host port pass without a look at their ports. */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const used = columns.usedPortCount;
    const infos = columns.nodeInfos;
    const hasState = state.read(preFilterStateKey) !== undefined;
    for (let k = 0; k < count; k++) {
      const idx = indices[k] as number;
      out[k] = hasState && used[idx] === 0 ? null : this.filter(state, pod, infos[idx] as NodeInfo);
    }
  }

  /** The pod's host ports already in use on the node. */
  filterDetails(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): FilterDetail[] {
    const s = state.read(preFilterStateKey);
    return s === undefined ? [] : conflictingPorts(s.ports, nodeInfo.usedPorts);
  }
}
