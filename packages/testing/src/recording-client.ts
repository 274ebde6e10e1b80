import type { PersistentVolume, PersistentVolumeClaim, Pod, ResourceClaim } from "@kubesched/api";
import type { ClusterClient, EventRecorder, EventType, PodStatusPatch } from "@kubesched/framework";

/** One API write the scheduler made. */
export type ClientCall =
  | { verb: "bind"; pod: Pod; nodeName: string }
  | { verb: "delete"; pod: Pod }
  | { verb: "patchStatus"; pod: Pod; patch: PodStatusPatch };

/** One ResourceClaim write the scheduler made (DynamicResources). */
export interface ClaimCall {
  verb: "updateResourceClaim" | "updateResourceClaimStatus" | "createResourceClaim" | "deleteResourceClaim";
  claim: ResourceClaim;
}

/**
 * A ClusterClient that records every call in order. Alone it applies nothing; given an `inner`
 * client it records each call and then forwards it (unless `failWith` made the verb fail), and it
 * has `bindVolumes` exactly when `inner` has it (forwarded, not recorded in `calls`), and
 * `updateResourceClaim` / `updateResourceClaimStatus` / `createResourceClaim` /
 * `deleteResourceClaim` exactly when `inner` has them (recorded in `claimCalls`).
 */
export class RecordingClusterClient implements ClusterClient {
  readonly calls: ClientCall[] = [];
  /** The ResourceClaim writes, in order. */
  readonly claimCalls: ClaimCall[] = [];
  private readonly failures = new Map<ClientCall["verb"], Error>();
  readonly bindVolumes?: (
    bindings: ReadonlyArray<{ pvc: PersistentVolumeClaim; pv: PersistentVolume }>,
    provisions: ReadonlyArray<{ pvc: PersistentVolumeClaim; node: string }>,
  ) => Promise<void>;

  readonly updateResourceClaim?: (claim: ResourceClaim) => Promise<ResourceClaim>;
  readonly updateResourceClaimStatus?: (claim: ResourceClaim) => Promise<ResourceClaim>;
  readonly createResourceClaim?: (claim: ResourceClaim) => Promise<ResourceClaim>;
  readonly deleteResourceClaim?: (claim: ResourceClaim) => Promise<void>;

  constructor(readonly inner: ClusterClient | null = null) {
    const bindVolumes = inner?.bindVolumes;
    if (inner && bindVolumes) this.bindVolumes = (b, p) => bindVolumes.call(inner, b, p);
    const update = inner?.updateResourceClaim;
    if (inner && update) {
      this.updateResourceClaim = async (claim) => {
        this.claimCalls.push({ verb: "updateResourceClaim", claim });
        return update.call(inner, claim);
      };
    }
    const updateStatus = inner?.updateResourceClaimStatus;
    if (inner && updateStatus) {
      this.updateResourceClaimStatus = async (claim) => {
        this.claimCalls.push({ verb: "updateResourceClaimStatus", claim });
        return updateStatus.call(inner, claim);
      };
    }
    const create = inner?.createResourceClaim;
    if (inner && create) {
      this.createResourceClaim = async (claim) => {
        this.claimCalls.push({ verb: "createResourceClaim", claim });
        return create.call(inner, claim);
      };
    }
    const del = inner?.deleteResourceClaim;
    if (inner && del) {
      this.deleteResourceClaim = async (claim) => {
        this.claimCalls.push({ verb: "deleteResourceClaim", claim });
        return del.call(inner, claim);
      };
    }
  }

  /** Makes every later call with this verb reject with `err` (null: succeed again). */
  failWith(verb: ClientCall["verb"], err: Error | null): this {
    if (err) this.failures.set(verb, err);
    else this.failures.delete(verb);
    return this;
  }

  async bindPod(pod: Pod, nodeName: string): Promise<void> {
    this.calls.push({ verb: "bind", pod, nodeName });
    this.maybeFail("bind");
    await this.inner?.bindPod(pod, nodeName);
  }

  async deletePod(pod: Pod): Promise<void> {
    this.calls.push({ verb: "delete", pod });
    this.maybeFail("delete");
    await this.inner?.deletePod(pod);
  }

  async patchPodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    this.calls.push({ verb: "patchStatus", pod, patch });
    this.maybeFail("patchStatus");
    await this.inner?.patchPodStatus(pod, patch);
  }

  private maybeFail(verb: ClientCall["verb"]): void {
    const err = this.failures.get(verb);
    if (err) throw err;
  }
}

export interface RecordedEvent {
  regarding: Pod;
  related: Pod | null;
  type: EventType;
  reason: string;
  action: string;
  note: string;
}

/** An EventRecorder that keeps every event in `events` (and forwards it to `inner` when given). */
export function recordingEventRecorder(
  inner: EventRecorder | null = null,
): EventRecorder & { readonly events: RecordedEvent[] } {
  const events: RecordedEvent[] = [];
  return {
    events,
    eventf(regarding, related, type, reason, action, note) {
      events.push({ regarding, related, type, reason, action, note });
      inner?.eventf(regarding, related, type, reason, action, note);
    },
  };
}
