// Answers: a status code and a JSON body; failures are metav1.Status objects with upstream's
// reason for the code.
import type { Obj } from "./object-store";

/** What the emulator answers a request with. */
export interface Answer {
  code: number;
  body: Obj;
}

/** metav1.StatusReason by HTTP status code. */
export const reasons: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  410: "Expired",
  415: "UnsupportedMediaType",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

/** A metav1.Status failure. */
export function status(code: number, reason: string, message: string, causes?: { type: string }[]): Obj {
  return {
    apiVersion: "v1",
    kind: "Status",
    status: "Failure",
    code,
    reason,
    message,
    metadata: {},
    ...(causes ? { details: { causes } } : {}),
  };
}

/** A failure with the code's usual reason. */
export function failure(code: number, message: string, causes?: { type: string }[]): Answer {
  return { code, body: status(code, reasons[code] ?? "Unknown", message, causes) };
}

export function ok(code: number, body: Obj): Answer {
  return { code, body };
}

/**
 * upstream storage.NewTooLargeResourceVersionError: a list or watch from a version the server has
 * not reached (504, cause ResourceVersionTooLarge).
 */
export function tooLargeResourceVersion(want: number, current: number): Answer {
  return failure(504, `Timeout: Too large resource version: ${want}, current: ${current}`, [
    { type: "ResourceVersionTooLarge" },
  ]);
}
