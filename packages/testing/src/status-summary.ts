import { type CodeName, codeName, type Status } from "@kubesched/framework";

export interface StatusSummary {
  code: CodeName;
  reasons: string[];
}

/**
 * A status as `{ code, reasons }` (null is Success), for table tests that compare statuses
 * without the plugin name. Reasons include the error message first, as Status.getReasons().
 */
export function statusSummary(s: Status | null | undefined): StatusSummary {
  if (!s) return { code: "Success", reasons: [] };
  return { code: codeName(s.code), reasons: [...s.getReasons()] };
}
