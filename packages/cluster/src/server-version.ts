// The API server version a snapshot records: `kubesched snapshot` writes its objects as one
// `kind: List` (the shape of `kubectl get -o yaml`) whose metadata carries the server's /version
// as an annotation. kubectl and client libraries read a List's items and ignore its metadata, so
// the file stays a plain Kubernetes List for every other reader.
import { isJsonObject, type VersionInfo } from "@kubesched/api";

/** The List annotation holding the JSON of the server's `GET /version` answer. */
export const serverVersionAnnotation = "kubesched.io/server-version";

/** A server version found in a snapshot, and where (`FILE: document N`). */
export interface RecordedServerVersion {
  info: VersionInfo;
  origin: string;
}

/** The `kind: List` a snapshot is written as: `items`, with the server's /version when known. */
export function snapshotList(
  items: readonly unknown[],
  serverVersion?: VersionInfo,
): { apiVersion: "v1"; kind: "List"; metadata: Record<string, unknown>; items: unknown[] } {
  const metadata = serverVersion
    ? { annotations: { [serverVersionAnnotation]: JSON.stringify(serverVersion) } }
    : {};
  return { apiVersion: "v1", kind: "List", metadata, items: [...items] };
}

/**
 * The server version a list's metadata records: undefined when it records none; an error message
 * (`ORIGIN: metadata.annotations["kubesched.io/server-version"]: ...`) when the annotation is not
 * the JSON of a /version answer.
 */
export function recordedServerVersion(
  metadata: Record<string, unknown>,
  origin: string,
): RecordedServerVersion | { error: string } | undefined {
  const annotations = metadata.annotations;
  if (!isJsonObject(annotations) || !Object.hasOwn(annotations, serverVersionAnnotation)) return undefined;
  const text = annotations[serverVersionAnnotation];
  const bad = (why: string) => ({
    error: `${origin}: metadata.annotations[${JSON.stringify(serverVersionAnnotation)}]: ${why}`,
  });
  let info: unknown;
  try {
    info = typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    return bad("invalid JSON; expected the JSON of an API server's /version");
  }
  if (!isJsonObject(info) || typeof info.gitVersion !== "string") {
    return bad(
      `expected the JSON of an API server's /version with its gitVersion, got ${JSON.stringify(text)}`,
    );
  }
  const stringFields = Object.fromEntries(Object.entries(info).filter(([, v]) => typeof v === "string"));
  return { info: { major: "", minor: "", ...stringFields } as VersionInfo, origin };
}
