// Errors from the API server, normalized: the raw client and the generated client
// (@kubernetes/client-node ApiException) both end up as a KubeApiError with the HTTP status and
// the metav1.Status reason.

/** An API server error response (a metav1.Status body when the server sent one). */
export class KubeApiError extends Error {
  constructor(
    /** HTTP status code (404, 409, 410, ...); 0 when the request never got a response. */
    readonly statusCode: number,
    /** metav1.Status `reason` ("NotFound", "Conflict", "Expired", ...), or "" when unknown. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "KubeApiError";
  }
}

interface StatusBody {
  kind?: string;
  reason?: string;
  message?: string;
  code?: number;
}

function parseStatus(body: unknown): StatusBody | null {
  let b = body;
  if (typeof b === "string") {
    try {
      b = JSON.parse(b);
    } catch {
      return null;
    }
  }
  return b !== null && typeof b === "object" ? (b as StatusBody) : null;
}

/** Builds the error for a non-2xx response from its status code and body. */
export function apiErrorFromResponse(statusCode: number, body: unknown, what: string): KubeApiError {
  const status = parseStatus(body);
  const message = status?.message || (typeof body === "string" && body ? body : `HTTP ${statusCode}`);
  return new KubeApiError(statusCode, status?.reason ?? "", `${what}: ${message}`);
}

/** Normalizes anything a client call threw (ApiException has `code` and `body`). */
export function toKubeApiError(e: unknown, what: string): KubeApiError {
  if (e instanceof KubeApiError) return e;
  if (e !== null && typeof e === "object" && "code" in e && typeof e.code === "number") {
    return apiErrorFromResponse(e.code, "body" in e ? e.body : undefined, what);
  }
  return new KubeApiError(0, "", `${what}: ${e instanceof Error ? e.message : String(e)}`);
}

export function isNotFound(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 404;
}

export function isConflict(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 409;
}
