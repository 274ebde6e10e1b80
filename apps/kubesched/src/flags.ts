// Flags declared once, with types: each flag says how it shows in `--help` (name, short, value
// name, allowed values, default, description) and how the strings given become the typed value
// its command receives (`read`). A command's `CommandContext.flags` is typed from its flag list
// (`FlagValues`), so commands get numbers, lists and booleans, not strings to re-parse.
//
// The command line is tokenized by Node's own node:util parseArgs (cli.ts). A CLI library was
// weighed (commander, cac, citty, clipanion, yargs): each brings its own help layout and error
// wording, which kubesched's must keep byte for byte, and none types values beyond what a `read`
// per flag does here; so the typed table is ours and the tokenizer is Node's (no dependency).

/** A value a flag cannot take; printed as `error: <message>` (exit code 2). */
export class FlagValueError extends Error {
  override name = "FlagValueError";
}

/** `invalid value "RAW" for --NAME[: WHY]`, the one wording of a bad flag value. */
export function invalidValue(raw: string, flag: string, why?: string): FlagValueError {
  return new FlagValueError(`invalid value "${raw}" for --${flag}${why ? `: ${why}` : ""}`);
}

export interface FlagSpec<N extends string = string, T = unknown> {
  name: N;
  short?: string;
  /** Name of the value ("FORMAT"); absent for boolean flags. */
  value?: string;
  /** Allowed values, checked by the parser. */
  values?: readonly string[];
  /** May be given several times. */
  repeatable?: boolean;
  /** Shown in the help; a value flag without `read` takes it when absent. */
  default?: string;
  description: string;
  /**
   * The value the command receives, from the strings given: every value of a value flag in order
   * (a non-repeatable one has one), "true"/"false" per boolean given; undefined when the flag is
   * absent. Throws FlagValueError for a value the flag cannot take.
   */
  read?: (given: readonly string[] | undefined) => T;
}

/** The typed values of a command's flags, by name. */
export type FlagValues<F extends readonly FlagSpec[]> = {
  [S in F[number] as S["name"]]: S extends FlagSpec<string, infer T> ? T : never;
};

interface Described<N extends string> {
  name: N;
  short?: string;
  description: string;
}

/** A boolean flag: true, false when given `=false`, undefined when absent. */
export function boolFlag<const N extends string>(spec: Described<N>): FlagSpec<N, boolean | undefined> {
  return { ...spec, read: (given) => (given === undefined ? undefined : given.at(-1) === "true") };
}

/**
 * A flag with one value: the string, or what `parse` makes of it (parse throws FlagValueError,
 * e.g. from `invalidValue`). With a `default`, absent means the default (parsed); without one,
 * undefined.
 */
export function valueFlag<const N extends string, T = string, const D extends string | undefined = undefined>(
  spec: Described<N> & {
    value: string;
    default?: D;
    parse?: (raw: string, flag: N) => T;
  },
): FlagSpec<N, NoInfer<D extends string ? T : T | undefined>> {
  const { parse, ...shown } = spec;
  const convert = parse ?? ((raw: string) => raw as T);
  return {
    ...shown,
    read: (given) => {
      const raw = given?.at(-1) ?? spec.default;
      return (raw === undefined ? undefined : convert(raw, spec.name)) as D extends string
        ? T
        : T | undefined;
    },
  };
}

/** A flag whose value is one of `values` (checked by the parser); absent: `default`. */
export function choiceFlag<const N extends string, const V extends readonly string[]>(
  spec: Described<N> & { value: string; values: V; default: V[number] },
): FlagSpec<N, V[number]> {
  return { ...spec, read: (given) => (given?.at(-1) ?? spec.default) as V[number] };
}

/** A repeatable flag: every value given, in order (each through `parse`); [] when absent. */
export function listFlag<const N extends string, T = string>(
  spec: Described<N> & { value: string; parse?: (raw: string, flag: N) => T },
): FlagSpec<N, NoInfer<T>[]> {
  const { parse, ...shown } = spec;
  const convert = parse ?? ((raw: string) => raw as T);
  return { ...shown, repeatable: true, read: (given) => (given ?? []).map((raw) => convert(raw, spec.name)) };
}

/** Parses an integer from `min` to `max`; `why` completes the error ("must be a positive integer"). */
export function integer(min: number, max: number, why?: string): (raw: string, flag: string) => number {
  return (raw, flag) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw invalidValue(raw, flag, why);
    return n;
  };
}

/** The typed value of one flag from the strings given. */
export function readFlag(spec: FlagSpec, given: readonly string[] | undefined): unknown {
  if (spec.read) return spec.read(given);
  if (!spec.value) return given === undefined ? undefined : given.at(-1) === "true";
  if (spec.repeatable) return [...(given ?? [])];
  return given?.at(-1) ?? spec.default;
}

/** Every flag's typed value, and the messages of the values that could not be read. */
export function readFlags<F extends readonly FlagSpec[]>(
  specs: F,
  given: Readonly<Record<string, readonly string[]>>,
): { values: FlagValues<F>; errors: string[] } {
  const values: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const spec of specs) {
    try {
      values[spec.name] = readFlag(spec, given[spec.name]);
    } catch (e) {
      if (!(e instanceof FlagValueError)) throw e;
      errors.push(e.message);
    }
  }
  return { values: values as FlagValues<F>, errors };
}
