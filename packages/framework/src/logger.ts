// upstream: klog/logr as kube-scheduler uses them (logger.Error, logger.Info, logger.V(n).Info).

/**
 * Structured key/value pairs of a log line; put an Error under `err`.
 * @public
 */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * The structured logger the engine and plugins log through (klog's contextual logging).
 * Verbosity follows klog: `info` is V(0); `debug(n, ...)` is V(n).Info and is shown at `--v >= n`.
 * @public
 */
export interface Logger {
  /** klog Error: always written. */
  error(msg: string, fields?: LogFields): void;
  /** A warning: always written. */
  warn(msg: string, fields?: LogFields): void;
  /** klog Info, V(0). */
  info(msg: string, fields?: LogFields): void;
  /** Whether V(level) lines are written (check before building costly fields). */
  v(level: number): boolean;
  /** klog V(level).Info. */
  debug(level: number, msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (klog.LoggerWithValues). */
  child(fields: LogFields): Logger;
}
