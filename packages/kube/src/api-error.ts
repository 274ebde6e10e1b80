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
    /**
     * Without a response (statusCode 0): the network error code (ECONNREFUSED, ECONNRESET, ...),
     * "ABORTED" (cancelled or past its deadline), "DECODE" (a watch line that is not JSON).
     */
    readonly netCode = "",
    /** metav1.Status `details.causes[].type` values (e.g. ResourceVersionTooLarge). */
    readonly causes: readonly string[] = [],
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
  details?: { causes?: { type?: string; message?: string }[] };
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
  const causes = (status?.details?.causes ?? []).map((c) => c.type ?? "").filter(Boolean);
  return new KubeApiError(statusCode, status?.reason ?? "", `${what}: ${message}`, "", causes);
}

export function isNotFound(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 404;
}

export function isConflict(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 409;
}

/** client-go isExpiredError: 410 Gone / reason Expired (a resourceVersion too old to serve). */
export function isExpired(e: unknown): boolean {
  return e instanceof KubeApiError && (e.statusCode === 410 || e.reason === "Expired" || e.reason === "Gone");
}

/** client-go isTooLargeResourceVersionError: a resourceVersion newer than the server has. */
export function isTooLargeResourceVersion(e: unknown): boolean {
  if (!(e instanceof KubeApiError)) return false;
  if (e.causes.includes("ResourceVersionTooLarge")) return true;
  return e.statusCode === 504 && e.message.includes("Too large resource version");
}

export function isTooManyRequests(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 429;
}

export function isInternalError(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 500;
}

/** A request that never got an answer: refused, reset, cut, or past its deadline. */
export function isNetworkError(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 0;
}
