// The requests the emulator records, and the faults a test makes matching ones meet.
import type { RequestInfo } from "./request-info";

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  userAgent: string | undefined;
  body: unknown;
  /** Arrival time (Date.now()). */
  at: number;
  /**
   * The status code answered (200 once a watch opened); 0 when the connection was cut without an
   * answer; undefined while unanswered.
   */
  status?: number;
  /** What an authorizer decides on: verb, group, resource, subresource, namespace, name. */
  info: RequestInfo;
}

export interface Fault {
  method: string;
  /** Matches the path (without the query): a prefix string or a regular expression. */
  path: string | RegExp;
  /** The status to answer with; absent with `hang`. */
  status?: number;
  /** Never answer (until `releaseHung()` or close). */
  hang?: boolean;
  /** Serve the request normally, but answer only after this many ms (a reply the client may miss). */
  delayMs?: number;
  /** Cut the connection (a TCP reset) instead of answering. */
  reset?: boolean;
  /**
   * Serve the request (its write happens), then answer `status` or, with `reset`, cut the
   * connection instead of the real answer: a write whose response is lost (not for watches).
   */
  applied?: boolean;
  /** How many matching requests are affected (default 1; Infinity for all). */
  times?: number;
  reason?: string;
  /** metav1.Status details.causes types of the answer (e.g. ResourceVersionTooLarge). */
  causes?: string[];
  /** Only requests for which this holds (e.g. on their query). */
  match?: (r: RecordedRequest) => boolean;
}

/** A request's path matches a prefix or a regular expression. */
export function pathMatches(path: string, want: string | RegExp): boolean {
  return typeof want === "string" ? path.startsWith(want) : want.test(path);
}
