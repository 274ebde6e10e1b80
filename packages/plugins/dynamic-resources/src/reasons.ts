// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go and
// k8s.io/dynamic-resource-allocation/resourceclaim (Name, ErrClaimNotFound, ErrAPIUnsupported)

/** A claim generated from a template is not in pod.status.resourceClaimStatuses yet. */
export const ErrClaimNotFound = "ResourceClaim not created yet";
/** A pod resource claim with neither resourceClaimName nor resourceClaimTemplateName. */
export const ErrAPIUnsupported = "API unsupported";
/** PostFilter with no allocated claim to deallocate. */
export const ErrReasonNoNewClaimsToDeallocate = "no new claims to deallocate";
