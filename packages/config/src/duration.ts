// Go time.Duration text, as metav1.Duration reads and writes it in v1 JSON ("15s", "1m30s",
// "500ms"). Values here are milliseconds.

const unitNs: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Parses a Go duration string into milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith("-") || s.startsWith("+")) {
    if (s[0] === "-") sign = -1;
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") return undefined;
  let totalNs = 0;
  const re = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) return undefined;
    const [whole, int = "", frac = "", unit = ""] = m;
    if (int === "" && frac === "") return undefined;
    const mult = unitNs[unit];
    if (mult === undefined) return undefined;
    totalNs += Number(int || "0") * mult;
    if (frac) totalNs += Number(`0.${frac}`) * mult;
    s = s.slice(whole.length);
  }
  return (sign * totalNs) / 1e6;
}

function trimFraction(value: number, digits: number): string {
  return value.toFixed(digits).replace(/\.?0+$/, "");
}

/** Formats milliseconds like Go's time.Duration.String(): "15s", "1m0s", "1h0m0s", "500ms", "0s". */
export function formatDuration(ms: number): string {
  let ns = Math.round(ms * 1e6);
  if (ns === 0) return "0s";
  const neg = ns < 0;
  if (neg) ns = -ns;
  let out: string;
  if (ns < 1e3) out = `${ns}ns`;
  else if (ns < 1e6) out = `${trimFraction(ns / 1e3, 3)}µs`;
  else if (ns < 1e9) out = `${trimFraction(ns / 1e6, 6)}ms`;
  else {
    const hours = Math.floor(ns / 3600e9);
    const minutes = Math.floor((ns % 3600e9) / 60e9);
    const seconds = (ns % 60e9) / 1e9;
    out = `${trimFraction(seconds, 9)}s`;
    if (hours > 0 || minutes > 0) out = `${minutes}m${out}`;
    if (hours > 0) out = `${hours}h${out}`;
  }
  return neg ? `-${out}` : out;
}
