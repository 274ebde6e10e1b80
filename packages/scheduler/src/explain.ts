// Records, for the attempt in progress, what every plugin decided: the --explain output of
// `kubesched simulate`. An observer: given to Scheduler.create, its plugin events are recorded
// per node from the first cycle (the runtime then filters node by node, as the per-node loop).
import { type Pod, podKey } from "@kubesched/api";
import {
  type CodeName,
  codeName,
  type NodeScore,
  type PostFilterResult,
  type PreFilterResult,
  type Status,
} from "@kubesched/framework";
import type { SchedulingObserver } from "@kubesched/runtime";

export interface StatusView {
  code: CodeName;
  reasons?: string[];
}

export interface ScoreView {
  raw: number;
  normalized: number;
  weighted: number;
}

export interface AttemptExplanation {
  preFilter: Record<string, StatusView & { nodeNames?: string[] }>;
  filter: Record<string, Record<string, StatusView>>;
  postFilter?: Record<string, StatusView & { nominatedNode: string | null }>;
  preScore?: Record<string, StatusView>;
  score?: Record<string, Record<string, ScoreView>>;
  finalScore?: Record<string, number>;
  /**
   * The nodes sharing the best final score when there are two or more (sorted): selectHost
   * picks one of them at random, so `--seed` can change the placement.
   */
  tiedNodes?: string[];
  selectedNode: string | null;
}

function view(s: Status | null): StatusView {
  if (!s) return { code: "Success" };
  const reasons = s.getReasons();
  return reasons.length ? { code: codeName(s.code), reasons: [...reasons] } : { code: codeName(s.code) };
}

/**
 * Where an ExplainRecorder puts each pod's attempt as the cycle ends: a later attempt of the same
 * pod replaces the earlier one. The default keeps them in memory; `simulate --explain` writes
 * them to a file as they come (`@kubesched/cluster`'s spill store), so that memory does not grow
 * with the pods explained.
 */
export interface ExplanationStore {
  set(podKey: string, explanation: AttemptExplanation): void;
  get(podKey: string): AttemptExplanation | undefined;
  has(podKey: string): boolean;
}

/** The in-memory ExplanationStore: a map by pod key. */
export function memoryExplanationStore(): ExplanationStore {
  return new Map<string, AttemptExplanation>();
}

/** Collects one attempt per pod; the last attempt is the one that decided the outcome. */
export class ExplainRecorder implements SchedulingObserver {
  private current: AttemptExplanation | null = null;
  /** The attempt's scores, kept once a host is selected from them (not when Score fails). */
  private scores: Record<string, Record<string, ScoreView>> | null = null;
  private readonly byPod: ExplanationStore;
  /** The pods recorded (namespace/name); null: every pod. */
  private readonly pods: ReadonlySet<string> | null;

  /**
   * Records the attempts of `pods` (namespace/name) only, when given: the other pods' attempts
   * cost no memory (`simulate --explain --pod`). Each finished attempt goes to `store` (default:
   * in memory).
   */
  constructor(pods?: Iterable<string>, store: ExplanationStore = memoryExplanationStore()) {
    this.pods = pods === undefined ? null : new Set(pods);
    this.byPod = store;
  }

  get(podKey: string): AttemptExplanation | undefined {
    return this.byPod.get(podKey);
  }

  has(podKey: string): boolean {
    return this.byPod.has(podKey);
  }

  forPod(pod: Pod): AttemptExplanation | undefined {
    return this.get(podKey(pod));
  }

  onAttemptStart(pod: Pod): void {
    this.current =
      this.pods === null || this.pods.has(podKey(pod))
        ? { preFilter: {}, filter: {}, selectedNode: null }
        : null;
    this.scores = null;
  }

  onSchedulingCycleDone(pod: Pod): void {
    if (this.current) this.byPod.set(podKey(pod), this.current);
    this.current = null;
    this.scores = null;
  }

  onPreFilter(plugin: string, status: Status | null, result: PreFilterResult | null): void {
    if (!this.current) return;
    const v: StatusView & { nodeNames?: string[] } = view(status);
    if (result?.nodeNames) v.nodeNames = [...result.nodeNames].sort();
    this.current.preFilter[plugin] = v;
  }

  onFilter(plugin: string, nodeName: string, status: Status | null): void {
    if (!this.current) return;
    let n = this.current.filter[nodeName];
    if (!n) {
      n = {};
      this.current.filter[nodeName] = n;
    }
    n[plugin] = view(status);
  }

  onPostFilter(plugin: string, status: Status | null, result: PostFilterResult | null): void {
    if (!this.current) return;
    this.current.postFilter ??= {};
    const ni = result?.nominatingInfo;
    this.current.postFilter[plugin] = {
      ...view(status),
      nominatedNode: ni && ni.nominatedNodeName !== "" ? ni.nominatedNodeName : null,
    };
  }

  onPreScore(plugin: string, status: Status | null): void {
    if (!this.current) return;
    this.current.preScore ??= {};
    this.current.preScore[plugin] = view(status);
  }

  // Plugin by plugin over the nodes: the nodes are entered in their order, each node's plugins in
  // the plugins' order (as a node-by-node listing would).
  onScore(plugin: string, nodeName: string, score: number, weight: number): void {
    if (!this.current) return;
    this.scores ??= {};
    let n = this.scores[nodeName];
    if (!n) {
      n = {};
      this.scores[nodeName] = n;
    }
    n[plugin] = { raw: score, normalized: score, weighted: score * weight };
  }

  onNormalizeScore(plugin: string, nodeName: string, score: number, weight: number): void {
    const entry = this.scores?.[nodeName]?.[plugin];
    if (!entry) return;
    entry.normalized = score;
    entry.weighted = score * weight;
  }

  onHostSelected(_pod: Pod, host: string, finalScores: readonly NodeScore[] | null): void {
    if (!this.current) return;
    if (this.scores) this.current.score = this.scores;
    if (finalScores) {
      const f: Record<string, number> = {};
      let best = Number.NEGATIVE_INFINITY;
      for (const s of finalScores) {
        f[s.name] = s.score;
        if (s.score > best) best = s.score;
      }
      this.current.finalScore = f;
      const tied = finalScores.filter((s) => s.score === best).map((s) => s.name);
      if (tied.length > 1) this.current.tiedNodes = tied.sort();
    }
    this.current.selectedNode = host;
  }
}
