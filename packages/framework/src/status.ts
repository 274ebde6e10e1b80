// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (Code, Status)

/** Status codes, numerically identical to upstream's iota order. */
export const Code = {
  Success: 0,
  Error: 1,
  Unschedulable: 2,
  UnschedulableAndUnresolvable: 3,
  Wait: 4,
  Skip: 5,
  Pending: 6,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

const codeNames = [
  "Success",
  "Error",
  "Unschedulable",
  "UnschedulableAndUnresolvable",
  "Wait",
  "Skip",
  "Pending",
] as const;
export type CodeName = (typeof codeNames)[number];

/** The upstream name of a code ("UnschedulableAndUnresolvable"). */
export function codeName(code: Code): CodeName {
  return codeNames[code] as CodeName;
}

/** Parses an upstream code name; undefined when unknown. */
export function codeFromName(name: string): Code | undefined {
  const i = (codeNames as readonly string[]).indexOf(name);
  return i < 0 ? undefined : (i as Code);
}

/**
 * The result of running a plugin: a code, reasons, an optional error and the plugin that
 * produced it. `null` stands for Success everywhere a status is returned (upstream's nil).
 */
export class Status {
  readonly code: Code;
  reasons: string[];
  /** An error whose message is prepended to the reasons (upstream WithError / AsStatus). */
  err: Error | undefined;
  /** Set by the framework for rejections: the plugin that caused this status. */
  plugin: string;

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

  withError(err: Error): this {
    this.err = err;
    return this;
  }

  withPlugin(plugin: string): this {
    this.plugin = plugin;
    return this;
  }

  appendReason(reason: string): void {
    this.reasons.push(reason);
  }

  isSuccess(): boolean {
    return this.code === Code.Success;
  }
  isWait(): boolean {
    return this.code === Code.Wait;
  }
  isSkip(): boolean {
    return this.code === Code.Skip;
  }
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

  clone(): Status {
    const s = new Status(this.code, ...this.reasons);
    s.err = this.err;
    s.plugin = this.plugin;
    return s;
  }

  toString(): string {
    return this.message();
  }
}

/** Any status-returning extension point returns `Status | null`; null means Success. */
export type StatusResult = Status | null;

export function newStatus(code: Code, ...reasons: string[]): Status {
  return new Status(code, ...reasons);
}

/** Wraps an error in an Error status (upstream AsStatus). */
export function asStatus(err: unknown): Status {
  const e = err instanceof Error ? err : new Error(String(err));
  return new Status(Code.Error).withError(e);
}

/** The code of a status that may be null (null is Success). */
export function statusCode(s: Status | null | undefined): Code {
  return s ? s.code : Code.Success;
}

export function isSuccess(s: Status | null | undefined): boolean {
  return !s || s.code === Code.Success;
}

export function isRejected(s: Status | null | undefined): boolean {
  return !!s && s.isRejected();
}

/**
 * Structural check used where a union of Status and another result is returned.
 * Structural on purpose: two copies of this package (a plugin pinning another version)
 * still interoperate.
 */
export function isStatus(v: unknown): v is Status {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { code?: unknown }).code === "number" &&
    Array.isArray((v as { reasons?: unknown }).reasons)
  );
}

/** Two statuses are equal when code, reasons, plugin and error message match (null == Success). */
export function statusEqual(a: Status | null | undefined, b: Status | null | undefined): boolean {
  if (!a || !b) return isSuccess(a) && isSuccess(b);
  if (a.code !== b.code || a.plugin !== b.plugin) return false;
  if ((a.err?.message ?? null) !== (b.err?.message ?? null)) return false;
  if (a.reasons.length !== b.reasons.length) return false;
  return a.reasons.every((r, i) => r === b.reasons[i]);
}
