// Which of the collections a scheduler watches the API server serves, by discovery (upstream
// client-go discovery: ServerResourcesForGroupVersion, ServerGroups' APIGroup). An informer over
// a collection the server does not serve lists 404 forever and its cache never syncs; `kubesched
// run` asks first and says which resource, in which versions the server has it, and the way out.
import { isNotFound } from "./api-error";
import type { RawClient } from "./raw-client";
import type { ResourceSpec } from "./resources";

/** A watched collection the server does not serve. */
export interface UnservedResource {
  /** What the informer would watch. */
  readonly spec: ResourceSpec;
  /** The collection's name, e.g. "devicetaintrules". */
  readonly resource: string;
  /** Its API group ("" for the core group). */
  readonly group: string;
  /** The group versions that do serve this resource, e.g. ["resource.k8s.io/v1beta2"]. */
  readonly servedIn: readonly string[];
  /** Every version the server serves of the group (empty: the group is not served at all). */
  readonly groupVersions: readonly string[];
}

interface APIResourceList {
  resources?: { name?: string }[];
}
interface APIGroup {
  versions?: { groupVersion?: string; version?: string }[];
}

function discoveryPath(groupVersion: string): string {
  return groupVersion.includes("/") ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
}

/**
 * The collections of `specs` the server does not serve, each with the versions that do (one
 * discovery request per group version watched, more only for what is missing). Discovery errors
 * other than 404 are thrown (the caller decides whether to go on without the answer).
 */
export async function findUnservedResources(
  client: RawClient,
  specs: readonly ResourceSpec[],
  signal?: AbortSignal,
): Promise<UnservedResource[]> {
  const opts = signal ? { signal } : {};
  const resourcesIn = new Map<string, Promise<Set<string>>>();
  const served = (groupVersion: string): Promise<Set<string>> => {
    let p = resourcesIn.get(groupVersion);
    if (!p) {
      p = client
        .request<APIResourceList>("GET", discoveryPath(groupVersion), opts)
        .then((l) => new Set((l.resources ?? []).map((r) => r.name ?? "").filter((n) => !n.includes("/"))))
        .catch((e: unknown) => {
          if (isNotFound(e)) return new Set<string>();
          throw e;
        });
      resourcesIn.set(groupVersion, p);
    }
    return p;
  };
  const out: UnservedResource[] = [];
  for (const spec of specs) {
    const resource = spec.path.split("/").at(-1) ?? "";
    if ((await served(spec.apiVersion)).has(resource)) continue;
    const group = spec.apiVersion.includes("/") ? (spec.apiVersion.split("/")[0] ?? "") : "";
    let groupVersions: string[] = [];
    if (group === "") groupVersions = ["v1"];
    else {
      try {
        const g = await client.request<APIGroup>("GET", `/apis/${group}`, opts);
        groupVersions = (g.versions ?? []).map((v) => v.groupVersion ?? `${group}/${v.version}`);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    const servedIn: string[] = [];
    for (const gv of groupVersions) {
      if (gv !== spec.apiVersion && (await served(gv)).has(resource)) servedIn.push(gv);
    }
    out.push({ spec, resource, group, servedIn, groupVersions });
  }
  return out;
}
