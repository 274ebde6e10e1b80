// What the scheduler keeps of an object it caches (live informers) or loads (snapshots), as
// kube-scheduler's informer transform trims objects before they enter its caches (upstream
// pkg/scheduler/scheduler.go: "Dropping `.metadata.managedFields` to improve memory usage",
// client-go cache.TransformFunc). Beyond managedFields it drops what no scheduler reads and what
// dominates the size of a real object:
// - the `kubectl.kubernetes.io/last-applied-configuration` annotation (a second copy of the object
//   as it was applied); other annotations stay, since out-of-tree plugins may read them;
// - of a pod's status, everything but what the scheduler and its queue read (phase, conditions,
//   nominatedNodeName, startTime, resource claim statuses and the DRA node allocatable ones,
//   pod-level resources, and each container status's name and resources): IPs, container
//   states, image IDs, messages go.
// The object is changed in place (it is fresh from the parser) and returned.
import { isJsonObject } from "@kubesched/api";

/** The annotation `kubectl apply` writes: the whole applied object again. */
export const lastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration";

type Json = Record<string, unknown>;

/** Pod status fields the scheduler reads (upstream: schedule_one, queue events, resource helpers). */
const podStatusKept = [
  "phase",
  "conditions",
  "nominatedNodeName",
  "startTime",
  "resourceClaimStatuses",
  "extendedResourceClaimStatus",
  "nodeAllocatableResourceClaimStatuses",
  "allocatedResources",
  "resources",
] as const;

/** Of a container status: its name and the resources in-place resize reports. */
function trimContainerStatuses(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((cs) => {
    if (!isJsonObject(cs)) return cs;
    const out: Json = { name: cs.name };
    if (cs.allocatedResources !== undefined) out.allocatedResources = cs.allocatedResources;
    if (cs.resources !== undefined) out.resources = cs.resources;
    return out;
  });
}

function trimPodStatus(status: Json): Json {
  const out: Json = {};
  for (const k of podStatusKept) if (status[k] !== undefined) out[k] = status[k];
  if (status.containerStatuses !== undefined)
    out.containerStatuses = trimContainerStatuses(status.containerStatuses);
  if (status.initContainerStatuses !== undefined)
    out.initContainerStatuses = trimContainerStatuses(status.initContainerStatuses);
  return out;
}

/**
 * Drops what the scheduler never reads from `obj` (see the file header) and returns it. `kind` is
 * the object's kind when the object does not say (a typed list's items).
 */
export function trimObject<T>(object: T, kind?: string): T {
  if (!isJsonObject(object)) return object;
  const obj: Json = object;
  const md = obj.metadata;
  if (isJsonObject(md)) {
    if (md.managedFields !== undefined) delete md.managedFields;
    const ann = md.annotations;
    if (isJsonObject(ann) && ann[lastAppliedConfigAnnotation] !== undefined) {
      delete ann[lastAppliedConfigAnnotation];
      if (Object.keys(ann).length === 0) delete md.annotations;
    }
  }
  if ((obj.kind ?? kind) === "Pod" && isJsonObject(obj.status)) obj.status = trimPodStatus(obj.status);
  return object;
}
