// A node pool's ResourceSlices (`kubesched plan` and `kubesched sweep`): the slice templates of a
// pool, published for each node the pool adds as a DRA driver's kubelet plugin publishes them for
// its node. upstream (kubernetes/kubernetes, staging/src/k8s.io/dynamic-resource-allocation):
// kubeletplugin's PublishResources gives a node-local driver one pool named after the node, and
// resourceslice/resourceslicecontroller.go names the slices `<node>-<driver>-` plus a random suffix.
// Here the suffix is the template's position in the pool's list, so that runs repeat.
//
// The naming rule, per template slice and added node N:
//   - `spec.nodeName` is N;
//   - `spec.pool.name` is N when the template leaves it out or sets it to the template's own
//     `spec.nodeName` (a slice copied from a running node), else `N-<pool.name>` (one node, several
//     pools): pool names stay unique per driver across the cluster, as the allocator needs them;
//   - `spec.pool.generation` is the template's (0 when unset), `spec.pool.resourceSliceCount` the
//     number of the pool's templates of the same driver and pool name;
//   - `metadata.name` is `N-<driver>-<position>`.
// The fields at these paths are the same in resource.k8s.io/v1, v1beta2 and v1beta1, so the rule
// applies to a template of any served version.

type Json = Record<string, unknown>;

const object = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};

/** The template's labels and annotations: its name, uid and the like are the added slice's own. */
function labelsOf(metadata: unknown): Json {
  const { labels, annotations } = object(metadata);
  return {
    ...(labels !== undefined ? { labels } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
  };
}

/** The pool name a template's slice has on node `node`. */
function poolNameOn(template: Json, node: string): string {
  const spec = object(template.spec);
  const name = object(spec.pool).name;
  return typeof name !== "string" || name === "" || name === spec.nodeName ? node : `${node}-${name}`;
}

/** The templates' slices for node `node` (new objects; the templates are not modified). */
export function poolResourceSlices<T extends object>(templates: readonly T[], node: string): T[] {
  const keys = templates.map(
    (t) => `${String(object(object(t).spec).driver)}\u0000${poolNameOn(object(t), node)}`,
  );
  return templates.map((t, i) => {
    const template = structuredClone(t) as Json;
    const spec = object(template.spec);
    const pool = object(spec.pool);
    const driver = String(spec.driver ?? "");
    return {
      ...template,
      metadata: { ...labelsOf(template.metadata), name: `${node}-${driver}-${i}` },
      spec: {
        ...spec,
        nodeName: node,
        pool: {
          ...pool,
          name: poolNameOn(object(t), node),
          generation: typeof pool.generation === "number" ? pool.generation : 0,
          resourceSliceCount: keys.filter((k) => k === keys[i]).length,
        },
      },
    } as T;
  });
}

/**
 * The slices a node pool (a plan's PlanPool: its `resourceSlices` templates) publishes for its
 * added node `node`: what the changes add with the node and what the probes of a pool's node see.
 */
export function resourceSlicesOn<T extends object>(
  pool: { readonly resourceSlices?: readonly T[] | undefined },
  node: string,
): T[] {
  return poolResourceSlices(pool.resourceSlices ?? [], node);
}
