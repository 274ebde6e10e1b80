// The informer caches of the custom resources a registry's plugins declare, shared by every
// ClusterSource (the in-memory cluster fills them from snapshots, the API-server source from one
// informer per resource).
import {
  type CustomObject,
  type CustomResource,
  type CustomResourceListers,
  customResourceAPIVersion,
  customResourceKey,
  type Lister,
} from "@kubesched/framework";
import { ObjectStore } from "./object-store";

export class CustomResourceStores implements CustomResourceListers {
  private readonly stores = new Map<string, { resource: CustomResource; store: ObjectStore<CustomObject> }>();
  private readonly byKind = new Map<string, CustomResource>();

  constructor(resources: readonly CustomResource[]) {
    for (const r of resources) {
      const key = customResourceKey(r);
      if (this.stores.has(key)) continue;
      this.stores.set(key, { resource: r, store: new ObjectStore<CustomObject>(r.namespaced) });
      this.byKind.set(`${customResourceAPIVersion(r)}/${r.kind}`, r);
    }
  }

  /** The declared resources, once each. */
  resources(): CustomResource[] {
    return [...this.stores.values()].map((e) => e.resource);
  }

  /** The declared resource of an object's apiVersion and kind, if any. */
  resourceFor(apiVersion: string | undefined, kind: string | undefined): CustomResource | undefined {
    return this.byKind.get(`${apiVersion ?? ""}/${kind ?? ""}`);
  }

  /** The store of a declared resource; throws for an undeclared one. */
  store(resource: CustomResource): ObjectStore<CustomObject> {
    const e = this.stores.get(customResourceKey(resource));
    if (!e) {
      throw new Error(
        `custom resource ${customResourceKey(resource)} (${resource.kind}) is not declared by any plugin of the registry (descriptor.customResources)`,
      );
    }
    return e.store;
  }

  custom<T extends CustomObject>(resource: CustomResource<T>): Lister<T> {
    return this.store(resource) as unknown as Lister<T>;
  }
}
