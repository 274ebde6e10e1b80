// Decisions a workload must show after its run, checked before its speed is reported: a run
// that skips work (a plugin silently not scoring, a constraint not enforced) must not look fast.
import {
  getRequiredNodeAffinity,
  labelSelectorAsSelector,
  type Node,
  type Pod,
  podRequests,
  resourceListToAmounts,
} from "@kubesched/api";
import { hostnameLabel, zoneLabel } from "./templates";
import type { Workload } from "./workloads";

/** One rule a workload's outcome must satisfy. */
export type VerifyRule =
  /** Every measured pod is bound (the run completed). */
  | { kind: "allMeasuredBound" }
  /** No node holds more than its allocatable cpu, memory and pods. */
  | { kind: "withinCapacity" }
  /** Every pod's required node affinity matches its node. */
  | { kind: "nodeAffinity" }
  /** Every pod's required pod anti-affinity holds on the final placement. */
  | { kind: "requiredAntiAffinity" }
  /** Every pod's required pod affinity holds on the final placement. */
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
  /** Measured pods on at most `max` pods-per-host of their kind (soft anti-affinity spreads them). */
  | { kind: "maxPerHost"; max: number }
  /** Measured pods use at most `factor` × the hosts they need (soft affinity packs them). */
  | { kind: "packed"; podsPerHost: number; factor: number }
  /** The churned pods (larger than any node) stay pending. */
  | { kind: "churnPending" }
  /** Preemptors are bound and lower-priority pods were evicted for them. */
  | { kind: "preempted" }
  /** The plugin ran at this extension point (the sampled plugin-duration metric counted it). */
  | { kind: "pluginRan"; plugin: string; point: "Filter" | "Score" };

export interface Verification {
  /** Every rule held (pluginRan rules are only checked with metrics on). */
  ok: boolean;
  /** One line per rule: what was checked and what was found. */
  checks: string[];
  failures: string[];
}

export interface VerifyInput {
  workload: Workload;
  nodes: readonly Node[];
  pods: readonly Pod[];
  /** The metrics exposition (null with --no-metrics). */
  metricsText: string | null;
  /** Pods deleted during the run (preemption victims). */
  deletedPods: number;
  churnPods: number;
}

const bound = (p: Pod) => !!p.spec?.nodeName;

export function verify(input: VerifyInput): Verification {
  const { workload, nodes, pods } = input;
  const measured = pods.filter((p) => p.metadata?.namespace === workload.measured.namespace);
  const nodeByName = new Map(nodes.map((n) => [n.metadata?.name ?? "", n] as const));
  const checks: string[] = [];
  const failures: string[] = [];
  const check = (ok: boolean, line: string) => {
    checks.push(`${ok ? "ok" : "FAILED"}: ${line}`);
    if (!ok) failures.push(line);
  };

  for (const rule of workload.verify) {
    switch (rule.kind) {
      case "allMeasuredBound": {
        const n = measured.filter(bound).length;
        check(n === workload.measured.count, `${n}/${workload.measured.count} measured pods bound`);
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
        for (const [name, u] of used) {
          const alloc = resourceListToAmounts(nodeByName.get(name)?.status?.allocatable);
          for (const [r, v] of u) if (v > (alloc.get(r) ?? 0)) over.push(`${name} ${r}`);
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
      case "requiredAntiAffinity":
      case "requiredAffinity": {
        const anti = rule.kind === "requiredAntiAffinity";
        let violations = 0;
        for (const p of measured.filter(bound)) {
          const terms = anti
            ? p.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution
            : p.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
          for (const t of terms ?? []) {
            const sel = labelSelectorAsSelector(t.labelSelector);
            const nss = new Set(t.namespaces?.length ? t.namespaces : [p.metadata?.namespace ?? ""]);
            const domain = nodeByName.get(p.spec!.nodeName!)?.metadata?.labels?.[t.topologyKey];
            const others = pods.filter(
              (o) =>
                o !== p &&
                bound(o) &&
                nss.has(o.metadata?.namespace ?? "") &&
                sel.matches(o.metadata?.labels ?? {}) &&
                nodeByName.get(o.spec!.nodeName!)?.metadata?.labels?.[t.topologyKey] === domain,
            );
            // Affinity may be satisfied by the pod itself (the first of its kind), as upstream.
            if (anti ? others.length > 0 : others.length === 0 && !sel.matches(p.metadata?.labels ?? {}))
              violations++;
          }
        }
        check(
          violations === 0,
          `required pod ${anti ? "anti-" : ""}affinity holds for every measured pod (${violations} violations)`,
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
      case "maxPerHost":
      case "packed": {
        const perHost = new Map<string, number>();
        for (const p of measured.filter(bound)) {
          const h = nodeByName.get(p.spec!.nodeName!)?.metadata?.labels?.[hostnameLabel] ?? "";
          perHost.set(h, (perHost.get(h) ?? 0) + 1);
        }
        if (rule.kind === "maxPerHost") {
          const max = Math.max(0, ...perHost.values());
          check(max <= rule.max, `at most ${rule.max} measured pods per host (max ${max})`);
        } else {
          const need = Math.ceil(measured.filter(bound).length / rule.podsPerHost);
          const limit = Math.ceil(need * rule.factor);
          check(
            perHost.size <= limit,
            `measured pods packed on ${perHost.size} hosts ≤ ${limit} (${rule.factor} × the ${need} they need)`,
          );
        }
        break;
      }
      case "churnPending": {
        const churnNs = workload.churn?.namespace ?? "";
        const churned = pods.filter((p) => p.metadata?.namespace === churnNs);
        const wrongly = churned.filter(bound).length;
        check(
          churned.length > 0 && wrongly === 0,
          `${churned.length} churned pods larger than any node stay pending (${wrongly} bound)`,
        );
        break;
      }
      case "preempted": {
        check(input.deletedPods > 0, `lower-priority pods were preempted (${input.deletedPods} evicted)`);
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
