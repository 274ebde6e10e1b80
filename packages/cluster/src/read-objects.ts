// The reading layer of snapshot loading: one input (a file or a text) in, its Kubernetes objects
// out, one at a time, each with where it came from — `readObjects(input) → Iterable<{obj,
// origin}>`. Per-object validation (load.ts) follows this seam. Underneath: chunks of text
// counted against the input size limit (input-reader.ts), split into documents and list items
// (yaml-stream.ts, json-stream.ts), each parsed on its own, lists expanded, and each object
// trimmed of what the scheduler never reads as soon as it is parsed (trimObject, as
// kube-scheduler's informer transform), so memory follows what is kept, not what was read.
import { type DecodedJSON, decodeJSON, formatJSONPath, isJsonObject, type JSONPath } from "@kubesched/api";
import { trimObject } from "@kubesched/scheduler";
import { CORE_SCHEMA, load } from "js-yaml";
import { parseDocument } from "yaml";
import {
  countLines,
  defaultMaxInputBytes,
  fileChunks,
  InputBudget,
  InputReadError,
  InputSizeLimitError,
  lineAndColumn,
  nulIndex,
  textChunks,
} from "./input-reader";
import { JsonObjectTooLargeError, type JsonPart, JsonSplitter, JsonSyntaxError } from "./json-stream";
import { YamlObjectTooLargeError, type YamlPart, YamlSplitter } from "./yaml-stream";

type Json = Record<string, unknown>;

/** Receives a list envelope's `metadata` and where the list is. */
export type ListMetadataHandler = (metadata: Json, origin: string) => void;

/** An object as read, before validation, and where it came from (`file: document N, item M`). */
export interface RawObject {
  obj: Json;
  origin: string;
}

/** One input: a file to read, or a text already in memory; `name` is how messages name it. */
export type SnapshotInput = { name: string; path: string } | { name: string; text: string };

export interface ReadOptions {
  /** Called with the `metadata` of every list envelope read (where a snapshot records its server's version). */
  onListMetadata?: ListMetadataHandler;
  /** Bytes read over every input of one load before reading stops (default 1 GiB). */
  budget?: InputBudget;
  /** A YAML document up to this many characters is parsed whole; a bigger list item by item. */
  wholeDocumentChars?: number;
  /** The largest text of one object (a YAML document that is not a list, a list item, a JSON element). */
  maxObjectChars?: number;
}

/** 4 Mi characters: a document this size parses whole in tens of MB. */
export const defaultWholeDocumentChars = 4 * 2 ** 20;
/**
 * 16 Mi characters per object: ten times what the API server stores in one object (etcd's 1.5 MiB
 * request limit), and small enough to parse without a memory spike.
 */
export const defaultMaxObjectChars = 16 * 2 ** 20;

/** The YAML parser's alias limit per document (a "billion laughs" input stops there). */
const maxAliasCount = 1000;

/**
 * Expands lists (`kind: List`, `PodList`, arrays) into objects with their kinds, trimmed of what
 * the scheduler never reads, in order and without recursion (a valid JSON value may nest lists
 * 100,000 deep).
 */
function expand(
  value: unknown,
  origin: string,
  errors: string[],
  out: RawObject[],
  onList?: ListMetadataHandler,
): void {
  const stack: { value: unknown; origin: string }[] = [{ value, origin }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { value: v, origin: at } = top;
    if (v === null || v === undefined) continue; // empty document
    let items: unknown[];
    if (Array.isArray(v)) items = v;
    else if (!isJsonObject(v)) {
      errors.push(`${at}: expected a Kubernetes object, got ${typeof v}`);
      continue;
    } else if (typeof v.kind === "string" && v.kind.endsWith("List") && Array.isArray(v.items)) {
      if (onList && isJsonObject(v.metadata)) onList(v.metadata, at);
      const itemKind = v.kind === "List" ? undefined : v.kind.slice(0, -"List".length);
      // A typed list's items omit their kind and apiVersion: the list's are theirs (the version
      // decides how resource.k8s.io objects convert).
      const apiVersion = typeof v.apiVersion === "string" ? { apiVersion: v.apiVersion } : {};
      items = v.items.map((item) =>
        isJsonObject(item) && itemKind && item.kind === undefined
          ? { ...apiVersion, ...item, kind: itemKind }
          : item,
      );
    } else {
      out.push({ obj: trimObject(v), origin: at });
      continue;
    }
    for (let i = items.length - 1; i >= 0; i--)
      stack.push({ value: items[i], origin: `${at}, item ${i + 1}` });
  }
}

/** The items of a list of `kind` (a typed list's items omit their kind). */
function expandItems(
  env: Json & { kind: string },
  items: unknown[],
  origin: string,
  errors: string[],
  out: RawObject[],
  onList?: ListMetadataHandler,
): void {
  expand(
    { kind: env.kind, apiVersion: env.apiVersion, metadata: env.metadata, items },
    origin,
    errors,
    out,
    onList,
  );
}

/** How an object is named in messages: `Kind ns/name` (`Kind` without a name, `object` without a kind). */
export function describeObject(obj: Json): string {
  const kind = typeof obj.kind === "string" ? obj.kind : "object";
  const md = isJsonObject(obj.metadata) ? obj.metadata : {};
  const name = typeof md.name === "string" ? md.name : "";
  const ns = typeof md.namespace === "string" && md.namespace ? `${md.namespace}/` : "";
  return name ? `${kind} ${ns}${name}` : kind;
}

/**
 * Each field JSON text holds twice in one object, as kubectl's strict field validation reports
 * it (upstream: sigs.k8s.io/json): on the object `expand` takes from the value, by field path.
 */
function duplicateFieldErrors(decoded: DecodedJSON, origin: string): string[] {
  return decoded.duplicateFields.map((path) => {
    let v: unknown = decoded.value;
    let at = origin;
    let i = 0;
    let itemKind: string | undefined;
    for (;;) {
      const step = path[i];
      if (Array.isArray(v) && typeof step === "number") {
        [v, at, i, itemKind] = [v[step], `${at}, item ${step + 1}`, i + 1, undefined];
        continue;
      }
      const index = path[i + 1];
      if (!isJsonObject(v) || step !== "items" || typeof index !== "number" || !Array.isArray(v.items)) break;
      if (typeof v.kind !== "string" || !v.kind.endsWith("List")) break;
      itemKind = v.kind === "List" ? undefined : v.kind.slice(0, -"List".length);
      [v, at, i] = [v.items[index], `${at}, item ${index + 1}`, i + 2];
    }
    const field = formatJSONPath(path.slice(i));
    if (!isJsonObject(v)) return `${at}: ${field}: duplicate field`;
    const obj = itemKind && v.kind === undefined ? { ...v, kind: itemKind } : v;
    return `${at} (${describeObject(obj)}): ${field}: duplicate field`;
  });
}

/**
 * The YAML parser's message with its position moved to the input's lines (`firstLine` is the
 * line the parsed text starts at), on one line.
 */
function yamlMessage(message: string, firstLine: number): string {
  const first = (message.split("\n")[0] ?? "").replace(/:$/, "");
  if (firstLine === 1) return first;
  return first.replace(
    /at line (\d+), column (\d+)$/,
    (_, l: string, c: string) => `at line ${Number(l) + firstLine - 1}, column ${c}`,
  );
}

/**
 * js-yaml's loader, YAML 1.2's core schema as the YAML library's default: it builds objects
 * straight from the text, 7 times faster than the YAML library's document model with half the
 * memory. Aliases are left to the YAML library (maxAliases 0: js-yaml shares aliased nodes, the
 * YAML library copies them under its alias-count limit), and so is everything js-yaml refuses:
 * the YAML library reads the same text again and says what is wrong in its own words.
 */
const fastLoad = { schema: CORE_SCHEMA, maxAliases: 0 } as const;
/** A `%YAML`/`%TAG` directive: the YAML library handles the schema it selects. */
const directive = /^%/m;

/** Parses one YAML text (a document or an item); errors are pushed; undefined when it failed. */
function parseYaml(text: string, origin: string, line: number, errors: string[]): unknown {
  // JSON in a YAML file is read as JSON: the YAML parsers recurse (a deep value overflows them).
  if (jsonStart.test(text)) {
    const decoded = tryDecodeJSON(text);
    if (decoded) {
      errors.push(...duplicateFieldErrors(decoded, origin));
      return decoded.value;
    }
  }
  if (!directive.test(text)) {
    try {
      return load(text, fastLoad);
    } catch {
      // Read again below: empty documents, aliases, deep nesting, or an error to describe.
    }
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    for (const e of doc.errors) errors.push(`${origin}: invalid YAML: ${yamlMessage(e.message, line)}`);
    return undefined;
  }
  try {
    return doc.toJS({ maxAliasCount });
  } catch (e) {
    errors.push(`${origin}: invalid YAML: ${yamlMessage((e as Error).message, line)}`);
    return undefined;
  }
}

/** Text that may be JSON (a YAML document or item starting with `{` or `[`). */
const jsonStart = /^\s*[[{]/;

/** The JSON value of text that may be YAML instead (`{kind: Pod}` is YAML, not JSON). */
function tryDecodeJSON(text: string): DecodedJSON | undefined {
  try {
    return decodeJSON(text);
  } catch {
    return undefined;
  }
}

/** JSON.parse's message with its position moved to the input's lines. */
function jsonError(e: unknown, text: string, line: number, errors: string[], name: string): void {
  const message = (e as Error).message;
  const m = /^(.*?) in JSON at position (\d+)/.exec(message);
  if (m) {
    const at = lineAndColumn(text, Number(m[2]), line);
    errors.push(`${name}: invalid JSON: ${m[1]} at line ${at.line}, column ${at.column}`);
  } else errors.push(`${name}: invalid JSON: ${message} (in the value from line ${line})`);
}

/** Reads `input` object by object. Errors about the input are pushed to `errors`. */
export function* readObjects(
  input: SnapshotInput,
  errors: string[],
  opts: ReadOptions = {},
): Generator<RawObject> {
  const budget = opts.budget ?? new InputBudget(defaultMaxInputBytes);
  const name = input.name;
  const chunks =
    "path" in input ? fileChunks(name, input.path, budget) : textChunks(name, input.text, budget);
  const json = name.endsWith(".json");
  const maxObjectChars = opts.maxObjectChars ?? defaultMaxObjectChars;
  const parts: (YamlPart | JsonPart)[] = [];
  const emit = (p: YamlPart | JsonPart) => parts.push(p);
  const splitter = json
    ? new JsonSplitter(emit, maxObjectChars)
    : new YamlSplitter(emit, {
        wholeDocumentChars: opts.wholeDocumentChars ?? defaultWholeDocumentChars,
        maxObjectChars,
      });
  const assembler = json
    ? new JsonAssembler(name, errors, opts.onListMetadata)
    : new YamlAssembler(name, errors, opts.onListMetadata);
  let lines = 0;
  try {
    for (const chunk of chunks) {
      const nul = nulIndex(chunk);
      if (nul >= 0) {
        const at = lineAndColumn(chunk, nul, lines + 1);
        errors.push(`${name}: line ${at.line}: not a text file (a NUL byte); expected YAML or JSON`);
        return;
      }
      lines += countLines(chunk);
      splitter.feed(chunk);
      yield* assembler.take(parts);
    }
    splitter.end();
    yield* assembler.take(parts);
  } catch (e) {
    if (e instanceof InputSizeLimitError) throw e;
    if (e instanceof JsonSyntaxError) errors.push(`${name}: invalid JSON: ${e.message}`);
    else if (e instanceof JsonObjectTooLargeError || e instanceof YamlObjectTooLargeError)
      errors.push(`${name}: ${e.message}: no Kubernetes object is that big`);
    else if (e instanceof InputReadError) errors.push(e.message);
    else throw e;
  }
}

interface Assembler {
  /** Turns the parts found so far into objects (and empties `parts`). */
  take(parts: (YamlPart | JsonPart)[]): Iterable<RawObject>;
}

/**
 * YAML parts into objects: a whole document at once; a big list's items parsed as they come and
 * held (trimmed) until its envelope says whether it is a `kind: List` (kubectl writes `kind:`
 * after `items:`).
 */
class YamlAssembler implements Assembler {
  private items: { value: unknown; item: number }[] = [];
  constructor(
    private readonly name: string,
    private readonly errors: string[],
    private readonly onList?: ListMetadataHandler,
  ) {}

  *take(parts: (YamlPart | JsonPart)[]): Iterable<RawObject> {
    const out: RawObject[] = [];
    for (const p of parts as YamlPart[]) {
      const origin = `${this.name}: document ${p.index}`;
      if (p.type === "document") {
        const value = parseYaml(p.text, origin, p.line, this.errors);
        if (value !== undefined) expand(value, origin, this.errors, out, this.onList);
      } else if (p.type === "item") {
        const value = parseYaml(p.text, `${origin}, item ${p.item}`, p.line, this.errors);
        if (value === undefined) continue;
        if (!Array.isArray(value) || value.length !== 1) {
          this.errors.push(`${origin}, item ${p.item}: invalid YAML: not one list entry`);
          continue;
        }
        this.items.push({ value: isJsonObject(value[0]) ? trimObject(value[0]) : value[0], item: p.item });
      } else {
        this.envelope(p, origin, out);
      }
      yield* out.splice(0);
    }
    parts.length = 0;
  }

  private envelope(p: Extract<YamlPart, { type: "envelope" }>, origin: string, out: RawObject[]): void {
    const items = this.items;
    this.items = [];
    if (p.rootSequence) {
      const rest = p.text.trim() === "" ? null : parseYaml(p.text, origin, p.line, this.errors);
      if (rest === undefined) return;
      if (rest !== null) {
        this.errors.push(`${origin}: invalid YAML: a root sequence followed by other content`);
        return;
      }
      for (const { value, item } of items)
        expand(value, `${origin}, item ${item}`, this.errors, out, this.onList);
      return;
    }
    const env = parseYaml(p.text, origin, p.line, this.errors);
    if (env === undefined) return;
    const values = items.map((i) => i.value);
    if (isJsonObject(env) && typeof env.kind === "string" && env.kind.endsWith("List")) {
      expandItems({ ...env, kind: env.kind }, values, origin, this.errors, out, this.onList);
    } else {
      expand(isJsonObject(env) ? { ...env, items: values } : env, origin, this.errors, out, this.onList);
    }
  }
}

/**
 * JSON parts into objects: a root array's elements at once; a root object's members collected,
 * its "items" elements parsed as they come and held (trimmed) until the object ends.
 */
class JsonAssembler implements Assembler {
  private members: Json = {};
  private items: unknown[] = [];
  private sawItems = false;
  /** Parts with duplicate fields, reported when the root object ends. */
  private pending: { decoded: DecodedJSON; origin: string; prefix: JSONPath }[] = [];
  private duplicateMembers: string[] = [];
  constructor(
    private readonly name: string,
    private readonly errors: string[],
    private readonly onList?: ListMetadataHandler,
  ) {}

  *take(parts: (YamlPart | JsonPart)[]): Iterable<RawObject> {
    const out: RawObject[] = [];
    for (const p of parts as JsonPart[]) {
      if (p.type === "items") this.sawItems = true;
      else if (p.type === "objectEnd") this.objectEnd(out);
      else {
        const parsed = this.parse(p);
        if (parsed === null) continue;
        if (p.type === "element" && p.list === "items") {
          this.items.push(isJsonObject(parsed.value) ? trimObject(parsed.value) : parsed.value);
        } else if (p.type === "element") {
          expand(parsed.value, `${this.name}, item ${p.index + 1}`, this.errors, out, this.onList);
        } else if (p.type === "member") {
          this.members[p.key] = parsed.value;
        } else {
          expand(parsed.value, this.name, this.errors, out, this.onList);
        }
      }
      yield* out.splice(0);
    }
    parts.length = 0;
  }

  /**
   * One part's value; its duplicate fields reported where the object they are in is known (a
   * list item's and the root's once the root object ends: kubectl writes `kind` after `items`).
   */
  private parse(p: Exclude<JsonPart, { type: "items" | "objectEnd" }>): { value: unknown } | null {
    let decoded: DecodedJSON;
    try {
      decoded = decodeJSON(p.text);
    } catch (e) {
      jsonError(e, p.text, p.line, this.errors, this.name);
      return null;
    }
    if (decoded.duplicateFields.length > 0) {
      if (p.type === "element" && p.list === "items") {
        this.pending.push({ decoded, origin: `${this.name}, item ${this.items.length + 1}`, prefix: [] });
      } else if (p.type === "member") {
        this.pending.push({ decoded, origin: this.name, prefix: [p.key] });
      } else {
        const origin = p.type === "element" ? `${this.name}, item ${p.index + 1}` : this.name;
        this.errors.push(...duplicateFieldErrors(decoded, origin));
      }
    }
    if (p.type === "member" && Object.hasOwn(this.members, p.key)) this.duplicateMembers.push(p.key);
    return { value: decoded.value };
  }

  /** The duplicate fields of the root object's items and members, now that its kind is known. */
  private reportDuplicates(env: Json): void {
    const itemKind =
      typeof env.kind === "string" && env.kind.endsWith("List") && env.kind !== "List"
        ? env.kind.slice(0, -"List".length)
        : undefined;
    for (const { decoded, origin, prefix } of this.pending) {
      if (prefix.length > 0) {
        const root: DecodedJSON = {
          ...decoded,
          value: env,
          duplicateFields: decoded.duplicateFields.map((f) => [...prefix, ...f]),
        };
        this.errors.push(...duplicateFieldErrors(root, origin));
        continue;
      }
      const v = decoded.value;
      const value = isJsonObject(v) && itemKind && v.kind === undefined ? { ...v, kind: itemKind } : v;
      this.errors.push(...duplicateFieldErrors({ ...decoded, value }, origin));
    }
    for (const key of this.duplicateMembers) {
      this.errors.push(`${this.name} (${describeObject(env)}): ${formatJSONPath([key])}: duplicate field`);
    }
    this.pending = [];
    this.duplicateMembers = [];
  }

  /** The root object ended: a list's items, or the object itself. */
  private objectEnd(out: RawObject[]): void {
    const env = this.members;
    this.reportDuplicates(env);
    if (this.sawItems && typeof env.kind === "string" && env.kind.endsWith("List")) {
      expandItems({ ...env, kind: env.kind }, this.items, this.name, this.errors, out, this.onList);
    } else {
      expand(this.sawItems ? { ...env, items: this.items } : env, this.name, this.errors, out, this.onList);
    }
    this.items = [];
    this.members = {};
  }
}
