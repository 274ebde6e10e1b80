// The snapshot's fast-path capabilities (not upstream; @beta): change tokens and node columns.
// The scheduler cache's Snapshot implements them; a plugin feature-detects them with
// `columnarNodeInfos` and falls back to walking `list()` without them.
import type { NodeInfo, NodeInfoLister } from "@kubesched/framework";
import type { NodeColumns } from "./node-columns";

/**
 * A NodeInfoLister that tracks changes between cycles and keeps the nodes in columns (the
 * scheduler cache's Snapshot is one).
 * @beta
 */
export interface ColumnarNodeInfoLister extends NodeInfoLister {
  /**
   * Change tracking, for plugins that keep per-node results across cycles. Returns the current
   * token and the NodeInfos of `list()` whose contents may have changed since the snapshot
   * returned `token` (any order, possibly repeated). Changed nodes may have joined or left the
   * `havePodsWith*` lists; no other node did. `nodes` is null when that cannot be told (a first
   * call: pass -1; an unknown or too old token; nodes added to or removed from `list()` since; a
   * snapshot not maintained by a cache): the caller then walks the lists in full.
   */
  changedSince(token: number): { token: number; nodes: readonly NodeInfo[] | null };
  /** The nodes of `list()` as typed-array columns (see NodeColumns). */
  columns(): NodeColumns;
}

/**
 * The lister as a ColumnarNodeInfoLister when it is one (the scheduler cache's Snapshot), else
 * null: `columnarNodeInfos(handle.snapshotSharedLister().nodeInfos())`.
 * @beta
 */
export function columnarNodeInfos(lister: NodeInfoLister): ColumnarNodeInfoLister | null {
  const l = lister as Partial<ColumnarNodeInfoLister>;
  return typeof l.columns === "function" && typeof l.changedSince === "function"
    ? (lister as ColumnarNodeInfoLister)
    : null;
}
