// Decoding JSON as Go's encoding/json decodes it into typed values: upstream's extender client
// reads every response with `json.NewDecoder(resp.Body).Decode(&result)` (pkg/scheduler/
// extender.go), so what an extender may answer is what that call accepts.
// upstream: go/src/encoding/json/decode.go (UnmarshalTypeError, object/array/literalStore),
// scanner.go (syntax errors, maxNestingDepth), stream.go (Decoder: one value, EOF) and fold.go.
//
// The Go types are TypeBox declarations (extender-v1.ts) carrying their Go names in `goType`:
// Object is a struct (its property names are the Go field names, matched exactly first, then
// case-insensitively as Go does), Array a slice, Record a map[string]T, Union with Null a
// pointer, String a string, Integer an int64. The decoded value holds every field, Go's zero value
// where the JSON has none: "" and 0, [] for a nil slice, {} for a nil map, null for a nil pointer.
import { Kind, type Static, type TSchema } from "@sinclair/typebox";

/** upstream scanner.go maxNestingDepth. */
export const maxNestingDepth = 10000;

/** Number literals longer than this are cut in messages (Go prints them whole). */
const maxLiteralInMessage = 64;

/** A syntax or type error, with encoding/json's message ("json: cannot unmarshal ..."). */
export class GoJSONError extends Error {
  override name = "GoJSONError";
}

/**
 * Decodes the first JSON value of `text` into the Go type `schema` declares, as a Decoder does:
 * whitespace only is "EOF", a value cut short "unexpected EOF", what follows the value is not
 * read. Throws a GoJSONError with Go's message: the syntax error, or the first type error.
 */
export function decodeGoJSON<T extends TSchema>(text: string, schema: T): Static<T> {
  scanValue(text);
  return new Decoder(text).decode(schema, zeroValue(schema)) as Static<T>;
}

/** `text` cut to `max` characters with a note of how much was left out (for messages). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Do not split a surrogate pair.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}... (${text.length - end} more characters)`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

// ---------------------------------------------------------------------------------------------
// Pass 1: syntax (Go checks the whole value before decoding it). Iterative, so that nesting is
// bounded by maxNestingDepth and not by the stack.

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * Go's quoteChar: the offending byte as the scanner's messages show it. Go reads bytes; for a
 * character beyond ASCII that is its first UTF-8 byte, shown as the Latin-1 character.
 */
function quoteChar(codePoint: number): string {
  if (codePoint === 0x27) return "'\\''";
  if (codePoint === 0x22) return "'\"'";
  if (codePoint >= 0x80) {
    const first =
      codePoint < 0x800
        ? 0xc0 | (codePoint >> 6)
        : codePoint < 0x10000
          ? 0xe0 | (codePoint >> 12)
          : 0xf0 | (codePoint >> 18);
    return `'${String.fromCharCode(first)}'`;
  }
  const named: Record<number, string> = {
    7: "\\a",
    8: "\\b",
    9: "\\t",
    10: "\\n",
    11: "\\v",
    12: "\\f",
    13: "\\r",
  };
  if (named[codePoint] !== undefined) return `'${named[codePoint]}'`;
  if (codePoint < 0x20 || codePoint === 0x7f) return `'\\x${codePoint.toString(16).padStart(2, "0")}'`;
  if (codePoint === 0x5c) return "'\\\\'";
  return `'${String.fromCharCode(codePoint)}'`;
}

function syntaxError(text: string, i: number, context: string): GoJSONError {
  if (i >= text.length) return new GoJSONError("unexpected EOF");
  return new GoJSONError(`invalid character ${quoteChar(text.codePointAt(i) ?? 0)} ${context}`);
}

/** Checks the syntax of the first value of `text` (after leading whitespace); returns where it ends. */
function scanValue(text: string): number {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  if (i >= text.length) throw new GoJSONError("EOF");
  // What each open container expects next: after '{' or ',' in an object a key; after '[' or
  // ',' in an array a value.
  const stack: ("{" | "[")[] = [];
  for (;;) {
    // A value begins at i.
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxNestingDepth) throw syntaxError(text, i, "exceeded max depth");
      stack.push(c === 0x7b ? "{" : "[");
      i++;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      if (c === 0x7b) {
        if (text.charCodeAt(i) === 0x7d /* } */) {
          stack.pop();
          i++;
        } else {
          i = scanKey(text, i);
          continue;
        }
      } else if (text.charCodeAt(i) === 0x5d /* ] */) {
        stack.pop();
        i++;
      } else {
        continue;
      }
    } else if (c === 0x22 /* " */) {
      i = scanString(text, i);
    } else if (c === 0x2d /* - */ || isDigit(c)) {
      i = scanNumber(text, i);
    } else if (c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
      i = scanLiteral(text, i);
    } else {
      throw syntaxError(text, i, "looking for beginning of value");
    }
    // A value ended at i: close containers or move to the next element.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return i;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      const d = text.charCodeAt(i);
      if (top === "{") {
        if (d === 0x2c /* , */) {
          i++;
          while (i < text.length && isSpace(text.charCodeAt(i))) i++;
          i = scanKey(text, i);
          break;
        }
        if (d === 0x7d /* } */) {
          stack.pop();
          i++;
          continue;
        }
        throw syntaxError(text, i, "after object key:value pair");
      }
      if (d === 0x2c) {
        i++;
        break;
      }
      if (d === 0x5d /* ] */) {
        stack.pop();
        i++;
        continue;
      }
      throw syntaxError(text, i, "after array element");
    }
  }
}

/** An object key and its colon, from i; returns where the value begins. */
function scanKey(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x22) throw syntaxError(text, i, "looking for beginning of object key string");
  let j = scanString(text, i);
  while (j < text.length && isSpace(text.charCodeAt(j))) j++;
  if (text.charCodeAt(j) !== 0x3a /* : */) throw syntaxError(text, j, "after object key");
  return j + 1;
}

/** A string literal from its opening quote at i; returns the index after the closing quote. */
function scanString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    if (j >= text.length) throw new GoJSONError("unexpected EOF");
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) throw syntaxError(text, j, "in string literal");
    if (c === 0x5c /* \ */) {
      const e = text[j + 1];
      if (e === undefined) throw new GoJSONError("unexpected EOF");
      if (e === "u") {
        for (let k = j + 2; k < j + 6; k++) {
          if (k >= text.length) throw new GoJSONError("unexpected EOF");
          if (!/[0-9a-fA-F]/.test(text[k] as string)) {
            throw syntaxError(text, k, "in \\u hexadecimal character escape");
          }
        }
        j += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(e)) throw syntaxError(text, j + 1, "in string escape code");
      j += 2;
      continue;
    }
    j++;
  }
}

/** A number literal from i (a '-' or a digit); returns where it ends. */
function scanNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 0x2d) {
    j++;
    if (!isDigit(text.charCodeAt(j))) throw syntaxError(text, j, "in numeric literal");
  }
  if (text.charCodeAt(j) === 0x30) j++;
  else while (isDigit(text.charCodeAt(j))) j++;
  if (text.charCodeAt(j) === 0x2e /* . */) {
    j++;
    if (!isDigit(text.charCodeAt(j))) throw syntaxError(text, j, "after decimal point in numeric literal");
    while (isDigit(text.charCodeAt(j))) j++;
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45 /* e E */) {
    j++;
    const s = text.charCodeAt(j);
    if (s === 0x2b || s === 0x2d) j++;
    if (!isDigit(text.charCodeAt(j))) throw syntaxError(text, j, "in exponent of numeric literal");
    while (isDigit(text.charCodeAt(j))) j++;
  }
  return j;
}

/** true, false or null from i; returns where it ends. */
function scanLiteral(text: string, i: number): number {
  const word = text[i] === "t" ? "true" : text[i] === "f" ? "false" : "null";
  for (let k = 1; k < word.length; k++) {
    if (text[i + k] !== word[k]) {
      throw syntaxError(text, i + k, `in literal ${word} (expecting '${word[k]}')`);
    }
  }
  return i + word.length;
}

// ---------------------------------------------------------------------------------------------
// Pass 2: decoding a value known to be well-formed into the declared type (decode.go).

interface GoSchema {
  [Kind]: string;
  goType?: string;
  properties?: Record<string, TSchema>;
  items?: TSchema;
  patternProperties?: Record<string, TSchema>;
  anyOf?: TSchema[];
}

const goSchema = (s: TSchema) => s as unknown as GoSchema;

/** The element type of a pointer (Union with Null); the schema itself otherwise. */
function pointee(schema: TSchema): TSchema | undefined {
  const s = goSchema(schema);
  if (s[Kind] !== "Union") return undefined;
  return s.anyOf?.find((x) => goSchema(x)[Kind] !== "Null");
}

function mapElem(schema: TSchema): TSchema {
  const v = Object.values(goSchema(schema).patternProperties ?? {})[0];
  if (!v) throw new Error("go-json: a Record schema without a value schema");
  return v;
}

/** The Go type name as reflect.Type.String() prints it. */
function goTypeName(schema: TSchema): string {
  const s = goSchema(schema);
  if (s.goType) return s.goType;
  switch (s[Kind]) {
    case "String":
      return "string";
    case "Integer":
      return "int64";
    case "Array":
      return `[]${goTypeName(s.items as TSchema)}`;
    case "Record":
      return `map[string]${goTypeName(mapElem(schema))}`;
    case "Union":
      return `*${goTypeName(pointee(schema) as TSchema)}`;
    default:
      throw new Error(`go-json: no Go type for a ${s[Kind]} schema`);
  }
}

/** The struct's name without its package, as UnmarshalTypeError.Struct. */
const structName = (schema: TSchema) => goTypeName(schema).replace(/^.*\./, "");

function zeroValue(schema: TSchema): unknown {
  switch (goSchema(schema)[Kind]) {
    case "String":
      return "";
    case "Integer":
      return 0;
    case "Array":
      return [];
    case "Record":
      return Object.create(null) as Record<string, unknown>;
    case "Union":
      return null;
    case "Object": {
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(goSchema(schema).properties ?? {}))
        out[name] = zeroValue(field);
      return out;
    }
    default:
      throw new Error(`go-json: no zero value for a ${goSchema(schema)[Kind]} schema`);
  }
}

/**
 * fold.go foldName: ASCII letters upper-cased, ſ and the Kelvin sign folded with S and K (the
 * only characters beyond ASCII whose fold set holds an ASCII letter); others are kept, so they
 * never match the ASCII field names declared here.
 */
function foldName(name: string): string {
  let out = "";
  for (const ch of name) {
    if (ch >= "a" && ch <= "z") out += ch.toUpperCase();
    else if (ch === "\u017f") out += "S";
    else if (ch === "\u212a") out += "K";
    else out += ch;
  }
  return out;
}

interface StructFields {
  exact: Map<string, TSchema>;
  folded: Map<string, string>;
}
const fieldsCache = new WeakMap<TSchema, StructFields>();

function structFields(schema: TSchema): StructFields {
  let f = fieldsCache.get(schema);
  if (!f) {
    const props = goSchema(schema).properties ?? {};
    f = { exact: new Map(Object.entries(props)), folded: new Map() };
    for (const name of Object.keys(props))
      if (!f.folded.has(foldName(name))) f.folded.set(foldName(name), name);
    fieldsCache.set(schema, f);
  }
  return f;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

class Decoder {
  private i = 0;
  /** The error context (decode.go errorContext): the innermost struct and the field path. */
  private struct: string | undefined;
  private readonly fieldStack: string[] = [];

  constructor(private readonly text: string) {}

  /** Decodes the value at i into `current` (Go decodes into the existing value), returning it. */
  decode(schema: TSchema, current: unknown): unknown {
    this.skipSpace();
    const c = this.text.charCodeAt(this.i);
    if (c === 0x7b) return this.object(schema, current);
    if (c === 0x5b) return this.array(schema, current);
    if (c === 0x6e /* null */) {
      this.i += 4;
      // A pointer, slice or map becomes nil; anything else is left as it is.
      const kind = goSchema(schema)[Kind];
      return kind === "Union" || kind === "Array" || kind === "Record" ? zeroValue(schema) : current;
    }
    const target = pointee(schema) ?? schema;
    const kind = goSchema(target)[Kind];
    if (c === 0x22) {
      const end = scanString(this.text, this.i);
      const value = JSON.parse(this.text.slice(this.i, end)) as string;
      this.i = end;
      if (kind !== "String") throw this.typeError("string", target);
      return value;
    }
    if (c === 0x74 || c === 0x66) {
      this.i = scanLiteral(this.text, this.i);
      throw this.typeError("bool", target);
    }
    const end = scanNumber(this.text, this.i);
    const literal = this.text.slice(this.i, end);
    this.i = end;
    if (kind !== "Integer") throw this.typeError("number", target);
    // strconv.ParseInt(s, 10, 64): digits only, within int64.
    const n = /^-?\d+$/.test(literal) ? BigInt(literal) : null;
    if (n === null || n < int64Min || n > int64Max) {
      const shown =
        literal.length > maxLiteralInMessage ? `${literal.slice(0, maxLiteralInMessage)}...` : literal;
      throw this.typeError(`number ${shown}`, target);
    }
    return Number(n);
  }

  private object(schema: TSchema, current: unknown): unknown {
    const target = pointee(schema) ?? schema;
    const kind = goSchema(target)[Kind];
    if (kind !== "Object" && kind !== "Record") throw this.typeError("object", target);
    // A nil pointer or map is allocated; an existing struct or map is decoded into.
    const out = (current ?? zeroValue(target)) as Record<string, unknown>;
    const fields = kind === "Object" ? structFields(target) : undefined;
    this.i++; // {
    for (;;) {
      this.skipSpace();
      if (this.text.charCodeAt(this.i) === 0x7d) {
        this.i++;
        return out;
      }
      const keyEnd = scanString(this.text, this.i);
      const key = JSON.parse(this.text.slice(this.i, keyEnd)) as string;
      this.i = keyEnd;
      this.skipSpace();
      this.i++; // :
      if (fields) {
        const name = fields.exact.has(key) ? key : fields.folded.get(foldName(key));
        const field = name === undefined ? undefined : fields.exact.get(name);
        if (name !== undefined && field) {
          const saved = this.struct;
          this.fieldStack.push(name);
          this.struct = structName(target);
          out[name] = this.decode(field, out[name]);
          this.fieldStack.pop();
          this.struct = saved;
        } else {
          this.skipValue();
        }
      } else {
        const elem = mapElem(target);
        out[key] = this.decode(elem, zeroValue(elem));
      }
      this.skipSpace();
      if (this.text.charCodeAt(this.i) === 0x2c) this.i++;
    }
  }

  private array(schema: TSchema, current: unknown): unknown {
    const target = pointee(schema) ?? schema;
    if (goSchema(target)[Kind] !== "Array") throw this.typeError("array", target);
    const elem = goSchema(target).items as TSchema;
    // Elements are decoded into the existing ones, then the slice is cut to the JSON's length.
    const out = (Array.isArray(current) ? current : []) as unknown[];
    this.i++; // [
    let n = 0;
    for (;;) {
      this.skipSpace();
      if (this.text.charCodeAt(this.i) === 0x5d) {
        this.i++;
        break;
      }
      out[n] = this.decode(elem, n < out.length ? out[n] : zeroValue(elem));
      n++;
      this.skipSpace();
      if (this.text.charCodeAt(this.i) === 0x2c) this.i++;
    }
    out.length = n;
    return out;
  }

  /** Steps over a well-formed value (an unknown field's), iteratively. */
  private skipValue(): void {
    this.skipSpace();
    let depth = 0;
    do {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x22) this.i = scanString(this.text, this.i);
      else if (c === 0x7b || c === 0x5b) {
        depth++;
        this.i++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        this.i++;
      } else if (c === 0x2d || isDigit(c)) this.i = scanNumber(this.text, this.i);
      else if (c === 0x74 || c === 0x66 || c === 0x6e) this.i = scanLiteral(this.text, this.i);
      else this.i++; // whitespace, ',' or ':' inside a container
    } while (depth > 0);
  }

  private skipSpace(): void {
    while (this.i < this.text.length && isSpace(this.text.charCodeAt(this.i))) this.i++;
  }

  /** UnmarshalTypeError.Error(). */
  private typeError(value: string, target: TSchema): GoJSONError {
    const type = goTypeName(target);
    if (this.struct !== undefined || this.fieldStack.length > 0) {
      return new GoJSONError(
        `json: cannot unmarshal ${value} into Go struct field ${this.struct ?? ""}.${this.fieldStack.join(".")} of type ${type}`,
      );
    }
    return new GoJSONError(`json: cannot unmarshal ${value} into Go value of type ${type}`);
  }
}
