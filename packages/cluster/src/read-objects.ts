// The reading layer of snapshot loading: one input (a file or a text) in, its Kubernetes objects
// out, one at a time, each with where it came from — `readObjects(input) → Iterable<{obj,
// origin}>`. Per-object validation (load.ts) follows this seam. Underneath: chunks of text
// counted against the input size limit (input-reader.ts), split into documents and list items
// (yaml-stream.ts, json-stream.ts), each parsed on its own, lists expanded, and each object
// trimmed of what the scheduler never reads as soon as it is parsed (trimObject, as
// kube-scheduler's informer transform), so memory follows what is kept, not what was read.
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
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** An object as read, before validation, and where it came from (`file: document N, item M`). */
export interface RawObject {
  obj: Json;
  origin: string;
}

/** One input: a file to read, or a text already in memory; `name` is how messages name it. */
export type SnapshotInput = { name: string; path: string } | { name: string; text: string };

export interface ReadOptions {
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
 * the scheduler never reads.
 */
function expand(value: unknown, origin: string, errors: string[], out: RawObject[]): void {
  if (value === null || value === undefined) return; // empty document
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      expand(v, `${origin}, item ${i + 1}`, errors, out);
    });
    return;
  }
  if (!isObj(value)) {
    errors.push(`${origin}: expected a Kubernetes object, got ${typeof value}`);
    return;
  }
  const kind = value.kind;
  if (typeof kind === "string" && kind.endsWith("List") && Array.isArray(value.items)) {
    expandItems(kind, value.items, origin, errors, out);
    return;
  }
  out.push({ obj: trimObject(value), origin });
}

/** The items of a list of `kind` (a typed list's items omit their kind). */
function expandItems(
  kind: string,
  items: unknown[],
  origin: string,
  errors: string[],
  out: RawObject[],
): void {
  const itemKind = kind === "List" ? undefined : kind.slice(0, -"List".length);
  items.forEach((item, i) => {
    const o = isObj(item) && itemKind && item.kind === undefined ? { ...item, kind: itemKind } : item;
    expand(o, `${origin}, item ${i + 1}`, errors, out);
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

/** JSON.parse of one part; the message's position moved to the input's lines. */
function parseJson(text: string, line: number, errors: string[], name: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    const message = (e as Error).message;
    const m = /^(.*?) in JSON at position (\d+)/.exec(message);
    if (m) {
      const at = lineAndColumn(text, Number(m[2]), line);
      errors.push(`${name}: invalid JSON: ${m[1]} at line ${at.line}, column ${at.column}`);
    } else errors.push(`${name}: invalid JSON: ${message} (in the value from line ${line})`);
    return null;
  }
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
  const assembler = json ? new JsonAssembler(name, errors) : new YamlAssembler(name, errors);
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
  ) {}

  *take(parts: (YamlPart | JsonPart)[]): Iterable<RawObject> {
    const out: RawObject[] = [];
    for (const p of parts as YamlPart[]) {
      const origin = `${this.name}: document ${p.index}`;
      if (p.type === "document") {
        const value = parseYaml(p.text, origin, p.line, this.errors);
        if (value !== undefined) expand(value, origin, this.errors, out);
      } else if (p.type === "item") {
        const value = parseYaml(p.text, `${origin}, item ${p.item}`, p.line, this.errors);
        if (value === undefined) continue;
        if (!Array.isArray(value) || value.length !== 1) {
          this.errors.push(`${origin}, item ${p.item}: invalid YAML: not one list entry`);
          continue;
        }
        this.items.push({ value: isObj(value[0]) ? trimObject(value[0]) : value[0], item: p.item });
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
      for (const { value, item } of items) expand(value, `${origin}, item ${item}`, this.errors, out);
      return;
    }
    const env = parseYaml(p.text, origin, p.line, this.errors);
    if (env === undefined) return;
    const values = items.map((i) => i.value);
    if (isObj(env) && typeof env.kind === "string" && env.kind.endsWith("List")) {
      expandItems(env.kind, values, origin, this.errors, out);
    } else {
      expand(isObj(env) ? { ...env, items: values } : env, origin, this.errors, out);
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
  constructor(
    private readonly name: string,
    private readonly errors: string[],
  ) {}

  *take(parts: (YamlPart | JsonPart)[]): Iterable<RawObject> {
    const out: RawObject[] = [];
    for (const p of parts as JsonPart[]) {
      if (p.type === "items") this.sawItems = true;
      else if (p.type === "objectEnd") this.objectEnd(out);
      else {
        const parsed = parseJson(p.text, p.line, this.errors, this.name);
        if (parsed === null) continue;
        if (p.type === "element" && p.list === "items") {
          this.items.push(isObj(parsed.value) ? trimObject(parsed.value) : parsed.value);
        } else if (p.type === "element") {
          expand(parsed.value, `${this.name}, item ${p.index + 1}`, this.errors, out);
        } else if (p.type === "member") {
          this.members[p.key] = parsed.value;
        } else {
          expand(parsed.value, this.name, this.errors, out);
        }
      }
      yield* out.splice(0);
    }
    parts.length = 0;
  }

  /** The root object ended: a list's items, or the object itself. */
  private objectEnd(out: RawObject[]): void {
    const env = this.members;
    if (this.sawItems && typeof env.kind === "string" && env.kind.endsWith("List")) {
      expandItems(env.kind, this.items, this.name, this.errors, out);
    } else {
      expand(this.sawItems ? { ...env, items: this.items } : env, this.name, this.errors, out);
    }
    this.items = [];
    this.members = {};
  }
}
