// Claim constraints across the devices of several requests. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/allocator_incubating.go
// (matchAttributeConstraint, lookupAttribute) and incubating/constraint.go
// (distinctAttributeConstraint).
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
 * The attribute a constraint compares, undefined when the device lacks it. A value of no known
 * type (also a list value: DRAListTypeAttributes is not supported here) fails the allocation,
 * as upstream's attribute lookup does.
 */
function constrainedAttribute(
  device: Device,
  driver: string,
  attributeName: string,
): DeviceAttribute | undefined {
  const attribute = lookupAttribute(device, driver, attributeName);
  if (attribute !== undefined && attributeValue(attribute) === undefined) {
    throw new Error(`attribute ${attributeName}: unsupported attribute value`);
  }
  return attribute;
}

function appliesTo(requestNames: ReadonlySet<string>, requestName: string, subRequestName: string): boolean {
  if (requestNames.size === 0) return true;
  if (subRequestName === "") return requestNames.has(requestName);
  return requestNames.has(requestName) || requestNames.has(`${requestName}/${subRequestName}`);
}

/** All devices must have the attribute with the same value (upstream matchAttributeConstraint). */
export class MatchAttributeConstraint implements Constraint {
  #attribute: DeviceAttribute | undefined;
  #numDevices = 0;

  constructor(
    private readonly requestNames: ReadonlySet<string>,
    private readonly attributeName: string,
  ) {}

  add(requestName: string, subRequestName: string, device: Device, driver: string): boolean {
    if (!appliesTo(this.requestNames, requestName, subRequestName)) return true;
    const attribute = constrainedAttribute(device, driver, this.attributeName);
    if (attribute === undefined) return false;
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
      // A version (constrainedAttribute accepts no other type). semver 2.0.0 versions are
      // minimal (no leading zeros): equal versions are equal strings.
      if (first.version === undefined || attribute.version !== first.version) return false;
    }
    this.#numDevices++;
    return true;
  }

  remove(requestName: string, subRequestName: string): void {
    if (!appliesTo(this.requestNames, requestName, subRequestName)) return;
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
export class DistinctAttributeConstraint implements Constraint {
  readonly #attributes: AttributeValue[] = [];

  constructor(
    private readonly requestNames: ReadonlySet<string>,
    private readonly attributeName: string,
  ) {}

  add(requestName: string, subRequestName: string, device: Device, driver: string): boolean {
    if (!appliesTo(this.requestNames, requestName, subRequestName)) return true;
    const attribute = constrainedAttribute(device, driver, this.attributeName);
    if (attribute === undefined) return false;
    const value = attributeValue(attribute) as AttributeValue;
    if (!this.#matchesAttribute(value)) return false;
    this.#attributes.push(value);
    return true;
  }

  remove(requestName: string, subRequestName: string): void {
    if (!appliesTo(this.requestNames, requestName, subRequestName)) return;
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
