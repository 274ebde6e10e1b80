// A deep copy of API objects (plain data: objects, arrays, strings, numbers, booleans), as
// structuredClone makes it, without its serialization: the plugin copies claims several times
// per scheduled pod (Reserve, PreBind), where structuredClone was ~5 % of a DRA workload's CPU
// profile (bench ExtendedResource_25Classes). Values that are not plain data (class instances,
// Dates, Maps) are copied by structuredClone.

/** A deep copy of `value`; objects become unfrozen plain objects. */
export function copyAPIObject<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) out[key] = copy((value as Record<string, unknown>)[key]);
  }
  return out;
}
