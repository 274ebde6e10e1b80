// The node-pools file of `kubesched plan` (kubesched.io/v1alpha1 NodePools), declared with TypeBox
// like the sweep's matrix and sharing its pool fields (name, Node template: sweep-matrix.ts):
//
//   apiVersion: kubesched.io/v1alpha1
//   kind: NodePools
//   pools:
//     - name: general                  # added nodes are general-new-1, general-new-2, ...
//       maxCount: 10                   # at most this many added
//       minCount: 0                    # at least this many (default 0)
//       price: 0.19                    # per node (--optimize cost, the price expander)
//       priority: 10                   # the priority expander: higher first
//       node: {metadata: {labels: {...}}, spec: {taints: [...]}, status: {allocatable: {...}}}
//
// The pools' nodes load with the snapshot (one node per pool, checked like the snapshot's own
// and given the pods the snapshot's DaemonSets run on it), so a template the loader refuses, or
// one its DaemonSet pods overflow, is an error before the search starts.
import { readFileSync } from "node:fs";
import {
  convertResourceObjectToV1,
  type Node,
  type Pod,
  podKey,
  type ResourceSlice,
  tolerationsTolerateTaint,
} from "@kubesched/api";
import {
  daemonSetPodsOf,
  type LoadResult,
  type PlanPool,
  planDeviceFindings,
  poolDaemonSetConflicts,
} from "@kubesched/cluster";
import {
  defineV1Object,
  type Features,
  type FieldError,
  fieldErrors,
  type StaticDecode,
  Type,
} from "@kubesched/framework";
import { fileErrorReason } from "./inputs";
import {
  decodeV1alpha1File,
  poolInput,
  poolNameField,
  poolNodeErrors,
  poolNodeField,
  poolResourceSliceErrors,
  poolResourceSlicesField,
  sweepApiVersion,
} from "./sweep-matrix";

export const nodePoolsKind = "NodePools";

const pool = Type.Object({
  name: poolNameField("The pool's name; the nodes it adds are NAME-new-1 … NAME-new-N."),
  node: poolNodeField(""),
  resourceSlices: poolResourceSlicesField(),
  maxCount: Type.Integer({ minimum: 1, description: "At most this many nodes of the pool are added." }),
  minCount: Type.Integer({
    minimum: 0,
    default: 0,
    description: "At least this many nodes of the pool are added.",
  }),
  price: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        "The price of one node (any unit); --optimize cost and the price expander need it on every pool.",
    }),
  ),
  priority: Type.Optional(Type.Integer({ description: "The priority expander's order: higher first." })),
});

/** The declaration of NodePools. */
export const nodePools = defineV1Object(
  Type.Object({
    apiVersion: Type.Literal(sweepApiVersion),
    kind: Type.Literal(nodePoolsKind),
    pools: Type.Array(pool, { minItems: 1, description: "The node pools plan may add nodes from." }),
  }),
);

export type NodePools = StaticDecode<typeof nodePools.schema>;

/** A pools file that cannot be used: every problem, `FILE: PATH: WHAT`. */
export class NodePoolsError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(errors.join("\n"));
    this.name = "NodePoolsError";
  }
}

/** Parses and checks a pools file's text (strict: unknown fields are errors). */
export function parseNodePools(text: string, file: string): NodePools {
  const decoded = decodeV1alpha1File(text, file, nodePoolsKind, nodePools, (pools) => {
    const errors: FieldError[] = [];
    pools.pools.forEach((p, i) => {
      if (pools.pools.findIndex((q) => q.name === p.name) !== i)
        errors.push(fieldErrors.duplicate(`pools[${i}].name`, p.name));
      if (p.minCount > p.maxCount)
        errors.push(fieldErrors.invalid(`pools[${i}].minCount`, p.minCount, "must be at most maxCount"));
      errors.push(...poolNodeErrors(`pools[${i}].node`, p.node));
      errors.push(...poolResourceSliceErrors(`pools[${i}].resourceSlices`, p.node, p.resourceSlices));
    });
    return errors;
  });
  if ("errors" in decoded) throw new NodePoolsError(decoded.errors);
  return decoded.value;
}

/** Reads and checks the pools file at `path`; messages name it `file`. */
export function readNodePools(path: string, file: string): NodePools {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new NodePoolsError([`${file}: ${fileErrorReason(e)}`]);
  }
  return parseNodePools(text, file);
}

/** One node per pool, as texts the loader reads after the snapshot (LoadOptions.additionalInputs). */
export function poolProbeInputs(file: string, pools: NodePools): { name: string; text: string }[] {
  return pools.pools.flatMap((p, i) => poolInput(file, i, { ...p, count: 1 }));
}

/**
 * The plan's pools from a load that read `poolProbeInputs` after the snapshot, and the snapshot's
 * objects without those nodes and their DaemonSet pods; or the errors of pools that contradict
 * themselves (DaemonSet pods above the allocatable; nodes required while no pending pod tolerates
 * their taints).
 */
export function planPools(
  loaded: LoadResult,
  file: string,
  pools: NodePools,
): { pools: PlanPool[]; objects: LoadResult["objects"] } | { errors: string[] } {
  const errors: string[] = [];
  const probes = new Set(pools.pools.map((p) => `${p.name}-1`));
  const daemonSets = pools.pools.map((p) => daemonSetPodsOf(loaded.objects, `${p.name}-1`));
  const probePods = new Set(daemonSets.flat().map(podKey));
  // The probe nodes' slices: read from the pools' inputs (checked by the loader), not the snapshot's.
  const probeSlice = (o: LoadResult["objects"][number]) =>
    o.kind === "ResourceSlice" &&
    o.origin.startsWith(`${file}: pools[`) &&
    probes.has((o.obj as ResourceSlice).spec?.nodeName ?? "");
  const pending = loaded.objects.filter(
    (o) => o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName && !probePods.has(podKey(o.obj as Pod)),
  );
  // Where the loader queued each probe node's DaemonSet pod: before the next pending pod that stays.
  const queuedBefore = (pod: Pod): string | null => {
    const at = loaded.objects.findIndex((o) => o.kind === "Pod" && podKey(o.obj as Pod) === podKey(pod));
    const next = loaded.objects
      .slice(at + 1)
      .find(
        (o) => o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName && !probePods.has(podKey(o.obj as Pod)),
      );
    return next ? podKey(next.obj as Pod) : null;
  };
  const out = pools.pools.map((p, i): PlanPool => {
    const name = `${p.name}-1`;
    const node = loaded.objects.find((o) => o.kind === "Node" && o.obj.metadata?.name === name)?.obj as Node;
    const daemonSetPods = daemonSets[i] ?? [];
    const at = `${file}: pools[${i}] (pool ${p.name})`;
    for (const c of poolDaemonSetConflicts({ node, daemonSetPods })) errors.push(`${at}: ${c}`);
    const blocking = (node.spec?.taints ?? []).filter(
      (t) => t.effect === "NoSchedule" || t.effect === "NoExecute",
    );
    if (
      p.minCount > 0 &&
      blocking.length > 0 &&
      !pending.some((o) =>
        blocking.every((t) => tolerationsTolerateTaint((o.obj as Pod).spec?.tolerations, t)),
      )
    )
      errors.push(
        `${at}: minCount ${p.minCount} requires its nodes, but no pending pod tolerates its taints ${blocking.map((t) => `${t.key}${t.value ? `=${t.value}` : ""}:${t.effect}`).join(", ")}`,
      );
    return {
      name: p.name,
      node,
      daemonSetPods,
      ...(p.resourceSlices !== undefined ? { resourceSlices: p.resourceSlices.map(sliceTemplateV1) } : {}),
      daemonSetPodsBefore: daemonSetPods.map(queuedBefore),
      minCount: p.minCount,
      maxCount: p.maxCount,
      ...(p.price !== undefined ? { price: p.price } : {}),
      ...(p.priority !== undefined ? { priority: p.priority } : {}),
    };
  });
  if (errors.length > 0) return { errors };
  const objects = loaded.objects.filter(
    (o) =>
      !(o.kind === "Node" && probes.has(o.obj.metadata?.name ?? "")) &&
      !(o.kind === "Pod" && probePods.has(podKey(o.obj as Pod))) &&
      !probeSlice(o),
  );
  return { pools: out, objects };
}

/** A pool's slice template in resource.k8s.io/v1 (the loader read its probe copy: it converts). */
function sliceTemplateV1(template: Record<string, unknown>): ResourceSlice {
  const converted = convertResourceObjectToV1(template);
  if ("error" in converted)
    throw new Error(`a pool's ResourceSlice the loader read does not convert: ${converted.error}`);
  return converted.obj as unknown as ResourceSlice;
}

/** How many pods a warning names before "and N more". */
const namedPods = 5;

/**
 * Warnings about devices no addition can change, before the search (planDeviceFindings): a pool's
 * slice whose devices no DeviceClass matches, a class the pods ask for that neither the snapshot
 * nor any pool offers. The search still runs; such pods are named with the allocator's reason.
 */
export function poolDeviceWarnings(
  file: string,
  planned: { pools: readonly PlanPool[]; objects: LoadResult["objects"] },
  features: Features,
): string[] {
  const pending = planned.objects
    .filter((o) => o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName)
    .map((o) => o.obj as Pod);
  const { unmatchedSlices, unoffered } = planDeviceFindings(
    planned.objects,
    pending,
    planned.pools,
    features,
  );
  return [
    ...unmatchedSlices.map(
      (u) =>
        `${file}: pools[${u.pool}].resourceSlices[${u.slice}] (pool ${planned.pools[u.pool]?.name}): no DeviceClass of the snapshot matches its ${u.devices} device(s) (driver ${u.driver}): no claim can be allocated from them`,
    ),
    ...unoffered.map((u) => {
      const more = u.pods.length > namedPods ? ` and ${u.pods.length - namedPods} more` : "";
      return `DeviceClass ${u.deviceClass}: no node of the snapshot has a free device of it and no pool's slices publish one: ${u.pods.slice(0, namedPods).join(", ")}${more} cannot schedule with any addition`;
    }),
  ];
}
