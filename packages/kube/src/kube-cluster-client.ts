// The writes the scheduler makes (upstream: clientset calls in DefaultBinder, the failure
// handler's updatePod, and preemption), as raw JSON requests through the scheduler's client.
import { formatTime, getPodCondition, type Pod, type PodCondition, type ResourceClaim } from "@kubesched/api";
import type { ClusterClient, PodStatusPatch } from "@kubesched/framework";
import { isNotFound } from "./api-error";
import type { RawClient } from "./raw-client";

export interface KubeClusterClientOptions {
  /** Current time in ms, for condition transition times. */
  now?: () => number;
}

function meta(pod: Pod): { name: string; namespace: string } {
  return { name: pod.metadata?.name ?? "", namespace: pod.metadata?.namespace || "default" };
}

/**
 * The strategic-merge patch body for pods/status: conditions merge by `type`; a null
 * nominatedNodeName deletes the field. lastTransitionTime is set when the condition is new or its
 * status flips (upstream podutil.UpdatePodCondition), and left out otherwise so the server keeps it.
 */
export function podStatusPatchBody(
  pod: Pod,
  patch: PodStatusPatch,
  now: number,
): { status: object; metadata?: { uid: string } } {
  const status: {
    conditions?: PodCondition[];
    nominatedNodeName?: string | null;
    extendedResourceClaimStatus?: PodStatusPatch["extendedResourceClaimStatus"];
    nodeAllocatableResourceClaimStatuses?: PodStatusPatch["nodeAllocatableResourceClaimStatuses"];
  } = {};
  if (patch.conditions) {
    status.conditions = patch.conditions.map((c) => {
      const prev = getPodCondition(pod.status, c.type);
      const { lastTransitionTime, lastProbeTime, ...rest } = c;
      const flipped = prev === undefined || prev.status !== c.status;
      return {
        ...rest,
        ...(lastProbeTime ? { lastProbeTime } : {}),
        ...(lastTransitionTime
          ? { lastTransitionTime }
          : flipped
            ? { lastTransitionTime: formatTime(now) }
            : {}),
      };
    });
  }
  if (patch.nominatedNodeName !== undefined) status.nominatedNodeName = patch.nominatedNodeName || null;
  if (patch.extendedResourceClaimStatus)
    status.extendedResourceClaimStatus = patch.extendedResourceClaimStatus;
  if (patch.nodeAllocatableResourceClaimStatuses !== undefined) {
    // An atomic list: the patch replaces it. Clearing it (an explicit empty list) carries the
    // pod's uid as a precondition, as upstream's Unreserve does, so that it cannot reach a
    // recreated pod of the same name.
    status.nodeAllocatableResourceClaimStatuses = patch.nodeAllocatableResourceClaimStatuses;
    const uid = pod.metadata?.uid;
    if (patch.nodeAllocatableResourceClaimStatuses.length === 0 && uid) return { metadata: { uid }, status };
  }
  return { status };
}

function resourceClaimsPath(claim: ResourceClaim): string {
  const namespace = claim.metadata?.namespace || "default";
  return `/apis/resource.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/resourceclaims`;
}

function resourceClaimPath(claim: ResourceClaim): string {
  return `${resourceClaimsPath(claim)}/${encodeURIComponent(claim.metadata?.name ?? "")}`;
}

function podPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
}

/**
 * The scheduler's writes through `client` (its rate limiter, deadline and metrics): bindings,
 * pod deletions (preemption), status patches and DynamicResources' ResourceClaim updates.
 */
export function kubeClusterClient(client: RawClient, opts: KubeClusterClientOptions = {}): ClusterClient {
  const now = opts.now ?? Date.now;
  return {
    async bindPod(pod, nodeName) {
      const { name, namespace } = meta(pod);
      await client.request("POST", `${podPath(namespace, name)}/binding`, {
        what: `binding pod ${namespace}/${name} to node ${nodeName}`,
        body: {
          apiVersion: "v1",
          kind: "Binding",
          metadata: { name, namespace, ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}) },
          target: { apiVersion: "v1", kind: "Node", name: nodeName },
        },
      });
    },
    async deletePod(pod) {
      const { name, namespace } = meta(pod);
      try {
        await client.request("DELETE", podPath(namespace, name), {
          what: `deleting pod ${namespace}/${name}`,
        });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    },
    async patchPodStatus(pod, patch) {
      const { name, namespace } = meta(pod);
      await client.request("PATCH", `${podPath(namespace, name)}/status`, {
        what: `patching the status of pod ${namespace}/${name}`,
        body: podStatusPatchBody(pod, patch, now()),
        contentType: "application/strategic-merge-patch+json",
      });
    },
    async updateResourceClaim(claim) {
      return client.request<ResourceClaim>("PUT", resourceClaimPath(claim), {
        what: `updating resourceclaim ${claim.metadata?.namespace ?? ""}/${claim.metadata?.name ?? ""}`,
        body: claim,
      });
    },
    async updateResourceClaimStatus(claim) {
      return client.request<ResourceClaim>("PUT", `${resourceClaimPath(claim)}/status`, {
        what: `updating the status of resourceclaim ${claim.metadata?.namespace ?? ""}/${claim.metadata?.name ?? ""}`,
        body: claim,
      });
    },
    async createResourceClaim(claim) {
      return client.request<ResourceClaim>("POST", resourceClaimsPath(claim), {
        what: `creating resourceclaim ${claim.metadata?.namespace ?? ""}/${claim.metadata?.name || claim.metadata?.generateName || ""}`,
        body: { apiVersion: "resource.k8s.io/v1", kind: "ResourceClaim", ...claim },
      });
    },
    async deleteResourceClaim(claim) {
      try {
        await client.request("DELETE", resourceClaimPath(claim), {
          what: `deleting resourceclaim ${claim.metadata?.namespace ?? ""}/${claim.metadata?.name ?? ""}`,
        });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    },
  };
}
