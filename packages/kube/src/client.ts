// The writes the scheduler makes (upstream: clientset calls in DefaultBinder, the failure
// handler's updatePod, and preemption), through @kubernetes/client-node's generated CoreV1Api.
import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { getPodCondition, type Pod, type PodCondition } from "@kubesched/api";
import type { ClusterClient, PodStatusPatch } from "@kubesched/framework";
import { isNotFound, toKubeApiError } from "./api-error";
import { formatTime } from "./micro-time";

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
export function podStatusPatchBody(pod: Pod, patch: PodStatusPatch, now: number): { status: object } {
  const status: { conditions?: PodCondition[]; nominatedNodeName?: string | null } = {};
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
  return { status };
}

export function kubeClusterClient(
  kubeConfig: KubeConfig,
  opts: KubeClusterClientOptions = {},
): ClusterClient {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const now = opts.now ?? Date.now;
  const smp = setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch);
  return {
    async bindPod(pod, nodeName) {
      const { name, namespace } = meta(pod);
      try {
        await core.createNamespacedPodBinding({
          name,
          namespace,
          body: {
            apiVersion: "v1",
            kind: "Binding",
            metadata: { name, namespace, ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}) },
            target: { apiVersion: "v1", kind: "Node", name: nodeName },
          },
        });
      } catch (e) {
        throw toKubeApiError(e, `binding pod ${namespace}/${name} to node ${nodeName}`);
      }
    },
    async deletePod(pod) {
      const { name, namespace } = meta(pod);
      try {
        await core.deleteNamespacedPod({ name, namespace });
      } catch (e) {
        const err = toKubeApiError(e, `deleting pod ${namespace}/${name}`);
        if (!isNotFound(err)) throw err;
      }
    },
    async patchPodStatus(pod, patch) {
      const { name, namespace } = meta(pod);
      try {
        await core.patchNamespacedPodStatus(
          { name, namespace, body: podStatusPatchBody(pod, patch, now()) },
          smp,
        );
      } catch (e) {
        throw toKubeApiError(e, `patching the status of pod ${namespace}/${name}`);
      }
    },
  };
}
