// Ported from upstream pkg/scheduler/framework/runtime/framework_test.go (case names verbatim).
import type { Node, Pod } from "@kubesched/api";
import {
  type PluginEntry,
  type PluginSet,
  type Plugins,
  type ProfileConfig,
  pluginSetNames,
} from "@kubesched/config";
import {
  type BindPlugin,
  type ClusterClient,
  type ClusterListers,
  Code,
  CycleState,
  codeName,
  defineArgs,
  type EventRecorder,
  type FilterPlugin,
  type Logger,
  ManualClock,
  MaxNodeScore,
  MinNodeScore,
  NodeInfo,
  type NodeScore,
  NodeToStatus,
  type PermitOutput,
  type PermitPlugin,
  type Plugin,
  type PluginDescriptor,
  PodInfo,
  type PodNominator,
  type PostBindPlugin,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueueSortPlugin,
  type ReservePlugin,
  registryEntry,
  type ScoreExtensions,
  type ScorePlugin,
  type SharedLister,
  Status,
  Type,
} from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import type { FrameworkOptions } from "./framework";
import { newFramework } from "./observed-framework";

const queueSortPlugin = "no-op-queue-sort-plugin";
const scoreWithNormalizePlugin1 = "score-with-normalize-plugin-1";
const scoreWithNormalizePlugin2 = "score-with-normalize-plugin-2";
const scorePlugin1 = "score-plugin-1";
const scorePlugin2 = "score-plugin-2";
const pluginNotImplementingScore = "plugin-not-implementing-score";
const preFilterPluginName = "prefilter-plugin";
const preFilterWithExtensionsPluginName = "prefilter-with-extensions-plugin";
const duplicatePluginName = "duplicate-plugin";
const testPlugin = "test-plugin";
const permitPlugin = "permit-plugin";
const bindPlugin = "bind-plugin";
const testProfileName = "test-profile";
const nodeName = "testNode";
const injectReason = "injected status";
const injectFilterReason = "injected filter status";

// ------------------------------------------------------------------------------------------------
// Fixtures

interface Injected {
  scoreRes?: number;
  normalizeRes?: number;
  scoreStatus?: Code;
  normalizeStatus?: Code;
  preFilterResult?: PreFilterResult;
  preFilterStatus?: Code;
  preFilterAddPodStatus?: Code;
  preFilterRemovePodStatus?: Code;
  filterStatus?: Code;
  postFilterStatus?: Code;
  preScoreStatus?: Code;
  reserveStatus?: Code;
  preBindStatus?: Code;
  bindStatus?: Code;
  permitStatus?: Code;
}

/** upstream framework.NewStatus(code, reason): a status object even for Success. */
function inj(code: Code | undefined, reason: string): Status | null {
  return new Status(code ?? Code.Success, reason);
}

function setScoreRes(i: Injected): number | Status {
  if ((i.scoreStatus ?? Code.Success) !== Code.Success)
    return new Status(i.scoreStatus as Code, "injecting failure.");
  return i.scoreRes ?? 0;
}

function injectNormalizeRes(i: Injected, scores: NodeScore[]): Status | null {
  if ((i.normalizeStatus ?? Code.Success) !== Code.Success) {
    return new Status(i.normalizeStatus as Code, "injecting failure.");
  }
  for (const s of scores) s.score = i.normalizeRes ?? 0;
  return null;
}

class TestScoreWithNormalizePlugin implements ScorePlugin, ScoreExtensions {
  constructor(
    private readonly n: string,
    private readonly i: Injected,
  ) {}
  name() {
    return this.n;
  }
  normalizeScore(_s: CycleState, _p: Pod, scores: NodeScore[]) {
    return injectNormalizeRes(this.i, scores);
  }
  score() {
    return setScoreRes(this.i);
  }
  scoreExtensions() {
    return this;
  }
}

class TestScorePlugin implements ScorePlugin, PreScorePlugin {
  constructor(
    private readonly n: string,
    private readonly i: Injected,
  ) {}
  name() {
    return this.n;
  }
  preScore() {
    return inj(this.i.preScoreStatus, injectReason);
  }
  score() {
    return setScoreRes(this.i);
  }
  scoreExtensions() {
    return null;
  }
}

class PluginNotImplementingScore implements Plugin {
  name() {
    return pluginNotImplementingScore;
  }
}

/** Implements every extension point. */
class TestPlugin
  implements
    PreFilterPlugin,
    PreFilterExtensions,
    FilterPlugin,
    PostFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ReservePlugin,
    PermitPlugin,
    PreBindPlugin,
    BindPlugin,
    PostBindPlugin,
    QueueSortPlugin
{
  constructor(
    readonly n: string,
    readonly i: Injected = {},
  ) {}
  name() {
    return this.n;
  }
  addPod() {
    return inj(this.i.preFilterAddPodStatus, injectReason);
  }
  removePod() {
    return inj(this.i.preFilterRemovePodStatus, injectReason);
  }
  less() {
    return false;
  }
  score() {
    if ((this.i.scoreStatus ?? Code.Success) === Code.Success) return 0;
    return new Status(this.i.scoreStatus as Code, injectReason);
  }
  scoreExtensions() {
    return null;
  }
  preFilter() {
    if ((this.i.preFilterStatus ?? Code.Success) === Code.Success) return this.i.preFilterResult ?? null;
    return inj(this.i.preFilterStatus, injectReason);
  }
  preFilterExtensions() {
    return this;
  }
  filter() {
    return inj(this.i.filterStatus, injectFilterReason);
  }
  postFilter(): PostFilterOutput {
    return { result: null, status: inj(this.i.postFilterStatus, injectReason) };
  }
  preScore() {
    return inj(this.i.preScoreStatus, injectReason);
  }
  reserve() {
    return inj(this.i.reserveStatus, injectReason);
  }
  unreserve() {}
  preBindPreFlight(): Status | null {
    return null;
  }
  async preBind() {
    return inj(this.i.preBindStatus, injectReason);
  }
  postBind() {}
  permit(): PermitOutput {
    return { status: inj(this.i.permitStatus, injectReason), timeoutMs: 0 };
  }
  async bind() {
    return inj(this.i.bindStatus, injectReason);
  }
}

class TestPreFilterPlugin implements PreFilterPlugin {
  preFilterCalled = 0;
  name() {
    return preFilterPluginName;
  }
  preFilter() {
    this.preFilterCalled++;
    return null;
  }
  preFilterExtensions() {
    return null;
  }
}

class TestPreFilterWithExtensionsPlugin implements PreFilterPlugin, PreFilterExtensions {
  preFilterCalled = 0;
  addCalled = 0;
  removeCalled = 0;
  name() {
    return preFilterWithExtensionsPluginName;
  }
  preFilter() {
    this.preFilterCalled++;
    return null;
  }
  addPod() {
    this.addCalled++;
    return null;
  }
  removePod() {
    this.removeCalled++;
    return null;
  }
  preFilterExtensions() {
    return this;
  }
}

class TestDuplicatePlugin implements PreFilterPlugin {
  name() {
    return duplicatePluginName;
  }
  preFilter() {
    return null;
  }
  preFilterExtensions() {
    return null;
  }
}

class TestPermitPlugin implements PermitPlugin {
  name() {
    return permitPlugin;
  }
  permit(): PermitOutput {
    return { status: new Status(Code.Wait), timeoutMs: 10_000 };
  }
}

class TestPreEnqueuePlugin implements PreEnqueuePlugin {
  name() {
    return "preEnqueue-plugin";
  }
  preEnqueue() {
    return null;
  }
}

class TestQueueSortPlugin implements QueueSortPlugin {
  name() {
    return queueSortPlugin;
  }
  less() {
    return false;
  }
}

class TestBindPlugin implements BindPlugin {
  name() {
    return bindPlugin;
  }
  async bind() {
    return null;
  }
}

function d(name: string, factory: (args: unknown) => Plugin): PluginDescriptor {
  return { name, factory: (args) => factory(args) };
}

function fixed(p: Plugin): PluginDescriptor {
  return d(p.name(), () => p);
}

/** The shared registry of upstream's tests; args are the injected results. */
function registry(): Map<string, PluginDescriptor> {
  const args = (a: unknown): Injected => (a ?? {}) as Injected;
  return new Map([
    [
      scoreWithNormalizePlugin1,
      d(
        scoreWithNormalizePlugin1,
        (a) => new TestScoreWithNormalizePlugin(scoreWithNormalizePlugin1, args(a)),
      ),
    ],
    [
      scoreWithNormalizePlugin2,
      d(
        scoreWithNormalizePlugin2,
        (a) => new TestScoreWithNormalizePlugin(scoreWithNormalizePlugin2, args(a)),
      ),
    ],
    [scorePlugin1, d(scorePlugin1, (a) => new TestScorePlugin(scorePlugin1, args(a)))],
    [scorePlugin2, d(scorePlugin2, (a) => new TestScorePlugin(scorePlugin2, args(a)))],
    [pluginNotImplementingScore, d(pluginNotImplementingScore, () => new PluginNotImplementingScore())],
    [duplicatePluginName, d(duplicatePluginName, () => new TestDuplicatePlugin())],
    [testPlugin, d(testPlugin, () => new TestPlugin(testPlugin))],
    [queueSortPlugin, d(queueSortPlugin, () => new TestQueueSortPlugin())],
    [bindPlugin, d(bindPlugin, () => new TestBindPlugin())],
  ]);
}

function registryOf(plugins: readonly Plugin[]): Map<string, PluginDescriptor> {
  return new Map(plugins.map((p) => [p.name(), fixed(p)]));
}

const defaultWeights: Record<string, number> = {
  [scoreWithNormalizePlugin1]: 1,
  [scoreWithNormalizePlugin2]: 2,
  [scorePlugin1]: 1,
};

function plugins(p: Partial<Record<keyof Plugins, Partial<PluginSet>>> = {}): Plugins {
  const out = {} as Plugins;
  for (const k of pluginSetNames)
    out[k] = { enabled: [...(p[k]?.enabled ?? [])], disabled: [...(p[k]?.disabled ?? [])] };
  return out;
}

function enabled(...names: string[]): Partial<PluginSet> {
  return { enabled: names.map((name) => ({ name })) };
}

function buildScoreConfigDefaultWeights(...ps: string[]): Plugins {
  return plugins({ score: { enabled: ps.map((name) => ({ name, weight: defaultWeights[name] ?? 0 })) } });
}

const noListers = {} as ClusterListers;
const noClient = {} as ClusterClient;
const noRecorder: EventRecorder = { eventf() {} };
/** A snapshot with no nodes (upstream cache.NewEmptySnapshot). */
const emptySnapshot: SharedLister = {
  nodeInfos: () => ({
    list: () => [],
    havePodsWithAffinityList: () => [],
    havePodsWithRequiredAntiAffinityList: () => [],
    get: () => undefined,
  }),
  storageInfos: () => ({ isPVCUsedByPods: () => false }),
};
const logged: string[] = [];
const testLogger: Logger = {
  error: (msg) => logged.push(msg),
  warn: (msg) => logged.push(msg),
  info: (msg) => logged.push(msg),
  v: () => true,
  debug: (_level, msg) => logged.push(msg),
  child: () => testLogger,
};

function options(extra: Partial<FrameworkOptions> = {}): FrameworkOptions {
  return {
    listers: noListers,
    client: noClient,
    eventRecorder: noRecorder,
    snapshot: emptySnapshot,
    logger: testLogger,
    ...extra,
  };
}

function profileOf(p: Plugins, pluginConfig: ProfileConfig["pluginConfig"] = []): ProfileConfig {
  return { schedulerName: testProfileName, plugins: p, pluginConfig };
}

/** upstream newFrameworkWithQueueSortAndBind. */
function newFrameworkWithQueueSortAndBind(
  r: Map<string, PluginDescriptor>,
  p: Plugins,
  pluginConfig: ProfileConfig["pluginConfig"] = [],
  extra: Partial<FrameworkOptions> = {},
) {
  if (!r.has(queueSortPlugin))
    r.set(
      queueSortPlugin,
      d(queueSortPlugin, () => new TestQueueSortPlugin()),
    );
  if (!r.has(bindPlugin))
    r.set(
      bindPlugin,
      d(bindPlugin, () => new TestBindPlugin()),
    );
  if (p.queueSort.enabled.length === 0) p.queueSort.enabled.push({ name: queueSortPlugin });
  if (p.bind.enabled.length === 0) p.bind.enabled.push({ name: bindPlugin });
  return newFramework(r, profileOf(p, pluginConfig), options(extra));
}

const pod: Pod = {};
const nodes: Node[] = [{ metadata: { name: "node1" } }, { metadata: { name: "node2" } }];

function buildNodeInfos(ns: Node[]): NodeInfo[] {
  return ns.map((n) => {
    const ni = new NodeInfo();
    ni.setNode(n);
    return ni;
  });
}

/** upstream statusCmpOpts: errors compare by message; others by code, plugin and message. */
function expectStatus(got: Status | null, want: Status | null): void {
  if (want === null || want.isSuccess()) {
    expect(got === null || got.isSuccess(), `want success, got ${got?.message()}`).toBe(true);
    return;
  }
  expect(got).not.toBeNull();
  const g = got as Status;
  if (want.code === Code.Error) {
    expect(codeName(g.code)).toBe("Error");
    expect(g.asError()?.message).toBe(want.asError()?.message);
    return;
  }
  expect({ code: codeName(g.code), plugin: g.plugin, message: g.message() }).toEqual({
    code: codeName(want.code),
    plugin: want.plugin,
    message: want.message(),
  });
}

function errStatus(msg: string): Status {
  return new Status(Code.Error).withError(new Error(msg));
}

// ------------------------------------------------------------------------------------------------

describe("TestInitFrameworkWithScorePlugins", () => {
  const tests: { name: string; plugins: Plugins; initErr?: boolean }[] = [
    {
      name: "enabled Score plugin doesn't exist in registry",
      plugins: buildScoreConfigDefaultWeights("notExist"),
      initErr: true,
    },
    {
      name: "enabled Score plugin doesn't extend the ScorePlugin interface",
      plugins: buildScoreConfigDefaultWeights(pluginNotImplementingScore),
      initErr: true,
    },
    { name: "Score plugins are nil", plugins: plugins() },
    { name: "enabled Score plugin list is empty", plugins: buildScoreConfigDefaultWeights() },
    {
      name: "enabled plugin only implements ScorePlugin interface",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1),
    },
    {
      name: "enabled plugin implements ScoreWithNormalizePlugin interface",
      plugins: buildScoreConfigDefaultWeights(scoreWithNormalizePlugin1),
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const p = newFrameworkWithQueueSortAndBind(registry(), tt.plugins);
      if (tt.initErr) await expect(p).rejects.toThrow();
      else await expect(p).resolves.toBeDefined();
    });
  }

  it("reports upstream's messages", async () => {
    await expect(
      newFrameworkWithQueueSortAndBind(registry(), buildScoreConfigDefaultWeights("notExist")),
    ).rejects.toThrow('ScorePlugin "notExist" does not exist');
    await expect(
      newFrameworkWithQueueSortAndBind(
        registry(),
        buildScoreConfigDefaultWeights(pluginNotImplementingScore),
      ),
    ).rejects.toThrow('plugin "plugin-not-implementing-score" does not extend ScorePlugin plugin');
  });
});

describe("TestNewFrameworkErrors", () => {
  const tests: {
    name: string;
    plugins: Plugins;
    pluginCfg: ProfileConfig["pluginConfig"];
    wantErr: string;
  }[] = [
    {
      name: "duplicate plugin name",
      plugins: plugins({
        preFilter: {
          enabled: [
            { name: duplicatePluginName, weight: 1 },
            { name: duplicatePluginName, weight: 1 },
          ],
        },
      }),
      pluginCfg: [{ name: duplicatePluginName, args: undefined }],
      wantErr: "already registered",
    },
    {
      name: "duplicate plugin config",
      plugins: plugins({ preFilter: { enabled: [{ name: duplicatePluginName, weight: 1 }] } }),
      pluginCfg: [
        { name: duplicatePluginName, args: undefined },
        { name: duplicatePluginName, args: undefined },
      ],
      wantErr: "repeated config for plugin",
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      await expect(newFramework(registry(), profileOf(tc.plugins, tc.pluginCfg), options())).rejects.toThrow(
        tc.wantErr,
      );
    });
  }

  it("requires exactly one queue sort plugin and a bind plugin", async () => {
    await expect(
      newFramework(
        registry(),
        { ...profileOf(plugins({ bind: enabled(bindPlugin) })), schedulerName: "p" },
        options(),
      ),
    ).rejects.toThrow('only one queue sort plugin required for profile with scheduler name "p", but got 0');
    await expect(
      newFramework(
        registry(),
        { ...profileOf(plugins({ queueSort: enabled(queueSortPlugin) })), schedulerName: "p" },
        options(),
      ),
    ).rejects.toThrow('at least one bind plugin is needed for profile with scheduler name "p"');
  });

  it("wraps factory errors", async () => {
    const r = new Map([
      [
        "broken",
        d("broken", () => {
          throw new Error("bad args");
        }),
      ],
    ]);
    await expect(newFrameworkWithQueueSortAndBind(r, plugins({ filter: enabled("broken") }))).rejects.toThrow(
      'initializing plugin "broken": bad args',
    );
  });

  it("validates pluginConfig args with the descriptor's args spec before the factory runs", async () => {
    let built = false;
    const spec = defineArgs({
      kind: "CheckedArgs",
      schema: Type.Object({ weight: Type.Integer({ minimum: 0, maximum: 100, default: 1 }) }),
    });
    const r = new Map<string, PluginDescriptor>([
      [
        "checked",
        registryEntry({
          name: "checked",
          factory: () => {
            built = true;
            return new TestPlugin("checked");
          },
          args: spec,
        }),
      ],
    ]);
    await expect(
      newFrameworkWithQueueSortAndBind(r, plugins({ filter: enabled("checked") }), [
        { name: "checked", args: { weight: 101 } },
      ]),
    ).rejects.toThrow(
      'initializing plugin "checked": weight: Invalid value: 101: not in valid range [0, 100]',
    );
    expect(built).toBe(false);
  });

  it("rejects weights that could overflow", async () => {
    const p = plugins({
      score: {
        enabled: [
          { name: scorePlugin1, weight: Number.MAX_SAFE_INTEGER / 100 },
          { name: scorePlugin2, weight: Number.MAX_SAFE_INTEGER / 100 },
        ],
      },
    });
    await expect(newFrameworkWithQueueSortAndBind(registry(), p)).rejects.toThrow(
      "total score of Score plugins could overflow",
    );
  });
});

const allTestPlugin = (scoreWeight = 1) => ({
  queueSort: [{ name: testPlugin }],
  preFilter: [{ name: testPlugin }],
  filter: [{ name: testPlugin }],
  postFilter: [{ name: testPlugin }],
  preScore: [{ name: testPlugin }],
  score: [{ name: testPlugin, weight: scoreWeight }],
  reserve: [{ name: testPlugin }],
  permit: [{ name: testPlugin }],
  preBind: [{ name: testPlugin }],
  bind: [{ name: testPlugin }],
  postBind: [{ name: testPlugin }],
});

describe("TestNewFrameworkMultiPointExpansion", () => {
  const tests: {
    name: string;
    plugins: Plugins;
    wantPlugins?: Record<string, PluginEntry[]>;
    wantErr?: string;
  }[] = [
    {
      name: "plugin expansion",
      plugins: plugins({ multiPoint: { enabled: [{ name: testPlugin, weight: 5 }] } }),
      wantPlugins: allTestPlugin(5),
    },
    {
      name: "disable MultiPoint plugin at some extension points",
      plugins: plugins({
        multiPoint: enabled(testPlugin),
        preScore: { disabled: [{ name: testPlugin }] },
        score: { disabled: [{ name: testPlugin }] },
      }),
      wantPlugins: (() => {
        const { preScore: _a, score: _b, ...rest } = allTestPlugin();
        return rest;
      })(),
    },
    {
      name: "Multiple MultiPoint plugins",
      plugins: plugins({ multiPoint: enabled(testPlugin, scorePlugin1) }),
      wantPlugins: {
        ...allTestPlugin(),
        preScore: [{ name: testPlugin }, { name: scorePlugin1 }],
        score: [
          { name: testPlugin, weight: 1 },
          { name: scorePlugin1, weight: 1 },
        ],
      },
    },
    {
      name: "disable MultiPoint extension",
      plugins: plugins({
        multiPoint: enabled(testPlugin, scorePlugin1),
        preScore: { disabled: [{ name: "*" }] },
      }),
      wantPlugins: (() => {
        const { preScore: _a, ...rest } = allTestPlugin();
        return {
          ...rest,
          score: [
            { name: testPlugin, weight: 1 },
            { name: scorePlugin1, weight: 1 },
          ],
        };
      })(),
    },
    {
      name: "Reorder MultiPoint plugins (specified extension takes precedence)",
      plugins: plugins({
        multiPoint: enabled(scoreWithNormalizePlugin1, testPlugin, scorePlugin1),
        score: enabled(scorePlugin1, testPlugin),
      }),
      wantPlugins: {
        ...allTestPlugin(),
        preScore: [{ name: testPlugin }, { name: scorePlugin1 }],
        score: [
          { name: scorePlugin1, weight: 1 },
          { name: testPlugin, weight: 1 },
          { name: scoreWithNormalizePlugin1, weight: 1 },
        ],
      },
    },
    {
      name: "Reorder MultiPoint plugins (specified extension only takes precedence when it exists in MultiPoint)",
      plugins: plugins({
        multiPoint: enabled(testPlugin, scorePlugin1),
        score: enabled(scoreWithNormalizePlugin1, scorePlugin1, testPlugin),
      }),
      wantPlugins: {
        ...allTestPlugin(),
        preScore: [{ name: testPlugin }, { name: scorePlugin1 }],
        score: [
          { name: scorePlugin1, weight: 1 },
          { name: testPlugin, weight: 1 },
          { name: scoreWithNormalizePlugin1, weight: 1 },
        ],
      },
    },
    {
      name: "Override MultiPoint plugins weights",
      plugins: plugins({
        multiPoint: enabled(testPlugin, scorePlugin1),
        score: {
          enabled: [
            { name: scorePlugin1, weight: 5 },
            { name: testPlugin, weight: 3 },
          ],
        },
      }),
      wantPlugins: {
        ...allTestPlugin(),
        preScore: [{ name: testPlugin }, { name: scorePlugin1 }],
        score: [
          { name: scorePlugin1, weight: 5 },
          { name: testPlugin, weight: 3 },
        ],
      },
    },
    {
      name: "disable and enable MultiPoint plugins with '*'",
      plugins: plugins({
        multiPoint: {
          enabled: [{ name: queueSortPlugin }, { name: bindPlugin }, { name: scorePlugin1 }],
          disabled: [{ name: "*" }],
        },
      }),
      wantPlugins: {
        queueSort: [{ name: queueSortPlugin }],
        preScore: [{ name: scorePlugin1 }],
        score: [{ name: scorePlugin1, weight: 1 }],
        bind: [{ name: bindPlugin }],
      },
    },
    {
      name: "disable and enable MultiPoint plugin by name",
      plugins: plugins({
        multiPoint: {
          enabled: [{ name: bindPlugin }, { name: queueSortPlugin }, { name: scorePlugin1 }],
          disabled: [{ name: scorePlugin1 }],
        },
      }),
      wantPlugins: {
        queueSort: [{ name: queueSortPlugin }],
        preScore: [{ name: scorePlugin1 }],
        score: [{ name: scorePlugin1, weight: 1 }],
        bind: [{ name: bindPlugin }],
      },
    },
    {
      name: "Expect 'already registered' error",
      plugins: plugins({ multiPoint: enabled(testPlugin, testPlugin) }),
      wantErr: "already registered",
    },
    {
      name: "Override MultiPoint plugins weights and avoid a plugin being loaded multiple times",
      plugins: plugins({
        multiPoint: enabled(testPlugin, scorePlugin1),
        score: {
          enabled: [
            { name: scorePlugin1, weight: 5 },
            { name: scorePlugin2, weight: 5 },
            { name: testPlugin, weight: 3 },
          ],
        },
      }),
      wantPlugins: {
        ...allTestPlugin(),
        preScore: [{ name: testPlugin }, { name: scorePlugin1 }],
        score: [
          { name: scorePlugin1, weight: 5 },
          { name: testPlugin, weight: 3 },
          { name: scorePlugin2, weight: 5 },
        ],
      },
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      const p = newFramework(registry(), profileOf(tc.plugins), options());
      if (tc.wantErr) {
        await expect(p).rejects.toThrow(tc.wantErr);
        return;
      }
      const f = await p;
      expect(f.listPlugins()).toEqual(tc.wantPlugins);
    });
  }

  it("counts plugins instantiated once across points", async () => {
    let created = 0;
    const r = registry();
    r.set(
      testPlugin,
      d(testPlugin, () => {
        created++;
        return new TestPlugin(testPlugin);
      }),
    );
    await newFramework(
      r,
      profileOf(plugins({ multiPoint: enabled(testPlugin), filter: enabled(testPlugin) })),
      options(),
    );
    expect(created).toBe(1);
  });
});

describe("TestPreEnqueuePlugins", () => {
  const tests: { name: string; plugins: Plugin[]; want: string[] }[] = [
    { name: "no PreEnqueuePlugin registered", plugins: [], want: [] },
    {
      name: "one PreEnqueuePlugin registered",
      plugins: [new TestPreEnqueuePlugin()],
      want: ["preEnqueue-plugin"],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const p = plugins({ preEnqueue: enabled(...tt.plugins.map((pl) => pl.name())) });
      const f = await newFrameworkWithQueueSortAndBind(registryOf(tt.plugins), p);
      expect(f.preEnqueuePlugins().map((pl) => pl.name())).toEqual(tt.want);
    });
  }
});

describe("TestRunPreScorePlugins", () => {
  const tests: {
    name: string;
    plugins: TestPlugin[];
    wantSkippedPlugins?: string[];
    wantStatusCode: Code;
  }[] = [
    {
      name: "all PreScorePlugins returned success",
      plugins: [new TestPlugin("success1"), new TestPlugin("success2")],
      wantStatusCode: Code.Success,
    },
    {
      name: "one PreScore plugin returned success, but another PreScore plugin returned non-success",
      plugins: [new TestPlugin("success"), new TestPlugin("error", { preScoreStatus: Code.Error })],
      wantStatusCode: Code.Error,
    },
    {
      name: "one PreScore plugin returned skip, but another PreScore plugin returned non-success",
      plugins: [
        new TestPlugin("skip", { preScoreStatus: Code.Skip }),
        new TestPlugin("error", { preScoreStatus: Code.Error }),
      ],
      wantSkippedPlugins: ["skip"],
      wantStatusCode: Code.Error,
    },
    {
      name: "all PreScore plugins returned skip",
      plugins: [
        new TestPlugin("skip1", { preScoreStatus: Code.Skip }),
        new TestPlugin("skip2", { preScoreStatus: Code.Skip }),
        new TestPlugin("skip3", { preScoreStatus: Code.Skip }),
      ],
      wantSkippedPlugins: ["skip1", "skip2", "skip3"],
      wantStatusCode: Code.Success,
    },
    {
      name: "some PreScore plugins returned skip",
      plugins: [
        new TestPlugin("skip1", { preScoreStatus: Code.Skip }),
        new TestPlugin("success1"),
        new TestPlugin("skip2", { preScoreStatus: Code.Skip }),
        new TestPlugin("success2"),
      ],
      wantSkippedPlugins: ["skip1", "skip2"],
      wantStatusCode: Code.Success,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ preScore: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const state = new CycleState();
      const status = f.runPreScorePlugins(state, pod, []);
      expect(codeName(status?.code ?? Code.Success)).toBe(codeName(tt.wantStatusCode));
      expect([...state.skipScorePlugins]).toEqual(tt.wantSkippedPlugins ?? []);
    });
  }

  it("wraps errors with the plugin name", async () => {
    const pl = new TestPlugin("error", { preScoreStatus: Code.Error });
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf([pl]),
      plugins({ preScore: enabled("error") }),
    );
    expectStatus(
      f.runPreScorePlugins(new CycleState(), pod, []),
      errStatus(`running PreScore plugin "error": ${injectReason}`),
    );
  });
});

describe("TestRunScorePlugins", () => {
  const both = (scores: { name: string; score: number }[]) =>
    ["node1", "node2"].map((name) => ({ name, scores, totalScore: scores.reduce((a, s) => a + s.score, 0) }));
  const tests: {
    name: string;
    plugins: Plugins;
    pluginConfigs?: ProfileConfig["pluginConfig"];
    want?: ReturnType<typeof both>;
    skippedPlugins?: string[];
    err?: boolean;
  }[] = [
    { name: "no Score plugins", plugins: buildScoreConfigDefaultWeights(), want: both([]) },
    {
      name: "single Score plugin",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1),
      pluginConfigs: [{ name: scorePlugin1, args: { scoreRes: 1 } }],
      want: both([{ name: scorePlugin1, score: 1 }]),
    },
    {
      name: "single ScoreWithNormalize plugin",
      plugins: buildScoreConfigDefaultWeights(scoreWithNormalizePlugin1),
      pluginConfigs: [{ name: scoreWithNormalizePlugin1, args: { scoreRes: 10, normalizeRes: 5 } }],
      want: both([{ name: scoreWithNormalizePlugin1, score: 5 }]),
    },
    {
      name: "3 Score plugins, 2 NormalizeScore plugins",
      plugins: buildScoreConfigDefaultWeights(
        scorePlugin1,
        scoreWithNormalizePlugin1,
        scoreWithNormalizePlugin2,
      ),
      pluginConfigs: [
        { name: scorePlugin1, args: { scoreRes: 1 } },
        { name: scoreWithNormalizePlugin1, args: { scoreRes: 3, normalizeRes: 4 } },
        { name: scoreWithNormalizePlugin2, args: { scoreRes: 4, normalizeRes: 5 } },
      ],
      want: both([
        { name: scorePlugin1, score: 1 },
        { name: scoreWithNormalizePlugin1, score: 4 },
        { name: scoreWithNormalizePlugin2, score: 10 },
      ]),
    },
    {
      name: "score fails",
      pluginConfigs: [{ name: scoreWithNormalizePlugin1, args: { scoreStatus: Code.Error } }],
      plugins: buildScoreConfigDefaultWeights(scorePlugin1, scoreWithNormalizePlugin1),
      err: true,
    },
    {
      name: "normalize fails",
      pluginConfigs: [{ name: scoreWithNormalizePlugin1, args: { normalizeStatus: Code.Error } }],
      plugins: buildScoreConfigDefaultWeights(scorePlugin1, scoreWithNormalizePlugin1),
      err: true,
    },
    {
      name: "Score plugin return score greater than MaxNodeScore",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1),
      pluginConfigs: [{ name: scorePlugin1, args: { scoreRes: MaxNodeScore + 1 } }],
      err: true,
    },
    {
      name: "Score plugin return score less than MinNodeScore",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1),
      pluginConfigs: [{ name: scorePlugin1, args: { scoreRes: MinNodeScore - 1 } }],
      err: true,
    },
    {
      name: "ScoreWithNormalize plugin return score greater than MaxNodeScore",
      plugins: buildScoreConfigDefaultWeights(scoreWithNormalizePlugin1),
      pluginConfigs: [{ name: scoreWithNormalizePlugin1, args: { normalizeRes: MaxNodeScore + 1 } }],
      err: true,
    },
    {
      name: "ScoreWithNormalize plugin return score less than MinNodeScore",
      plugins: buildScoreConfigDefaultWeights(scoreWithNormalizePlugin1),
      pluginConfigs: [{ name: scoreWithNormalizePlugin1, args: { normalizeRes: MinNodeScore - 1 } }],
      err: true,
    },
    {
      name: "single Score plugin with MultiPointExpansion",
      plugins: plugins({
        multiPoint: enabled(scorePlugin1),
        score: { enabled: [{ name: scorePlugin1, weight: 3 }] },
      }),
      pluginConfigs: [{ name: scorePlugin1, args: { scoreRes: 1 } }],
      want: both([{ name: scorePlugin1, score: 3 }]),
    },
    {
      name: "one success plugin, one skip plugin",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1, scoreWithNormalizePlugin1),
      pluginConfigs: [
        { name: scorePlugin1, args: { scoreRes: 1 } },
        { name: scoreWithNormalizePlugin1, args: { scoreStatus: Code.Error } },
      ],
      skippedPlugins: [scoreWithNormalizePlugin1],
      want: both([{ name: scorePlugin1, score: 1 }]),
    },
    {
      name: "all plugins are skipped in prescore",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1),
      pluginConfigs: [{ name: scorePlugin1, args: { scoreStatus: Code.Error } }],
      skippedPlugins: [scorePlugin1],
      want: both([]),
    },
    {
      name: "skipped prescore plugin number greater than the number of score plugins",
      plugins: buildScoreConfigDefaultWeights(scorePlugin1),
      skippedPlugins: [scorePlugin1, "score-plugin-unknown"],
      want: both([]),
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(registry(), tt.plugins, tt.pluginConfigs ?? []);
      const state = new CycleState();
      state.skipScorePlugins = new Set(tt.skippedPlugins ?? []);
      const res = f.runScorePlugins(state, pod, buildNodeInfos(nodes));
      if (tt.err) {
        expect(res.status?.isSuccess() ?? true).toBe(false);
        return;
      }
      expect(res.status).toBeNull();
      expect(res.scores).toEqual(tt.want);
    });
  }

  it("each cycle gives NormalizeScore a list of its own (a plugin may keep it)", async () => {
    const kept: NodeScore[][] = [];
    let next = 10;
    const keeper: ScorePlugin = {
      name: () => "Keeper",
      score: () => next,
      scoreExtensions: () => ({
        normalizeScore: (_s, _p, scores) => {
          kept.push(scores);
          return null;
        },
      }),
    };
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf([keeper]),
      buildScoreConfigDefaultWeights("Keeper"),
    );
    f.runScorePlugins(new CycleState(), pod, buildNodeInfos(nodes));
    next = 20;
    f.runScorePlugins(new CycleState(), pod, buildNodeInfos(nodes));
    expect(kept.map((l) => l.map((s) => s.score))).toEqual([
      [10, 10],
      [20, 20],
    ]);
  });

  it("reports upstream's messages", async () => {
    const f = await newFrameworkWithQueueSortAndBind(
      registry(),
      buildScoreConfigDefaultWeights(scorePlugin1),
      [{ name: scorePlugin1, args: { scoreRes: 101 } }],
    );
    expectStatus(
      f.runScorePlugins(new CycleState(), pod, buildNodeInfos(nodes)).status,
      errStatus(
        `applying score defaultWeights on Score plugins: plugin "${scorePlugin1}" returns an invalid score 101, it should in the range of [0, 100] after normalizing`,
      ),
    );
    const g = await newFrameworkWithQueueSortAndBind(
      registry(),
      buildScoreConfigDefaultWeights(scorePlugin1),
      [{ name: scorePlugin1, args: { scoreStatus: Code.Error } }],
    );
    expectStatus(
      g.runScorePlugins(new CycleState(), pod, buildNodeInfos(nodes)).status,
      errStatus(`running Score plugins: plugin "${scorePlugin1}" failed with: injecting failure.`),
    );
  });
});

describe("TestPreFilterPlugins", () => {
  it("TestPreFilterPlugin", async () => {
    const preFilter1 = new TestPreFilterPlugin();
    const preFilter2 = new TestPreFilterWithExtensionsPlugin();
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf([preFilter1, preFilter2]),
      plugins({ preFilter: enabled(preFilterWithExtensionsPluginName, preFilterPluginName) }),
    );
    const state = new CycleState();
    const ni = new NodeInfo();
    f.runPreFilterPlugins(state, pod);
    f.runPreFilterExtensionAddPod(state, pod, new PodInfo(pod), ni);
    f.runPreFilterExtensionRemovePod(state, pod, new PodInfo(pod), ni);
    expect(preFilter1.preFilterCalled).toBe(1);
    expect(preFilter2.preFilterCalled).toBe(1);
    expect(preFilter2.addCalled).toBe(1);
    expect(preFilter2.removeCalled).toBe(1);
  });
});

describe("TestRunPreFilterPlugins", () => {
  const tests: {
    name: string;
    plugins: TestPlugin[];
    wantPreFilterResult?: PreFilterResult | null;
    wantSkippedPlugins?: string[];
    wantStatusCode: Code;
    wantMessage?: string;
    wantUnschedulablePlugins?: string[];
  }[] = [
    {
      name: "all PreFilter returned success",
      plugins: [new TestPlugin("success1"), new TestPlugin("success2")],
      wantStatusCode: Code.Success,
    },
    {
      name: "one PreFilter plugin returned success, but another PreFilter plugin returned non-success",
      plugins: [new TestPlugin("success"), new TestPlugin("error", { preFilterStatus: Code.Error })],
      wantStatusCode: Code.Error,
      wantMessage: `running PreFilter plugin "error": ${injectReason}`,
    },
    {
      name: "one PreFilter plugin returned skip, but another PreFilter plugin returned non-success",
      plugins: [
        new TestPlugin("skip", { preFilterStatus: Code.Skip }),
        new TestPlugin("error", { preFilterStatus: Code.Error }),
      ],
      wantSkippedPlugins: ["skip"],
      wantStatusCode: Code.Error,
    },
    {
      name: "all PreFilter plugins returned skip",
      plugins: [
        new TestPlugin("skip1", { preFilterStatus: Code.Skip }),
        new TestPlugin("skip2", { preFilterStatus: Code.Skip }),
        new TestPlugin("skip3", { preFilterStatus: Code.Skip }),
      ],
      wantSkippedPlugins: ["skip1", "skip2", "skip3"],
      wantStatusCode: Code.Success,
    },
    {
      name: "some PreFilter plugins returned skip",
      plugins: [
        new TestPlugin("skip1", { preFilterStatus: Code.Skip }),
        new TestPlugin("success1"),
        new TestPlugin("skip2", { preFilterStatus: Code.Skip }),
        new TestPlugin("success2"),
      ],
      wantSkippedPlugins: ["skip1", "skip2"],
      wantStatusCode: Code.Success,
    },
    {
      name: "one PreFilter plugin returned Unschedulable, but another PreFilter plugin should be executed",
      plugins: [
        new TestPlugin("unschedulable", { preFilterStatus: Code.Unschedulable }),
        new TestPlugin("skip", { preFilterStatus: Code.Skip }),
      ],
      wantSkippedPlugins: ["skip"],
      wantStatusCode: Code.Unschedulable,
    },
    {
      name: "one PreFilter plugin returned UnschedulableAndUnresolvable, and all other plugins aren't executed",
      plugins: [
        new TestPlugin("unresolvable", { preFilterStatus: Code.UnschedulableAndUnresolvable }),
        new TestPlugin("skip", { preFilterStatus: Code.Skip }),
      ],
      wantStatusCode: Code.UnschedulableAndUnresolvable,
    },
    {
      name: "all nodes are filtered out by prefilter result, but other plugins aren't executed because we consider all nodes are filtered out by UnschedulableAndUnresolvable",
      plugins: [
        new TestPlugin("reject-all-nodes", { preFilterResult: { nodeNames: new Set() } }),
        new TestPlugin("skip", { preFilterStatus: Code.Skip }),
      ],
      wantPreFilterResult: { nodeNames: new Set() },
      wantSkippedPlugins: [],
      wantStatusCode: Code.UnschedulableAndUnresolvable,
      wantMessage: "node(s) didn't satisfy plugin reject-all-nodes",
      wantUnschedulablePlugins: ["reject-all-nodes"],
    },
    // Not upstream cases: result merging.
    {
      name: "results of several plugins are intersected",
      plugins: [
        new TestPlugin("a", { preFilterResult: { nodeNames: new Set(["n1", "n2"]) } }),
        new TestPlugin("all", { preFilterResult: { nodeNames: null } }),
        new TestPlugin("b", { preFilterResult: { nodeNames: new Set(["n2", "n3"]) } }),
      ],
      wantPreFilterResult: { nodeNames: new Set(["n2"]) },
      wantStatusCode: Code.Success,
      wantUnschedulablePlugins: ["a", "b"],
    },
    {
      name: "disjoint results reject every node naming the plugins sorted",
      plugins: [
        new TestPlugin("b", { preFilterResult: { nodeNames: new Set(["n1"]) } }),
        new TestPlugin("a", { preFilterResult: { nodeNames: new Set(["n2"]) } }),
      ],
      wantPreFilterResult: { nodeNames: new Set() },
      wantStatusCode: Code.UnschedulableAndUnresolvable,
      wantMessage: "node(s) didn't satisfy plugin(s) [a b] simultaneously",
      wantUnschedulablePlugins: ["b", "a"],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ preFilter: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const state = new CycleState();
      const { result, status, unschedulablePlugins } = f.runPreFilterPlugins(state, pod);
      expect(result).toEqual(tt.wantPreFilterResult ?? null);
      expect(codeName(status?.code ?? Code.Success)).toBe(codeName(tt.wantStatusCode));
      if (tt.wantMessage) expect(status?.message()).toBe(tt.wantMessage);
      expect([...state.skipFilterPlugins]).toEqual(tt.wantSkippedPlugins ?? []);
      if (tt.wantUnschedulablePlugins) expect([...unschedulablePlugins]).toEqual(tt.wantUnschedulablePlugins);
    });
  }
});

describe("TestRunPreFilterExtensionRemovePod", () => {
  const tests: {
    name: string;
    plugins: TestPlugin[];
    skippedPluginNames?: string[];
    wantStatusCode: Code;
  }[] = [
    {
      name: "no plugins are skipped and all RemovePod() returned success",
      plugins: [new TestPlugin("success1"), new TestPlugin("success2")],
      wantStatusCode: Code.Success,
    },
    {
      name: "one RemovePod() returned error",
      plugins: [
        new TestPlugin("success1"),
        new TestPlugin("error1", { preFilterRemovePodStatus: Code.Error }),
      ],
      wantStatusCode: Code.Error,
    },
    {
      name: "one RemovePod() is skipped",
      plugins: [
        new TestPlugin("success1"),
        new TestPlugin("skipped", { preFilterRemovePodStatus: Code.Error }),
      ],
      skippedPluginNames: ["skipped"],
      wantStatusCode: Code.Success,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ preFilter: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const state = new CycleState();
      state.skipFilterPlugins = new Set(tt.skippedPluginNames ?? []);
      const s = f.runPreFilterExtensionRemovePod(state, pod, new PodInfo(pod), new NodeInfo());
      expect(codeName(s?.code ?? Code.Success)).toBe(codeName(tt.wantStatusCode));
      if (s) expect(s.message()).toBe(`running RemovePod on PreFilter plugin "error1": ${injectReason}`);
    });
  }
});

describe("TestRunPreFilterExtensionAddPod", () => {
  const tests: {
    name: string;
    plugins: TestPlugin[];
    skippedPluginNames?: string[];
    wantStatusCode: Code;
  }[] = [
    {
      name: "no plugins are skipped and all AddPod() returned success",
      plugins: [new TestPlugin("success1"), new TestPlugin("success2")],
      wantStatusCode: Code.Success,
    },
    {
      name: "one AddPod() returned error",
      plugins: [new TestPlugin("success1"), new TestPlugin("error1", { preFilterAddPodStatus: Code.Error })],
      wantStatusCode: Code.Error,
    },
    {
      name: "one AddPod() is skipped",
      plugins: [new TestPlugin("success1"), new TestPlugin("skipped", { preFilterAddPodStatus: Code.Error })],
      skippedPluginNames: ["skipped"],
      wantStatusCode: Code.Success,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ preFilter: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const state = new CycleState();
      state.skipFilterPlugins = new Set(tt.skippedPluginNames ?? []);
      const s = f.runPreFilterExtensionAddPod(state, pod, new PodInfo(pod), new NodeInfo());
      expect(codeName(s?.code ?? Code.Success)).toBe(codeName(tt.wantStatusCode));
    });
  }
});

describe("PreFilter extensions in a preemption dry run", () => {
  // A dry run calls AddPod/RemovePod for every pod of every candidate node on clones of the
  // cycle's state; the extensions of the plugins not skipped are asked for once per cycle.
  class CountingPlugin extends TestPlugin {
    asked = 0;
    added = 0;
    override preFilterExtensions() {
      this.asked++;
      return super.preFilterExtensions();
    }
    override addPod() {
      this.added++;
      return super.addPod();
    }
  }

  it("asks each plugin for its extensions once per cycle, clones included, and still skips skipped plugins", async () => {
    const a = new CountingPlugin("counting-a");
    const b = new CountingPlugin("counting-b", { preFilterStatus: Code.Skip });
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf([a, b]),
      plugins({ preFilter: enabled(a.n, b.n) }),
    );
    for (let cycle = 1; cycle <= 2; cycle++) {
      const state = new CycleState();
      f.runPreFilterPlugins(state, pod);
      expect([...state.skipFilterPlugins]).toEqual([b.n]);
      for (let node = 0; node < 5; node++) {
        const copy = state.clone();
        expect(f.runPreFilterExtensionAddPod(copy, pod, new PodInfo(pod), new NodeInfo())).toBeNull();
        expect(f.runPreFilterExtensionRemovePod(copy, pod, new PodInfo(pod), new NodeInfo())).toBeNull();
      }
      expect(a.added).toBe(5 * cycle);
      expect(b.added).toBe(0);
      expect(a.asked).toBe(cycle);
      expect(b.asked).toBe(cycle);
    }
  });
});

describe("TestFilterPlugins", () => {
  const tests: {
    name: string;
    plugins: TestPlugin[];
    skippedPlugins?: string[];
    wantStatus: Status | null;
  }[] = [
    {
      name: "SuccessFilter",
      plugins: [new TestPlugin("TestPlugin", { filterStatus: Code.Success })],
      wantStatus: null,
    },
    {
      name: "ErrorFilter",
      plugins: [new TestPlugin("TestPlugin", { filterStatus: Code.Error })],
      wantStatus: errStatus(`running "TestPlugin" filter plugin: ${injectFilterReason}`).withPlugin(
        "TestPlugin",
      ),
    },
    {
      name: "UnschedulableFilter",
      plugins: [new TestPlugin("TestPlugin", { filterStatus: Code.Unschedulable })],
      wantStatus: new Status(Code.Unschedulable, injectFilterReason).withPlugin("TestPlugin"),
    },
    {
      name: "UnschedulableAndUnresolvableFilter",
      plugins: [new TestPlugin("TestPlugin", { filterStatus: Code.UnschedulableAndUnresolvable })],
      wantStatus: new Status(Code.UnschedulableAndUnresolvable, injectFilterReason).withPlugin("TestPlugin"),
    },
    {
      name: "ErrorAndErrorFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Error }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Error }),
      ],
      wantStatus: errStatus(`running "TestPlugin1" filter plugin: ${injectFilterReason}`).withPlugin(
        "TestPlugin1",
      ),
    },
    {
      name: "UnschedulableAndUnschedulableFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Unschedulable }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Unschedulable }),
      ],
      wantStatus: new Status(Code.Unschedulable, injectFilterReason).withPlugin("TestPlugin1"),
    },
    {
      name: "UnschedulableAndUnschedulableAndUnresolvableFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.UnschedulableAndUnresolvable }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Unschedulable }),
      ],
      wantStatus: new Status(Code.UnschedulableAndUnresolvable, injectFilterReason).withPlugin("TestPlugin1"),
    },
    {
      name: "SuccessAndSuccessFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Success }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Success }),
      ],
      wantStatus: null,
    },
    {
      name: "SuccessAndSkipFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Success }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Error }),
      ],
      wantStatus: null,
      skippedPlugins: ["TestPlugin2"],
    },
    {
      name: "ErrorAndSuccessFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Error }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Success }),
      ],
      wantStatus: errStatus(`running "TestPlugin1" filter plugin: ${injectFilterReason}`).withPlugin(
        "TestPlugin1",
      ),
    },
    {
      name: "SuccessAndErrorFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Success }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Error }),
      ],
      wantStatus: errStatus(`running "TestPlugin2" filter plugin: ${injectFilterReason}`).withPlugin(
        "TestPlugin2",
      ),
    },
    {
      name: "SuccessAndUnschedulableFilters",
      plugins: [
        new TestPlugin("TestPlugin1", { filterStatus: Code.Success }),
        new TestPlugin("TestPlugin2", { filterStatus: Code.Unschedulable }),
      ],
      wantStatus: new Status(Code.Unschedulable, injectFilterReason).withPlugin("TestPlugin2"),
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ filter: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const state = new CycleState();
      state.skipFilterPlugins = new Set(tt.skippedPlugins ?? []);
      const got = f.runFilterPlugins(state, pod, new NodeInfo());
      expectStatus(got, tt.wantStatus);
      if (got && tt.wantStatus) expect(got.plugin).toBe(tt.wantStatus.plugin);
    });
  }

  it("traces every plugin run on the node up to the first failure", async () => {
    const pls = [
      new TestPlugin("TestPlugin1"),
      new TestPlugin("TestPlugin2", { filterStatus: Code.Unschedulable }),
      new TestPlugin("TestPlugin3"),
    ];
    const seen: string[] = [];
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf(pls),
      plugins({ filter: enabled("TestPlugin1", "TestPlugin2", "TestPlugin3") }),
      [],
      { observer: { onFilter: (p, n, s) => seen.push(`${p}@${n}:${codeName(s?.code ?? Code.Success)}`) } },
    );
    const ni = buildNodeInfos(nodes)[0] as NodeInfo;
    f.runFilterPlugins(new CycleState(), pod, ni);
    expect(seen).toEqual(["TestPlugin1@node1:Success", "TestPlugin2@node1:Unschedulable"]);
  });
});

describe("TestPostFilterPlugins", () => {
  const tests: { name: string; plugins: TestPlugin[]; wantStatus: Status | null }[] = [
    {
      name: "a single plugin makes a Pod schedulable",
      plugins: [new TestPlugin("TestPlugin", { postFilterStatus: Code.Success })],
      wantStatus: new Status(Code.Success, injectReason),
    },
    {
      name: "plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod schedulable",
      plugins: [
        new TestPlugin("TestPlugin1", { postFilterStatus: Code.Unschedulable }),
        new TestPlugin("TestPlugin2", { postFilterStatus: Code.Success }),
      ],
      wantStatus: new Status(Code.Success, injectReason),
    },
    {
      name: "plugin1 makes a Pod schedulable, followed by plugin2 which cannot make the Pod schedulable",
      plugins: [
        new TestPlugin("TestPlugin1", { postFilterStatus: Code.Success }),
        new TestPlugin("TestPlugin2", { postFilterStatus: Code.Unschedulable }),
      ],
      wantStatus: new Status(Code.Success, injectReason),
    },
    {
      name: "plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod schedulable",
      plugins: [
        new TestPlugin("TestPlugin1", { postFilterStatus: Code.Error }),
        new TestPlugin("TestPlugin2", { postFilterStatus: Code.Success }),
      ],
      wantStatus: errStatus(injectReason).withPlugin("TestPlugin1"),
    },
    {
      name: "plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod unresolvable",
      plugins: [
        new TestPlugin("TestPlugin1", { postFilterStatus: Code.Unschedulable }),
        new TestPlugin("TestPlugin2", { postFilterStatus: Code.UnschedulableAndUnresolvable }),
      ],
      wantStatus: new Status(Code.UnschedulableAndUnresolvable, injectReason).withPlugin("TestPlugin2"),
    },
    {
      name: "both plugins failed to make a Pod schedulable",
      plugins: [
        new TestPlugin("TestPlugin1", { postFilterStatus: Code.Unschedulable }),
        new TestPlugin("TestPlugin2", { postFilterStatus: Code.Unschedulable }),
      ],
      wantStatus: new Status(Code.Unschedulable, injectReason, injectReason).withPlugin("TestPlugin1"),
    },
  ];
  for (const [i, tt] of tests.entries()) {
    it(`${tt.name}${i === 3 ? " (error)" : ""}`, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ postFilter: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const { status } = await f.runPostFilterPlugins(new CycleState(), pod, new NodeToStatus());
      expectStatus(status, tt.wantStatus);
    });
  }
});

/** A nominator holding nominated PodInfos per node (the queue's in the engine). */
class FakeNominator implements PodNominator {
  readonly byNode = new Map<string, PodInfo[]>();
  addNominatedPod(pi: PodInfo, ni: { nominatedNodeName: string } | null): void {
    const n = ni?.nominatedNodeName ?? "";
    this.byNode.set(n, [...(this.byNode.get(n) ?? []), pi]);
  }
  deleteNominatedPodIfExists(): void {}
  updateNominatedPod(): void {}
  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? [];
  }
}

describe("TestFilterPluginsWithNominatedPods", () => {
  const lowPriorityPod: Pod = { metadata: { uid: "low" }, spec: { containers: [], priority: 0 } };
  const highPriorityPod: Pod = { metadata: { uid: "high" }, spec: { containers: [], priority: 1000 } };
  const node: Node = { metadata: { name: nodeName } };
  const tests: {
    name: string;
    preFilterPlugin: TestPlugin | null;
    filterPlugin: TestPlugin | null;
    pod: Pod;
    nominatedPod: Pod | null;
    wantStatus: Status | null;
  }[] = [
    {
      name: "node has no nominated pod",
      preFilterPlugin: null,
      filterPlugin: null,
      pod: lowPriorityPod,
      nominatedPod: null,
      wantStatus: null,
    },
    {
      name: "node has a high-priority nominated pod and all filters succeed",
      preFilterPlugin: new TestPlugin("TestPlugin1", { preFilterAddPodStatus: Code.Success }),
      filterPlugin: new TestPlugin("TestPlugin2", { filterStatus: Code.Success }),
      pod: lowPriorityPod,
      nominatedPod: highPriorityPod,
      wantStatus: null,
    },
    {
      name: "node has a high-priority nominated pod and pre filters fail",
      preFilterPlugin: new TestPlugin("TestPlugin1", { preFilterAddPodStatus: Code.Error }),
      filterPlugin: null,
      pod: lowPriorityPod,
      nominatedPod: highPriorityPod,
      wantStatus: errStatus(`running AddPod on PreFilter plugin "TestPlugin1": ${injectReason}`),
    },
    {
      name: "node has a high-priority nominated pod and filters fail",
      preFilterPlugin: new TestPlugin("TestPlugin1", { preFilterAddPodStatus: Code.Success }),
      filterPlugin: new TestPlugin("TestPlugin2", { filterStatus: Code.Error }),
      pod: lowPriorityPod,
      nominatedPod: highPriorityPod,
      wantStatus: errStatus(`running "TestPlugin2" filter plugin: ${injectFilterReason}`).withPlugin(
        "TestPlugin2",
      ),
    },
    {
      name: "node has a low-priority nominated pod and pre filters return unschedulable",
      preFilterPlugin: new TestPlugin("TestPlugin1", { preFilterAddPodStatus: Code.Unschedulable }),
      filterPlugin: new TestPlugin("TestPlugin2", { filterStatus: Code.Success }),
      pod: highPriorityPod,
      nominatedPod: lowPriorityPod,
      wantStatus: null,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const pls: Plugin[] = [];
      const p = plugins();
      if (tt.preFilterPlugin) {
        pls.push(tt.preFilterPlugin);
        p.preFilter.enabled.push({ name: tt.preFilterPlugin.n });
      }
      if (tt.filterPlugin) {
        pls.push(tt.filterPlugin);
        p.filter.enabled.push({ name: tt.filterPlugin.n });
      }
      const nominator = new FakeNominator();
      if (tt.nominatedPod) {
        nominator.addNominatedPod(new PodInfo(tt.nominatedPod), { nominatedNodeName: nodeName });
      }
      const f = await newFrameworkWithQueueSortAndBind(registryOf(pls), p, [], { nominator });
      const ni = new NodeInfo(pod);
      ni.setNode(node);
      expectStatus(f.runFilterPluginsWithNominatedPods(new CycleState(), tt.pod, ni), tt.wantStatus);
    });
  }
});

describe("TestPreBindPlugins", () => {
  const tests: { name: string; plugins: TestPlugin[]; wantStatus: Status | null }[] = [
    { name: "NoPreBindPlugin", plugins: [], wantStatus: null },
    {
      name: "SuccessPreBindPlugins",
      plugins: [new TestPlugin("TestPlugin", { preBindStatus: Code.Success })],
      wantStatus: null,
    },
    {
      name: "UnschedulablePreBindPlugin",
      plugins: [new TestPlugin("TestPlugin", { preBindStatus: Code.Unschedulable })],
      wantStatus: new Status(Code.Unschedulable, injectReason).withPlugin("TestPlugin"),
    },
    {
      name: "ErrorPreBindPlugin",
      plugins: [new TestPlugin("TestPlugin", { preBindStatus: Code.Error })],
      wantStatus: errStatus(`running PreBind plugin "TestPlugin": ${injectReason}`),
    },
    {
      name: "UnschedulablePreBindPlugin",
      plugins: [new TestPlugin("TestPlugin", { preBindStatus: Code.UnschedulableAndUnresolvable })],
      wantStatus: new Status(Code.UnschedulableAndUnresolvable, injectReason).withPlugin("TestPlugin"),
    },
    {
      name: "SuccessErrorPreBindPlugins",
      plugins: [
        new TestPlugin("TestPlugin", { preBindStatus: Code.Success }),
        new TestPlugin("TestPlugin 1", { preBindStatus: Code.Error }),
      ],
      wantStatus: errStatus(`running PreBind plugin "TestPlugin 1": ${injectReason}`),
    },
    {
      name: "ErrorSuccessPreBindPlugin",
      plugins: [
        new TestPlugin("TestPlugin", { preBindStatus: Code.Error }),
        new TestPlugin("TestPlugin 1", { preBindStatus: Code.Success }),
      ],
      wantStatus: errStatus(`running PreBind plugin "TestPlugin": ${injectReason}`),
    },
    {
      name: "SuccessSuccessPreBindPlugin",
      plugins: [
        new TestPlugin("TestPlugin", { preBindStatus: Code.Success }),
        new TestPlugin("TestPlugin 1", { preBindStatus: Code.Success }),
      ],
      wantStatus: null,
    },
    {
      name: "ErrorAndErrorPlugins",
      plugins: [
        new TestPlugin("TestPlugin", { preBindStatus: Code.Error }),
        new TestPlugin("TestPlugin 1", { preBindStatus: Code.Error }),
      ],
      wantStatus: errStatus(`running PreBind plugin "TestPlugin": ${injectReason}`),
    },
    {
      name: "UnschedulableAndSuccessPreBindPlugin",
      plugins: [
        new TestPlugin("TestPlugin", { preBindStatus: Code.Unschedulable }),
        new TestPlugin("TestPlugin 1", { preBindStatus: Code.Success }),
      ],
      wantStatus: new Status(Code.Unschedulable, injectReason).withPlugin("TestPlugin"),
    },
  ];
  for (const [i, tt] of tests.entries()) {
    it(`${tt.name}${i === 4 ? " (UnschedulableAndUnresolvable)" : ""}`, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ preBind: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      expectStatus(await f.runPreBindPlugins(new CycleState(), pod, ""), tt.wantStatus);
    });
  }
});

describe("TestRunPreBindPreFlights", () => {
  class PreFlight extends TestPlugin {
    constructor(
      n: string,
      private readonly code: Code,
    ) {
      super(n);
    }
    override preBindPreFlight() {
      return this.code === Code.Success ? null : new Status(this.code, injectReason);
    }
  }
  const tests: {
    name: string;
    plugins: PreFlight[];
    want: Code;
    wantSkipped?: string[];
    wantMessage?: string;
  }[] = [
    { name: "no PreBind plugins: Skip", plugins: [], want: Code.Skip },
    {
      name: "one plugin succeeds: Success",
      plugins: [new PreFlight("skip", Code.Skip), new PreFlight("ok", Code.Success)],
      want: Code.Success,
      wantSkipped: ["skip"],
    },
    {
      name: "all skip: Skip",
      plugins: [new PreFlight("s1", Code.Skip), new PreFlight("s2", Code.Skip)],
      want: Code.Skip,
      wantSkipped: ["s1", "s2"],
    },
    {
      name: "an error: Error",
      plugins: [new PreFlight("e", Code.Error)],
      want: Code.Error,
      wantMessage: `running PreBindPreFlight "e": ${injectReason}`,
    },
    {
      name: "an unsupported code: Error",
      plugins: [new PreFlight("u", Code.Unschedulable)],
      want: Code.Error,
      wantMessage:
        'PreBindPreFlight u returned "Unschedulable", which is unsupported. It is supposed to return Success, Skip, or Error status',
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ preBind: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      const state = new CycleState();
      const s = f.runPreBindPreFlights(state, pod, "n");
      expect(codeName(s?.code ?? Code.Success)).toBe(codeName(tt.want));
      if (tt.wantMessage) expect(s?.message()).toBe(tt.wantMessage);
      if (tt.wantSkipped) expect([...state.skipPreBindPlugins]).toEqual(tt.wantSkipped);
    });
  }
});

// Not an upstream table: the PodInPreBind map of kubernetes/kubernetes#135502 (upstream tests it
// through the preemption executor's TestPreemptPod and the integration test
// TestPreemptionRespectsBindingPod).
describe("PodInPreBind", () => {
  const p: Pod = { metadata: { name: "pod", uid: "pod" } };
  class BlockingPreBind extends TestPlugin {
    release: (s: Status | null) => void = () => {};
    entered = false;
    override preBind(): Promise<Status | null> {
      this.entered = true;
      return new Promise((resolve) => {
        this.release = resolve;
      });
    }
  }

  it("a pod is in PreBind while a PreBind plugin runs; cancelling it fails PreBind with the message", async () => {
    const pl = new BlockingPreBind("blocking");
    const f = await newFrameworkWithQueueSortAndBind(registryOf([pl]), plugins({ preBind: enabled(pl.n) }));
    expect(f.getPodInPreBind("pod")).toBeUndefined();
    const running = f.runPreBindPlugins(new CycleState(), p, "n");
    expect(pl.entered).toBe(true);
    const inPreBind = f.getPodInPreBind("pod");
    expect(inPreBind?.getPod()).toBe(p);
    expect(inPreBind?.cancelPod("preempted by DefaultPreemption")).toBe(true);
    expectStatus(
      await running,
      errStatus('running PreBind plugin "blocking": preempted by DefaultPreemption'),
    );
    expect(f.getPodInPreBind("pod")).toBeUndefined();
    // Too late: the pod left PreBind.
    expect(inPreBind?.cancelPod("again")).toBe(false);
    pl.release(null);
  });

  it("a pod leaves PreBind when its plugins finish", async () => {
    const pl = new BlockingPreBind("blocking");
    const f = await newFrameworkWithQueueSortAndBind(registryOf([pl]), plugins({ preBind: enabled(pl.n) }));
    const running = f.runPreBindPlugins(new CycleState(), p, "n");
    const inPreBind = f.getPodInPreBind("pod");
    pl.release(null);
    expect(await running).toBeNull();
    expect(f.getPodInPreBind("pod")).toBeUndefined();
    expect(inPreBind?.cancelPod("late")).toBe(false);
  });

  it("a pod whose PreBind plugins were all skipped at PreBindPreFlight is never in PreBind", async () => {
    const pl = new BlockingPreBind("blocking");
    const f = await newFrameworkWithQueueSortAndBind(registryOf([pl]), plugins({ preBind: enabled(pl.n) }));
    const state = new CycleState();
    state.skipPreBindPlugins = new Set([pl.n]);
    expect(await f.runPreBindPlugins(state, p, "n")).toBeNull();
    expect(pl.entered).toBe(false);
    expect(f.getPodInPreBind("pod")).toBeUndefined();
  });
});

describe("TestReservePlugins", () => {
  const tests: { name: string; plugins: TestPlugin[]; wantStatus: Status | null }[] = [
    { name: "NoReservePlugin", plugins: [], wantStatus: null },
    {
      name: "SuccessReservePlugins",
      plugins: [new TestPlugin("TestPlugin", { reserveStatus: Code.Success })],
      wantStatus: null,
    },
    {
      name: "UnschedulableReservePlugin",
      plugins: [new TestPlugin("TestPlugin", { reserveStatus: Code.Unschedulable })],
      wantStatus: new Status(Code.Unschedulable, injectReason).withPlugin("TestPlugin"),
    },
    {
      name: "ErrorReservePlugin",
      plugins: [new TestPlugin("TestPlugin", { reserveStatus: Code.Error })],
      wantStatus: errStatus(`running Reserve plugin "TestPlugin": ${injectReason}`),
    },
    {
      name: "UnschedulableReservePlugin",
      plugins: [new TestPlugin("TestPlugin", { reserveStatus: Code.UnschedulableAndUnresolvable })],
      wantStatus: new Status(Code.UnschedulableAndUnresolvable, injectReason).withPlugin("TestPlugin"),
    },
    {
      name: "SuccessSuccessReservePlugins",
      plugins: [
        new TestPlugin("TestPlugin", { reserveStatus: Code.Success }),
        new TestPlugin("TestPlugin 1", { reserveStatus: Code.Success }),
      ],
      wantStatus: null,
    },
    {
      name: "ErrorErrorReservePlugins",
      plugins: [
        new TestPlugin("TestPlugin", { reserveStatus: Code.Error }),
        new TestPlugin("TestPlugin 1", { reserveStatus: Code.Error }),
      ],
      wantStatus: errStatus(`running Reserve plugin "TestPlugin": ${injectReason}`),
    },
    {
      name: "SuccessErrorReservePlugins",
      plugins: [
        new TestPlugin("TestPlugin", { reserveStatus: Code.Success }),
        new TestPlugin("TestPlugin 1", { reserveStatus: Code.Error }),
      ],
      wantStatus: errStatus(`running Reserve plugin "TestPlugin 1": ${injectReason}`),
    },
    {
      name: "ErrorSuccessReservePlugin",
      plugins: [
        new TestPlugin("TestPlugin", { reserveStatus: Code.Error }),
        new TestPlugin("TestPlugin 1", { reserveStatus: Code.Success }),
      ],
      wantStatus: errStatus(`running Reserve plugin "TestPlugin": ${injectReason}`),
    },
    {
      name: "UnschedulableAndSuccessReservePlugin",
      plugins: [
        new TestPlugin("TestPlugin", { reserveStatus: Code.Unschedulable }),
        new TestPlugin("TestPlugin 1", { reserveStatus: Code.Success }),
      ],
      wantStatus: new Status(Code.Unschedulable, injectReason).withPlugin("TestPlugin"),
    },
  ];
  for (const [i, tt] of tests.entries()) {
    it(`${tt.name}${i === 4 ? " (UnschedulableAndUnresolvable)" : ""}`, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ reserve: enabled(...tt.plugins.map((p) => p.n)) }),
      );
      expectStatus(f.runReservePluginsReserve(new CycleState(), pod, ""), tt.wantStatus);
    });
  }

  it("runs Unreserve in the reverse order of Reserve", async () => {
    const order: string[] = [];
    class R extends TestPlugin {
      override reserve() {
        order.push(`reserve ${this.n}`);
        return null;
      }
      override unreserve() {
        order.push(`unreserve ${this.n}`);
      }
    }
    const pls = [new R("a"), new R("b"), new R("c")];
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf(pls),
      plugins({ reserve: enabled("a", "b", "c") }),
    );
    f.runReservePluginsReserve(new CycleState(), pod, "n");
    f.runReservePluginsUnreserve(new CycleState(), pod, "n");
    expect(order).toEqual([
      "reserve a",
      "reserve b",
      "reserve c",
      "unreserve c",
      "unreserve b",
      "unreserve a",
    ]);
  });
});

describe("TestPermitPlugins", () => {
  const tests: { name: string; plugins: TestPlugin[]; want: Status | null }[] = [
    { name: "NilPermitPlugin", plugins: [], want: null },
    {
      name: "SuccessPermitPlugin",
      plugins: [new TestPlugin("TestPlugin", { permitStatus: Code.Success })],
      want: null,
    },
    {
      name: "UnschedulablePermitPlugin",
      plugins: [new TestPlugin("TestPlugin", { permitStatus: Code.Unschedulable })],
      want: new Status(Code.Unschedulable, injectReason).withPlugin("TestPlugin"),
    },
    {
      name: "ErrorPermitPlugin",
      plugins: [new TestPlugin("TestPlugin", { permitStatus: Code.Error })],
      want: errStatus(`running Permit plugin "TestPlugin": ${injectReason}`).withPlugin("TestPlugin"),
    },
    {
      name: "UnschedulableAndUnresolvablePermitPlugin",
      plugins: [new TestPlugin("TestPlugin", { permitStatus: Code.UnschedulableAndUnresolvable })],
      want: new Status(Code.UnschedulableAndUnresolvable, injectReason).withPlugin("TestPlugin"),
    },
    {
      name: "WaitPermitPlugin",
      plugins: [new TestPlugin("TestPlugin", { permitStatus: Code.Wait })],
      want: new Status(Code.Wait, `one or more plugins asked to wait and no plugin rejected pod ""`),
    },
    {
      name: "SuccessSuccessPermitPlugin",
      plugins: [
        new TestPlugin("TestPlugin", { permitStatus: Code.Success }),
        new TestPlugin("TestPlugin 1", { permitStatus: Code.Success }),
      ],
      want: null,
    },
    {
      name: "ErrorAndErrorPlugins",
      plugins: [
        new TestPlugin("TestPlugin", { permitStatus: Code.Error }),
        new TestPlugin("TestPlugin 1", { permitStatus: Code.Error }),
      ],
      want: errStatus(`running Permit plugin "TestPlugin": ${injectReason}`).withPlugin("TestPlugin"),
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(tt.plugins),
        plugins({ permit: enabled(...tt.plugins.map((p) => p.n)) }),
        [],
        { clock: fakeClock() },
      );
      expectStatus(f.runPermitPlugins(new CycleState(), pod, ""), tt.want);
    });
  }
});

function fakeClock(): ManualClock {
  return new ManualClock(0);
}

describe("TestWaitOnPermit", () => {
  const p: Pod = { metadata: { name: "pod", uid: "pod" } };
  const tests: {
    name: string;
    action: (f: Awaited<ReturnType<typeof newFramework>>) => void;
    want: Status | null;
  }[] = [
    {
      name: "Reject Waiting Pod",
      action: (f) => f.getWaitingPod("pod")?.reject(permitPlugin, "reject message"),
      want: new Status(Code.Unschedulable, "reject message").withPlugin(permitPlugin),
    },
    {
      name: "Allow Waiting Pod",
      action: (f) => f.getWaitingPod("pod")?.allow(permitPlugin),
      want: null,
    },
    // Not upstream cases.
    {
      name: "Preempt Waiting Pod",
      action: (f) => f.getWaitingPod("pod")?.preempt(permitPlugin, "preempted"),
      want: errStatus("waiting on permit for pod: preempted").withPlugin(permitPlugin),
    },
    {
      name: "RejectWaitingPod by UID",
      action: (f) => expect(f.rejectWaitingPod("pod")).toBe(true),
      want: new Status(Code.Unschedulable, "removed"),
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf([new TestPermitPlugin()]),
        plugins({ permit: { enabled: [{ name: permitPlugin, weight: 1 }] } }),
        [],
        { clock: fakeClock() },
      );
      const s = f.runPermitPlugins(new CycleState(), p, "");
      expect(s?.code).toBe(Code.Wait);
      expect(f.willWaitOnPermit(p)).toBe(true);
      const waiting = f.waitOnPermit(p);
      tt.action(f);
      const got = await waiting;
      expectStatus(got, tt.want);
      if (got && tt.want) expect(got.plugin).toBe(tt.want.plugin);
      expect(f.getWaitingPod("pod")).toBeUndefined();
    });
  }

  it("rejects on timeout with upstream's message, timeouts capped at 15 minutes", async () => {
    class LongWait implements PermitPlugin {
      name() {
        return "long-wait";
      }
      permit(): PermitOutput {
        return { status: new Status(Code.Wait), timeoutMs: 3_600_000 };
      }
    }
    const clock = fakeClock();
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf([new TestPermitPlugin(), new LongWait()]),
      plugins({ permit: enabled(permitPlugin, "long-wait") }),
      [],
      { clock },
    );
    f.runPermitPlugins(new CycleState(), p, "");
    const wp = f.getWaitingPod("pod");
    expect(wp?.getPendingPlugins()).toEqual([permitPlugin, "long-wait"]);
    const waiting = f.waitOnPermit(p);
    wp?.allow(permitPlugin);
    clock.advance(14 * 60 * 1000);
    clock.advance(60 * 1000);
    expectStatus(
      await waiting,
      new Status(
        Code.Unschedulable,
        "rejected due to timeout after waiting 15m0s at plugin long-wait",
      ).withPlugin("long-wait"),
    );
  });

  it("times out after the plugin's timeout", async () => {
    const clock = fakeClock();
    const f = await newFrameworkWithQueueSortAndBind(
      registryOf([new TestPermitPlugin()]),
      plugins({ permit: enabled(permitPlugin) }),
      [],
      { clock },
    );
    f.runPermitPlugins(new CycleState(), p, "");
    const waiting = f.waitOnPermit(p);
    clock.advance(10_000);
    expectStatus(
      await waiting,
      new Status(
        Code.Unschedulable,
        "rejected due to timeout after waiting 10s at plugin permit-plugin",
      ).withPlugin(permitPlugin),
    );
  });
});

describe("TestRunBindPlugins", () => {
  const tests: { name: string; injects: Code[]; wantStatus: Code }[] = [
    { name: "simple success", injects: [Code.Success], wantStatus: Code.Success },
    { name: "error on second", injects: [Code.Skip, Code.Error, Code.Success], wantStatus: Code.Error },
    { name: "all skip", injects: [Code.Skip, Code.Skip, Code.Skip], wantStatus: Code.Skip },
    {
      name: "error on third, but not reached",
      injects: [Code.Skip, Code.Success, Code.Error],
      wantStatus: Code.Success,
    },
    { name: "no bind plugin, returns default binder", injects: [], wantStatus: Code.Success },
    { name: "invalid status", injects: [Code.Unschedulable], wantStatus: Code.Unschedulable },
    { name: "simple error", injects: [Code.Error], wantStatus: Code.Error },
    {
      name: "success on second, returns success",
      injects: [Code.Skip, Code.Success],
      wantStatus: Code.Success,
    },
    {
      name: "invalid status, returns error",
      injects: [Code.Skip, Code.UnschedulableAndUnresolvable],
      wantStatus: Code.UnschedulableAndUnresolvable,
    },
    {
      name: "error after success status, returns success",
      injects: [Code.Success, Code.Error],
      wantStatus: Code.Success,
    },
    {
      name: "success before invalid status, returns success",
      injects: [Code.Success, Code.Error],
      wantStatus: Code.Success,
    },
    {
      name: "success after error status, returns error",
      injects: [Code.Error, Code.Success],
      wantStatus: Code.Error,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const pls = tt.injects.map((c, i) => new TestPlugin(`bind-${i}`, { bindStatus: c }));
      const f = await newFrameworkWithQueueSortAndBind(
        registryOf(pls),
        plugins({ bind: enabled(...pls.map((p) => p.n)) }),
      );
      const st = await f.runBindPlugins(new CycleState(), pod, "");
      expect(codeName(st?.code ?? Code.Success)).toBe(codeName(tt.wantStatus));
    });
  }
});

describe("TestListPlugins", () => {
  const tests: { name: string; plugins: Plugins; want: Record<string, PluginEntry[]> }[] = [
    {
      name: "Add empty plugin",
      plugins: plugins(),
      want: { queueSort: [{ name: queueSortPlugin }], bind: [{ name: bindPlugin }] },
    },
    {
      name: "Add multiple plugins",
      plugins: plugins({
        score: { enabled: [{ name: scorePlugin1, weight: 3 }, { name: scoreWithNormalizePlugin1 }] },
      }),
      want: {
        queueSort: [{ name: queueSortPlugin }],
        bind: [{ name: bindPlugin }],
        score: [
          { name: scorePlugin1, weight: 3 },
          { name: scoreWithNormalizePlugin1, weight: 1 },
        ],
      },
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const f = await newFrameworkWithQueueSortAndBind(registry(), tt.plugins);
      expect(f.listPlugins()).toEqual(tt.want);
    });
  }
});

describe("EnqueueExtensions", () => {
  it("collects events only from plugins that can reject pods, defaulting to all events", async () => {
    class WithEvents extends TestPreFilterPlugin {
      eventsToRegister() {
        return [{ event: { resource: "Node", actionType: 1 } }];
      }
    }
    const r = registryOf([new WithEvents(), new TestPreEnqueuePlugin()]);
    const f = await newFrameworkWithQueueSortAndBind(
      registry(),
      plugins({ multiPoint: enabled(scorePlugin1) }),
    );
    // scorePlugin1 (PreScore/Score only), the queue sort and the binder register nothing.
    expect(f.enqueueExtensions()).toEqual([]);
    const g = await newFrameworkWithQueueSortAndBind(
      r,
      plugins({ preFilter: enabled(preFilterPluginName), preEnqueue: enabled("preEnqueue-plugin") }),
    );
    const got = g.enqueueExtensions();
    expect(got.map((e) => e.pluginName)).toEqual([preFilterPluginName, "preEnqueue-plugin"]);
    expect(got[0]?.events).toEqual([{ event: { resource: "Node", actionType: 1 } }]);
    expect(got[1]?.events.map((e) => e.event.resource)).toEqual([
      "Pod",
      "Node",
      "PersistentVolume",
      "PersistentVolumeClaim",
      "storage.k8s.io/CSINode",
      "storage.k8s.io/CSIDriver",
      "storage.k8s.io/CSIStorageCapacity",
      "storage.k8s.io/StorageClass",
      "resource.k8s.io/ResourceClaim",
      "resource.k8s.io/DeviceClass",
    ]);
  });
});

describe("args", () => {
  it("passes pluginConfig args, or the descriptor's defaults when absent", async () => {
    const got: unknown[] = [];
    const desc: PluginDescriptor<{ x: number }> = {
      name: "with-args",
      factory: (args) => {
        got.push(args);
        return new TestPreFilterPlugin();
      },
      args: {
        kind: "WithArgsArgs",
        decode: (raw) => ({ args: { x: (raw as { x?: number } | undefined)?.x ?? 7 }, errors: [] }),
        validate: () => [],
      },
    };
    const r = new Map([["with-args", desc as PluginDescriptor]]);
    await newFrameworkWithQueueSortAndBind(r, plugins({ preFilter: enabled("with-args") }));
    await newFrameworkWithQueueSortAndBind(new Map(r), plugins({ preFilter: enabled("with-args") }), [
      { name: "with-args", args: { x: 1 } },
    ]);
    expect(got).toEqual([{ x: 7 }, { x: 1 }]);
  });
});
