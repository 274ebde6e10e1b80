// Go's time.Duration.String(), for messages that embed durations exactly as upstream prints them
// ("10s", "15m0s", "1.5s", "100ms").

function fraction(v: number, digits: number): string {
  if (v === 0) return "";
  const s = String(v).padStart(digits, "0").replace(/0+$/, "");
  return `.${s}`;
}

/** Formats a duration given in milliseconds the way Go formats a time.Duration. */
export function formatDuration(ms: number): string {
  let ns = Math.round(ms * 1e6);
  const sign = ns < 0 ? "-" : "";
  if (ns < 0) ns = -ns;
  if (ns === 0) return "0s";
  if (ns < 1e9) {
    if (ns < 1e3) return `${sign}${ns}ns`;
    if (ns < 1e6) return `${sign}${Math.trunc(ns / 1e3)}${fraction(ns % 1e3, 3)}µs`;
    return `${sign}${Math.trunc(ns / 1e6)}${fraction(ns % 1e6, 6)}ms`;
  }
  const totalSeconds = Math.trunc(ns / 1e9);
  const h = Math.trunc(totalSeconds / 3600);
  const m = Math.trunc((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  let out = sign;
  if (h > 0) out += `${h}h`;
  if (h > 0 || m > 0) out += `${m}m`;
  return `${out}${s}${fraction(ns % 1e9, 9)}s`;
}
