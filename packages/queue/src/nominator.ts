// upstream: pkg/scheduler/backend/queue/nominator.go
import { type Pod, podUID } from "@kubesched/api";
import { type Lister, type NominatingInfo, NominatingMode, type PodInfo } from "@kubesched/framework";

/** What the nominator keeps of a pod: enough to find it again in the queue. */
export interface PodRef {
  name: string;
  namespace: string;
  uid: string;
}

function podToRef(pod: Pod): PodRef {
  return { name: pod.metadata?.name ?? "", namespace: pod.metadata?.namespace ?? "", uid: podUID(pod) };
}

function nominatedNodeName(pod: Pod): string {
  return pod.status?.nominatedNodeName ?? "";
}

/**
 * Pods nominated to run on nodes (by preemption, or through status.nominatedNodeName), which
 * may differ from what the pod objects say: node → pods and pod UID → node.
 */
const noRefs: readonly PodRef[] = Object.freeze([]);

export class Nominator {
  /** Node name → pods nominated to it. */
  readonly nominatedPods = new Map<string, PodRef[]>();
  /** Pod UID → the node it is nominated to. */
  readonly nominatedPodToNode = new Map<string, string>();

  /** `podLister` (the informer cache) is used to skip pods that are gone or already bound. */
  constructor(private readonly podLister?: Lister<Pod>) {}

  addNominatedPod(pi: PodInfo, nominatingInfo: NominatingInfo | null): void {
    const pod = pi.pod;
    // Never store more than one instance of the pod.
    this.delete(pod);
    let nodeName: string;
    if (nominatingInfo?.nominatingMode === NominatingMode.Override) {
      nodeName = nominatingInfo.nominatedNodeName;
    } else {
      nodeName = nominatedNodeName(pod);
    }
    // Overriding with an empty node name clears the nomination; never store pods under "".
    if (nodeName === "") return;
    if (this.podLister) {
      const current = this.podLister.get(pod.metadata?.namespace ?? "", pod.metadata?.name ?? "");
      // Gone, or already scheduled: not nominated anymore.
      if (!current || current.spec?.nodeName) return;
    }
    const uid = podUID(pod);
    this.nominatedPodToNode.set(uid, nodeName);
    const refs = this.nominatedPods.get(nodeName) ?? [];
    if (refs.some((r) => r.uid === uid)) return;
    refs.push(podToRef(pod));
    this.nominatedPods.set(nodeName, refs);
  }

  /** Replaces oldPod by newPodInfo, keeping an in-memory nomination neither version carries. */
  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void {
    let nominatingInfo: NominatingInfo | null = null;
    // An update without nominatedNodeName right after the scheduler nominated the pod in memory
    // keeps the nomination; adding, changing or removing status.nominatedNodeName does not.
    if (nominatedNodeName(oldPod) === "" && nominatedNodeName(newPodInfo.pod) === "") {
      const nnn = this.nominatedPodToNode.get(podUID(oldPod));
      if (nnn !== undefined)
        nominatingInfo = { nominatingMode: NominatingMode.Override, nominatedNodeName: nnn };
    }
    this.delete(oldPod);
    this.addNominatedPod(newPodInfo, nominatingInfo);
  }

  delete(pod: Pod): void {
    const uid = podUID(pod);
    const nnn = this.nominatedPodToNode.get(uid);
    if (nnn === undefined) return;
    const refs = this.nominatedPods.get(nnn);
    if (refs) {
      const i = refs.findIndex((r) => r.uid === uid);
      if (i >= 0) {
        refs.splice(i, 1);
        if (refs.length === 0) this.nominatedPods.delete(nnn);
      }
    }
    this.nominatedPodToNode.delete(uid);
  }

  /** The pods nominated to the node (a copy), or a shared empty list: no allocation when none. */
  nominatedPodsForNode(nodeName: string): readonly PodRef[] {
    const refs = this.nominatedPods.get(nodeName);
    return refs === undefined || refs.length === 0 ? noRefs : refs.slice();
  }
}
