// Records, for the attempt in progress, what every plugin decided: the --explain output of
// `kubesched simulate`. Costs nothing when no recorder is installed.
import type { Pod } from "@kubesched/api";
import {
  type CodeName,
  codeName,
  type NodePluginScores,
  type PostFilterResult,
  type PreFilterResult,
  type Status,
} from "@kubesched/framework";

export interface StatusView {
  code: CodeName;
  reasons?: string[];
}

export interface AttemptExplanation {
  preFilter: Record<string, StatusView & { nodeNames?: string[] }>;
  filter: Record<string, Record<string, StatusView>>;
  postFilter?: Record<string, StatusView & { nominatedNode: string | null }>;
  preScore?: Record<string, StatusView>;
  score?: Record<string, Record<string, { raw: number; normalized: number; weighted: number }>>;
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

/** Collects one attempt per pod; the last attempt is the one that decided the outcome. */
export class ExplainRecorder {
  private current: AttemptExplanation | null = null;
  private readonly byPod = new Map<string, AttemptExplanation>();

  begin(): void {
    this.current = { preFilter: {}, filter: {}, selectedNode: null };
  }

  end(podKey: string): void {
    if (this.current) this.byPod.set(podKey, this.current);
    this.current = null;
  }

  get(podKey: string): AttemptExplanation | undefined {
    return this.byPod.get(podKey);
  }

  // FrameworkTracer callbacks
  preFilter(plugin: string, status: Status | null, result: PreFilterResult | null): void {
    if (!this.current) return;
    const v: StatusView & { nodeNames?: string[] } = view(status);
    if (result?.nodeNames) v.nodeNames = [...result.nodeNames].sort();
    this.current.preFilter[plugin] = v;
  }

  filter(plugin: string, nodeName: string, status: Status | null): void {
    if (!this.current) return;
    let n = this.current.filter[nodeName];
    if (!n) {
      n = {};
      this.current.filter[nodeName] = n;
    }
    n[plugin] = view(status);
  }

  postFilter(plugin: string, status: Status | null, result: PostFilterResult | null): void {
    if (!this.current) return;
    this.current.postFilter ??= {};
    const ni = result?.nominatingInfo;
    this.current.postFilter[plugin] = {
      ...view(status),
      nominatedNode: ni && ni.nominatedNodeName !== "" ? ni.nominatedNodeName : null,
    };
  }

  preScore(plugin: string, status: Status | null): void {
    if (!this.current) return;
    this.current.preScore ??= {};
    this.current.preScore[plugin] = view(status);
  }

  score(plugin: string, nodeName: string, raw: number, normalized: number, weighted: number): void {
    if (!this.current) return;
    this.current.score ??= {};
    let n = this.current.score[nodeName];
    if (!n) {
      n = {};
      this.current.score[nodeName] = n;
    }
    n[plugin] = { raw, normalized, weighted };
  }

  finalScores(scores: readonly NodePluginScores[]): void {
    if (!this.current) return;
    const f: Record<string, number> = {};
    let best = Number.NEGATIVE_INFINITY;
    for (const s of scores) {
      f[s.name] = s.totalScore;
      if (s.totalScore > best) best = s.totalScore;
    }
    this.current.finalScore = f;
    const tied = scores.filter((s) => s.totalScore === best).map((s) => s.name);
    if (tied.length > 1) this.current.tiedNodes = tied.sort();
  }

  selected(nodeName: string): void {
    if (this.current) this.current.selectedNode = nodeName;
  }

  /** Discards an attempt that did not run the algorithm (skipped pods). */
  abort(): void {
    this.current = null;
  }

  forPod(pod: Pod): AttemptExplanation | undefined {
    return this.get(`${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`);
  }
}
