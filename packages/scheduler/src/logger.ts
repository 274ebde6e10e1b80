// The engine's logger: pino records (levels, child bindings, error serialization) written as
// klog-style text lines (kube-scheduler's default) or as JSON lines (--logging-format=json).
import { escapeTerminal } from "@kubesched/api";
import type { LogFields, Logger } from "@kubesched/framework";
import { pino } from "pino";

export interface CreateLoggerOptions {
  /** klog's -v: `debug(n, ...)` lines are written when n <= verbosity. Default 0. */
  verbosity?: number;
  /** "text" (klog-like, the default) or "json" (one JSON object per line). */
  format?: "text" | "json";
  /** Where each line goes (with its trailing newline), e.g. `(s) => process.stderr.write(s)`. */
  write: (line: string) => void;
}

/** A Logger over pino. Writes are synchronous, so nothing is lost when the process exits. */
export function createLogger(opts: CreateLoggerOptions): Logger {
  const write = opts.write;
  const destination =
    opts.format === "json" ? { write } : { write: (line: string) => write(klogLine(JSON.parse(line))) };
  const p = pino(
    {
      level: "info",
      base: null,
      formatters: { level: (label: string) => ({ level: label }) },
    },
    destination,
  );
  return new PinoLogger(p, opts.verbosity ?? 0);
}

class PinoLogger implements Logger {
  constructor(
    private readonly p: pino.Logger,
    private readonly verbosity: number,
  ) {}
  error(msg: string, fields?: LogFields): void {
    this.p.error(fields ?? {}, msg);
  }
  warn(msg: string, fields?: LogFields): void {
    this.p.warn(fields ?? {}, msg);
  }
  info(msg: string, fields?: LogFields): void {
    this.p.info(fields ?? {}, msg);
  }
  v(level: number): boolean {
    return level <= this.verbosity;
  }
  debug(level: number, msg: string, fields?: LogFields): void {
    if (level <= this.verbosity) this.p.info({ v: level, ...fields }, msg);
  }
  child(fields: LogFields): Logger {
    return new PinoLogger(this.p.child(fields), this.verbosity);
  }
}

const levelLetter: Record<string, string> = { error: "E", warn: "W", info: "I", fatal: "F" };
const reserved = new Set(["level", "time", "msg", "v"]);

/**
 * `E1124 06:20:51.123456] "msg" key="value" err="message"` (klog's header without pid/file),
 * escaped for the terminal: values are JSON strings, whose C1 controls JSON leaves as they are.
 */
function klogLine(rec: Record<string, unknown>): string {
  const t = new Date(typeof rec.time === "number" ? rec.time : Date.now());
  const p2 = (n: number) => String(n).padStart(2, "0");
  const head =
    `${levelLetter[String(rec.level)] ?? "I"}${p2(t.getUTCMonth() + 1)}${p2(t.getUTCDate())} ` +
    `${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.${String(t.getUTCMilliseconds() * 1000).padStart(6, "0")}]`;
  let out = `${head} ${JSON.stringify(rec.msg ?? "")}`;
  for (const [k, v] of Object.entries(rec)) {
    if (reserved.has(k)) continue;
    out += ` ${k}=${formatValue(k, v)}`;
  }
  return `${escapeTerminal(out)}\n`;
}

function formatValue(key: string, v: unknown): string {
  // pino serializes errors as {type, message, stack}: text logs show the message only.
  if (key === "err" && v && typeof v === "object" && "message" in v) return JSON.stringify(String(v.message));
  return typeof v === "string" ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
}
