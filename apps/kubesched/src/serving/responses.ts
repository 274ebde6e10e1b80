// The responses the serving endpoints write (upstream apiserver/pkg/endpoints/handlers/
// responsewriters: a metav1.Status for errors of the handler chain; healthz's plain text).
import type http from "node:http";

/** Whether a response can still be written. */
export function writable(res: http.ServerResponse): boolean {
  return !res.headersSent && !res.writableEnded && !res.destroyed;
}

/** A metav1.Status failure, as responsewriters.ErrorNegotiated writes it. */
export function writeStatus(
  res: http.ServerResponse,
  code: number,
  reason: string,
  message: string,
  headers: http.OutgoingHttpHeaders = {},
): void {
  if (!writable(res)) return;
  const body = JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  });
  res
    .writeHead(code, { "Content-Type": "application/json", "Cache-Control": "no-cache, private", ...headers })
    .end(body);
}

export function writeText(res: http.ServerResponse, code: number, body: string): void {
  if (!writable(res)) return;
  res
    .writeHead(code, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-cache, private",
    })
    .end(body);
}
