// upstream: pkg/scheduler/backend/cache/node_tree.go, k8s.io/component-helpers/node/topology (GetZoneKey)
import {
  LabelFailureDomainBetaRegion,
  LabelFailureDomainBetaZone,
  LabelTopologyRegion,
  LabelTopologyZone,
  type Node,
} from "@kubesched/api";

/**
 * The zone key of a node: `region + ":\x00:" + zone` from the topology labels (the deprecated
 * failure-domain labels as fallback), "" when the node has neither.
 */
export function getZoneKey(node: Node): string {
  const labels = node.metadata?.labels;
  if (!labels) return "";
  const zone = labels[LabelTopologyZone] ?? labels[LabelFailureDomainBetaZone] ?? "";
  const region = labels[LabelTopologyRegion] ?? labels[LabelFailureDomainBetaRegion] ?? "";
  if (region === "" && zone === "") return "";
  // The NUL character guards against regions or zones that contain a colon.
  return `${region}:\x00:${zone}`;
}

/** Go's %q for the strings used here (NUL is the only control character zone keys carry). */
function quote(s: string): string {
  return JSON.stringify(s).replace(/\\u0000/g, "\\x00");
}

/**
 * Node names grouped by zone; zones and the nodes in a zone keep insertion order.
 * list() interleaves the zones round-robin so that consecutive nodes are spread across zones.
 */
export class NodeTree {
  /** Zone key → node names. */
  readonly tree = new Map<string, string[]>();
  /** Zone keys in insertion order. */
  readonly zones: string[] = [];
  numNodes = 0;

  constructor(nodes: readonly Node[] = []) {
    for (const n of nodes) this.addNode(n);
  }

  /** Adds a node to its zone; a node already present is left alone. */
  addNode(n: Node): void {
    const zone = getZoneKey(n);
    const name = n.metadata?.name ?? "";
    const na = this.tree.get(zone);
    if (na) {
      if (na.includes(name)) return;
      na.push(name);
    } else {
      this.zones.push(zone);
      this.tree.set(zone, [name]);
    }
    this.numNodes++;
  }

  /** Removes a node; throws when the node is not in its zone. */
  removeNode(n: Node): void {
    const zone = getZoneKey(n);
    const name = n.metadata?.name ?? "";
    const na = this.tree.get(zone);
    if (na) {
      const i = na.indexOf(name);
      if (i >= 0) {
        na.splice(i, 1);
        if (na.length === 0) this.removeZone(zone);
        this.numNodes--;
        return;
      }
    }
    throw new Error(`node ${quote(name)} in group ${quote(zone)} was not found`);
  }

  private removeZone(zone: string): void {
    this.tree.delete(zone);
    const i = this.zones.indexOf(zone);
    if (i >= 0) this.zones.splice(i, 1);
  }

  /** Moves the node to its new zone when the zone changed. */
  updateNode(oldNode: Node | null, newNode: Node): void {
    const oldZone = oldNode ? getZoneKey(oldNode) : "";
    const newZone = getZoneKey(newNode);
    if (oldZone === newZone) return;
    if (oldNode) {
      try {
        this.removeNode(oldNode);
      } catch {
        // As upstream: whether the old node existed does not matter.
      }
    }
    this.addNode(newNode);
  }

  /**
   * Node names, one node of each zone at a time. `err` is set when the zones ran out before
   * numNodes names were collected (an inconsistency; the partial list is still returned).
   */
  list(): { names: string[]; err: Error | null } {
    const names: string[] = [];
    if (this.zones.length === 0) return { names, err: null };
    let numExhaustedZones = 0;
    let nodeIndex = 0;
    while (names.length < this.numNodes) {
      if (numExhaustedZones >= this.zones.length) {
        return { names, err: new Error("all zones exhausted before reaching count of nodes expected") };
      }
      for (const zone of this.zones) {
        const na = this.tree.get(zone)!;
        if (nodeIndex >= na.length) {
          if (nodeIndex === na.length) numExhaustedZones++;
          continue;
        }
        names.push(na[nodeIndex]!);
      }
      nodeIndex++;
    }
    return { names, err: null };
  }
}
