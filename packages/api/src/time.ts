// upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go (Time.MarshalJSON: UTC,
// time.RFC3339, whole seconds) and micro_time.go (MicroTime.MarshalJSON: UTC, RFC3339Micro
// "2006-01-02T15:04:05.000000Z07:00"). The API server parses MicroTime with that fixed layout, so
// Date.toISOString()'s three fractional digits are rejected for Event.eventTime and Lease times.
// JavaScript dates hold milliseconds: the last three of the six digits are always 0.

/** The second {@link formatTime} formatted last, and its text (times come in bursts within a second). */
let lastSecond = Number.NaN;
let lastText = "";

/** A metav1.Time as the API server writes it: RFC 3339 in UTC, whole seconds (truncated). */
export function formatTime(t: number | Date): string {
  const ms = typeof t === "number" ? t : t.getTime();
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastText;
  const text = `${new Date(ms).toISOString().slice(0, -5)}Z`;
  lastSecond = second;
  lastText = text;
  return text;
}

/** A metav1.MicroTime as the API server writes it: RFC 3339 in UTC, six fractional digits. */
export function formatMicroTime(t: number | Date): string {
  return `${new Date(t).toISOString().slice(0, -1)}000Z`;
}
