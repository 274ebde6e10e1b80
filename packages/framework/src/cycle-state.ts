// upstream: staging/src/k8s.io/kube-scheduler/framework/cycle_state.go
import type { Pod } from "@kubesched/api";

/**
 * Data a plugin stores in the CycleState; clone() must deep-copy what later mutation could touch.
 * @public
 */
export interface StateData {
  /** A copy for a cloned CycleState (preemption's dry runs, the nominated-pod pass). */
  clone(): StateData;
}

/**
 * A typed key: `const key = stateKey<MyState>("PreFilterMyPlugin")`.
 * @public
 */
export type StateKey<T extends StateData> = string & { readonly __stateData?: T };

/**
 * A typed {@link StateKey} for `name` (upstream's `PreFilter<Name>` / `PreScore<Name>` keys).
 * @public
 */
export function stateKey<T extends StateData>(name: string): StateKey<T> {
  return name as StateKey<T>;
}

/**
 * Where plugins put the pods they want activated at the end of a cycle (upstream PodsToActivateKey).
 * @public
 */
export const podsToActivateKey: StateKey<PodsToActivate> = "kubernetes.io/pods-to-activate";

/**
 * Per-scheduling-attempt storage shared by the plugins of one cycle, plus the framework's
 * bookkeeping of which plugins skipped which extension point.
 * @public
 */
export class CycleState {
  private readonly storage = new Map<string, StateData>();
  /**
   * Plugins whose Filter (and PreFilter extensions) are skipped: they returned Skip at PreFilter.
   * Replaced, never changed in place (clones share it).
   * @internal
   */
  skipFilterPlugins: ReadonlySet<string> = new Set();
  /**
   * Plugins whose Score is skipped: they returned Skip at PreScore.
   * @internal
   */
  skipScorePlugins: ReadonlySet<string> = new Set();
  /**
   * Plugins whose PreBind is skipped: they returned Skip at PreBindPreFlight.
   * @internal
   */
  skipPreBindPlugins: ReadonlySet<string> = new Set();
  /**
   * Whether this cycle records per-plugin metrics (sampled, upstream: 10 % of cycles).
   * @internal
   */
  recordPluginMetrics = false;
  /**
   * The cancellation the cycle runs under (upstream: the `ctx` every extension point receives):
   * aborted when the scheduler stops (`Scheduler.run`'s signal). Plugins with long searches check
   * it, as DynamicResources' Filter does (`asked by caller to stop allocating devices: …`).
   * Undefined where nothing can cancel the cycle (library calls such as `why`).
   */
  signal: AbortSignal | undefined = undefined;

  /** The value stored under `key`, or undefined. */
  read<T extends StateData>(key: StateKey<T>): T | undefined {
    return this.storage.get(key) as T | undefined;
  }

  /** Stores `value` under `key` (replacing what was there). */
  write<T extends StateData>(key: StateKey<T>, value: T): void {
    this.storage.set(key, value);
  }

  /** Removes the value stored under `key`. */
  delete(key: string): void {
    this.storage.delete(key);
  }

  /** Whether a value is stored under `key`. */
  has(key: string): boolean {
    return this.storage.has(key);
  }

  /**
   * A copy whose entries are clones (used for preemption dry runs and nominated-pod passes). The
   * skip sets are shared, not copied: the framework replaces them (at PreFilter, PreScore,
   * PreBindPreFlight) and never changes one in place, and a clone sharing them lets the runtime
   * reuse the Filter plugin list it derived from the set (a dry run clones the state per node).
   */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.storage) c.storage.set(k, v.clone());
    c.skipFilterPlugins = this.skipFilterPlugins;
    c.skipScorePlugins = this.skipScorePlugins;
    c.skipPreBindPlugins = this.skipPreBindPlugins;
    c.recordPluginMetrics = this.recordPluginMetrics;
    c.signal = this.signal;
    return c;
  }
}

/**
 * Pods plugins ask to move to activeQ at the end of the scheduling/binding cycle (upstream
 * PodsToActivate), stored under {@link podsToActivateKey}.
 * @public
 */
export class PodsToActivate implements StateData {
  /** `namespace/name` → pod. */
  map: Map<string, Pod> = new Map();
  /** Shared between clones on purpose: plugins in a dry run add to the same set (upstream). */
  clone(): StateData {
    return this;
  }
}
