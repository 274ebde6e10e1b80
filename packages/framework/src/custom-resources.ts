// Custom resources a plugin reads (scheduler-plugins' PodGroup, ElasticQuota, ...). A plugin
// declares them in its descriptor (`customResources`); the cluster source then holds their
// objects — the in-memory cluster loads them from snapshots, the live source runs an informer per
// declared resource — and the plugin reads them through `handle.listers().custom(resource)`.
// upstream plugins get the same through a controller-runtime cached client per CRD.
import type { ObjectMeta } from "@kubesched/api";
import type { Lister } from "./cluster";
import type { Registry } from "./descriptor";
import type { FieldError } from "./field-errors";

/** The part of every custom object the cluster looks at. */
export interface CustomObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/**
 * A custom resource (group, version, plural resource, kind, scope), typed by the object it holds.
 * Two declarations of the same group/version/resource must agree on kind and scope.
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
  readonly namespaced: boolean;
  /**
   * Checks the fields the plugin relies on when an object is loaded from a snapshot; every error
   * with its field path relative to the object (`spec.minMember`). Absent: metadata.name only.
   */
  validate?(obj: T): FieldError[];
  /** Type-level only: the object type. Never set. */
  readonly __object?: T;
}

/** Typed identity helper: `export const podGroups = defineCustomResource<PodGroup>({...})`. */
export function defineCustomResource<T extends CustomObject>(r: CustomResource<T>): CustomResource<T> {
  return r;
}

/** `group/version` as in an object's apiVersion ("v1" for the core group). */
export function customResourceAPIVersion(r: Pick<CustomResource, "group" | "version">): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** `resource.version.group`, the name upstream uses for a custom resource's cluster events. */
export function customResourceEventName(r: Pick<CustomResource, "group" | "version" | "resource">): string {
  return `${r.resource}.${r.version}.${r.group}`;
}

/** The `group/version/resource` key of a custom resource. */
export function customResourceKey(r: Pick<CustomResource, "group" | "version" | "resource">): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

/** Read access to the objects of declared custom resources. */
export interface CustomResourceListers {
  /**
   * The informer cache of a declared custom resource (get(namespace, name); "" as the namespace
   * of cluster-scoped objects). Throws when no plugin of the registry declared the resource.
   */
  custom<T extends CustomObject>(resource: CustomResource<T>): Lister<T>;
}

/**
 * Every custom resource the registry's plugins declare, once each, in registry order. Throws
 * when two plugins declare the same group/version/resource with a different kind or scope.
 */
export function customResourcesOf(registry: Registry): CustomResource[] {
  const byKey = new Map<string, { r: CustomResource; plugin: string }>();
  for (const d of registry.values()) {
    for (const r of d.customResources ?? []) {
      const key = customResourceKey(r);
      const prev = byKey.get(key);
      if (!prev) byKey.set(key, { r, plugin: d.name });
      else if (prev.r.kind !== r.kind || prev.r.namespaced !== r.namespaced) {
        throw new Error(
          `plugins ${prev.plugin} and ${d.name} declare the custom resource ${key} differently (kind ${prev.r.kind} vs ${r.kind}, namespaced ${prev.r.namespaced} vs ${r.namespaced})`,
        );
      }
    }
  }
  return [...byKey.values()].map((e) => e.r);
}
