// upstream: pkg/scheduler/framework/plugins/dynamicresources/nodeallocatabledynamicresources.go
// (ExtractPodNodeAllocatableResourceClaimStatus, kubernetes/kubernetes@0411cc70) and its caller in
// pkg/scheduler/schedule_one.go (assume): the node allocatable resources DynamicResources' Filter
// found for the chosen node go onto the assumed pod, so that the cache accounts for them at once.
import type { NodeAllocatableResourceClaimStatus } from "@kubesched/api";
import { type CycleState, type StateData, stateKey } from "./cycle-state";

/**
 * What the DynamicResources plugin keeps in the cycle state for the scheduler's assume step
 * (DRANodeAllocatableResources).
 * @public
 */
export interface NodeAllocatableClaimStatusesSource extends StateData {
  /** The pod's claim statuses Filter computed for `nodeName`; undefined when it computed none. */
  nodeAllocatableResourceClaimStatuses(
    nodeName: string,
  ): readonly NodeAllocatableResourceClaimStatus[] | undefined;
}

/**
 * The cycle-state key DynamicResources keeps its state under (upstream names.DynamicResources).
 * @public
 */
export const dynamicResourcesStateKey = stateKey<StateData>("DynamicResources");

function isSource(s: StateData | undefined): s is NodeAllocatableClaimStatusesSource {
  return (
    s !== undefined &&
    typeof (s as Partial<NodeAllocatableClaimStatusesSource>).nodeAllocatableResourceClaimStatuses ===
      "function"
  );
}

/**
 * upstream ExtractPodNodeAllocatableResourceClaimStatus: a copy of the claim statuses
 * DynamicResources' Filter computed for `nodeName` (a copy: the assumed pod keeps it while the
 * cycle's state may still change); undefined when the plugin did not run or found none.
 * @public
 */
export function extractPodNodeAllocatableResourceClaimStatus(
  state: CycleState,
  nodeName: string,
): NodeAllocatableResourceClaimStatus[] | undefined {
  const s = state.read(dynamicResourcesStateKey);
  if (!isSource(s)) return undefined;
  const statuses = s.nodeAllocatableResourceClaimStatuses(nodeName);
  if (statuses === undefined) return undefined;
  return statuses.map((st) => {
    const copy: NodeAllocatableResourceClaimStatus = { ...st };
    if (st.containers) copy.containers = [...st.containers];
    if (st.mapping) copy.mapping = st.mapping.map((m) => ({ ...m }));
    if (st.overhead) copy.overhead = st.overhead.map((o) => ({ ...o }));
    return copy;
  });
}
