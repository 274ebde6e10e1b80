// The goal of a `kubesched plan` search and what bounds it: which pending pods each pool can host
// (each pod alone on one node of the pool: one small simulate per pool and distinct pod shape),
// the pods no pool can host (left out of the goal, named), and the lower bounds (plan-bounds.ts)
// the exact search rules vectors out with. Also the pool helpers plan.ts builds its changes from.
import { type Node, type Pod, podKey, resourceListToAmounts } from "@kubesched/api";
import { defaultFeatures } from "@kubesched/framework";
import { failSummaryOf } from "./capacity";
import type { Counterfactuals } from "./counterfactual";
import type { SourcedObject } from "./load";
import type { PlanExcludedPod, PlanOptions, PlanPool } from "./plan";
import { type PlanBounds, planBounds, podAmounts } from "./plan-bounds";
import { devicesFit, type PlanDeviceBound, planDeviceBound } from "./plan-device-bound";
import { resourceSlicesOn } from "./pool-resource-slices";
import { simulate } from "./simulate";

/** The interpod-affinity reasons: they depend on where other pods go, not on the pool's node alone. */
const placementReasons = new Set([
  "node(s) didn't match pod affinity rules",
  "node(s) didn't match pod anti-affinity rules",
  "node(s) didn't satisfy existing pods anti-affinity rules",
]);

/** The pool's DaemonSet pods bound to its added node `name`. */
export function daemonSetPodsOn(pool: PlanPool, name: string): Pod[] {
  return pool.daemonSetPods.map((p) => {
    const pod = structuredClone(p);
    const owner = pod.metadata?.ownerReferences?.find((r) => r.kind === "DaemonSet")?.name ?? "daemonset";
    pod.metadata = { ...pod.metadata, name: `${owner}-${name}` };
    for (const t of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [])
      for (const f of t.matchFields ?? []) if (f.key === "metadata.name") f.values = [name];
    pod.spec = { ...(pod.spec ?? { containers: [] }), nodeName: name };
    return pod;
  });
}

/** The pool's template with the name added nodes derive theirs from. */
export function templateOf(pool: PlanPool): Node {
  return { ...pool.node, metadata: { ...pool.node.metadata, name: pool.name } };
}

/** What one node of the pool offers the pending pods: allocatable less its DaemonSet pods. */
export function poolCapacity(pool: PlanPool): Map<string, number> {
  const free = resourceListToAmounts(pool.node.status?.allocatable);
  for (const p of pool.daemonSetPods) for (const [r, v] of podAmounts(p)) free.set(r, (free.get(r) ?? 0) - v);
  return free;
}

function isPending(o: SourcedObject): boolean {
  return o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName;
}

/**
 * Whether each pool can ever host the pod: a simulate of the pod alone on one node of the pool
 * with its DaemonSet pods (and the snapshot's other kinds: classes, volumes, namespaces). Reasons
 * that depend on other pods' placement (interpod affinity) do not count against the pool.
 */
async function hostability(
  opts: PlanOptions,
  pods: readonly Pod[],
): Promise<Map<string, { pool: string; reason: string }[]>> {
  const rest = opts.objects.filter((o) => o.kind !== "Pod" && o.kind !== "Node");
  const byShape = new Map<string, Pod[]>();
  for (const p of pods) {
    const shape = JSON.stringify([p.metadata?.namespace, p.metadata?.labels, p.spec]);
    byShape.set(shape, [...(byShape.get(shape) ?? []), p]);
  }
  const out = new Map<string, { pool: string; reason: string }[]>();
  for (const group of byShape.values()) {
    const pod = group[0] as Pod;
    const rejections: { pool: string; reason: string }[] = [];
    for (const pool of opts.pools) {
      const node = `${pool.name}-new-1`;
      const objects: SourcedObject[] = [
        ...rest,
        { kind: "Node", obj: shapedNode(pool, node), origin: `pool ${pool.name}` },
        ...daemonSetPodsOn(pool, node).map((obj): SourcedObject => ({ kind: "Pod", obj, origin: "" })),
        ...resourceSlicesOn(pool, node).map(
          (obj): SourcedObject => ({ kind: "ResourceSlice", obj, origin: `pool ${pool.name}` }),
        ),
        { kind: "Pod", obj: pod, origin: "" },
      ];
      const r = await simulate({ ...opts, objects });
      const res = r.pods.find((x) => `${x.namespace}/${x.name}` === podKey(pod));
      if (res === undefined || res.outcome === "Scheduled" || res.outcome === "Skipped") continue;
      const reasons = failSummaryOf(res.message ?? "").map((s) => s.reason);
      if (reasons.length > 0 && reasons.every((x) => placementReasons.has(x))) continue;
      rejections.push({ pool: pool.name, reason: reasons.join(", ") || (res.message ?? res.outcome) });
    }
    for (const p of group) out.set(podKey(p), rejections);
  }
  return out;
}

export function shapedNode(pool: PlanPool, name: string): Node {
  const t = templateOf(pool);
  const labels = { ...t.metadata?.labels, "kubernetes.io/hostname": name };
  return { ...t, apiVersion: "v1", kind: "Node", metadata: { name, labels } };
}

/** The goal of a plan's search and its bounds. */
export interface PlanGoal {
  /** Every pending pod of the snapshot. */
  pending: Pod[];
  excluded: PlanExcludedPod[];
  /** The pending pods that must schedule. */
  required: Pod[];
  /** Whether the pool can host the pod alone (`namespace/name`, pool name). */
  hostedBy: (pod: string, pool: string) => boolean;
  /** Per pool, one node's allocatable less its DaemonSet pods. */
  perNode: Map<string, number>[];
  bounds: PlanBounds;
  /** The devices the goal pods ask for per DeviceClass, and what each pool's node publishes. */
  devices: PlanDeviceBound;
}

/** The goal and bounds of a plan over `cf` (opened on `opts`). */
export async function planGoal(opts: PlanOptions, cf: Counterfactuals): Promise<PlanGoal> {
  const { pools } = opts;
  const pending = opts.objects.filter(isPending).map((o) => o.obj as Pod);
  // Each pending pod's pools (the bounds need them for every goal pod); those no pool can host
  // and the snapshot leaves pending are left out of the goal, named.
  const hostable = await hostability(opts, pending);
  const excluded: PlanExcludedPod[] = [];
  // Pods no profile schedules (another schedulerName) or that wait for their gates: nodes do not help.
  for (const p of pending) {
    const base = cf.baselineOf(podKey(p));
    if (base?.outcome === "Skipped" || base?.outcome === "Gated") {
      hostable.delete(podKey(p));
      excluded.push({ pod: podKey(p), reasons: [{ pool: "*", reason: base.message ?? base.outcome }] });
    }
  }
  for (const [pod, reasons] of hostable)
    if (reasons.length === pools.length && cf.baselineOf(pod)?.outcome !== "Scheduled")
      excluded.push({ pod, reasons });
  const excludedKeys = new Set(excluded.map((e) => e.pod));
  const required = pending.filter((p) => !excludedKeys.has(podKey(p)));
  const hostedBy = (pod: string, pool: string) => !hostable.get(pod)?.some((r) => r.pool === pool);

  const perNode = pools.map(poolCapacity);
  const capacityBounds = planBounds({
    objects: opts.objects,
    baseline: cf.baseline,
    pools: pools.map((pool, i) => ({
      node: shapedNode(pool, pool.name),
      perNode: perNode[i] as Map<string, number>,
      daemonSetPods: pool.daemonSetPods,
      maxCount: pool.maxCount,
    })),
    goal: required,
    hosts: new Map(
      required.map((p) => [
        podKey(p),
        new Set(pools.flatMap((pool, i) => (hostedBy(podKey(p), pool.name) ? [i] : []))),
      ]),
    ),
  });

  // Devices per DeviceClass, for pods with claims (plan-device-bound.ts): one more necessary condition.
  const devices = planDeviceBound(opts.objects, required, pools, { ...defaultFeatures, ...opts.features });
  const bounds: PlanBounds = {
    ...capacityBounds,
    check: (v) =>
      capacityBounds.check(v) ??
      (devicesFit(devices, v)
        ? null
        : "devices: the claims ask for more devices of a class than the nodes publish"),
  };

  return { pending, excluded, required, hostedBy, perNode, bounds, devices };
}
