// Reading a cluster snapshot from an API server once: the kinds the scheduler watches, listed
// (no watch, paged as client-go's pager), so `kubesched simulate/capacity/diff --kubeconfig` run on what is there now and
// `kubesched snapshot` can write it for an offline rerun.

import type { KubeConfig } from "@kubernetes/client-node";
import { deviceTaintRuleAPIVersions, parseSelector, type VersionInfo } from "@kubesched/api";
import type { CustomResource } from "@kubesched/framework";
import type { KubeObject } from "@kubesched/scheduler";
import { KubeApiError } from "./api-error";
import { RawClient } from "./raw-client";
import {
  admissionResources,
  customResourceSpec,
  deviceTaintRuleResource,
  type ResourceSpec,
  resources,
} from "./resources";

export interface ReadClusterOptions {
  /** Only pending pods of this namespace are kept (running pods all count: they use the nodes). */
  namespace?: string;
  /** Only pending pods matching this label selector are kept (same reason). */
  selector?: string;
  /** Custom resources the plugins declare (`customResourcesOf(registry)`): listed too. */
  customResources?: readonly CustomResource[];
  /** Items per list request (client-go's pager: 500); the rest follow with `continue` tokens. */
  pageSize?: number;
}

/**
 * Lists every kind the scheduler uses, in `resources` order, then LimitRanges and
 * ResourceQuotas (admission's objects), custom resources and DeviceTaintRules, each item with its kind and
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
    ...admissionResources,
    ...(opts.customResources ?? []).map(customResourceSpec),
  ];
  const listAll = async (spec: ResourceSpec): Promise<void> => {
    const kind = spec.kind;
    // Paged as client-go's pager: `limit` items a page, then the `continue` token of the last.
    let cont: string | undefined;
    do {
      const list = await client.request<{ items?: KubeObject[]; metadata?: { continue?: string } }>(
        "GET",
        spec.path,
        {
          query: {
            fieldSelector: spec.fieldSelector,
            limit: String(opts.pageSize ?? 500),
            continue: cont,
          },
        },
      );
      for (const item of list.items ?? []) {
        const obj = { ...item, apiVersion: spec.apiVersion, kind: spec.kind } as KubeObject;
        if (kind === "Pod" && !(obj as { spec?: { nodeName?: string } }).spec?.nodeName) {
          if (opts.namespace && obj.metadata?.namespace !== opts.namespace) continue;
          if (selector && !selector.matches(obj.metadata?.labels)) continue;
        }
        out.push(obj);
      }
      cont = list.metadata?.continue || undefined;
    } while (cont !== undefined);
  };
  for (const spec of specs) await listAll(spec);
  // DeviceTaintRules in the newest version the server serves (v1 from 1.37, v1beta2 in 1.36,
  // v1alpha3 before; none when the API is off): whether they apply is the simulation's gate.
  for (const apiVersion of deviceTaintRuleAPIVersions) {
    try {
      await listAll(deviceTaintRuleResource(apiVersion));
      break;
    } catch (e) {
      if (!(e instanceof KubeApiError && e.statusCode === 404)) throw e;
    }
  }
  return out;
}

/**
 * The server's `GET /version` (what `kubectl version` shows as the server version): the release a
 * snapshot records, so the simulators can behave as the cluster's scheduler release.
 */
export async function readServerVersion(kc: KubeConfig): Promise<VersionInfo> {
  return new RawClient(kc).request<VersionInfo>("GET", "/version");
}
