// The DRA CEL environment: the `device` variable and the Kubernetes CEL libraries it enables, on
// @marcbachmann/cel-js. upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go
// (newCompiler) over staging/src/k8s.io/apiserver/pkg/cel/environment/base.go (the base libraries)
// and apiserver/pkg/cel/library (quantity.go, semverlib.go, lists.go, regex.go, urls.go).
import { Quantity } from "@kubesched/api";
import { Environment } from "@marcbachmann/cel-js";
import { regexFind, regexFindAll, regexMatches } from "./regex";
import { normalizeSemver, parseSemver, Semver } from "./semver";

/** upstream resourceapi.ResourceSliceMaxAttributeValuesPerDevice: the longest list attribute. */
export const ResourceSliceMaxAttributeValuesPerDevice = 48;

/**
 * The value of the `device` variable (upstream's `kubernetes.DRADevice` object type). The
 * attribute and capacity maps are made when an expression first reads them (most selectors read
 * only `device.driver`); the values that can fail to convert are converted before (see
 * compile.ts toDRADevice), so that a device fails every evaluation as upstream's eager conversion
 * makes it fail.
 */
export class DRADevice {
  /** Set when an expression reads more of the device than its driver (see {@link readOnlyDriver}). */
  #readBeyondDriver = false;
  readonly #allowMultipleAllocations: boolean;
  #attributes: ReadonlyMap<string, ReadonlyMap<string, unknown>> | undefined;
  #capacity: ReadonlyMap<string, ReadonlyMap<string, CELQuantity>> | undefined;
  readonly #makeAttributes: () => ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  readonly #makeCapacity: () => ReadonlyMap<string, ReadonlyMap<string, CELQuantity>>;

  constructor(
    readonly driver: string,
    allowMultipleAllocations: boolean,
    attributes: () => ReadonlyMap<string, ReadonlyMap<string, unknown>>,
    capacity: () => ReadonlyMap<string, ReadonlyMap<string, CELQuantity>>,
  ) {
    this.#allowMultipleAllocations = allowMultipleAllocations;
    this.#makeAttributes = attributes;
    this.#makeCapacity = capacity;
  }

  get allowMultipleAllocations(): boolean {
    this.#readBeyondDriver = true;
    return this.#allowMultipleAllocations;
  }

  get attributes(): ReadonlyMap<string, ReadonlyMap<string, unknown>> {
    this.#readBeyondDriver = true;
    this.#attributes ??= this.#makeAttributes();
    return this.#attributes;
  }

  get capacity(): ReadonlyMap<string, ReadonlyMap<string, CELQuantity>> {
    this.#readBeyondDriver = true;
    this.#capacity ??= this.#makeCapacity();
    return this.#capacity;
  }

  /** Starts watching what an evaluation reads of the device. */
  watchReads(): void {
    this.#readBeyondDriver = false;
  }

  /**
   * Whether the evaluation since {@link watchReads} read nothing of the device but its driver:
   * CEL is deterministic and free of side effects, so every device of that driver gives the same
   * outcome (the same value or error, at the same cost).
   */
  readOnlyDriver(): boolean {
    return !this.#readBeyondDriver;
  }
}

/** The `kubernetes.Quantity` CEL type. */
export class CELQuantity {
  constructor(readonly quantity: Quantity) {}
}

// An unknown domain yields an empty map (compile.go mapper.Find), but `in` must still say no:
// the library's `in` reads a map with get(), so an `in` operand is given the map itself.
const emptyMap: ReadonlyMap<string, unknown> = new Map<string, unknown>();
const underlying = new WeakMap<object, Map<string, unknown>>();

/** A map whose lookups of unknown keys give an empty map. */
export function withDefault<V>(map: Map<string, V>): Map<string, V> {
  const proxy = new Proxy(map, {
    get(target, prop) {
      if (prop === "get") return (key: string) => (target.has(key) ? target.get(key) : emptyMap);
      if (prop === "constructor") return Map;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  underlying.set(proxy, map as Map<string, unknown>);
  return proxy;
}

/** The map behind {@link withDefault}, for membership tests; other values as they are. */
export function withoutDefault(value: unknown): unknown {
  return (typeof value === "object" && value !== null && underlying.get(value)) || value;
}

/**
 * DRAListTypeAttributes: the full values of a domain's list attributes, by attribute ID, for the
 * domain maps of `device.attributes` (the maps hold each list's first value).
 */
export const attributeLists = new WeakMap<object, ReadonlyMap<string, readonly unknown[]>>();

/** A list attribute's values, as the receiver of `asList()` sees them (never elsewhere). */
export class AttributeValues {
  constructor(readonly values: readonly unknown[]) {}
}

/**
 * `<value>.asList()` (DRAListTypeAttributes): a list attribute gives all its values, a scalar a
 * list of one value, a list itself.
 */
function asList(value: unknown): unknown[] {
  if (value instanceof AttributeValues) return [...value.values];
  if (Array.isArray(value)) return value;
  return [value];
}

/** Which optional parts of the device type the environment declares. */
export interface DeviceEnvironmentOptions {
  /** `device.allowMultipleAllocations` (DRAConsumableCapacity). */
  allowMultipleAllocations: boolean;
  /** `<value>.includes(<value>)` and `<value>.asList()` (DRAListTypeAttributes). */
  includes: boolean;
}

/** The CEL type name of a runtime value. */
export function celTypeName(value: unknown): string {
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return "double";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "string") return "string";
  if (value === null) return "null_type";
  if (Array.isArray(value)) return "list";
  if (value instanceof Map) return "map";
  if (value instanceof Semver) return "kubernetes.Semver";
  if (value instanceof CELQuantity) return "kubernetes.Quantity";
  return (value as object).constructor?.name ?? "unknown";
}

/** Equality as CEL's `==` for the values attributes hold. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a instanceof Semver && b instanceof Semver) return a.compare(b) === 0;
  if (a instanceof CELQuantity && b instanceof CELQuantity) return a.quantity.cmp(b.quantity) === 0;
  return a === b;
}

/**
 * upstream compile.go includesFunc: a scalar equals the argument (a list attribute's value is its
 * first value), a list (`asList()`) contains it.
 */
function includes(target: unknown, arg: unknown): boolean {
  if (Array.isArray(target)) {
    for (let i = 0; i < target.length; i++) {
      if (i >= ResourceSliceMaxAttributeValuesPerDevice) {
        throw new Error(
          `'includes' function cannot be applied to lists longer than ${ResourceSliceMaxAttributeValuesPerDevice} values`,
        );
      }
      if (celEquals(target[i], arg)) return true;
    }
    return false;
  }
  return celEquals(target, arg);
}

function parseCELQuantity(s: string): CELQuantity {
  return new CELQuantity(Quantity.parse(s));
}

function compareNumbers(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function registerQuantityLibrary(env: Environment): void {
  const Q = "kubernetes.Quantity";
  env.registerType(Q, CELQuantity);
  env.registerFunction(`quantity(string): ${Q}`, parseCELQuantity);
  env.registerFunction("isQuantity(string): bool", (s: string) => {
    try {
      Quantity.parse(s);
      return true;
    } catch {
      return false;
    }
  });
  const integer = (q: Quantity): bigint | null => {
    const v = q.valueBig();
    return Quantity.of(v).cmp(q) === 0 ? v : null;
  };
  env.registerOperator(`${Q} == ${Q}`, (a: CELQuantity, b: CELQuantity) => a.quantity.cmp(b.quantity) === 0);
  env.registerFunction(`${Q}.sign(): int`, (q: CELQuantity) => BigInt(q.quantity.sign()));
  env.registerFunction(`${Q}.isInteger(): bool`, (q: CELQuantity) => {
    const v = integer(q.quantity);
    return v !== null && v >= -(2n ** 63n) && v < 2n ** 63n;
  });
  env.registerFunction(`${Q}.asInteger(): int`, (q: CELQuantity) => {
    const v = integer(q.quantity);
    if (v === null || v < -(2n ** 63n) || v >= 2n ** 63n) throw new Error("cannot convert value to integer");
    return v;
  });
  env.registerFunction(
    `${Q}.asApproximateFloat(): double`,
    (q: CELQuantity) => Number(q.quantity.milliValueBig()) / 1000,
  );
  env.registerFunction(
    `${Q}.add(${Q}): ${Q}`,
    (a: CELQuantity, b: CELQuantity) => new CELQuantity(a.quantity.add(b.quantity)),
  );
  env.registerFunction(
    `${Q}.add(int): ${Q}`,
    (a: CELQuantity, b: bigint) => new CELQuantity(a.quantity.add(Quantity.of(b))),
  );
  env.registerFunction(
    `${Q}.sub(${Q}): ${Q}`,
    (a: CELQuantity, b: CELQuantity) => new CELQuantity(a.quantity.sub(b.quantity)),
  );
  env.registerFunction(
    `${Q}.sub(int): ${Q}`,
    (a: CELQuantity, b: bigint) => new CELQuantity(a.quantity.sub(Quantity.of(b))),
  );
  env.registerFunction(
    `${Q}.isGreaterThan(${Q}): bool`,
    (a: CELQuantity, b: CELQuantity) => a.quantity.cmp(b.quantity) > 0,
  );
  env.registerFunction(
    `${Q}.isLessThan(${Q}): bool`,
    (a: CELQuantity, b: CELQuantity) => a.quantity.cmp(b.quantity) < 0,
  );
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: CELQuantity, b: CELQuantity) =>
    BigInt(a.quantity.cmp(b.quantity)),
  );
}

function registerSemverLibrary(env: Environment): void {
  const S = "kubernetes.Semver";
  env.registerType(S, Semver);
  const parse = (s: string, normalize: boolean): Semver => parseSemver(normalize ? normalizeSemver(s) : s);
  const valid = (s: string, normalize: boolean): boolean => {
    try {
      parse(s, normalize);
      return true;
    } catch {
      return false;
    }
  };
  env.registerFunction(`semver(string): ${S}`, (s: string) => parse(s, false));
  env.registerFunction(`semver(string, bool): ${S}`, (s: string, n: boolean) => parse(s, n));
  env.registerFunction("isSemver(string): bool", (s: string) => valid(s, false));
  env.registerFunction("isSemver(string, bool): bool", (s: string, n: boolean) => valid(s, n));
  env.registerOperator(`${S} == ${S}`, (a: Semver, b: Semver) => a.compare(b) === 0);
  env.registerFunction(`${S}.major(): int`, (v: Semver) => v.major);
  env.registerFunction(`${S}.minor(): int`, (v: Semver) => v.minor);
  env.registerFunction(`${S}.patch(): int`, (v: Semver) => v.patch);
  env.registerFunction(`${S}.isGreaterThan(${S}): bool`, (a: Semver, b: Semver) => a.compare(b) > 0);
  env.registerFunction(`${S}.isLessThan(${S}): bool`, (a: Semver, b: Semver) => a.compare(b) < 0);
  env.registerFunction(`${S}.compareTo(${S}): int`, (a: Semver, b: Semver) => BigInt(a.compare(b)));
}

function registerListsLibrary(env: Environment): void {
  const comparable = (list: readonly unknown[]): (number | bigint | string)[] =>
    list.map((v) => {
      if (typeof v === "number" || typeof v === "bigint" || typeof v === "string") return v;
      throw new Error("no such overload");
    });
  const cmp = (a: number | bigint | string, b: number | bigint | string): number =>
    typeof a === "string" || typeof b === "string" ? (a < b ? -1 : a > b ? 1 : 0) : compareNumbers(a, b);
  env.registerFunction("list.isSorted(): bool", (l: unknown[]) => {
    const v = comparable(l);
    for (let i = 1; i < v.length; i++) if (cmp(v[i - 1] as never, v[i] as never) > 0) return false;
    return true;
  });
  env.registerFunction("list.sum(): dyn", (l: unknown[]) => {
    const v = comparable(l);
    if (v.length === 0) return 0n;
    return v.reduce((a, b) => (a as never) + (b as never));
  });
  const extreme = (l: unknown[], sign: number): unknown => {
    const v = comparable(l);
    if (v.length === 0) throw new Error("min called on empty list");
    return v.reduce((a, b) => (cmp(b, a) * sign > 0 ? b : a));
  };
  env.registerFunction("list.min(): dyn", (l: unknown[]) => extreme(l, -1));
  env.registerFunction("list.max(): dyn", (l: unknown[]) => extreme(l, 1));
  env.registerFunction("list.indexOf(dyn): int", (l: unknown[], x: unknown) =>
    BigInt(l.findIndex((e) => celEquals(e, x))),
  );
  env.registerFunction("list.lastIndexOf(dyn): int", (l: unknown[], x: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], x)) return BigInt(i);
    return -1n;
  });
}

function registerRegexLibrary(env: Environment): void {
  // upstream regex.go: a pattern that does not compile is "Illegal regex: <regexp's error>".
  const illegal = (err: unknown): Error =>
    new Error(`Illegal regex: ${err instanceof Error ? err.message : String(err)}`);
  env.registerFunction("string.find(string): string", (s: string, re: string) => {
    try {
      return regexFind(s, re);
    } catch (err) {
      throw illegal(err);
    }
  });
  const findAll = (s: string, re: string, n: bigint): string[] => {
    try {
      // n past the int range finds all, as a Go int that large would.
      return regexFindAll(s, re, n > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(n));
    } catch (err) {
      throw illegal(err);
    }
  };
  env.registerFunction("string.findAll(string): list<string>", (s: string, re: string) =>
    findAll(s, re, -1n),
  );
  env.registerFunction("string.findAll(string, int): list<string>", findAll);
  // CEL's global form of matches (the receiver form is the library's, replaced by compile.ts).
  env.registerFunction("matches(string, string): bool", (s: string, re: string) => regexMatches(s, re));
}

function registerStringsLibrary(env: Environment): void {
  env.registerFunction("string.charAt(int): string", (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
    return chars[Number(i)] ?? "";
  });
  env.registerFunction("string.replace(string, string): string", (s: string, a: string, b: string) =>
    s.split(a).join(b),
  );
  env.registerFunction(
    "string.replace(string, string, int): string",
    (s: string, a: string, b: string, n: bigint) => {
      if (n < 0n) return s.split(a).join(b);
      let out = "";
      let rest = s;
      for (let k = 0n; k < n; k++) {
        const at = rest.indexOf(a);
        if (at === -1) break;
        out += rest.slice(0, at) + b;
        rest = rest.slice(at + a.length);
      }
      return out + rest;
    },
  );
  env.registerFunction("string.reverse(): string", (s: string) => [...s].reverse().join(""));
}

function registerURLsLibrary(env: Environment): void {
  const U = "kubernetes.URL";
  env.registerType(U, URL);
  const parse = (s: string): URL => {
    try {
      return new URL(s);
    } catch {
      throw new Error(`URL parse error during conversion from string: ${s}`);
    }
  };
  env.registerFunction(`url(string): ${U}`, parse);
  env.registerFunction("isURL(string): bool", (s: string) => URL.canParse(s));
  env.registerFunction(`${U}.getScheme(): string`, (u: URL) => u.protocol.replace(/:$/, ""));
  env.registerFunction(`${U}.getHost(): string`, (u: URL) => u.host);
  env.registerFunction(`${U}.getHostname(): string`, (u: URL) => u.hostname.replace(/^\[(.*)\]$/, "$1"));
  env.registerFunction(`${U}.getPort(): string`, (u: URL) => u.port);
  env.registerFunction(`${U}.getEscapedPath(): string`, (u: URL) => u.pathname);
  env.registerFunction(`${U}.getQuery(): map<string, list<string>>`, (u: URL) => {
    const out = new Map<string, string[]>();
    for (const [k, v] of u.searchParams) out.set(k, [...(out.get(k) ?? []), v]);
    return out;
  });
}

/** Builds one DRA CEL environment (cel.bind comes with the library, as upstream's ext.Bindings). */
export function newDeviceEnvironment(options: DeviceEnvironmentOptions): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  registerQuantityLibrary(env);
  registerSemverLibrary(env);
  registerListsLibrary(env);
  registerRegexLibrary(env);
  registerStringsLibrary(env);
  registerURLsLibrary(env);
  if (options.includes) {
    env.registerType("kubernetes.AttributeValues", AttributeValues);
    env.registerFunction("dyn.includes(dyn): bool", includes);
    env.registerFunction("dyn.asList(): list<dyn>", asList);
  }
  const fields: Record<string, string> = {
    driver: "string",
    attributes: "map<string, map<string, dyn>>",
    capacity: "map<string, map<string, kubernetes.Quantity>>",
  };
  if (options.allowMultipleAllocations) fields.allowMultipleAllocations = "bool";
  env.registerType("kubernetes.DRADevice", { ctor: DRADevice, fields });
  env.registerVariable("device", "kubernetes.DRADevice");
  return env;
}
