// upstream: pkg/coscheduling/coscheduling.go
import { type Pod, podPriority } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  customResourceEventName,
  type EnqueueExtensions,
  EventResource,
  type Handle,
  type NodeToStatus,
  type PermitOutput,
  type PermitPlugin,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type QueuedPodInfo,
  type QueueSortPlugin,
  type ReservePlugin,
  Status,
} from "@kubesched/framework";
import type { CoschedulingArgs } from "./args";
import { namespacedName, PermitStatus, PodGroupManager } from "./core";
import { podGroupFullName, podGroupLabel, podGroupResource } from "./pod-group";

/** The plugin's registered name. */
export const name = "Coscheduling";

/** upstream util.DefaultWaitTime: the Permit wait when neither the group nor the args set one. */
export const defaultWaitTimeMs = 60_000;

/**
 * Coscheduling (gang scheduling): the pods of a PodGroup are scheduled together — each waits at
 * Permit until `minMember` of its group are assigned, and a group that cannot make it is
 * rejected as a whole.
 */
export class Coscheduling
  implements
    QueueSortPlugin,
    PreFilterPlugin,
    PostFilterPlugin,
    PermitPlugin,
    ReservePlugin,
    EnqueueExtensions
{
  readonly pgMgr: PodGroupManager;
  private readonly scheduleTimeoutMs: number;
  private readonly pgBackoffMs: number | null;
  private readonly pgRejectThreshold: number;

  constructor(
    args: CoschedulingArgs,
    private readonly handle: Handle,
  ) {
    this.scheduleTimeoutMs = args.permitWaitingTimeSeconds * 1000;
    this.pgBackoffMs = args.podGroupBackoffSeconds > 0 ? args.podGroupBackoffSeconds * 1000 : null;
    this.pgRejectThreshold = args.podGroupRejectPercentage / 100;
    this.pgMgr = new PodGroupManager({
      podGroups: handle.listers().custom(podGroupResource),
      pods: handle.listers().pods,
      nodeInfos: () => handle.snapshotSharedLister().nodeInfos().list(),
      clock: handle.clock(),
      scheduleTimeoutMs: this.scheduleTimeoutMs,
    });
  }

  name(): string {
    return name;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: EventResource.Pod, actionType: ActionType.Add } },
      {
        event: {
          resource: customResourceEventName(podGroupResource),
          actionType: ActionType.Add | ActionType.Update,
        },
      },
    ];
  }

  /**
   * Higher priority first; then the earlier of the groups' creation (or last failure) times, a
   * pod without a group counting its first attempt; then `namespace/name`.
   */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const prio1 = podPriority(a.podInfo.pod);
    const prio2 = podPriority(b.podInfo.pod);
    if (prio1 !== prio2) return prio1 > prio2;
    const t1 = this.pgMgr.getCreationTimestamp(a.podInfo.pod, a.initialAttemptTimestamp ?? a.timestamp);
    const t2 = this.pgMgr.getCreationTimestamp(b.podInfo.pod, b.initialAttemptTimestamp ?? b.timestamp);
    if (t1 === t2) return namespacedName(a.podInfo.pod) < namespacedName(b.podInfo.pod);
    return t1 < t2;
  }

  /**
   * Rejects a pod whose group failed recently, lacks minMember pods (gated ones excepted) or
   * minResources; UnschedulableAndUnresolvable so that no preemption is attempted.
   */
  preFilter(_state: CycleState, pod: Pod): Status | null {
    const err = this.pgMgr.preFilter(pod);
    return err === null ? null : new Status(Code.UnschedulableAndUnresolvable, err);
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  /** A member failed: reject the group's waiting pods, unless enough of the group is assigned. */
  postFilter(_state: CycleState, pod: Pod, _filtered: NodeToStatus): PostFilterOutput {
    const noNomination = { nominatingInfo: null };
    const { fullName, pg } = this.pgMgr.getPodGroup(pod);
    if (!pg)
      return { result: noNomination, status: new Status(Code.Unschedulable, "can not find pod group") };
    const minMember = pg.spec?.minMember ?? 0;
    const assigned = this.pgMgr.getAssignedPodCount(fullName);
    // Enough pods already satisfy the group: don't reject it as a whole.
    if (assigned >= minMember) return { result: noNomination, status: new Status(Code.Unschedulable) };
    // A small gap: later pods may still complete the group.
    const notAssignedPercentage = (minMember - assigned) / minMember;
    if (notAssignedPercentage <= this.pgRejectThreshold) {
      return { result: noNomination, status: new Status(Code.Unschedulable) };
    }
    // If one pod failed, its siblings would very likely fail too.
    const ns = pod.metadata?.namespace ?? "";
    const pgName = pg.metadata?.name ?? "";
    this.handle.iterateOverWaitingPods((wp) => {
      const p = wp.getPod();
      if ((p.metadata?.namespace ?? "") === ns && podGroupLabel(p) === pgName) {
        wp.reject(name, "optimistic rejection in PostFilter");
      }
    });
    if (this.pgBackoffMs !== null) {
      const pods = this.handle
        .listers()
        .pods.list(ns)
        .filter((p) => podGroupLabel(p) === podGroupLabel(pod));
      if (pods.length >= minMember) this.pgMgr.backoffPodGroup(fullName, this.pgBackoffMs);
    }
    this.pgMgr.deletePermittedPodGroup(fullName);
    this.pgMgr.markPodGroupScheduleFailure(fullName);
    return {
      result: noNomination,
      status: new Status(
        Code.Unschedulable,
        `PodGroup ${fullName} gets rejected due to Pod ${pod.metadata?.name ?? ""} is unschedulable even after PostFilter`,
      ),
    };
  }

  /** Wait until minMember pods of the group are assigned; the last one allows the others. */
  permit(state: CycleState, pod: Pod, _nodeName: string): PermitOutput {
    const s = this.pgMgr.permit(state, pod);
    switch (s) {
      case PermitStatus.PodGroupNotSpecified:
        return { status: null, timeoutMs: 0 };
      case PermitStatus.PodGroupNotFound:
        return { status: new Status(Code.Unschedulable, "PodGroup not found"), timeoutMs: 0 };
      case PermitStatus.Wait: {
        const { pg } = this.pgMgr.getPodGroup(pod);
        // Move the siblings back to activeQ (only the group's first waiting pod asks for it).
        this.pgMgr.activateSiblings(pod, state);
        return {
          status: new Status(Code.Wait),
          timeoutMs: this.waitTimeMs(pg?.spec?.scheduleTimeoutSeconds),
        };
      }
      case PermitStatus.Success: {
        const fullName = podGroupFullName(pod);
        this.pgMgr.clearPodGroupScheduleFailure(fullName);
        this.handle.iterateOverWaitingPods((wp) => {
          if (podGroupFullName(wp.getPod()) === fullName) wp.allow(name);
        });
        return { status: null, timeoutMs: 0 };
      }
    }
  }

  /** upstream util.GetWaitTimeDuration: the group's scheduleTimeoutSeconds, else the args', else 60 s. */
  private waitTimeMs(groupTimeoutSeconds: number | undefined): number {
    if (groupTimeoutSeconds !== undefined) return groupTimeoutSeconds * 1000;
    return this.scheduleTimeoutMs !== 0 ? this.scheduleTimeoutMs : defaultWaitTimeMs;
  }

  reserve(): Status | null {
    return null;
  }

  /** A member timed out at Permit or failed later: reject the group's other waiting pods. */
  unreserve(_state: CycleState, pod: Pod, _nodeName: string): void {
    const { fullName, pg } = this.pgMgr.getPodGroup(pod);
    if (!pg) return;
    this.pgMgr.unreserve(pod);
    const ns = pod.metadata?.namespace ?? "";
    const pgName = pg.metadata?.name ?? "";
    this.handle.iterateOverWaitingPods((wp) => {
      const p = wp.getPod();
      if ((p.metadata?.namespace ?? "") === ns && podGroupLabel(p) === pgName) {
        wp.reject(name, "rejection in Unreserve");
      }
    });
    this.pgMgr.deletePermittedPodGroup(fullName);
    this.pgMgr.markPodGroupScheduleFailure(fullName);
  }
}
