// DRAOptionalNodeOperations (alpha in 1.37, KEP-5945): which nodes can run devices whose node
// operations are skipped. The KEP's "Node Declared Features Integration" enforces it in the
// DynamicResources plugin in two places: the allocator does not select a device of a slice with
// `skipNodeOperations` for a node that does not declare the feature, and Filter rejects such a
// node for a claim already allocated with such devices. The node declared feature is
// `DRAOptionalNodeOperations` (component-helpers nodedeclaredfeatures/features/
// draoptionalnodeoperations/feature.go at kubernetes/kubernetes 4966917a, whose
// InferForScheduling leaves the check to the plugin).
import type { AllocationResult, Node } from "@kubesched/api";

/** The node declared feature a node lists when its kubelet can skip node operations. */
export const optionalNodeOperationsFeature = "DRAOptionalNodeOperations";

/** Whether the node lists DRAOptionalNodeOperations in `status.declaredFeatures`. */
export function nodeDeclaresOptionalNodeOperations(node: Node): boolean {
  return node.status?.declaredFeatures?.includes(optionalNodeOperationsFeature) ?? false;
}

/** Whether any device of the allocation skips a node operation (`skipNodeOperations` set). */
export function allocationSkipsNodeOperations(allocation: AllocationResult): boolean {
  return allocation.devices?.results?.some((r) => (r.skipNodeOperations?.length ?? 0) > 0) ?? false;
}
