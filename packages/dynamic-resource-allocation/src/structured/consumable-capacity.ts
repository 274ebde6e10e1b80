// Consumable capacity of devices that allow multiple allocations (DRAConsumableCapacity).
// upstream: staging/src/k8s.io/dynamic-resource-allocation/structured/internal/incubating/consumable_capacity.go
// (0c8a1b07, integer arithmetic); the milli-unit ranges of DRAFractionalCapacityRange (beta in
// 1.37, off by default) as the newest stored incubating/consumable_capacity.go has them (useMilli,
// safeMilliValue, the milli paths of roundUpRange and violateValidRange). A request, or the value it
// rounds up to, that the range arithmetic cannot represent (past MaxInt64 on the integer path,
// past the milli-value range on the fractional path) and a negative consumed value abort the
// allocation instead of skipping the device, as kubernetes/kubernetes#140441 made it (the newest
// stored incubating/consumable_capacity.go, errCapacityRequestNotRepresentable and
// errNegativeCapacity, with its consumable_capacity_test.go).
import type {
  CapacityRequestPolicy,
  CapacityRequestPolicyRange,
  CapacityRequirements,
  Device,
} from "@kubesched/api";
import { Quantity } from "@kubesched/api";
import type { ConsumedCapacity } from "./types";

const parsed = new Map<string, Quantity>();

/** A quantity string parsed once (capacities repeat across devices). */
export function quantity(value: string): Quantity {
  let q = parsed.get(value);
  if (q === undefined) {
    q = Quantity.parse(value);
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(value, q);
  }
  return q;
}

/**
 * The device capacity a request names: the exact key, or the same identifier with or without
 * the driver as domain (upstream resolveCapacityName). Undefined when the device has none.
 */
function resolveCapacityName(
  requestName: string,
  driver: string,
  capacity: NonNullable<Device["capacity"]>,
): string | undefined {
  if (capacity[requestName] !== undefined) return requestName;
  const sep = requestName.indexOf("/");
  if (sep >= 0) {
    if (requestName.slice(0, sep) !== driver) return undefined;
    const id = requestName.slice(sep + 1);
    return capacity[id] !== undefined ? id : undefined;
  }
  const qualified = `${driver}/${requestName}`;
  return capacity[qualified] !== undefined ? qualified : undefined;
}

/**
 * The requested amounts by the device's capacity name, or undefined when the device lacks a
 * requested capacity (then it does not satisfy the request). Throws when one capacity is
 * requested under two spellings.
 */
function resolveCapacityRequests(
  requests: CapacityRequirements | undefined,
  driver: string,
  device: Device,
): Map<string, Quantity> | undefined {
  const resolved = new Map<string, Quantity>();
  if (requests?.requests === undefined) return resolved;
  const capacity = device.capacity ?? {};
  for (const [name, value] of Object.entries(requests.requests)) {
    const key = resolveCapacityName(name, driver, capacity);
    if (key === undefined) return undefined;
    if (resolved.has(key)) {
      const id = key.includes("/") ? key.slice(key.indexOf("/") + 1) : key;
      throw new Error(`capacity "${id}" requested both as "${name}" and another spelling`);
    }
    resolved.set(key, quantity(value));
  }
  return resolved;
}

const maxInt64 = (1n << 63n) - 1n;

/**
 * A capacity request the allocation cannot go on with (upstream errCapacityRequestNotRepresentable
 * and errNegativeCapacity, kubernetes/kubernetes#140441): the allocator aborts instead of trying
 * another device, so that a user-controlled request cannot drive a device-by-device search.
 */
export class CapacityRequestError extends Error {
  override readonly name = "CapacityRequestError";
}

/** upstream errCapacityRequestNotRepresentable */
const notRepresentable = "capacity request cannot be represented in the device's range arithmetic";
/** upstream errNegativeCapacity */
const negativeCapacity = "capacity value is negative";

/** q in milli units when that is exact and fits an int64 (upstream safeMilliValue), else undefined. */
export function safeMilliValue(q: Quantity): bigint | undefined {
  const milli = q.milliValueBig();
  if (milli > maxInt64 || milli < -maxInt64 - 1n) return undefined;
  return Quantity.of(milli, -3).cmp(q) === 0 ? milli : undefined;
}

/**
 * Whether a range is computed in milli units (upstream useMilli): DRAFractionalCapacityRange on,
 * each of min, max and step exact in milli units, and step at least 1m.
 */
export function useMilli(range: CapacityRequestPolicyRange, fractional: boolean): boolean {
  if (!fractional) return false;
  for (const value of [range.min, range.max, range.step]) {
    if (value !== undefined && safeMilliValue(quantity(value)) === undefined) return false;
  }
  return range.step === undefined || (safeMilliValue(quantity(range.step)) ?? 0n) >= 1n;
}

function roundUpRange(requested: Quantity, range: CapacityRequestPolicyRange, fractional: boolean): Quantity {
  const min = quantity(range.min!);
  if (requested.cmp(min) < 0) return min;
  if (range.step === undefined) return requested;
  if (useMilli(range, fractional)) {
    const requestedMilli = safeMilliValue(requested);
    if (requestedMilli === undefined) {
      throw new CapacityRequestError(
        `${notRepresentable}: request ${requested.toString()} is not a representable milli value`,
      );
    }
    const step = quantity(range.step);
    const stepMilli = step.milliValueBig();
    const minMilli = min.milliValueBig();
    const added = requestedMilli - minMilli;
    let n = added / stepMilli;
    if (added % stepMilli !== 0n) n++;
    if (n > (maxInt64 - minMilli) / stepMilli) {
      throw new CapacityRequestError(
        `${notRepresentable}: rounding request ${requested.toString()} up to the next step passes the milli-value range`,
      );
    }
    const valMilli = minMilli + stepMilli * n;
    // As upstream: a whole number keeps the compact form, else milli units; the step's format.
    return valMilli % 1000n === 0n
      ? Quantity.of(valMilli / 1000n, 0, step.format)
      : Quantity.of(valMilli, -3, step.format);
  }
  // A request above MaxInt64 cannot be read as an int64 (upstream Value() would wrap).
  if (requested.cmp(Quantity.of(maxInt64)) > 0) {
    throw new CapacityRequestError(`${notRepresentable}: request ${requested.toString()} exceeds MaxInt64`);
  }
  const requestedInt = requested.valueBig();
  const stepQuantity = quantity(range.step);
  const step = stepQuantity.valueBig();
  const minInt = min.valueBig();
  const added = requestedInt - minInt;
  let n = added / step;
  if (added % step !== 0n) n++;
  // The rounded value would pass MaxInt64 (upstream guards only a non-negative min).
  if (minInt >= 0n && n > (maxInt64 - minInt) / step) {
    throw new CapacityRequestError(
      `${notRepresentable}: rounding request ${requested.toString()} up to the next step passes MaxInt64`,
    );
  }
  return Quantity.of(minInt + step * n, 0, stepQuantity.format);
}

function roundUpValidValues(requested: Quantity, validValues: readonly string[]): Quantity {
  for (const value of validValues) {
    const q = quantity(value);
    if (requested.cmp(q) <= 0) return q;
  }
  return requested;
}

/**
 * What one allocation consumes of one capacity (upstream calculateConsumedCapacity). Throws a
 * CapacityRequestError when the request cannot be represented in the range's arithmetic.
 */
export function consumedQuantity(
  requested: Quantity | undefined,
  total: Quantity,
  policy: CapacityRequestPolicy | undefined,
  fractional: boolean,
): Quantity {
  if (requested === undefined) return policy?.default !== undefined ? quantity(policy.default) : total;
  if (policy === undefined) return requested;
  if (policy.validRange?.min !== undefined) return roundUpRange(requested, policy.validRange, fractional);
  if (policy.validValues !== undefined) return roundUpValidValues(requested, policy.validValues);
  return requested;
}

export function violatesPolicy(
  value: Quantity,
  policy: CapacityRequestPolicy | undefined,
  fractional: boolean,
): boolean {
  if (policy === undefined) return false;
  if (policy.default !== undefined && value.cmp(quantity(policy.default)) === 0) return false;
  if (policy.validRange !== undefined) {
    const range = policy.validRange;
    if (range.max !== undefined && value.cmp(quantity(range.max)) > 0) return true;
    if (range.step !== undefined && useMilli(range, fractional)) {
      const requested = safeMilliValue(value);
      if (requested === undefined) return true;
      const min = range.min !== undefined ? quantity(range.min).milliValueBig() : 0n;
      return (requested - min) % quantity(range.step).milliValueBig() !== 0n;
    }
    if (range.step !== undefined) {
      const min = range.min !== undefined ? quantity(range.min).valueBig() : 0n;
      if ((value.valueBig() - min) % quantity(range.step).valueBig() !== 0n) return true;
    }
    return false;
  }
  if ((policy.validValues?.length ?? 0) > 0)
    return !policy.validValues!.some((v) => value.cmp(quantity(v)) === 0);
  return false;
}

/**
 * What the request consumes of each of the device's capacities, or undefined when the device
 * cannot serve it: a requested capacity it lacks, a value against its request policy, or more
 * than remains after the allocated and the allocating shares (upstream CmpRequestOverCapacity
 * and GetConsumedCapacityFromRequest). Keys are the device's capacity names. `fractional`:
 * DRAFractionalCapacityRange (ranges in milli units). Throws a CapacityRequestError (`capacity
 * "<name>": …`) when a request cannot be represented or a consumed value is negative: every
 * capacity is resolved before the soft checks, so that error wins over a soft mismatch whatever
 * the order of the capacities (upstream testCmpRequestOverCapacityFatalBeatsSoft).
 */
export function consumeCapacity(
  requests: CapacityRequirements | undefined,
  driver: string,
  device: Device,
  allocated: ConsumedCapacity | undefined,
  allocating: ConsumedCapacity | undefined,
  fractional = false,
): Map<string, Quantity> | undefined {
  const resolved = resolveCapacityRequests(requests, driver, device);
  if (resolved === undefined) return undefined;
  const consumed = new Map<string, Quantity>();
  for (const [name, cap] of Object.entries(device.capacity ?? {})) {
    let value: Quantity;
    try {
      value = consumedQuantity(resolved.get(name), quantity(cap.value), cap.requestPolicy, fractional);
    } catch (error) {
      if (error instanceof CapacityRequestError)
        throw new CapacityRequestError(`capacity "${name}": ${error.message}`);
      throw error;
    }
    if (value.sign() < 0) throw new CapacityRequestError(`capacity "${name}": ${negativeCapacity}`);
    consumed.set(name, value);
  }
  for (const [name, cap] of Object.entries(device.capacity ?? {})) {
    const value = consumed.get(name)!;
    if (violatesPolicy(value, cap.requestPolicy, fractional)) return undefined;
    let total = value;
    const before = allocated?.get(name);
    if (before !== undefined) total = total.add(before);
    const pending = allocating?.get(name);
    if (pending !== undefined) total = total.add(pending);
    if (total.cmp(quantity(cap.value)) > 0) return undefined;
  }
  return consumed;
}

/** Adds (sign 1) or removes (sign -1) consumed capacity from a running total. */
export function addConsumed(
  total: Map<string, Quantity>,
  consumed: ReadonlyMap<string, Quantity>,
  sign: 1 | -1,
): void {
  for (const [name, value] of consumed) {
    const current = total.get(name);
    if (sign === 1) total.set(name, current === undefined ? value : current.add(value));
    else if (current !== undefined) total.set(name, current.sub(value));
  }
}

/**
 * A share ID in UID form, derived from its inputs so that the same run gives the same IDs
 * (upstream generates a random UID).
 */
export function shareID(...parts: string[]): string {
  // Two FNV-1a 64-bit hashes with different offsets: 128 bits. Each 64-bit state is two 32-bit
  // halves; the FNV prime is 2^40 + 0x1b3.
  let hi1 = 0xcbf29ce4;
  let lo1 = 0x84222325;
  let hi2 = 0x84222325;
  let lo2 = 0xcbf29ce4;
  const text = parts.join("\u0000");
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    lo1 = (lo1 ^ c) >>> 0;
    const p1 = lo1 * 0x1b3;
    hi1 = (Math.imul(hi1, 0x1b3) + Math.floor(p1 / 0x100000000) + (lo1 << 8)) >>> 0;
    lo1 = p1 >>> 0;
    lo2 = (lo2 ^ (c + 1)) >>> 0;
    const p2 = lo2 * 0x1b3;
    hi2 = (Math.imul(hi2, 0x1b3) + Math.floor(p2 / 0x100000000) + (lo2 << 8)) >>> 0;
    lo2 = p2 >>> 0;
  }
  const hex = hex32(hi1) + hex32(lo1) + hex32(hi2) + hex32(lo2);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function hex32(v: number): string {
  return v.toString(16).padStart(8, "0");
}
