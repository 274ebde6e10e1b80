// A cache of compiled selectors. upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/cache.go.
import { type CompilationResult, type Compiler, type Features, getCompiler } from "./compile";

/**
 * An LRU cache of compiled CEL expressions: the oldest entry goes once `maxCacheEntries` are held.
 * Only successful compilations are kept; cost estimation is disabled, as upstream's.
 */
export class Cache {
  readonly #entries = new Map<string, CompilationResult>();
  readonly #max: number;
  readonly #compiler: Compiler;

  constructor(maxCacheEntries: number, features: Features) {
    this.#max = maxCacheEntries;
    this.#compiler = getCompiler(features);
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

  /** How many compiled expressions are held. */
  get size(): number {
    return this.#entries.size;
  }
}
