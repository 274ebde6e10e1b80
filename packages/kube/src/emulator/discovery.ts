// Discovery as the API server answers it (upstream staging/src/k8s.io/apiserver/pkg/endpoints/
// discovery: legacy unaggregated discovery): /api (APIVersions), /apis (APIGroupList),
// /apis/GROUP (APIGroup) and /api/v1, /apis/GROUP/VERSION (APIResourceList), over the
// collections served now. A group or version with nothing served is not found (404), as on a
// server where it is disabled or unknown.
import { collections, type KindInfo, optionalCollections } from "./collections";

/**
 * kube-apiserver's --runtime-config: "GROUP/VERSION" (core: "v1" or "api/v1") or
 * "GROUP/VERSION/RESOURCE" to false (not served) or true (served, for the optional collections).
 */
export type RuntimeConfig = Readonly<Record<string, boolean>>;

/** A served collection: its "<group-version path>/<resource>" key and kind. */
interface Served {
  key: string;
  gvPath: string;
  group: string;
  version: string;
  resource: string;
  info: KindInfo;
}

function split(key: string, info: KindInfo): Served {
  const segs = key.split("/");
  const resource = segs.at(-1) ?? "";
  const gvPath = segs.slice(0, -1).join("/");
  const [group, version] = segs[0] === "api" ? ["", segs[1] ?? ""] : [segs[1] ?? "", segs[2] ?? ""];
  return { key, gvPath, group, version, resource, info };
}

/** Whether a collection is served under `config` (resource-level settings win over version-level). */
export function isServed(key: string, config: RuntimeConfig): boolean {
  const gvr = key.replace(/^apis?\//, "");
  const gv = gvr.split("/").slice(0, -1).join("/");
  const byResource = config[gvr];
  if (byResource !== undefined) return byResource;
  const byVersion = config[gv] ?? (key.startsWith("api/") ? config[`api/${gv}`] : undefined);
  if (byVersion !== undefined) return byVersion && (key in collections || key in optionalCollections);
  return key in collections;
}

/** The collections served under `config`. */
export function servedCollections(config: RuntimeConfig): Served[] {
  return Object.entries({ ...collections, ...optionalCollections })
    .filter(([key]) => isServed(key, config))
    .map(([key, info]) => split(key, info));
}

/** Kubernetes version priority (GA before beta before alpha, then higher numbers first). */
function versionPriority(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    const level = m?.[2] === undefined ? 2 : m[2] === "beta" ? 1 : 0;
    return [m ? 1 : -1, level, Number(m?.[1] ?? 0), Number(m?.[3] ?? 0)];
  };
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < pa.length; i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.localeCompare(b);
}

function resourceList(groupVersion: string, served: Served[]) {
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion,
    resources: served.map((s) => ({
      name: s.resource,
      singularName: s.info.kind.toLowerCase(),
      namespaced: s.info.namespaced,
      kind: s.info.kind,
      verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
    })),
  };
}

function group(name: string, served: Served[]) {
  const versions = [...new Set(served.filter((s) => s.group === name).map((s) => s.version))].sort(
    versionPriority,
  );
  const gv = (version: string) => ({ groupVersion: `${name}/${version}`, version });
  return {
    name,
    versions: versions.map(gv),
    ...(versions[0] !== undefined ? { preferredVersion: gv(versions[0]) } : {}),
  };
}

/** The discovery document at `path`, null when the path is not a discovery path or nothing is served there. */
export function discoveryDocument(path: string, config: RuntimeConfig): object | null {
  const segs = path.split("/").filter(Boolean);
  const served = servedCollections(config);
  if (segs[0] === "api") {
    if (segs.length === 1) return { kind: "APIVersions", versions: ["v1"] };
    if (segs.length === 2) {
      const core = served.filter((s) => s.gvPath === `api/${segs[1]}`);
      return core.length === 0 ? null : resourceList(segs[1] ?? "", core);
    }
    return null;
  }
  if (segs[0] !== "apis") return null;
  if (segs.length === 1) {
    const names = [...new Set(served.filter((s) => s.group !== "").map((s) => s.group))].sort();
    return { kind: "APIGroupList", apiVersion: "v1", groups: names.map((n) => group(n, served)) };
  }
  if (segs.length === 2) {
    const g = group(segs[1] ?? "", served);
    return g.versions.length === 0 ? null : { kind: "APIGroup", apiVersion: "v1", ...g };
  }
  if (segs.length === 3) {
    const inVersion = served.filter((s) => s.gvPath === segs.join("/"));
    return inVersion.length === 0 ? null : resourceList(`${segs[1]}/${segs[2]}`, inVersion);
  }
  return null;
}
