// Small strict-decoding helpers for the KubeSchedulerConfiguration decoder (plugin args are
// declared with defineArgs in @kubesched/framework), reporting unknown fields and wrong types
// the same way, with field paths.
import { type FieldError, fieldErrors, fieldPath } from "@kubesched/framework";

export type JsonObject = Record<string, unknown>;

export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/**
 * A strict decoder over one object: read fields with their expected types, then `finish()`
 * reports every field that was not read as unknown (upstream strict decoding).
 */
export class ObjectDecoder {
  private readonly seen = new Set<string>();
  constructor(
    readonly obj: JsonObject,
    readonly path: string,
    readonly errors: FieldError[],
    /** Fields tolerated without being read (e.g. apiVersion/kind of an args object). */
    ignored: readonly string[] = [],
  ) {
    for (const k of ignored) this.seen.add(k);
  }

  /** Starts decoding `raw` at `path`; a non-object is reported and decoded as {}. */
  static of(
    raw: unknown,
    path: string,
    errors: FieldError[],
    ignored: readonly string[] = [],
  ): ObjectDecoder {
    if (raw === undefined || raw === null) return new ObjectDecoder({}, path, errors, ignored);
    if (!isPlainObject(raw)) {
      errors.push(fieldErrors.invalid(path, raw, `must be an object, got ${typeName(raw)}`));
      return new ObjectDecoder({}, path, errors, ignored);
    }
    return new ObjectDecoder(raw, path, errors, ignored);
  }

  child(name: string): string {
    return fieldPath.child(this.path, name);
  }

  raw(name: string): unknown {
    this.seen.add(name);
    return this.obj[name];
  }

  has(name: string): boolean {
    return this.obj[name] !== undefined && this.obj[name] !== null;
  }

  string(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") {
      this.errors.push(fieldErrors.invalid(this.child(name), v, `must be a string, got ${typeName(v)}`));
      return undefined;
    }
    return v;
  }

  /** An integer (int32/int64 fields). */
  int(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v)) {
      this.errors.push(fieldErrors.invalid(this.child(name), v, `must be an integer, got ${typeName(v)}`));
      return undefined;
    }
    return v;
  }

  number(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number") {
      this.errors.push(fieldErrors.invalid(this.child(name), v, `must be a number, got ${typeName(v)}`));
      return undefined;
    }
    return v;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") {
      this.errors.push(fieldErrors.invalid(this.child(name), v, `must be a boolean, got ${typeName(v)}`));
      return undefined;
    }
    return v;
  }

  /** An array; each element decoded by `item(value, path)`. */
  array<T>(name: string, item: (v: unknown, path: string) => T | undefined): T[] | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) {
      this.errors.push(fieldErrors.invalid(this.child(name), v, `must be a list, got ${typeName(v)}`));
      return undefined;
    }
    const out: T[] = [];
    v.forEach((e, i) => {
      const d = item(e, fieldPath.index(this.child(name), i));
      if (d !== undefined) out.push(d);
    });
    return out;
  }

  /** A nested object decoded by `fn`. */
  object<T>(name: string, fn: (d: ObjectDecoder) => T): T | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    const d = ObjectDecoder.of(v, this.child(name), this.errors);
    const out = fn(d);
    d.finish();
    return out;
  }

  /** Reports every field that was not read. */
  finish(): void {
    for (const k of Object.keys(this.obj)) {
      if (!this.seen.has(k)) this.errors.push(fieldErrors.unknownField(this.child(k)));
    }
  }
}
