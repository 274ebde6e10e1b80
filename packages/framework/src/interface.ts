// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (plugin interfaces)
//
// Conventions (differences from Go, all deliberate):
// - no context.Context: cancellation is not needed in a single-threaded event loop;
// - a status of `null` is Success (upstream's nil);
// - the hot paths (Filter, Score) are synchronous and allocation-free by contract:
//   Score returns the score as a number, or a Status on failure;
// - PostFilter may be asynchronous (preemption deletes pods); PreBind, Bind and PostBind are.
import type { Pod } from "@kubesched/api";
import type { CycleState } from "./cycle-state";
import type { NodeToStatus } from "./diagnosis";
import type { ClusterEventWithHint } from "./events";
import type { NodeInfo } from "./node-info";
import type { PodInfo } from "./pod-info";
import type { QueuedPodInfo } from "./queued-pod-info";
import type { Status } from "./status";

export const MaxNodeScore = 100;
export const MinNodeScore = 0;
export const MaxTotalScore = Number.MAX_SAFE_INTEGER;

export interface Plugin {
  /** The plugin's registered name ("TaintToleration"). */
  name(): string;
}

export interface PreEnqueuePlugin extends Plugin {
  /** Runs before a pod enters activeQ/backoffQ; a non-success status gates it. Keep it cheap. */
  preEnqueue(pod: Pod): Status | null;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** Cluster events that may make a pod rejected by this plugin schedulable. */
export interface EnqueueExtensions extends Plugin {
  eventsToRegister(): ClusterEventWithHint[];
}

/** The nodes downstream extension points consider; `nodeNames: null` means all. */
export interface PreFilterResult {
  nodeNames: ReadonlySet<string> | null;
}

/** Incremental updates of a PreFilter plugin's state (used by preemption and nominated pods). */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | null;
  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null;
}

export interface PreFilterPlugin extends Plugin {
  /**
   * Runs once per cycle. Return null (Success, all nodes), a PreFilterResult narrowing the
   * nodes, or a Status (Skip skips this plugin's Filter and extensions for the cycle).
   */
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null;
  preFilterExtensions(): PreFilterExtensions | null;
}

export interface FilterPlugin extends Plugin {
  /** Whether the pod fits the node. Hot path: no allocation on success. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
}

/** How a PostFilter result changes the pod's nominated node. */
export const NominatingMode = { Noop: 0, Override: 1 } as const;
export type NominatingMode = (typeof NominatingMode)[keyof typeof NominatingMode];

export interface NominatingInfo {
  nominatedNodeName: string;
  nominatingMode: NominatingMode;
}

export interface PostFilterResult {
  nominatingInfo: NominatingInfo | null;
}

export interface PostFilterOutput {
  result: PostFilterResult | null;
  status: Status | null;
}

export interface PostFilterPlugin extends Plugin {
  /** Called when no node fits; may make the pod schedulable later (preemption). */
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatusMap: NodeToStatus,
  ): PostFilterOutput | Promise<PostFilterOutput>;
}

export interface PreScorePlugin extends Plugin {
  /** Runs once with the feasible nodes; Skip skips this plugin's Score for the cycle. */
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null;
}

export interface NodeScore {
  name: string;
  score: number;
}

export interface ScoreExtensions {
  /** Rewrites `scores` in place into [MinNodeScore, MaxNodeScore]. */
  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): Status | null;
}

export interface ScorePlugin extends Plugin {
  /** The node's score (an integer), or a Status on failure. Hot path: no allocation. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status;
  scoreExtensions(): ScoreExtensions | null;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | null;
  /** Must be idempotent; may be called without a prior reserve. */
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitOutput {
  status: Status | null;
  /** With a Wait status: how long to wait, in milliseconds (capped at 15 minutes). */
  timeoutMs: number;
}

export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): PermitOutput;
}

export interface PreBindPreFlightResult {
  allowParallel: boolean;
}

export interface PreBindPlugin extends Plugin {
  /** Success: this plugin will act in PreBind; Skip: nothing to do (PreBind is skipped). */
  preBindPreFlight(state: CycleState, pod: Pod, nodeName: string): Status | null;
  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null>;
}

export interface BindPlugin extends Plugin {
  /** Bind the pod, or return Skip to let the next Bind plugin do it. */
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null>;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Per-node scores of one cycle (upstream NodePluginScores). */
export interface PluginScore {
  name: string;
  score: number;
}

export interface NodePluginScores {
  name: string;
  scores: PluginScore[];
  totalScore: number;
}

// Type guards: a plugin's extension points are the methods it has.
type AnyPlugin = Plugin & Record<string, unknown>;
const has = (p: Plugin, m: string): boolean => typeof (p as AnyPlugin)[m] === "function";

export const isPreEnqueuePlugin = (p: Plugin): p is PreEnqueuePlugin => has(p, "preEnqueue");
export const isQueueSortPlugin = (p: Plugin): p is QueueSortPlugin => has(p, "less");
export const isEnqueueExtensions = (p: Plugin): p is EnqueueExtensions => has(p, "eventsToRegister");
export const isPreFilterPlugin = (p: Plugin): p is PreFilterPlugin => has(p, "preFilter");
export const isFilterPlugin = (p: Plugin): p is FilterPlugin => has(p, "filter");
export const isPostFilterPlugin = (p: Plugin): p is PostFilterPlugin => has(p, "postFilter");
export const isPreScorePlugin = (p: Plugin): p is PreScorePlugin => has(p, "preScore");
export const isScorePlugin = (p: Plugin): p is ScorePlugin => has(p, "score");
export const isReservePlugin = (p: Plugin): p is ReservePlugin => has(p, "reserve");
export const isPermitPlugin = (p: Plugin): p is PermitPlugin => has(p, "permit");
export const isPreBindPlugin = (p: Plugin): p is PreBindPlugin => has(p, "preBind");
export const isBindPlugin = (p: Plugin): p is BindPlugin => has(p, "bind");
export const isPostBindPlugin = (p: Plugin): p is PostBindPlugin => has(p, "postBind");
