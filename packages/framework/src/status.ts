// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (Code, Status)

/**
 * Status codes, numerically identical to upstream's iota order.
 * @public
 */
export const Code = {
  /** The plugin ran correctly and found the pod schedulable (null stands for it). */
  Success: 0,
  /** An internal error: the pod goes to backoff (no preemption). */
  Error: 1,
  /** The pod does not fit; preemption may help. */
  Unschedulable: 2,
  /** The pod does not fit and preemption would not help (the node is not a preemption candidate). */
  UnschedulableAndUnresolvable: 3,
  /** Permit: the pod waits. */
  Wait: 4,
  /** The plugin has nothing to do for this pod (PreFilter, PreScore, Bind, PreBindPreFlight). */
  Skip: 5,
  /** The pod waits for something outside the scheduler (not retried until an event). */
  Pending: 6,
} as const;
/**
 * One of the {@link Code} values.
 * @public
 */
export type Code = (typeof Code)[keyof typeof Code];

/**
 * The upstream name of a code ("Success", "Unschedulable", ...).
 * @public
 */
export type CodeName =
  | "Success"
  | "Error"
  | "Unschedulable"
  | "UnschedulableAndUnresolvable"
  | "Wait"
  | "Skip"
  | "Pending";

const codeNames: readonly CodeName[] = [
  "Success",
  "Error",
  "Unschedulable",
  "UnschedulableAndUnresolvable",
  "Wait",
  "Skip",
  "Pending",
];

/**
 * The upstream name of a code ("UnschedulableAndUnresolvable").
 * @public
 */
export function codeName(code: Code): CodeName {
  return codeNames[code] as CodeName;
}

/**
 * Parses an upstream code name; undefined when unknown.
 * @public
 */
export function codeFromName(name: string): Code | undefined {
  const i = (codeNames as readonly string[]).indexOf(name);
  return i < 0 ? undefined : (i as Code);
}

/**
 * The result of running a plugin: a code, reasons, an optional error and the plugin that
 * produced it. `null` stands for Success everywhere a status is returned (upstream's nil).
 * @public
 */
export class Status {
  /** What happened. */
  readonly code: Code;
  /** Why, in upstream's words ("Insufficient cpu"): users search for them. */
  reasons: string[];
  /** An error whose message is prepended to the reasons (upstream WithError / AsStatus). */
  err: Error | undefined;
  /** Set by the framework for rejections: the plugin that caused this status. */
  plugin: string;

  /** A status with `code` and `reasons` (upstream NewStatus). */
  constructor(code: Code, ...reasons: string[]) {
    this.code = code;
    this.reasons = reasons;
    this.err = undefined;
    this.plugin = "";
  }

  /** Reasons, with the error's message first when there is one. */
  getReasons(): string[] {
    return this.err ? [this.err.message, ...this.reasons] : this.reasons;
  }

  /** Reasons joined with ", " (upstream Message()). */
  message(): string {
    return this.getReasons().join(", ");
  }

  /** Sets the error (upstream WithError) and returns this status. */
  withError(err: Error): this {
    this.err = err;
    return this;
  }

  /** Sets the plugin (upstream WithPlugin) and returns this status. */
  withPlugin(plugin: string): this {
    this.plugin = plugin;
    return this;
  }

  /** Adds a reason. */
  appendReason(reason: string): void {
    this.reasons.push(reason);
  }

  /** Whether the code is Success. */
  isSuccess(): boolean {
    return this.code === Code.Success;
  }
  /** Whether the code is Wait. */
  isWait(): boolean {
    return this.code === Code.Wait;
  }
  /** Whether the code is Skip. */
  isSkip(): boolean {
    return this.code === Code.Skip;
  }
  /** Whether the code is Error. */
  isError(): boolean {
    return this.code === Code.Error;
  }
  /** Unschedulable, UnschedulableAndUnresolvable or Pending. */
  isRejected(): boolean {
    return (
      this.code === Code.Unschedulable ||
      this.code === Code.UnschedulableAndUnresolvable ||
      this.code === Code.Pending
    );
  }

  /** null for Success/Wait/Skip; otherwise the error, or an error built from the message. */
  asError(): Error | null {
    if (this.code === Code.Success || this.code === Code.Wait || this.code === Code.Skip) return null;
    return this.err ?? new Error(this.message());
  }

  /** A copy (reasons copied, error shared). */
  clone(): Status {
    const s = new Status(this.code, ...this.reasons);
    s.err = this.err;
    s.plugin = this.plugin;
    return s;
  }

  /** The message. */
  toString(): string {
    return this.message();
  }
}

/**
 * Any status-returning extension point returns `Status | null`; null means Success.
 * @public
 */
export type StatusResult = Status | null;

/**
 * `new Status(code, ...reasons)` (upstream NewStatus).
 * @public
 */
export function newStatus(code: Code, ...reasons: string[]): Status {
  return new Status(code, ...reasons);
}

/**
 * Wraps an error in an Error status (upstream AsStatus).
 * @public
 */
export function asStatus(err: unknown): Status {
  const e = err instanceof Error ? err : new Error(String(err));
  return new Status(Code.Error).withError(e);
}

/**
 * The code of a status that may be null (null is Success).
 * @public
 */
export function statusCode(s: Status | null | undefined): Code {
  return s ? s.code : Code.Success;
}

/**
 * Whether a status that may be null is Success (null is).
 * @public
 */
export function isSuccess(s: Status | null | undefined): boolean {
  return !s || s.code === Code.Success;
}

/**
 * Whether a status that may be null rejects the pod (Unschedulable, UnschedulableAndUnresolvable
 * or Pending).
 * @public
 */
export function isRejected(s: Status | null | undefined): boolean {
  return !!s && s.isRejected();
}

/**
 * Structural check used where a union of Status and another result is returned.
 * Structural on purpose: two copies of this package (a plugin pinning another version)
 * still interoperate.
 * @public
 */
export function isStatus(v: unknown): v is Status {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { code?: unknown }).code === "number" &&
    Array.isArray((v as { reasons?: unknown }).reasons)
  );
}

/**
 * Two statuses are equal when code, reasons, plugin and error message match (null == Success).
 * @public
 */
export function statusEqual(a: Status | null | undefined, b: Status | null | undefined): boolean {
  if (!a || !b) return isSuccess(a) && isSuccess(b);
  if (a.code !== b.code || a.plugin !== b.plugin) return false;
  if ((a.err?.message ?? null) !== (b.err?.message ?? null)) return false;
  if (a.reasons.length !== b.reasons.length) return false;
  return a.reasons.every((r, i) => r === b.reasons[i]);
}
