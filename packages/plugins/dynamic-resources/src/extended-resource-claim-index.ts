// upstream: pkg/scheduler/framework/plugins/dynamicresources/extendedresources.go
// (findExtendedResourceClaim scans every claim of the pod's namespace); kubesched keeps an index by
// owner from the informer's changes instead (the plugin's own: it reads only the informer).
import { ExtendedResourceClaimAnnotation, type Pod, type ResourceClaim } from "@kubesched/api";
import type { Lister } from "@kubesched/framework";
import { ListFollower } from "@kubesched/plugin-helpers";
import { findExtendedResourceClaim } from "./extended-resources";

/**
 * The special claims for extended resources (DRAExtendedResource) by the uid of the pod that
 * controls them, kept from the informer's listing as it changes (upstream scans every claim of
 * the pod's namespace per pod in findExtendedResourceClaim; this finds the same claim).
 */
export class ExtendedResourceClaimIndex {
  private readonly byOwner = new Map<string, Set<ResourceClaim>>();
  private readonly claims = new ListFollower<ResourceClaim>(
    (c) => this.change(c, -1),
    (c) => this.change(c, 1),
  );

  /** The claim upstream's findExtendedResourceClaim finds among the informer's claims for the pod. */
  find(claims: Lister<ResourceClaim>, pod: Pod): ResourceClaim | undefined {
    this.claims.follow(claims);
    const found = this.byOwner.get(pod.metadata?.uid ?? "");
    if (found === undefined) return undefined;
    // Usually one; more (the same uid owning claims in several namespaces, or two special claims)
    // are resolved in the listing's order, as upstream's scan does.
    if (found.size === 1) {
      const [only] = found;
      return only && findExtendedResourceClaim(pod, [only]);
    }
    return findExtendedResourceClaim(
      pod,
      claims.list().filter((c) => found.has(c)),
    );
  }

  private change(c: ResourceClaim, sign: 1 | -1): void {
    if (c.metadata?.annotations?.[ExtendedResourceClaimAnnotation] !== "true") return;
    for (const o of c.metadata?.ownerReferences ?? []) {
      if (o.controller !== true) continue;
      let set = this.byOwner.get(o.uid);
      if (sign > 0) {
        if (set === undefined) {
          set = new Set();
          this.byOwner.set(o.uid, set);
        }
        set.add(c);
      } else if (set !== undefined) {
        set.delete(c);
        if (set.size === 0) this.byOwner.delete(o.uid);
      }
    }
  }
}
