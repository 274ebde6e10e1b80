// Checks resource.k8s.io/v1 objects of a snapshot as the API server would before storing them,
// for the fields the allocator reads, and what a snapshot can check across objects (a claim's
// DeviceClass). upstream (kubernetes/kubernetes 0226316d6a24, 1.37):
// pkg/apis/resource/validation/validation.go (ValidateResourceSlice, ValidateResourceClaim,
// ValidateDeviceClass, ValidateDeviceTaintRule). Each problem is one line `WHERE: FIELD: WHAT`.
import { isJsonObject, Quantity } from "@kubesched/api";
import type { Problems } from "./object-validation";

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** upstream validateAllocationMode / DeviceAllocationMode values. */
const allocationModes = ["ExactCount", "All"];

function quantity(v: unknown, field: string, where: string, errors: string[]): void {
  if (typeof v !== "string") {
    errors.push(`${where}: ${field}: Required value`);
    return;
  }
  try {
    Quantity.parse(v);
  } catch (e) {
    errors.push(`${where}: ${field}: ${(e as Error).message}`);
  }
}

/** A list of named entries: each name set, none twice (`Duplicate value`). */
function uniqueNames(items: unknown[], field: string, where: string, errors: string[]): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const name = isJsonObject(item) ? item.name : undefined;
    if (typeof name !== "string" || name === "") {
      errors.push(`${where}: ${field}[${i}].name: Required value`);
    } else if (seen.has(name)) {
      errors.push(`${where}: ${field}[${i}].name: Duplicate value: ${JSON.stringify(name)}`);
    } else seen.add(name);
  });
}

function selectors(v: unknown, field: string, where: string, errors: string[]): void {
  list(v).forEach((s, i) => {
    const expr = isJsonObject(s) && isJsonObject(s.cel) ? s.cel.expression : undefined;
    if (typeof expr !== "string" || expr === "")
      errors.push(`${where}: ${field}[${i}].cel.expression: Required value`);
  });
}

/** An exactly request or a firstAvailable subrequest: class, mode and count. */
function exactRequest(r: Json, field: string, where: string, errors: string[]): void {
  if (typeof r.deviceClassName !== "string" || r.deviceClassName === "") {
    errors.push(`${where}: ${field}.deviceClassName: Required value`);
  }
  selectors(r.selectors, `${field}.selectors`, where, errors);
  const mode = r.allocationMode;
  if (!allocationModes.includes(mode as string)) {
    errors.push(
      `${where}: ${field}.allocationMode: Unsupported value: ${JSON.stringify(mode)}: supported values: "All", "ExactCount"`,
    );
  } else if (
    mode === "ExactCount" &&
    (typeof r.count !== "number" || !Number.isInteger(r.count) || r.count <= 0)
  ) {
    errors.push(
      `${where}: ${field}.count: Invalid value: ${JSON.stringify(r.count)}: must be greater than zero`,
    );
  }
}

/** A claim's (or a template's claim's) spec. */
function claimSpec(spec: unknown, path: string, where: string, errors: string[]): void {
  const devices = isJsonObject(spec) && isJsonObject(spec.devices) ? spec.devices : {};
  const requests = list(devices.requests);
  uniqueNames(requests, `${path}.devices.requests`, where, errors);
  requests.forEach((r, i) => {
    if (!isJsonObject(r)) return;
    const field = `${path}.devices.requests[${i}]`;
    const hasExactly = isJsonObject(r.exactly);
    const subs = Array.isArray(r.firstAvailable) ? r.firstAvailable : undefined;
    if (hasExactly === (subs !== undefined && subs.length > 0)) {
      errors.push(
        `${where}: ${field}: Required value: exactly one of \`exactly\` or \`firstAvailable\` is required`,
      );
      return;
    }
    if (hasExactly) exactRequest(r.exactly as Json, `${field}.exactly`, where, errors);
    else {
      uniqueNames(subs ?? [], `${field}.firstAvailable`, where, errors);
      (subs ?? []).forEach((s, j) => {
        if (isJsonObject(s)) exactRequest(s, `${field}.firstAvailable[${j}]`, where, errors);
      });
    }
  });
}

const nodeSelectionFields = ["nodeName", "nodeSelector", "allNodes", "perDeviceNodeSelection"] as const;

/** Which of the node selection fields are set (a false allNodes / perDeviceNodeSelection is unset). */
function nodeSelection(o: Json): string[] {
  return nodeSelectionFields.filter(
    (f) => o[f] !== undefined && o[f] !== null && o[f] !== false && o[f] !== "",
  );
}

function slice(spec: Json, where: string, errors: string[]): void {
  if (typeof spec.driver !== "string" || spec.driver === "")
    errors.push(`${where}: spec.driver: Required value`);
  const pool = isJsonObject(spec.pool) ? spec.pool : {};
  if (typeof pool.name !== "string" || pool.name === "")
    errors.push(`${where}: spec.pool.name: Required value`);
  if (typeof pool.generation !== "number" || !Number.isInteger(pool.generation) || pool.generation < 0) {
    errors.push(
      `${where}: spec.pool.generation: Invalid value: ${JSON.stringify(pool.generation)}: must be greater than or equal to 0`,
    );
  }
  if (
    typeof pool.resourceSliceCount !== "number" ||
    !Number.isInteger(pool.resourceSliceCount) ||
    pool.resourceSliceCount <= 0
  ) {
    errors.push(
      `${where}: spec.pool.resourceSliceCount: Invalid value: ${JSON.stringify(pool.resourceSliceCount)}: must be greater than zero`,
    );
  }
  for (const f of ["allNodes", "perDeviceNodeSelection"] as const) {
    if (spec[f] === false)
      errors.push(`${where}: spec.${f}: Invalid value: false: must be either unset or set to true`);
  }
  const set = nodeSelection(spec);
  if (set.length === 0) {
    errors.push(
      `${where}: spec: Required value: exactly one of \`nodeName\`, \`nodeSelector\`, \`allNodes\`, \`perDeviceNodeSelection\` is required`,
    );
  } else if (set.length > 1) {
    errors.push(
      `${where}: spec: Invalid value: {${set.map((f) => `\`${f}\``).join(", ")}}: exactly one of \`nodeName\`, \`nodeSelector\`, \`allNodes\`, \`perDeviceNodeSelection\` is required, but multiple fields are set`,
    );
  }
  const devices = list(spec.devices);
  if (spec.devices !== undefined && spec.sharedCounters !== undefined) {
    errors.push(
      `${where}: spec: Invalid value: "": only one of \`sharedCounters\` or \`devices\` is allowed`,
    );
  }
  uniqueNames(devices, "spec.devices", where, errors);
  devices.forEach((d, i) => {
    if (!isJsonObject(d)) return;
    const field = `spec.devices[${i}]`;
    if (isJsonObject(d.capacity)) {
      for (const [name, c] of Object.entries(d.capacity)) {
        quantity(isJsonObject(c) ? c.value : undefined, `${field}.capacity[${name}].value`, where, errors);
      }
    }
    if (isJsonObject(d.attributes)) {
      for (const [name, a] of Object.entries(d.attributes)) {
        const n = isJsonObject(a) ? Object.values(a).filter((v) => v !== undefined && v !== null).length : 0;
        if (n !== 1)
          errors.push(
            `${where}: ${field}.attributes[${name}]: Invalid value: exactly one value must be specified`,
          );
      }
    }
    list(d.consumesCounters).forEach((c, j) => {
      const counters = isJsonObject(c) && isJsonObject(c.counters) ? c.counters : {};
      for (const [name, v] of Object.entries(counters)) {
        quantity(
          isJsonObject(v) ? v.value : undefined,
          `${field}.consumesCounters[${j}].counters[${name}].value`,
          where,
          errors,
        );
      }
    });
    nodeAllocatableResources(d, field, where, errors);
    const deviceSet = nodeSelection(d).filter((f) => f !== "perDeviceNodeSelection");
    if (spec.perDeviceNodeSelection === true && deviceSet.length !== 1) {
      errors.push(
        `${where}: ${field}: Required value: exactly one of \`nodeName\`, \`nodeSelector\`, \`allNodes\` is required when \`perDeviceNodeSelection\` is set to true in the ResourceSlice spec`,
      );
    } else if (spec.perDeviceNodeSelection !== true && deviceSet.length > 0) {
      errors.push(
        `${where}: ${field}: Invalid value: {${deviceSet.map((f) => `\`${f}\``).join(", ")}}: \`nodeName\`, \`nodeSelector\` and \`allNodes\` can only be set when \`perDeviceNodeSelection\` is set to true in the ResourceSlice spec`,
      );
    }
  });
  uniqueNames(list(spec.sharedCounters), "spec.sharedCounters", where, errors);
  list(spec.sharedCounters).forEach((s, i) => {
    const counters = isJsonObject(s) && isJsonObject(s.counters) ? s.counters : {};
    for (const [name, v] of Object.entries(counters)) {
      quantity(
        isJsonObject(v) ? v.value : undefined,
        `spec.sharedCounters[${i}].counters[${name}].value`,
        where,
        errors,
      );
    }
  });
}

/** A quantity that must parse and not be negative. */
function nonNegativeQuantity(v: unknown, field: string, where: string, errors: string[]): void {
  if (typeof v !== "string") {
    errors.push(`${where}: ${field}: Required value`);
    return;
  }
  try {
    if (Quantity.parse(v).sign() < 0)
      errors.push(
        `${where}: ${field}: Invalid value: ${JSON.stringify(v)}: must be greater than or equal to 0`,
      );
  } catch (e) {
    errors.push(`${where}: ${field}: ${(e as Error).message}`);
  }
}

/**
 * A device's `nodeAllocatableResources` (DRANodeAllocatableResources, the 1.37 shape: see
 * k8s.io/api resource/v1 NodeAllocatableResource): keys cpu, memory or hugepages-<size>; each
 * with a mapping, an overhead or both; a mapping either `deviceMultiplier` or `capacityKey` with
 * `capacityMultiplier` (a capacity of the device); quantities not negative. The rules are
 * upstream's (types' comments and declarative tags); the wording is kubesched's.
 */
function nodeAllocatableResources(d: Json, field: string, where: string, errors: string[]): void {
  if (d.nodeAllocatableResources === undefined) return;
  const base = `${field}.nodeAllocatableResources`;
  if (!isJsonObject(d.nodeAllocatableResources)) {
    errors.push(`${where}: ${base}: Invalid value: must be a map of resource name to {mapping, overhead}`);
    return;
  }
  const capacity = isJsonObject(d.capacity) ? d.capacity : {};
  for (const [name, r] of Object.entries(d.nodeAllocatableResources)) {
    const f = `${base}[${name}]`;
    if (name !== "cpu" && name !== "memory" && !/^hugepages-.+/.test(name)) {
      errors.push(
        `${where}: ${base}: Unsupported value: ${JSON.stringify(name)}: supported values: "cpu", "memory", "hugepages-<size>"`,
      );
      continue;
    }
    if (!isJsonObject(r) || (r.mapping === undefined && r.overhead === undefined)) {
      errors.push(`${where}: ${f}: Required value: at least one of \`mapping\` or \`overhead\` is required`);
      continue;
    }
    if (r.mapping !== undefined) {
      const m = isJsonObject(r.mapping) ? r.mapping : {};
      const mf = `${f}.mapping`;
      const hasKey = m.capacityKey !== undefined;
      const hasDevice = m.deviceMultiplier !== undefined;
      if (hasKey === hasDevice) {
        errors.push(
          hasKey
            ? `${where}: ${mf}: Invalid value: {\`capacityKey\`, \`deviceMultiplier\`}: exactly one of \`capacityKey\` or \`deviceMultiplier\` is required, but multiple fields are set`
            : `${where}: ${mf}: Required value: exactly one of \`capacityKey\` or \`deviceMultiplier\` is required`,
        );
      }
      if (hasKey) {
        if (typeof m.capacityKey !== "string" || m.capacityKey === "") {
          errors.push(`${where}: ${mf}.capacityKey: Required value`);
        } else if (!(m.capacityKey in capacity)) {
          errors.push(
            `${where}: ${mf}.capacityKey: Invalid value: ${JSON.stringify(m.capacityKey)}: must name a capacity of the device (${
              Object.keys(capacity).length === 0
                ? "it has none"
                : `one of ${Object.keys(capacity)
                    .map((k) => JSON.stringify(k))
                    .join(", ")}`
            })`,
          );
        }
        if (m.capacityMultiplier === undefined)
          errors.push(
            `${where}: ${mf}.capacityMultiplier: Required value: required when \`capacityKey\` is set`,
          );
      } else if (m.capacityMultiplier !== undefined) {
        errors.push(
          `${where}: ${mf}.capacityKey: Required value: required when \`capacityMultiplier\` is set`,
        );
      }
      if (m.capacityMultiplier !== undefined)
        nonNegativeQuantity(m.capacityMultiplier, `${mf}.capacityMultiplier`, where, errors);
      if (hasDevice) nonNegativeQuantity(m.deviceMultiplier, `${mf}.deviceMultiplier`, where, errors);
    }
    if (r.overhead !== undefined) {
      const o = isJsonObject(r.overhead) ? r.overhead : {};
      const of = `${f}.overhead`;
      if (o.perPod === undefined && o.perContainer === undefined) {
        errors.push(
          `${where}: ${of}: Required value: at least one of \`perPod\` or \`perContainer\` is required`,
        );
      }
      if (o.perPod !== undefined) nonNegativeQuantity(o.perPod, `${of}.perPod`, where, errors);
      if (o.perContainer !== undefined)
        nonNegativeQuantity(o.perContainer, `${of}.perContainer`, where, errors);
    }
  }
}

/** upstream validateDeviceTaint: the effects a taint may have (1.35+: None added). */
const deviceTaintEffects = ["NoSchedule", "NoExecute", "None"];

/** upstream ValidateDeviceTaintRule's spec: the selector's fields and one taint. */
function deviceTaintRule(spec: Json, where: string, errors: string[]): void {
  const selector = spec.deviceSelector;
  if (selector !== undefined && selector !== null) {
    if (!isJsonObject(selector)) errors.push(`${where}: spec.deviceSelector: must be an object`);
    else {
      for (const field of ["driver", "pool", "device"]) {
        const v = selector[field];
        if (v !== undefined && (typeof v !== "string" || v === ""))
          errors.push(
            `${where}: spec.deviceSelector.${field}: Invalid value: ${JSON.stringify(v)}: must be a non-empty string`,
          );
      }
      // v1alpha3 of 1.33–1.34 also selected by class and CEL; the API dropped both in 1.35.
      for (const field of ["deviceClassName", "selectors"]) {
        if (selector[field] !== undefined)
          errors.push(
            `${where}: spec.deviceSelector.${field}: Forbidden: not part of DeviceTaintRule since Kubernetes 1.35 (it selects by driver, pool and device)`,
          );
      }
    }
  }
  const taint = spec.taint;
  if (!isJsonObject(taint)) {
    errors.push(`${where}: spec.taint: Required value`);
    return;
  }
  if (typeof taint.key !== "string" || taint.key === "")
    errors.push(`${where}: spec.taint.key: Required value`);
  if (taint.value !== undefined && typeof taint.value !== "string")
    errors.push(
      `${where}: spec.taint.value: Invalid value: ${JSON.stringify(taint.value)}: must be a string`,
    );
  if (typeof taint.effect !== "string" || taint.effect === "")
    errors.push(`${where}: spec.taint.effect: Required value`);
  else if (!deviceTaintEffects.includes(taint.effect))
    errors.push(
      `${where}: spec.taint.effect: Unsupported value: ${JSON.stringify(taint.effect)}: supported values: ${deviceTaintEffects.map((e) => `"${e}"`).join(", ")}`,
    );
  if (
    taint.timeAdded !== undefined &&
    (typeof taint.timeAdded !== "string" || Number.isNaN(Date.parse(taint.timeAdded)))
  )
    errors.push(
      `${where}: spec.taint.timeAdded: Invalid value: ${JSON.stringify(taint.timeAdded)}: must be an RFC 3339 time`,
    );
}

/** Checks a resource.k8s.io/v1 object (converted and defaulted) of a snapshot. */
export function validateResourceObject(kind: string, obj: Json, where: string, p: Problems): void {
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  switch (kind) {
    case "ResourceSlice":
      slice(spec, where, p.errors);
      return;
    case "ResourceClaim":
      claimSpec(spec, "spec", where, p.errors);
      return;
    case "ResourceClaimTemplate":
      claimSpec(spec.spec, "spec.spec", where, p.errors);
      return;
    case "DeviceClass":
      selectors(spec.selectors, "spec.selectors", where, p.errors);
      return;
    case "DeviceTaintRule":
      deviceTaintRule(spec, where, p.errors);
      return;
  }
}

/** A claim or template and how to name it in a message. */
export interface ClaimLike {
  obj: { spec?: unknown };
  kind: string;
  /** `FILE: document N (ResourceClaim ns/name)`. */
  where: string;
}

/**
 * A warning for each request naming a DeviceClass the snapshot lacks: the API server takes such
 * a claim, but no device can be allocated for it (the pods using it stay pending).
 */
export function missingDeviceClasses(classes: ReadonlySet<string>, claims: Iterable<ClaimLike>): string[] {
  const out: string[] = [];
  for (const { obj, kind, where } of claims) {
    const root = isJsonObject(obj.spec) ? obj.spec : {};
    const spec = kind === "ResourceClaimTemplate" ? (isJsonObject(root.spec) ? root.spec : {}) : root;
    const path = kind === "ResourceClaimTemplate" ? "spec.spec" : "spec";
    const devices = isJsonObject(spec.devices) ? spec.devices : {};
    list(devices.requests).forEach((r, i) => {
      if (!isJsonObject(r)) return;
      const refs: [string, unknown][] = isJsonObject(r.exactly)
        ? [[`${path}.devices.requests[${i}].exactly.deviceClassName`, r.exactly.deviceClassName]]
        : list(r.firstAvailable).map((s, j) => [
            `${path}.devices.requests[${i}].firstAvailable[${j}].deviceClassName`,
            isJsonObject(s) ? s.deviceClassName : undefined,
          ]);
      for (const [field, name] of refs) {
        if (typeof name !== "string" || classes.has(name)) continue;
        out.push(
          `${where}: ${field}: Not found: ${JSON.stringify(name)}: no DeviceClass of this name in the snapshot; no device can be allocated for this request`,
        );
      }
    });
  }
  return out;
}

/** An object of a snapshot and how to name it in a message (`FILE: document N (Kind ns/name)`). */
export interface NamedObject {
  obj: { metadata?: { name?: string }; spec?: unknown; status?: unknown };
  kind: string;
  where: string;
}

type CompileSelector = (expression: string) => string | null;

/**
 * A warning for each CEL selector of a DeviceClass, claim or template that does not compile, as
 * the API server words it: the scheduler stops at it with an error for every pod whose claims
 * reach it (upstream: `… selector #N: CEL compile error: …`).
 */
export function uncompilableSelectors(objects: Iterable<NamedObject>, compile: CompileSelector): string[] {
  const out: string[] = [];
  const check = (selectorList: unknown, field: string, where: string) => {
    list(selectorList).forEach((s, i) => {
      const expr = isJsonObject(s) && isJsonObject(s.cel) ? s.cel.expression : undefined;
      if (typeof expr !== "string" || expr === "") return; // validateResourceObject's error
      const error = compile(expr);
      if (error !== null) {
        out.push(
          `${where}: ${field}[${i}].cel.expression: Invalid value: ${JSON.stringify(expr)}: ${error}; the scheduler fails the pods whose claims use it`,
        );
      }
    });
  };
  for (const { obj, kind, where } of objects) {
    const root = isJsonObject(obj.spec) ? obj.spec : {};
    if (kind === "DeviceClass") {
      check(root.selectors, "spec.selectors", where);
      continue;
    }
    const spec = kind === "ResourceClaimTemplate" ? (isJsonObject(root.spec) ? root.spec : {}) : root;
    const path = kind === "ResourceClaimTemplate" ? "spec.spec" : "spec";
    const devices = isJsonObject(spec.devices) ? spec.devices : {};
    list(devices.requests).forEach((r, i) => {
      if (!isJsonObject(r)) return;
      const field = `${path}.devices.requests[${i}]`;
      if (isJsonObject(r.exactly)) check(r.exactly.selectors, `${field}.exactly.selectors`, where);
      list(r.firstAvailable).forEach((sub, j) => {
        if (isJsonObject(sub)) check(sub.selectors, `${field}.firstAvailable[${j}].selectors`, where);
      });
    });
  }
  return out;
}

/** `driver/pool` of a slice, its generation and its devices' names. */
function slicePool(obj: NamedObject["obj"]): { key: string; generation: number; devices: unknown[] } | null {
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  const pool = isJsonObject(spec.pool) ? spec.pool : {};
  if (typeof spec.driver !== "string" || typeof pool.name !== "string") return null;
  const generation = typeof pool.generation === "number" ? pool.generation : 0;
  return { key: `${spec.driver}/${pool.name}`, generation, devices: list(spec.devices) };
}

/**
 * A warning for each device name that another ResourceSlice of the same pool (its newest
 * generation) publishes too: the API server checks names within one slice only, the allocator
 * then finds the pool invalid and allocates none of its devices (upstream: `invalid resource
 * pools were encountered`).
 */
export function duplicateDevicesInPools(slices: Iterable<NamedObject>): string[] {
  const pools = new Map<string, { generation: number; slices: NamedObject[] }>();
  for (const s of slices) {
    const p = slicePool(s.obj);
    if (p === null) continue;
    const pool = pools.get(p.key);
    if (pool === undefined || p.generation > pool.generation)
      pools.set(p.key, { generation: p.generation, slices: [s] });
    else if (p.generation === pool.generation) pool.slices.push(s);
  }
  const out: string[] = [];
  for (const [key, pool] of pools) {
    if (pool.slices.length < 2) continue;
    const firstSlice = new Map<string, string>();
    for (const s of pool.slices) {
      const name = s.obj.metadata?.name ?? "";
      const seenHere = new Set<string>();
      list((slicePool(s.obj) as { devices: unknown[] }).devices).forEach((d, i) => {
        const device = isJsonObject(d) ? d.name : undefined;
        if (typeof device !== "string" || seenHere.has(device)) return; // the slice's own error
        seenHere.add(device);
        const other = firstSlice.get(device);
        if (other === undefined) firstSlice.set(device, name);
        else
          out.push(
            `${s.where}: spec.devices[${i}].name: Duplicate value: ${JSON.stringify(device)}: ResourceSlice ${other} of pool ${key} has a device of this name; the pool is invalid, none of its devices can be allocated`,
          );
      });
    }
  }
  return out;
}

/**
 * A warning for each allocated device of a claim that no ResourceSlice publishes: the scheduler
 * takes the allocation as it is (its node selector still pins the pods), but the device is not
 * among the devices counted.
 */
export function allocatedDevicesNotFound(
  claims: Iterable<NamedObject>,
  slices: Iterable<NamedObject>,
): string[] {
  const published = new Set<string>();
  for (const s of slices) {
    const p = slicePool(s.obj);
    if (p === null) continue;
    for (const d of p.devices)
      if (isJsonObject(d) && typeof d.name === "string") published.add(`${p.key}/${d.name}`);
  }
  const out: string[] = [];
  for (const { obj, where } of claims) {
    const status = isJsonObject(obj.status) ? obj.status : {};
    const allocation = isJsonObject(status.allocation) ? status.allocation : {};
    const devices = isJsonObject(allocation.devices) ? allocation.devices : {};
    list(devices.results).forEach((r, i) => {
      if (!isJsonObject(r)) return;
      const { driver, pool, device } = r;
      if (typeof driver !== "string" || typeof pool !== "string" || typeof device !== "string") return;
      if (published.has(`${driver}/${pool}/${device}`)) return;
      out.push(
        `${where}: status.allocation.devices.results[${i}].device: Not found: ${JSON.stringify(device)}: no ResourceSlice of pool ${driver}/${pool} publishes this device`,
      );
    });
  }
  return out;
}
