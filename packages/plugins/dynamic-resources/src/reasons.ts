// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go and
// k8s.io/dynamic-resource-allocation/resourceclaim (Name, ErrClaimNotFound, ErrAPIUnsupported)

/** A claim generated from a template is not in pod.status.resourceClaimStatuses yet. */
export const ErrClaimNotFound = "ResourceClaim not created yet";
/** A pod resource claim with neither resourceClaimName nor resourceClaimTemplateName. */
export const ErrAPIUnsupported = "API unsupported";
/** PostFilter with no claim at all (1.34–1.36; 1.37 keeps the status without it). */
export const ErrReasonNoNewClaimsToDeallocate = "no new claims to deallocate";
/** PreFilter: an allocated claim whose reservedFor is full and does not hold the pod. */
export const ErrReasonResourceClaimInUse = "resourceclaim in use";
/** Filter: an allocated claim's node selector does not match the node. */
export const ErrReasonClaimNotAvailable = "resourceclaim not available on the node";
/**
 * Filter (DRAOptionalNodeOperations): an allocated claim's devices skip node operations and the
 * node does not declare the feature. kubesched's wording: the upstream Filter code (KEP-5945's
 * second check) is not in the code-search index.
 */
export const ErrReasonOptionalNodeOperationsUnsupported =
  "node does not declare DRAOptionalNodeOperations, needed by an allocated resourceclaim";
/** Filter: the allocator found no devices for every claim on the node. */
export const ErrReasonCannotAllocateAllClaims = "cannot allocate all claims";
/** Filter: the allocator ran longer than the filterTimeout arg. */
export const ErrReasonTimedOut = "timed out trying to allocate devices";
/** PostFilter: an allocated claim no one else uses was deallocated. */
export const ErrReasonDeallocationCompleted = "deallocation of ResourceClaim completed";
/** PostFilter: nothing to deallocate. */
export const ErrReasonStillNotSchedulable = "still not schedulable";
/** PostFilter: the special claim for extended resources left from an earlier cycle was deleted. */
export const ErrReasonDeletionCompleted = "deletion of ResourceClaim completed";
