// A Logger for tests: keeps every line so a test can assert what was logged.
import type { LogFields, Logger } from "@kubesched/framework";

export interface LogEntry {
  level: "error" | "warn" | "info";
  /** klog verbosity of the line (0 for error/warn/info). */
  v: number;
  msg: string;
  fields: LogFields;
}

export interface RecordingLogger extends Logger {
  /** Every line written through this logger or its children, in order. */
  readonly entries: LogEntry[];
}

/** Records every line up to `verbosity` (default: all of them). */
export function recordingLogger(verbosity = Number.POSITIVE_INFINITY): RecordingLogger {
  const entries: LogEntry[] = [];
  const make = (bound: LogFields): RecordingLogger => {
    const push = (level: LogEntry["level"], v: number, msg: string, fields?: LogFields) =>
      entries.push({ level, v, msg, fields: { ...bound, ...fields } });
    return {
      entries,
      error: (msg, fields) => push("error", 0, msg, fields),
      warn: (msg, fields) => push("warn", 0, msg, fields),
      info: (msg, fields) => push("info", 0, msg, fields),
      v: (level) => level <= verbosity,
      debug: (level, msg, fields) => {
        if (level <= verbosity) push("info", level, msg, fields);
      },
      child: (fields) => make({ ...bound, ...fields }),
    };
  };
  return make({});
}
