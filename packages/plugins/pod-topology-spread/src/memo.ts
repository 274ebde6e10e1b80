// Incremental counts for PreFilter and PreScore: what a node contributes (per constraint, its
// topology value and its matching pods) is kept per pod "shape" and recomputed only for nodes whose
// NodeInfo generation changed since the shape was last seen. A cycle then costs one generation
// check per node instead of a selector match per pod. Decisions are identical to the full walk
// (counting.ts): the same per-node computation feeds the same aggregate.
//
// When the snapshot tracks changes (ColumnarNodeInfoLister.changedSince, the scheduler cache's Snapshot)
// and `nodes` is its list(), a shape refreshed from the same snapshot before visits only the nodes
// changed since: O(changed) per cycle instead of a generation check per node.
//
// upstream: scoring_memo.go does the same for PreScore (keyed the same way); here PreFilter uses it too.
import type { Node, Pod, RequiredNodeAffinity } from "@kubesched/api";
import { LabelHostname, matchesNothing, type Selector } from "@kubesched/api";
import type { NodeInfo, NodeInfoLister } from "@kubesched/framework";
import { type ColumnarNodeInfoLister, columnarNodeInfos } from "@kubesched/framework/columnar";
import { countPodsMatchSelector, nodeLabelsMatchSpreadConstraints, type SpreadConstraint } from "./common";
import { type CountOptions, nodeCountsFor, type SpreadCounter } from "./counting";
import { DomainCounts, grownInt32, ValueIds } from "./domains";

/** How many pod shapes are remembered (least recently used are dropped). */
const maxShapes = 16;

/** One node's contribution: per constraint its topology value's id (-1: not counted) and count. */
interface NodeEntry {
  generation: number;
  node: Node | null;
  values: number[];
  counts: number[];
  epoch: number;
}

class ShapeMemo {
  readonly nodes = new Map<string, NodeEntry>();
  /** Per constraint: matching pods per domain. */
  readonly domains: DomainCounts[];
  /** Per constraint and value id: the nodes contributing to the domain (it exists while > 0). */
  private nodeCounts: Int32Array[];
  epoch = 0;
  /** The snapshot of the last refresh when it tracks changes, and its change token. */
  lister: ColumnarNodeInfoLister | null = null;
  token = -1;

  constructor(readonly ids: readonly ValueIds[]) {
    this.domains = ids.map((v) => new DomainCounts(v));
    this.nodeCounts = ids.map(() => new Int32Array(0));
  }

  add(e: NodeEntry, sign: 1 | -1): void {
    for (let i = 0; i < e.values.length; i++) {
      const id = e.values[i]!;
      if (id < 0) continue;
      let nodes = this.nodeCounts[i]!;
      if (id >= nodes.length) this.nodeCounts[i] = nodes = grownInt32(nodes, id + 1, nodes.length);
      const m = this.domains[i]!;
      // A domain is created (inserted last) by its first node and deleted with its last one.
      const n = nodes[id]! + sign;
      nodes[id] = n;
      if (n === 0) m.deleteId(id);
      else m.setId(id, m.countOf(id) + sign * e.counts[i]!);
    }
  }
}

/** What decides a node's contribution besides the node itself. */
interface ShapeInputs {
  pod: Pod;
  constraints: readonly SpreadConstraint[];
  requiredNodeAffinity: RequiredNodeAffinity;
  /** Nodes must carry every topology key to count. */
  requireAllTopologies: boolean;
  /** Hostname constraints are counted in Score, not here (PreScore). */
  skipHostname: boolean;
  opts: CountOptions;
}

function selectorKey(s: Selector): string {
  return matchesNothing(s) ? "\u0000nothing" : s.string();
}

function shapeKey(kind: string, inp: ShapeInputs): string {
  const spec = inp.pod.spec;
  let key = `${kind}|${inp.pod.metadata?.namespace ?? ""}|${inp.opts.enableNodeInclusionPolicy}|${inp.opts.tolerationOptions.enableComparisonOperators === true}`;
  let honorTaints = false;
  for (const c of inp.constraints) {
    key += `|${c.topologyKey}\u0001${selectorKey(c.selector)}\u0001${c.nodeAffinityPolicy}\u0001${c.nodeTaintsPolicy}`;
    if (c.nodeTaintsPolicy === "Honor") honorTaints = true;
  }
  // The pod's node selector and required node affinity decide which nodes count.
  key += `|${JSON.stringify(spec?.nodeSelector ?? null)}|${JSON.stringify(spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null)}`;
  if (honorTaints) key += `|${JSON.stringify(spec?.tolerations ?? null)}`;
  return key;
}

/** An entry for a node not counted yet (computeEntry fills it). */
function newEntry(constraints: number, epoch: number): NodeEntry {
  return {
    generation: 0,
    node: null,
    values: new Array(constraints).fill(-1),
    counts: new Array(constraints).fill(0),
    epoch,
  };
}

function computeEntry(e: NodeEntry, nodeInfo: NodeInfo, inp: ShapeInputs, ids: readonly ValueIds[]): void {
  const { constraints, opts } = inp;
  const node = nodeInfo.node;
  e.generation = nodeInfo.generation;
  e.node = node;
  for (let i = 0; i < constraints.length; i++) {
    e.values[i] = -1;
    e.counts[i] = 0;
  }
  if (node === null) return;
  if (!opts.enableNodeInclusionPolicy && !inp.requiredNodeAffinity.match(node)) return;
  const labels = node.metadata?.labels;
  if (inp.requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) return;
  const ns = inp.pod.metadata?.namespace ?? "";
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    if (inp.skipHostname && c.topologyKey === LabelHostname) continue;
    if (!nodeCountsFor(c, inp.pod, nodeInfo, inp.requiredNodeAffinity, opts)) continue;
    e.values[i] = ids[i]!.idOf(labels?.[c.topologyKey] ?? "");
    e.counts[i] = countPodsMatchSelector(nodeInfo.pods, c.selector, ns);
  }
}

/** A SpreadCounter that remembers per-node contributions across cycles (see the file comment). */
export class SpreadCountsMemo implements SpreadCounter {
  private readonly shapes = new Map<string, ShapeMemo>();
  /** Per topology key: its values, interned (shared by every shape, never shrinking). */
  private readonly valueIds = new Map<string, ValueIds>();

  /** `lister` gives the cycle's snapshot (for its change tracking); without it every refresh walks. */
  constructor(private readonly lister: (() => NodeInfoLister) | null = null) {}

  /** The interned values of a topology key. */
  idsOf(key: string): ValueIds {
    let ids = this.valueIds.get(key);
    if (ids === undefined) {
      ids = new ValueIds();
      this.valueIds.set(key, ids);
    }
    return ids;
  }

  /**
   * Values stay interned after their nodes left: once a key has more than twice as many values as
   * there are nodes plus this, its ids start over (the shapes using it are counted anew).
   */
  static compactSlack = 1024;

  /** Starts the ids of `key` over, dropping the shapes counted with the old ones. */
  private forget(key: string): void {
    const old = this.valueIds.get(key);
    this.valueIds.delete(key);
    for (const [k, m] of this.shapes) if (m.ids.includes(old!)) this.shapes.delete(k);
  }

  private refresh(kind: string, nodes: readonly NodeInfo[], inp: ShapeInputs): ShapeMemo {
    for (let i = 0; i < inp.constraints.length; i++) {
      const k = inp.constraints[i]!.topologyKey;
      const ids = this.valueIds.get(k);
      if (ids !== undefined && ids.values.length > 2 * nodes.length + SpreadCountsMemo.compactSlack)
        this.forget(k);
    }
    const key = shapeKey(kind, inp);
    let memo = this.shapes.get(key);
    if (memo === undefined) {
      memo = new ShapeMemo(inp.constraints.map((c) => this.idsOf(c.topologyKey)));
      if (this.shapes.size >= maxShapes) this.shapes.delete(this.shapes.keys().next().value as string);
    } else {
      this.shapes.delete(key);
    }
    this.shapes.set(key, memo);

    const entries = memo.nodes;
    const n = inp.constraints.length;
    const source = this.lister?.() ?? null;
    const lister = source === null ? null : columnarNodeInfos(source);
    if (lister !== null && lister.list() === nodes) {
      const same = memo.lister === lister;
      const changes = lister.changedSince(same ? memo.token : -1);
      memo.lister = lister;
      memo.token = changes.token;
      if (same && changes.nodes !== null) {
        const changed = changes.nodes;
        for (let k = 0; k < changed.length; k++) {
          const ni = changed[k]!;
          let e = entries.get(ni.nodeName);
          if (e !== undefined && e.generation === ni.generation && e.node === ni.node) continue;
          if (e === undefined) {
            e = newEntry(n, 0);
            entries.set(ni.nodeName, e);
          } else {
            memo.add(e, -1);
          }
          computeEntry(e, ni, inp, memo.ids);
          memo.add(e, 1);
        }
        return memo;
      }
    } else {
      memo.lister = null;
    }

    const epoch = ++memo.epoch;
    for (let k = 0; k < nodes.length; k++) {
      const ni = nodes[k]!;
      const name = ni.nodeName;
      let e = entries.get(name);
      if (e !== undefined && e.generation === ni.generation && e.node === ni.node) {
        e.epoch = epoch;
        continue;
      }
      if (e === undefined) {
        e = newEntry(n, epoch);
        entries.set(name, e);
      } else {
        memo.add(e, -1);
      }
      computeEntry(e, ni, inp, memo.ids);
      e.epoch = epoch;
      memo.add(e, 1);
    }
    // Every listed node was stamped with this epoch; more entries than nodes means some left.
    if (entries.size > nodes.length) {
      for (const [name, e] of entries) {
        if (e.epoch !== epoch) {
          memo.add(e, -1);
          entries.delete(name);
        }
      }
    }
    return memo;
  }

  countDoNotSchedule(
    pod: Pod,
    nodes: readonly NodeInfo[],
    constraints: readonly SpreadConstraint[],
    requiredNodeAffinity: RequiredNodeAffinity,
    opts: CountOptions,
  ): DomainCounts[] {
    const memo = this.refresh("F", nodes, {
      pod,
      constraints,
      requiredNodeAffinity,
      requireAllTopologies: true,
      skipHostname: false,
      opts,
    });
    return memo.domains.map((m) => m.copy());
  }

  countScheduleAnyway(
    pod: Pod,
    nodes: readonly NodeInfo[],
    constraints: readonly SpreadConstraint[],
    requiredNodeAffinity: RequiredNodeAffinity,
    requireAllTopologies: boolean,
    seeded: Map<string, number>[],
    opts: CountOptions,
  ): void {
    const memo = this.refresh(requireAllTopologies ? "S1" : "S0", nodes, {
      pod,
      constraints,
      requiredNodeAffinity,
      requireAllTopologies,
      skipHostname: true,
      opts,
    });
    for (let i = 0; i < seeded.length; i++) {
      const m = seeded[i]!;
      const domains = memo.domains[i]!;
      for (const [v, cur] of m) {
        const d = domains.get(v);
        if (d !== undefined) m.set(v, cur + d);
      }
    }
  }
}
