// The two patch flavours the scheduler sends: JSON merge patches (RFC 7386) of objects, and the
// strategic merge of a pod status patch (conditions merged by type).
import type { Obj } from "./object-store";

/** Strategic merge of a pod status patch: conditions by type, null deletes a field. */
export function mergeStatus(cur: Obj, patch: Obj): Obj {
  const next: Obj = { ...cur };
  for (const [k, v] of Object.entries(patch)) {
    if (k === "conditions" && Array.isArray(v)) {
      const conds: Obj[] = [...(cur.conditions ?? [])];
      for (const c of v as Obj[]) {
        const i = conds.findIndex((x) => x.type === c.type);
        if (i < 0) conds.push(c);
        else conds[i] = { ...conds[i], ...c };
      }
      next.conditions = conds;
    } else if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}

/** JSON merge patch (RFC 7386): objects merge, null deletes, anything else replaces. */
export function mergePatch(cur: Obj, patch: Obj): Obj {
  const next: Obj = { ...cur };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else if (typeof v === "object" && !Array.isArray(v) && typeof cur[k] === "object" && cur[k] !== null) {
      next[k] = mergePatch(cur[k], v);
    } else next[k] = v;
  }
  return next;
}

/** Whether a PATCH request's content type is one of the two the emulator applies. */
export function isMergePatch(contentType: string): boolean {
  return (
    contentType.startsWith("application/strategic-merge-patch+json") ||
    contentType.startsWith("application/merge-patch+json")
  );
}
