// upstream: pkg/coscheduling/core/core.go (PodGroupManager)
import { type Pod, type ResourceList, ResourcePods, resourceListToAmounts } from "@kubesched/api";
import {
  type Clock,
  type CycleState,
  type Lister,
  type NodeInfo,
  podsToActivateKey,
  type StateData,
  stateKey,
} from "@kubesched/framework";
import { type PodGroup, podGroupFullName, podGroupLabel } from "./pod-group";

/** The outcome of the manager's Permit (upstream core.Status, same strings). */
export const PermitStatus = {
  PodGroupNotSpecified: "PodGroup not specified",
  PodGroupNotFound: "PodGroup not found",
  Success: "Success",
  Wait: "Wait",
} as const;
export type PermitStatus = (typeof PermitStatus)[keyof typeof PermitStatus];

class PermitState implements StateData {
  constructor(readonly activate: boolean) {}
  clone(): StateData {
    return new PermitState(this.activate);
  }
}

const permitStateKey = stateKey<PermitState>("PermitCoscheduling");

/** Go's zero time.Time in Unix milliseconds: a PodGroup without creationTimestamp sorts first. */
const goZeroTime = -62135596800000;

/** A set of keys that expire (upstream uses go-cache with per-item TTLs). */
class ExpiringSet {
  private readonly expiry = new Map<string, number>();
  constructor(private readonly clock: Clock) {}
  add(key: string, ttlMs: number): void {
    this.expiry.set(key, this.clock.now() + ttlMs);
  }
  has(key: string): boolean {
    const at = this.expiry.get(key);
    if (at === undefined) return false;
    if (this.clock.now() < at) return true;
    this.expiry.delete(key);
    return false;
  }
  delete(key: string): void {
    this.expiry.delete(key);
  }
}

/** `namespace/name`, upstream GetNamespacedName. */
export function namespacedName(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? ""}/${obj.metadata?.name ?? ""}`;
}

export interface PodGroupManagerOptions {
  podGroups: Lister<PodGroup>;
  pods: Lister<Pod>;
  /** The nodes of the cycle's snapshot (for the minResources pre-check). */
  nodeInfos: () => readonly NodeInfo[];
  clock: Clock;
  /** The default Permit wait (permitWaitingTimeSeconds), in ms; also how long a minResources check holds. */
  scheduleTimeoutMs: number;
}

/**
 * PodGroup bookkeeping shared by the plugin's extension points. Pods assigned to a group are
 * those that passed Permit (until Unreserve) plus the group's bound pods in the pod lister.
 */
export class PodGroupManager {
  private readonly permittedPG: ExpiringSet;
  private readonly backedOffPG: ExpiringSet;
  private readonly lastFailedSchedulePG = new Map<string, number>();
  /** Pods that reached Permit, by group (upstream assignedPodsByPG without the informer's adds). */
  private readonly permittedPods = new Map<string, Set<string>>();

  constructor(private readonly opts: PodGroupManagerOptions) {
    this.permittedPG = new ExpiringSet(opts.clock);
    this.backedOffPG = new ExpiringSet(opts.clock);
  }

  /** upstream GetPodGroup: the group's full name ("" without the label) and the object, if found. */
  getPodGroup(pod: Pod): { fullName: string; pg: PodGroup | undefined } {
    const name = podGroupLabel(pod);
    if (!name) return { fullName: "", pg: undefined };
    const ns = pod.metadata?.namespace ?? "";
    return { fullName: `${ns}/${name}`, pg: this.opts.podGroups.get(ns, name) };
  }

  private groupPods(namespace: string, pgName: string): Pod[] {
    return this.opts.pods.list(namespace).filter((p) => podGroupLabel(p) === pgName);
  }

  /** Names of the group's pods that are assumed (passed Permit) or bound. */
  private assignedPods(pgFullName: string): Set<string> {
    const out = new Set(this.permittedPods.get(pgFullName));
    const slash = pgFullName.indexOf("/");
    for (const p of this.groupPods(pgFullName.slice(0, slash), pgFullName.slice(slash + 1))) {
      if (p.spec?.nodeName) out.add(p.metadata?.name ?? "");
    }
    return out;
  }

  getAssignedPodCount(pgFullName: string): number {
    return this.assignedPods(pgFullName).size;
  }

  backoffPodGroup(pgFullName: string, backoffMs: number): void {
    if (backoffMs === 0) return;
    this.backedOffPG.add(pgFullName, backoffMs);
  }

  markPodGroupScheduleFailure(pgFullName: string): void {
    this.lastFailedSchedulePG.set(pgFullName, this.opts.clock.now());
  }

  clearPodGroupScheduleFailure(pgFullName: string): void {
    this.lastFailedSchedulePG.delete(pgFullName);
  }

  deletePermittedPodGroup(pgFullName: string): void {
    this.permittedPG.delete(pgFullName);
  }

  /** Stashes the pod's siblings in the state's pods-to-activate when Permit asked for it. */
  activateSiblings(pod: Pod, state: CycleState): void {
    const pgName = podGroupLabel(pod);
    if (!pgName) return;
    if (state.read(permitStateKey)?.activate !== true) return;
    const siblings = this.groupPods(pod.metadata?.namespace ?? "", pgName).filter(
      (p) => p.metadata?.uid !== pod.metadata?.uid,
    );
    const toActivate = state.read(podsToActivateKey);
    if (siblings.length === 0 || !toActivate) return;
    for (const p of siblings) toActivate.map.set(namespacedName(p), p);
  }

  /** upstream PreFilter: an error message when the pod cannot go on, null otherwise. */
  preFilter(pod: Pod): string | null {
    const { fullName, pg } = this.getPodGroup(pod);
    if (!pg) return null;
    if (this.backedOffPG.has(fullName)) return `podGroup ${fullName} failed recently`;
    const pods = this.groupPods(pod.metadata?.namespace ?? "", podGroupLabel(pod));
    const minMember = pg.spec?.minMember ?? 0;
    let quorumGap = minMember - pods.length;
    if (quorumGap > 0) {
      return `pre-filter pod ${pod.metadata?.name ?? ""} cannot find enough sibling pods, current pods number: ${pods.length}, minMember of group: ${minMember}`;
    }
    // quorumGap is negative when minMember < replicas: that many gated pods are tolerated.
    for (const p of pods) {
      if ((p.spec?.schedulingGates?.length ?? 0) > 0) quorumGap++;
      if (quorumGap > 0) {
        return `pre-filter pod ${pod.metadata?.name ?? ""} cannot proceed due to gated pods in the same PodGroup`;
      }
    }
    if (!pg.spec?.minResources) return null;
    if (this.permittedPG.has(fullName)) return null;
    const minResources: ResourceList = { ...pg.spec.minResources, [ResourcePods]: String(minMember) };
    const gap = checkClusterResource(this.opts.nodeInfos(), minResources, fullName);
    if (gap !== null) return gap;
    this.permittedPG.add(fullName, this.opts.scheduleTimeoutMs);
    return null;
  }

  /** upstream Permit: records the pod as assigned; Success once minMember pods are. */
  permit(state: CycleState, pod: Pod): PermitStatus {
    const { fullName, pg } = this.getPodGroup(pod);
    if (!fullName) return PermitStatus.PodGroupNotSpecified;
    if (!pg) return PermitStatus.PodGroupNotFound;
    let permitted = this.permittedPods.get(fullName);
    if (!permitted) {
      permitted = new Set();
      this.permittedPods.set(fullName, permitted);
    }
    permitted.add(pod.metadata?.name ?? "");
    const assigned = this.assignedPods(fullName).size;
    if (assigned >= (pg.spec?.minMember ?? 0)) return PermitStatus.Success;
    // The first pod of the group to wait activates its siblings (scheduler-plugins#682).
    if (assigned === 1) state.write(permitStateKey, new PermitState(true));
    return PermitStatus.Wait;
  }

  /** upstream Unreserve: the pod is no longer assigned. */
  unreserve(pod: Pod): void {
    const fullName = podGroupFullName(pod);
    if (!fullName) return;
    const permitted = this.permittedPods.get(fullName);
    if (!permitted) return;
    permitted.delete(pod.metadata?.name ?? "");
    if (permitted.size === 0) this.permittedPods.delete(fullName);
  }

  /**
   * upstream GetCreationTimestamp: the group's last scheduling failure, else its creation time,
   * else (no group) `ts`, so that a failed group does not block the head of the queue.
   */
  getCreationTimestamp(pod: Pod, ts: number): number {
    const pgName = podGroupLabel(pod);
    if (!pgName) return ts;
    const ns = pod.metadata?.namespace ?? "";
    const failed = this.lastFailedSchedulePG.get(`${ns}/${pgName}`);
    if (failed !== undefined) return failed;
    const pg = this.opts.podGroups.get(ns, pgName);
    if (!pg) return ts;
    const created = pg.metadata?.creationTimestamp;
    if (!created) return goZeroTime;
    const t = Date.parse(created);
    return Number.isNaN(t) ? goZeroTime : t;
  }
}

/** What is left on a node for the group: allocatable − requested, the group's own pods removed. */
function nodeResourceLeft(info: NodeInfo, pgFullName: string): Map<string, number> {
  const clone = info.snapshot();
  for (const pi of info.pods) if (podGroupFullName(pi.pod) === pgFullName) clone.removePod(pi.pod);
  const left = new Map<string, number>();
  left.set(ResourcePods, clone.allocatable.allowedPodNumber - clone.podCount);
  left.set("cpu", clone.allocatable.milliCPU - clone.requested.milliCPU);
  left.set("memory", clone.allocatable.memory - clone.requested.memory);
  left.set("ephemeral-storage", clone.allocatable.ephemeralStorage - clone.requested.ephemeralStorage);
  for (const [k, v] of clone.allocatable.scalarResources ?? []) left.set(k, v - clone.requested.scalar(k));
  return left;
}

/**
 * upstream CheckClusterResource: whether the nodes together have `request` left. Returns null
 * when they do, else `resource gap: ...` with what is missing.
 */
export function checkClusterResource(
  nodes: readonly NodeInfo[],
  request: ResourceList,
  pgFullName: string,
): string | null {
  const remaining = resourceListToAmounts(request);
  for (const info of nodes) {
    if (!info.node) continue;
    const left = nodeResourceLeft(info, pgFullName);
    for (const [name, q] of remaining) {
      const rest = q - (left.get(name) ?? 0);
      if (rest <= 0) remaining.delete(name);
      else remaining.set(name, rest);
    }
    if (remaining.size === 0) return null;
  }
  const gap = [...remaining]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, v]) => `${name}:${name === "cpu" ? `${v}m` : v}`)
    .join(" ");
  return `resource gap: map[${gap}]`;
}
