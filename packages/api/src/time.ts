// upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go (Time.MarshalJSON: UTC,
// time.RFC3339, whole seconds) and micro_time.go (MicroTime.MarshalJSON: UTC, RFC3339Micro
// "2006-01-02T15:04:05.000000Z07:00"). The API server parses MicroTime with that fixed layout, so
// Date.toISOString()'s three fractional digits are rejected for Event.eventTime and Lease times.
// JavaScript dates hold milliseconds: the last three of the six digits are always 0.

/** A metav1.Time as the API server writes it: RFC 3339 in UTC, whole seconds (truncated). */
export function formatTime(t: number | Date): string {
  return `${new Date(t).toISOString().slice(0, -5)}Z`;
}

/** A metav1.MicroTime as the API server writes it: RFC 3339 in UTC, six fractional digits. */
export function formatMicroTime(t: number | Date): string {
  return `${new Date(t).toISOString().slice(0, -1)}000Z`;
}
