// The all-filters diagnostic pass: why a pod does not fit, every reason on every node. It is not
// part of the scheduling cycle (upstream has no counterpart; the cycle stops at a node's first
// failing Filter plugin and at numFeasibleNodesToFind nodes): it runs every PreFilter plugin, then
// every Filter plugin on every node of the framework's snapshot, past PreFilter node narrowing and
// percentageOfNodesToScore, with the pods nominated to a node counted as
// RunFilterPluginsWithNominatedPods counts them. A node's first rejection is the status the
// cycle's Filter reports for it (tested), so the pass explains the decision without changing it.
// It calls the plugins themselves (not the observer's wrappers): a diagnosis is not a cycle.
import type { Pod } from "@kubesched/api";
import {
  Code,
  CycleState,
  type FilterDetail,
  type FilterPlugin,
  isFilterDetailsPlugin,
  isFilterPlugin,
  isPreFilterPlugin,
  isStatus,
  type NodeInfo,
  type PreFilterPlugin,
  type Status,
} from "@kubesched/framework";
import type { Framework } from "./framework";
import { filterFailure } from "./statuses";

/**
 * One PreFilter plugin's outcome.
 * @public
 */
export interface PreFilterDiagnosis {
  /** The plugin. */
  plugin: string;
  /** Its status: null for Success; Skip (its Filter does not run), or a rejection or error. */
  status: Status | null;
  /** The nodes its PreFilterResult narrows the cycle to; null for every node. */
  nodeNames: ReadonlySet<string> | null;
}

/**
 * One Filter plugin's rejection of a node, with the plugin's details when it gives them.
 * @public
 */
export interface FilterRejection {
  /** The plugin ("" for a failure adding the node's nominated pods). */
  plugin: string;
  /** The status as the cycle reports it (plugin named; a non-rejection turned into an Error). */
  status: Status;
  /** The plugin's own numbers ({@link FilterDetailsPlugin}); empty when it gives none. */
  details: FilterDetail[];
}

/**
 * Every reason one node does not fit.
 * @public
 */
export interface NodeFilterDiagnosis {
  /** The node. */
  nodeName: string;
  /**
   * PreFilter plugins that leave the node out, so the cycle would not filter it: one that rejects
   * the pod (or fails) leaves every node out, as upstream's cycle then evaluates no node; one whose
   * result names other nodes leaves this one out.
   */
  excludedBy: string[];
  /** Every Filter plugin's rejection, in the profile's order; empty when every Filter passes. */
  rejections: FilterRejection[];
  /** Whether the rejections count pods nominated to the node (of equal or higher priority). */
  withNominatedPods: boolean;
}

/**
 * Whether the PreFilter plugin rejects the pod or fails (neither Success nor Skip): the cycle then
 * evaluates no node.
 * @public
 */
export function preFilterRejects(p: PreFilterDiagnosis): boolean {
  return p.status !== null && !p.status.isSuccess() && !p.status.isSkip();
}

/**
 * Whether the pod fits the node: no PreFilter result leaves it out and no Filter plugin rejects it.
 * @public
 */
export function nodeFits(n: NodeFilterDiagnosis): boolean {
  return n.rejections.length === 0 && n.excludedBy.length === 0;
}

/**
 * The diagnostic pass' result for one pod.
 * @public
 */
export interface FilterDiagnosis {
  /** Every PreFilter plugin's outcome, in the profile's order. */
  preFilter: PreFilterDiagnosis[];
  /** Every node of the snapshot, in the snapshot's order. */
  nodes: NodeFilterDiagnosis[];
}

/**
 * Runs every PreFilter plugin and every Filter plugin on every node of `fwk`'s snapshot for `pod`,
 * without stopping at a failure; the Filter of a plugin whose PreFilter was skipped or failed does
 * not run (its state is missing). For explaining, never for deciding: the snapshot must be
 * current (the caller updates it) and nothing is reserved or recorded.
 * @public
 */
export function diagnoseFilters(fwk: Framework, pod: Pod): FilterDiagnosis {
  const state = new CycleState();
  const nodes = fwk.snapshotSharedLister().nodeInfos().list();
  const entries = fwk.listPlugins();
  const skip = new Set<string>();
  state.skipFilterPlugins = skip;
  const preFilter: PreFilterDiagnosis[] = [];
  const failed = new Set<string>();
  for (const { name } of entries.preFilter ?? []) {
    const pl = fwk.plugin(name);
    if (pl === undefined || !isPreFilterPlugin(pl)) continue;
    const r = (pl as PreFilterPlugin).preFilter(state, pod, nodes);
    const status = isStatus(r) ? r : null;
    const nodeNames = isStatus(r) || r === null ? null : r.nodeNames;
    if (status?.isSkip()) skip.add(name);
    else if (status !== null && !status.isSuccess()) {
      status.withPlugin(name);
      failed.add(name);
    }
    preFilter.push({ plugin: name, status, nodeNames });
  }

  const filters: FilterPlugin[] = [];
  for (const { name } of entries.filter ?? []) {
    const pl = fwk.plugin(name);
    if (pl !== undefined && isFilterPlugin(pl) && !skip.has(name) && !failed.has(name)) filters.push(pl);
  }
  const out: NodeFilterDiagnosis[] = [];
  for (const ni of nodes) {
    const excludedBy: string[] = [];
    for (const p of preFilter) {
      if (failed.has(p.plugin) || (p.nodeNames !== null && !p.nodeNames.has(ni.nodeName))) {
        excludedBy.push(p.plugin);
      }
    }
    out.push({ nodeName: ni.nodeName, excludedBy, ...diagnoseNode(fwk, filters, state, pod, ni) });
  }
  return { preFilter, nodes: out };
}

/** Every rejection on one node, counting nominated pods as RunFilterPluginsWithNominatedPods. */
function diagnoseNode(
  fwk: Framework,
  filters: readonly FilterPlugin[],
  state: CycleState,
  pod: Pod,
  ni: NodeInfo,
): { rejections: FilterRejection[]; withNominatedPods: boolean } {
  if (fwk.nominatedPodsForNode(ni.nodeName).length === 0) {
    return { rejections: allRejections(filters, state, pod, ni), withNominatedPods: false };
  }
  // As upstream: first with the nominated pods added; when that passes, again without them.
  const added = fwk.addGENominatedPods(pod, state, ni);
  if (added.error !== null) {
    return { rejections: [{ plugin: "", status: added.error, details: [] }], withNominatedPods: true };
  }
  const first = allRejections(filters, added.state, pod, added.nodeInfo);
  if (first.length > 0 || !added.podsAdded) return { rejections: first, withNominatedPods: added.podsAdded };
  return { rejections: allRejections(filters, state, pod, ni), withNominatedPods: false };
}

function allRejections(
  filters: readonly FilterPlugin[],
  state: CycleState,
  pod: Pod,
  ni: NodeInfo,
): FilterRejection[] {
  const out: FilterRejection[] = [];
  for (const pl of filters) {
    const s = pl.filter(state, pod, ni);
    if (s === null || s.code === Code.Success) continue;
    const name = pl.name();
    const details = isFilterDetailsPlugin(pl) && s.isRejected() ? pl.filterDetails(state, pod, ni, s) : [];
    out.push({ plugin: name, status: filterFailure(name, s), details });
  }
  return out;
}
