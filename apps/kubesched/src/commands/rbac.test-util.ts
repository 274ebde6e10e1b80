// RBAC for tests: which requests a service account may make, given Roles, ClusterRoles and their
// bindings as the API server's RBAC authorizer evaluates them.
// upstream: plugin/pkg/auth/authorizer/rbac/rbac.go (RuleAllows) and
// pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches, APIGroupMatches, ResourceMatches,
// ResourceNameMatches, NonResourceURLMatches).
import type { RequestInfo } from "@kubesched/kube/testing";

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** Role, ClusterRole, RoleBinding or ClusterRoleBinding (other kinds are ignored). */
export interface RBACObject {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[] | null;
  subjects?: { kind: string; name: string; namespace?: string }[];
  roleRef?: { kind: string; name: string };
}

export interface ServiceAccountRef {
  namespace: string;
  name: string;
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return list?.includes("*") === true || list?.includes(value) === true;
}

/** upstream RuleAllows. */
export function ruleAllows(rule: PolicyRule, r: RequestInfo): boolean {
  if (!has(rule.verbs, r.verb)) return false;
  if (!r.isResourceRequest) {
    return (rule.nonResourceURLs ?? []).some(
      (u) => u === "*" || u === r.path || (u.endsWith("*") && r.path.startsWith(u.slice(0, -1))),
    );
  }
  const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  const resourceMatches = (rule.resources ?? []).some(
    (res) => res === "*" || res === combined || (r.subresource !== "" && res === `*/${r.subresource}`),
  );
  return (
    has(rule.apiGroups, r.apiGroup) &&
    resourceMatches &&
    (rule.resourceNames === undefined ||
      rule.resourceNames.length === 0 ||
      rule.resourceNames.includes(r.name))
  );
}

interface Grant {
  /** The binding that grants it and its role, for messages. */
  via: string;
  /** A RoleBinding's namespace: the rules apply to requests in it only; undefined: everywhere. */
  namespace: string | undefined;
  rules: PolicyRule[];
}

/** The rules bound to a service account, with where each applies. */
export class RBACPolicy {
  private readonly grants: Grant[] = [];

  /** Throws when a binding of the service account names a role that is not among `objects`. */
  constructor(objects: readonly RBACObject[], sa: ServiceAccountRef) {
    const role = (kind: string, name: string, namespace: string | undefined) =>
      objects.find(
        (o) =>
          o.kind === kind &&
          o.metadata.name === name &&
          (kind === "ClusterRole" || o.metadata.namespace === namespace),
      );
    for (const b of objects) {
      if (b.kind !== "ClusterRoleBinding" && b.kind !== "RoleBinding") continue;
      // A service account's groups (upstream serviceaccount.MakeGroupNames, and every
      // authenticated user's system:authenticated).
      const groups = [
        "system:authenticated",
        "system:serviceaccounts",
        `system:serviceaccounts:${sa.namespace}`,
      ];
      const bindsSA = (b.subjects ?? []).some(
        (s) =>
          (s.kind === "ServiceAccount" && s.name === sa.name && s.namespace === sa.namespace) ||
          (s.kind === "Group" && groups.includes(s.name)),
      );
      if (!bindsSA || !b.roleRef) continue;
      const namespace = b.kind === "RoleBinding" ? b.metadata.namespace : undefined;
      const r = role(b.roleRef.kind, b.roleRef.name, namespace);
      if (!r) {
        throw new Error(`${b.kind} ${b.metadata.name}: ${b.roleRef.kind} ${b.roleRef.name} is not defined`);
      }
      this.grants.push({
        via: `${b.kind} ${b.metadata.name} (${b.roleRef.kind} ${b.roleRef.name})`,
        namespace,
        rules: r.rules ?? [],
      });
    }
  }

  /** The binding that allows the request, or null when none does. */
  allowedBy(r: RequestInfo): string | null {
    for (const g of this.grants) {
      if (g.namespace !== undefined && g.namespace !== r.namespace) continue;
      if (g.rules.some((rule) => ruleAllows(rule, r))) return g.via;
    }
    return null;
  }
}

/** "verb group/resource[/subresource] [in NS] [named NAME]", or "verb PATH" for a non-resource path. */
export function describeRequest(r: RequestInfo): string {
  if (!r.isResourceRequest) return `${r.verb} ${r.path}`;
  const resource = [r.apiGroup || "core", r.resource, r.subresource].filter(Boolean).join("/");
  return [r.verb, resource, r.namespace && `in ${r.namespace}`, r.name && `named ${r.name}`]
    .filter(Boolean)
    .join(" ");
}
