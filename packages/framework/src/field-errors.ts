// upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go

/**
 * The kind of a {@link FieldError} (upstream field.ErrorType).
 * @public
 */
export type FieldErrorType =
  | "NotFound"
  | "Required"
  | "Duplicate"
  | "Invalid"
  | "NotSupported"
  | "Forbidden"
  | "TooLong"
  | "TooMany"
  | "InternalError"
  | "TypeInvalid"
  | "UnknownField";

const typeStrings: Record<FieldErrorType, string> = {
  NotFound: "Not found",
  Required: "Required value",
  Duplicate: "Duplicate value",
  Invalid: "Invalid value",
  NotSupported: "Unsupported value",
  Forbidden: "Forbidden",
  TooLong: "Too long",
  TooMany: "Too many",
  InternalError: "Internal error",
  TypeInvalid: "Invalid value",
  UnknownField: "unknown field",
};

/**
 * One validation error at a field path, as upstream's field.Error.
 * @public
 */
export interface FieldError {
  /** What is wrong. */
  type: FieldErrorType;
  /** e.g. `profiles[0].pluginConfig[1].args.scoringStrategy.type` */
  field: string;
  /** The offending value (absent for Required, Forbidden, ...). */
  badValue?: unknown;
  /** Why the value is wrong, in upstream's words. */
  detail?: string;
}

function renderValue(v: unknown): string {
  if (v === undefined) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v === null) return "null";
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/**
 * Renders an error exactly as upstream's field.Error.Error(): `<field>: <Type>: <value>: <detail>`.
 * @public
 */
export function formatFieldError(e: FieldError): string {
  const t = typeStrings[e.type];
  let body: string;
  switch (e.type) {
    case "Required":
    case "Forbidden":
    case "TooLong":
    case "InternalError":
    case "UnknownField":
      body = t;
      break;
    default:
      body = e.badValue === undefined ? t : `${t}: ${renderValue(e.badValue)}`;
  }
  if (e.detail) body += `: ${e.detail}`;
  return e.field ? `${e.field}: ${body}` : body;
}

/**
 * Joins errors the way upstream aggregates them: one per line here, for readable CLI output.
 * @public
 */
export function formatFieldErrors(errs: readonly FieldError[]): string {
  return errs.map(formatFieldError).join("\n");
}

/**
 * Field path helper: `child(path, "args")`, `index(path, 2)`, `key(path, "cpu")`.
 * @public
 */
export const fieldPath = {
  /** `parent.name1.name2` (no leading dot when `parent` is empty). */
  child(parent: string, ...names: string[]): string {
    let p = parent;
    for (const n of names) p = p ? `${p}.${n}` : n;
    return p;
  },
  /** `parent[i]`: an item of a list. */
  index(parent: string, i: number): string {
    return `${parent}[${i}]`;
  },
  /** `parent[k]`: an entry of a map. */
  key(parent: string, k: string): string {
    return `${parent}[${k}]`;
  },
};

/**
 * Builders of {@link FieldError}s with upstream's types (field.Invalid, field.Required, ...).
 * @public
 */
export const fieldErrors = {
  /** An Invalid value error (upstream field.Invalid). */
  invalid: (field: string, badValue: unknown, detail?: string): FieldError => ({
    type: "Invalid",
    field,
    badValue,
    ...(detail !== undefined ? { detail } : {}),
  }),
  /** A Required value error (upstream field.Required). */
  required: (field: string, detail?: string): FieldError => ({
    type: "Required",
    field,
    ...(detail !== undefined ? { detail } : {}),
  }),
  /** An Unsupported value error listing the supported values (upstream field.NotSupported). */
  notSupported: (field: string, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: "NotSupported",
    field,
    badValue,
    ...(supported.length
      ? { detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` }
      : {}),
  }),
  /** A Duplicate value error (upstream field.Duplicate). */
  duplicate: (field: string, badValue: unknown): FieldError => ({ type: "Duplicate", field, badValue }),
  /** A Forbidden error (upstream field.Forbidden). */
  forbidden: (field: string, detail?: string): FieldError => ({
    type: "Forbidden",
    field,
    ...(detail !== undefined ? { detail } : {}),
  }),
  /** A Not found error (upstream field.NotFound). */
  notFound: (field: string, badValue: unknown): FieldError => ({ type: "NotFound", field, badValue }),
  /** A Too many error: `must have at most <max> items` (upstream field.TooMany). */
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: "TooMany",
    field,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  /** An Internal error (upstream field.InternalError). */
  internal: (field: string, err: Error): FieldError => ({
    type: "InternalError",
    field,
    detail: err.message,
  }),
  /** An unknown field error of strict decoding. */
  unknownField: (field: string): FieldError => ({ type: "UnknownField", field }),
};
