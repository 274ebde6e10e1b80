// The kubesched options file: what kubesched needs beyond kube-scheduler's configuration, kept out
// of the KubeSchedulerConfiguration so that file stays exactly what kube-scheduler accepts. It is
// read only when named with `--options FILE` (never looked up next to a configuration: its
// plugins: list imports code):
//
//   apiVersion: kubesched.io/v1alpha1
//   kind: KubeschedOptions
//   plugins:                        # plugin packages to load, as with --plugin
//     - "@kubesched/plugin-coscheduling"
import { readFileSync } from "node:fs";
import { type FieldError, fieldErrors, formatFieldError } from "@kubesched/framework";
import { parse } from "yaml";

export const optionsApiVersion = "kubesched.io/v1alpha1";
export const optionsKind = "KubeschedOptions";

export interface KubeschedOptions {
  /** The file it was read from. */
  file: string;
  /** Plugin packages (names, or folders relative to the file). */
  plugins: string[];
}

/** An options file that cannot be used: every problem with its field path. */
export class OptionsFileError extends Error {
  constructor(
    readonly file: string,
    readonly errors: readonly string[],
  ) {
    super(errors.map((e) => `${file}: ${e}`).join("\n"));
    this.name = "OptionsFileError";
  }
}

/** Parses and checks an options file's text (strictly: unknown fields are errors). */
export function parseOptions(text: string, file: string): KubeschedOptions {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new OptionsFileError(file, [e instanceof Error ? e.message : String(e)]);
  }
  const errors: FieldError[] = [];
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new OptionsFileError(file, [`must be a ${optionsKind} object (apiVersion: ${optionsApiVersion})`]);
  }
  const o = doc as Record<string, unknown>;
  if (o.apiVersion !== optionsApiVersion) {
    errors.push(fieldErrors.notSupported("apiVersion", o.apiVersion, [optionsApiVersion]));
  }
  if (o.kind !== optionsKind) errors.push(fieldErrors.notSupported("kind", o.kind, [optionsKind]));
  const plugins: string[] = [];
  if (o.plugins !== undefined && o.plugins !== null) {
    if (!Array.isArray(o.plugins)) {
      errors.push(fieldErrors.invalid("plugins", o.plugins, "must be a list of package names"));
    } else {
      o.plugins.forEach((p: unknown, i) => {
        if (typeof p !== "string" || p.trim() === "") {
          errors.push(fieldErrors.invalid(`plugins[${i}]`, p, "must be a package name"));
        } else {
          plugins.push(p.trim());
        }
      });
    }
  }
  for (const k of Object.keys(o)) {
    if (!["apiVersion", "kind", "plugins"].includes(k)) errors.push(fieldErrors.unknownField(k));
  }
  if (errors.length) throw new OptionsFileError(file, errors.map(formatFieldError));
  return { file, plugins };
}

/** Reads and checks the options file at `file` (--options); messages name it `shown`. */
export function readOptionsFile(file: string, shown = file): KubeschedOptions {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new OptionsFileError(shown, [
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory, not a file"
          : (e as Error).message,
    ]);
  }
  const options = parseOptions(text, shown);
  return { ...options, file };
}
