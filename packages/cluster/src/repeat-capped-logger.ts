// A simulation's log: an error or warning line that repeats word for word (a pod whose
// scheduling fails with an error is retried with backoff until the simulated clock stops,
// hundreds of times an hour) is written once; `flush()` then writes it once more with
// `repeated=N`, the number of lines left out. Info and V(n) lines pass through.
import type { LogFields, Logger } from "@kubesched/framework";

interface Repeat {
  logger: Logger;
  level: "error" | "warn";
  msg: string;
  fields: LogFields | undefined;
  count: number;
}

function fieldText(value: unknown): unknown {
  return value instanceof Error ? value.message : value;
}

/** A Logger that writes each distinct error or warning line once until {@link flush}. */
export class RepeatCappedLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly repeats: Map<string, Repeat> = new Map(),
    private readonly bindings = "",
  ) {}

  error(msg: string, fields?: LogFields): void {
    this.#capped("error", msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.#capped("warn", msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.inner.info(msg, fields);
  }
  v(level: number): boolean {
    return this.inner.v(level);
  }
  debug(level: number, msg: string, fields?: LogFields): void {
    this.inner.debug(level, msg, fields);
  }
  child(fields: LogFields): Logger {
    return new RepeatCappedLogger(this.inner.child(fields), this.repeats, this.bindings + this.#key(fields));
  }

  /** Writes each line left out since the last flush once more, with how often it was left out. */
  flush(): void {
    for (const r of this.repeats.values()) {
      if (r.count > 0) r.logger[r.level](r.msg, { ...r.fields, repeated: r.count });
      r.count = 0;
    }
  }

  #key(fields: LogFields | undefined): string {
    if (fields === undefined) return "";
    return JSON.stringify(Object.entries(fields).map(([k, v]) => [k, fieldText(v)]));
  }

  #capped(level: "error" | "warn", msg: string, fields: LogFields | undefined): void {
    const key = `${this.bindings}\u0000${level}\u0000${msg}\u0000${this.#key(fields)}`;
    const seen = this.repeats.get(key);
    if (seen !== undefined) {
      seen.count++;
      return;
    }
    this.repeats.set(key, { logger: this.inner, level, msg, fields, count: 0 });
    this.inner[level](msg, fields);
  }
}
