// kubesched's own (upstream's allocator looks each candidate up in the allocated-device set on
// every Allocate call: structured/internal/incubating/allocator_incubating.go at
// kubernetes/kubernetes 03ab440c). A set of allocated devices that numbers its changes per pool,
// so that the allocator can keep each node's in-use verdicts from one run to the next.
import type { DeviceID } from "./types";

/** The number of the last change to one pool's devices (read through {@link VersionedDeviceSet.pool}). */
export interface PoolChanges {
  readonly version: number;
}

/**
 * A set of DeviceIDs that counts its changes and remembers, per pool (`<driver>/<pool>`, the
 * DeviceID without its device name), the number of the last change to one of the pool's devices.
 * Given as AllocatedState.allocatedDevices, it lets the allocator reuse a node's in-use verdicts
 * while none of the node's pools changed since they were read (a plain Set works too, looked up
 * per candidate as upstream does). Its contents change only through add, delete and clear.
 */
export class VersionedDeviceSet extends Set<DeviceID> {
  #version = 0;
  #cleared = 0;
  readonly #pools = new Map<string, { version: number; readonly index: number }>();
  /** Each pool's version by its index ({@link poolIndex}): read without the pool's object. */
  readonly #versions: number[] = [];

  // biome-ignore lint/complexity/noUselessConstructor: it takes no iterable (Set's constructor would add before the fields exist)
  constructor() {
    super();
  }

  /** The number of the last change (0 before any). */
  get version(): number {
    return this.#version;
  }

  /** The number of the last clear (0 before any): every pool changed then. */
  get cleared(): number {
    return this.#cleared;
  }

  /**
   * The pool `<driver>/<pool>`'s changes: one object per pool for the set's lifetime, whose
   * version is the number of the last add or delete of one of its devices (0 before any; see
   * {@link cleared} too).
   */
  pool(poolID: string): PoolChanges {
    return this.#pool(poolID);
  }

  /** A number for the pool `<driver>/<pool>`, the same for the set's lifetime. */
  poolIndex(poolID: string): number {
    return this.#pool(poolID).index;
  }

  /** The version of the pool numbered `index` ({@link poolIndex}): as pool(id).version. */
  poolVersion(index: number): number {
    return this.#versions[index]!;
  }

  #pool(poolID: string): { version: number; readonly index: number } {
    let p = this.#pools.get(poolID);
    if (p === undefined) {
      p = { version: 0, index: this.#versions.length };
      this.#versions.push(0);
      this.#pools.set(poolID, p);
    }
    return p;
  }

  override add(id: DeviceID): this {
    if (!super.has(id)) {
      super.add(id);
      this.#changed(id);
    }
    return this;
  }

  override delete(id: DeviceID): boolean {
    const deleted = super.delete(id);
    if (deleted) this.#changed(id);
    return deleted;
  }

  override clear(): void {
    super.clear();
    this.#cleared = ++this.#version;
  }

  #changed(id: DeviceID): void {
    // Device names have no "/": the rest is the pool's ID (driver names have none either).
    const pool = this.#pool(id.slice(0, id.lastIndexOf("/")));
    pool.version = ++this.#version;
    this.#versions[pool.index] = pool.version;
  }
}
