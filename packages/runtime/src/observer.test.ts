// The observer applied at the edges: without one the profile holds the plugins themselves and the
// Framework is the plain class; with one, what it implements is wrapped (instrumented-plugins.ts,
// observed-framework.ts) and reported.
import type { Pod } from "@kubesched/api";
import type { PluginSet, Plugins } from "@kubesched/config";
import {
  type BindPlugin,
  type ClusterClient,
  type ClusterListers,
  Code,
  CycleState,
  Diagnosis,
  type FilterPlugin,
  type Logger,
  NodeInfo,
  type NodeScore,
  NodeToStatus,
  type PermitOutput,
  type PermitPlugin,
  type Plugin,
  PodInfo,
  type PostBindPlugin,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueSortPlugin,
  type ReservePlugin,
  type ScoreExtensions,
  type ScorePlugin,
  type SharedLister,
  Status,
} from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { Framework, type FrameworkOptions } from "./framework";
import { newFramework } from "./observed-framework";
import { composeObservers, type SchedulingObserver } from "./observer";

/** A plugin at every extension point the runtime runs; Filter rejects the nodes in `reject`. */
class Everywhere
  implements
    PreFilterPlugin,
    PreFilterExtensions,
    FilterPlugin,
    PostFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ScoreExtensions,
    ReservePlugin,
    PermitPlugin,
    PreBindPlugin,
    BindPlugin,
    PostBindPlugin,
    QueueSortPlugin
{
  constructor(
    private readonly n: string,
    private readonly reject: Record<string, Status> = {},
  ) {}
  name() {
    return this.n;
  }
  less() {
    return false;
  }
  preFilter() {
    return null;
  }
  preFilterExtensions() {
    return this;
  }
  addPod() {
    return null;
  }
  removePod() {
    return null;
  }
  filter(_s: CycleState, _p: Pod, ni: NodeInfo) {
    return this.reject[ni.nodeName] ?? null;
  }
  async postFilter(): Promise<PostFilterOutput> {
    return { result: null, status: new Status(Code.Unschedulable, "no") };
  }
  preScore() {
    return null;
  }
  score(_s: CycleState, _p: Pod, ni: NodeInfo) {
    return ni.nodeName === "node1" ? 10 : 30;
  }
  scoreExtensions() {
    return this;
  }
  normalizeScore(_s: CycleState, _p: Pod, scores: NodeScore[]) {
    for (const s of scores) s.score *= 2;
    return null;
  }
  reserve() {
    return null;
  }
  unreserve() {}
  permit(): PermitOutput {
    return { status: null, timeoutMs: 0 };
  }
  preBindPreFlight() {
    return null;
  }
  async preBind() {
    return null;
  }
  async bind() {
    return null;
  }
  postBind() {}
}

const points: (keyof Plugins)[] = [
  "preFilter",
  "filter",
  "postFilter",
  "preScore",
  "score",
  "reserve",
  "permit",
  "preBind",
  "bind",
  "postBind",
];

function everywhere(...names: string[]): Plugins {
  const set = (ns: string[]): PluginSet => ({
    enabled: ns.map((name) => ({ name, weight: 2 })),
    disabled: [],
  });
  const p = {
    preEnqueue: set([]),
    queueSort: set([names[0] as string]),
    multiPoint: set([]),
  } as Plugins;
  for (const k of points) p[k] = set(names);
  return p;
}

const nodeInfos = ["node1", "node2", "node3"].map((name) => {
  const ni = new NodeInfo();
  ni.setNode({ metadata: { name } });
  return ni;
});
const snapshot: SharedLister = {
  nodeInfos: () => ({
    list: () => nodeInfos,
    havePodsWithAffinityList: () => [],
    havePodsWithRequiredAntiAffinityList: () => [],
    get: (n: string) => nodeInfos.find((ni) => ni.nodeName === n),
  }),
  storageInfos: () => ({ isPVCUsedByPods: () => false }),
};
const logger: Logger = { error() {}, warn() {}, info() {}, v: () => false, debug() {}, child: () => logger };
const pod: Pod = { metadata: { name: "p", namespace: "default", uid: "p" } };

async function build(plugins: Plugin[], observer?: SchedulingObserver): Promise<Framework> {
  const registry = new Map(plugins.map((p) => [p.name(), { name: p.name(), factory: () => p }]));
  const opts: FrameworkOptions = {
    listers: {} as ClusterListers,
    client: {} as ClusterClient,
    eventRecorder: { eventf() {} },
    snapshot,
    logger,
    nominator: {
      addNominatedPod() {},
      deleteNominatedPodIfExists() {},
      updateNominatedPod() {},
      nominatedPodsForNode: () => [],
    },
    ...(observer ? { observer } : {}),
  };
  return newFramework(
    registry,
    { schedulerName: "p1", plugins: everywhere(...plugins.map((p) => p.name())), pluginConfig: [] },
    opts,
  );
}

/** The framework's own plugin list of a point (what its loops iterate). */
function listOf(f: Framework, point: keyof Plugins): readonly Plugin[] {
  return (f as unknown as Record<string, Plugin[]>)[point] ?? [];
}

/** Runs every extension point once, as a cycle and its binding would. */
async function cycle(f: Framework, sampled: boolean): Promise<void> {
  const state = new CycleState();
  state.recordPluginMetrics = sampled;
  f.runPreFilterPlugins(state, pod);
  f.runFilterPluginsOnNodes(state, pod, nodeInfos, 0, 3, new Diagnosis());
  f.runPreFilterExtensionAddPod(state, pod, new PodInfo(pod), nodeInfos[0] as NodeInfo);
  await f.runPostFilterPlugins(state, pod, new NodeToStatus());
  f.runPreScorePlugins(state, pod, nodeInfos);
  f.runScorePlugins(state, pod, nodeInfos);
  f.runReservePluginsReserve(state, pod, "node1");
  f.runReservePluginsUnreserve(state, pod, "node1");
  f.runPermitPlugins(state, pod, "node1");
  f.runPreBindPreFlights(state, pod, "node1");
  await f.runPreBindPlugins(state, pod, "node1");
  await f.runBindPlugins(state, pod, "node1");
  f.runPostBindPlugins(state, pod, "node1");
}

describe("no observer, no instrumentation", () => {
  it("the profile's lists hold the plugin objects themselves and the Framework is the plain class", async () => {
    for (const observer of [undefined, {}, { onScheduled() {} } satisfies SchedulingObserver]) {
      const a = new Everywhere("A");
      const b = new Everywhere("B");
      const f = await build([a, b], observer);
      expect(Object.getPrototypeOf(f)).toBe(Framework.prototype);
      for (const point of points) {
        const list = listOf(f, point);
        expect(list).toHaveLength(2);
        expect(list[0]).toBe(a);
        expect(list[1]).toBe(b);
      }
    }
  });

  it("handle.pluginMetrics() records nothing without an observer of the preemption metrics", async () => {
    const f = await build([new Everywhere("A")]);
    expect(() => f.pluginMetrics().preemptionAttempt()).not.toThrow();
  });
});

describe("an observer at the edges", () => {
  it("plugin events wrap every plugin (plugin(name) stays the instance); onExtensionPoint times the entry points", async () => {
    const a = new Everywhere("A");
    const f = await build([a], { onFilter() {} });
    expect(Object.getPrototypeOf(f)).toBe(Framework.prototype);
    for (const point of points) expect(listOf(f, point)[0]).not.toBe(a);
    expect(f.plugin("A")).toBe(a);

    const points_: string[] = [];
    const g = await build([new Everywhere("A")], {
      onExtensionPoint: (profile, point) => points_.push(`${profile}/${point}`),
    });
    expect(Object.getPrototypeOf(g)).not.toBe(Framework.prototype);
    for (const point of points) expect(listOf(g, point)[0]?.name()).toBe("A");
    await cycle(g, false);
    // The asynchronous points report when they settle.
    await new Promise((r) => setTimeout(r, 0));
    expect(points_).toEqual([
      "p1/PreFilter",
      "p1/Filter",
      "p1/PostFilter",
      "p1/PreScore",
      "p1/Score",
      "p1/Reserve",
      "p1/Unreserve",
      "p1/Permit",
      "p1/PreBindPreFlight",
      "p1/PreBind",
      "p1/Bind",
      "p1/PostBind",
    ]);
  });

  it("plugin durations only on sampled cycles, once per run (a Filter window per status code)", async () => {
    const seen: string[] = [];
    const reject = { node2: new Status(Code.Unschedulable, "no") };
    const f = await build([new Everywhere("A", reject)], {
      onPluginDuration: (plugin, point, status, _ms, runs) =>
        seen.push(`${plugin} ${point} ${status === null ? "Success" : status.code} x${runs}`),
    });
    await cycle(f, false);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([]);
    await cycle(f, true);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([
      "A PreFilter Success x1",
      // No columns in this snapshot: Filter runs node by node.
      "A Filter Success x1",
      `A Filter ${Code.Unschedulable} x1`,
      "A Filter Success x1",
      "A PreFilterExtensionAddPod Success x1",
      `A PostFilter ${Code.Unschedulable} x1`,
      "A PreScore Success x1",
      "A Score Success x1",
      "A Score Success x1",
      "A Score Success x1",
      "A ScoreExtensionNormalize Success x1",
      "A Reserve Success x1",
      "A Unreserve Success x1",
      "A Permit Success x1",
      "A PreBindPreFlight Success x1",
      "A PreBind Success x1",
      "A Bind Success x1",
      "A PostBind Success x1",
    ]);
  });

  it("outcomes: Filter per node up to the first failure as the runtime reports it, raw and normalized scores with the weight", async () => {
    const seen: string[] = [];
    const reject = { node2: new Status(Code.Unschedulable, "no"), node3: new Status(Code.Error, "boom") };
    const f = await build([new Everywhere("A", reject), new Everywhere("B")], {
      onPreFilter: (p, s) => seen.push(`PreFilter ${p} ${s?.code ?? "ok"}`),
      onFilter: (p, n, s) =>
        seen.push(`Filter ${p} ${n} ${s === null ? "ok" : `${s.code} ${s.plugin} ${s.message()}`}`),
      onPostFilter: (p, s) => seen.push(`PostFilter ${p} ${s?.code ?? "ok"}`),
      onPreScore: (p) => seen.push(`PreScore ${p}`),
      onScore: (p, n, score, w) => seen.push(`Score ${p} ${n} ${score} w${w}`),
      onNormalizeScore: (p, n, score, w) => seen.push(`Normalize ${p} ${n} ${score} w${w}`),
    });
    const state = new CycleState();
    f.runPreFilterPlugins(state, pod);
    for (const ni of nodeInfos) f.runFilterPlugins(state, pod, ni);
    await f.runPostFilterPlugins(state, pod, new NodeToStatus());
    f.runPreScorePlugins(state, pod, nodeInfos.slice(0, 2));
    f.runScorePlugins(state, pod, nodeInfos.slice(0, 2));
    expect(seen).toEqual([
      "PreFilter A ok",
      "PreFilter B ok",
      "Filter A node1 ok",
      "Filter B node1 ok",
      `Filter A node2 ${Code.Unschedulable} A no`,
      `Filter A node3 ${Code.Error} A running "A" filter plugin: boom`,
      `PostFilter A ${Code.Unschedulable}`,
      `PostFilter B ${Code.Unschedulable}`,
      "PreScore A",
      "PreScore B",
      "Score A node1 10 w2",
      "Score A node2 30 w2",
      "Score B node1 10 w2",
      "Score B node2 30 w2",
      "Normalize A node1 20 w2",
      "Normalize A node2 60 w2",
      "Normalize B node1 20 w2",
      "Normalize B node2 60 w2",
    ]);
  });

  it("handle.pluginMetrics() reports the preemption metrics to the observer", async () => {
    const seen: string[] = [];
    const f = await build([new Everywhere("A")], {
      onPreemptionAttempt: () => seen.push("attempt"),
      onPreemptionVictims: (n) => seen.push(`victims ${n}`),
    });
    f.pluginMetrics().preemptionAttempt();
    f.pluginMetrics().preemptionVictims(3);
    expect(seen).toEqual(["attempt", "victims 3"]);
  });

  it("decides the same with an observer of every plugin event as without", async () => {
    const reject = { node2: new Status(Code.Unschedulable, "no") };
    const plain = await build([new Everywhere("A", reject), new Everywhere("B")]);
    const observed = await build([new Everywhere("A", reject), new Everywhere("B")], {
      onPluginDuration() {},
      onFilter() {},
      onScore() {},
      onNormalizeScore() {},
      onExtensionPoint() {},
    });
    for (const f of [plain, observed]) {
      const state = new CycleState();
      state.recordPluginMetrics = true;
      f.runPreFilterPlugins(state, pod);
      expect(nodeInfos.map((ni) => f.runFilterPlugins(state, pod, ni)?.message() ?? null)).toEqual([
        null,
        "no",
        null,
      ]);
      expect(f.runScorePlugins(state, pod, nodeInfos).scores.map((s) => s.totalScore)).toEqual([
        80, 240, 240,
      ]);
    }
  });
});

describe("composeObservers", () => {
  it("forwards each event to every observer implementing it, in order, and implements only those", () => {
    const seen: string[] = [];
    const o = composeObservers(
      { onFilter: (p) => seen.push(`a ${p}`) },
      null,
      { onFilter: (p) => seen.push(`b ${p}`), onScore: (p) => seen.push(`b score ${p}`) },
      undefined,
    );
    o.onFilter?.("X", "n", null);
    o.onScore?.("Y", "n", 1, 1);
    expect(seen).toEqual(["a X", "b X", "b score Y"]);
    expect(o.onPreFilter).toBeUndefined();
    const one: SchedulingObserver = { onPhase() {} };
    expect(composeObservers(one, null)).toBe(one);
    expect(Object.keys(composeObservers())).toEqual([]);
  });
});
