// Claim constraints across the devices of several requests. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/allocator_incubating.go
// (matchAttributeConstraint, lookupAttribute) and incubating/constraint.go
// (distinctAttributeConstraint); with DRAListTypeAttributes the experimental variant's list
// semantics (below).
import type { Device, DeviceAttribute } from "@kubesched/api";
import { parseSemver, type Semver } from "../cel/semver";

/**
 * A constraint is told about every device about to be allocated (`add`, false when it would be
 * violated) and about every device given up again (`remove`, exactly once per successful add,
 * with the same arguments). Constraints are monotonic: once violated, more devices cannot help.
 */
export interface Constraint {
  add(requestName: string, subRequestName: string, device: Device, driver: string): boolean;
  remove(requestName: string, subRequestName: string, device: Device, driver: string): void;
  /** Whether the constraint concerns the devices of the request (or subrequest). */
  applies(requestName: string, subRequestName: string): boolean;
}

/** A device's attribute by fully qualified name; the driver is the domain of names without one. */
export function lookupAttribute(
  device: Device,
  driver: string,
  attributeName: string,
): DeviceAttribute | undefined {
  const attributes = device.attributes;
  if (attributes === undefined) return undefined;
  const exact = attributes[attributeName];
  if (exact !== undefined) return exact;
  const index = attributeName.indexOf("/");
  if (index < 0) return undefined;
  if (attributeName.slice(0, index) !== driver) return undefined;
  return attributes[attributeName.slice(index + 1)];
}

/**
 * A value of no known scalar type (also a list value while DRAListTypeAttributes is off) fails
 * the allocation, as upstream's attribute lookup does.
 */
function checkScalar(attribute: DeviceAttribute, attributeName: string): void {
  if (attributeValue(attribute) === undefined) {
    throw new Error(`attribute ${attributeName}: unsupported attribute value`);
  }
}

function appliesTo(requestNames: ReadonlySet<string>, requestName: string, subRequestName: string): boolean {
  if (requestNames.size === 0) return true;
  if (subRequestName === "") return requestNames.has(requestName);
  return requestNames.has(requestName) || requestNames.has(`${requestName}/${subRequestName}`);
}

/**
 * A constraint over one attribute of the devices of some requests (all when none are named):
 * devices of other requests pass, a device without the attribute fails; the subclass compares.
 */
abstract class AttributeConstraint implements Constraint {
  constructor(
    private readonly requestNames: ReadonlySet<string>,
    protected readonly attributeName: string,
  ) {}

  add(requestName: string, subRequestName: string, device: Device, driver: string): boolean {
    if (!appliesTo(this.requestNames, requestName, subRequestName)) return true;
    const attribute = lookupAttribute(device, driver, this.attributeName);
    if (attribute === undefined) return false;
    return this.addAttribute(attribute);
  }

  remove(requestName: string, subRequestName: string): void {
    if (!appliesTo(this.requestNames, requestName, subRequestName)) return;
    this.removeAttribute();
  }

  applies(requestName: string, subRequestName: string): boolean {
    return appliesTo(this.requestNames, requestName, subRequestName);
  }

  /** The fully qualified attribute name the constraint compares. */
  get attribute(): string {
    return this.attributeName;
  }

  /** Takes the next device's attribute; false when the constraint would be violated. */
  protected abstract addAttribute(attribute: DeviceAttribute): boolean;
  /** Gives up the attribute taken last. */
  protected abstract removeAttribute(): void;
}

/** All devices must have the attribute with the same value (upstream matchAttributeConstraint). */
export class MatchAttributeConstraint extends AttributeConstraint {
  #attribute: DeviceAttribute | undefined;
  #numDevices = 0;

  protected addAttribute(attribute: DeviceAttribute): boolean {
    checkScalar(attribute, this.attributeName);
    if (this.#numDevices === 0) {
      // The first device can always get picked.
      this.#attribute = attribute;
      this.#numDevices = 1;
      return true;
    }
    const first = this.#attribute as DeviceAttribute;
    if (attribute.string !== undefined) {
      if (first.string === undefined || attribute.string !== first.string) return false;
    } else if (attribute.int !== undefined) {
      if (first.int === undefined || attribute.int !== first.int) return false;
    } else if (attribute.bool !== undefined) {
      if (first.bool === undefined || attribute.bool !== first.bool) return false;
    } else {
      // A version (checkScalar accepts no other type). semver 2.0.0 versions are minimal (no
      // leading zeros): equal versions are equal strings.
      if (first.version === undefined || attribute.version !== first.version) return false;
    }
    this.#numDevices++;
    return true;
  }

  protected removeAttribute(): void {
    this.#numDevices--;
  }
}

type AttributeValue = string | number | boolean | Semver;

/** The scalar value of an attribute as upstream's Attributes.Lookup gives it, or undefined. */
function attributeValue(attribute: DeviceAttribute): AttributeValue | undefined {
  if (attribute.string !== undefined) return attribute.string;
  if (attribute.int !== undefined) return attribute.int;
  if (attribute.bool !== undefined) return attribute.bool;
  if (attribute.version !== undefined) return parseSemver(attribute.version);
  return undefined;
}

/** All devices must have the attribute, each with a different value (upstream distinctAttributeConstraint). */
export class DistinctAttributeConstraint extends AttributeConstraint {
  readonly #attributes: AttributeValue[] = [];

  protected addAttribute(attribute: DeviceAttribute): boolean {
    checkScalar(attribute, this.attributeName);
    const value = attributeValue(attribute) as AttributeValue;
    if (!this.#matchesAttribute(value)) return false;
    this.#attributes.push(value);
    return true;
  }

  protected removeAttribute(): void {
    this.#attributes.pop();
  }

  /** As upstream: a value of another type than the first compared one counts as distinct. */
  #matchesAttribute(candidate: AttributeValue): boolean {
    for (const existing of this.#attributes) {
      if (typeof existing === "object") {
        if (typeof candidate !== "object") return true;
        if (existing.compare(candidate) === 0) return false;
        continue;
      }
      if (typeof candidate !== typeof existing) return true;
      if (existing === candidate) return false;
    }
    return true;
  }
}

// DRAListTypeAttributes (KEP-5491, alpha from 1.36): an attribute may hold a list (`ints`,
// `bools`, `strings`, `versions`); a scalar counts as a list of one value. upstream:
// structured/internal/experimental/constraint.go (kubernetes/kubernetes 121460de, the
// "Pairwise Disjoint" distinctAttribute) and the list cases of allocator_testing.go (008b3652).
// Values are compared within one type; versions as strings (semver 2.0.0 versions are minimal).

export enum ValueKind {
  Int = 1,
  Bool = 2,
  String = 3,
  Version = 4,
}

type ListValue = number | boolean | string;

/** The value type of an attribute; throws for an empty list or an attribute without a value. */
function valueKind(attribute: DeviceAttribute, attributeName: string): ValueKind {
  if (attribute.int !== undefined) return ValueKind.Int;
  if (attribute.bool !== undefined) return ValueKind.Bool;
  if (attribute.string !== undefined) return ValueKind.String;
  if (attribute.version !== undefined) return ValueKind.Version;
  const list = attribute.ints ?? attribute.bools ?? attribute.strings ?? attribute.versions;
  if (list !== undefined && list.length > 0) {
    if (attribute.ints !== undefined) return ValueKind.Int;
    if (attribute.bools !== undefined) return ValueKind.Bool;
    return attribute.strings !== undefined ? ValueKind.String : ValueKind.Version;
  }
  throw new Error(`attribute ${attributeName}: unsupported attribute value`);
}

/** The list of a list attribute of that kind, undefined for a scalar. */
function listOf(attribute: DeviceAttribute, kind: ValueKind): readonly ListValue[] | undefined {
  switch (kind) {
    case ValueKind.Int:
      return attribute.ints;
    case ValueKind.Bool:
      return attribute.bools;
    case ValueKind.String:
      return attribute.strings;
    default:
      return attribute.versions;
  }
}

/** The scalar value of a scalar attribute of that kind. */
function scalarOf(attribute: DeviceAttribute, kind: ValueKind): ListValue {
  switch (kind) {
    case ValueKind.Int:
      return attribute.int as number;
    case ValueKind.Bool:
      return attribute.bool as boolean;
    case ValueKind.String:
      return attribute.string as string;
    default:
      return attribute.version as string;
  }
}

/**
 * Numbers attribute values so that two attributes' values are compared as sorted integer arrays:
 * each distinct value of a kind gets an ID when first seen, and each list (or scalar attribute)
 * object's values are kept as sorted, distinct IDs. One is shared by the allocators given the same
 * PoolCache (renewed between allocators once it holds many values), so a device's list is
 * numbered once, not per node and pod.
 */
export class AttributeValueIDs {
  readonly #ids = new Map<ValueKind, Map<ListValue, number>>();
  readonly #lists = new WeakMap<object, Int32Array>();
  #next = 0;

  /** How many values have an ID. */
  get size(): number {
    return this.#next;
  }

  /** The attribute's values (a list, or a scalar as a list of one) as sorted, distinct IDs. */
  of(attribute: DeviceAttribute, kind: ValueKind): Int32Array {
    const list = listOf(attribute, kind);
    const key: object = list ?? attribute;
    let ids = this.#lists.get(key);
    if (ids !== undefined) return ids;
    let byValue = this.#ids.get(kind);
    if (byValue === undefined) {
      byValue = new Map();
      this.#ids.set(kind, byValue);
    }
    const unique = new Set<number>();
    for (const value of list ?? [scalarOf(attribute, kind)]) {
      let id = byValue.get(value);
      if (id === undefined) {
        id = this.#next++;
        byValue.set(value, id);
      }
      unique.add(id);
    }
    ids = Int32Array.from(unique).sort();
    this.#lists.set(key, ids);
    return ids;
  }
}

/**
 * Which of a node's candidate devices hold each value of one attribute (kubesched's own, to skip
 * devices a list matchAttribute constraint would reject): candidate indices per value ID, and the
 * candidates whose attribute has no value of a known type (the constraint raises an error for
 * them, so they are never skipped). Kept per node while its candidates and the numbering last.
 */
export interface AttributeIndex {
  readonly valueIDs: AttributeValueIDs;
  /** The value IDs held by some candidate, ascending; `holders[offsets[i]..offsets[i+1]]` hold ids[i]. */
  readonly ids: Int32Array;
  readonly offsets: Int32Array;
  /** Candidate indices, ascending per value. */
  readonly holders: Int32Array;
  readonly failing: readonly number[];
  /** The candidates sharing a value with a values array (per array object), ascending. */
  readonly sharing: WeakMap<Int32Array, Int32Array>;
  /** Whether some candidate consumes counters (allocating it can change state before a constraint rejects it). */
  readonly consumesCounters: boolean;
}

/** The index of `attributeName` over the candidates, in candidate order. */
export function buildAttributeIndex(
  candidates: readonly { readonly device: Device; readonly pool: { readonly driver: string } }[],
  attributeName: string,
  valueIDs: AttributeValueIDs,
): AttributeIndex {
  // (value ID, candidate) pairs, candidates ascending per value once sorted by ID (stable sort).
  const pairIDs: number[] = [];
  const pairCandidates: number[] = [];
  const failing: number[] = [];
  let consumesCounters = false;
  for (let c = 0; c < candidates.length; c++) {
    const { device, pool } = candidates[c]!;
    if ((device.consumesCounters?.length ?? 0) > 0) consumesCounters = true;
    const attribute = lookupAttribute(device, pool.driver, attributeName);
    if (attribute === undefined) continue;
    let kind: ValueKind;
    try {
      kind = valueKind(attribute, attributeName);
    } catch {
      failing.push(c);
      continue;
    }
    for (const id of valueIDs.of(attribute, kind)) {
      pairIDs.push(id);
      pairCandidates.push(c);
    }
  }
  const order = Array.from(pairIDs.keys()).sort((a, b) => pairIDs[a]! - pairIDs[b]! || a - b);
  const ids: number[] = [];
  const offsets: number[] = [];
  const holders = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const id = pairIDs[order[i]!]!;
    if (ids.length === 0 || ids[ids.length - 1] !== id) {
      ids.push(id);
      offsets.push(i);
    }
    holders[i] = pairCandidates[order[i]!]!;
  }
  offsets.push(order.length);
  return {
    valueIDs,
    ids: Int32Array.from(ids),
    offsets: Int32Array.from(offsets),
    holders,
    failing,
    consumesCounters,
    sharing: new WeakMap(),
  };
}

/** The first position in the ascending array whose value is at least `value`. */
function lowerBound(array: Int32Array, value: number): number {
  let lo = 0;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (array[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The candidates holding the value ID, ascending. */
function holdersOf(index: AttributeIndex, id: number): Int32Array {
  const lo = lowerBound(index.ids, id);
  if (lo === index.ids.length || index.ids[lo] !== id) return noCandidates;
  return index.holders.subarray(index.offsets[lo]!, index.offsets[lo + 1]!);
}

const noCandidates = new Int32Array(0);

/** Whether two sorted ID arrays share a value. */
function idsIntersect(a: Int32Array, b: Int32Array): boolean {
  if (a.length === 0 || b.length === 0) return false;
  if (a[a.length - 1]! < b[0]! || b[b.length - 1]! < a[0]!) return false;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) return true;
    if (x < y) i++;
    else j++;
  }
  return false;
}

/** The IDs two sorted ID arrays share (the first array itself when it is the answer). */
function idsIntersection(a: Int32Array, b: Int32Array): Int32Array {
  if (!idsIntersect(a, b)) return emptyIDs;
  const common = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      common[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n === a.length ? a : common.subarray(0, n);
}

const emptyIDs = new Int32Array(0);

/**
 * matchAttribute with DRAListTypeAttributes: the values all devices have in common must not be
 * empty (a scalar counts as a list of one value; values of different types have none in common).
 */
export class MatchListAttributeConstraint extends AttributeConstraint {
  /** The value IDs common to the first 1..n devices, one entry per device added. */
  readonly #common: Int32Array[] = [];
  #kind: ValueKind = ValueKind.Int;
  readonly #valueIDs: AttributeValueIDs;

  constructor(requestNames: ReadonlySet<string>, attributeName: string, valueIDs: AttributeValueIDs) {
    super(requestNames, attributeName);
    this.#valueIDs = valueIDs;
  }

  protected addAttribute(attribute: DeviceAttribute): boolean {
    const kind = valueKind(attribute, this.attributeName);
    const depth = this.#common.length;
    if (depth === 0) {
      // The first device can always get picked.
      this.#kind = kind;
      this.#common.push(this.#valueIDs.of(attribute, kind));
      return true;
    }
    if (kind !== this.#kind) return false;
    const common = idsIntersection(this.#common[depth - 1] as Int32Array, this.#valueIDs.of(attribute, kind));
    if (common.length === 0) return false;
    this.#common.push(common);
    return true;
  }

  protected removeAttribute(): void {
    this.#common.pop();
  }

  /**
   * The candidates from `start` on, ascending, that the constraint would not reject now: those
   * sharing a value with what the devices added so far have in common, and those whose
   * attribute raises an error. Undefined before the first device (any device can be first).
   */
  candidatesFrom(index: AttributeIndex, start: number): Int32Array | undefined {
    const common = this.#common[this.#common.length - 1];
    if (common === undefined) return undefined;
    const all = candidatesSharing(index, common);
    const from = lowerBound(all, start);
    return from === 0 ? all : all.subarray(from);
  }
}

/** The candidates holding one of the values, or failing with an error, ascending (kept per values array). */
function candidatesSharing(index: AttributeIndex, ids: Int32Array): Int32Array {
  if (ids.length === 1 && index.failing.length === 0) return holdersOf(index, ids[0]!);
  const kept = index.sharing.get(ids);
  if (kept !== undefined) return kept;
  const found: number[] = [...index.failing];
  for (const id of ids) for (const c of holdersOf(index, id)) found.push(c);
  const sorted = Int32Array.from(found).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  const result = sorted.subarray(0, n);
  index.sharing.set(ids, result);
  return result;
}

/**
 * distinctAttribute with DRAListTypeAttributes: the devices' values are pairwise disjoint (a
 * scalar counts as a list of one value; values of different types are disjoint).
 */
export class DistinctListAttributeConstraint extends AttributeConstraint {
  readonly #ids: Int32Array[] = [];
  readonly #kinds: ValueKind[] = [];
  readonly #valueIDs: AttributeValueIDs;

  constructor(requestNames: ReadonlySet<string>, attributeName: string, valueIDs: AttributeValueIDs) {
    super(requestNames, attributeName);
    this.#valueIDs = valueIDs;
  }

  protected addAttribute(attribute: DeviceAttribute): boolean {
    const kind = valueKind(attribute, this.attributeName);
    const ids = this.#valueIDs.of(attribute, kind);
    for (let i = 0; i < this.#ids.length; i++) {
      if (this.#kinds[i] === kind && idsIntersect(this.#ids[i] as Int32Array, ids)) return false;
    }
    this.#ids.push(ids);
    this.#kinds.push(kind);
    return true;
  }

  protected removeAttribute(): void {
    this.#ids.pop();
    this.#kinds.pop();
  }
}
