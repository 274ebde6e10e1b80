// upstream: pkg/scheduler/framework/types.go (NodeToStatus, Diagnosis, FitError)
import type { Pod } from "@kubesched/api";
import type { NodeInfo } from "./node-info";
import { Code, Status } from "./status";

/**
 * Anything that can list nodes (a snapshot's NodeInfo lister).
 * @public
 */
export interface NodeInfoListerLike {
  /** The nodes. */
  list(): readonly NodeInfo[];
}

/**
 * Per-node statuses of one cycle plus the status of nodes not recorded explicitly (upstream
 * NodeToStatus): what a PostFilter plugin receives.
 * @public
 */
export class NodeToStatus {
  private readonly statuses = new Map<string, Status>();
  // Statuses of nodes new to the map (setNew), not inserted yet: a Filter pass records one per
  // rejected node, and on a cycle that finds a node nobody reads them back. Inserted, in order,
  // before the map is read or set; until then not even the nodes' names are read (the NodeInfos
  // are cold: a Filter pass over columns touches none of them).
  private pendingNodes: NodeInfo[] = [];
  private pendingStatuses: Status[] = [];
  /** Status of nodes absent from the map (UnschedulableAndUnresolvable unless set). */
  absentNodesStatus: Status = new Status(Code.UnschedulableAndUnresolvable);

  /**
   * When nothing but setNew recorded statuses and the recorded nodes are exactly `list` rotated
   * (the same NodeInfos, as a Filter pass from a start index visits them), the position in `list`
   * of the first recorded node; -1 otherwise. Compares NodeInfos by identity only.
   */
  private pendingRotationOf(list: readonly NodeInfo[]): number {
    const pending = this.pendingNodes;
    const n = list.length;
    if (this.statuses.size !== 0 || pending.length !== n || n === 0) return -1;
    const start = list.indexOf(pending[0] as NodeInfo);
    if (start < 0) return -1;
    for (let k = 0; k < n; k++) if (pending[k] !== list[(start + k) % n]) return -1;
    return start;
  }

  private flush(): void {
    const nodes = this.pendingNodes;
    if (nodes.length === 0) return;
    const statuses = this.pendingStatuses;
    for (let i = 0; i < nodes.length; i++) this.statuses.set(nodes[i]!.nodeName, statuses[i]!);
    this.pendingNodes = [];
    this.pendingStatuses = [];
  }

  /** The node's status (the absent-nodes status when not recorded). */
  get(nodeName: string): Status {
    // Nodes recorded by setNew have names: "" (a pod nominated nowhere) needs no insertion.
    if (nodeName !== "") this.flush();
    return this.statuses.get(nodeName) ?? this.absentNodesStatus;
  }

  /** Records the node's status. */
  set(nodeName: string, s: Status): void {
    this.flush();
    this.statuses.set(nodeName, s);
  }

  /**
   * `set(nodeInfo.nodeName, s)` for a node recorded at most once between reads of the map (as a
   * Filter pass over distinct nodes does): the same result, without a map insertion until the
   * statuses are read. The NodeInfo's name must not change until then (a snapshot's NodeInfos
   * keep theirs) and is not empty (the node is set).
   * @internal
   */
  setNew(nodeInfo: NodeInfo, s: Status): void {
    if (this.statuses.size > 0 && this.statuses.has(nodeInfo.nodeName)) {
      this.set(nodeInfo.nodeName, s);
      return;
    }
    this.pendingNodes.push(nodeInfo);
    this.pendingStatuses.push(s);
  }

  /** Whether the node's status was recorded. */
  has(nodeName: string): boolean {
    this.flush();
    return this.statuses.has(nodeName);
  }

  /** How many nodes have a recorded status. */
  get size(): number {
    return this.statuses.size + this.pendingNodes.length;
  }

  /** Calls `fn` for every node with a recorded status. */
  forEachExplicitNode(fn: (nodeName: string, s: Status) => void): void {
    this.flush();
    for (const [n, s] of this.statuses) fn(n, s);
  }

  /**
   * Calls `fn` with the status of every node with a recorded status, in no particular order,
   * without reading the nodes' names (FitError counts reasons; the nodes are cold).
   * @internal
   */
  forEachExplicitStatus(fn: (s: Status) => void): void {
    for (const s of this.statuses.values()) fn(s);
    for (const s of this.pendingStatuses) fn(s);
  }

  /** Explicit nodes with `code`, plus every absent node when the absent status has that code. */
  nodesForStatusCode(lister: NodeInfoListerLike, code: Code): NodeInfo[] {
    const list = lister.list();
    const rotation = this.pendingRotationOf(list);
    if (rotation >= 0) {
      // Every node recorded by a Filter pass over the list (preemption after no node fit): each
      // node's status is read by position, no node's name is.
      const statuses = this.pendingStatuses;
      const n = list.length;
      const out: NodeInfo[] = [];
      for (let i = 0; i < n; i++) {
        if ((statuses[(i - rotation + n) % n] as Status).code === code) out.push(list[i] as NodeInfo);
      }
      return out;
    }
    this.flush();
    const out: NodeInfo[] = [];
    const absentMatches = this.absentNodesStatus.code === code;
    for (const ni of list) {
      const s = this.statuses.get(ni.nodeName);
      if (s ? s.code === code : absentMatches) out.push(ni);
    }
    return out;
  }
}

/**
 * Why a pod did not fit: per-node statuses and the plugins involved (upstream Diagnosis), as a
 * {@link FitError} reports it.
 * @public
 */
export class Diagnosis {
  /** The per-node statuses. */
  nodeToStatus: NodeToStatus = new NodeToStatus();
  /**
   * Plugins that rejected the pod (the queue requeues it on their events).
   * @internal
   */
  unschedulablePlugins: Set<string> = new Set();
  /**
   * Plugins that returned Pending.
   * @internal
   */
  pendingPlugins: Set<string> = new Set();
  /**
   * The PreFilter rejection's message; when set, per-node reasons are not listed.
   * @internal
   */
  preFilterMsg = "";
  /**
   * The PostFilter message (e.g. "preemption: 0/3 nodes are available: ...").
   * @internal
   */
  postFilterMsg = "";

  /**
   * Records a rejecting status' plugin (Pending ones also among the pending plugins), as upstream.
   * @internal
   */
  addPluginStatus(s: Status): void {
    if (!s.plugin) return;
    if (s.isRejected()) this.unschedulablePlugins.add(s.plugin);
    if (s.code === Code.Pending) this.pendingPlugins.add(s.plugin);
  }
}

/**
 * The error of a scheduling attempt that found no feasible node (upstream FitError): its message
 * is upstream's `0/N nodes are available: ...`.
 * @public
 */
export class FitError extends Error {
  /** The error for `pod` on a cluster of `numAllNodes` nodes. */
  constructor(
    /** The pod. */
    readonly pod: Pod,
    /** The number of nodes of the cluster. */
    readonly numAllNodes: number,
    /** Why no node fit. */
    readonly diagnosis: Diagnosis,
  ) {
    // No message argument: an own `message` property would shadow the getter below.
    super();
    this.name = "FitError";
  }

  /** "0/N nodes are available: <counted reasons>. <postFilterMsg>", exactly as upstream. */
  override get message(): string {
    const d = this.diagnosis;
    let msg = `0/${this.numAllNodes} nodes are available:`;
    if (d.preFilterMsg) {
      msg += ` ${d.preFilterMsg}.`;
    } else {
      const histogram = new Map<string, number>();
      let explicit = 0;
      d.nodeToStatus.forEachExplicitStatus((s) => {
        explicit++;
        for (const r of s.getReasons()) histogram.set(r, (histogram.get(r) ?? 0) + 1);
      });
      const absent = this.numAllNodes - explicit;
      if (absent > 0) {
        for (const r of d.nodeToStatus.absentNodesStatus.getReasons()) {
          histogram.set(r, (histogram.get(r) ?? 0) + absent);
        }
      }
      const parts: string[] = [];
      for (const [r, n] of histogram) parts.push(`${n} ${r}`);
      // Plain string sort, as upstream's sort.Strings ("10 x" before "2 y").
      parts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (parts.length) msg += ` ${parts.join(", ")}.`;
    }
    if (d.postFilterMsg) msg += ` ${d.postFilterMsg}`;
    return msg;
  }
}

/**
 * The error of a cycle on a cluster without nodes (upstream ErrNoNodesAvailable).
 * @internal
 */
export const ErrNoNodesAvailable = "no nodes available to schedule pods";
