// A cache of compiled selectors. upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/cache.go.
import type { Device as SliceDevice } from "@kubesched/api";
import {
  type CompilationResult,
  type Compiler,
  type DerivedAttributeCompilationResult,
  type DeviceMatchResult,
  type Features,
  getCompiler,
} from "./compile";

/** The verdicts of one device object's selectors: its driver, then per expression. */
interface Verdicts {
  readonly driver: string;
  readonly matches: Map<string, boolean>;
}

/**
 * The verdicts per device object, per compiler: every cache of the same features (the
 * DynamicResources plugin's, NodeResourcesFit's DRA-backed scoring) shares them, so each device is
 * evaluated once per selector, not once per cache.
 */
const verdictsByCompiler = new WeakMap<Compiler, WeakMap<SliceDevice, Verdicts>>();

function verdictsOf(compiler: Compiler): WeakMap<SliceDevice, Verdicts> {
  let v = verdictsByCompiler.get(compiler);
  if (v === undefined) {
    v = new WeakMap();
    verdictsByCompiler.set(compiler, v);
  }
  return v;
}

/**
 * An LRU cache of compiled CEL expressions: the oldest entry goes once `maxCacheEntries` are held.
 * Only successful compilations are kept; cost estimation is disabled, as upstream's.
 */
export class Cache {
  readonly #entries = new Map<string, CompilationResult>();
  readonly #max: number;
  readonly #compiler: Compiler;
  readonly #verdicts: WeakMap<SliceDevice, Verdicts>;
  readonly #derived = new Map<string, DerivedAttributeCompilationResult>();

  constructor(maxCacheEntries: number, features: Features) {
    this.#max = maxCacheEntries;
    this.#compiler = getCompiler(features);
    this.#verdicts = verdictsOf(this.#compiler);
  }

  /** The cached result for the expression, or a new compilation (stored when it succeeded). */
  getOrCompile(expression: string): CompilationResult {
    const cached = this.#entries.get(expression);
    if (cached !== undefined) {
      this.#entries.delete(expression);
      this.#entries.set(expression, cached);
      return cached;
    }
    const result = this.#compiler.compileCELExpression(expression, { disableCostEstimation: true });
    if (result.error === null && this.#max > 0) {
      this.#entries.set(expression, result);
      if (this.#entries.size > this.#max) {
        const oldest = this.#entries.keys().next().value as string;
        this.#entries.delete(oldest);
      }
    }
    return result;
  }

  /**
   * Evaluates a compiled selector for a ResourceSlice's device of `driver`, keeping the verdict
   * per device object and expression (kubesched's own: upstream evaluates every time), shared by
   * every cache of the same features. A verdict depends only on the device's attributes, capacity
   * and allowMultipleAllocations, the driver, the expression and the features, and a slice's
   * device objects are never changed in place (an update is a new slice). A kept verdict reports
   * `actualCost` 0 (nothing evaluated); an evaluation that fails is not kept, so its error and cost
   * are reported again every time.
   */
  deviceMatches(
    compiled: CompilationResult,
    device: SliceDevice,
    driver: string,
    options?: { signal?: AbortSignal },
  ): DeviceMatchResult {
    let verdicts = this.#verdicts.get(device);
    if (verdicts === undefined || verdicts.driver !== driver) {
      verdicts = { driver, matches: new Map() };
      this.#verdicts.set(device, verdicts);
    }
    const kept = verdicts.matches.get(compiled.expression);
    if (kept !== undefined) return kept ? matched : notMatched;
    const result = compiled.deviceMatches(
      {
        driver,
        allowMultipleAllocations: device.allowMultipleAllocations ?? false,
        attributes: device.attributes,
        capacity: device.capacity,
      },
      options,
    );
    if (result.error === null) verdicts.matches.set(compiled.expression, result.matches);
    return result;
  }

  /**
   * The compiled derived attribute expression (DRADerivedAttributes), kept as selectors are
   * (LRU, successful compilations only, no cost estimation).
   */
  getOrCompileDerivedAttribute(expression: string): DerivedAttributeCompilationResult {
    const cached = this.#derived.get(expression);
    if (cached !== undefined) {
      this.#derived.delete(expression);
      this.#derived.set(expression, cached);
      return cached;
    }
    const result = this.#compiler.compileDerivedAttribute(expression, { disableCostEstimation: true });
    if (result.error === null && this.#max > 0) {
      this.#derived.set(expression, result);
      if (this.#derived.size > this.#max) this.#derived.delete(this.#derived.keys().next().value as string);
    }
    return result;
  }

  /** How many compiled expressions are held. */
  get size(): number {
    return this.#entries.size;
  }
}

const matched: DeviceMatchResult = Object.freeze({ matches: true, actualCost: 0, error: null });
const notMatched: DeviceMatchResult = Object.freeze({ matches: false, actualCost: 0, error: null });
