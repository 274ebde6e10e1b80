// Compiling and evaluating DRA CEL device selectors. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go (read at kubernetes/kubernetes
// 052bb7dc3f0c: the 1.37 device type with allowMultipleAllocations and list attributes); list
// attributes as the newest stored compile_test.go expects them (their first value, `asList()`).
import type { DeviceAttribute, DeviceCapacity, QualifiedName } from "@kubesched/api";
import { CELSelectorExpressionMaxCost, Quantity } from "@kubesched/api";
import type { Environment } from "@marcbachmann/cel-js";
import { type CelNode, CostTracker, estimateCost, instrument, withTracker } from "./cost";
import {
  attributeLists,
  CELQuantity,
  celTypeName,
  DRADevice,
  newDeviceEnvironment,
  withDefault,
} from "./environment";
import { allowPresenceTestsOnExpressions } from "./presence";
import { useRE2ForMatches } from "./regex";
import { parseSemver, Semver } from "./semver";

/** Feature gates the environment depends on (upstream cel.Features). */
export interface Features {
  /** DRAConsumableCapacity: `device.allowMultipleAllocations`. */
  enableConsumableCapacity: boolean;
  /** DRAListTypeAttributes: list attribute values and `includes`. */
  enableListTypeAttributes: boolean;
}

/**
 * upstream environment.Type: StoredExpressions (the default) accepts everything the newest
 * release knows, as for expressions already stored in objects; NewExpressions only what the
 * enabled features declare, as when an object is created.
 */
export type EnvType = "StoredExpressions" | "NewExpressions";

/** upstream apiservercel.ErrorType. */
export type CELErrorType = "RequiredValue" | "InvalidValue" | "InternalError";

/** upstream apiservercel.Error: a compilation failure. */
export interface CELError {
  readonly type: CELErrorType;
  readonly detail: string;
}

/** Options of {@link Compiler.compileCELExpression} (upstream cel.Options). */
export interface Options {
  envType?: EnvType;
  /** Runtime cost limit; default CELSelectorExpressionMaxCost (@kubesched/api, 1,000,000). */
  costLimit?: number;
  /** Skip the worst-case estimate ({@link CompilationResult.maxCost} is then unbounded). */
  disableCostEstimation?: boolean;
}

/** The input of a selector (upstream cel.Device). */
export interface Device {
  /** The domain of attribute and capacity names without one. */
  driver: string;
  allowMultipleAllocations?: boolean;
  attributes?: Readonly<Record<QualifiedName, DeviceAttribute>>;
  capacity?: Readonly<Record<QualifiedName, DeviceCapacity>>;
}

/** What one evaluation gave. `error` is set (and `matches` false) when it failed. */
export interface DeviceMatchResult {
  matches: boolean;
  /** The cost the evaluation used (upstream EvalDetails.ActualCost). */
  actualCost: number;
  error: Error | null;
}

/** A compiled selector (upstream CompilationResult). */
export interface CompilationResult {
  readonly expression: string;
  readonly error: CELError | null;
  /** The output type (`bool`, or `dyn` for an attribute value); null after an error. */
  readonly outputType: string | null;
  /** The worst-case cost estimate, or Infinity when estimation was disabled or failed. */
  readonly maxCost: number;
  /** Evaluates the selector for one device; `signal` interrupts a long evaluation. */
  deviceMatches(device: Device, options?: { signal?: AbortSignal }): DeviceMatchResult;
}

/** What a derived attribute's expression gave for one device (DRADerivedAttributes). */
export interface DerivedAttributeResult {
  /** The value as a device attribute; undefined when the evaluation failed. */
  value: DeviceAttribute | undefined;
  actualCost: number;
  error: Error | null;
}

/** A compiled derived attribute expression (DRADerivedAttributes). */
export interface DerivedAttributeCompilationResult {
  readonly expression: string;
  readonly error: CELError | null;
  /** The output type; null after an error. */
  readonly outputType: string | null;
  /**
   * Evaluates the expression for one device. `costLimit` lowers the runtime cost limit of this
   * evaluation (what is left of a budget shared by several evaluations); the lower of it and the
   * compiled limit applies.
   */
  evaluate(device: Device, options?: { signal?: AbortSignal; costLimit?: number }): DerivedAttributeResult;
}

/** The output types a derived attribute may have: a scalar or a list of scalars (or unknown). */
const derivedOutputTypes = new Set([
  "dyn",
  "string",
  "int",
  "bool",
  "kubernetes.Semver",
  "list",
  "list<dyn>",
  "list<string>",
  "list<int>",
  "list<bool>",
  "list<kubernetes.Semver>",
]);

/**
 * A derived attribute's value as a device attribute: string, int, bool or semver, or a list of
 * one of them; anything else fails the evaluation, as the API documents.
 */
function derivedAttributeValue(result: unknown): DeviceAttribute {
  const scalar = (v: unknown): DeviceAttribute | undefined => {
    if (typeof v === "string") return { string: v };
    if (typeof v === "bigint") return { int: Number(v) };
    if (typeof v === "boolean") return { bool: v };
    if (v instanceof Semver) return { version: v.toString() };
    return undefined;
  };
  const one = scalar(result);
  if (one !== undefined) return one;
  if (Array.isArray(result) && result.length > 0) {
    const kind = celTypeName(result[0]);
    if (result.every((v) => celTypeName(v) === kind)) {
      if (kind === "string") return { strings: result as string[] };
      if (kind === "int") return { ints: (result as bigint[]).map(Number) };
      if (kind === "bool") return { bools: result as boolean[] };
      if (kind === "kubernetes.Semver") return { versions: (result as Semver[]).map(String) };
    }
  }
  const type = celTypeName(result);
  throw new Error(
    `CEL result of type ${type} is not a valid derived attribute value: want a string, int, bool or semver, or a list of one of them`,
  );
}

/** An attribute's value: a scalar, or (a list attribute) its values. */
function attributeValue(attr: DeviceAttribute): unknown {
  const version = (v: string): Semver => {
    try {
      return parsedOnce(parsedVersions, v, parseSemver);
    } catch (err) {
      throw new Error(`parse semantic version: ${(err as Error).message}`);
    }
  };
  if (attr.int !== undefined) return BigInt(attr.int);
  if (attr.bool !== undefined) return attr.bool;
  if (attr.string !== undefined) return attr.string;
  if (attr.version !== undefined) return version(attr.version);
  if (attr.ints !== undefined && attr.ints.length > 0) return attr.ints.map((v) => BigInt(v));
  if (attr.bools !== undefined && attr.bools.length > 0) return [...attr.bools];
  if (attr.strings !== undefined && attr.strings.length > 0) return [...attr.strings];
  if (attr.versions !== undefined && attr.versions.length > 0) return attr.versions.map(version);
  throw new Error("unsupported attribute value");
}

/** compile.go parseQualifiedName: the driver is the domain of a name without one. */
function parseQualifiedName(name: string, defaultDomain: string): [string, string] {
  const sep = name.indexOf("/");
  return sep === -1 ? [defaultDomain, name] : [name.slice(0, sep), name.slice(sep + 1)];
}

function byDomain<V>(entries: Iterable<[string, V]>, driver: string): Map<string, Map<string, V>> {
  const out = new Map<string, Map<string, V>>();
  for (const [name, value] of entries) {
    const [domain, id] = parseQualifiedName(name, driver);
    let inner = out.get(domain);
    if (inner === undefined) {
      inner = new Map();
      out.set(domain, inner);
    }
    inner.set(id, value);
  }
  return out;
}

interface LibraryError {
  code?: string;
  message: string;
  range?: { start: number };
}

/** A runtime error with cel-go's wording where the library words it differently. */
function runtimeError(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const e = err as Error & LibraryError;
  if (e.code === undefined) return e;
  const summary = e.message.split("\n")[0] ?? "";
  const m = /^No such key: (.*)$/.exec(summary);
  if (m) return new Error(`no such key: ${m[1]}`, { cause: err });
  return new Error(
    summary.replace(/^[A-Z]/, (c) => c.toLowerCase()),
    { cause: err },
  );
}

function position(expression: string, offset: number): string {
  const before = expression.slice(0, offset).split("\n");
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

/** A compile error as cel-go's issues print it. */
function compileIssue(err: unknown, expression: string, env: Environment): string {
  const e = err as LibraryError;
  const summary = e.message.split("\n")[0] ?? "";
  const at = `ERROR: <input>:${position(expression, e.range?.start ?? 0)}: `;
  if (err instanceof Error && err.name === "ParseError") return `${at}Syntax error: ${summary}`;
  let m = /^Unknown variable: (.*)$/.exec(summary);
  if (m) return `${at}undeclared reference to '${m[1]}' (in container '')`;
  m = /^found no matching overload for '(?:[^']*\.)?([A-Za-z_][A-Za-z0-9_]*)\(/.exec(summary);
  if (m) {
    const name = m[1] as string;
    const known = env.getDefinitions().functions.some((f: { name: string }) => f.name === name);
    if (!known) return `${at}undeclared reference to '${name}' (in container '')`;
  }
  m = /^No such key: (.*)$/.exec(summary);
  if (m) return `${at}undefined field '${m[1]}'`;
  return `${at}${summary}`;
}

const goTypeString = (t: string): string => t.replace(/</g, "(").replace(/>/g, ")");

/** The compiler for one set of features (upstream's compiler; {@link getCompiler}). */
export class Compiler {
  readonly features: Features;
  readonly #stored: Environment;
  readonly #new: Environment;

  constructor(features: Features) {
    this.features = { ...features };
    this.#stored = newDeviceEnvironment({ allowMultipleAllocations: true, includes: true });
    this.#new = newDeviceEnvironment({
      allowMultipleAllocations: features.enableConsumableCapacity,
      includes: features.enableListTypeAttributes,
    });
  }

  /**
   * Parses and type-checks an expression in the environment the options pick; the checked
   * program and its output type, or the compilation error as upstream words it.
   */
  #check(
    expression: string,
    options: Options,
  ): { program: ReturnType<Environment["parse"]>; outputType: string } | { error: string } {
    const env = options.envType === "NewExpressions" ? this.#new : this.#stored;
    let parsed: ReturnType<Environment["parse"]>;
    try {
      parsed = env.parse(expression);
    } catch (err) {
      return { error: `compilation failed: ${compileIssue(err, expression, env)}` };
    }
    allowPresenceTestsOnExpressions(parsed.ast as unknown as CelNode);
    const checked = parsed.check();
    if (!checked.valid)
      return { error: `compilation failed: ${compileIssue(checked.error, expression, env)}` };
    // Go's regexp (RE2) rather than the library's backtracking RegExp.
    useRE2ForMatches(parsed.ast);
    return { program: parsed, outputType: checked.type ?? "dyn" };
  }

  /** Compiles an expression that must evaluate to bool (or to an attribute value). */
  compileCELExpression(expression: string, options: Options = {}): CompilationResult {
    const failed = (detail: string, type: CELErrorType): CompilationResult => ({
      expression,
      error: { type, detail },
      outputType: null,
      maxCost: Number.POSITIVE_INFINITY,
      deviceMatches: () => ({ matches: false, actualCost: 0, error: new Error(detail) }),
    });
    return withinStack(() => this.#compileSelector(expression, options, failed), failed);
  }

  #compileSelector(
    expression: string,
    options: Options,
    failed: (detail: string, type: CELErrorType) => CompilationResult,
  ): CompilationResult {
    const checked = this.#check(expression, options);
    if ("error" in checked) return failed(checked.error, "InvalidValue");
    const { program, outputType } = checked;
    if (outputType !== "bool" && outputType !== "dyn") {
      return failed(
        `must evaluate to bool or the unknown type, not ${goTypeString(outputType)}`,
        "InvalidValue",
      );
    }
    const ast = program.ast as unknown as CelNode;
    instrument(ast);
    const maxCost = options.disableCostEstimation ? Number.POSITIVE_INFINITY : estimateCost(ast);
    const costLimit = options.costLimit ?? CELSelectorExpressionMaxCost;
    const listTypeAttributes = this.features.enableListTypeAttributes;
    // The outcomes of evaluations that read only the device's driver, by driver (most class
    // selectors compare the driver alone): such an outcome is every device's of that driver.
    const byDriver = new Map<string, DeviceMatchResult>();
    const outcome = (
      device: Device | DRADevice,
      evalOptions: { signal?: AbortSignal },
    ): DeviceMatchResult => {
      const { result, actualCost, error } = evaluate(
        program,
        device,
        listTypeAttributes,
        costLimit,
        evalOptions,
      );
      if (error !== null) return { matches: false, actualCost, error };
      if (typeof result !== "boolean") {
        const type = celTypeName(result);
        return {
          matches: false,
          actualCost,
          error: new Error(
            `CEL result of type ${type} could not be converted to bool: type conversion error from '${type}' to 'bool'`,
          ),
        };
      }
      return { matches: result, actualCost, error: null };
    };
    return {
      expression,
      error: null,
      outputType,
      maxCost,
      deviceMatches(device: Device, evalOptions: { signal?: AbortSignal } = {}): DeviceMatchResult {
        if (evalOptions.signal?.aborted === true) return outcome(device, evalOptions);
        // A device that does not convert fails before its driver is compared (as evaluate()
        // reports it).
        let converted: DRADevice;
        try {
          converted = cachedDRADevice(device, listTypeAttributes);
        } catch (err) {
          return { matches: false, actualCost: 0, error: err as Error };
        }
        const kept = byDriver.get(device.driver);
        if (kept !== undefined) return kept;
        converted.watchReads();
        const result = outcome(converted, evalOptions);
        if (converted.readOnlyDriver() && (evalOptions.signal?.aborted ?? false) === false) {
          if (byDriver.size >= maxDriverOutcomes) byDriver.clear();
          byDriver.set(device.driver, result);
        }
        return result;
      },
    };
  }

  /**
   * Compiles a derived attribute's expression (DRADerivedAttributes): the same environment as a
   * selector's, evaluating to a string, int, bool or semver, or a list of one of them.
   */
  compileDerivedAttribute(expression: string, options: Options = {}): DerivedAttributeCompilationResult {
    const failed = (detail: string, type: CELErrorType): DerivedAttributeCompilationResult => ({
      expression,
      error: { type, detail },
      outputType: null,
      evaluate: () => ({ value: undefined, actualCost: 0, error: new Error(detail) }),
    });
    return withinStack(() => this.#compileDerived(expression, options, failed), failed);
  }

  #compileDerived(
    expression: string,
    options: Options,
    failed: (detail: string, type: CELErrorType) => DerivedAttributeCompilationResult,
  ): DerivedAttributeCompilationResult {
    const checked = this.#check(expression, options);
    if ("error" in checked) return failed(checked.error, "InvalidValue");
    const { program, outputType } = checked;
    if (!derivedOutputTypes.has(outputType)) {
      return failed(
        `must evaluate to a string, int, bool, semver or a list of them, not ${goTypeString(outputType)}`,
        "InvalidValue",
      );
    }
    instrument(program.ast as unknown as CelNode);
    const costLimit = options.costLimit ?? CELSelectorExpressionMaxCost;
    const listTypeAttributes = this.features.enableListTypeAttributes;
    return {
      expression,
      error: null,
      outputType,
      evaluate(
        device: Device,
        evalOptions: { signal?: AbortSignal; costLimit?: number } = {},
      ): DerivedAttributeResult {
        const { result, actualCost, error } = evaluate(
          program,
          device,
          listTypeAttributes,
          Math.min(costLimit, evalOptions.costLimit ?? costLimit),
          evalOptions,
        );
        if (error !== null) return { value: undefined, actualCost, error };
        try {
          return { value: derivedAttributeValue(result), actualCost, error: null };
        } catch (err) {
          return { value: undefined, actualCost, error: err as Error };
        }
      },
    };
  }
}

/**
 * Runs a compilation; an expression whose tree is deeper than the stack allows (`1+1+…+1` within
 * the length limit) gives a compile error instead of the RangeError (the library's checker words
 * its own overflow the same way; cel-go, on Go's growable stack, accepts such an expression).
 */
function withinStack<T>(compile: () => T, failed: (detail: string, type: CELErrorType) => T): T {
  try {
    return compile();
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return failed(
      `compilation failed: ERROR: <input>:1:1: ${err.message}: the expression nests too deeply`,
      "InvalidValue",
    );
  }
}

/**
 * Runs a checked program for one device under the runtime cost limit: its result and cost, or
 * the error (a device that cannot be converted, a runtime error, the limit, an interruption).
 */
function evaluate(
  program: ReturnType<Environment["parse"]>,
  device: Device | DRADevice,
  listTypeAttributes: boolean,
  costLimit: number,
  options: { signal?: AbortSignal },
): { result: unknown; actualCost: number; error: Error | null } {
  let variables: { device: DRADevice };
  try {
    variables = {
      device: device instanceof DRADevice ? device : cachedDRADevice(device, listTypeAttributes),
    };
  } catch (err) {
    return { result: undefined, actualCost: 0, error: err as Error };
  }
  const tracker = new CostTracker(costLimit, options.signal);
  let result: unknown;
  try {
    tracker.checkInterrupt();
    result = withTracker(tracker, () => program(variables));
  } catch (err) {
    return { result: undefined, actualCost: tracker.cost, error: tracker.failure ?? runtimeError(err) };
  }
  // The library turns some errors into values (CEL's commutative || and &&).
  if (tracker.failure !== undefined)
    return { result: undefined, actualCost: tracker.cost, error: tracker.failure };
  return { result, actualCost: tracker.cost, error: null };
}

/**
 * Converted devices, per attributes (or capacity) object of the input: a slice's device objects
 * are never changed in place (an update replaces the slice), and the allocator evaluates each
 * device's selectors once per node and pod, converting its attributes (semantic versions parsed,
 * quantities, domains) every time otherwise. Conversions that fail are not kept. One cache per value
 * of DRAListTypeAttributes: the conversion differs.
 */
const converted = [new WeakMap<object, DRADevice[]>(), new WeakMap<object, DRADevice[]>()] as const;
function cachedDRADevice(input: Device, listTypeAttributes: boolean): DRADevice {
  const owner: object | undefined = input.attributes ?? input.capacity;
  if (owner === undefined) return toDRADevice(input, listTypeAttributes);
  const cache = converted[listTypeAttributes ? 1 : 0];
  const multi = input.allowMultipleAllocations ?? false;
  const known = cache.get(owner);
  const hit = known?.find(
    (d) =>
      d.driver === input.driver &&
      d.allowMultipleAllocations === multi &&
      sourceCapacity.get(d) === input.capacity &&
      sourceAttributes.get(d) === input.attributes,
  );
  if (hit) return hit;
  const device = toDRADevice(input, listTypeAttributes);
  sourceAttributes.set(device, input.attributes);
  sourceCapacity.set(device, input.capacity);
  if (known) known.push(device);
  else cache.set(owner, [device]);
  return device;
}
const sourceAttributes = new WeakMap<DRADevice, Device["attributes"]>();
const sourceCapacity = new WeakMap<DRADevice, Device["capacity"]>();

/**
 * The `device` variable. A list attribute (DRAListTypeAttributes) reads as its first value and
 * gives all its values through `asList()`; without the feature it fails the evaluation
 * (`unsupported attribute value`), as upstream.
 *
 * Every value is converted here, in upstream's order, so that a device whose attribute or
 * capacity cannot be converted fails every evaluation with the same error; the domain maps
 * the expression reads are made from the converted values on first read ({@link DRADevice}).
 */
function toDRADevice(input: Device, listTypeAttributes: boolean): DRADevice {
  const attributes: [string, unknown][] = [];
  let lists: [string, unknown[]][] | undefined;
  for (const [name, attr] of Object.entries(input.attributes ?? {})) {
    try {
      const value = attributeValue(attr);
      if (Array.isArray(value)) {
        if (!listTypeAttributes) throw new Error("unsupported attribute value");
        attributes.push([name, value[0]]);
        lists ??= [];
        lists.push([name, value]);
      } else {
        attributes.push([name, value]);
      }
    } catch (err) {
      throw new Error(`attribute ${name}: ${(err as Error).message}`);
    }
  }
  const capacity: [string, CELQuantity][] = Object.entries(input.capacity ?? {}).map(([name, c]) => [
    name,
    celQuantity(c.value),
  ]);
  const driver = input.driver;
  return new DRADevice(
    driver,
    input.allowMultipleAllocations ?? false,
    () => {
      const attrs = byDomain(attributes, driver);
      if (lists !== undefined) {
        for (const [domain, values] of byDomain(lists, driver)) {
          const domainMap = attrs.get(domain);
          if (domainMap !== undefined) attributeLists.set(domainMap, values);
        }
      }
      return withDefault(attrs);
    },
    () => withDefault(byDomain(capacity, driver)),
  );
}

/**
 * Parsed values by their text (semantic versions, quantities): devices of one driver repeat the
 * same few (a driver version, a memory size), and both parsed forms are immutable. Cleared past
 * {@link maxParsed} texts; failures are not kept.
 */
const parsedVersions = new Map<string, Semver>();
const parsedQuantities = new Map<string, CELQuantity>();
const maxParsed = 4096;

function parsedOnce<V>(kept: Map<string, V>, text: string, parse: (text: string) => V): V {
  let v = kept.get(text);
  if (v === undefined) {
    v = parse(text);
    if (kept.size >= maxParsed) kept.clear();
    kept.set(text, v);
  }
  return v;
}

function celQuantity(text: string): CELQuantity {
  return parsedOnce(parsedQuantities, text, (t) => new CELQuantity(Quantity.parse(t)));
}

/** More drivers than this start a selector's outcomes by driver afresh. */
const maxDriverOutcomes = 256;

let lazyCompiler: Compiler | undefined;

/**
 * The compiler for these features. As upstream's GetCompiler, only the last one is kept: features
 * do not change back and forth in practice.
 */
export function getCompiler(features: Features): Compiler {
  const f = lazyCompiler?.features;
  if (
    lazyCompiler === undefined ||
    f?.enableConsumableCapacity !== features.enableConsumableCapacity ||
    f?.enableListTypeAttributes !== features.enableListTypeAttributes
  ) {
    lazyCompiler = new Compiler(features);
  }
  return lazyCompiler;
}
