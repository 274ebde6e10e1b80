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

enum ValueKind {
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

/** Lists longer than this are looked up through a Set kept per list (same SameValueZero as includes). */
const setLookupMinLength = 8;
const listSets = new WeakMap<readonly ListValue[], ReadonlySet<ListValue>>();

/** Whether the list holds the value: a linear scan for short lists, a Set kept per list otherwise. */
function listHolds(list: readonly ListValue[], value: ListValue): boolean {
  if (list.length < setLookupMinLength) return list.includes(value);
  let set = listSets.get(list);
  if (set === undefined) {
    set = new Set(list);
    listSets.set(list, set);
  }
  return set.has(value);
}

/** Whether the attribute (a list, or a scalar as a list of one) holds the value. */
function holds(attribute: DeviceAttribute, kind: ValueKind, value: ListValue): boolean {
  const list = listOf(attribute, kind);
  return list === undefined ? scalarOf(attribute, kind) === value : listHolds(list, value);
}

/** Whether two attributes of the same kind have a value in common. */
function intersects(a: DeviceAttribute, b: DeviceAttribute, kind: ValueKind): boolean {
  const list = listOf(a, kind);
  if (list === undefined) return holds(b, kind, scalarOf(a, kind));
  for (const value of list) if (holds(b, kind, value)) return true;
  return false;
}

/** A list attribute of that kind holding these values. */
function listAttribute(kind: ValueKind, values: ListValue[]): DeviceAttribute {
  switch (kind) {
    case ValueKind.Int:
      return { ints: values as number[] };
    case ValueKind.Bool:
      return { bools: values as boolean[] };
    case ValueKind.String:
      return { strings: values as string[] };
    default:
      return { versions: values as string[] };
  }
}

/**
 * The values two attributes of the same kind have in common, undefined when none. No new object
 * unless both are lists and the result is smaller than the first.
 */
function intersection(a: DeviceAttribute, b: DeviceAttribute, kind: ValueKind): DeviceAttribute | undefined {
  const list = listOf(a, kind);
  if (list === undefined) return holds(b, kind, scalarOf(a, kind)) ? a : undefined;
  if (listOf(b, kind) === undefined) return holds(a, kind, scalarOf(b, kind)) ? b : undefined;
  let common = 0;
  for (const value of list) if (holds(b, kind, value)) common++;
  if (common === 0) return undefined;
  if (common === list.length) return a;
  return listAttribute(
    kind,
    list.filter((value) => holds(b, kind, value)),
  );
}

/**
 * matchAttribute with DRAListTypeAttributes: the values all devices have in common must not be
 * empty (a scalar counts as a list of one value; values of different types have none in common).
 */
export class MatchListAttributeConstraint extends AttributeConstraint {
  /** The values common to the first 1..n devices, one entry per device added. */
  readonly #common: DeviceAttribute[] = [];
  #kind: ValueKind = ValueKind.Int;

  protected addAttribute(attribute: DeviceAttribute): boolean {
    const kind = valueKind(attribute, this.attributeName);
    const depth = this.#common.length;
    if (depth === 0) {
      // The first device can always get picked.
      this.#kind = kind;
      this.#common.push(attribute);
      return true;
    }
    if (kind !== this.#kind) return false;
    const common = intersection(this.#common[depth - 1] as DeviceAttribute, attribute, kind);
    if (common === undefined) return false;
    this.#common.push(common);
    return true;
  }

  protected removeAttribute(): void {
    this.#common.pop();
  }
}

/**
 * distinctAttribute with DRAListTypeAttributes: the devices' values are pairwise disjoint (a
 * scalar counts as a list of one value; values of different types are disjoint).
 */
export class DistinctListAttributeConstraint extends AttributeConstraint {
  readonly #attributes: DeviceAttribute[] = [];
  readonly #kinds: ValueKind[] = [];

  protected addAttribute(attribute: DeviceAttribute): boolean {
    const kind = valueKind(attribute, this.attributeName);
    for (let i = 0; i < this.#attributes.length; i++) {
      if (this.#kinds[i] === kind && intersects(this.#attributes[i] as DeviceAttribute, attribute, kind)) {
        return false;
      }
    }
    this.#attributes.push(attribute);
    this.#kinds.push(kind);
    return true;
  }

  protected removeAttribute(): void {
    this.#attributes.pop();
    this.#kinds.pop();
  }
}
