// What a request asks for in the terms an authorizer decides on: verb, API group, resource,
// subresource, namespace and name, or a non-resource path.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
// (RequestInfoFactory.NewRequestInfo), for the paths the emulator serves.

export interface RequestInfo {
  /** false: a non-resource path (/healthz, /version, …). */
  isResourceRequest: boolean;
  /** The path without the query. */
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection (non-resource: the lowercased method). */
  verb: string;
  /** "" for the core group. */
  apiGroup: string;
  apiVersion: string;
  /** The collection, e.g. "pods"; "" for a non-resource path. */
  resource: string;
  /** e.g. "binding", "status"; "" when none. */
  subresource: string;
  /** "" for a cluster-scoped request or one across all namespaces. */
  namespace: string;
  /** "" when the request names no object (lists, watches, creates). */
  name: string;
}

const verbOfMethod: Record<string, string> = {
  GET: "get",
  HEAD: "get",
  POST: "create",
  PUT: "update",
  PATCH: "patch",
  DELETE: "delete",
};

/** Subresources of a namespace itself (/api/v1/namespaces/NAME/status), not namespaced collections. */
const namespaceSubresources = new Set(["status", "finalize"]);

/** The RequestInfo of a request, as the API server derives it from method, path and query. */
export function requestInfo(method: string, path: string, query: Record<string, string>): RequestInfo {
  const nonResource: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiGroup: "",
    apiVersion: "",
    resource: "",
    subresource: "",
    namespace: "",
    name: "",
  };
  let parts = path.split("/").filter(Boolean);
  let apiGroup: string;
  let apiVersion: string;
  if (parts[0] === "api" && parts.length >= 3) {
    apiGroup = "";
    apiVersion = parts[1] as string;
    parts = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    apiGroup = parts[1] as string;
    apiVersion = parts[2] as string;
    parts = parts.slice(3);
  } else {
    return nonResource;
  }
  let verb = verbOfMethod[method] ?? method.toLowerCase();
  let namespace = "";
  if (parts[0] === "namespaces" && parts.length > 1) {
    namespace = parts[1] as string;
    // /namespaces/NAME/RESOURCE…: a namespaced collection; /namespaces/NAME[/status]: the namespace.
    if (parts.length > 2 && !namespaceSubresources.has(parts[2] as string)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? "";
  let name = parts[1] ?? "";
  const subresource = parts[2] ?? "";
  if (name === "" && verb === "get") {
    verb = query.watch === "true" || query.watch === "1" ? "watch" : "list";
    // A list or watch of one object by field selector carries its name.
    const exact = /^metadata\.name(?:==?)([^,]+)$/.exec(query.fieldSelector ?? "");
    if (exact) name = exact[1] as string;
  }
  if (name === "" && verb === "delete") verb = "deletecollection";
  return {
    isResourceRequest: true,
    path,
    verb,
    apiGroup,
    apiVersion,
    resource,
    subresource,
    namespace,
    name,
  };
}
