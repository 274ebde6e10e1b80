// JSON read as a strict decoder reads it. upstream: sigs.k8s.io/json (the decoder behind
// kubectl's and the API server's field validation: a duplicate field is reported with its path).
// JSON.parse keeps the last of two equal keys silently. Neither V8's parser nor the scan below
// recurses, so any depth parses: what reads the value decides how deep it may nest.

/**
 * Whether a decoded JSON/YAML value is an object (not null, not an array): how the readers of
 * snapshots, conversions and validations walk objects they do not trust.
 * @public
 */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A field path in decoded JSON: object keys and list indices, from the root. */
export type JSONPath = (string | number)[];

/**
 * A JSON value, the fields its objects hold twice (the last one wins, as in Go) and how deep it
 * nests.
 * @public
 */
export interface DecodedJSON {
  value: unknown;
  /** Each second (third, ...) occurrence of a key within one object, by path. */
  duplicateFields: JSONPath[];
  /** Levels of objects and lists (a scalar at the top is 0). */
  depth: number;
}

/**
 * Parses JSON text: JSON.parse's value, plus the duplicate fields a strict decoder reports and
 * the depth. Throws JSON.parse's SyntaxError for text that is not JSON.
 * @public
 */
export function decodeJSON(text: string): DecodedJSON {
  const value: unknown = JSON.parse(text);
  return { value, ...scanJSON(text) };
}

/**
 * Levels of objects and lists in a value (a scalar is 0), counted without recursion: what
 * decodeJSON's `depth` says of a value that was not read from JSON text.
 * @public
 */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) max = depth + 1;
    for (const e of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof e === "object" && e !== null) {
        values.push(e);
        depths.push(depth + 1);
      }
    }
  }
  return max;
}

/**
 * A path as a field path: `spec.containers[0].name`; a key that is not a plain name is written
 * as a map key, `metadata.labels[app.kubernetes.io/name]` (upstream field.Path's Key).
 * @public
 */
export function formatJSONPath(path: JSONPath): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number" || !/^[A-Za-z_][\w-]*$/.test(p)) out += `[${p}]`;
    else out += out ? `.${p}` : p;
  }
  return out;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_LIST = 91;
const CLOSE_LIST = 93;
const COMMA = 44;
/** Above this many keys an object's keys are kept in a Set (below, a list is faster). */
const SMALL_OBJECT = 16;

/**
 * One pass over text JSON.parse accepted, without recursion: object keys by depth (one reused
 * list or set per level: siblings at a level never overlap), list indices, the deepest level.
 */
function scanJSON(text: string): { duplicateFields: JSONPath[]; depth: number } {
  const duplicateFields: JSONPath[] = [];
  // Per level (1-based): list or object, the list's current index, the object's current key and
  // the keys seen so far.
  const isList: boolean[] = [];
  const index: number[] = [];
  const key: string[] = [];
  const keyLists: string[][] = [];
  const keySets: (Set<string> | undefined)[] = [];
  let level = 0;
  let maxLevel = 0;
  let expectKey = false;
  // The next backslash in the text: a key before it has no escapes to decode.
  let backslash = text.indexOf("\\");
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        if (backslash >= 0 && backslash < i) backslash = text.indexOf("\\", i);
        const escaped = backslash >= 0 && backslash < end;
        const k = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (seenKey(keyLists[level] as string[], keySets, level, k)) {
          duplicateFields.push(pathTo(level, isList, index, key, k));
        }
        key[level] = k;
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_LIST) {
      level++;
      if (level > maxLevel) maxLevel = level;
      if (c === OPEN_LIST) {
        isList[level] = true;
        index[level] = 0;
      } else {
        isList[level] = false;
        const keys = keyLists[level];
        if (keys) keys.length = 0;
        else keyLists[level] = [];
        keySets[level]?.clear();
        expectKey = true;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) {
      level--;
      expectKey = false;
    } else if (c === COMMA) {
      if (isList[level]) index[level] = (index[level] as number) + 1;
      else expectKey = true;
    }
  }
  return { duplicateFields, depth: maxLevel };
}

/** The path of key `k` of the object at `level`. */
function pathTo(level: number, isList: boolean[], index: number[], key: string[], k: string): JSONPath {
  const path: JSONPath = [];
  for (let l = 1; l < level; l++) path.push(isList[l] ? (index[l] as number) : (key[l] as string));
  path.push(k);
  return path;
}

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  // A quote preceded by an odd number of backslashes is escaped.
  for (;;) {
    let slashes = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Records `key` among its object's keys; true when the object already had it. */
function seenKey(keys: string[], sets: (Set<string> | undefined)[], level: number, key: string): boolean {
  if (keys.length < SMALL_OBJECT) {
    if (keys.includes(key)) return true;
    keys.push(key);
    if (keys.length === SMALL_OBJECT) {
      const set = sets[level] ?? new Set<string>();
      for (const k of keys) set.add(k);
      sets[level] = set;
    }
    return false;
  }
  const set = sets[level] as Set<string>;
  if (set.has(key)) return true;
  set.add(key);
  return false;
}
