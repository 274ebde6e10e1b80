// Custom resources a plugin reads (scheduler-plugins' PodGroup, ElasticQuota, ...). A plugin
// declares them in its descriptor (`customResources`); the cluster source then holds their
// objects — the in-memory cluster loads them from snapshots, the live source runs an informer per
// declared resource — and the plugin reads them through `handle.listers().custom(resource)`.
// upstream plugins get the same through a controller-runtime cached client per CRD.
import type { ObjectMeta } from "@kubesched/api";
import type { FieldError } from "./field-errors";

/**
 * The part of every custom object the cluster looks at.
 * @public
 */
export interface CustomObject {
  /** `group/version`, checked against the declaring {@link CustomResource} when loaded. */
  apiVersion?: string;
  /** The kind, checked against the declaring {@link CustomResource} when loaded. */
  kind?: string;
  /** Name, namespace, labels, ... */
  metadata?: ObjectMeta;
}

/**
 * A custom resource (group, version, plural resource, kind, scope), typed by the object it holds.
 * Two declarations of the same group/version/resource must agree on kind and scope.
 * @public
 */
export interface CustomResource<T extends CustomObject = CustomObject> {
  /** API group, e.g. "scheduling.x-k8s.io". */
  readonly group: string;
  /** e.g. "v1alpha1". */
  readonly version: string;
  /** The plural resource name in URLs, e.g. "podgroups". */
  readonly resource: string;
  /** e.g. "PodGroup". */
  readonly kind: string;
  /** Whether objects live in namespaces (true) or are cluster-scoped (false). */
  readonly namespaced: boolean;
  /**
   * Checks the fields the plugin relies on when an object is loaded from a snapshot; every error
   * with its field path relative to the object (`spec.minMember`). Absent: metadata.name only.
   */
  validate?(obj: T): FieldError[];
  /** Type-level only: the object type. Never set. */
  readonly __object?: T;
}

/**
 * Typed identity helper: `export const podGroups = defineCustomResource<PodGroup>({...})`.
 * @public
 */
export function defineCustomResource<T extends CustomObject>(r: CustomResource<T>): CustomResource<T> {
  return r;
}

/**
 * `group/version` as in an object's apiVersion ("v1" for the core group).
 * @internal
 */
export function customResourceAPIVersion(r: Pick<CustomResource, "group" | "version">): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/**
 * `resource.version.group`, the name upstream gives a custom resource's cluster events: a plugin
 * registers it as the `resource` of a {@link ClusterEvent} to be requeued by changes of the
 * resource's objects.
 * @public
 */
export function customResourceEventName(r: Pick<CustomResource, "group" | "version" | "resource">): string {
  return `${r.resource}.${r.version}.${r.group}`;
}

/**
 * The `group/version/resource` key of a custom resource.
 * @internal
 */
export function customResourceKey(r: Pick<CustomResource, "group" | "version" | "resource">): string {
  return `${r.group}/${r.version}/${r.resource}`;
}
