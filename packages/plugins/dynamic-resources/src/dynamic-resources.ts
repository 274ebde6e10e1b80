// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go
//
// Our cluster model has no resource.k8s.io objects yet (ResourceClaim, ResourceSlice,
// DeviceClass). Every claim a pod references is therefore missing, and upstream's PreEnqueue
// keeps such a pod out of the queue with the lister's NotFound message. Pods without claims go
// through every extension point as upstream: Skip or nothing to do.
import type { Pod } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  defaultKubernetesVersion,
  type EnqueueExtensions,
  EventResource,
  type FilterPlugin,
  minorOf,
  type NodeInfo,
  type NodeToStatus,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  QueueingHint,
  type QueueingHintFn,
  type ReservePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  Status,
} from "@kubesched/framework";
import type { DynamicResourcesArgs } from "./args";
import { ErrAPIUnsupported, ErrClaimNotFound, ErrReasonNoNewClaimsToDeallocate } from "./reasons";

export const name = "DynamicResources";

/** The 1.31+ fields of a pod resource claim (kubernetes-types has 1.30's `source`). */
interface PodResourceClaim {
  name: string;
  resourceClaimName?: string | null;
  resourceClaimTemplateName?: string | null;
}

/**
 * upstream resourceclaim.Name: the ResourceClaim a pod resource claim refers to; null when the
 * claim generated from a template was deliberately not created.
 */
export function claimName(pod: Pod, podClaim: PodResourceClaim): string | null {
  const ns = pod.metadata?.namespace ?? "";
  const podName = pod.metadata?.name ?? "";
  if (podClaim.resourceClaimName) return podClaim.resourceClaimName;
  if (podClaim.resourceClaimTemplateName) {
    for (const s of pod.status?.resourceClaimStatuses ?? []) {
      if (s.name === podClaim.name) return s.resourceClaimName ?? null;
    }
    throw new Error(`pod "${ns}/${podName}": ${ErrClaimNotFound}`);
  }
  throw new Error(`pod "${ns}/${podName}", spec.resourceClaim "${podClaim.name}": ${ErrAPIUnsupported}`);
}

/**
 * upstream foreachPodResourceClaim without a claim lister: the first referenced claim is
 * reported missing (`resourceclaim.resource.k8s.io "<name>" not found`). Returns the number of
 * claims that are needed (0 when there are none, or all were intentionally not created).
 */
function checkPodResourceClaims(pod: Pod): number {
  const claims = (pod.spec?.resourceClaims ?? []) as PodResourceClaim[];
  for (const c of claims) {
    const n = claimName(pod, c);
    if (n === null) continue;
    throw new Error(`resourceclaim.resource.k8s.io "${n}" not found`);
  }
  return 0;
}

/** Queue when the updated pod is the pod itself (its generated claims appeared in its status). */
const isSchedulableAfterPodChange: QueueingHintFn = (pod, _oldObj, newObj) => {
  const p = newObj as Pod | undefined;
  return p?.metadata?.uid === pod.metadata?.uid ? QueueingHint.Queue : QueueingHint.QueueSkip;
};

/** Queue when the added or updated claim is one the pod references (same namespace). */
const isSchedulableAfterClaimChange: QueueingHintFn = (pod, _oldObj, newObj) => {
  const c = newObj as { metadata?: { name?: string; namespace?: string } } | undefined;
  if ((c?.metadata?.namespace ?? "") !== (pod.metadata?.namespace ?? "")) return QueueingHint.QueueSkip;
  for (const pc of (pod.spec?.resourceClaims ?? []) as PodResourceClaim[]) {
    let n: string | null;
    try {
      n = claimName(pod, pc);
    } catch {
      continue;
    }
    if (n !== null && n === c?.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
};

/**
 * Dynamic Resource Allocation: pods referencing ResourceClaims wait in PreEnqueue until their
 * claims exist; everything else is skipped. Allocating devices from ResourceSlices is not
 * available yet (no DRA objects in the cluster model).
 */
export class DynamicResources
  implements
    PreEnqueuePlugin,
    PreFilterPlugin,
    FilterPlugin,
    PostFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ReservePlugin,
    PreBindPlugin,
    EnqueueExtensions,
    SignPlugin
{
  /** Whether PostFilter's no-op outcomes carry their reason (1.34–1.36; gone in 1.37, #140222). */
  private readonly postFilterReasons: boolean;

  constructor(
    readonly args: DynamicResourcesArgs,
    /** The release behaved as (`handle.kubernetesVersion()`): PostFilter's wording depends on it. */
    kubernetesVersion: string = defaultKubernetesVersion,
  ) {
    this.postFilterReasons = minorOf(kubernetesVersion) < 37;
  }

  name(): string {
    return name;
  }

  /**
   * Whether a claim is used on one node only or by many is not simple to tell, so pods with
   * claims are not signed (upstream SignPod; kubernetes/kubernetes#134986); others add nothing.
   */
  signPod(pod: Pod): SignPodResult {
    if ((pod.spec?.resourceClaims?.length ?? 0) > 0) {
      return {
        fragments: [],
        status: new Status(Code.Unschedulable, "pods with dra resource claims are not signable"),
      };
    }
    return { fragments: [], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: {
          resource: EventResource.Node,
          actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
        },
      },
      // Allocation is tracked in ResourceClaims.
      {
        event: { resource: EventResource.ResourceClaim, actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: isSchedulableAfterClaimChange,
      },
      // The generated claim's name lands in the pod's status.
      {
        event: { resource: EventResource.Pod, actionType: ActionType.UpdatePodGeneratedResourceClaim },
        queueingHintFn: isSchedulableAfterPodChange,
      },
      { event: { resource: EventResource.DeviceClass, actionType: ActionType.Add | ActionType.Update } },
      { event: { resource: EventResource.ResourceSlice, actionType: ActionType.Add | ActionType.Update } },
    ];
  }

  /** Gates a pod whose claims do not exist yet (UnschedulableAndUnresolvable, the lookup's message). */
  preEnqueue(pod: Pod): Status | null {
    if ((pod.spec?.resourceClaims?.length ?? 0) === 0) return null;
    try {
      checkPodResourceClaims(pod);
    } catch (e) {
      return new Status(Code.UnschedulableAndUnresolvable, e instanceof Error ? e.message : String(e));
    }
    return null;
  }

  /** Skip for pods without (needed) claims; a missing claim is UnschedulableAndUnresolvable. */
  preFilter(_state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    try {
      checkPodResourceClaims(pod);
    } catch (e) {
      return new Status(Code.UnschedulableAndUnresolvable, e instanceof Error ? e.message : String(e));
    }
    return new Status(Code.Skip);
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  /** Only reached for pods with claims, which PreFilter never lets through here. */
  filter(_state: CycleState, _pod: Pod, _nodeInfo: NodeInfo): Status | null {
    return null;
  }

  /**
   * Deallocation of claims allocated for this pod would free devices; there are none. Through
   * 1.36 the status says so, and FitErrors read `... no new claims to deallocate, preemption: ...`;
   * 1.37 keeps the status but not the reason (kubernetes/kubernetes#140222: logged at V(5)).
   */
  postFilter(_state: CycleState, _pod: Pod, _m: NodeToStatus): PostFilterOutput {
    const status = this.postFilterReasons
      ? new Status(Code.Unschedulable, ErrReasonNoNewClaimsToDeallocate)
      : new Status(Code.Unschedulable);
    return { result: null, status };
  }

  preScore(_state: CycleState, _pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    return new Status(Code.Skip);
  }

  score(_state: CycleState, _pod: Pod, _nodeInfo: NodeInfo): number | Status {
    return 0;
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }

  reserve(_state: CycleState, _pod: Pod, _nodeName: string): Status | null {
    return null;
  }

  unreserve(_state: CycleState, _pod: Pod, _nodeName: string): void {}

  preBindPreFlight(_state: CycleState, _pod: Pod, _nodeName: string): Status | null {
    return new Status(Code.Skip);
  }

  async preBind(_state: CycleState, _pod: Pod, _nodeName: string): Promise<Status | null> {
    return null;
  }
}
