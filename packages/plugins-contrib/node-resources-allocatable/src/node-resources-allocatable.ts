// upstream: pkg/noderesources/allocatable.go and resource_allocation.go
import type { Pod } from "@kubesched/api";
import {
  Code,
  type CycleState,
  MaxNodeScore,
  MinNodeScore,
  type NodeInfo,
  type NodeScore,
  type ResourceSpec,
  type ScoreExtensions,
  type ScorePlugin,
  Status,
} from "@kubesched/framework";
import type { NodeResourcesAllocatableArgs } from "./args";

/** The plugin's registered name (upstream AllocatableName). */
export const name = "NodeResourcesAllocatable";

/** The node's allocatable amount of a resource in canonical units (cpu in millicores). */
function allocatableOf(nodeInfo: NodeInfo, resource: string): number {
  switch (resource) {
    case "cpu":
      return nodeInfo.allocatable.milliCPU;
    case "memory":
      return nodeInfo.allocatable.memory;
    case "ephemeral-storage":
      return nodeInfo.allocatable.ephemeralStorage;
    default:
      // upstream: scalar resources (extended, hugepages, attachable volumes); others count 0
      return nodeInfo.allocatable.scalar(resource);
  }
}

/**
 * NodeResourcesAllocatable: scores nodes by their weighted allocatable resources — the smallest
 * nodes first in Least mode (packing small pods onto small nodes), the largest in Most mode.
 * What pods request does not count.
 */
export class NodeResourcesAllocatable implements ScorePlugin, ScoreExtensions {
  private readonly resources: readonly ResourceSpec[];
  private readonly sign: number;

  constructor(args: NodeResourcesAllocatableArgs) {
    this.resources = args.resources;
    this.sign = args.mode === "Most" ? 1 : -1;
  }

  name(): string {
    return name;
  }

  /** The weighted mean of the allocatable amounts, negative in Least mode (Go integer division). */
  score(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    if (!nodeInfo.node) return new Status(Code.Error, "node not found");
    let nodeScore = 0;
    let weightSum = 0;
    for (const r of this.resources) {
      nodeScore += this.sign * allocatableOf(nodeInfo, r.name) * r.weight;
      weightSum += r.weight;
    }
    return Math.trunc(nodeScore / weightSum);
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  /** Maps [lowest, highest] onto [MinNodeScore, MaxNodeScore]; all equal → MinNodeScore. */
  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | null {
    let highest = -Number.MAX_SAFE_INTEGER;
    let lowest = Number.MAX_SAFE_INTEGER;
    for (const s of scores) {
      if (s.score > highest) highest = s.score;
      if (s.score < lowest) lowest = s.score;
    }
    const oldRange = highest - lowest;
    const newRange = MaxNodeScore - MinNodeScore;
    for (const s of scores) {
      s.score =
        oldRange === 0 ? MinNodeScore : Math.floor(((s.score - lowest) * newRange) / oldRange) + MinNodeScore;
    }
    return null;
  }
}
