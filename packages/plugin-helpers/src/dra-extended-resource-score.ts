// upstream: pkg/scheduler/framework/plugins/noderesources/resource_allocation.go
// (getDRAPreScoredParams, calculateDRAExtendedResourceAllocatableRequest, calculateDRAResourceTotals,
// deviceMatchesClass; at kubernetes/kubernetes@b170451c, the form with draPreScoreState reading
// the SharedDRAManager) and staging/src/k8s.io/dynamic-resource-allocation/structured
// (IsDeviceAllocated).
//
// DRAExtendedResource on the scoring side: a scoring resource that a node has no allocatable for
// but that a DeviceClass backs is scored on the node's devices of that class (allocatable) and
// those of them claims hold (requested, before the pod's own request is added). Everything is read
// from the scheduler's shared DRA manager: the classes through its resolver, the slices patched by
// DeviceTaintRules, and the devices held by the claims through the assume cache and by the
// in-flight allocations of every profile (its allocated state, kept between cycles).
import type { Device, DeviceClass, Node, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  deviceReachesNode,
  groupSlicesByNode,
  KeptSlicesByNode,
  makeDeviceID,
  NodeSelectorCache,
  type PoolChanges,
  type SlicesByNode,
  sliceReachesNode,
  VersionedDeviceSet,
} from "@kubesched/dynamic-resource-allocation/structured";
import type { DeviceClassResolver, ResourceSpec, SharedDRAManager } from "@kubesched/framework";
import { isDRAExtendedResourceName } from "./device-class-resolver";

/** The CEL features the class selectors are compiled with (the DRA CEL environment's). */
export interface DRAScoringCELFeatures {
  enableConsumableCapacity: boolean;
  enableListTypeAttributes: boolean;
}

/**
 * One slice's devices a DeviceClass selects (an Error when a selector fails), and how many of
 * them the held-device set had at its change `version` (-1: not counted yet).
 */
interface SliceClassDevices {
  readonly ids: readonly string[] | Error;
  readonly pool: string;
  devices: ReadonlySet<string> | null;
  version: number;
  allocated: number;
  changes: PoolChanges | null;
}

/**
 * The slice's devices that are on `node` (the slice's own when all are), or an Error when a node
 * selector is invalid: with per-device node selection those a device's fields put on the node,
 * otherwise all or none as the slice reaches the node (the allocator's reach, sliceReachesNode,
 * every slice as with DRAPartitionableDevices). upstream's calculateDRAResourceTotals checks the
 * same fields in its own code; it differs only for slices API validation rejects (none of node
 * name, all nodes, node selector and per-device selection set: upstream counts their devices on
 * every node, the allocator's reach on none) and slices with shared counters (which hold no
 * devices).
 */
function devicesOnNode(
  slice: ResourceSlice,
  node: Node,
  selectors: NodeSelectorCache,
): readonly Device[] | Error {
  try {
    if (slice.spec.perDeviceNodeSelection === true) {
      return (slice.spec.devices ?? []).filter((d) => deviceReachesNode(d, node, selectors));
    }
    return sliceReachesNode(slice, node, true, selectors) ? (slice.spec.devices ?? []) : [];
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * How many of the slice's selected devices `devices` holds: recounted only when the set is not
 * the one counted last or a device of the slice's pool was added or removed since.
 */
function heldCount(kept: SliceClassDevices, devices: ReadonlySet<string>): number {
  const ids = kept.ids as readonly string[];
  if (devices instanceof VersionedDeviceSet) {
    if (
      kept.devices === devices &&
      kept.changes !== null &&
      kept.changes.version <= kept.version &&
      devices.cleared <= kept.version
    ) {
      return kept.allocated;
    }
    kept.devices = devices;
    kept.changes = devices.pool(kept.pool);
    kept.version = devices.version;
  } else {
    kept.devices = null;
    kept.changes = null;
  }
  let n = 0;
  for (const id of ids) if (devices.has(id)) n++;
  kept.allocated = n;
  return n;
}

/**
 * What a DeviceClass selects on one node, for one grouping of the slices: the whole slices on the
 * node (each with its kept count) and the devices selected one by one (per-device node
 * selection); `failed` when a node or CEL selector fails (the node then scores `[0, 0]`).
 */
interface NodeClassDevices {
  readonly slices: SlicesByNode;
  readonly whole: readonly SliceClassDevices[];
  readonly single: readonly string[];
  readonly capacity: number;
  readonly failed: boolean;
}

const failedOnNode = (slices: SlicesByNode): NodeClassDevices => ({
  slices,
  whole: [],
  single: [],
  capacity: 0,
  failed: true,
});

/**
 * The state PreScore gathers for DRA-backed scoring resources (upstream draPreScoreState): the
 * devices claims hold and the slices, read once per cycle (the held devices are the DRA manager's
 * set, kept up to date by its next update: read them within the cycle).
 */
export class DRAPreScoreState {
  /** The class backing each resource name, resolved once per cycle (upstream asks per node). */
  private readonly classes = new Map<string, DeviceClass | undefined>();

  constructor(
    private readonly scoring: DRAExtendedResourceScoring,
    readonly allocatedDevices: ReadonlySet<string>,
    readonly resourceSlices: readonly ResourceSlice[],
    /** The slices by the node they name, and those naming none (the allocator's grouping). */
    private readonly index: SlicesByNode = groupSlicesByNode(resourceSlices),
  ) {}

  /** The DeviceClass backing `resourceName` this cycle (`resolve` asked once per name). */
  deviceClass(
    resourceName: string,
    resolve: (name: string) => DeviceClass | undefined,
  ): DeviceClass | undefined {
    if (this.classes.has(resourceName)) return this.classes.get(resourceName);
    const c = resolve(resourceName);
    this.classes.set(resourceName, c);
    return c;
  }

  /** The slices by node this state reads (the scoring's kept per-node counts are per grouping). */
  get slicesByNode(): SlicesByNode {
    return this.index;
  }

  /**
   * The slices that may have devices on the node: a slice naming another node has none there
   * (upstream's loop skips it), so each node reads its own and those naming no node.
   */
  slicesFor(nodeName: string): readonly ResourceSlice[] {
    const { onNode, shared: notNamed } = this.index;
    const own = onNode.get(nodeName);
    if (own === undefined) return notNamed;
    return notNamed.length === 0 ? own : [...own, ...notNamed];
  }

  /**
   * upstream calculateDRAExtendedResourceAllocatableRequest: `[devices of the class on the node,
   * those claims hold]`; `[0, 0]` when no class backs the resource or a selector fails.
   */
  allocatableRequest(node: Node, resourceName: string): [number, number] {
    const out = new Float64Array(2);
    this.allocatableRequestInto(node, resourceName, out);
    return [out[0] as number, out[1] as number];
  }

  /** {@link allocatableRequest} written to `out[0]` and `out[1]` (Score asks per node: no tuple each). */
  allocatableRequestInto(node: Node, resourceName: string, out: Float64Array): void {
    this.scoring.resourceTotals(node, resourceName, this, out);
  }
}

/**
 * The DRA side of NodeResourcesFit's scoring (DRAExtendedResource). One per plugin instance: it
 * keeps the compiled class selectors and, through the CEL cache, their verdicts per device.
 */
export class DRAExtendedResourceScoring {
  private readonly celCache: Cache;
  private readonly resolver: DeviceClassResolver;
  private readonly resolveClass: (resourceName: string) => DeviceClass | undefined;
  private readonly enableConsumableCapacity: boolean;
  /** The node selectors of slices and devices, parsed once. */
  private readonly selectors = new NodeSelectorCache();
  /** The slices by node, kept while the listing holds the same objects. */
  private readonly grouping = new KeptSlicesByNode();
  /** Per slice object and DeviceClass object: the devices the class selects and how many are held. */
  private readonly sliceClassDevices = new WeakMap<ResourceSlice, WeakMap<DeviceClass, SliceClassDevices>>();
  /** Per Node object and DeviceClass object: what the class selects on the node. */
  private readonly keptOnNode = new WeakMap<Node, WeakMap<DeviceClass, NodeClassDevices>>();

  constructor(
    /** The scheduler's DRA manager (`handle.sharedDRAManager()`). */
    private readonly manager: SharedDRAManager,
    celFeatures: DRAScoringCELFeatures,
  ) {
    this.celCache = new Cache(10, celFeatures);
    const resolver = manager.deviceClassResolver();
    this.resolver = resolver;
    this.resolveClass = (name) => resolver.getDeviceClass(name);
    this.enableConsumableCapacity = celFeatures.enableConsumableCapacity;
  }

  /**
   * upstream getDRAPreScoredParams: null when no scoring resource is backed by a DeviceClass,
   * else the devices claims hold (the manager's held devices: exclusively or by a share, as
   * IsDeviceAllocated reads GatherAllocatedState's result) and the slices patched by
   * DeviceTaintRules.
   */
  preScore(resources: readonly ResourceSpec[]): DRAPreScoreState | null {
    const anyBackedByDRA = resources.some(
      (r) => isDRAExtendedResourceName(r.name) && this.resolver.getDeviceClass(r.name) !== undefined,
    );
    if (!anyBackedByDRA) return null;
    const slices = this.manager.resourceSlices().list();
    return new DRAPreScoreState(
      this,
      // The state DynamicResources keeps for the same gates (one update per cycle for both).
      this.manager.resourceClaims().heldDevices(this.enableConsumableCapacity),
      slices,
      this.grouping.get(slices),
    );
  }

  /**
   * See {@link DRAPreScoreState.allocatableRequest}. What the class selects on the node is kept
   * per Node object, DeviceClass object and grouping of the slices; only the held devices are
   * counted per call (a whole slice's count is kept too while its pool's devices are unchanged).
   */
  resourceTotals(node: Node, resourceName: string, state: DRAPreScoreState, out: Float64Array): void {
    out[0] = 0;
    out[1] = 0;
    const deviceClass = state.deviceClass(resourceName, this.resolveClass);
    if (deviceClass === undefined) return;
    const kept = this.nodeClassDevices(node, deviceClass, state);
    if (kept.failed) return;
    const held = state.allocatedDevices;
    let allocated = 0;
    for (const slice of kept.whole) allocated += heldCount(slice, held);
    for (const id of kept.single) if (held.has(id)) allocated++;
    out[0] = kept.capacity;
    out[1] = allocated;
  }

  /** What the class selects on the node (kept, see {@link resourceTotals}). */
  private nodeClassDevices(node: Node, deviceClass: DeviceClass, state: DRAPreScoreState): NodeClassDevices {
    let perClass = this.keptOnNode.get(node);
    if (perClass === undefined) {
      perClass = new WeakMap();
      this.keptOnNode.set(node, perClass);
    }
    const slices = state.slicesByNode;
    const kept = perClass.get(deviceClass);
    if (kept !== undefined && kept.slices === slices) return kept;
    const fresh = this.selectOnNode(node, deviceClass, state, slices);
    perClass.set(deviceClass, fresh);
    return fresh;
  }

  private selectOnNode(
    node: Node,
    deviceClass: DeviceClass,
    state: DRAPreScoreState,
    slices: SlicesByNode,
  ): NodeClassDevices {
    const whole: SliceClassDevices[] = [];
    const single: string[] = [];
    let capacity = 0;
    for (const slice of state.slicesFor(node.metadata?.name ?? "")) {
      const devices = devicesOnNode(slice, node, this.selectors);
      if (devices instanceof Error) return failedOnNode(slices);
      if (devices === slice.spec.devices) {
        // The whole slice is on the node: what the class selects of it is kept per slice.
        const kept = this.classDevices(slice, deviceClass);
        if (kept.ids instanceof Error) return failedOnNode(slices);
        capacity += kept.ids.length;
        whole.push(kept);
        continue;
      }
      const driver = slice.spec.driver;
      const pool = slice.spec.pool.name;
      for (const device of devices) {
        const matches = this.deviceMatchesClass(device, deviceClass, driver);
        if (matches instanceof Error) return failedOnNode(slices);
        if (!matches) continue;
        capacity++;
        single.push(makeDeviceID(driver, pool, device.name));
      }
    }
    return { slices, whole, single, capacity, failed: false };
  }

  /** The slice's devices the class selects (upstream checks them per node and cycle). */
  private classDevices(slice: ResourceSlice, deviceClass: DeviceClass): SliceClassDevices {
    let perClass = this.sliceClassDevices.get(slice);
    if (perClass === undefined) {
      perClass = new WeakMap();
      this.sliceClassDevices.set(slice, perClass);
    }
    let kept = perClass.get(deviceClass);
    if (kept === undefined) {
      const driver = slice.spec.driver;
      const pool = slice.spec.pool.name;
      let ids: string[] | Error = [];
      for (const device of slice.spec.devices ?? []) {
        const matches = this.deviceMatchesClass(device, deviceClass, driver);
        if (matches instanceof Error) {
          ids = matches;
          break;
        }
        if (matches) ids.push(makeDeviceID(driver, pool, device.name));
      }
      kept = { ids, pool: `${driver}/${pool}`, devices: null, version: -1, allocated: 0, changes: null };
      perClass.set(deviceClass, kept);
    }
    return kept;
  }

  /**
   * upstream deviceMatchesClass: every CEL selector of the class matches (an error is returned).
   * Each selector's verdict is kept per device object by the CEL cache (Cache.deviceMatches).
   */
  private deviceMatchesClass(device: Device, deviceClass: DeviceClass, driver: string): boolean | Error {
    for (const selector of deviceClass.spec?.selectors ?? []) {
      if (selector.cel === undefined) continue;
      const compiled = this.celCache.getOrCompile(selector.cel.expression);
      if (compiled.error !== null) return new Error(compiled.error.detail);
      const result = this.celCache.deviceMatches(compiled, device, driver);
      if (result.error !== null) return result.error;
      if (!result.matches) return false;
    }
    return true;
  }
}
