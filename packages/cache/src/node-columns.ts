// The snapshot's NodeColumns (@kubesched/framework): typed arrays mirroring the hot numbers of the
// snapshot's NodeInfos, indexed by position in the node list. Built in full when the list changes
// (nodes added or removed) and patched for the NodeInfos Cache.updateSnapshot replaced: O(changed
// nodes) per cycle, like the snapshot itself.
import type { Taint } from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";
import type { LabelColumn, NodeColumns, ScalarColumn } from "@kubesched/framework/columnar";

const noTaints: readonly Taint[] = Object.freeze([]);

function grow<T extends Float64Array | Int32Array | Uint8Array>(a: T, capacity: number): T {
  const b = new (a.constructor as new (n: number) => T)(capacity);
  b.set(a);
  return b;
}

class ScalarColumnImpl implements ScalarColumn {
  allocatable: Float64Array;
  requested: Float64Array;
  constructor(
    readonly name: string,
    capacity: number,
  ) {
    this.allocatable = new Float64Array(capacity);
    this.requested = new Float64Array(capacity);
  }
  grow(capacity: number): void {
    this.allocatable = grow(this.allocatable, capacity);
    this.requested = grow(this.requested, capacity);
  }
}

class LabelColumnImpl implements LabelColumn {
  valueIds: Int32Array;
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  constructor(
    readonly key: string,
    capacity: number,
  ) {
    this.valueIds = new Int32Array(capacity).fill(-1);
  }
  idOf(value: string): number {
    return this.ids.get(value) ?? -1;
  }
  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
  write(i: number, labels: Readonly<Record<string, string>> | undefined): void {
    const v = labels === undefined ? undefined : labels[this.key];
    this.valueIds[i] = typeof v === "string" ? this.intern(v) : -1;
  }
  grow(capacity: number): void {
    const b = new Int32Array(capacity).fill(-1);
    b.set(this.valueIds);
    this.valueIds = b;
  }
}

/** The key of a taint list for interning: what toleration matching reads (key, value, effect). */
function taintsKey(taints: readonly Taint[]): string {
  let k = "";
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i]!;
    k += `${t.key ?? ""}\u0000${t.value ?? ""}\u0000${t.effect ?? ""}\u0001`;
  }
  return k;
}

/** NodeColumns over a snapshot's node list, maintained by the cache (see the file comment). */
export class SnapshotColumns implements NodeColumns {
  size = 0;
  nodeInfos: NodeInfo[] = [];
  private capacity = 0;
  private readonly index = new Map<NodeInfo, number>();

  allocatableMilliCPU = new Float64Array(0);
  allocatableMemory = new Float64Array(0);
  allocatableEphemeralStorage = new Float64Array(0);
  allowedPodNumber = new Float64Array(0);
  requestedMilliCPU = new Float64Array(0);
  requestedMemory = new Float64Array(0);
  requestedEphemeralStorage = new Float64Array(0);
  nonZeroRequestedMilliCPU = new Float64Array(0);
  nonZeroRequestedMemory = new Float64Array(0);
  generation = new Float64Array(0);
  podCount = new Int32Array(0);
  imageCount = new Int32Array(0);
  usedPortCount = new Int32Array(0);
  unschedulable = new Uint8Array(0);
  taintSetIds = new Int32Array(0);

  private readonly taintSets: (readonly Taint[])[] = [noTaints];
  private readonly taintSetByKey = new Map<string, number>([["", 0]]);
  private readonly scalars = new Map<string, ScalarColumnImpl>();
  private scalarList: ScalarColumnImpl[] = [];
  private scalarNameList: string[] = [];
  private readonly labels = new Map<string, LabelColumnImpl>();
  private labelList: LabelColumnImpl[] = [];

  get taintSetCount(): number {
    return this.taintSets.length;
  }

  taintSet(id: number): readonly Taint[] {
    return this.taintSets[id] ?? noTaints;
  }

  indexOf(nodeInfo: NodeInfo): number {
    return this.index.get(nodeInfo) ?? -1;
  }

  scalarNames(): readonly string[] {
    return this.scalarNameList;
  }

  scalar(name: string): ScalarColumn | undefined {
    return this.scalars.get(name);
  }

  labelColumn(key: string): LabelColumn {
    let col = this.labels.get(key);
    if (col === undefined) {
      col = new LabelColumnImpl(key, this.capacity);
      for (let i = 0; i < this.size; i++) col.write(i, this.nodeInfos[i]!.node?.metadata?.labels);
      this.labels.set(key, col);
      this.labelList = [...this.labels.values()];
    }
    return col;
  }

  /** Every column from `list` (the snapshot's node list, in order). */
  rebuild(list: readonly NodeInfo[]): void {
    this.nodeInfos = list as NodeInfo[];
    this.size = list.length;
    this.index.clear();
    if (list.length > this.capacity) this.ensureCapacity(list.length);
    for (let i = 0; i < list.length; i++) {
      const ni = list[i]!;
      this.index.set(ni, i);
      this.write(i, ni);
    }
  }

  /** The columns of one NodeInfo of the list whose contents changed (ignored when not listed). */
  update(nodeInfo: NodeInfo): void {
    const i = this.index.get(nodeInfo);
    if (i !== undefined) this.write(i, nodeInfo);
  }

  private ensureCapacity(n: number): void {
    const capacity = Math.max(n, this.capacity * 2, 16);
    this.allocatableMilliCPU = grow(this.allocatableMilliCPU, capacity);
    this.allocatableMemory = grow(this.allocatableMemory, capacity);
    this.allocatableEphemeralStorage = grow(this.allocatableEphemeralStorage, capacity);
    this.allowedPodNumber = grow(this.allowedPodNumber, capacity);
    this.requestedMilliCPU = grow(this.requestedMilliCPU, capacity);
    this.requestedMemory = grow(this.requestedMemory, capacity);
    this.requestedEphemeralStorage = grow(this.requestedEphemeralStorage, capacity);
    this.nonZeroRequestedMilliCPU = grow(this.nonZeroRequestedMilliCPU, capacity);
    this.nonZeroRequestedMemory = grow(this.nonZeroRequestedMemory, capacity);
    this.generation = grow(this.generation, capacity);
    this.podCount = grow(this.podCount, capacity);
    this.imageCount = grow(this.imageCount, capacity);
    this.usedPortCount = grow(this.usedPortCount, capacity);
    this.unschedulable = grow(this.unschedulable, capacity);
    this.taintSetIds = grow(this.taintSetIds, capacity);
    for (const c of this.scalarList) c.grow(capacity);
    for (const c of this.labelList) c.grow(capacity);
    this.capacity = capacity;
  }

  private taintSetId(taints: readonly Taint[]): number {
    if (taints.length === 0) return 0;
    const key = taintsKey(taints);
    let id = this.taintSetByKey.get(key);
    if (id === undefined) {
      id = this.taintSets.length;
      // A copy: the node's own list may be replaced (or, by mistake, changed) later.
      this.taintSets.push(taints.map((t) => ({ ...t })));
      this.taintSetByKey.set(key, id);
    }
    return id;
  }

  private scalarColumn(name: string): ScalarColumnImpl {
    let c = this.scalars.get(name);
    if (c === undefined) {
      c = new ScalarColumnImpl(name, this.capacity);
      this.scalars.set(name, c);
      this.scalarList = [...this.scalars.values()];
      this.scalarNameList = [...this.scalars.keys()];
    }
    return c;
  }

  private write(i: number, ni: NodeInfo): void {
    const a = ni.allocatable;
    const r = ni.requested;
    const nz = ni.nonZeroRequested;
    this.allocatableMilliCPU[i] = a.milliCPU;
    this.allocatableMemory[i] = a.memory;
    this.allocatableEphemeralStorage[i] = a.ephemeralStorage;
    this.allowedPodNumber[i] = a.allowedPodNumber;
    this.requestedMilliCPU[i] = r.milliCPU;
    this.requestedMemory[i] = r.memory;
    this.requestedEphemeralStorage[i] = r.ephemeralStorage;
    this.nonZeroRequestedMilliCPU[i] = nz.milliCPU;
    this.nonZeroRequestedMemory[i] = nz.memory;
    this.generation[i] = ni.generation;
    this.podCount[i] = ni.podCount;
    this.imageCount[i] = ni.imageStates.size;
    this.usedPortCount[i] = ni.usedPorts.len();
    this.unschedulable[i] = ni.unschedulable ? 1 : 0;
    this.taintSetIds[i] = this.taintSetId(ni.taints);
    // Scalar resources: new names get a column (0 on every other node); known ones are rewritten.
    if (a.scalarResources !== null) for (const name of a.scalarResources.keys()) this.scalarColumn(name);
    if (r.scalarResources !== null) for (const name of r.scalarResources.keys()) this.scalarColumn(name);
    const scalars = this.scalarList;
    for (let s = 0; s < scalars.length; s++) {
      const c = scalars[s]!;
      c.allocatable[i] = a.scalar(c.name);
      c.requested[i] = r.scalar(c.name);
    }
    const labelCols = this.labelList;
    if (labelCols.length > 0) {
      const labels = ni.node?.metadata?.labels;
      for (let l = 0; l < labelCols.length; l++) labelCols[l]!.write(i, labels);
    }
  }
}
