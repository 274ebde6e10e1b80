// upstream: pkg/scheduler/framework/runtime/batch.go (OpportunisticBatch, KEP-5598). Releases
// 1.35 and 1.36 as kubernetes/kubernetes db8b216c556cbd896ffb49a0a7bf13443230d18c: when the node
// the last pod took still fits the next one, the batch state is dropped. 1.37 (PR #140289,
// "Opportunistic batching rescore") rescores that node instead and lets it compete with the
// cached nodes again; the rescoring here follows the newest stored batch_test.go
// (TestBatchRescore, TestBatchRescoreChain): a Filter error drops the state, PreScore runs over
// every candidate, Score on the rescored node only, NormalizeScore across all candidates.
// Pods with a nominated node bypass batching (PR #138212).
import type { Pod } from "@kubesched/api";
import type { Clock, CycleState, NodeInfo, Status } from "@kubesched/framework";

/** How long a batch state may be reused (upstream maxBatchAge), on the scheduler's clock. */
export const maxBatchAgeMs = 500;

/** Results of asking for a hint (upstream metrics.BatchAttempt*). */
export type BatchAttempt = "no_hint" | "hint_used" | "hint_not_used";

/** Why a batch state was dropped (upstream metrics.BatchFlush*). */
export type BatchFlushReason =
  | "pod_failed"
  | "pod_skipped"
  | "pod_nominated"
  | "node_missing"
  | "node_not_full"
  | "empty_list"
  | "expired"
  | "pod_incompatible"
  | "filter_error"
  | "prescore_error"
  | "rescore_error"
  | "normalize_error";

/** A feasible node of a cycle with its Score plugins' raw scores (before NormalizeScore). */
export interface ScoredCandidate {
  readonly name: string;
  /** Raw score of each plugin of {@link SortedScoredNodes.plugins}, in that order. */
  readonly raw: Float64Array;
  /** Weighted total of the normalized scores. */
  total: number;
}

/**
 * The feasible nodes of a cycle other than the chosen one, best first (upstream
 * SortedScoredNodes, a heap on TotalScore): the hints the next pods with the same signature take,
 * one each. Equal totals keep the order the nodes were given in.
 */
export class SortedScoredNodes {
  private readonly sorted: ScoredCandidate[];
  private next = 0;

  /** `plugins`: the Score plugins whose raw scores the candidates carry. */
  constructor(
    readonly plugins: readonly string[],
    candidates: readonly ScoredCandidate[],
  ) {
    const order = candidates.map((_, i) => i);
    order.sort(
      (x, y) => (candidates[y] as ScoredCandidate).total - (candidates[x] as ScoredCandidate).total || x - y,
    );
    this.sorted = order.map((i) => candidates[i] as ScoredCandidate);
  }

  /** Removes and returns the best node's name. */
  pop(): string {
    return (this.sorted[this.next++] as ScoredCandidate).name;
  }

  len(): number {
    return this.sorted.length - this.next;
  }

  /** The nodes not popped yet, in no particular order (upstream UnorderedList). */
  unorderedList(): ScoredCandidate[] {
    return this.sorted.slice(this.next);
  }
}

/** The Score plugins' raw scores of one node (Framework.runRawScorePlugins). */
export interface RawNodeScores {
  plugins: readonly string[];
  scores: Float64Array;
}

/** What the batch needs of its framework (upstream batchHandle). */
export interface BatchHandle {
  profileName(): string;
  /** Whether the emulated release rescores the last chosen node (1.37+). */
  rescoring(): boolean;
  getNodeInfo(name: string): NodeInfo | undefined;
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null;
  runRawScorePlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): RawNodeScores | Status;
  /** NormalizeScore over `candidates` (raw scores of `plugins`), then their weighted totals. */
  normalizeScores(
    state: CycleState,
    pod: Pod,
    plugins: readonly string[],
    candidates: readonly ScoredCandidate[],
  ): Status | null;
}

/** What watches the batch (the scheduling observer's batching events). */
export interface BatchObserver {
  onBatchAttempt?(profile: string, result: BatchAttempt): void;
  onBatchCacheFlushed?(profile: string, reason: BatchFlushReason): void;
}

/** Counts of the batch's decisions (upstream's batch metrics, by label). */
export interface BatchStats {
  attempts: Record<BatchAttempt, number>;
  flushes: Partial<Record<BatchFlushReason, number>>;
  /** Pods that were bound to the hinted node (upstream batchedPods). */
  batchedPods: number;
  /** Times the last chosen node was rescored (upstream batch_rescore_attempts_total). */
  rescoreAttempts: number;
  /** Outcomes of storing a cycle's results (upstream store_schedule_results_total). */
  stores: Record<"stored" | "pod_not_batchable" | "empty_list", number>;
}

interface BatchState {
  signature: string;
  sortedNodes: SortedScoredNodes;
  creationTime: number;
}

interface SchedulingCycle {
  cycleCount: number;
  chosenNode: string;
  succeeded: boolean;
}

/**
 * Opportunistic batching: the sorted feasible nodes of the last cycle, reused for the next pod
 * when it has the same signature, comes right after, and no longer fits the node the last pod
 * took (1-pod-per-node workloads). The hint is then checked by Filter like a nominated node.
 */
export class OpportunisticBatch {
  private state: BatchState | null = null;
  private lastCycle: SchedulingCycle = { cycleCount: 0, chosenNode: "", succeeded: false };
  readonly stats: BatchStats = {
    attempts: { no_hint: 0, hint_used: 0, hint_not_used: 0 },
    flushes: {},
    batchedPods: 0,
    rescoreAttempts: 0,
    stores: { stored: 0, pod_not_batchable: 0, empty_list: 0 },
  };

  constructor(
    private readonly handle: BatchHandle,
    private readonly clock: Clock,
    private readonly maxAgeMs: number = maxBatchAgeMs,
    private readonly observer: BatchObserver | null = null,
  ) {}

  private attempt(result: BatchAttempt): void {
    this.stats.attempts[result]++;
    this.observer?.onBatchAttempt?.(this.handle.profileName(), result);
  }

  /**
   * A node hint for `pod` from the previous cycles' results, or "" (upstream GetNodeHint).
   * `signature` is the pod's (null: not signable).
   */
  getNodeHint(pod: Pod, signature: string | null, state: CycleState, cycleCount: number): string {
    if (!this.batchStateCompatible(pod, signature, cycleCount) || !this.refreshHintCandidates(pod, state)) {
      this.attempt("no_hint");
      return "";
    }
    return (this.state as BatchState).sortedNodes.pop();
  }

  /** Records a cycle's result for the next pods (upstream StoreScheduleResults). */
  storeScheduleResults(
    signature: string | null,
    hintedNode: string,
    chosenNode: string,
    otherNodes: SortedScoredNodes | null,
    cycleCount: number,
  ): void {
    this.lastCycle = { cycleCount, chosenNode, succeeded: true };
    if (hintedNode === chosenNode) {
      this.attempt("hint_used");
      this.stats.batchedPods++;
      return;
    }
    if (hintedNode !== "") this.attempt("hint_not_used");
    if (signature === null) {
      this.stats.stores.pod_not_batchable++;
      this.state = null;
    } else if (otherNodes === null || otherNodes.len() === 0) {
      this.stats.stores.empty_list++;
      this.state = null;
    } else {
      this.stats.stores.stored++;
      this.state = { signature, sortedNodes: otherNodes, creationTime: this.clock.now() };
    }
  }

  private batchStateCompatible(pod: Pod, signature: string | null, cycleCount: number): boolean {
    const batch = this.state;
    if (batch === null || batch.sortedNodes.len() === 0) return false;
    // A pod of another profile was scheduled in between.
    if (cycleCount !== this.lastCycle.cycleCount + 1) return this.drop("pod_skipped");
    if (!this.lastCycle.succeeded) return this.drop("pod_failed");
    // A nominated node is tried first anyway (PR #138212).
    if (pod.status?.nominatedNodeName) return this.drop("pod_nominated");
    if (signature === null || signature !== batch.signature) return this.drop("pod_incompatible");
    if (this.clock.now() > batch.creationTime + this.maxAgeMs) return this.drop("expired");
    return true;
  }

  /**
   * The stored order holds when the pod cannot go where the last one went: the next best node is
   * then the next in the list. When it still fits there, that node's score changed: 1.35/1.36 drop
   * the state; 1.37 rescores the node into the list (upstream refreshHintCandidates).
   */
  private refreshHintCandidates(pod: Pod, state: CycleState): boolean {
    const last = this.handle.getNodeInfo(this.lastCycle.chosenNode);
    if (last === undefined) return this.drop("node_missing");
    const s = this.handle.runFilterPlugins(state, pod, last);
    if (s?.isRejected()) return true;
    if (!this.handle.rescoring()) return this.drop("node_not_full");
    if (s !== null && !s.isSuccess()) return this.drop("filter_error");
    return this.rescoreHintedNode(pod, state, last);
  }

  /** Scores the last chosen node again and sorts it back among the cached candidates. */
  private rescoreHintedNode(pod: Pod, state: CycleState, last: NodeInfo): boolean {
    this.stats.rescoreAttempts++;
    const batch = this.state as BatchState;
    const cached = batch.sortedNodes.unorderedList();
    const nodes: NodeInfo[] = [];
    for (const c of cached) {
      const ni = this.handle.getNodeInfo(c.name);
      if (ni === undefined) return this.drop("node_missing");
      nodes.push(ni);
    }
    nodes.push(last);
    const ps = this.handle.runPreScorePlugins(state, pod, nodes);
    if (ps !== null && !ps.isSuccess()) return this.drop("prescore_error");
    const fresh = this.handle.runRawScorePlugins(state, pod, last);
    if (!("plugins" in fresh)) return this.drop("rescore_error");
    const plugins = batch.sortedNodes.plugins;
    const raw = new Float64Array(plugins.length);
    for (let p = 0; p < plugins.length; p++) {
      const i = fresh.plugins.indexOf(plugins[p] as string);
      raw[p] = i < 0 ? 0 : (fresh.scores[i] as number);
    }
    const candidates: ScoredCandidate[] = [
      ...cached.map((c) => ({ name: c.name, raw: c.raw, total: 0 })),
      { name: last.nodeName, raw, total: 0 },
    ];
    const ns = this.handle.normalizeScores(state, pod, plugins, candidates);
    if (ns !== null && !ns.isSuccess()) return this.drop("normalize_error");
    batch.sortedNodes = new SortedScoredNodes(plugins, candidates);
    return true;
  }

  /** Discards a usable state, counting why (upstream logUnusableState and the flush). */
  private drop(reason: BatchFlushReason): false {
    this.stats.flushes[reason] = (this.stats.flushes[reason] ?? 0) + 1;
    this.observer?.onBatchCacheFlushed?.(this.handle.profileName(), reason);
    this.state = null;
    return false;
  }
}
