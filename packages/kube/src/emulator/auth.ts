// Delegated authentication and authorization of the serving endpoints: the TokenReview and
// SubjectAccessReview answers of the API server, from the tokens and grants a test gives.
import type { Obj } from "./object-store";

export class DelegatedAuth {
  private readonly tokens = new Map<string, { username: string; groups: string[] }>();
  private readonly allowed = new Set<string>();

  /** `token` authenticates as `username` (in `groups`). */
  addToken(token: string, username: string, groups: string[]): void {
    this.tokens.set(token, { username, groups });
  }

  /** `user` may `get` non-resource `path` ("*" for every path). */
  allow(user: string, path: string): void {
    this.allowed.add(`${user} ${path}`);
  }

  tokenReview(body: Obj): Obj {
    const token = body?.spec?.token ?? "";
    const user = this.tokens.get(token);
    return {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenReview",
      spec: { token },
      status: user ? { authenticated: true, user: { username: user.username, groups: user.groups } } : {},
    };
  }

  subjectAccessReview(body: Obj): Obj {
    const spec = body?.spec ?? {};
    const path = spec.nonResourceAttributes?.path ?? "";
    const user = spec.user ?? "";
    const allowed = this.allowed.has(`${user} *`) || this.allowed.has(`${user} ${path}`);
    return {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec,
      status: allowed ? { allowed: true } : { allowed: false, reason: "no RBAC policy matched" },
    };
  }
}
