// Ported from upstream pkg/scheduler/framework/runtime/batch_test.go (the newest stored version:
// TestBatchBasic, TestBatchRescore, TestBatchRescoreChain, TestBatchMetricsOtherPaths; case names,
// inputs and expected values verbatim). Upstream's metric expectations are checked on the
// batch's counters (OpportunisticBatch.stats, by upstream's label values); duration histograms
// have no counterpart. The batch runs over a framework built by newFramework, as upstream's
// newBatchTestFramework builds a real one.
import type { Pod } from "@kubesched/api";
import {
  asStatus,
  type ClusterClient,
  type ClusterListers,
  Code,
  CycleState,
  type CycleState as CycleStateType,
  type FilterPlugin,
  type Logger,
  ManualClock,
  minorOf,
  NodeInfo,
  type NodeScore,
  type Plugin,
  type PluginDescriptor,
  type PreScorePlugin,
  type QueueSortPlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SharedLister,
  type StateData,
  type StateKey,
  Status,
} from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  type BatchAttempt,
  type BatchFlushReason,
  type BatchHandle,
  maxBatchAgeMs,
  OpportunisticBatch,
  SortedScoredNodes,
} from "./batch";
import type { Framework } from "./framework";
import { newFramework } from "./observed-framework";

const blockingPodID = (suffix: string) => `b-${suffix}`;
const nonBlockingPodID = (suffix: string) => `a-${suffix}`;

/** Each node holds one pod whose UID starts with 'b' (upstream BatchTestPlugin). */
class BatchTestPlugin implements FilterPlugin {
  name() {
    return "batchTest";
  }
  filter(_s: CycleStateType, pod: Pod, ni: NodeInfo): Status | null {
    const id = pod.metadata?.uid ?? "";
    for (const p of ni.pods) {
      if (id[0] === "b" && (p.pod.metadata?.uid ?? "")[0] === "b")
        return new Status(Code.Unschedulable, "unsched");
    }
    return null;
  }
}

class ConfigurableFilterPlugin implements FilterPlugin {
  constructor(private readonly filterErr: boolean) {}
  name() {
    return "configurableFilter";
  }
  filter(): Status | null {
    return this.filterErr ? asStatus(new Error("injected filter error")) : null;
  }
}

/** The nodes PreScore saw (upstream preScoreSeenNodes). */
class PreScoreSeenNodes implements StateData {
  constructor(readonly seen: ReadonlySet<string>) {}
  clone(): StateData {
    return new PreScoreSeenNodes(new Set(this.seen));
  }
}

const preScoreStateKey = "configurableScorePlugin/preScoreSeenNodes" as StateKey<PreScoreSeenNodes>;

/** Upstream configurableScorePlugin: NormalizeScore checks PreScore saw every candidate. */
class ConfigurableScorePlugin implements PreScorePlugin, ScorePlugin, ScoreExtensions {
  constructor(
    private readonly opts: { score?: number; preScoreErr?: boolean; scoreErr?: boolean; normErr?: boolean },
  ) {}
  name() {
    return "configurableScore";
  }
  preScore(state: CycleStateType, _pod: Pod, nodes: readonly NodeInfo[]): Status | null {
    if (this.opts.preScoreErr) return asStatus(new Error("injected prescore error"));
    state.write(preScoreStateKey, new PreScoreSeenNodes(new Set(nodes.map((n) => n.nodeName))));
    return null;
  }
  score(): number | Status {
    if (this.opts.scoreErr) return asStatus(new Error("injected score error"));
    return this.opts.score ?? 0;
  }
  scoreExtensions(): ScoreExtensions {
    return this;
  }
  normalizeScore(state: CycleStateType, _pod: Pod, scores: NodeScore[]): Status | null {
    if (this.opts.normErr) return asStatus(new Error("injected normalize error"));
    const c = state.read(preScoreStateKey);
    if (!c) return asStatus(new Error("NormalizeScore: missing PreScore state"));
    for (const s of scores) {
      if (!c.seen.has(s.name)) {
        return asStatus(
          new Error(`NormalizeScore called for node "${s.name}" which was not passed to PreScore`),
        );
      }
    }
    return null;
  }
}

class QueueSort implements QueueSortPlugin {
  name() {
    return "QueueSort";
  }
  less() {
    return false;
  }
}
class Bind implements Plugin {
  name() {
    return "Bind";
  }
  async bind() {
    return null;
  }
}

const logger: Logger = {
  error: () => {},
  warn: () => {},
  info: () => {},
  v: () => false,
  debug: () => {},
  child: () => logger,
};

/** The lister the tests set nodes on (upstream sharedLister). */
function lister(): { lister: SharedLister; nodes: NodeInfo[] } {
  const box = { nodes: [] as NodeInfo[] };
  const l: SharedLister = {
    nodeInfos: () => ({
      list: () => box.nodes,
      havePodsWithAffinityList: () => box.nodes,
      havePodsWithRequiredAntiAffinityList: () => box.nodes,
      get: (name: string) => box.nodes.find((n) => n.nodeName === name),
    }),
    storageInfos: () => ({ isPVCUsedByPods: () => false }),
  };
  return {
    lister: l,
    get nodes() {
      return box.nodes;
    },
    set nodes(v: NodeInfo[]) {
      box.nodes = v;
    },
  };
}

/** upstream newBatchTestFramework: a framework with batchTest (+ the configurable plugins). */
async function newBatchTestFramework(
  scorePl: ConfigurableScorePlugin | null,
  filterPl: ConfigurableFilterPlugin | null,
  release = "1.37",
): Promise<{ fwk: Framework; l: ReturnType<typeof lister> }> {
  const l = lister();
  const fixed = (p: Plugin): PluginDescriptor => ({ name: p.name(), factory: () => p });
  const registry = new Map<string, PluginDescriptor>([
    ["batchTest", fixed(new BatchTestPlugin())],
    ["QueueSort", fixed(new QueueSort())],
    ["Bind", fixed(new Bind())],
  ]);
  const set = (...names: string[]) => ({ enabled: names.map((name) => ({ name, weight: 1 })), disabled: [] });
  const empty = { enabled: [], disabled: [] };
  const filters = ["batchTest"];
  if (filterPl) {
    registry.set("configurableFilter", fixed(filterPl));
    filters.push("configurableFilter");
  }
  if (scorePl) registry.set("configurableScore", fixed(scorePl));
  const fwk = await newFramework(
    registry,
    {
      schedulerName: "default-scheduler",
      pluginConfig: [],
      plugins: {
        multiPoint: empty,
        preEnqueue: empty,
        queueSort: set("QueueSort"),
        preFilter: empty,
        filter: set(...filters),
        postFilter: empty,
        preScore: scorePl ? set("configurableScore") : empty,
        score: scorePl ? set("configurableScore") : empty,
        reserve: empty,
        permit: empty,
        preBind: empty,
        bind: set("Bind"),
        postBind: empty,
      },
    },
    {
      listers: {} as ClusterListers,
      client: {} as ClusterClient,
      eventRecorder: { eventf() {} },
      snapshot: l.lister,
      logger,
      kubernetesVersion: release,
    },
  );
  return { fwk, l };
}

/** The batch over the framework's public methods (what Framework hands its own batch). */
function newOpportunisticBatch(fwk: Framework, clock: ManualClock, maxAgeMs = 60_000): OpportunisticBatch {
  const handle: BatchHandle = {
    profileName: () => fwk.profileName(),
    rescoring: () => minorOf(fwk.kubernetesVersion()) >= 37,
    getNodeInfo: (name) => fwk.snapshotSharedLister().nodeInfos().get(name),
    runFilterPlugins: (s, p, ni) => fwk.runFilterPlugins(s, p, ni),
    runPreScorePlugins: (s, p, nodes) => fwk.runPreScorePlugins(s, p, nodes),
    runRawScorePlugins: (s, p, ni) => fwk.runRawScorePlugins(s, p, ni),
    normalizeScores: (s, p, plugins, candidates) => fwk.normalizeScores(s, p, plugins, candidates),
  };
  return new OpportunisticBatch(handle, clock, maxAgeMs);
}

/** upstream newTestNodes: names in the given order (no scores). */
function newTestNodes(names: string[]): SortedScoredNodes {
  const none = new Float64Array(0);
  return new SortedScoredNodes(
    [],
    names.map((name, i) => ({ name, raw: none, total: names.length - i })),
  );
}

function podWith(name: string, uid: string, nominatedNodeName = ""): Pod {
  return {
    metadata: { name, uid },
    spec: { containers: [] },
    ...(nominatedNodeName ? { status: { nominatedNodeName } } : {}),
  };
}

function nodeInfo(name: string, ...pods: Pod[]): NodeInfo {
  const ni = new NodeInfo(...pods);
  ni.setNode({ metadata: { name, uid: name } });
  return ni;
}

const attempts = (m: Partial<Record<BatchAttempt, number>>) => ({
  no_hint: 0,
  hint_used: 0,
  hint_not_used: 0,
  ...m,
});
const stores = (m: Partial<Record<"stored" | "pod_not_batchable" | "empty_list", number>>) => ({
  stored: 0,
  pod_not_batchable: 0,
  empty_list: 0,
  ...m,
});

describe("TestBatchBasic", () => {
  interface Case {
    name: string;
    firstPodID: string;
    firstSig: string;
    firstPodScheduledSuccessfully: boolean;
    firstChosenNode: string;
    firstOtherNodes: string[] | null;
    sameCycle?: boolean;
    skipPod?: boolean;
    secondPodID: string;
    secondPodNominatedNodeName?: string;
    secondSig: string;
    secondChosenNode: string;
    expectedHint: string;
    expectedState?: { signature: string; sortedNodes: string[] };
    expectedAttempts: Partial<Record<BatchAttempt, number>>;
    expectedFlushes: Partial<Record<BatchFlushReason, number>>;
    expectedStoreResults: Partial<Record<"stored" | "pod_not_batchable" | "empty_list", number>>;
  }
  const tests: Case[] = [
    {
      name: "a second pod with the same signature gets a hint",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1"],
      firstPodScheduledSuccessfully: true,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n1",
      expectedHint: "n1",
      expectedAttempts: { no_hint: 1, hint_used: 1 },
      expectedFlushes: {},
      expectedStoreResults: { stored: 1 },
    },
    {
      name: "a second pod with a different signature doesn't get a hint",
      firstPodID: nonBlockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1"],
      firstPodScheduledSuccessfully: true,
      secondPodID: nonBlockingPodID("2"),
      secondSig: "sig2",
      secondChosenNode: "n1",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: { pod_incompatible: 1 },
      expectedStoreResults: { stored: 1, empty_list: 1 },
    },
    {
      name: "pod doesn't get hint if previous pod didn't scheduled",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1"],
      firstPodScheduledSuccessfully: false,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n1",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: {},
      expectedStoreResults: { empty_list: 1 },
    },
    {
      name: "empty list",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: [],
      firstPodScheduledSuccessfully: true,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n4",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: {},
      expectedStoreResults: { empty_list: 2 },
    },
    {
      name: "nil list",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: null,
      firstPodScheduledSuccessfully: true,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n4",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: {},
      expectedStoreResults: { empty_list: 2 },
    },
    {
      name: "pod doesn't get hint because the previous pod is to a different profile",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1"],
      firstPodScheduledSuccessfully: true,
      skipPod: true,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n1",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: { pod_skipped: 1 },
      expectedStoreResults: { stored: 1, empty_list: 1 },
    },
    {
      name: "pod doesn't use batch from preceding pod when they are from the same cycle state, but GenericWorkload is disabled",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1"],
      firstPodScheduledSuccessfully: true,
      sameCycle: true,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n1",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: { pod_skipped: 1 },
      expectedStoreResults: { stored: 1, empty_list: 1 },
    },
    {
      name: "pod uses batch from preceding pod and leaves remaining batch to next pod",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1", "n2"],
      firstPodScheduledSuccessfully: true,
      secondPodID: blockingPodID("2"),
      secondSig: "sig",
      secondChosenNode: "n1",
      expectedHint: "n1",
      expectedState: { signature: "sig", sortedNodes: ["n2"] },
      expectedAttempts: { no_hint: 1, hint_used: 1 },
      expectedFlushes: {},
      expectedStoreResults: { stored: 1 },
    },
    {
      name: "a second pod with a nominated node does not get a hint",
      firstPodID: blockingPodID("1"),
      firstSig: "sig",
      firstChosenNode: "n3",
      firstOtherNodes: ["n1"],
      firstPodScheduledSuccessfully: true,
      secondPodID: blockingPodID("2"),
      secondPodNominatedNodeName: "n1",
      secondSig: "sig",
      secondChosenNode: "n1",
      expectedHint: "",
      expectedAttempts: { no_hint: 2 },
      expectedFlushes: { pod_nominated: 1 },
      expectedStoreResults: { stored: 1, empty_list: 1 },
    },
  ];
  // Upstream's "same cycle state and GenericWorkload is enabled" case is left out: kubesched has
  // no pod-group scheduling cycle (GenericWorkload).
  for (const tt of tests) {
    it(tt.name, async () => {
      const { fwk, l } = await newBatchTestFramework(null, null);
      const batch = newOpportunisticBatch(fwk, new ManualClock(0));
      const pod = podWith("pod", tt.firstPodID);
      const state = new CycleState();

      let hint = batch.getNodeHint(pod, tt.firstSig, state, 1);
      expect(hint).toBe("");
      if (tt.firstPodScheduledSuccessfully) {
        batch.storeScheduleResults(
          tt.firstSig,
          hint,
          tt.firstChosenNode,
          tt.firstOtherNodes === null ? null : newTestNodes(tt.firstOtherNodes),
          1,
        );
      }
      const cycleCount = tt.skipPod ? 3 : tt.sameCycle ? 1 : 2;
      const pod2 = podWith("pod2", tt.secondPodID, tt.secondPodNominatedNodeName);
      l.nodes = [nodeInfo(tt.firstChosenNode, pod)];

      hint = batch.getNodeHint(pod2, tt.secondSig, state, cycleCount);
      expect(hint).toBe(tt.expectedHint);
      batch.storeScheduleResults(tt.secondSig, hint, tt.secondChosenNode, null, cycleCount);

      const remaining = (
        batch as unknown as { state: { signature: string; sortedNodes: SortedScoredNodes } | null }
      ).state;
      if (tt.expectedState === undefined) {
        expect(remaining === null || remaining.sortedNodes.len() === 0).toBe(true);
      } else {
        expect(remaining?.signature).toBe(tt.expectedState.signature);
        expect(remaining?.sortedNodes.unorderedList().map((c) => c.name)).toEqual(
          tt.expectedState.sortedNodes,
        );
      }
      expect(batch.stats.attempts).toEqual(attempts(tt.expectedAttempts));
      expect(batch.stats.flushes).toEqual(tt.expectedFlushes);
      expect(batch.stats.stores).toEqual(stores(tt.expectedStoreResults));
    });
  }
});

describe("TestBatchRescore", () => {
  const n1CachedScore = 50;
  const tests: {
    name: string;
    score?: number;
    filterErr?: boolean;
    preScoreErr?: boolean;
    scoreErr?: boolean;
    normErr?: boolean;
    chosenNodeMissing?: boolean;
    cachedNodeMissing?: boolean;
    expectedHint: string;
    expectedRemainingNodes?: string[];
    wantFlushReason: BatchFlushReason | "";
    wantRescoreAttempts: number;
  }[] = [
    {
      name: "rescored node wins",
      score: 100,
      expectedHint: "n2",
      expectedRemainingNodes: ["n1"],
      wantFlushReason: "",
      wantRescoreAttempts: 1,
    },
    {
      name: "rescored node loses",
      score: 10,
      expectedHint: "n1",
      expectedRemainingNodes: ["n2"],
      wantFlushReason: "",
      wantRescoreAttempts: 1,
    },
    {
      name: "filter error gives no hint",
      score: 100,
      filterErr: true,
      expectedHint: "",
      wantFlushReason: "filter_error",
      wantRescoreAttempts: 0,
    },
    {
      name: "prescore error gives no hint",
      preScoreErr: true,
      expectedHint: "",
      wantFlushReason: "prescore_error",
      wantRescoreAttempts: 1,
    },
    {
      name: "score error gives no hint",
      scoreErr: true,
      expectedHint: "",
      wantFlushReason: "rescore_error",
      wantRescoreAttempts: 1,
    },
    {
      name: "normalize error gives no hint",
      normErr: true,
      expectedHint: "",
      wantFlushReason: "normalize_error",
      wantRescoreAttempts: 1,
    },
    {
      name: "chosen node missing from lister gives no hint",
      chosenNodeMissing: true,
      expectedHint: "",
      wantFlushReason: "node_missing",
      wantRescoreAttempts: 0,
    },
    {
      name: "cached node missing from lister gives no hint",
      score: 100,
      cachedNodeMissing: true,
      expectedHint: "",
      wantFlushReason: "node_missing",
      wantRescoreAttempts: 1,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const scorePl = new ConfigurableScorePlugin({
        score: tt.score ?? 0,
        preScoreErr: tt.preScoreErr ?? false,
        scoreErr: tt.scoreErr ?? false,
        normErr: tt.normErr ?? false,
      });
      const { fwk, l } = await newBatchTestFramework(
        scorePl,
        new ConfigurableFilterPlugin(tt.filterErr ?? false),
      );
      // First pod: non-blocking, chosen node is n2, n1 left as other candidate.
      const pod1 = podWith("pod1", nonBlockingPodID("1"));
      const batch = newOpportunisticBatch(fwk, new ManualClock(0));
      const cached = new SortedScoredNodes(
        ["configurableScore"],
        [{ name: "n1", raw: Float64Array.of(n1CachedScore), total: n1CachedScore }],
      );
      batch.getNodeHint(pod1, "sig", new CycleState(), 1);
      batch.storeScheduleResults("sig", "", "n2", cached, 1);
      if (!tt.chosenNodeMissing) {
        const n2 = nodeInfo("n2", pod1);
        l.nodes = tt.cachedNodeMissing ? [n2] : [nodeInfo("n1"), n2];
      }
      const before = { ...batch.stats.flushes };
      const pod2 = podWith("pod2", nonBlockingPodID("2"));
      const hint = batch.getNodeHint(pod2, "sig", new CycleState(), 2);
      expect(hint).toBe(tt.expectedHint);
      expect(before).toEqual({});
      expect(batch.stats.flushes).toEqual(tt.wantFlushReason === "" ? {} : { [tt.wantFlushReason]: 1 });
      expect(batch.stats.attempts.no_hint).toBe(hint === "" ? 2 : 1);
      expect(batch.stats.rescoreAttempts).toBe(tt.wantRescoreAttempts);
      const state = (batch as unknown as { state: { sortedNodes: SortedScoredNodes } | null }).state;
      // Every flush in this test discards a usable state, so GetNodeHint must drop it.
      if (tt.wantFlushReason !== "") expect(state).toBeNull();
      if (tt.expectedRemainingNodes) {
        expect(state).not.toBeNull();
        const remaining: string[] = [];
        while ((state as { sortedNodes: SortedScoredNodes }).sortedNodes.len() > 0) {
          remaining.push((state as { sortedNodes: SortedScoredNodes }).sortedNodes.pop());
        }
        expect(remaining).toEqual(tt.expectedRemainingNodes);
      }
    });
  }

  it("releases before 1.37 drop the state when the last chosen node still fits (no rescoring)", async () => {
    const { fwk, l } = await newBatchTestFramework(new ConfigurableScorePlugin({ score: 100 }), null, "1.36");
    const pod1 = podWith("pod1", nonBlockingPodID("1"));
    const batch = newOpportunisticBatch(fwk, new ManualClock(0));
    batch.storeScheduleResults(
      "sig",
      "",
      "n2",
      new SortedScoredNodes(["configurableScore"], [{ name: "n1", raw: Float64Array.of(50), total: 50 }]),
      1,
    );
    l.nodes = [nodeInfo("n1"), nodeInfo("n2", pod1)];
    expect(batch.getNodeHint(podWith("pod2", nonBlockingPodID("2")), "sig", new CycleState(), 2)).toBe("");
    expect(batch.stats.flushes).toEqual({ node_not_full: 1 });
    expect(batch.stats.rescoreAttempts).toBe(0);
  });
});

describe("TestBatchRescoreChain", () => {
  it("verifies a three-pod sequence where rescore fires on each scheduling cycle", async () => {
    const n1CachedScore = 50;
    // n2 rescores to 100, always beating n1's score of 50.
    const { fwk, l } = await newBatchTestFramework(new ConfigurableScorePlugin({ score: 100 }), null);
    const batch = newOpportunisticBatch(fwk, new ManualClock(0));
    // Pod1: n2 chosen, n1 is stored as the only other candidate.
    const pod1 = podWith("pod1", nonBlockingPodID("1"));
    batch.getNodeHint(pod1, "sig", new CycleState(), 1);
    batch.storeScheduleResults(
      "sig",
      "",
      "n2",
      new SortedScoredNodes(
        ["configurableScore"],
        [{ name: "n1", raw: Float64Array.of(n1CachedScore), total: 50 }],
      ),
      1,
    );
    l.nodes = [nodeInfo("n1"), nodeInfo("n2", pod1)];

    // Pod2: rescore fires (n2 still feasible), n2 wins.
    const hint2 = batch.getNodeHint(podWith("pod2", nonBlockingPodID("2")), "sig", new CycleState(), 2);
    expect(hint2).toBe("n2");
    batch.storeScheduleResults("sig", hint2, "n2", null, 2);

    // Pod3: rescore fires again, n2 wins again; n1 must remain in state for a potential pod4.
    const hint3 = batch.getNodeHint(podWith("pod3", nonBlockingPodID("3")), "sig", new CycleState(), 3);
    expect(hint3).toBe("n2");
    const state = (batch as unknown as { state: { sortedNodes: SortedScoredNodes } | null }).state;
    expect(state?.sortedNodes.len()).toBe(1);
    expect(state?.sortedNodes.pop()).toBe("n1");
    expect(batch.stats.attempts).toEqual(attempts({ no_hint: 1, hint_used: 1 }));
    expect(batch.stats.flushes).toEqual({});
    expect(batch.stats.rescoreAttempts).toBe(2);
  });
});

describe("TestBatchMetricsOtherPaths", () => {
  const sig = "sig";
  const otherNodes = () => newTestNodes(["n1"]);
  const pod = podWith("pod", nonBlockingPodID("1"));
  const tests: {
    name: string;
    run: (batch: OpportunisticBatch, clock: ManualClock) => void;
    wantAttempts: Partial<Record<BatchAttempt, number>>;
    wantFlushes: Partial<Record<BatchFlushReason, number>>;
    wantStoreResults: Partial<Record<"stored" | "pod_not_batchable" | "empty_list", number>>;
  }[] = [
    {
      name: "hint given but a different node was chosen",
      run: (batch) => batch.storeScheduleResults(sig, "n1", "n2", otherNodes(), 1),
      wantAttempts: { hint_not_used: 1 },
      wantFlushes: {},
      wantStoreResults: { stored: 1 },
    },
    {
      name: "pod without a signature replaces clears a usable state",
      run: (batch) => {
        batch.storeScheduleResults(sig, "", "n2", otherNodes(), 1);
        batch.storeScheduleResults(null, "", "n3", otherNodes(), 2);
      },
      wantAttempts: {},
      wantFlushes: {},
      wantStoreResults: { stored: 1, pod_not_batchable: 1 },
    },
    {
      name: "pod with no other nodes replaces a usable state",
      run: (batch) => {
        batch.storeScheduleResults(sig, "", "n2", otherNodes(), 1);
        batch.storeScheduleResults(sig, "", "n3", null, 2);
      },
      wantAttempts: {},
      wantFlushes: {},
      wantStoreResults: { stored: 1, empty_list: 1 },
    },
    {
      name: "pods that can't seed a batch are counted with no state",
      run: (batch) => {
        batch.storeScheduleResults(null, "", "n3", null, 1);
        batch.storeScheduleResults(sig, "", "n3", null, 2);
      },
      wantAttempts: {},
      wantFlushes: {},
      wantStoreResults: { pod_not_batchable: 1, empty_list: 1 },
    },
    {
      name: "batch state older than maxBatchAge expires",
      run: (batch, clock) => {
        batch.storeScheduleResults(sig, "", "n2", otherNodes(), 1);
        clock.advance(2 * 60_000);
        batch.getNodeHint(pod, sig, new CycleState(), 2);
      },
      wantAttempts: { no_hint: 1 },
      wantFlushes: { expired: 1 },
      wantStoreResults: { stored: 1 },
    },
    {
      name: "a flush is reported once when the following pods fail to schedule",
      run: (batch) => {
        batch.storeScheduleResults(sig, "", "n2", otherNodes(), 1);
        for (let cycle = 2; cycle <= 4; cycle++) batch.getNodeHint(pod, "other", new CycleState(), cycle);
      },
      wantAttempts: { no_hint: 3 },
      wantFlushes: { pod_incompatible: 1 },
      wantStoreResults: { stored: 1 },
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const { fwk } = await newBatchTestFramework(null, null);
      const clock = new ManualClock(0);
      const batch = newOpportunisticBatch(fwk, clock);
      tt.run(batch, clock);
      expect(batch.stats.attempts).toEqual(attempts(tt.wantAttempts));
      expect(batch.stats.flushes).toEqual(tt.wantFlushes);
      expect(batch.stats.stores).toEqual(stores(tt.wantStoreResults));
    });
  }

  it("the batch is 500 ms old at most on the scheduler's clock (upstream maxBatchAge)", async () => {
    const { fwk, l } = await newBatchTestFramework(null, null);
    const clock = new ManualClock(0);
    const batch = newOpportunisticBatch(fwk, clock, maxBatchAgeMs);
    const first = podWith("p1", blockingPodID("1"));
    l.nodes = [nodeInfo("n3", first), nodeInfo("n1"), nodeInfo("n2")];
    batch.storeScheduleResults(sig, "", "n3", newTestNodes(["n1", "n2"]), 1);
    clock.advance(500);
    expect(batch.getNodeHint(podWith("p2", blockingPodID("2")), sig, new CycleState(), 2)).toBe("n1");
    batch.storeScheduleResults(sig, "n1", "n1", null, 2);
    l.nodes = [nodeInfo("n3", first), nodeInfo("n1", podWith("p2", blockingPodID("2"))), nodeInfo("n2")];
    clock.advance(1);
    expect(batch.getNodeHint(podWith("p3", blockingPodID("3")), sig, new CycleState(), 3)).toBe("");
    expect(batch.stats.flushes).toEqual({ expired: 1 });
  });
});
