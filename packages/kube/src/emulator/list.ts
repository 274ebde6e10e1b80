// Lists as the API server serves them: resourceVersion "" is a consistent read, "0" any state (the
// watch cache: `limit` is ignored unless the emulator's watchCacheIgnoresLimit is off), N "not
// older than" N (no limit) — or exactly N with resourceVersionMatch=Exact or with a limit (served
// from history; 410 Expired once compacted); a version newer than the server's is a 504 "Too large
// resource version". `limit` pages with `continue` tokens that pin the first page's version (410
// once that version is compacted). Items are sorted by key.
import type { KindInfo } from "./collections";
import { matches, parseFieldSelector } from "./field-selector";
import type { Obj, ObjectStore } from "./object-store";
import { type Answer, failure, ok, tooLargeResourceVersion } from "./status";

function encodeContinue(rv: number, after: string): string {
  return Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv, start: after })).toString("base64");
}

function decodeContinue(token: string): { rv: number; start: string } | null {
  try {
    const o = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
    return typeof o.rv === "number" && typeof o.start === "string" ? { rv: o.rv, start: o.start } : null;
  } catch {
    return null;
  }
}

/** The answer to a list request (query: resourceVersion, resourceVersionMatch, limit, continue, fieldSelector). */
export function listAnswer(
  store: ObjectStore,
  info: KindInfo,
  namespace: string | undefined,
  q: Record<string, string>,
  watchCacheIgnoresLimit: boolean,
): Answer {
  const current = store.resourceVersion();
  const limit = q.limit ? Number(q.limit) : 0;
  const match = q.resourceVersionMatch ?? "";
  let at = current;
  let after = "";
  let pageLimit = limit;
  if (q.continue) {
    if (q.resourceVersion) {
      return failure(400, "specifying resource version is not allowed when using continue");
    }
    const token = decodeContinue(q.continue);
    if (!token) return failure(400, "continue key is not valid: incorrect encoded start resourceVersion");
    if (token.rv <= store.compactedRevision() && token.rv < current) {
      return failure(
        410,
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
      );
    }
    at = token.rv;
    after = token.start;
  } else if (q.resourceVersion === "0") {
    if (watchCacheIgnoresLimit) pageLimit = 0;
  } else if (q.resourceVersion) {
    const want = Number(q.resourceVersion);
    if (!Number.isInteger(want) || want < 0) {
      return failure(400, `invalid resource version: ${q.resourceVersion}`);
    }
    const exact = match === "Exact" || (match === "" && limit > 0);
    if (want > current) {
      return tooLargeResourceVersion(want, current);
    }
    if (exact) {
      if (want < current && want <= store.compactedRevision()) {
        return failure(410, "The resourceVersion for the provided list is too old.");
      }
      at = want;
    }
  }
  const sel = parseFieldSelector(q.fieldSelector);
  const state = at === current ? store.of(info.kind) : store.stateAt(info.kind, at);
  const keys = [...state.keys()].filter((k) => k > after).sort();
  const items: Obj[] = [];
  let cont = "";
  let remaining = 0;
  for (let i = 0; i < keys.length; i++) {
    const o = state.get(keys[i] as string) as Obj;
    if (namespace !== undefined && o.metadata?.namespace !== namespace) continue;
    if (!matches(sel, o)) continue;
    if (pageLimit > 0 && items.length >= pageLimit) {
      cont = encodeContinue(at, keys[i - 1] as string);
      remaining = keys.length - i;
      break;
    }
    // Items of a list carry no apiVersion/kind on the wire.
    const { apiVersion: _a, kind: _k, ...bare } = o;
    items.push(bare);
  }
  return ok(200, {
    apiVersion: info.apiVersion,
    kind: `${info.kind}List`,
    metadata: {
      resourceVersion: String(at),
      ...(cont ? { continue: cont, remainingItemCount: remaining } : {}),
    },
    items,
  });
}
