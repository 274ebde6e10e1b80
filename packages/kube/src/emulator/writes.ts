// The writes the emulator serves, as the API server answers them: create (409 AlreadyExists),
// replace with a resourceVersion precondition (409 Conflict), merge patches, delete,
// pods/binding (409 once bound, or on a UID precondition) and pods/status patches.
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

export function create(store: ObjectStore, info: KindInfo, namespace: string | undefined, body: Obj): Answer {
  const ns = info.namespaced ? (namespace ?? body.metadata?.namespace ?? "default") : undefined;
  const name = body.metadata?.name;
  if (!name) return failure(400, "metadata.name: Required value");
  if (store.of(info.kind).has(keyOf(info, ns, name))) {
    return ok(409, status(409, "AlreadyExists", `${info.kind.toLowerCase()}s "${name}" already exists`));
  }
  const obj = { ...body, metadata: { ...body.metadata, ...(ns !== undefined ? { namespace: ns } : {}) } };
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

/** pods/binding; a successful binding is counted in `bindings` ("namespace/name"). */
export function bind(
  store: ObjectStore,
  bindings: Map<string, number>,
  namespace: string | undefined,
  name: string,
  body: Obj,
): Answer {
  const pod = store.get("Pod", namespace, name);
  if (!pod) return failure(404, `pods "${name}" not found`);
  const uid = body.metadata?.uid;
  if (uid && uid !== pod.metadata?.uid) {
    return failure(
      409,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata?.uid}`,
    );
  }
  if (pod.spec?.nodeName) {
    return failure(
      409,
      `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "${pod.spec.nodeName}"`,
    );
  }
  const conditions = mergeStatus(pod.status ?? {}, {
    conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: isoNow() }],
  }).conditions;
  store.put("Pod", {
    ...pod,
    spec: { ...pod.spec, nodeName: body.target?.name },
    status: { ...pod.status, conditions },
  });
  const key = `${pod.metadata?.namespace}/${name}`;
  bindings.set(key, (bindings.get(key) ?? 0) + 1);
  return ok(201, { apiVersion: "v1", kind: "Status", status: "Success", code: 201, metadata: {} });
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
