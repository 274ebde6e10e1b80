// Reading a cluster snapshot from an API server once: the kinds the scheduler watches, listed
// (no watch), so `kubesched simulate/capacity/diff --kubeconfig` run on what is there now and
// `kubesched snapshot` can write it for an offline rerun.

import type { KubeConfig } from "@kubernetes/client-node";
import { parseSelector } from "@kubesched/api";
import type { CustomResource } from "@kubesched/framework";
import type { KubeObject } from "@kubesched/scheduler";
import { RawClient } from "./raw-client";
import { customResourceSpec, type ResourceSpec, resources } from "./resources";

export interface ReadClusterOptions {
  /** Only pending pods of this namespace are kept (running pods all count: they use the nodes). */
  namespace?: string;
  /** Only pending pods matching this label selector are kept (same reason). */
  selector?: string;
  /** Custom resources the plugins declare (`customResourcesOf(registry)`): listed too. */
  customResources?: readonly CustomResource[];
}

/**
 * Lists every kind the scheduler uses, in `resources` order, each item with its kind and
 * apiVersion set (a list's items carry neither). Running pods are all kept; pending pods are
 * filtered by namespace and selector, as users of the simulators ask for ("simulate only my
 * team's pods against the real cluster").
 */
export async function readCluster(kc: KubeConfig, opts: ReadClusterOptions = {}): Promise<KubeObject[]> {
  const client = new RawClient(kc);
  const selector = opts.selector ? parseSelector(opts.selector) : undefined;
  const out: KubeObject[] = [];
  const specs: ResourceSpec[] = [
    ...Object.values(resources),
    ...(opts.customResources ?? []).map(customResourceSpec),
  ];
  for (const spec of specs) {
    const kind = spec.kind;
    const list = await client.request<{ items?: KubeObject[] }>("GET", spec.path, {
      query: spec.fieldSelector ? { fieldSelector: spec.fieldSelector } : {},
    });
    for (const item of list.items ?? []) {
      const obj = { ...item, apiVersion: spec.apiVersion, kind: spec.kind } as KubeObject;
      if (kind === "Pod" && !(obj as { spec?: { nodeName?: string } }).spec?.nodeName) {
        if (opts.namespace && obj.metadata?.namespace !== opts.namespace) continue;
        if (selector && !selector.matches(obj.metadata?.labels)) continue;
      }
      out.push(obj);
    }
  }
  return out;
}
