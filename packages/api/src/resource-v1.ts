// Dynamic Resource Allocation objects, resource.k8s.io/v1, as JSON (what `kubectl get -o yaml`
// prints). upstream: staging/src/k8s.io/api/resource/v1/types.go (read at kubernetes/kubernetes
// 0226316d6a24, the 1.37 API: `+k8s:beta(since: "1.37")` tags). Written here because
// kubernetes-types stops at 1.30 (resource.k8s.io/v1alpha2, the removed classic DRA) and
// @kubernetes/client-node 1.4's models are 1.34 classes with `Date` fields (see README).
// Every field is optional where the API marks it optional; quantities are strings.
import type { NodeSelector } from "kubernetes-types/core/v1.js";
import type { ObjectMeta } from "kubernetes-types/meta/v1.js";

/** The API group and version every object here is written in. */
export const ResourceAPIVersion = "resource.k8s.io/v1";

/** Finalizer the resourceclaim controller sets on the claims it generated. */
export const ResourceClaimFinalizer = "resource.kubernetes.io/delete-protection";
/** Annotation on a claim the scheduler created for extended resources backed by DRA. */
export const ExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim";
/** Annotation on a template-generated claim: the pod's spec.resourceClaims[].name. */
export const PodResourceClaimAnnotation = "resource.kubernetes.io/pod-claim-name";
/** Prefix of the implicit extended resource name of a DeviceClass. */
export const ResourceDeviceClassPrefix = "deviceclass.resource.kubernetes.io/";
/** Namespace label granting adminAccess requests in that namespace. */
export const DRAAdminNamespaceLabelKey = "resource.kubernetes.io/admin-access";

/** Cost limit of one CEL selector evaluation (the scheduler enforces it at runtime too). */
export const CELSelectorExpressionMaxCost = 1_000_000;
/** Maximum length of a CEL selector expression. */
export const CELSelectorExpressionMaxLength = 10 * 1024;
/** Maximum number of results in allocation.devices.results (and of requests in a claim). */
export const AllocationResultsMaxSize = 32;
/** Maximum number of entries in claim.status.reservedFor. */
export const ResourceClaimReservedForMaxSize = 256;
/** Maximum number of devices in a ResourceSlice. */
export const ResourceSliceMaxDevices = 128;
/** Maximum devices in a slice when a device uses taints, counters or list attributes. */
export const ResourceSliceMaxDevicesWithAdvancedFeatures = 64;

/** An attribute or capacity name: `id` (driver's domain) or `domain/id`. */
export type QualifiedName = string;
/** A QualifiedName with its domain. */
export type FullyQualifiedName = string;

export interface ResourceSlice {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ResourceSliceSpec;
}

export interface ResourceSliceSpec {
  driver: string;
  pool: ResourcePool;
  /** Exactly one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection is set. */
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
  /** Only one of devices and sharedCounters is set in a slice. */
  devices?: Device[];
  /** Each device says where it is available (DRAPartitionableDevices). */
  perDeviceNodeSelection?: boolean;
  /** Counter sets devices of the pool consume from (DRAPartitionableDevices). */
  sharedCounters?: CounterSet[];
  /** A string attribute labelling each partitionable device's type (DRAPartitionableDevicesType, alpha). */
  partitionTypeAttribute?: FullyQualifiedName;
  /** Node operations skipped for the slice's devices (DRAOptionalNodeOperations, alpha). */
  skipNodeOperations?: string[];
}

export interface ResourcePool {
  name: string;
  generation: number;
  resourceSliceCount: number;
}

export interface CounterSet {
  name: string;
  counters: { [name: string]: Counter };
}

export interface Counter {
  value: string;
}

export interface Device {
  name: string;
  attributes?: { [name: QualifiedName]: DeviceAttribute };
  capacity?: { [name: QualifiedName]: DeviceCapacity };
  consumesCounters?: DeviceCounterConsumption[];
  /** With spec.perDeviceNodeSelection: at most one of nodeName, nodeSelector, allNodes. */
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
  taints?: DeviceTaint[];
  bindsToNode?: boolean;
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  /** The device may be allocated more than once (DRAConsumableCapacity). */
  allowMultipleAllocations?: boolean;
  /** Node allocatable resources the device maps to (DRANodeAllocatableResources, alpha). */
  nodeAllocatableResources?: { [resource: string]: NodeAllocatableResource };
}

export interface NodeAllocatableResource {
  mapping?: { capacityKey?: QualifiedName; capacityMultiplier?: string; deviceMultiplier?: string };
  overhead?: { perPod?: string; perContainer?: string };
}

export interface DeviceCounterConsumption {
  counterSet: string;
  counters: { [name: string]: Counter };
  /** Co-allocation groups (DRADeviceCompatibilityGroups, alpha). */
  compatibilityGroups?: string[];
}

export interface DeviceCapacity {
  value: string;
  requestPolicy?: CapacityRequestPolicy;
}

export interface CapacityRequestPolicy {
  default?: string;
  validValues?: string[];
  validRange?: CapacityRequestPolicyRange;
}

export interface CapacityRequestPolicyRange {
  min?: string;
  max?: string;
  step?: string;
}

/** Exactly one field is set. */
export interface DeviceAttribute {
  int?: number;
  bool?: boolean;
  string?: string;
  version?: string;
  /** List values (DRAListTypeAttributes, alpha). */
  ints?: number[];
  bools?: boolean[];
  strings?: string[];
  versions?: string[];
}

export type DeviceTaintEffect = "None" | "NoSchedule" | "NoExecute" | (string & {});

export interface DeviceTaint {
  key: string;
  value?: string;
  effect: DeviceTaintEffect;
  timeAdded?: string;
}

/**
 * An admin's taint for the devices its selector picks (DRADeviceTaintRules; resource.k8s.io/v1 from
 * 1.37, v1beta2 in 1.36, v1alpha3 before): the same effect as the taint in the ResourceSlice.
 */
export interface DeviceTaintRule {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: DeviceTaintRuleSpec;
  /** Written by the eviction controller (kube-controller-manager); the scheduler does not read it. */
  status?: { conditions?: unknown[] };
}

export interface DeviceTaintRuleSpec {
  /** All set criteria must match. Absent: every device (as upstream's ResourceSlice tracker applies it). */
  deviceSelector?: DeviceTaintSelector;
  taint: DeviceTaint;
}

export interface DeviceTaintSelector {
  /** slice.spec.driver. */
  driver?: string;
  /** slice.spec.pool.name. */
  pool?: string;
  /** slice.spec.devices[].name. */
  device?: string;
}

export interface ResourceClaim {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ResourceClaimSpec;
  status?: ResourceClaimStatus;
}

export interface ResourceClaimSpec {
  devices?: DeviceClaim;
}

export interface DeviceClaim {
  requests?: DeviceRequest[];
  constraints?: DeviceConstraint[];
  config?: DeviceClaimConfiguration[];
}

export type DeviceAllocationMode = "ExactCount" | "All" | (string & {});

/** One of exactly and firstAvailable is set. */
export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: DeviceSubRequest[];
}

export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelector[];
  /** Defaults to ExactCount. */
  allocationMode?: DeviceAllocationMode;
  /** Defaults to 1 with ExactCount. */
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequirements;
  /** Virtual attributes computed by CEL for constraints (DRADerivedAttributes, alpha). */
  derivedAttributes?: DeviceDerivedAttribute[];
}

export interface DeviceSubRequest {
  name: string;
  deviceClassName: string;
  selectors?: DeviceSelector[];
  allocationMode?: DeviceAllocationMode;
  count?: number;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequirements;
  derivedAttributes?: DeviceDerivedAttribute[];
}

export interface CapacityRequirements {
  requests?: { [name: QualifiedName]: string };
}

export interface DeviceDerivedAttribute {
  name: FullyQualifiedName;
  expression: string;
}

/** Exactly one field is set. */
export interface DeviceSelector {
  cel?: CELDeviceSelector;
}

export interface CELDeviceSelector {
  expression: string;
}

/** Exactly one of matchAttribute and distinctAttribute is set. */
export interface DeviceConstraint {
  requests?: string[];
  matchAttribute?: FullyQualifiedName;
  distinctAttribute?: FullyQualifiedName;
}

export interface DeviceConfiguration {
  opaque?: OpaqueDeviceConfiguration;
}

export interface DeviceClaimConfiguration extends DeviceConfiguration {
  requests?: string[];
}

export interface OpaqueDeviceConfiguration {
  driver: string;
  parameters: unknown;
}

export type DeviceTolerationOperator = "Exists" | "Equal" | (string & {});

export interface DeviceToleration {
  key?: string;
  /** Defaults to Equal. */
  operator?: DeviceTolerationOperator;
  value?: string;
  effect?: DeviceTaintEffect;
  tolerationSeconds?: number;
}

export interface ResourceClaimStatus {
  allocation?: AllocationResult;
  reservedFor?: ResourceClaimConsumerReference[];
  devices?: AllocatedDeviceStatus[];
}

export interface ResourceClaimConsumerReference {
  apiGroup?: string;
  resource: string;
  name: string;
  uid: string;
}

export interface AllocationResult {
  devices?: DeviceAllocationResult;
  nodeSelector?: NodeSelector;
  allocationTimestamp?: string;
}

export interface DeviceAllocationResult {
  results?: DeviceRequestAllocationResult[];
  config?: DeviceAllocationConfiguration[];
}

export interface DeviceRequestAllocationResult {
  /** `<request>` or `<request>/<subrequest>`. */
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  shareID?: string;
  consumedCapacity?: { [name: QualifiedName]: string };
  skipNodeOperations?: string[];
}

export type AllocationConfigSource = "FromClass" | "FromClaim";

export interface DeviceAllocationConfiguration extends DeviceConfiguration {
  source: AllocationConfigSource;
  requests?: string[];
}

export interface AllocatedDeviceStatus {
  driver: string;
  pool: string;
  device: string;
  shareID?: string;
  conditions?: {
    type: string;
    status: string;
    reason?: string;
    message?: string;
    lastTransitionTime?: string;
    observedGeneration?: number;
  }[];
  data?: unknown;
  networkData?: { interfaceName?: string; ips?: string[]; hardwareAddress?: string };
}

export interface DeviceClass {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: DeviceClassSpec;
}

export interface DeviceClassSpec {
  selectors?: DeviceSelector[];
  config?: DeviceConfiguration[];
  /** The extended resource name the class's devices back (DRAExtendedResource). */
  extendedResourceName?: string;
}

export interface ResourceClaimTemplate {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ResourceClaimTemplateSpec;
}

export interface ResourceClaimTemplateSpec {
  /** Labels and annotations copied into the generated claim. */
  metadata?: ObjectMeta;
  spec?: ResourceClaimSpec;
}
