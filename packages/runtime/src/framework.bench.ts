// Framework overhead on the hot paths: Filter over 5000 nodes with three trivial plugins (no
// observer: the loop allocates nothing; with one, through the instrumented plugins), and Score
// with normalization and weights.
// Run: npx vitest bench --run --project @kubesched/runtime
import type { Pod } from "@kubesched/api";
import type { Plugins } from "@kubesched/config";
import {
  type ClusterClient,
  type ClusterListers,
  CycleState,
  defaultNormalizeScore,
  type FilterPlugin,
  type Logger,
  NodeInfo,
  type NodeScore,
  type Plugin,
  type PluginDescriptor,
  type ScorePlugin,
} from "@kubesched/framework";
import { bench, describe } from "vitest";
import type { Framework } from "./framework";
import { newFramework } from "./observed-framework";

const numNodes = 5000;

const discardLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  v: () => false,
  debug() {},
  child: () => discardLogger,
};

class PassFilter implements FilterPlugin, ScorePlugin {
  constructor(readonly n: string) {}
  name() {
    return this.n;
  }
  filter() {
    return null;
  }
  score(_s: CycleState, _p: Pod, ni: NodeInfo) {
    return ni.nodeName.length;
  }
  scoreExtensions() {
    return {
      normalizeScore: (_s: CycleState, _p: Pod, scores: NodeScore[]) =>
        defaultNormalizeScore(100, false, scores),
    };
  }
}

function set(...names: string[]) {
  return { enabled: names.map((name) => ({ name })), disabled: [] };
}

async function build(observed: boolean): Promise<Framework> {
  const names = ["A", "B", "C"];
  const r = new Map<string, PluginDescriptor>(
    names.map((n) => [n, { name: n, factory: () => new PassFilter(n) }]),
  );
  r.set("Sort", {
    name: "Sort",
    factory: (): Plugin & { less(): boolean } => ({ name: () => "Sort", less: () => false }),
  });
  r.set("Bind", { name: "Bind", factory: () => ({ name: () => "Bind", bind: async () => null }) });
  const empty = set();
  const plugins: Plugins = {
    preEnqueue: empty,
    queueSort: set("Sort"),
    preFilter: empty,
    filter: set(...names),
    postFilter: empty,
    preScore: empty,
    score: set(...names),
    reserve: empty,
    permit: empty,
    preBind: empty,
    bind: set("Bind"),
    postBind: empty,
    multiPoint: empty,
  };
  return newFramework(
    r,
    { schedulerName: "bench", plugins, pluginConfig: [] },
    {
      listers: {} as ClusterListers,
      client: {} as ClusterClient,
      eventRecorder: { eventf() {} },
      snapshot: {
        nodeInfos: () => ({
          list: () => nodeInfos,
          havePodsWithAffinityList: () => [],
          havePodsWithRequiredAntiAffinityList: () => [],
          get: (n: string) => nodeInfos.find((ni) => ni.nodeName === n),
        }),
        storageInfos: () => ({ isPVCUsedByPods: () => false }),
      },
      logger: discardLogger,
      ...(observed ? { observer: { onFilter() {} } } : {}),
    },
  );
}

const nodeInfos = Array.from({ length: numNodes }, (_, i) => {
  const ni = new NodeInfo();
  ni.setNode({ metadata: { name: `node-${i}` } });
  return ni;
});
const pod: Pod = { metadata: { name: "p", namespace: "default" }, spec: { containers: [] } };
const f = await build(false);
const observed = await build(true);

describe(`framework over ${numNodes} nodes, 3 plugins`, () => {
  bench("runFilterPlugins on every node", () => {
    const state = new CycleState();
    for (const ni of nodeInfos) f.runFilterPlugins(state, pod, ni);
  });
  bench("runFilterPlugins on every node, with an observer of Filter outcomes", () => {
    const state = new CycleState();
    for (const ni of nodeInfos) observed.runFilterPlugins(state, pod, ni);
  });
  bench("runScorePlugins", () => {
    f.runScorePlugins(new CycleState(), pod, nodeInfos);
  });
});
