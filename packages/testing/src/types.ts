// Kubernetes types the builders need that @kubesched/api does not re-export by name, derived from
// the ones it does (so this package never depends on kubernetes-types directly).
import type { Node, PodSpec, PodStatus, StorageClass } from "@kubesched/api";

export type {
  Container,
  ContainerPort,
  CSINode,
  LabelSelector,
  LabelSelectorRequirement,
  Namespace,
  Node,
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodAffinityTerm,
  PodCondition,
  PodDisruptionBudget,
  PodSpec,
  PodStatus,
  PriorityClass,
  ReplicaSet,
  ResourceList,
  ResourceRequirements,
  Service,
  StatefulSet,
  StorageClass,
  Taint,
  Toleration,
  TopologySpreadConstraint,
} from "@kubesched/api";

type Elem<T> = T extends ReadonlyArray<infer E> ? E : never;

export type Volume = Elem<NonNullable<PodSpec["volumes"]>>;
/** A pod resource claim with the 1.31+ top-level claim fields (kubernetes-types has 1.30's `source`). */
export type PodResourceClaim = Elem<NonNullable<PodSpec["resourceClaims"]>> & {
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
};
export type PodResourceClaimStatus = Elem<NonNullable<PodStatus["resourceClaimStatuses"]>>;
export type NodeCondition = Elem<NonNullable<NonNullable<Node["status"]>["conditions"]>>;
export type TopologySelectorTerm = Elem<NonNullable<StorageClass["allowedTopologies"]>>;
