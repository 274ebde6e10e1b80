import { describe, expect, it } from "vitest";
import { requestInfo } from "./request-info";

// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo_test.go
// (TestGetAPIRequestInfo), the cases of the paths the emulator serves.
describe("TestGetAPIRequestInfo", () => {
  const cases: [string, string, Record<string, string>, Partial<ReturnType<typeof requestInfo>>][] = [
    ["GET", "/api/v1/pods", {}, { verb: "list", apiGroup: "", resource: "pods", namespace: "", name: "" }],
    ["GET", "/api/v1/pods", { watch: "true" }, { verb: "watch", resource: "pods" }],
    ["GET", "/api/v1/namespaces/other/pods/foo", {}, { verb: "get", namespace: "other", name: "foo" }],
    [
      "GET",
      "/api/v1/namespaces/other/pods",
      { watch: "1", fieldSelector: "metadata.name=foo" },
      { verb: "watch", namespace: "other", resource: "pods", name: "foo" },
    ],
    [
      "POST",
      "/api/v1/namespaces/other/pods/foo/binding",
      {},
      { verb: "create", resource: "pods", subresource: "binding", name: "foo" },
    ],
    ["PATCH", "/api/v1/namespaces/other/pods/foo/status", {}, { verb: "patch", subresource: "status" }],
    ["DELETE", "/api/v1/namespaces/other/pods/foo", {}, { verb: "delete", name: "foo" }],
    ["DELETE", "/api/v1/namespaces/other/pods", {}, { verb: "deletecollection", name: "" }],
    ["PUT", "/api/v1/namespaces/other", {}, { verb: "update", resource: "namespaces", name: "other" }],
    [
      "PUT",
      "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler",
      {},
      { verb: "update", apiGroup: "coordination.k8s.io", apiVersion: "v1", resource: "leases" },
    ],
    [
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      {},
      { verb: "create", apiGroup: "authorization.k8s.io", resource: "subjectaccessreviews", namespace: "" },
    ],
  ];
  it.each(cases)("%s %s %j", (method, path, query, want) => {
    expect(requestInfo(method, path, query)).toMatchObject({ isResourceRequest: true, path, ...want });
  });

  it("a path outside /api and /apis is a non-resource request", () => {
    expect(requestInfo("GET", "/healthz", {})).toMatchObject({ isResourceRequest: false, verb: "get" });
    expect(requestInfo("GET", "/apis", {})).toMatchObject({ isResourceRequest: false });
  });
});
