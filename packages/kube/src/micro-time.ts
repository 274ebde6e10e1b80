// metav1.MicroTime on the wire: RFC 3339 with exactly six fractional digits
// ("2006-01-02T15:04:05.000000Z07:00"). The API server parses it with that fixed layout, so
// Date.toISOString()'s three digits are rejected; Event.eventTime and Lease
// acquireTime/renewTime need this form. metav1.Time (seconds) is formatted by `formatTime`.

/** Milliseconds since the epoch → MicroTime text. */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Milliseconds since the epoch → metav1.Time text (whole seconds). */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** MicroTime or Time text → milliseconds since the epoch; NaN when unparsable. */
export function parseTime(s: string | undefined | null): number {
  return s ? Date.parse(s) : Number.NaN;
}
