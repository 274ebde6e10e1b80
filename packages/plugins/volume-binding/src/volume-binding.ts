// upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go
import type { Node, PersistentVolumeClaim, Pod } from "@kubesched/api";
import {
  asStatus,
  type Clock,
  type ClusterClient,
  type ClusterEventWithHint,
  type ClusterListers,
  Code,
  type CycleState,
  type EnqueueExtensions,
  type Features,
  type Handle,
  type NodeInfo,
  type PreBindPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ReservePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
  VolumesSignerName,
  volumesSigner,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnarScorePlugin, ColumnWindow } from "@kubesched/framework/columnar";
import type { VolumeBindingArgs } from "./args";
import {
  type BoundVolumes,
  type PodVolumeClaims,
  type PodVolumes,
  pvCapacity,
  pvcRequest,
  VolumeBinder,
} from "./binder";
import { eventsToRegister } from "./events";
import { ErrReasonUnboundImmediatePVC } from "./reasons";
import { buildScorerFunction, type ClassResourceMap, type VolumeCapacityScorer } from "./scorer";

export const name = "VolumeBinding";

/** Cycle state: the pod's claims (PreFilter) and, per feasible node, what to bind there (Filter). */
class VolumeBindingState implements StateData {
  allBound = false;
  hasStaticBindings = false;
  readonly podVolumesByNode = new PodVolumesByNode();
  constructor(readonly podVolumeClaims: PodVolumeClaims | null) {}
  /** Shared between clones, as upstream (Filter fills it for every node). */
  clone(): StateData {
    return this;
  }
}

/**
 * Node name → what to bind there, for the nodes Filter passed (upstream's podVolumesByNode map).
 * Columnar Filter adds its nodes to a list (appending is far cheaper than hashing each name into a
 * map, and a cycle reads only the chosen node: Reserve, PreBind); the list moves into the map when
 * an entry is set one by one or after a few lookups.
 */
export class PodVolumesByNode {
  private readonly map = new Map<string, PodVolumes>();
  private pendingNames: string[] = [];
  private pendingVolumes: PodVolumes[] = [];
  private scans = 0;

  /** Whether no node has an entry. */
  isEmpty(): boolean {
    return this.map.size === 0 && this.pendingNames.length === 0;
  }

  get(nodeName: string): PodVolumes | undefined {
    const names = this.pendingNames;
    if (names.length === 0) return this.map.get(nodeName);
    if (++this.scans > maxPendingScans) {
      this.flush();
      return this.map.get(nodeName);
    }
    // Pending entries are newer than the map's (set() flushes them first); the last one wins.
    for (let i = names.length - 1; i >= 0; i--) {
      if (names[i] === nodeName) return this.pendingVolumes[i];
    }
    return this.map.get(nodeName);
  }

  set(nodeName: string, podVolumes: PodVolumes): void {
    if (this.pendingNames.length > 0) this.flush();
    this.map.set(nodeName, podVolumes);
  }

  /** set() for a batch of nodes (see the class). */
  append(nodeName: string, podVolumes: PodVolumes): void {
    this.pendingNames.push(nodeName);
    this.pendingVolumes.push(podVolumes);
  }

  private flush(): void {
    const names = this.pendingNames;
    const volumes = this.pendingVolumes;
    for (let i = 0; i < names.length; i++) this.map.set(names[i]!, volumes[i]!);
    this.pendingNames = [];
    this.pendingVolumes = [];
    this.scans = 0;
  }
}

/** Lookups by scanning the pending list before PodVolumesByNode moves it into its map. */
const maxPendingScans = 4;

const stateKeyName = stateKey<VolumeBindingState>(name);

/** A problem with the pod's claims; PreFilter reports its message as UnschedulableAndUnresolvable. */
class PodPVCError extends Error {}

/**
 * Binds a pod's PersistentVolumeClaims: Filter finds, per node, PVs to bind unbound
 * WaitForFirstConsumer claims to (or checks they can be provisioned there) and checks bound PVs'
 * node affinity; Reserve assumes the choice; PreBind makes the API calls.
 */
export class VolumeBinding
  implements
    PreFilterPlugin,
    ColumnarFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ColumnarScorePlugin,
    ReservePlugin,
    PreBindPlugin,
    EnqueueExtensions,
    SignPlugin
{
  private readonly binder: VolumeBinder;
  private readonly listers: ClusterListers;
  private readonly client: ClusterClient;
  private readonly clock: Clock;
  private readonly scorer: VolumeCapacityScorer | null;
  private readonly bindTimeoutMs: number;
  private readonly enableSchedulingQueueHint: boolean;
  private readonly enableStorageCapacityScoring: boolean;

  constructor(args: VolumeBindingArgs, handle: Handle, features: Features) {
    this.listers = handle.listers();
    this.client = handle.client();
    this.clock = handle.clock();
    this.binder = new VolumeBinder(this.listers, features.enableVolumeAttributesClass);
    this.scorer =
      features.enableStorageCapacityScoring && args.shape ? buildScorerFunction(args.shape) : null;
    this.bindTimeoutMs = args.bindTimeoutSeconds * 1000;
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
    this.enableStorageCapacityScoring = features.enableStorageCapacityScoring;
  }

  name(): string {
    return name;
  }

  /** Feasibility depends on the pod's volume sources, config maps and secrets aside (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: VolumesSignerName, value: volumesSigner(pod) }], status: null };
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint);
  }

  /** Checks the pod's claims exist and are usable; throws PodPVCError otherwise. */
  private podHasPVCs(pod: Pod): boolean {
    let hasPVC = false;
    const ns = pod.metadata?.namespace ?? "";
    for (const v of pod.spec?.volumes ?? []) {
      let pvcName: string;
      let isEphemeral = false;
      if (v.persistentVolumeClaim) pvcName = v.persistentVolumeClaim.claimName;
      else if (v.ephemeral) {
        pvcName = `${pod.metadata?.name ?? ""}-${v.name}`;
        isEphemeral = true;
      } else continue;
      hasPVC = true;
      const pvc: PersistentVolumeClaim | undefined = this.listers.persistentVolumeClaims.get(ns, pvcName);
      if (!pvc) {
        // Normal right after creating a pod with a generic ephemeral volume.
        throw new PodPVCError(
          isEphemeral
            ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${pvcName}"`
            : `persistentvolumeclaim "${pvcName}" not found`,
        );
      }
      if (pvc.status?.phase === "Lost") {
        throw new PodPVCError(
          `persistentvolumeclaim "${pvcName}" bound to non-existent persistentvolume "${pvc.spec?.volumeName ?? ""}"`,
        );
      }
      if (pvc.metadata?.deletionTimestamp)
        throw new PodPVCError(`persistentvolumeclaim "${pvcName}" is being deleted`);
      if (isEphemeral) {
        const owner = (pvc.metadata?.ownerReferences ?? []).find((o) => o.controller === true);
        if (!owner || owner.uid !== (pod.metadata?.uid ?? "")) {
          throw new PodPVCError(
            `PVC ${ns}/${pvcName} was not created for pod ${ns}/${pod.metadata?.name ?? ""} (pod is not owner)`,
          );
        }
      }
    }
    return hasPVC;
  }

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    let hasPVC: boolean;
    try {
      hasPVC = this.podHasPVCs(pod);
    } catch (e) {
      return new Status(Code.UnschedulableAndUnresolvable, e instanceof Error ? e.message : String(e));
    }
    if (!hasPVC) {
      state.write(stateKeyName, new VolumeBindingState(null));
      return new Status(Code.Skip);
    }
    let claims: PodVolumeClaims;
    try {
      claims = this.binder.getPodVolumeClaims(pod);
    } catch (e) {
      return asStatus(e);
    }
    if (claims.unboundClaimsImmediate.length > 0) {
      // The PV controller binds them; the pod is requeued on the PVC update.
      return new Status(Code.UnschedulableAndUnresolvable, ErrReasonUnboundImmediatePVC);
    }
    const eligible = this.binder.getEligibleNodes(claims.boundClaims);
    state.write(stateKeyName, new VolumeBindingState(claims));
    return eligible ? { nodeNames: eligible } : null;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error(`reading "${stateKeyName}" from cycleState: not found`));
    const node = nodeInfo.node;
    if (!node || !s.podVolumeClaims) return null;
    let bound: BoundVolumes;
    try {
      bound = this.binder.boundVolumes(s.podVolumeClaims);
    } catch (e) {
      return asStatus(e);
    }
    return this.filterNode(s, s.podVolumeClaims, bound, pod, nodeInfo.nodeName, node, false);
  }

  /**
   * filter() over many nodes: the PVs of the pod's bound claims are looked up (and their node
   * affinity parsed) once per call instead of once per node.
   */
  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    const infos = columns.nodeInfos;
    const s = state.read(stateKeyName);
    const claims = s?.podVolumeClaims ?? null;
    if (!s || claims === null) {
      for (let k = 0; k < count; k++) out[k] = this.filter(state, pod, infos[indices[k]!]!);
      return;
    }
    if (claims.unboundClaimsDelayBinding.length === 0 && claims.boundClaims.length > 0) {
      // Every claim bound: nothing to bind anywhere, only the bound PVs' node affinity to check.
      let bound: BoundVolumes;
      try {
        bound = this.binder.boundVolumes(claims);
      } catch (e) {
        for (let k = 0; k < count; k++) out[k] = infos[indices[k]!]!.node ? asStatus(e) : null;
        return;
      }
      if (!bound.missing && bound.affinity.every((a) => a === null)) {
        // Every node passes with nothing to bind (findPodVolumes' answer on each): one PodVolumes
        // for them all (Reserve replaces its lists by equal ones, Unreserve and PreBind read it).
        const none: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
        const byNode = s.podVolumesByNode;
        for (let k = 0; k < count; k++) {
          const ni = infos[indices[k]!]!;
          out[k] = null;
          if (ni.node) byNode.append(ni.nodeName, none);
        }
        return;
      }
    }
    let bound: BoundVolumes | null = null;
    for (let k = 0; k < count; k++) {
      const ni = infos[indices[k]!]!;
      const node = ni.node;
      if (!node) {
        out[k] = null;
        continue;
      }
      if (bound === null) {
        try {
          bound = this.binder.boundVolumes(claims);
        } catch (e) {
          for (; k < count; k++) out[k] = infos[indices[k]!]!.node ? asStatus(e) : null;
          return;
        }
      }
      out[k] = this.filterNode(s, claims, bound, pod, ni.nodeName, node, true);
    }
  }

  private filterNode(
    s: VolumeBindingState,
    claims: PodVolumeClaims,
    bound: BoundVolumes,
    pod: Pod,
    nodeName: string,
    node: Node,
    batch: boolean,
  ): Status | null {
    let r: { podVolumes: PodVolumes; reasons: string[] };
    try {
      r = this.binder.findPodVolumes(pod, claims, node, bound);
    } catch (e) {
      return asStatus(e);
    }
    if (r.reasons.length > 0) return new Status(Code.UnschedulableAndUnresolvable, ...r.reasons);
    if (batch) s.podVolumesByNode.append(nodeName, r.podVolumes);
    else s.podVolumesByNode.set(nodeName, r.podVolumes);
    if (r.podVolumes.staticBindings.length > 0) s.hasStaticBindings = true;
    return null;
  }

  preScore(state: CycleState, _pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    if (!this.scorer) return new Status(Code.Skip);
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error(`reading "${stateKeyName}" from cycleState: not found`));
    if (s.hasStaticBindings || this.enableStorageCapacityScoring) return null;
    return new Status(Code.Skip);
  }

  /**
   * Storage utilization per class of the PVs chosen on the node, scored by the shape. Dynamic
   * provisions would be scored from CSIStorageCapacity, which is not modelled: they score 0.
   */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    if (!this.scorer) return 0;
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error(`reading "${stateKeyName}" from cycleState: not found`));
    const podVolumes = s.podVolumesByNode.get(nodeInfo.nodeName);
    if (!podVolumes) return 0;
    const classResources: ClassResourceMap = new Map();
    if (podVolumes.staticBindings.length > 0 || !this.enableStorageCapacityScoring) {
      for (const b of podVolumes.staticBindings) {
        const cls = b.pv.spec?.storageClassName ?? "";
        const r = classResources.get(cls) ?? { requested: 0, capacity: 0 };
        r.requested += pvcRequest(b.pvc);
        r.capacity += pvCapacity(b.pv);
        classResources.set(cls, r);
      }
    }
    return this.scorer(classResources);
  }

  /**
   * Without volumes chosen on any node (a pod without claims), or none to bind statically (every
   * claim bound or provisioned), every node scores 0.
   */
  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const { columns, indices, count } = window;
    const s = state.read(stateKeyName);
    // Without static bindings on any node every node scores scorer(no classes) = 0.
    if (!this.scorer || (s !== undefined && (s.podVolumesByNode.isEmpty() || !s.hasStaticBindings))) {
      scores.fill(0, 0, count);
      return null;
    }
    const infos = columns.nodeInfos;
    for (let k = 0; k < count; k++) {
      const r = this.score(state, pod, infos[indices[k]!]!);
      if (typeof r !== "number") {
        if (!r.isSuccess()) return r;
        scores[k] = 0;
      } else {
        scores[k] = r;
      }
    }
    return null;
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }

  reserve(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error(`reading "${stateKeyName}" from cycleState: not found`));
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (!podVolumes) {
      // The pod references no PVC.
      s.allBound = true;
      return null;
    }
    try {
      s.allBound = this.binder.assumePodVolumes(pod, nodeName, podVolumes);
    } catch (e) {
      return asStatus(e);
    }
    return null;
  }

  unreserve(state: CycleState, _pod: Pod, nodeName: string): void {
    const podVolumes = state.read(stateKeyName)?.podVolumesByNode.get(nodeName);
    if (podVolumes) this.binder.revertAssumedPodVolumes(podVolumes);
  }

  preBindPreFlight(state: CycleState, _pod: Pod, _nodeName: string): Status | null {
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error(`reading "${stateKeyName}" from cycleState: not found`));
    return s.allBound ? new Status(Code.Skip) : null;
  }

  async preBind(state: CycleState, _pod: Pod, nodeName: string): Promise<Status | null> {
    const s = state.read(stateKeyName);
    if (!s) return asStatus(new Error(`reading "${stateKeyName}" from cycleState: not found`));
    if (s.allBound) return null;
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (!podVolumes) return asStatus(new Error(`no pod volumes found for node "${nodeName}"`));
    const bindings = podVolumes.staticBindings.map((b) => ({ pvc: b.pvc, pv: b.pv }));
    const provisions = podVolumes.dynamicProvisions.map((p) => ({ pvc: p.pvc, node: nodeName }));
    if (bindings.length === 0 && provisions.length === 0) return null;
    const bindVolumes = this.client.bindVolumes?.bind(this.client);
    if (!bindVolumes) return asStatus(new Error("binding volumes is not supported by this cluster client"));
    try {
      await this.withTimeout(bindVolumes(bindings, provisions));
    } catch (e) {
      return asStatus(new Error(`binding volumes: ${e instanceof Error ? e.message : String(e)}`));
    }
    return null;
  }

  /** upstream waits at most bindTimeoutSeconds for the claims to be bound (0: no waiting). */
  private withTimeout(p: Promise<void>): Promise<void> {
    if (this.bindTimeoutMs <= 0) return p;
    return new Promise((resolve, reject) => {
      const t = this.clock.setTimeout(
        () => reject(new Error("context deadline exceeded")),
        this.bindTimeoutMs,
      );
      p.then(
        () => {
          t.cancel();
          resolve();
        },
        (e: unknown) => {
          t.cancel();
          reject(e);
        },
      );
    });
  }
}
