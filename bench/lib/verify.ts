// Decisions a workload must show after its run, checked before its speed is reported: a run
// that skips work (a plugin silently not scoring, a constraint not enforced) must not look fast.
import {
  getRequiredNodeAffinity,
  type LabelSelector,
  labelSelectorAsSelector,
  type Namespace,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type PodAffinityTerm,
  podRequests,
  resourceListToAmounts,
} from "@kubesched/api";
import { hostnameLabel, namedNode, zoneLabel } from "./templates";
import {
  checkDRAAllocations,
  checkExtendedResourceClaims,
  type DRAState,
  draBackedResources,
} from "./verify-dra";
import { churnNamespace, measuredOp, type Workload } from "./workloads";

/** One rule a workload's outcome must satisfy. */
export type VerifyRule =
  /** Every measured pod was bound, and every one still there is (preemption may evict some). */
  | { kind: "allMeasuredBound" }
  /**
   * A steady-state op (batches created, scheduled, deleted): pods got scheduled in the measured
   * duration, and every pod created was bound (the last batch after the measured duration).
   */
  | { kind: "steadyStateBound" }
  /**
   * DRA: no device allocated twice (admin access aside; shared devices within their capacity),
   * every allocation matching its class and request selectors (the allocator's CEL), counts and
   * constraints; every bound pod's claims allocated, reserved for it, with devices of its node.
   */
  | { kind: "draAllocations" }
  /**
   * DRAExtendedResource: every bound pod's requests for extended resources a DeviceClass backs
   * (on a node without allocatable for them) served by its special claim
   * `<pod>-extended-resources-*`: allocated, reserved for it, devices of its node and of the
   * backing class, one per unit requested, as `status.extendedResourceClaimStatus` maps them.
   */
  | { kind: "draExtendedResources" }
  /** No node holds more than its allocatable cpu, memory and pods. */
  | { kind: "withinCapacity" }
  /** Every measured pod's required node affinity matches its node. */
  | { kind: "nodeAffinity" }
  /** Every measured pod is on the node daemonset-pod.yaml's matchFields names. */
  | { kind: "allOnNamedNode" }
  /**
   * Every bound pod's required pod anti-affinity holds on the final placement: no pod matching a
   * term (in the term's namespaces or those its namespaceSelector selects) shares its topology
   * domain. Checking every pod's terms covers both directions (the symmetric check).
   */
  | { kind: "requiredAntiAffinity" }
  /** Every bound pod's required pod affinity holds on the final placement. */
  | { kind: "requiredAffinity" }
  /** Measured pods' zone counts differ by at most `maxSkew` (hard, or what soft scoring gives). */
  | { kind: "zoneSkew"; maxSkew: number }
  /**
   * System-default spreading (soft zone and hostname constraints): the zone skew scoring allows.
   * PodTopologySpread scores a node cnt(zone)·ln(zones+2) + cnt(host)·ln(nodes+2): one more pod on
   * a host weighs as much as ln(nodes+2)/ln(zones+2) more pods in a zone, so zone counts may drift
   * that far apart (plus one in flight) before the zone term wins: ⌈ln(nodes+2)/ln(zones+2)⌉ + 1.
   */
  | { kind: "defaultSpreadingZoneSkew" }
  /**
   * Measured pods per host differ by at most `maxSkew` over the nodes without a NoSchedule taint
   * (nodeTaintsPolicy Honor leaves the tainted ones out of the domains), and none is on a tainted node.
   */
  | { kind: "hostSkewUntainted"; maxSkew: number }
  /**
   * At most `max` pods per host: measured pods, or with `selector` every bound pod whose labels it
   * matches (soft anti-affinity spreads them).
   */
  | { kind: "maxPerHost"; max: number; selector?: Record<string, string> }
  /** Measured pods use at most `factor` × the hosts they need (soft affinity packs them). */
  | { kind: "packed"; podsPerHost: number; factor: number }
  /** The churned pods (larger than any node) were created and never bound. */
  | { kind: "churnPending" }
  /** Recreate-mode churn created and deleted its objects (nodes, pods, Services), and nothing landed on churn nodes. */
  | { kind: "churnRecreated" }
  /** Preemptors are bound and lower-priority pods were evicted for them (Preempted events). */
  | { kind: "preempted" }
  /**
   * Opportunistic batching: at least `min` of the measured pods were bound to their batch hint
   * (upstream batch_attempts_total{result="hint_used"}); `min` 0 with `none`: no pod was.
   */
  | { kind: "batched"; min: number; none?: boolean }
  /** Pods with scheduling gates stay pending and are never popped for a scheduling attempt. */
  | { kind: "gatedStayPending" }
  /** The deletePods op deleted pods, no faster than its rate. */
  | { kind: "deletedAtRate" }
  /**
   * Pods deleted while they have finalizers stay (marked), and the scheduler's cache still counts
   * every bound one on its node: its resources stay held until the object is gone.
   */
  | { kind: "deletingPodsHeld" }
  /** The queue's in-flight list holds no events after the run (upstream PR #126962's leak). */
  | { kind: "noInFlightEvents" }
  /** Bound measured pods keep their template's volumes; each claim is bound to the PV that names it. */
  | { kind: "podsKeepVolumes" }
  /** No node attaches more volumes than the limit it declares (allocatable attachable-volumes-*, CSINode). */
  | { kind: "volumeLimits" }
  /** The plugin ran at this extension point (the sampled plugin-duration metric counted it). */
  | { kind: "pluginRan"; plugin: string; point: "PreFilter" | "Filter" | "Score" };

export interface Verification {
  /** Every rule held (pluginRan rules are only checked with metrics on). */
  ok: boolean;
  /** One line per rule: what was checked and what was found. */
  checks: string[];
  failures: string[];
}

/** What the run observed besides the final objects. */
export interface RunObservations {
  /** Bind events (spec.nodeName set) per namespace. */
  bindsByNamespace: ReadonlyMap<string, number>;
  /** Objects the churn op created and deleted, per kind. */
  churnCreated: Readonly<Record<string, number>>;
  churnDeleted: Readonly<Record<string, number>>;
  /** Pods with scheduling gates the queue handed out for an attempt. */
  gatedPodsPopped: number;
  /** The deletePods op: requests made, over how long, at what rate; null without one. */
  deletion: { namespace: string; requested: number; elapsedMs: number; perSecond: number } | null;
  /** Pod delete events (objects gone) during the whole run. */
  podDeleteEvents: number;
  /** Preempted events (victims) recorded by the cluster. */
  preemptionVictims: number;
  /** Attempts bound to their opportunistic-batching hint (onBatchAttempt "hint_used"). */
  batchHintsUsed: number;
  /** FailedScheduling events "skip schedule deleting pod". */
  deletingPodsSkipped: number;
  /** Bound pods per node in the scheduler's cache at the end; null when not collected. */
  cachePodsPerNode: ReadonlyMap<string, number> | null;
  /** Events left in the queue's in-flight list at the end; null when not collected. */
  inFlightEvents: number | null;
  /** A steady-state op: pods created and bound in the measured namespace, batches started; null without one. */
  steadyState?: {
    created: number;
    /** Bound in the measured duration. */
    bound: number;
    batches: number;
    batchSize: number;
    /** Binds in the namespace before the op. */
    initialBinds: number;
  } | null;
}

export interface VerifyInput {
  workload: Workload;
  nodes: readonly Node[];
  pods: readonly Pod[];
  namespaces: readonly Namespace[];
  persistentVolumes: readonly PersistentVolume[];
  persistentVolumeClaims: readonly PersistentVolumeClaim[];
  /** The metrics exposition (null with --no-metrics). */
  metricsText: string | null;
  /** DRA objects (claims, slices, classes); absent: none. */
  dra?: Omit<DRAState, "pods">;
  observed: RunObservations;
}

const bound = (p: Pod) => !!p.spec?.nodeName;

export function verify(input: VerifyInput): Verification {
  const { workload, nodes, pods, observed } = input;
  const m = measuredOp(workload);
  const measured = pods.filter((p) => p.metadata?.namespace === m.namespace);
  const nodeByName = new Map(nodes.map((n) => [n.metadata?.name ?? "", n] as const));
  const checks: string[] = [];
  const failures: string[] = [];
  const check = (ok: boolean, line: string) => {
    checks.push(`${ok ? "ok" : "FAILED"}: ${line}`);
    if (!ok) failures.push(line);
  };
  const hostOf = (p: Pod) => nodeByName.get(p.spec!.nodeName!)?.metadata?.labels?.[hostnameLabel] ?? "";

  for (const rule of workload.verify) {
    switch (rule.kind) {
      case "allMeasuredBound": {
        const binds = observed.bindsByNamespace.get(m.namespace) ?? 0;
        const pending = measured.filter((p) => !bound(p)).length;
        const evicted = binds - measured.filter(bound).length;
        check(
          binds >= m.op.count && pending === 0,
          `${binds}/${m.op.count} measured pods bound${evicted > 0 ? ` (${evicted} since evicted by preemption)` : ""}${pending ? `, ${pending} pending` : ""}`,
        );
        break;
      }
      case "steadyStateBound": {
        const st = observed.steadyState;
        const binds = (observed.bindsByNamespace.get(m.namespace) ?? 0) - (st?.initialBinds ?? 0);
        const pending = measured.filter((p) => !bound(p)).length;
        check(
          !!st && st.bound > 0 && binds >= st.created && pending === 0,
          st
            ? `${st.bound} of ${st.created} pods bound in the measured ${st.batches} batches of ${st.batchSize}; after it, the last batch too (${binds} binds, ${pending} pending)`
            : "no steady-state op ran",
        );
        break;
      }
      case "draAllocations": {
        const r = checkDRAAllocations({
          pods,
          resourceClaims: input.dra?.resourceClaims ?? [],
          resourceSlices: input.dra?.resourceSlices ?? [],
          deviceClasses: input.dra?.deviceClasses ?? [],
          deviceTaintRules: input.dra?.deviceTaintRules ?? [],
        });
        check(
          r.claims > 0 && r.problemCount === 0,
          `DRA: ${r.devices} devices of ${r.claims} allocated claims, each device once, each matching its class and request (or chosen subrequest) selectors, counts and constraints, counters within their counter sets, shares within capacity and requestPolicy; the claims of ${r.pods} bound pods allocated, reserved, on their nodes${r.problemCount ? ` (${r.problemCount} problems: ${r.problems.join("; ")})` : ""}`,
        );
        break;
      }
      case "draExtendedResources": {
        const r = checkExtendedResourceClaims(
          {
            pods,
            resourceClaims: input.dra?.resourceClaims ?? [],
            resourceSlices: input.dra?.resourceSlices ?? [],
            deviceClasses: input.dra?.deviceClasses ?? [],
          },
          nodes,
        );
        check(
          r.pods > 0 && r.problemCount === 0,
          `DRA extended resources: ${r.pods} bound pods served by their special claims (${r.devices} devices of the backing classes, one per unit requested, allocated, reserved, on their nodes; extendedResourceClaimStatus consistent)${r.problemCount ? ` (${r.problemCount} problems: ${r.problems.join("; ")})` : ""}`,
        );
        break;
      }
      case "withinCapacity": {
        const used = new Map<string, Map<string, number>>();
        for (const p of pods) {
          if (!bound(p)) continue;
          const u = used.get(p.spec!.nodeName!) ?? new Map<string, number>();
          for (const [r, v] of podRequests(p)) u.set(r, (u.get(r) ?? 0) + v);
          u.set("pods", (u.get("pods") ?? 0) + 1);
          used.set(p.spec!.nodeName!, u);
        }
        const over: string[] = [];
        // A resource a DeviceClass backs, on a node without allocatable for it, is DRA's (draExtendedResources).
        const backed = draBackedResources(input.dra?.deviceClasses ?? []);
        for (const [name, u] of used) {
          const alloc = resourceListToAmounts(nodeByName.get(name)?.status?.allocatable);
          for (const [r, v] of u) {
            const a = alloc.get(r) ?? 0;
            if (v > a && !(a === 0 && backed(r))) over.push(`${name} ${r}`);
          }
        }
        check(
          over.length === 0,
          `no node over its allocatable cpu, memory, pods${over.length ? ` (${over.slice(0, 3).join(", ")})` : ""}`,
        );
        break;
      }
      case "nodeAffinity": {
        const bad = measured.filter(bound).filter((p) => {
          const node = nodeByName.get(p.spec!.nodeName!);
          return !node || !getRequiredNodeAffinity(p).match(node);
        });
        check(
          bad.length === 0,
          `every measured pod on a node matching its required node affinity (${bad.length} not)`,
        );
        break;
      }
      case "allOnNamedNode": {
        const elsewhere = measured.filter((p) => bound(p) && p.spec!.nodeName !== namedNode).length;
        check(
          elsewhere === 0,
          `every measured pod on ${namedNode}, the node its affinity's matchFields names (${elsewhere} elsewhere, among ${nodes.length} nodes)`,
        );
        break;
      }
      case "requiredAntiAffinity":
      case "requiredAffinity": {
        const anti = rule.kind === "requiredAntiAffinity";
        const { pods: withTerms, violations } = podAffinityViolations(input, anti);
        check(
          withTerms > 0 && violations === 0,
          `required pod ${anti ? "anti-" : ""}affinity holds for all ${withTerms} bound pods with such terms (${violations} violations)`,
        );
        break;
      }
      case "zoneSkew":
      case "defaultSpreadingZoneSkew": {
        const counts = new Map<string, number>();
        for (const n of nodes) counts.set(n.metadata?.labels?.[zoneLabel] ?? "", 0);
        for (const p of measured.filter(bound)) {
          const z = nodeByName.get(p.spec!.nodeName!)?.metadata?.labels?.[zoneLabel] ?? "";
          counts.set(z, (counts.get(z) ?? 0) + 1);
        }
        const v = [...counts.values()];
        const skew = Math.max(...v) - Math.min(...v);
        const maxSkew =
          rule.kind === "zoneSkew"
            ? rule.maxSkew
            : Math.ceil(Math.log(nodes.length + 2) / Math.log(counts.size + 2)) + 1;
        check(
          skew <= maxSkew,
          `measured pods per zone ${JSON.stringify(Object.fromEntries(counts))}: skew ${skew} ≤ ${maxSkew}`,
        );
        break;
      }
      case "hostSkewUntainted": {
        const tainted = (n: Node) => (n.spec?.taints ?? []).some((t) => t.effect === "NoSchedule");
        const perHost = new Map<string, number>();
        for (const n of nodes) if (!tainted(n)) perHost.set(n.metadata?.name ?? "", 0);
        let onTainted = 0;
        for (const p of measured.filter(bound)) {
          const c = perHost.get(p.spec!.nodeName!);
          if (c === undefined) onTainted++;
          else perHost.set(p.spec!.nodeName!, c + 1);
        }
        const v = [...perHost.values()];
        const skew = v.length ? Math.max(...v) - Math.min(...v) : 0;
        check(
          onTainted === 0 && skew <= rule.maxSkew,
          `measured pods per untainted host between ${Math.min(...v)} and ${Math.max(...v)}: skew ${skew} ≤ ${rule.maxSkew} over ${v.length} hosts; ${onTainted} on the ${nodes.length - v.length} tainted nodes`,
        );
        break;
      }
      case "maxPerHost":
      case "packed": {
        const perHost = new Map<string, number>();
        const sel = rule.kind === "maxPerHost" && rule.selector ? rule.selector : null;
        const counted = sel
          ? pods.filter(
              (p) => bound(p) && Object.entries(sel).every(([k, v]) => p.metadata?.labels?.[k] === v),
            )
          : measured.filter(bound);
        for (const p of counted) perHost.set(hostOf(p), (perHost.get(hostOf(p)) ?? 0) + 1);
        if (rule.kind === "maxPerHost") {
          const max = Math.max(0, ...perHost.values());
          const what = sel ? `pods labelled ${JSON.stringify(sel)}` : "measured pods";
          check(max <= rule.max, `at most ${rule.max} ${what} per host (max ${max}, ${counted.length} pods)`);
        } else {
          const need = Math.ceil(counted.length / rule.podsPerHost);
          const limit = Math.ceil(need * rule.factor);
          check(
            perHost.size <= limit,
            `measured pods packed on ${perHost.size} hosts ≤ ${limit} (${rule.factor} × the ${need} they need)`,
          );
        }
        break;
      }
      case "churnPending": {
        const ns = churnNamespace(workload) ?? "";
        const created = observed.churnCreated.Pod ?? 0;
        const binds = observed.bindsByNamespace.get(ns) ?? 0;
        check(
          created > 0 && binds === 0,
          `${created} churned pods larger than any node stay pending (${binds} bound)`,
        );
        break;
      }
      case "churnRecreated": {
        const kinds = Object.keys(observed.churnCreated).sort();
        const created = kinds.map((k) => `${observed.churnCreated[k]} ${k}`).join(", ");
        const deleted = kinds.map((k) => `${observed.churnDeleted[k] ?? 0} ${k}`).join(", ");
        const churnNodes = new Set(
          nodes.filter((n) => n.metadata?.name?.startsWith("node-churn-")).map((n) => n.metadata?.name),
        );
        const onChurnNodes = pods.filter((p) => bound(p) && churnNodes.has(p.spec!.nodeName!)).length;
        const ok =
          kinds.length === 3 &&
          kinds.every((k) => (observed.churnCreated[k] ?? 0) > 0) &&
          kinds.every((k) => (observed.churnDeleted[k] ?? 0) >= (observed.churnCreated[k] ?? 0) - 1) &&
          onChurnNodes === 0;
        check(
          ok,
          `churn created ${created || "nothing"} and deleted ${deleted || "nothing"}; ${onChurnNodes} pods on churn nodes`,
        );
        break;
      }
      case "batched": {
        const share = measured.length === 0 ? 0 : observed.batchHintsUsed / measured.length;
        check(
          rule.none ? observed.batchHintsUsed === 0 : share >= rule.min,
          rule.none
            ? `no pod took a batch hint (${observed.batchHintsUsed} did)`
            : `at least ${Math.round(rule.min * 100)} % of the measured pods took their batch hint (${observed.batchHintsUsed} of ${measured.length})`,
        );
        break;
      }
      case "preempted": {
        check(
          observed.preemptionVictims > 0,
          `lower-priority pods were preempted (${observed.preemptionVictims} victims)`,
        );
        break;
      }
      case "gatedStayPending": {
        const gated = pods.filter((p) => (p.spec?.schedulingGates?.length ?? 0) > 0);
        const boundGated = gated.filter(bound).length;
        check(
          gated.length > 0 && boundGated === 0 && observed.gatedPodsPopped === 0,
          `${gated.length} gated pods pending (${boundGated} bound), ${observed.gatedPodsPopped} popped for an attempt`,
        );
        break;
      }
      case "deletedAtRate": {
        const d = observed.deletion;
        if (!d) {
          check(false, "no deletePods op ran");
          break;
        }
        const seconds = d.elapsedMs / 1000;
        const most = Math.floor(seconds * d.perSecond) + 1;
        const least = seconds >= 2 / d.perSecond ? 1 : 0;
        const left = pods.filter(
          (p) => p.metadata?.namespace === d.namespace && p.metadata?.deletionTimestamp,
        ).length;
        check(
          d.requested >= least && d.requested <= most,
          `${d.requested} pods of ${d.namespace} deleted in ${seconds.toFixed(1)} s (at most ${d.perSecond}/s); ${left} of them still there, held by finalizers`,
        );
        break;
      }
      case "deletingPodsHeld": {
        const d = observed.deletion;
        const marked = pods.filter(
          (p) => p.metadata?.namespace === d?.namespace && p.metadata?.deletionTimestamp,
        );
        const markedBound = marked.filter(bound).length;
        const perNode = new Map<string, number>();
        for (const p of pods)
          if (bound(p)) perNode.set(p.spec!.nodeName!, (perNode.get(p.spec!.nodeName!) ?? 0) + 1);
        let differ = 0;
        const cache = observed.cachePodsPerNode;
        if (cache)
          for (const n of nodes)
            if ((cache.get(n.metadata?.name ?? "") ?? 0) !== (perNode.get(n.metadata?.name ?? "") ?? 0))
              differ++;
        check(
          d !== null && marked.length === d.requested && cache !== null && differ === 0,
          `${marked.length}/${d?.requested ?? 0} pods deleted with a finalizer still there, marked (${markedBound} bound); the scheduler's cache counts every bound pod on its node, these included (${differ} nodes differ); ${observed.deletingPodsSkipped} pending ones skipped by the scheduler`,
        );
        break;
      }
      case "noInFlightEvents": {
        const n = observed.inFlightEvents;
        check(
          n === 0,
          `the queue's in-flight list is empty after the run (${n ?? "not collected"} events left)`,
        );
        break;
      }
      case "podsKeepVolumes": {
        const template = measured[0]?.spec?.volumes ?? [];
        const pvcByKey = new Map(
          input.persistentVolumeClaims.map(
            (c) => [`${c.metadata?.namespace}/${c.metadata?.name}`, c] as const,
          ),
        );
        const pvByName = new Map(input.persistentVolumes.map((v) => [v.metadata?.name ?? "", v] as const));
        let bad = 0;
        let claims = 0;
        for (const p of measured.filter(bound)) {
          const vols = p.spec?.volumes ?? [];
          if (vols.length !== template.length || vols.length === 0) bad++;
          for (const v of vols) {
            const claim = v.persistentVolumeClaim?.claimName;
            if (!claim) continue;
            claims++;
            const pvc = pvcByKey.get(`${p.metadata?.namespace}/${claim}`);
            const pv = pvByName.get(pvc?.spec?.volumeName ?? "");
            const ref = pv?.spec?.claimRef;
            if (
              pvc?.status?.phase !== "Bound" ||
              ref?.name !== claim ||
              ref?.namespace !== p.metadata?.namespace
            )
              bad++;
          }
        }
        const kinds = [...new Set(template.map((v) => Object.keys(v).find((k) => k !== "name") ?? ""))].join(
          ", ",
        );
        check(
          bad === 0 && template.length > 0,
          `bound measured pods keep their ${kinds} volumes${claims ? `; ${claims} claims bound to the PVs that name them` : ""} (${bad} wrong)`,
        );
        break;
      }
      case "volumeLimits": {
        const { worst, limited, over } = volumeLimitUse(input);
        check(
          over === 0,
          limited === 0
            ? `no node declares a volume limit (upstream's base node has none, no CSINode); at most ${worst} volumes on a node`
            : `${over} of ${limited} nodes with a volume limit over it; at most ${worst} volumes on a node`,
        );
        break;
      }
      case "pluginRan": {
        if (input.metricsText === null) {
          checks.push(`skipped (metrics off): ${rule.plugin} ${rule.point} ran`);
          break;
        }
        const n = pluginExecutions(input.metricsText, rule.plugin, rule.point);
        check(n > 0, `${rule.plugin} ran at ${rule.point} (${n} sampled executions)`);
        break;
      }
    }
  }
  return { ok: failures.length === 0, checks, failures };
}

/** The namespaces a term covers: its list plus those its selector matches; the pod's own when neither is set. */
function termNamespaces(term: PodAffinityTerm, own: string, namespaces: readonly Namespace[]): Set<string> {
  const out = new Set(term.namespaces ?? []);
  if (term.namespaceSelector) {
    const sel = labelSelectorAsSelector(term.namespaceSelector as LabelSelector);
    for (const ns of namespaces) if (sel.matches(ns.metadata?.labels ?? {})) out.add(ns.metadata?.name ?? "");
  } else if (out.size === 0) out.add(own);
  return out;
}

/** Required (anti-)affinity terms of every bound pod checked against the final placement. */
function podAffinityViolations(input: VerifyInput, anti: boolean): { pods: number; violations: number } {
  const nodeLabels = new Map(
    input.nodes.map((n) => [n.metadata?.name ?? "", n.metadata?.labels ?? {}] as const),
  );
  const boundPods = input.pods.filter(bound);
  // Bound pods by topology key and domain, built once per key.
  const byDomain = new Map<string, Map<string, Pod[]>>();
  const domainsOf = (key: string) => {
    let m = byDomain.get(key);
    if (!m) {
      m = new Map();
      for (const p of boundPods) {
        const d = nodeLabels.get(p.spec!.nodeName!)?.[key];
        if (d === undefined) continue;
        const l = m.get(d);
        if (l) l.push(p);
        else m.set(d, [p]);
      }
      byDomain.set(key, m);
    }
    return m;
  };
  let withTerms = 0;
  let violations = 0;
  for (const p of boundPods) {
    const terms = anti
      ? p.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      : p.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!terms?.length) continue;
    withTerms++;
    for (const t of terms) {
      const sel = labelSelectorAsSelector(t.labelSelector);
      const nss = termNamespaces(t, p.metadata?.namespace ?? "", input.namespaces);
      const domain = nodeLabels.get(p.spec!.nodeName!)?.[t.topologyKey];
      const peers = domain === undefined ? [] : (domainsOf(t.topologyKey).get(domain) ?? []);
      const matches = (o: Pod) =>
        o !== p && nss.has(o.metadata?.namespace ?? "") && sel.matches(o.metadata?.labels ?? {});
      if (anti) {
        if (peers.some(matches)) violations++;
      } else if (!peers.some(matches) && !sel.matches(p.metadata?.labels ?? {})) {
        // Affinity may be satisfied by the pod itself (the first of its kind), as upstream.
        violations++;
      }
    }
  }
  return { pods: withTerms, violations };
}

/** Unique volumes per node against the limit the node declares (allocatable attachable-volumes-*). */
function volumeLimitUse(input: VerifyInput): { worst: number; limited: number; over: number } {
  const volumesOn = new Map<string, Set<string>>();
  const pvcByKey = new Map(
    input.persistentVolumeClaims.map((c) => [`${c.metadata?.namespace}/${c.metadata?.name}`, c] as const),
  );
  for (const p of input.pods) {
    if (!bound(p)) continue;
    for (const v of p.spec?.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (!claim) continue;
      const pv = pvcByKey.get(`${p.metadata?.namespace}/${claim}`)?.spec?.volumeName ?? claim;
      const s = volumesOn.get(p.spec!.nodeName!) ?? new Set<string>();
      s.add(pv);
      volumesOn.set(p.spec!.nodeName!, s);
    }
  }
  let worst = 0;
  let limited = 0;
  let over = 0;
  for (const n of input.nodes) {
    const used = volumesOn.get(n.metadata?.name ?? "")?.size ?? 0;
    worst = Math.max(worst, used);
    const limits = Object.entries(n.status?.allocatable ?? {})
      .filter(([k]) => k.startsWith("attachable-volumes-"))
      .map(([, v]) => Number(v));
    if (limits.length === 0) continue;
    limited++;
    if (used > Math.min(...limits)) over++;
  }
  return { worst, limited, over };
}

/** Sampled executions of a plugin at a point, from scheduler_plugin_execution_duration_seconds. */
function pluginExecutions(text: string, plugin: string, point: string): number {
  let n = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith("scheduler_plugin_execution_duration_seconds_count{")) continue;
    if (!line.includes(`plugin="${plugin}"`) || !line.includes(`extension_point="${point}"`)) continue;
    n += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return n;
}
