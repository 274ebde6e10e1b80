// The snapshot's hot per-node numbers in typed arrays (structure of arrays), indexed by the node's
// position in NodeInfoLister.list(). Columnar Filter/Score plugins (plugins.ts) read a window of
// nodes from here instead of following each NodeInfo's objects: the same numbers, laid out so
// that walking 500 nodes touches a few contiguous arrays instead of thousands of cold objects.
//
// Not upstream: kube-scheduler's Filter and Score are per node only. The per-node API stays the
// contract; the columns are a view of the same NodeInfos, maintained with them.
import type { Taint } from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";

/**
 * One scalar resource (extended, hugepages, attachable volumes) on every node.
 * @beta
 */
export interface ScalarColumn {
  /** The resource's name. */
  readonly name: string;
  /** `nodeInfo.allocatable.scalar(name)` per node (0 where the node has none). */
  readonly allocatable: Float64Array;
  /** `nodeInfo.requested.scalar(name)` per node. */
  readonly requested: Float64Array;
}

/**
 * The values of one node label key, interned: nodes with the same value share its id.
 * @beta
 */
export interface LabelColumn {
  /** The label key. */
  readonly key: string;
  /**
   * Per node: the id of its value of `key` (an index into `values`), or -1 when the node has no
   * such label (or its value is not a string: a key shadowing an `Object.prototype` member).
   */
  readonly valueIds: Int32Array;
  /** The interned values; ids are stable for the life of the columns, values are never removed. */
  readonly values: readonly string[];
  /** The id of a value, -1 when no node had it. */
  idOf(value: string): number;
}

/**
 * A read-only, column-wise view of the cycle's snapshot: entry `i` of every array describes
 * `nodeInfos[i]`, the NodeInfo at position `i` of `NodeInfoLister.list()`.
 *
 * Invariants (what a plugin may rely on):
 * - Within a scheduling cycle the columns equal their NodeInfos' fields (updated with the
 *   snapshot, O(changed nodes) per cycle). Between cycles they change: read the arrays through
 *   this object on every call, never keep an array or an index across cycles (arrays are
 *   reallocated when the cluster grows, and an index names another node after nodes are added
 *   or removed: a cache kept by index across cycles must check `generation`).
 * - Arrays may be longer than `size`; only `[0, size)` is meaningful.
 * - Amounts are in canonical units, as `Resource`: cpu in millicores, memory and
 *   ephemeral-storage in bytes, scalar resources as values.
 * @beta
 */
export interface NodeColumns {
  /** Number of nodes (`list().length`). */
  readonly size: number;
  /** The NodeInfo at each index (the snapshot's `list()`). */
  readonly nodeInfos: readonly NodeInfo[];
  /** The index of one of `nodeInfos`, or -1 (a NodeInfo of another snapshot, or a clone). */
  indexOf(nodeInfo: NodeInfo): number;

  /** `allocatable.milliCPU` per node. */
  readonly allocatableMilliCPU: Float64Array;
  /** `allocatable.memory` per node. */
  readonly allocatableMemory: Float64Array;
  /** `allocatable.ephemeralStorage` per node. */
  readonly allocatableEphemeralStorage: Float64Array;
  /** `allocatable.allowedPodNumber` (the node's `pods` capacity) per node. */
  readonly allowedPodNumber: Float64Array;
  /** `requested.milliCPU` (the sum of the pods' requests) per node. */
  readonly requestedMilliCPU: Float64Array;
  /** `requested.memory` per node. */
  readonly requestedMemory: Float64Array;
  /** `requested.ephemeralStorage` per node. */
  readonly requestedEphemeralStorage: Float64Array;
  /** `nonZeroRequested.milliCPU` (100m assumed for containers without a request) per node. */
  readonly nonZeroRequestedMilliCPU: Float64Array;
  /** `nonZeroRequested.memory` (200Mi assumed for containers without a request) per node. */
  readonly nonZeroRequestedMemory: Float64Array;
  /**
   * `generation` per node. Generations are process-wide and never reused, so a plugin may keep
   * per-node results across cycles by index and trust one only while the generation at that
   * index is the one it was computed for (the same node, unchanged).
   */
  readonly generation: Float64Array;
  /** `pods.length` per node. */
  readonly podCount: Int32Array;
  /** `imageStates.size` (image names known on the node) per node. */
  readonly imageCount: Int32Array;
  /** `usedPorts.len()` (host ports the node's pods use) per node. */
  readonly usedPortCount: Int32Array;
  /** 1 where `unschedulable` (spec.unschedulable), else 0. */
  readonly unschedulable: Uint8Array;
  /**
   * Each node's taints as an interned set: nodes whose taints are equal (same key, value and
   * effect, in the same order) share an id; 0 is the empty set. Ids are stable for the life of
   * the columns, so a plugin can decide once per set and cycle instead of once per node.
   */
  readonly taintSetIds: Int32Array;
  /** Number of taint sets interned so far (ids are `[0, taintSetCount)`). */
  readonly taintSetCount: number;
  /** The taints of a set (as on the first node seen with it). */
  taintSet(id: number): readonly Taint[];
  /** The scalar resources some node has (allocatable or requested), in the order first seen. */
  scalarNames(): readonly string[];
  /** A scalar resource's columns; undefined when no node has it (every amount is 0). */
  scalar(name: string): ScalarColumn | undefined;
  /**
   * The interned values of a label key. The first call for a key builds its column (O(nodes));
   * from then on it is maintained with the others.
   */
  labelColumn(key: string): LabelColumn;
}
