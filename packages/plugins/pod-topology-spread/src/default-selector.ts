// upstream: pkg/scheduler/framework/plugins/helper/spread.go (DefaultSelector, GetPodServices)
import {
  type Labels,
  labelSelectorAsSelector,
  type Pod,
  type Requirement,
  type Selector,
  type Service,
  selectorFromRequirements,
  selectorFromSet,
} from "@kubesched/api";
import type { ClusterListers } from "@kubesched/framework";

/** The Services in the pod's namespace whose (non-nil) selector matches the pod's labels. */
export function getPodServices(listers: Pick<ClusterListers, "services">, pod: Pod): Service[] {
  const out: Service[] = [];
  const labels = pod.metadata?.labels;
  for (const svc of listers.services.list(pod.metadata?.namespace ?? "")) {
    const sel = svc.spec?.selector;
    // Services with a nil selector match nothing, not everything.
    if (sel == null) continue;
    if (selectorFromSet(sel).matches(labels)) out.push(svc);
  }
  return out;
}

/** The group/version of an apiVersion string ("apps/v1" → apps, v1; "v1" → "", v1); null when malformed. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | null {
  if (apiVersion === "" || apiVersion === "/") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return null;
}

function requirementsOf(ls: Parameters<typeof labelSelectorAsSelector>[0]): readonly Requirement[] | null {
  try {
    return labelSelectorAsSelector(ls).requirements();
  } catch {
    return null;
  }
}

/**
 * A selector deduced from the Services, ReplicationControllers, ReplicaSets and StatefulSets
 * matching the pod: the services' selectors merged, plus the selector of the pod's controller
 * when it is one of those kinds. Empty (matches everything) when nothing selects the pod.
 */
export function defaultSelector(
  pod: Pod,
  listers: Pick<ClusterListers, "services" | "replicationControllers" | "replicaSets" | "statefulSets">,
): Selector {
  // Services, RCs, RSs and SSs all match the pod, so their labels cannot conflict: merging is safe.
  let labelSet: Record<string, string> = {};
  for (const svc of getPodServices(listers, pod))
    labelSet = { ...labelSet, ...(svc.spec?.selector as Labels) };
  let selector = selectorFromSet(labelSet);

  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!owner) return selector;
  const gv = parseGroupVersion(owner.apiVersion);
  if (!gv) return selector;
  const ns = pod.metadata?.namespace ?? "";
  const kind = `${gv.group}/${gv.version}/${owner.kind}`;
  if (kind === "/v1/ReplicationController") {
    const rc = listers.replicationControllers.get(ns, owner.name);
    if (rc) {
      labelSet = { ...labelSet, ...(rc.spec?.selector ?? {}) };
      selector = selectorFromSet(labelSet);
    }
  } else if (kind === "apps/v1/ReplicaSet" || kind === "apps/v1/StatefulSet") {
    const obj =
      owner.kind === "ReplicaSet"
        ? listers.replicaSets.get(ns, owner.name)
        : listers.statefulSets.get(ns, owner.name);
    if (obj) {
      const reqs = requirementsOf(obj.spec?.selector);
      if (reqs && reqs.length > 0) selector = selectorFromRequirements([...selector.requirements(), ...reqs]);
    }
  }
  return selector;
}
