// upstream: pkg/capacityscheduling/capacity_scheduling.go
import { type Pod, type PodDisruptionBudget, podPriority } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  customResourceEventName,
  type EnqueueExtensions,
  EventResource,
  type ExtenderVictims,
  type Handle,
  type Lister,
  type NodeInfo,
  type NodeToStatus,
  type PodInfo,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type ReservePlugin,
  Resource,
  type StateData,
  Status,
  stateKey,
} from "@kubesched/framework";
import {
  type Candidate,
  type CandidateScoreFunc,
  Evaluator,
  filterPodsWithPDBViolation,
  moreImportantPod,
  type PreemptionInterface,
  type SelectVictimsResult,
} from "@kubesched/preemption";
import {
  computePodResourceRequest,
  type ElasticQuota,
  ElasticQuotaInfo,
  ElasticQuotaInfos,
  elasticQuotaResource,
} from "./elastic-quota";

/** The plugin's registered name. */
export const name = "CapacityScheduling";

export const ErrReasonTerminatingPod = "not eligible due to a terminating pod on the nominated node.";

/** What PreFilter computed for the pod (upstream PreFilterState). */
export class PreFilterState implements StateData {
  constructor(
    readonly podReq: Resource,
    /** The pod's request plus those of its namespace's nominated pods of no lower priority. */
    readonly nominatedPodsReqInEQWithPodReq: Resource,
    /** The above plus other namespaces' nominated pods whose quota is still under min. */
    readonly nominatedPodsReqWithPodReq: Resource,
  ) {}
  clone(): StateData {
    return this;
  }
}

/** The cycle's copy of every namespace's quota and usage (upstream ElasticQuotaSnapshotState). */
export class ElasticQuotaSnapshotState implements StateData {
  constructor(readonly elasticQuotaInfos: ElasticQuotaInfos) {}
  clone(): StateData {
    return new ElasticQuotaSnapshotState(this.elasticQuotaInfos.clone());
  }
}

export const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${name}`);
export const elasticQuotaSnapshotKey = stateKey<ElasticQuotaSnapshotState>("ElasticQuotaSnapshot");

const terminalPhases = new Set(["Succeeded", "Failed"]);

/**
 * CapacityScheduling: namespaces share the cluster through ElasticQuotas. A pod is admitted while
 * its namespace stays under max and the cluster's total usage under the sum of the mins; when it
 * does not fit, it may preempt pods of its own namespace (lower priority) once its quota is over
 * min, or pods of namespaces that borrow beyond their min while its own is under min.
 */
export class CapacityScheduling
  implements PreFilterPlugin, PostFilterPlugin, ReservePlugin, EnqueueExtensions
{
  private readonly elasticQuotas: Lister<ElasticQuota>;
  /** Pods reserved by this plugin and not yet seen assigned in the pod lister. */
  private readonly reserved = new Map<string, Pod>();

  constructor(private readonly handle: Handle) {
    this.elasticQuotas = handle.listers().custom(elasticQuotaResource);
  }

  name(): string {
    return name;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: EventResource.Pod, actionType: ActionType.Delete } },
      { event: { resource: customResourceEventName(elasticQuotaResource), actionType: ActionType.All } },
    ];
  }

  /**
   * The namespaces' quotas and usage now: one ElasticQuota per namespace (the first listed), its
   * usage the requests of the namespace's assigned non-terminal pods and of the pods this plugin
   * reserved (upstream keeps the same map up to date from informer events).
   */
  elasticQuotaInfos(): ElasticQuotaInfos {
    const infos = new ElasticQuotaInfos();
    for (const eq of this.elasticQuotas.list()) {
      const ns = eq.metadata?.namespace ?? "";
      if (!infos.has(ns)) infos.set(ns, ElasticQuotaInfo.of(ns, eq.spec?.min, eq.spec?.max));
    }
    const pods = this.handle.listers().pods;
    for (const [key, pod] of this.reserved) {
      if (pods.get(pod.metadata?.namespace ?? "", pod.metadata?.name ?? "")?.spec?.nodeName) {
        this.reserved.delete(key);
      }
    }
    for (const pod of pods.list()) {
      if (!pod.spec?.nodeName || terminalPhases.has(pod.status?.phase ?? "")) continue;
      infos.get(pod.metadata?.namespace ?? "")?.addPodIfNotPresent(pod);
    }
    for (const pod of this.reserved.values())
      infos.get(pod.metadata?.namespace ?? "")?.addPodIfNotPresent(pod);
    return infos;
  }

  preFilter(state: CycleState, pod: Pod): Status | null {
    const infos = this.elasticQuotaInfos();
    const podReq = computePodResourceRequest(pod);
    state.write(elasticQuotaSnapshotKey, new ElasticQuotaSnapshotState(infos));
    const ns = pod.metadata?.namespace ?? "";
    const eq = infos.get(ns);
    if (!eq) {
      state.write(preFilterStateKey, new PreFilterState(podReq, new Resource(), new Resource()));
      return null;
    }
    const inEQ = new Resource();
    const all = new Resource();
    const prio = podPriority(pod);
    for (const node of this.handle.snapshotSharedLister().nodeInfos().list()) {
      for (const p of this.handle.nominatedPodsForNode(node.nodeName)) {
        if (p.pod.metadata?.uid === pod.metadata?.uid) continue;
        const pns = p.pod.metadata?.namespace ?? "";
        const info = infos.get(pns);
        if (!info) continue;
        const req = computePodResourceRequest(p.pod);
        if (pns === ns && podPriority(p.pod) >= prio) {
          inEQ.addResource(req);
          all.addResource(req);
        } else if (pns !== ns && !info.usedOverMin()) {
          all.addResource(req);
        }
      }
    }
    inEQ.addResource(podReq);
    all.addResource(podReq);
    state.write(preFilterStateKey, new PreFilterState(podReq, inEQ, all));
    const podName = `${ns}/${pod.metadata?.name ?? ""}`;
    if (eq.usedOverMaxWith(inEQ)) {
      return new Status(
        Code.Unschedulable,
        `Pod ${podName} is rejected in PreFilter because ElasticQuota ${eq.namespace} is more than Max`,
      );
    }
    if (infos.aggregatedUsedOverMinWith(all)) {
      return new Status(
        Code.Unschedulable,
        `Pod ${podName} is rejected in PreFilter because total ElasticQuota used is more than min`,
      );
    }
    return null;
  }

  /** Keeps the cycle's quota usage in step with pods added or removed during preemption's dry runs. */
  preFilterExtensions(): PreFilterExtensions {
    return {
      addPod: (state, _podToSchedule, podInfoToAdd) => {
        const s = state.read(elasticQuotaSnapshotKey);
        if (!s) return new Status(Code.Error, `error reading "${elasticQuotaSnapshotKey}" from cycleState`);
        s.elasticQuotaInfos
          .get(podInfoToAdd.pod.metadata?.namespace ?? "")
          ?.addPodIfNotPresent(podInfoToAdd.pod);
        return null;
      },
      removePod: (state, _podToSchedule, podInfoToRemove) => {
        const s = state.read(elasticQuotaSnapshotKey);
        if (!s) return new Status(Code.Error, `error reading "${elasticQuotaSnapshotKey}" from cycleState`);
        s.elasticQuotaInfos
          .get(podInfoToRemove.pod.metadata?.namespace ?? "")
          ?.deletePodIfPresent(podInfoToRemove.pod);
        return null;
      },
    };
  }

  /** Preemption with the Evaluator, choosing victims by quota (see class comment). */
  postFilter(state: CycleState, pod: Pod, m: NodeToStatus): Promise<PostFilterOutput> {
    return new Evaluator(name, this.handle, new Preemptor(this.handle, state)).preempt(state, pod, m);
  }

  reserve(_state: CycleState, pod: Pod, _nodeName: string): Status | null {
    if (this.elasticQuotas.list(pod.metadata?.namespace ?? "").length > 0) {
      this.reserved.set(`${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`, pod);
    }
    return null;
  }

  unreserve(_state: CycleState, pod: Pod, _nodeName: string): void {
    this.reserved.delete(`${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`);
  }
}

/** upstream preemptor: the preemption.Interface of CapacityScheduling. */
export class Preemptor implements PreemptionInterface {
  constructor(
    private readonly handle: Handle,
    private readonly state: CycleState,
  ) {}

  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number } {
    return { offset: 0, numCandidates: numNodes };
  }

  candidatesToVictimsMap(candidates: readonly Candidate[]): Map<string, ExtenderVictims> {
    const m = new Map<string, ExtenderVictims>();
    for (const c of candidates) m.set(c.name, c.victims);
    return m;
  }

  podEligibleToPreemptOthers(
    pod: Pod,
    nominatedNodeStatus: Status | null,
  ): { eligible: boolean; reason: string } {
    if (pod.spec?.preemptionPolicy === "Never") {
      return { eligible: false, reason: "not eligible due to preemptionPolicy=Never." };
    }
    const preFilterState = this.state.read(preFilterStateKey);
    if (!preFilterState)
      return { eligible: false, reason: "not eligible due to failed to read from cycleState" };
    const nomNodeName = pod.status?.nominatedNodeName ?? "";
    if (nomNodeName.length === 0) return { eligible: true, reason: "" };
    if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable)
      return { eligible: true, reason: "" };
    const snapshot = this.state.read(elasticQuotaSnapshotKey);
    if (!snapshot) return { eligible: true, reason: "" };
    const nodeInfo = this.handle.snapshotSharedLister().nodeInfos().get(nomNodeName);
    if (!nodeInfo) return { eligible: true, reason: "" };
    const infos = snapshot.elasticQuotaInfos;
    const prio = podPriority(pod);
    const ns = pod.metadata?.namespace ?? "";
    const preemptorEQ = infos.get(ns);
    if (preemptorEQ) {
      const moreThanMinWithPreemptor = preemptorEQ.usedOverMinWith(
        preFilterState.nominatedPodsReqInEQWithPodReq,
      );
      for (const p of nodeInfo.pods) {
        if (!p.pod.metadata?.deletionTimestamp) continue;
        const pns = p.pod.metadata?.namespace ?? "";
        const eqInfo = infos.get(pns);
        if (!eqInfo) continue;
        if (pns === ns && podPriority(p.pod) < prio)
          return { eligible: false, reason: ErrReasonTerminatingPod };
        if (pns !== ns && !moreThanMinWithPreemptor && eqInfo.usedOverMin()) {
          return { eligible: false, reason: ErrReasonTerminatingPod };
        }
      }
    } else {
      for (const p of nodeInfo.pods) {
        if (infos.has(p.pod.metadata?.namespace ?? "")) continue;
        if (p.pod.metadata?.deletionTimestamp && podPriority(p.pod) < prio) {
          return { eligible: false, reason: ErrReasonTerminatingPod };
        }
      }
    }
    return { eligible: true, reason: "" };
  }

  selectVictimsOnNode(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    pdbs: readonly PodDisruptionBudget[],
  ): SelectVictimsResult {
    const handle = this.handle;
    const none = (status: Status): SelectVictimsResult => ({ victims: [], numViolatingVictim: 0, status });
    const snapshot = state.read(elasticQuotaSnapshotKey);
    if (!snapshot)
      return none(new Status(Code.Unschedulable, "Failed to read elasticQuotaSnapshot from cycleState"));
    const preFilterState = state.read(preFilterStateKey);
    if (!preFilterState)
      return none(new Status(Code.Unschedulable, "Failed to read preFilterState from cycleState"));
    const removePod = (pi: PodInfo): Status | null => {
      nodeInfo.removePod(pi.pod);
      const s = handle.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
      return s === null || s.isSuccess() ? null : s;
    };
    const addPod = (pi: PodInfo): Status | null => {
      nodeInfo.addPodInfo(pi);
      const s = handle.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
      return s === null || s.isSuccess() ? null : s;
    };
    const now = handle.clock().now();
    const byImportance = (a: PodInfo, b: PodInfo): number =>
      moreImportantPod(a.pod, b.pod, now) ? -1 : moreImportantPod(b.pod, a.pod, now) ? 1 : 0;

    const infos = snapshot.elasticQuotaInfos;
    const prio = podPriority(pod);
    const ns = pod.metadata?.namespace ?? "";
    const preemptorEQ = infos.get(ns);
    const { podReq, nominatedPodsReqInEQWithPodReq, nominatedPodsReqWithPodReq } = preFilterState;
    // Least important first, as upstream sorts the node's pods before walking them.
    const pods = [...nodeInfo.pods].sort((a, b) => -byImportance(a, b));
    const potentialVictims: PodInfo[] = [];
    const take = (pi: PodInfo): Status | null => {
      potentialVictims.push(pi);
      return removePod(pi);
    };
    if (preemptorEQ) {
      const moreThanMinWithPreemptor = preemptorEQ.usedOverMinWith(nominatedPodsReqInEQWithPodReq);
      for (const pi of pods) {
        const pns = pi.pod.metadata?.namespace ?? "";
        const eqInfo = infos.get(pns);
        if (!eqInfo) continue;
        // Over its min, a namespace may only preempt its own lower-priority pods; under it, pods of
        // namespaces that borrow beyond their min.
        const victim = moreThanMinWithPreemptor
          ? pns === ns && podPriority(pi.pod) < prio
          : pns !== ns && eqInfo.usedOverMin();
        if (victim) {
          const s = take(pi);
          if (s) return none(s);
        }
      }
    } else {
      for (const pi of pods) {
        if (infos.has(pi.pod.metadata?.namespace ?? "")) continue;
        if (podPriority(pi.pod) < prio) {
          const s = take(pi);
          if (s) return none(s);
        }
      }
    }
    if (potentialVictims.length === 0) {
      return none(
        new Status(
          Code.UnschedulableAndUnresolvable,
          `No victims found on node ${nodeInfo.nodeName} for preemptor pod ${pod.metadata?.name ?? ""}`,
        ),
      );
    }
    const fits = handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (fits !== null && !fits.isSuccess()) return none(fits);
    if (preemptorEQ && (preemptorEQ.usedOverMaxWith(podReq) || infos.aggregatedUsedOverMinWith(podReq))) {
      return none(new Status(Code.Unschedulable, "global quota max exceeded"));
    }

    const victims: PodInfo[] = [];
    let numViolatingVictim = 0;
    potentialVictims.sort(byImportance);
    const { violating, nonViolating } = filterPodsWithPDBViolation(potentialVictims, pdbs);
    const reprieve = (pi: PodInfo): { fits: boolean; error: Status | null } => {
      const a = addPod(pi);
      if (a) return { fits: false, error: a };
      const s = handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
      const ok = s === null || s.isSuccess();
      if (!ok) {
        const r = removePod(pi);
        if (r) return { fits: false, error: r };
        victims.push(pi);
      }
      if (
        preemptorEQ &&
        (preemptorEQ.usedOverMaxWith(nominatedPodsReqInEQWithPodReq) ||
          infos.aggregatedUsedOverMinWith(nominatedPodsReqWithPodReq))
      ) {
        const r = removePod(pi);
        if (r) return { fits: false, error: r };
        victims.push(pi);
      }
      return { fits: ok, error: null };
    };
    for (const pi of violating) {
      const r = reprieve(pi);
      if (r.error) return none(r.error);
      if (!r.fits) numViolatingVictim++;
    }
    for (const pi of nonViolating) {
      const r = reprieve(pi);
      if (r.error) return none(r.error);
    }
    if (violating.length > 0 && nonViolating.length > 0) victims.sort(byImportance);
    return { victims: victims.map((pi) => pi.pod), numViolatingVictim, status: null };
  }

  orderedScoreFuncs(): CandidateScoreFunc[] | null {
    return null;
  }
}
