// The writes the emulator serves, as the API server answers them: create (409 AlreadyExists),
// replace with a resourceVersion precondition (409 Conflict), merge patches, delete,
// pods/binding (BindingREST's checks, preconditions and refusals) and pods/status patches.
import { type KindInfo, keyOf } from "./collections";
import { isoNow, type Obj, type ObjectStore } from "./object-store";
import { isMergePatch, mergePatch, mergeStatus } from "./patches";
import { type Answer, failure, ok, status } from "./status";

export function notFound(info: KindInfo, name: string): Answer {
  return failure(404, `${info.kind.toLowerCase()}s "${name}" not found`);
}

function unknownPatchType(contentType: string): Answer {
  return failure(415, `the body of the request was in an unknown format: ${contentType}`);
}

/** The characters the API server's names.SimpleNameGenerator picks its 5-character suffix from. */
const nameSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";

/**
 * A name from `generateName` as the API server makes it (the base cut to 58 characters plus 5
 * characters of nameSuffixAlphabet); the suffixes are taken in sequence, skipping names in use.
 */
function generateObjectName(
  store: ObjectStore,
  info: KindInfo,
  ns: string | undefined,
  base: string,
): string {
  const prefix = base.slice(0, 58);
  for (let i = 0; ; i++) {
    let suffix = "";
    for (let n = i, k = 0; k < 5; k++, n = Math.floor(n / nameSuffixAlphabet.length)) {
      suffix += nameSuffixAlphabet[n % nameSuffixAlphabet.length];
    }
    const name = prefix + suffix;
    if (!store.of(info.kind).has(keyOf(info, ns, name))) return name;
  }
}

export function create(store: ObjectStore, info: KindInfo, namespace: string | undefined, body: Obj): Answer {
  const ns = info.namespaced ? (namespace ?? body.metadata?.namespace ?? "default") : undefined;
  const generateName: unknown = body.metadata?.generateName;
  const name =
    body.metadata?.name ||
    (typeof generateName === "string" && generateName !== ""
      ? generateObjectName(store, info, ns, generateName)
      : undefined);
  if (!name) return failure(400, "metadata.name: Required value: name or generateName is required");
  if (store.of(info.kind).has(keyOf(info, ns, name))) {
    return ok(409, status(409, "AlreadyExists", `${info.kind.toLowerCase()}s "${name}" already exists`));
  }
  const obj = {
    ...body,
    metadata: { ...body.metadata, name, ...(ns !== undefined ? { namespace: ns } : {}) },
  };
  return ok(201, store.put(info.kind, obj));
}

export function replace(
  store: ObjectStore,
  info: KindInfo,
  namespace: string | undefined,
  name: string,
  body: Obj,
): Answer {
  const cur = store.of(info.kind).get(keyOf(info, namespace, name));
  if (!cur) return notFound(info, name);
  const want = body.metadata?.resourceVersion;
  if (want !== undefined && want !== cur.metadata?.resourceVersion) {
    return failure(
      409,
      `Operation cannot be fulfilled on ${info.kind.toLowerCase()}s "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
  }
  const ns = info.namespaced ? namespace : undefined;
  return ok(200, store.put(info.kind, { ...body, metadata: { ...body.metadata, name, namespace: ns } }));
}

/** PUT of the status subresource: the stored object with the body's status (same conflict rule). */
export function replaceStatus(
  store: ObjectStore,
  info: KindInfo,
  namespace: string | undefined,
  name: string,
  body: Obj,
): Answer {
  const cur = store.of(info.kind).get(keyOf(info, namespace, name));
  if (!cur) return notFound(info, name);
  return replace(store, info, namespace, name, {
    ...cur,
    metadata: { ...cur.metadata, resourceVersion: body.metadata?.resourceVersion },
    status: body.status,
  });
}

/** A merge patch of an object (its metadata is not patched). */
export function patch(
  store: ObjectStore,
  info: KindInfo,
  namespace: string | undefined,
  name: string,
  contentType: string,
  body: Obj | undefined,
): Answer {
  const cur = store.of(info.kind).get(keyOf(info, namespace, name));
  if (!cur) return notFound(info, name);
  if (!isMergePatch(contentType)) return unknownPatchType(contentType);
  const { metadata: _m, ...changes } = body ?? {};
  const ns = info.namespaced ? namespace : undefined;
  return ok(
    200,
    store.put(info.kind, { ...mergePatch(cur, changes), metadata: { ...cur.metadata, namespace: ns } }),
  );
}

export function remove(
  store: ObjectStore,
  info: KindInfo,
  namespace: string | undefined,
  name: string,
): Answer {
  const cur = store.of(info.kind).get(keyOf(info, namespace, name));
  if (!cur) return notFound(info, name);
  store.remove(info.kind, namespace, name);
  return ok(200, cur);
}

/**
 * pods/binding, as the API server's BindingREST (upstream pkg/registry/core/pod/storage/storage.go):
 * the binding's name must be the URL's (400) and its target a Node by name (ValidatePodBinding,
 * an aggregate error the server answers 500); its metadata.uid and resourceVersion are
 * preconditions (409 on pods, etcd's "invalid object" StorageError); a pod being deleted, already
 * assigned or with scheduling gates is refused (409 on pods/binding). Binding sets spec.nodeName,
 * clears status.nominatedNodeName (ClearingNominatedNodeNameAfterBinding) and sets PodScheduled
 * True (podutil.UpdatePodCondition). A successful binding is counted in `bindings`
 * ("namespace/name").
 */
export function bind(
  store: ObjectStore,
  bindings: Map<string, number>,
  namespace: string | undefined,
  name: string,
  body: Obj,
): Answer {
  if (body?.metadata?.name !== name) {
    return failure(400, "name in URL does not match name in Binding object");
  }
  const invalid: string[] = [];
  const kind = body.target?.kind ?? "";
  if (kind !== "" && kind !== "Node") {
    invalid.push(`target.kind: Unsupported value: "${kind}": supported values: "Node", "<empty>"`);
  }
  if (!body.target?.name) invalid.push("target.name: Required value");
  if (invalid.length > 0) {
    // errs.ToAggregate() is not a status error: the server answers 500 with reason "".
    const message = invalid.length === 1 ? (invalid[0] as string) : `[${invalid.join(", ")}]`;
    return ok(500, status(500, "", message));
  }
  const pod = store.get("Pod", namespace, name);
  if (!pod) return failure(404, `pods "${name}" not found`);
  const precondition = (field: "UID" | "ResourceVersion", want: unknown, have: unknown): Answer | null =>
    want && want !== have
      ? failure(
          409,
          `Operation cannot be fulfilled on pods "${name}": StorageError: invalid object, Code: 4, Key: /registry/pods/${pod.metadata?.namespace}/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${field} in precondition: ${want}, ${field} in object meta: ${have ?? ""}`,
        )
      : null;
  const failed =
    precondition("UID", body.metadata?.uid, pod.metadata?.uid) ??
    precondition("ResourceVersion", body.metadata?.resourceVersion, pod.metadata?.resourceVersion);
  if (failed) return failed;
  const refuse = (why: string) =>
    failure(409, `Operation cannot be fulfilled on pods/binding "${name}": ${why}`);
  if (pod.metadata?.deletionTimestamp) {
    return refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
  }
  if (pod.spec?.nodeName) return refuse(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
  if ((pod.spec?.schedulingGates ?? []).length > 0) {
    return refuse(`pod ${name} has non-empty .spec.schedulingGates`);
  }
  const { nominatedNodeName: _cleared, ...podStatus } = pod.status ?? {};
  store.put("Pod", {
    ...pod,
    metadata: {
      ...pod.metadata,
      ...(body.metadata?.annotations
        ? { annotations: { ...pod.metadata?.annotations, ...body.metadata.annotations } }
        : {}),
    },
    spec: { ...pod.spec, nodeName: body.target.name },
    status: { ...podStatus, conditions: podScheduledTrue(podStatus.conditions ?? []) },
  });
  const key = `${pod.metadata?.namespace}/${name}`;
  bindings.set(key, (bindings.get(key) ?? 0) + 1);
  return ok(201, { apiVersion: "v1", kind: "Status", status: "Success", code: 201, metadata: {} });
}

/**
 * upstream podutil.UpdatePodCondition with {PodScheduled, True}: the condition is replaced (its
 * reason and message go), its lastTransitionTime kept unless the status flips.
 */
function podScheduledTrue(conditions: Obj[]): Obj[] {
  const old = conditions.find((c) => c.type === "PodScheduled");
  const next = {
    type: "PodScheduled",
    status: "True",
    lastTransitionTime: old?.status === "True" ? old.lastTransitionTime : isoNow(),
  };
  return old ? conditions.map((c) => (c === old ? next : c)) : [...conditions, next];
}

/** pods/status: a strategic merge of `status` (conditions by type). */
export function patchStatus(
  store: ObjectStore,
  namespace: string | undefined,
  name: string,
  contentType: string,
  body: Obj | undefined,
): Answer {
  const pod = store.get("Pod", namespace, name);
  if (!pod) return failure(404, `pods "${name}" not found`);
  if (!isMergePatch(contentType)) return unknownPatchType(contentType);
  const changes = body?.status ?? {};
  return ok(200, store.put("Pod", { ...pod, status: mergeStatus(pod.status ?? {}, changes) }));
}
