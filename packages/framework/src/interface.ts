// upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go (plugin interfaces)
//
// Conventions (differences from Go, all deliberate):
// - no context.Context: cancellation is not needed in a single-threaded event loop;
// - a status of `null` is Success (upstream's nil);
// - the hot paths (Filter, Score) are synchronous and allocation-free by contract:
//   Score returns the score as a number, or a Status on failure;
// - PostFilter may be asynchronous (preemption deletes pods); PreBind, Bind and PostBind are.
import type { Pod } from "@kubesched/api";
import type { ClusterEventWithHint } from "./cluster-events";
import type { CycleState } from "./cycle-state";
import type { NodeToStatus } from "./diagnosis";
import type { NodeInfo } from "./node-info";
import type { PodInfo } from "./pod-info";
import type { QueuedPodInfo } from "./queued-pod-info";
import type { Status } from "./status";

/**
 * The highest score a Score plugin may give a node (after NormalizeScore).
 * @public
 */
export const MaxNodeScore = 100;
/**
 * The lowest score a Score plugin may give a node.
 * @public
 */
export const MinNodeScore = 0;
/**
 * The highest total (weighted) score of a node.
 * @internal
 */
export const MaxTotalScore = Number.MAX_SAFE_INTEGER;

/**
 * What every plugin is: a name. A plugin's extension points are the methods it has (see the
 * `is*Plugin` type guards); the class states them with `implements FilterPlugin, ...`.
 * @public
 */
export interface Plugin {
  /** The plugin's registered name ("TaintToleration"). */
  name(): string;
}

/**
 * Runs before a pod enters activeQ/backoffQ (upstream PreEnqueuePlugin).
 * @public
 */
export interface PreEnqueuePlugin extends Plugin {
  /** Runs before a pod enters activeQ/backoffQ; a non-success status gates it. Keep it cheap. */
  preEnqueue(pod: Pod): Status | null;
}

/**
 * Orders the pods in activeQ (upstream QueueSortPlugin); a profile has exactly one.
 * @public
 */
export interface QueueSortPlugin extends Plugin {
  /** Whether `a` is popped before `b`. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/**
 * Cluster events that may make a pod rejected by this plugin schedulable (upstream
 * EnqueueExtensions).
 * @public
 */
export interface EnqueueExtensions extends Plugin {
  /** The events, each with the hint that decides whether it requeues a rejected pod. */
  eventsToRegister(): ClusterEventWithHint[];
}

/**
 * The nodes downstream extension points consider; `nodeNames: null` means all.
 * @public
 */
export interface PreFilterResult {
  /** The only nodes Filter runs on (the others are UnschedulableAndUnresolvable), or null for all. */
  nodeNames: ReadonlySet<string> | null;
}

/**
 * Incremental updates of a PreFilter plugin's state (used by preemption and nominated pods).
 * @public
 */
export interface PreFilterExtensions {
  /** Updates the cycle state as if `podInfoToAdd` ran on `nodeInfo`. */
  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | null;
  /** Updates the cycle state as if `podInfoToRemove` no longer ran on `nodeInfo`. */
  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status | null;
}

/**
 * Runs once per cycle before Filter (upstream PreFilterPlugin). Plugins that implement it
 * should also implement {@link SignPlugin}.
 * @public
 */
export interface PreFilterPlugin extends Plugin {
  /**
   * Runs once per cycle. Return null (Success, all nodes), a PreFilterResult narrowing the
   * nodes, or a Status (Skip skips this plugin's Filter and extensions for the cycle).
   */
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null;
  /** The AddPod/RemovePod extensions, or null when the state does not depend on other pods. */
  preFilterExtensions(): PreFilterExtensions | null;
}

/**
 * Decides whether a pod fits a node (upstream FilterPlugin). Plugins that implement it should
 * also implement {@link SignPlugin}.
 * @public
 */
export interface FilterPlugin extends Plugin {
  /** Whether the pod fits the node. Hot path: no allocation on success. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null;
}

/**
 * How a PostFilter result changes the pod's nominated node.
 * @public
 */
export const NominatingMode = {
  /** Leave the nomination as it is. */
  Noop: 0,
  /** Set the nomination to the result's node. */
  Override: 1,
} as const;
/**
 * {@link NominatingMode.Noop} or {@link NominatingMode.Override}.
 * @public
 */
export type NominatingMode = (typeof NominatingMode)[keyof typeof NominatingMode];

/**
 * A node to nominate a pod to (upstream NominatingInfo).
 * @public
 */
export interface NominatingInfo {
  /** The node. */
  nominatedNodeName: string;
  /** Whether to set it. */
  nominatingMode: NominatingMode;
}

/**
 * What a PostFilter plugin found (upstream PostFilterResult).
 * @public
 */
export interface PostFilterResult {
  /** The node the pod is nominated to (preemption), or null. */
  nominatingInfo: NominatingInfo | null;
}

/**
 * A PostFilter plugin's result and status (upstream's `(*PostFilterResult, *Status)`).
 * @public
 */
export interface PostFilterOutput {
  /** The result, or null. */
  result: PostFilterResult | null;
  /** Success when the plugin made the pod schedulable (it nominated a node); null is Success. */
  status: Status | null;
}

/**
 * Runs when no node fits the pod (upstream PostFilterPlugin): preemption.
 * @public
 */
export interface PostFilterPlugin extends Plugin {
  /** Called when no node fits; may make the pod schedulable later (preemption). */
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatusMap: NodeToStatus,
  ): PostFilterOutput | Promise<PostFilterOutput>;
}

/**
 * Runs once with the feasible nodes before Score (upstream PreScorePlugin). Plugins that
 * implement it should also implement {@link SignPlugin}.
 * @public
 */
export interface PreScorePlugin extends Plugin {
  /** Runs once with the feasible nodes; Skip skips this plugin's Score for the cycle. */
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null;
}

/**
 * A node's score in NormalizeScore (upstream NodeScore).
 * @public
 */
export interface NodeScore {
  /** The node's name. */
  name: string;
  /** Its score, rewritten in place by NormalizeScore. */
  score: number;
}

/**
 * NormalizeScore of a Score plugin (upstream ScoreExtensions). {@link defaultNormalizer} is the
 * common one.
 * @public
 */
export interface ScoreExtensions {
  /** Rewrites `scores` in place into [MinNodeScore, MaxNodeScore]. */
  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): Status | null;
}

/**
 * Ranks the feasible nodes (upstream ScorePlugin). Plugins that implement it should also
 * implement {@link SignPlugin}.
 * @public
 */
export interface ScorePlugin extends Plugin {
  /** The node's score (an integer), or a Status on failure. Hot path: no allocation. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status;
  /** NormalizeScore, or null when the scores are already in [MinNodeScore, MaxNodeScore]. */
  scoreExtensions(): ScoreExtensions | null;
}

/**
 * Reserves (and releases) resources on the chosen node (upstream ReservePlugin).
 * @public
 */
export interface ReservePlugin extends Plugin {
  /** Reserves what the pod needs on `nodeName`; a failure aborts the cycle (and unreserves). */
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | null;
  /** Must be idempotent; may be called without a prior reserve. */
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

/**
 * A Permit plugin's status and wait (upstream's `(*Status, time.Duration)`).
 * @public
 */
export interface PermitOutput {
  /** Success (allow), Wait, or a rejection; null is Success. */
  status: Status | null;
  /** With a Wait status: how long to wait, in milliseconds (capped at 15 minutes). */
  timeoutMs: number;
}

/**
 * Allows, delays or rejects the binding of a pod (upstream PermitPlugin).
 * @public
 */
export interface PermitPlugin extends Plugin {
  /** Allows (Success), delays (Wait with a timeout) or rejects the pod on `nodeName`. */
  permit(state: CycleState, pod: Pod, nodeName: string): PermitOutput;
}

/**
 * What PreBindPreFlight tells the binding cycle (upstream PreBindPreFlightResult).
 * @public
 */
export interface PreBindPreFlightResult {
  /** Whether this plugin's PreBind may run in parallel with the others'. */
  allowParallel: boolean;
}

/**
 * Runs before binding (upstream PreBindPlugin): volume binding, DRA allocation.
 * @public
 */
export interface PreBindPlugin extends Plugin {
  /** Success: this plugin will act in PreBind; Skip: nothing to do (PreBind is skipped). */
  preBindPreFlight(state: CycleState, pod: Pod, nodeName: string): Status | null;
  /** Does what must be done before the pod is bound; a failure sends the pod back to the queue. */
  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null>;
}

/**
 * Binds a pod to its node (upstream BindPlugin).
 * @public
 */
export interface BindPlugin extends Plugin {
  /** Bind the pod, or return Skip to let the next Bind plugin do it. */
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null>;
}

/**
 * Runs after a pod is bound (upstream PostBindPlugin): informational.
 * @public
 */
export interface PostBindPlugin extends Plugin {
  /** Called after the pod was bound to `nodeName`. */
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/**
 * A portion of a pod signature (upstream SignFragment, KEP-5598 opportunistic batching). The
 * fragments of every {@link SignPlugin} are combined into one signature per pod; pods with equal
 * signatures get the same Filter and Score results, so the scheduler may reuse one's.
 * @public
 */
export interface SignFragment {
  /**
   * Identifies the fragment: fragments with the same key hold the same value for the same pod,
   * and the framework keeps one fragment per key, so plugins share signers by sharing keys. Keys
   * of in-tree signers are the `*SignerName` constants; a key that returns a field is named after
   * the field ("v1.Pod.Spec.NodeName"), one that processes it after the base of the state it uses
   * with a function name ("v1.Pod.Spec.Volumes.NonSyntheticSources()").
   */
  key: string;
  /**
   * A JSON-serializable value compared across pods: lists whose order does not matter must be
   * sorted, maps are compared by their sorted keys.
   */
  value: unknown;
}

/**
 * What {@link SignPlugin.signPod} returns: the fragments, and a status (null is Success).
 * @public
 */
export interface SignPodResult {
  /** The fragments of the pod's signature (none is fine: the plugin adds nothing). */
  fragments: SignFragment[];
  /**
   * Success (null): the plugin signs the pod with `fragments`. Unschedulable: the plugin refuses
   * to sign it, so the pod is not eligible for batching. Error: something unexpected; the pod is
   * scheduled without batching and the error is logged.
   */
  status: Status | null;
}

/**
 * A plugin that can sign pods (upstream SignPlugin, KEP-5598): what its Filter and Score
 * decisions depend on, as fragments of a signature, so that the scheduler can reuse the result of
 * one pod for the next pods with the same signature (opportunistic batching). Plugins that
 * implement PreFilter, Filter, PreScore or Score should implement it; upstream turns batching off
 * for every pod when an enabled plugin of those points does not. The kubesched runtime does not
 * batch yet: plugins sign so that it can.
 * @public
 */
export interface SignPlugin extends Plugin {
  /** The pod's signature fragments, or a refusal to sign (see {@link SignPodResult.status}). */
  signPod(pod: Pod): SignPodResult;
}

/**
 * One plugin's score of a node (upstream PluginScore).
 * @public
 */
export interface PluginScore {
  /** The plugin's name. */
  name: string;
  /** Its weighted, normalized score. */
  score: number;
}

/**
 * Per-node scores of one cycle (upstream NodePluginScores).
 * @public
 */
export interface NodePluginScores {
  /** The node's name. */
  name: string;
  /** Each Score plugin's score of the node. */
  scores: PluginScore[];
  /** Their sum. */
  totalScore: number;
}

// Type guards: a plugin's extension points are the methods it has.
type AnyPlugin = Plugin & Record<string, unknown>;
const has = (p: Plugin, m: string): boolean => typeof (p as AnyPlugin)[m] === "function";

/**
 * Whether the plugin has a PreEnqueue point (`preEnqueue`).
 * @public
 */
export const isPreEnqueuePlugin = (p: Plugin): p is PreEnqueuePlugin => has(p, "preEnqueue");
/**
 * Whether the plugin is a QueueSort plugin (`less`).
 * @public
 */
export const isQueueSortPlugin = (p: Plugin): p is QueueSortPlugin => has(p, "less");
/**
 * Whether the plugin registers events (`eventsToRegister`).
 * @public
 */
export const isEnqueueExtensions = (p: Plugin): p is EnqueueExtensions => has(p, "eventsToRegister");
/**
 * Whether the plugin has a PreFilter point (`preFilter`).
 * @public
 */
export const isPreFilterPlugin = (p: Plugin): p is PreFilterPlugin => has(p, "preFilter");
/**
 * Whether the plugin has a Filter point (`filter`).
 * @public
 */
export const isFilterPlugin = (p: Plugin): p is FilterPlugin => has(p, "filter");
/**
 * Whether the plugin has a PostFilter point (`postFilter`).
 * @public
 */
export const isPostFilterPlugin = (p: Plugin): p is PostFilterPlugin => has(p, "postFilter");
/**
 * Whether the plugin has a PreScore point (`preScore`).
 * @public
 */
export const isPreScorePlugin = (p: Plugin): p is PreScorePlugin => has(p, "preScore");
/**
 * Whether the plugin has a Score point (`score`).
 * @public
 */
export const isScorePlugin = (p: Plugin): p is ScorePlugin => has(p, "score");
/**
 * Whether the plugin has Reserve/Unreserve (`reserve`).
 * @public
 */
export const isReservePlugin = (p: Plugin): p is ReservePlugin => has(p, "reserve");
/**
 * Whether the plugin has a Permit point (`permit`).
 * @public
 */
export const isPermitPlugin = (p: Plugin): p is PermitPlugin => has(p, "permit");
/**
 * Whether the plugin has a PreBind point (`preBind`).
 * @public
 */
export const isPreBindPlugin = (p: Plugin): p is PreBindPlugin => has(p, "preBind");
/**
 * Whether the plugin has a Bind point (`bind`).
 * @public
 */
export const isBindPlugin = (p: Plugin): p is BindPlugin => has(p, "bind");
/**
 * Whether the plugin has a PostBind point (`postBind`).
 * @public
 */
export const isPostBindPlugin = (p: Plugin): p is PostBindPlugin => has(p, "postBind");
/**
 * Whether the plugin signs pods (`signPod`).
 * @public
 */
export const isSignPlugin = (p: Plugin): p is SignPlugin => has(p, "signPod");
