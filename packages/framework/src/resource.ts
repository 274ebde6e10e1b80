// upstream: pkg/scheduler/framework/types.go (Resource)
import {
  isScalarResourceName,
  type ResourceAmounts,
  ResourceCPU,
  ResourceEphemeralStorage,
  type ResourceList,
  ResourceMemory,
  ResourcePods,
  resourceListToAmounts,
} from "@kubesched/api";

/**
 * Compute resources in canonical integer units: cpu in millicores, memory and
 * ephemeral-storage in bytes, scalar (extended, hugepages, attachable volumes) as values
 * (upstream Resource).
 * @public
 */
export class Resource {
  /** cpu in millicores. */
  milliCPU = 0;
  /** memory in bytes. */
  memory = 0;
  /** ephemeral-storage in bytes. */
  ephemeralStorage = 0;
  /** Only meaningful for allocatable: the node's `pods` capacity. */
  allowedPodNumber = 0;
  /** Extended resources, hugepages and other scalar resources; null until one is set. */
  scalarResources: Map<string, number> | null = null;

  /** A Resource holding `amounts` (cpu in millicores). */
  static fromAmounts(amounts: ResourceAmounts): Resource {
    const r = new Resource();
    r.add(amounts);
    return r;
  }

  /** A Resource holding a parsed resource list (`status.allocatable`, requests). */
  static fromList(list: ResourceList | undefined): Resource {
    return Resource.fromAmounts(resourceListToAmounts(list));
  }

  /** Adds every amount (cpu in millicores), including `pods` into allowedPodNumber. */
  add(amounts: ResourceAmounts): void {
    for (const [name, v] of amounts) this.addNamed(name, v);
  }

  /** Adds `v` to one named resource (cpu in millicores). */
  addNamed(name: string, v: number): void {
    switch (name) {
      case ResourceCPU:
        this.milliCPU += v;
        return;
      case ResourceMemory:
        this.memory += v;
        return;
      case ResourceEphemeralStorage:
        this.ephemeralStorage += v;
        return;
      case ResourcePods:
        this.allowedPodNumber += v;
        return;
      default:
        if (isScalarResourceName(name)) this.addScalar(name, v);
    }
  }

  /** Adds every amount of `o`. */
  addResource(o: Resource): void {
    this.milliCPU += o.milliCPU;
    this.memory += o.memory;
    this.ephemeralStorage += o.ephemeralStorage;
    this.allowedPodNumber += o.allowedPodNumber;
    if (o.scalarResources) for (const [k, v] of o.scalarResources) this.addScalar(k, v);
  }

  /** Subtracts every amount of `o`. */
  subResource(o: Resource): void {
    this.milliCPU -= o.milliCPU;
    this.memory -= o.memory;
    this.ephemeralStorage -= o.ephemeralStorage;
    this.allowedPodNumber -= o.allowedPodNumber;
    if (o.scalarResources) for (const [k, v] of o.scalarResources) this.addScalar(k, -v);
  }

  /** Adds `v` to a scalar resource. */
  addScalar(name: string, v: number): void {
    if (!this.scalarResources) this.scalarResources = new Map();
    this.scalarResources.set(name, (this.scalarResources.get(name) ?? 0) + v);
  }

  /** Sets a scalar resource to `v`. */
  setScalar(name: string, v: number): void {
    if (!this.scalarResources) this.scalarResources = new Map();
    this.scalarResources.set(name, v);
  }

  /** A scalar resource's amount (0 when absent). */
  scalar(name: string): number {
    return this.scalarResources?.get(name) ?? 0;
  }

  /** The amount for a resource name in canonical units (cpu in millicores). */
  get(name: string): number {
    switch (name) {
      case ResourceCPU:
        return this.milliCPU;
      case ResourceMemory:
        return this.memory;
      case ResourceEphemeralStorage:
        return this.ephemeralStorage;
      case ResourcePods:
        return this.allowedPodNumber;
      default:
        return this.scalar(name);
    }
  }

  /** True when every amount (cpu, memory, ephemeral-storage, scalars) is zero. */
  isZero(): boolean {
    if (this.milliCPU !== 0 || this.memory !== 0 || this.ephemeralStorage !== 0) return false;
    if (this.scalarResources) for (const v of this.scalarResources.values()) if (v !== 0) return false;
    return true;
  }

  /** A copy. */
  clone(): Resource {
    const r = new Resource();
    r.milliCPU = this.milliCPU;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    r.scalarResources = this.scalarResources ? new Map(this.scalarResources) : null;
    return r;
  }

  /** Resets to the amounts of another resource without allocating when possible. */
  copyFrom(o: Resource): void {
    this.milliCPU = o.milliCPU;
    this.memory = o.memory;
    this.ephemeralStorage = o.ephemeralStorage;
    this.allowedPodNumber = o.allowedPodNumber;
    this.scalarResources = o.scalarResources ? new Map(o.scalarResources) : null;
  }

  /** Sets each resource to the max of its own and the other's value (upstream SetMaxResource). */
  setMaxResource(o: Resource): void {
    this.milliCPU = Math.max(this.milliCPU, o.milliCPU);
    this.memory = Math.max(this.memory, o.memory);
    this.ephemeralStorage = Math.max(this.ephemeralStorage, o.ephemeralStorage);
    if (o.scalarResources)
      for (const [k, v] of o.scalarResources) this.setScalar(k, Math.max(this.scalar(k), v));
  }
}
