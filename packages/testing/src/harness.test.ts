import type { Pod } from "@kubesched/api";
import {
  type ClusterClient,
  Code,
  type CycleState,
  defaultNormalizeScore,
  defineArgs,
  type Extender,
  type FilterPlugin,
  fieldErrors,
  type NodeInfo,
  type NodeScore,
  type PluginDescriptor,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScorePlugin,
  Status,
  stateKey,
  Type,
} from "@kubesched/framework";
import { afterEach, describe, expect, it } from "vitest";
import { makeNode, makePod } from "./builders";
import { fakeClock } from "./fake-clock";
import {
  createPluginHarness,
  type EngineCall,
  flushHarnessEngineChecks,
  setHarnessEngineChecker,
} from "./harness";
import { statusSummary } from "./status-summary";

// A label-matching filter with args: the pod fits nodes whose label `key` equals the pod's.
interface LabelMatchArgs {
  key: string;
}

class PreFilterState {
  constructor(readonly value: string | undefined) {}
  clone() {
    return this;
  }
}
const key = stateKey<PreFilterState>("PreFilterLabelMatch");

class LabelMatch implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  constructor(readonly args: LabelMatchArgs) {}
  name() {
    return "LabelMatch";
  }
  preFilter(state: CycleState, pod: Pod): PreFilterResult | Status | null {
    const v = pod.metadata?.labels?.[this.args.key];
    if (v === "none") return new Status(Code.UnschedulableAndUnresolvable, "pod wants nothing");
    if (v === undefined) return new Status(Code.Skip);
    state.write(key, new PreFilterState(v));
    return null;
  }
  preFilterExtensions() {
    return null;
  }
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = state.read(key);
    if (!s) return new Status(Code.Error, "no state");
    return nodeInfo.node?.metadata?.labels?.[this.args.key] === s.value
      ? null
      : new Status(Code.UnschedulableAndUnresolvable, "node(s) didn't match label");
  }
  preScore(_s: CycleState, pod: Pod): Status | null {
    return pod.metadata?.labels?.skipScore ? new Status(Code.Skip) : null;
  }
  score(_s: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    return nodeInfo.pods.length;
  }
  scoreExtensions() {
    return {
      normalizeScore: (_s: CycleState, _p: Pod, scores: NodeScore[]) =>
        defaultNormalizeScore(100, true, scores),
    };
  }
}

const labelMatch: PluginDescriptor<LabelMatchArgs> = {
  name: "LabelMatch",
  factory: (args) => new LabelMatch(args),
  args: defineArgs({
    kind: "LabelMatchArgs",
    schema: Type.Object({ key: Type.String({ default: "zone" }) }),
    validate: (args, path) => (args.key ? [] : [fieldErrors.required(`${path}.key`)]),
  }),
};

const nodes = [
  makeNode().name("n1").label("zone", "a").obj(),
  makeNode().name("n2").label("zone", "b").obj(),
  makeNode().name("n3").label("zone", "a").obj(),
];

describe("createPluginHarness", () => {
  it("runs PreFilter then Filter on every node, through the runtime", async () => {
    const h = await createPluginHarness({ plugin: labelMatch, nodes });
    const { preFilter, statuses } = h.filter(makePod().name("p").label("zone", "a").obj());
    expect(preFilter.status).toBeNull();
    expect([...statuses].map(([n, s]) => [n, statusSummary(s)])).toEqual([
      ["n1", { code: "Success", reasons: [] }],
      ["n2", { code: "UnschedulableAndUnresolvable", reasons: ["node(s) didn't match label"] }],
      ["n3", { code: "Success", reasons: [] }],
    ]);
    expect(statuses.get("n2")?.plugin).toBe("LabelMatch");
  });

  it("returns a PreFilter rejection without filtering", async () => {
    const h = await createPluginHarness({ plugin: labelMatch, nodes });
    const out = h.filter(makePod().name("p").label("zone", "none").obj(), ["n1"]);
    expect(statusSummary(out.preFilter.status)).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ["pod wants nothing"],
    });
    expect(out.statuses.size).toBe(0);
    expect(out.preFilter.pluginStatus).toBe(out.preFilter.status);
  });

  it("skips Filter when PreFilter returned Skip", async () => {
    const h = await createPluginHarness({ plugin: labelMatch, nodes });
    const out = h.filter(makePod().name("p").obj());
    expect(out.state.skipFilterPlugins.has("LabelMatch")).toBe(true);
    expect([...out.statuses.values()]).toEqual([null, null, null]);
    // The framework folds Skip away; the plugin's own status is kept.
    expect(out.preFilter.status).toBeNull();
    expect(statusSummary(out.preFilter.pluginStatus).code).toBe("Skip");
    expect(h.filter(makePod().name("p").label("zone", "a").obj()).preFilter.pluginStatus).toBeNull();
  });

  it("decodes, defaults and validates args", async () => {
    const h = await createPluginHarness({
      plugin: labelMatch,
      args: { key: "rack" },
      nodes: [makeNode().name("n1").label("rack", "r1").obj()],
    });
    expect((h.plugin as LabelMatch).args).toEqual({ key: "rack" });
    const st = h.newCycleState();
    expect(h.runPreFilter(st, makePod().label("rack", "r1").obj()).status).toBeNull();
    expect(h.runFilter(st, makePod().label("rack", "r1").obj(), "n1")).toBeNull();
    await expect(createPluginHarness({ plugin: labelMatch, args: { bogus: 1 } })).rejects.toThrow(
      "pluginConfig[LabelMatch].args.bogus: unknown field",
    );
    await expect(createPluginHarness({ plugin: labelMatch, args: { key: "" } })).rejects.toThrow(
      "pluginConfig[LabelMatch].args.key: Required value",
    );
  });

  it("places existing pods on their nodes and scores with normalization, unweighted", async () => {
    const h = await createPluginHarness({
      plugin: labelMatch,
      weight: 5,
      nodes,
      pods: [
        makePod().name("a").node("n1").obj(),
        makePod().name("b").node("n1").obj(),
        makePod().name("c").node("n2").obj(),
        makePod().name("pending").obj(),
      ],
    });
    expect(h.nodeInfo("n1").pods).toHaveLength(2);
    const out = h.score(makePod().name("p").obj());
    expect(out.status).toBeNull();
    expect(out.scores).toEqual([
      { name: "n1", score: 0 },
      { name: "n2", score: 50 },
      { name: "n3", score: 100 },
    ]);
    expect(h.framework.scoreWeight("LabelMatch")).toBe(5);
    const skipped = h.score(makePod().name("p").label("skipScore", "y").obj(), ["n1"]);
    expect(skipped.scores).toEqual([]);
    expect(statusSummary(skipped.preScoreStatus).code).toBe("Skip");
  });

  it("runs extra plugins and uses the nominated pods", async () => {
    class CountPods implements FilterPlugin {
      name() {
        return "CountPods";
      }
      filter(_s: CycleState, _p: Pod, ni: NodeInfo) {
        return ni.pods.length >= 1 ? new Status(Code.Unschedulable, "too many pods") : null;
      }
    }
    const h = await createPluginHarness({
      plugin: labelMatch,
      extraPlugins: [{ name: "CountPods", factory: () => new CountPods() }],
      nodes,
      nominatedPods: [makePod().name("nominated").priority(10).nominatedNodeName("n3").obj()],
    });
    expect(h.framework.listPlugins().filter?.map((p) => p.name)).toEqual(["LabelMatch", "CountPods"]);
    const pod = makePod().name("p").priority(1).label("zone", "a").obj();
    const st = h.newCycleState();
    h.runPreFilter(st, pod);
    expect(h.framework.runFilterPluginsWithNominatedPods(st, pod, h.nodeInfo("n1"))).toBeNull();
    expect(statusSummary(h.framework.runFilterPluginsWithNominatedPods(st, pod, h.nodeInfo("n3")))).toEqual({
      code: "Unschedulable",
      reasons: ["too many pods"],
    });
  });

  it("binds through the harness binder and records client calls of plugins", async () => {
    const binder: PluginDescriptor = {
      name: "RecordingBinder",
      factory: (_a, handle) => ({
        name: () => "RecordingBinder",
        async bind(_s: CycleState, pod: Pod, nodeName: string) {
          await handle.client().bindPod(pod, nodeName);
          return null;
        },
      }),
    };
    const h = await createPluginHarness({ plugin: binder, nodes });
    const pod = makePod().name("p").obj();
    expect(await h.framework.runBindPlugins(h.newCycleState(), pod, "n1")).toBeNull();
    expect(h.client.calls).toEqual([{ verb: "bind", pod, nodeName: "n1" }]);
    expect(h.framework.listPlugins().bind?.map((p) => p.name)).toEqual(["RecordingBinder", "HarnessBinder"]);
  });

  it("forwards client calls to a given client and keeps recording them", async () => {
    const forwarded: string[] = [];
    const volumes: number[] = [];
    const client: ClusterClient = {
      bindPod: async (pod, nodeName) => {
        forwarded.push(`bind ${pod.metadata?.name} ${nodeName}`);
      },
      deletePod: async (pod) => {
        forwarded.push(`delete ${pod.metadata?.name}`);
        throw new Error("gone");
      },
      patchPodStatus: async (pod) => {
        forwarded.push(`patch ${pod.metadata?.name}`);
      },
      bindVolumes: async (bindings, provisions) => {
        volumes.push(bindings.length, provisions.length);
      },
    };
    const h = await createPluginHarness({ plugin: labelMatch, nodes, client });
    const handle = h.framework;
    const pod = makePod().name("p").obj();
    await handle.client().bindPod(pod, "n1");
    await expect(handle.client().deletePod(pod)).rejects.toThrow("gone");
    h.client.failWith("patchStatus", new Error("patch failed"));
    await expect(handle.client().patchPodStatus(pod, {})).rejects.toThrow("patch failed");
    await handle.client().bindVolumes?.([], []);
    expect(forwarded).toEqual(["bind p n1", "delete p"]);
    expect(h.client.calls.map((c) => c.verb)).toEqual(["bind", "delete", "patchStatus"]);
    expect(h.client.inner).toBe(client);
    expect(volumes).toEqual([0, 0]);

    // Without bindVolumes on the given client (or without a client), the harness has none.
    const { bindVolumes: _, ...noVolumes } = client;
    expect((await createPluginHarness({ plugin: labelMatch, client: noVolumes })).client.bindVolumes).toBe(
      undefined,
    );
    expect((await createPluginHarness({ plugin: labelMatch })).framework.client().bindVolumes).toBe(
      undefined,
    );
  });

  it("passes extenders to the framework and events to a given recorder", async () => {
    const extender = { name: () => "ext" } as Pick<Extender, "name"> as Extender;
    const seen: string[] = [];
    const h = await createPluginHarness({
      plugin: labelMatch,
      extenders: [extender],
      eventRecorder: { eventf: (_r, _rel, _t, reason) => seen.push(reason) },
    });
    expect(h.framework.extenders()).toEqual([extender]);
    const pod = makePod().name("p").obj();
    h.framework.eventRecorder().eventf(pod, null, "Normal", "Scheduled", "Binding", "ok");
    expect(seen).toEqual(["Scheduled"]);
    expect(h.events.map((e) => e.reason)).toEqual(["Scheduled"]);
    expect((await createPluginHarness({ plugin: labelMatch })).framework.extenders()).toEqual([]);
  });

  it("scores without PreScore when asked", async () => {
    class CountingPreScore extends LabelMatch {
      preScoreCalls = 0;
      override preScore(s: CycleState, pod: Pod): Status | null {
        this.preScoreCalls++;
        return super.preScore(s, pod);
      }
    }
    const plugin: PluginDescriptor = {
      name: "LabelMatch",
      factory: () => new CountingPreScore({ key: "zone" }),
    };
    const h = await createPluginHarness({ plugin, nodes, pods: [makePod().name("a").node("n2").obj()] });
    const pl = h.plugin as CountingPreScore;
    // PreScore would skip this pod; without it, Score runs.
    const pod = makePod().name("p").label("skipScore", "y").obj();
    const out = h.score(pod, ["n1", "n2"], { runPreScore: false });
    expect(pl.preScoreCalls).toBe(0);
    expect(out.preScoreStatus).toBeNull();
    expect(out.scores).toEqual([
      { name: "n1", score: 100 },
      { name: "n2", score: 0 },
    ]);
    h.score(pod, ["n1"]);
    expect(pl.preScoreCalls).toBe(1);
  });

  it("can test a QueueSort plugin", async () => {
    const sort: PluginDescriptor = {
      name: "MySort",
      factory: () => ({ name: () => "MySort", less: () => true }),
    };
    const h = await createPluginHarness({ plugin: sort });
    expect(h.plugin.name()).toBe("MySort");
  });
});

describe("fakeClock", () => {
  it("fires due timers in time order, including ones scheduled while advancing", () => {
    const c = fakeClock(1000);
    const fired: string[] = [];
    c.setTimeout(() => fired.push(`b@${c.now()}`), 20);
    c.setTimeout(() => {
      fired.push(`a@${c.now()}`);
      c.setTimeout(() => fired.push(`c@${c.now()}`), 5);
    }, 10);
    const t = c.setTimeout(() => fired.push("cancelled"), 15);
    t.cancel();
    c.advance(30);
    expect(fired).toEqual(["a@1010", "c@1015", "b@1020"]);
    expect(c.now()).toBe(1030);
    expect(c.pendingTimers()).toBe(0);
  });
});

describe("PluginHarness.preEnqueue", () => {
  const gate: PluginDescriptor = {
    name: "Gate",
    factory: () => ({
      name: () => "Gate",
      preEnqueue: (pod: Pod) =>
        pod.metadata?.labels?.gated
          ? new Status(Code.UnschedulableAndUnresolvable, "waiting for the gate")
          : null,
    }),
  };
  it("runs the profile's PreEnqueue plugins: the first status that is not a success, or null", async () => {
    const h = await createPluginHarness({ plugin: gate });
    expect(h.preEnqueue(makePod().name("p").obj())).toBeNull();
    expect(statusSummary(h.preEnqueue(makePod().name("p").label("gated", "y").obj()))).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ["waiting for the gate"],
    });
  });
});

describe("engine calls (the conformance suite's replay)", () => {
  const calls: EngineCall[] = [];
  const record = () => {
    calls.length = 0;
    setHarnessEngineChecker(async (c) => {
      calls.push(c);
    });
  };
  afterEach(() => setHarnessEngineChecker(null));
  const summary = () => calls.map((c) => `${c.kind}${c.unobservable ? ` (${c.unobservable})` : ""}`);

  it("hands each filter and score call over, and a PreFilter no Filter followed at the flush", async () => {
    record();
    const h = await createPluginHarness({ plugin: labelMatch, nodes });
    const pod = makePod().name("p").label("zone", "a").obj();
    h.filter(pod);
    const s1 = h.newCycleState();
    h.runPreFilter(s1, pod);
    h.runFilter(s1, pod, "n1");
    h.runPreFilter(h.newCycleState(), pod);
    h.score(pod);
    expect(summary()).toEqual(["filter", "filter", "score"]);
    await flushHarnessEngineChecks();
    expect(summary()).toEqual(["filter", "filter", "score", "preFilter"]);
    expect(calls[3]?.preFilterStatus).toBeNull();
  });

  it("marks what a cycle cannot observe, with why", async () => {
    record();
    const h = await createPluginHarness({ plugin: labelMatch, nodes });
    const pod = makePod().name("p").label("zone", "a").obj();
    h.score(pod, undefined, { runPreScore: false });
    // A state nothing ran on, and the state of the harness's PreFilter and Filter with the same
    // pod, are a cycle's; a state another pod's PreFilter ran on, or a second Score, are not.
    const fresh = h.newCycleState();
    h.score(pod, undefined, { state: fresh });
    h.score(pod, undefined, { state: fresh });
    const { state } = h.filter(pod);
    h.score(pod, undefined, { state });
    const other = h.newCycleState();
    h.runPreFilter(other, makePod().name("other").obj());
    h.score(pod, undefined, { state: other });
    const nominated = await createPluginHarness({
      plugin: labelMatch,
      nodes,
      nominatedPods: [makePod().name("n").nominatedNodeName("n1").obj()],
    });
    nominated.filter(pod);
    await flushHarnessEngineChecks();
    expect(summary()).toEqual([
      "score",
      "score",
      "score (Score on a state the test built)",
      "filter",
      "score",
      "score (Score on a state the test built)",
      "filter (the harness was given nominated pods)",
      "preFilter",
    ]);
    // A Score without PreScore is compared with the cycle's, flagged as such.
    expect(calls[0]?.withoutPreScore).toBe(true);
  });

  it("hands PreEnqueue calls over with their status", async () => {
    record();
    const h = await createPluginHarness({
      plugin: {
        name: "Gate",
        factory: () => ({ name: () => "Gate", preEnqueue: () => new Status(Code.Unschedulable, "no") }),
      },
    });
    h.preEnqueue(makePod().name("p").obj());
    expect(summary()).toEqual(["preEnqueue"]);
    expect(calls[0]?.status?.message()).toBe("no");
  });
});
