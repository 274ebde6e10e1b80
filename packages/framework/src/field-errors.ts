// upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go

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

/** One validation error at a field path, as upstream's field.Error. */
export interface FieldError {
  type: FieldErrorType;
  /** e.g. `profiles[0].pluginConfig[1].args.scoringStrategy.type` */
  field: string;
  badValue?: unknown;
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

/** Renders an error exactly as upstream's field.Error.Error(): `<field>: <Type>: <value>: <detail>`. */
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

/** Joins errors the way upstream aggregates them: one per line here, for readable CLI output. */
export function formatFieldErrors(errs: readonly FieldError[]): string {
  return errs.map(formatFieldError).join("\n");
}

/** Field path helper: `child(path, "args")`, `index(path, 2)`, `key(path, "cpu")`. */
export const fieldPath = {
  child(parent: string, ...names: string[]): string {
    let p = parent;
    for (const n of names) p = p ? `${p}.${n}` : n;
    return p;
  },
  index(parent: string, i: number): string {
    return `${parent}[${i}]`;
  },
  key(parent: string, k: string): string {
    return `${parent}[${k}]`;
  },
};

export const fieldErrors = {
  invalid: (field: string, badValue: unknown, detail?: string): FieldError => ({
    type: "Invalid",
    field,
    badValue,
    ...(detail !== undefined ? { detail } : {}),
  }),
  required: (field: string, detail?: string): FieldError => ({
    type: "Required",
    field,
    ...(detail !== undefined ? { detail } : {}),
  }),
  notSupported: (field: string, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: "NotSupported",
    field,
    badValue,
    ...(supported.length
      ? { detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` }
      : {}),
  }),
  duplicate: (field: string, badValue: unknown): FieldError => ({ type: "Duplicate", field, badValue }),
  forbidden: (field: string, detail?: string): FieldError => ({
    type: "Forbidden",
    field,
    ...(detail !== undefined ? { detail } : {}),
  }),
  notFound: (field: string, badValue: unknown): FieldError => ({ type: "NotFound", field, badValue }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: "TooMany",
    field,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  internal: (field: string, err: Error): FieldError => ({
    type: "InternalError",
    field,
    detail: err.message,
  }),
  unknownField: (field: string): FieldError => ({ type: "UnknownField", field }),
};
