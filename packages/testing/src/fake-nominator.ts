// upstream: pkg/scheduler/backend/queue/nominator.go (the nominating rules, without the queue)
import { type Pod, podUID } from "@kubesched/api";
import { type NominatingInfo, NominatingMode, PodInfo, type PodNominator } from "@kubesched/framework";

/** A PodNominator over a map node → nominated pods, following upstream's add rules. */
export class FakeNominator implements PodNominator {
  private readonly byNode = new Map<string, PodInfo[]>();
  private readonly nodeOfPod = new Map<string, string>();

  /** Nominates each pod to its status.nominatedNodeName. */
  constructor(pods: readonly Pod[] = []) {
    for (const p of pods) this.addNominatedPod(new PodInfo(p), null);
  }

  addNominatedPod(pi: PodInfo, nominatingInfo: NominatingInfo | null): void {
    this.deleteNominatedPodIfExists(pi.pod);
    const nodeName =
      nominatingInfo?.nominatingMode === NominatingMode.Override
        ? nominatingInfo.nominatedNodeName
        : (pi.pod.status?.nominatedNodeName ?? "");
    if (!nodeName) return;
    this.nodeOfPod.set(podUID(pi.pod), nodeName);
    const list = this.byNode.get(nodeName);
    if (list) list.push(pi);
    else this.byNode.set(nodeName, [pi]);
  }

  deleteNominatedPodIfExists(pod: Pod): void {
    const uid = podUID(pod);
    const nodeName = this.nodeOfPod.get(uid);
    if (nodeName === undefined) return;
    this.nodeOfPod.delete(uid);
    const list = (this.byNode.get(nodeName) ?? []).filter((pi) => podUID(pi.pod) !== uid);
    if (list.length > 0) this.byNode.set(nodeName, list);
    else this.byNode.delete(nodeName);
  }

  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void {
    const nodeName = this.nodeOfPod.get(podUID(oldPod));
    this.deleteNominatedPodIfExists(oldPod);
    // Keep the nomination when the update does not carry one (upstream: the pod was only updated).
    const info =
      nodeName && !newPodInfo.pod.status?.nominatedNodeName
        ? { nominatedNodeName: nodeName, nominatingMode: NominatingMode.Override }
        : null;
    this.addNominatedPod(newPodInfo, info);
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? [];
  }

  hasNominatedPods(): boolean {
    return this.byNode.size > 0;
  }
}
