// upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go and
// util/validation/field/errors.go — the few validators and error formats selectors need.

const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);
const qualifiedNameMaxLength = 63;

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);
const labelValueMaxLength = 63;

const dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1123SubdomainMaxLength = 253;

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += " or ";
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

const emptyError = "must be non-empty";
const maxLenError = (n: number) => `must be no more than ${n} characters`;

/** Upstream IsDNS1123Subdomain: the list of problems, empty when valid. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com"));
  }
  return errs;
}

/** Upstream IsQualifiedName (label keys, annotation keys): the problems, empty when valid. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError}`);
    } else {
      for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
    }
  } else {
    errs.push(
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    return errs;
  }
  if (name.length === 0) {
    errs.push(`name part ${emptyError}`);
  } else if (name.length > qualifiedNameMaxLength) {
    errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  }
  if (!qualifiedNameRegexp.test(name)) {
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")}`,
    );
  }
  return errs;
}

/** Upstream IsValidLabelValue: the problems, empty when valid. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRegexp.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"));
  }
  return errs;
}

/** Stands for a Go nil `[]string` in a bad value (an absent `values` list). */
export const nilStringSlice: unique symbol = Symbol("[]string(nil)");

/** How Go's field errors print a bad value (`%q` for strings, `%#v` for string slices). */
export function formatBadValue(value: unknown): string {
  if (value === nilStringSlice) return "[]string(nil)";
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    return `[]string{${value.map((v) => JSON.stringify(String(v))).join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** `<path>: Invalid value: <value>: <detail>` (upstream field.Invalid(...).Error()). */
export function invalidValue(path: string, value: unknown, detail: string): string {
  return `${path}: Invalid value: ${formatBadValue(value)}${detail ? `: ${detail}` : ""}`;
}

/** `<path>: Unsupported value: "x": supported values: "a", "b"` (upstream field.NotSupported). */
export function unsupportedValue(path: string, value: unknown, supported: readonly string[]): string {
  const detail =
    supported.length > 0 ? `: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` : "";
  return `${path}: Unsupported value: ${formatBadValue(value)}${detail}`;
}

/** Upstream utilerrors.NewAggregate(...).Error(): one message as is, several as `[a, b]`. */
export function aggregateMessage(errs: readonly string[]): string {
  if (errs.length === 1) return errs[0]!;
  return `[${errs.join(", ")}]`;
}
