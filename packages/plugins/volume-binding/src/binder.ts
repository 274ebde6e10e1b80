// upstream: pkg/scheduler/framework/plugins/volumebinding/binder.go (volumeBinder),
// assume_cache.go, and k8s.io/component-helpers/storage/volume (pv_helpers.go, helpers.go).
import {
  getPersistentVolumeClaimClass,
  getPersistentVolumeClass,
  LabelHostname,
  labelSelectorAsSelector,
  type Node,
  type NodeSelectorMatcher,
  newNodeSelector,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  parseQuantity,
  type StorageClass,
} from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";
import { ErrReasonBindConflict, ErrReasonNodeConflict, ErrReasonPVNotExist } from "./reasons";

export const AnnBindCompleted = "pv.kubernetes.io/bind-completed";
export const AnnBoundByController = "pv.kubernetes.io/bound-by-controller";
export const AnnSelectedNode = "volume.kubernetes.io/selected-node";
export const NotSupportedProvisioner = "kubernetes.io/no-provisioner";

/** A PV chosen for an unbound claim. */
export interface BindingInfo {
  pvc: PersistentVolumeClaim;
  pv: PersistentVolume;
}

/** A claim to provision on the node. */
export interface DynamicProvision {
  pvc: PersistentVolumeClaim;
}

/** What has to happen for the pod's volumes on one node. */
export interface PodVolumes {
  staticBindings: BindingInfo[];
  dynamicProvisions: DynamicProvision[];
}

/** The pod's claims, sorted once in PreFilter. */
export interface PodVolumeClaims {
  boundClaims: PersistentVolumeClaim[];
  unboundClaimsDelayBinding: PersistentVolumeClaim[];
  unboundClaimsImmediate: PersistentVolumeClaim[];
  /** storage class → PVs of that class (from the assume cache). */
  unboundVolumesDelayBinding: Map<string, PersistentVolume[]>;
}

function storageBytes(q: string | undefined): number {
  if (q === undefined) return 0;
  try {
    return parseQuantity(q).value();
  } catch {
    return 0;
  }
}

export function pvcRequest(pvc: PersistentVolumeClaim): number {
  return storageBytes(pvc.spec?.resources?.requests?.storage);
}

export function pvCapacity(pv: PersistentVolume): number {
  return storageBytes(pv.spec?.capacity?.storage);
}

const key = (o: { metadata?: { namespace?: string; name?: string } }): string =>
  `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;

/**
 * Informer objects overlaid with the scheduler's assumed versions (upstream AssumeCache): PVs
 * bound and claims annotated in Reserve are seen by the next pods until the informer catches up
 * or the assumption is reverted.
 */
export class AssumeCache {
  private readonly assumedPVs = new Map<string, PersistentVolume>();
  private readonly assumedPVCs = new Map<string, PersistentVolumeClaim>();

  constructor(private readonly listers: ClusterListers) {}

  getPV(name: string): PersistentVolume | undefined {
    const latest = this.listers.persistentVolumes.get(name);
    const assumed = this.assumedPVs.get(name);
    if (assumed && latest && newerThan(latest, assumed)) {
      this.assumedPVs.delete(name);
      return latest;
    }
    return assumed ?? latest;
  }

  listPVs(storageClassName: string): PersistentVolume[] {
    const out: PersistentVolume[] = [];
    for (const pv of this.listers.persistentVolumes.list()) {
      const v = this.getPV(pv.metadata?.name ?? "") ?? pv;
      if (getPersistentVolumeClass(v) === storageClassName) out.push(v);
    }
    return out;
  }

  getPVC(namespace: string, name: string): PersistentVolumeClaim | undefined {
    const latest = this.listers.persistentVolumeClaims.get(namespace, name);
    const k = `${namespace}/${name}`;
    const assumed = this.assumedPVCs.get(k);
    if (assumed && latest && newerThan(latest, assumed)) {
      this.assumedPVCs.delete(k);
      return latest;
    }
    return assumed ?? latest;
  }

  assumePV(pv: PersistentVolume): void {
    this.assumedPVs.set(pv.metadata?.name ?? "", pv);
  }
  assumePVC(pvc: PersistentVolumeClaim): void {
    this.assumedPVCs.set(key(pvc), pvc);
  }
  restorePV(name: string): void {
    this.assumedPVs.delete(name);
  }
  restorePVC(k: string): void {
    this.assumedPVCs.delete(k);
  }
}

/** An informer object replaced the assumed one when its resourceVersion moved past it. */
function newerThan(
  latest: { metadata?: { resourceVersion?: string } },
  assumed: { metadata?: { resourceVersion?: string } },
): boolean {
  const a = Number(assumed.metadata?.resourceVersion ?? "");
  const l = Number(latest.metadata?.resourceVersion ?? "");
  return Number.isFinite(a) && Number.isFinite(l) && l > a;
}

/** upstream volume.CheckNodeAffinity: the PV's required node affinity must match the node's labels. */
export function checkNodeAffinity(pv: PersistentVolume, node: Node): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  if (!required) return true;
  return matchLabelsOnly(newNodeSelector(required), node);
}

/** upstream matches a PV's node affinity against a node carrying only the labels. */
function matchLabelsOnly(selector: NodeSelectorMatcher, node: Node): boolean {
  return selector.match({ metadata: { labels: node.metadata?.labels ?? {} } });
}

/**
 * The PVs of a pod's bound claims, looked up once for many nodes (upstream looks them up on
 * every node; the lookups give the same objects while the informers do not change, which they
 * cannot during a synchronous Filter over nodes), with their node affinity parsed once.
 */
export interface BoundVolumes {
  /** The PV of each bound claim, in claim order, up to the first one not found. */
  readonly pvs: readonly PersistentVolume[];
  /** The parsed required node affinity of each PV of `pvs` (null: none, matches every node). */
  readonly affinity: readonly (NodeSelectorMatcher | null)[];
  /** Whether a bound claim's PV was not found (after the claims of `pvs`). */
  readonly missing: boolean;
}

function isVolumeBoundToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== pvc.metadata?.name || ref.namespace !== pvc.metadata?.namespace) return false;
  return !ref.uid || ref.uid === pvc.metadata?.uid;
}

function checkAccessModes(pvc: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const pvModes = pv.spec?.accessModes ?? [];
  return (pvc.spec?.accessModes ?? []).every((m) => pvModes.includes(m));
}

/** upstream volume.FindMatchingVolume on the scheduler path (node set, delay binding). */
export function findMatchingVolume(
  pvc: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node,
  excluded: ReadonlySet<string>,
  vacEnabled: boolean,
): PersistentVolume | undefined {
  const requested = pvcRequest(pvc);
  const requestedClass = getPersistentVolumeClaimClass(pvc);
  const selector = pvc.spec?.selector ? labelSelectorAsSelector(pvc.spec.selector) : undefined;
  let smallest: PersistentVolume | undefined;
  let smallestQty = 0;
  for (const pv of volumes) {
    if (excluded.has(pv.metadata?.name ?? "")) continue;
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, pvc)) continue;
    const qty = pvCapacity(pv);
    if (qty < requested) continue;
    if ((pvc.spec?.volumeMode ?? "Filesystem") !== (pv.spec?.volumeMode ?? "Filesystem")) continue;
    if (pv.metadata?.deletionTimestamp) continue;
    const nodeAffinityValid = checkNodeAffinity(pv, node);
    if (isVolumeBoundToClaim(pv, pvc)) {
      // A PV pre-bound to the claim is the only candidate.
      return nodeAffinityValid ? pv : undefined;
    }
    if (pv.status?.phase !== "Available") continue;
    if (selector && !selector.matches(pv.metadata?.labels)) continue;
    if (getPersistentVolumeClass(pv) !== requestedClass) continue;
    if (!nodeAffinityValid) continue;
    if (
      vacEnabled &&
      (pv.spec?.volumeAttributesClassName ?? "") !== (pvc.spec?.volumeAttributesClassName ?? "")
    ) {
      continue;
    }
    if (!checkAccessModes(pvc, pv)) continue;
    if (!smallest || smallestQty > qty) {
      smallest = pv;
      smallestQty = qty;
    }
  }
  return smallest;
}

/** upstream v1helper.MatchTopologySelectorTerms: no terms match everything. */
function matchTopologySelectorTerms(sc: StorageClass, labels: Readonly<Record<string, string>>): boolean {
  const terms = sc.allowedTopologies ?? [];
  if (terms.length === 0) return true;
  for (const t of terms) {
    const exprs = t.matchLabelExpressions ?? [];
    if (exprs.every((e) => labels[e.key] !== undefined && e.values.includes(labels[e.key] as string)))
      return true;
  }
  return false;
}

/** upstream's reasons, in its order (sufficient storage is not modelled: always true). */
function reasonsOf(
  boundVolumesSatisfied: boolean,
  unboundVolumesSatisfied: boolean,
  boundPVsFound: boolean,
): string[] {
  const r: string[] = [];
  if (!boundVolumesSatisfied) r.push(ErrReasonNodeConflict);
  if (!unboundVolumesSatisfied) r.push(ErrReasonBindConflict);
  if (!boundPVsFound) r.push(ErrReasonPVNotExist);
  return r;
}

/** An error of the binder that becomes an Error status (upstream returns err). */
export class BinderError extends Error {}

/** Whether a claim is bound (volumeName set and the bind-completed annotation present). */
function isPVCFullyBound(pvc: PersistentVolumeClaim): boolean {
  return !!pvc.spec?.volumeName && pvc.metadata?.annotations?.[AnnBindCompleted] !== undefined;
}

export class VolumeBinder {
  readonly cache: AssumeCache;

  constructor(
    private readonly listers: ClusterListers,
    private readonly enableVolumeAttributesClass: boolean,
  ) {
    this.cache = new AssumeCache(listers);
  }

  /** Sorts the pod's claims into bound, unbound delayed and unbound immediate. */
  getPodVolumeClaims(pod: Pod): PodVolumeClaims {
    const out: PodVolumeClaims = {
      boundClaims: [],
      unboundClaimsDelayBinding: [],
      unboundClaimsImmediate: [],
      unboundVolumesDelayBinding: new Map(),
    };
    const ns = pod.metadata?.namespace ?? "";
    for (const v of pod.spec?.volumes ?? []) {
      let claimName: string;
      if (v.persistentVolumeClaim) claimName = v.persistentVolumeClaim.claimName;
      else if (v.ephemeral) claimName = `${pod.metadata?.name ?? ""}-${v.name}`;
      else continue;
      const pvc = this.cache.getPVC(ns, claimName);
      if (!pvc) {
        throw new BinderError(
          `error getting PVC "${ns}/${claimName}": could not find v1.PersistentVolumeClaim "${ns}/${claimName}"`,
        );
      }
      if (isPVCFullyBound(pvc)) {
        out.boundClaims.push(pvc);
        continue;
      }
      // Pre-bound claims (volumeName set) are treated as immediate: the PV controller binds them.
      if (this.isDelayBindingMode(pvc) && !pvc.spec?.volumeName) out.unboundClaimsDelayBinding.push(pvc);
      else out.unboundClaimsImmediate.push(pvc);
    }
    for (const pvc of out.unboundClaimsDelayBinding) {
      const cls = getPersistentVolumeClaimClass(pvc);
      if (!out.unboundVolumesDelayBinding.has(cls))
        out.unboundVolumesDelayBinding.set(cls, this.cache.listPVs(cls));
    }
    return out;
  }

  private isDelayBindingMode(pvc: PersistentVolumeClaim): boolean {
    const className = getPersistentVolumeClaimClass(pvc);
    if (className === "") return false;
    const sc = this.listers.storageClasses.get(className);
    if (!sc) return false;
    if (sc.volumeBindingMode == null)
      throw new BinderError(`VolumeBindingMode not set for StorageClass "${className}"`);
    return sc.volumeBindingMode === "WaitForFirstConsumer";
  }

  /**
   * upstream GetEligibleNodes: the nodes local PVs of bound claims pin the pod to
   * (kubernetes.io/hostname In ...); null when unrestricted or on a lookup error. The PVs name
   * hostname-label values, which differ from node names on several clouds: they are mapped to
   * the names of the nodes carrying those labels (as upstream does), so the PreFilter result
   * names nodes.
   */
  getEligibleNodes(boundClaims: readonly PersistentVolumeClaim[]): Set<string> | null {
    let hostnames: Set<string> | null = null;
    for (const pvc of boundClaims) {
      const pv = this.cache.getPV(pvc.spec?.volumeName ?? "");
      if (!pv) return null;
      const names = localPersistentVolumeNodeNames(pv);
      if (names.size === 0) continue;
      if (hostnames === null) hostnames = names;
      else {
        const next = new Set<string>();
        for (const n of hostnames) if (names.has(n)) next.add(n);
        hostnames = next;
      }
    }
    if (hostnames === null) return null;
    const eligible = new Set<string>();
    if (hostnames.size === 0) return eligible;
    for (const node of this.listers.nodes.list()) {
      const hostname = node.metadata?.labels?.[LabelHostname];
      if (hostname !== undefined && hostnames.has(hostname)) eligible.add(node.metadata?.name ?? "");
    }
    return eligible;
  }

  /** Looks up the PVs of the bound claims (see BoundVolumes). */
  boundVolumes(claims: PodVolumeClaims): BoundVolumes {
    const pvs: PersistentVolume[] = [];
    const affinity: (NodeSelectorMatcher | null)[] = [];
    let missing = false;
    for (const pvc of claims.boundClaims) {
      const pv = this.cache.getPV(pvc.spec?.volumeName ?? "");
      if (!pv) {
        missing = true;
        break;
      }
      pvs.push(pv);
      const required = pv.spec?.nodeAffinity?.required;
      affinity.push(required ? newNodeSelector(required) : null);
    }
    return { pvs, affinity, missing };
  }

  /** The volumes to bind or provision on the node, or the reasons the node does not fit. */
  findPodVolumes(
    _pod: Pod,
    claims: PodVolumeClaims,
    node: Node,
    bound: BoundVolumes = this.boundVolumes(claims),
  ): { podVolumes: PodVolumes; reasons: string[] } {
    const podVolumes: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
    let boundVolumesSatisfied = true;
    const affinity = bound.affinity;
    for (let i = 0; i < affinity.length; i++) {
      const sel = affinity[i];
      if (sel !== null && sel !== undefined && !matchLabelsOnly(sel, node)) {
        boundVolumesSatisfied = false;
        break;
      }
    }
    // The first claim whose PV fails the node stops the walk before a later missing PV.
    const boundPVsFound = !boundVolumesSatisfied || !bound.missing;
    if (claims.unboundClaimsDelayBinding.length === 0) {
      return { podVolumes, reasons: reasonsOf(boundVolumesSatisfied, true, boundPVsFound) };
    }
    return this.findUnboundPodVolumes(claims, node, podVolumes, boundVolumesSatisfied, boundPVsFound);
  }

  /** findPodVolumes for a pod with unbound delay-binding claims, after its bound claims' checks. */
  private findUnboundPodVolumes(
    claims: PodVolumeClaims,
    node: Node,
    podVolumes: PodVolumes,
    boundVolumesSatisfied: boolean,
    boundPVsFound: boolean,
  ): { podVolumes: PodVolumes; reasons: string[] } {
    let unboundVolumesSatisfied = true;
    const nodeName = node.metadata?.name ?? "";
    const toFind: PersistentVolumeClaim[] = [];
    const toProvision: PersistentVolumeClaim[] = [];
    for (const pvc of claims.unboundClaimsDelayBinding) {
      const selected = pvc.metadata?.annotations?.[AnnSelectedNode];
      if (selected !== undefined) {
        if (selected !== nodeName) {
          // Already being provisioned for another node.
          return { podVolumes, reasons: reasonsOf(boundVolumesSatisfied, false, boundPVsFound) };
        }
        toProvision.push(pvc);
      } else {
        toFind.push(pvc);
      }
    }
    if (toFind.length > 0) {
      // Smallest requests first, so they get the smallest fitting PVs.
      toFind.sort((a, b) => pvcRequest(a) - pvcRequest(b));
      const chosen = new Set<string>();
      for (const pvc of toFind) {
        const pv = findMatchingVolume(
          pvc,
          claims.unboundVolumesDelayBinding.get(getPersistentVolumeClaimClass(pvc)) ?? [],
          node,
          chosen,
          this.enableVolumeAttributesClass,
        );
        if (!pv) {
          toProvision.push(pvc);
          unboundVolumesSatisfied = false;
          continue;
        }
        chosen.add(pv.metadata?.name ?? "");
        podVolumes.staticBindings.push({ pv, pvc });
      }
    }
    if (toProvision.length > 0) {
      const r = this.checkVolumeProvisions(toProvision, node);
      unboundVolumesSatisfied = r.satisfied;
      if (r.satisfied) podVolumes.dynamicProvisions = r.provisions;
    }
    return { podVolumes, reasons: reasonsOf(boundVolumesSatisfied, unboundVolumesSatisfied, boundPVsFound) };
  }

  /**
   * Whether every claim can be provisioned on the node: a class with a provisioner whose
   * allowedTopologies match the node. Storage capacity (CSIStorageCapacity) is not modelled: a
   * provisioner is assumed to have room, as upstream does for drivers without capacity tracking.
   */
  private checkVolumeProvisions(
    claims: readonly PersistentVolumeClaim[],
    node: Node,
  ): { satisfied: boolean; provisions: DynamicProvision[] } {
    const provisions: DynamicProvision[] = [];
    for (const pvc of claims) {
      const className = getPersistentVolumeClaimClass(pvc);
      if (className === "") throw new BinderError(`no class for claim "${key(pvc)}"`);
      const sc = this.listers.storageClasses.get(className);
      if (!sc) throw new BinderError(`failed to find storage class "${className}"`);
      if (!sc.provisioner || sc.provisioner === NotSupportedProvisioner)
        return { satisfied: false, provisions: [] };
      if (!matchTopologySelectorTerms(sc, node.metadata?.labels ?? {}))
        return { satisfied: false, provisions: [] };
      provisions.push({ pvc });
    }
    return { satisfied: true, provisions };
  }

  /** Whether all the pod's claims are bound (in the assume cache). */
  arePodVolumesBound(pod: Pod): boolean {
    const ns = pod.metadata?.namespace ?? "";
    for (const v of pod.spec?.volumes ?? []) {
      let claimName: string;
      if (v.persistentVolumeClaim) claimName = v.persistentVolumeClaim.claimName;
      else if (v.ephemeral) claimName = `${pod.metadata?.name ?? ""}-${v.name}`;
      else continue;
      const pvc = this.cache.getPVC(ns, claimName);
      if (!pvc || !isPVCFullyBound(pvc)) return false;
    }
    return true;
  }

  /**
   * Reserve: records the chosen bindings and provisions in the assume cache (PVs get the claim
   * reference, claims to provision the selected-node annotation). Returns whether all were bound.
   */
  assumePodVolumes(pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
    if (this.arePodVolumesBound(pod)) return true;
    const bindings: BindingInfo[] = [];
    for (const b of podVolumes.staticBindings) {
      const pv = bindVolumeToClaim(b.pv, b.pvc);
      this.cache.assumePV(pv);
      bindings.push({ pv, pvc: b.pvc });
    }
    const provisions: DynamicProvision[] = [];
    for (const p of podVolumes.dynamicProvisions) {
      const pvc: PersistentVolumeClaim = {
        ...p.pvc,
        metadata: {
          ...p.pvc.metadata,
          annotations: { ...p.pvc.metadata?.annotations, [AnnSelectedNode]: nodeName },
        },
      };
      this.cache.assumePVC(pvc);
      provisions.push({ pvc });
    }
    podVolumes.staticBindings = bindings;
    podVolumes.dynamicProvisions = provisions;
    return false;
  }

  /** Unreserve: forgets the assumed objects (idempotent). */
  revertAssumedPodVolumes(podVolumes: PodVolumes): void {
    for (const b of podVolumes.staticBindings) this.cache.restorePV(b.pv.metadata?.name ?? "");
    for (const p of podVolumes.dynamicProvisions) this.cache.restorePVC(key(p.pvc));
  }
}

/** upstream volume.GetBindVolumeToClaim: the PV with claimRef set to the claim. */
function bindVolumeToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): PersistentVolume {
  if (isVolumeBoundToClaim(pv, pvc) && pv.spec?.claimRef?.uid) return pv;
  const annotations = { ...pv.metadata?.annotations };
  if (!pv.spec?.claimRef) annotations[AnnBoundByController] = "yes";
  return {
    ...pv,
    metadata: { ...pv.metadata, annotations },
    spec: {
      ...pv.spec,
      claimRef: {
        kind: "PersistentVolumeClaim",
        apiVersion: "v1",
        namespace: pvc.metadata?.namespace ?? "",
        name: pvc.metadata?.name ?? "",
        uid: pvc.metadata?.uid ?? "",
        resourceVersion: pvc.metadata?.resourceVersion ?? "",
      },
    },
  };
}

/** upstream util.GetLocalPersistentVolumeNodeNames. */
function localPersistentVolumeNodeNames(pv: PersistentVolume): Set<string> {
  const result = new Set<string>();
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    let nodes: Set<string> | null = null;
    for (const e of term.matchExpressions ?? []) {
      if (e.key !== LabelHostname || e.operator !== "In") continue;
      const values = new Set(e.values ?? []);
      if (nodes === null) nodes = values;
      else {
        const next = new Set<string>();
        for (const n of nodes) if (values.has(n)) next.add(n);
        nodes = next;
      }
    }
    for (const n of nodes ?? []) result.add(n);
  }
  return result;
}
