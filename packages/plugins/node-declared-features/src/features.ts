// upstream: staging/src/k8s.io/component-helpers/nodedeclaredfeatures (framework.go, types.go,
// features/registry.go and the features/* packages): which declared node features a pod needs.
import type { PodSpec } from "@kubesched/api";
import { type Version, versionGreaterThan } from "./version";

/**
 * A declared node feature, as the scheduler sees it (upstream's Feature interface without
 * Discover/InferForUpdate, which only the kubelet and the API server use).
 */
export interface DeclaredFeature {
  /** The feature's well-known name, as nodes list it in status.declaredFeatures. */
  readonly name: string;
  /** Whether scheduling the pod requires the feature. */
  inferForScheduling(spec: PodSpec): boolean;
  /**
   * The last Kubernetes version (inclusive) for which the feature is a scheduling factor; null
   * for no bound. A scheduler newer than this no longer requires the feature.
   */
  readonly maxVersion: Version | null;
}

/**
 * The features the pod requires for scheduling at `targetVersion`: sorted, without duplicates
 * (upstream Framework.InferForPodScheduling). Throws when the version is null, as upstream errors.
 */
export function inferForPodScheduling(
  registry: readonly DeclaredFeature[],
  spec: PodSpec | undefined,
  targetVersion: Version | null,
): string[] {
  if (targetVersion === null) throw new Error("target version cannot be nil");
  const s = spec ?? ({ containers: [] } as PodSpec);
  const reqs: string[] = [];
  for (const f of registry) {
    // A scheduler newer than the feature's max version no longer needs to require it.
    if (f.maxVersion !== null && versionGreaterThan(targetVersion, f.maxVersion)) continue;
    if (f.inferForScheduling(s) && !reqs.includes(f.name)) reqs.push(f.name);
  }
  return reqs.sort();
}

// Pod fields newer than kubernetes-types (1.30) that the features below read; a narrow view so
// that pods from a 1.37 cluster are read as they are.
interface SecurityContextView {
  cgroupOptions?: { mountMode?: string | null } | null;
  ulimits?: readonly unknown[] | null;
  seccompProfile?: { type?: string } | null;
}
interface ContainerView {
  securityContext?: SecurityContextView | null;
  restartPolicyRules?: ReadonlyArray<{ action?: string }> | null;
  volumeMounts?: ReadonlyArray<{ bindMountOptions?: readonly string[] | null }> | null;
}
interface VolumeView {
  downwardAPI?: { items?: ReadonlyArray<{ resourceFieldRef?: { resource?: string } | null }> | null } | null;
  projected?: {
    sources?: ReadonlyArray<{
      downwardAPI?: {
        items?: ReadonlyArray<{ resourceFieldRef?: { resource?: string } | null }> | null;
      } | null;
      podCertificate?: { keyType?: string } | null;
    }> | null;
  } | null;
}
interface PodSpecView {
  containers?: readonly ContainerView[] | null;
  initContainers?: readonly ContainerView[] | null;
  ephemeralContainers?: readonly ContainerView[] | null;
  volumes?: readonly VolumeView[] | null;
  securityContext?: { seccompProfile?: { type?: string } | null } | null;
  resources?: { limits?: Readonly<Record<string, unknown>> | null } | null;
  hostNetwork?: boolean;
  hostUsers?: boolean;
  defaultNetwork?: string | null;
}

const view = (spec: PodSpec): PodSpecView => spec as unknown as PodSpecView;

/** Whether any container of the lists satisfies `pred`. */
function anyContainer(
  lists: ReadonlyArray<readonly ContainerView[] | null | undefined>,
  pred: (c: ContainerView) => boolean,
): boolean {
  for (const list of lists) {
    for (const c of list ?? []) if (pred(c)) return true;
  }
  return false;
}

// features/cgroupoptions: a container or init container sets securityContext.cgroupOptions.mountMode.
const cgroupOptions: DeclaredFeature = {
  name: "CgroupOptions",
  maxVersion: null,
  inferForScheduling(spec) {
    const s = view(spec);
    return anyContainer(
      [s.containers, s.initContainers],
      (c) => c.securityContext?.cgroupOptions?.mountMode != null,
    );
  },
};

// features/containerulimits: any container (regular, init, ephemeral) sets securityContext.ulimits.
const containerUlimits: DeclaredFeature = {
  name: "ContainerUlimits",
  maxVersion: null,
  inferForScheduling(spec) {
    const s = view(spec);
    return anyContainer(
      [s.containers, s.initContainers, s.ephemeralContainers],
      (c) => (c.securityContext?.ulimits?.length ?? 0) > 0,
    );
  },
};

const assignedCPUSet = "assigned.cpuset";

// features/downwardapiassignedresources: a downward API item (in a volume or a projected volume)
// exposes resourceFieldRef "assigned.cpuset".
const downwardAPIAssignedResources: DeclaredFeature = {
  name: "DownwardAPIAssignedResources",
  maxVersion: null,
  inferForScheduling(spec) {
    for (const vol of view(spec).volumes ?? []) {
      for (const item of vol.downwardAPI?.items ?? []) {
        if (item.resourceFieldRef?.resource === assignedCPUSet) return true;
      }
      for (const source of vol.projected?.sources ?? []) {
        for (const item of source.downwardAPI?.items ?? []) {
          if (item.resourceFieldRef?.resource === assignedCPUSet) return true;
        }
      }
    }
    return false;
  },
};

// features/perpodpidlimit: pod-level resources.limits has "pid".
const perPodPIDLimit: DeclaredFeature = {
  name: "PerPodPIDLimit",
  maxVersion: null,
  inferForScheduling(spec) {
    const limits = view(spec).resources?.limits;
    return limits != null && Object.hasOwn(limits, "pid");
  },
};

const mldsaKeyTypes: ReadonlySet<string> = new Set(["MLDSA44", "MLDSA65", "MLDSA87"]);

// features/podcertificatesmldsa: a projected podCertificate source with an ML-DSA key type.
const podCertificateMLDSA: DeclaredFeature = {
  name: "PodCertificateMLDSA",
  maxVersion: null,
  inferForScheduling(spec) {
    for (const vol of view(spec).volumes ?? []) {
      for (const source of vol.projected?.sources ?? []) {
        const keyType = source.podCertificate?.keyType;
        if (keyType !== undefined && mldsaKeyTypes.has(keyType)) return true;
      }
    }
    return false;
  },
};

// features/poddefaultnetworknone: spec.defaultNetwork is "None".
const podDefaultNetworkNone: DeclaredFeature = {
  name: "PodDefaultNetworkNone",
  maxVersion: null,
  inferForScheduling(spec) {
    return view(spec).defaultNetwork === "None";
  },
};

// features/restartallcontainers: a container or init container has a restart rule with action
// RestartAllContainers.
const restartAllContainersOnContainerExits: DeclaredFeature = {
  name: "RestartAllContainersOnContainerExits",
  maxVersion: null,
  inferForScheduling(spec) {
    const s = view(spec);
    return anyContainer([s.containers, s.initContainers], (c) => {
      for (const rule of c.restartPolicyRules ?? []) {
        if (rule.action === "RestartAllContainers") return true;
      }
      return false;
    });
  },
};

// features/securityprofileoci: a seccomp profile of type OCI on the pod or any container.
const securityProfileOCI: DeclaredFeature = {
  name: "SecurityProfileOCI",
  maxVersion: null,
  inferForScheduling(spec) {
    const s = view(spec);
    if (s.securityContext?.seccompProfile?.type === "OCI") return true;
    return anyContainer(
      [s.initContainers, s.containers, s.ephemeralContainers],
      (c) => c.securityContext?.seccompProfile?.type === "OCI",
    );
  },
};

// features/usernamespaceshostnetwork: host network together with a user namespace (hostUsers: false).
const userNamespacesHostNetworkSupport: DeclaredFeature = {
  name: "UserNamespacesHostNetworkSupport",
  maxVersion: null,
  inferForScheduling(spec) {
    const s = view(spec);
    return s.hostNetwork === true && s.hostUsers === false;
  },
};

// features/volumebindmountoptions: any container (regular, init, ephemeral) mounts a volume with
// bindMountOptions.
const volumeBindMountOptions: DeclaredFeature = {
  name: "VolumeBindMountOptions",
  maxVersion: null,
  inferForScheduling(spec) {
    const s = view(spec);
    return anyContainer([s.containers, s.initContainers, s.ephemeralContainers], (c) => {
      for (const m of c.volumeMounts ?? []) {
        if ((m.bindMountOptions?.length ?? 0) > 0) return true;
      }
      return false;
    });
  },
};

/**
 * The registered features that can be required for scheduling (upstream features.AllFeatures).
 * Features whose InferForScheduling is always false upstream (the in-place resize ones,
 * DRANodeAllocatableResources, DRAOptionalNodeOperations, ExtendWebSocketsToKubelet) are omitted:
 * they never add a scheduling requirement.
 */
export const allFeatures: readonly DeclaredFeature[] = [
  cgroupOptions,
  containerUlimits,
  downwardAPIAssignedResources,
  perPodPIDLimit,
  podCertificateMLDSA,
  podDefaultNetworkNone,
  restartAllContainersOnContainerExits,
  securityProfileOCI,
  userNamespacesHostNetworkSupport,
  volumeBindMountOptions,
];
