// Kubernetes object types, re-exported from kubernetes-types (plain JSON shapes, types only).
// kubernetes-types tracks k8s 1.30; the augmentations below add the 1.31–1.37 fields the
// scheduler reads, so `kubectl get -o yaml` output of a 1.37 cluster type-checks.
import type { ResourceRequirements } from "kubernetes-types/core/v1.js";

export type { Quantity as QuantityString } from "kubernetes-types/api/resource.js";
export type { ReplicaSet, StatefulSet } from "kubernetes-types/apps/v1.js";
export type { Lease } from "kubernetes-types/coordination/v1.js";
export type {
  Affinity,
  Binding,
  Container,
  ContainerImage,
  ContainerPort,
  ContainerStatus,
  Event,
  Namespace,
  Node,
  NodeAffinity,
  NodeAllocatableMappedResources,
  NodeAllocatableOverheadResources,
  NodeAllocatableResourceClaimStatus,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  NodeSpec,
  NodeStatus,
  ObjectReference,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodAffinity,
  PodAffinityTerm,
  PodAntiAffinity,
  PodCondition,
  PodSpec,
  PodStatus,
  PreferredSchedulingTerm,
  ReplicationController,
  ResourceRequirements,
  Service,
  Taint,
  Toleration,
  TopologySpreadConstraint,
  WeightedPodAffinityTerm,
} from "kubernetes-types/core/v1.js";
export type {
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
} from "kubernetes-types/meta/v1.js";
export type { PodDisruptionBudget } from "kubernetes-types/policy/v1.js";
export type { PriorityClass } from "kubernetes-types/scheduling/v1.js";
export type { CSINode, StorageClass } from "kubernetes-types/storage/v1.js";

/** A resource list as it appears in YAML: resource name → quantity string. */
export type ResourceList = { [name: string]: string };

declare module "kubernetes-types/core/v1.js" {
  interface PodSpec {
    /** Pod-level resources (PodLevelResources, alpha 1.32, beta 1.34). */
    resources?: ResourceRequirements;
  }
  interface PodStatus {
    /** Pod-level allocated resources (InPlacePodLevelResourcesVerticalScaling, 1.35+). */
    allocatedResources?: { [name: string]: string };
    /** Pod-level actuated resources (InPlacePodLevelResourcesVerticalScaling, 1.35+). */
    resources?: ResourceRequirements;
    /** Generation of the pod spec the status reflects (PodObservedGenerationTracking, 1.33+). */
    observedGeneration?: number;
  }
  interface PodCondition {
    /** Generation of the pod spec the condition reflects (PodObservedGenerationTracking, 1.33+). */
    observedGeneration?: number;
  }
  interface PodResourceClaim {
    /** The name of an existing ResourceClaim in the pod's namespace (1.31+, replaces `source`). */
    resourceClaimName?: string;
    /** The name of a ResourceClaimTemplate to generate the claim from (1.31+, replaces `source`). */
    resourceClaimTemplateName?: string;
  }
  interface ResourceClaim {
    /** The request of the claim the container uses; all requests when unset (1.32+). */
    request?: string;
  }
  interface PodStatus {
    /** The claim the scheduler created for extended resources backed by DRA (DRAExtendedResource, 1.34+). */
    extendedResourceClaimStatus?: PodExtendedResourceClaimStatus;
    /**
     * Node allocatable resources (cpu, memory, hugepages) the pod's DRA claims account for,
     * written by the scheduler (DRANodeAllocatableResources, alpha 1.36+; 1.37 shape).
     */
    nodeAllocatableResourceClaimStatuses?: NodeAllocatableResourceClaimStatus[];
  }
  /** upstream core/v1 NodeAllocatableResourceClaimStatus (1.37: `mapping` and `overhead`). */
  interface NodeAllocatableResourceClaimStatus {
    /** The claim (its name in the namespace) the resources come from. */
    resourceClaimName: string;
    /** The containers of the pod that reference the claim. */
    containers?: string[];
    /** Resources the claim's devices are (their `nodeAllocatableResources[...].mapping`). */
    mapping?: NodeAllocatableMappedResources[];
    /** Resources the claim's devices cost (their `nodeAllocatableResources[...].overhead`). */
    overhead?: NodeAllocatableOverheadResources[];
  }
  /** upstream core/v1 NodeAllocatableMappedResources. */
  interface NodeAllocatableMappedResources {
    name: string;
    quantity: string;
  }
  /** upstream core/v1 NodeAllocatableOverheadResources. */
  interface NodeAllocatableOverheadResources {
    name: string;
    perPod?: string;
    perContainer?: string;
  }
  /** upstream core/v1 PodExtendedResourceClaimStatus. */
  interface PodExtendedResourceClaimStatus {
    requestMappings: { containerName: string; resourceName: string; requestName: string }[];
    resourceClaimName: string;
  }
  interface NodeStatus {
    /** Features the node declares it supports (NodeDeclaredFeatures, alpha 1.35, GA 1.37). */
    declaredFeatures?: string[];
  }
}
