// upstream: staging/src/k8s.io/api/core/v1/well_known_labels.go
/** The node's hostname label. */
export const LabelHostname = "kubernetes.io/hostname";
export const LabelTopologyZone = "topology.kubernetes.io/zone";
export const LabelTopologyRegion = "topology.kubernetes.io/region";
/** Deprecated since 1.17; still read where upstream reads it. */
export const LabelFailureDomainBetaZone = "failure-domain.beta.kubernetes.io/zone";
/** Deprecated since 1.17; still read where upstream reads it. */
export const LabelFailureDomainBetaRegion = "failure-domain.beta.kubernetes.io/region";
