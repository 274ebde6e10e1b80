// Field selectors as the API server applies them to lists and watches (`spec.nodeName=`,
// `status.phase!=Succeeded`): terms joined by ",", each `=`, `==` or `!=` on a dotted path.
import type { Obj } from "./object-store";

export type FieldSelector = { field: string; op: "=" | "!="; value: string }[];

export function parseFieldSelector(s: string | undefined): FieldSelector {
  if (!s) return [];
  return s.split(",").map((term) => {
    const neq = term.indexOf("!=");
    if (neq >= 0) return { field: term.slice(0, neq), op: "!=" as const, value: term.slice(neq + 2) };
    const eq = term.indexOf("=");
    const v = term.slice(eq + 1);
    return { field: term.slice(0, eq), op: "=" as const, value: v.startsWith("=") ? v.slice(1) : v };
  });
}

function fieldValue(obj: Obj, field: string): string {
  let cur: unknown = obj;
  for (const part of field.split(".")) {
    if (cur === null || typeof cur !== "object") return "";
    cur = (cur as Obj)[part];
  }
  return cur === undefined || cur === null ? "" : String(cur);
}

/** Whether `obj` is selected (a missing field reads as ""). */
export function matches(sel: FieldSelector, obj: Obj): boolean {
  for (const t of sel) {
    const v = fieldValue(obj, t.field);
    if (t.op === "=" ? v !== t.value : v === t.value) return false;
  }
  return true;
}
