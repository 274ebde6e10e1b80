// Ported from upstream pkg/scheduler/profile/profile_test.go (TestNewMap, case names verbatim),
// plus what a framework needs at construction (snapshot, logger) and the late-bound nominator.
import type { Pod } from "@kubesched/api";
import type { PluginConfigEntry, PluginSet, Plugins, ProfileConfig } from "@kubesched/config";
import {
  type BindPlugin,
  type ClusterClient,
  type ClusterListers,
  type Logger,
  type PluginDescriptor,
  PodInfo,
  type QueueSortPlugin,
  type SharedLister,
} from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import type { FrameworkOptions } from "./framework";
import { newFramework } from "./observed-framework";
import { newProfileMap } from "./profile-map";

class FakePlugin implements QueueSortPlugin, BindPlugin {
  constructor(private readonly n: string) {}
  name(): string {
    return this.n;
  }
  less(): boolean {
    return false;
  }
  async bind() {
    return null;
  }
}

const fake = (name: string): PluginDescriptor => ({ name, factory: () => new FakePlugin(name) });
const fakeRegistry = new Map<string, PluginDescriptor>(
  ["QueueSort", "Bind1", "Bind2", "Another"].map((n) => [n, fake(n)]),
);

const emptySnapshot: SharedLister = {
  nodeInfos: () => ({
    list: () => [],
    havePodsWithAffinityList: () => [],
    havePodsWithRequiredAntiAffinityList: () => [],
    get: () => undefined,
  }),
  storageInfos: () => ({ isPVCUsedByPods: () => false }),
};
const silent: Logger = {
  error() {},
  warn() {},
  info() {},
  v: () => false,
  debug() {},
  child: () => silent,
};
const baseOptions = {
  listers: {} as ClusterListers,
  client: {} as ClusterClient,
  eventRecorder: { eventf() {} },
  snapshot: emptySnapshot,
  logger: silent,
};

const set = (...names: string[]): PluginSet => ({ enabled: names.map((name) => ({ name })), disabled: [] });
function plugins(queueSort: string, bind?: string): Plugins {
  const empty = set();
  return {
    preEnqueue: empty,
    queueSort: set(queueSort),
    preFilter: empty,
    filter: empty,
    postFilter: empty,
    preScore: empty,
    score: empty,
    reserve: empty,
    permit: empty,
    preBind: empty,
    bind: bind ? set(bind) : empty,
    postBind: empty,
    multiPoint: empty,
  };
}
const profile = (
  schedulerName: string,
  p: Plugins | undefined,
  pluginConfig: PluginConfigEntry[] = [],
): ProfileConfig => ({ schedulerName, plugins: p as Plugins, pluginConfig });

describe("TestNewMap", () => {
  const cases: { name: string; cfgs: ProfileConfig[]; wantErr?: string }[] = [
    {
      name: "valid",
      cfgs: [
        profile("profile-1", plugins("QueueSort", "Bind1")),
        profile("profile-2", plugins("QueueSort", "Bind2"), [{ name: "Bind2", args: {} }]),
      ],
    },
    {
      name: "different queue sort",
      cfgs: [
        profile("profile-1", plugins("QueueSort", "Bind1")),
        profile("profile-2", plugins("Another", "Bind2")),
      ],
      wantErr: "different queue sort plugins",
    },
    {
      name: "different queue sort args",
      cfgs: [
        profile("profile-1", plugins("QueueSort", "Bind1"), [{ name: "QueueSort", args: {} }]),
        profile("profile-2", plugins("QueueSort", "Bind2")),
      ],
      wantErr: "different queue sort plugin args",
    },
    {
      name: "duplicate scheduler name",
      cfgs: [
        profile("profile-1", plugins("QueueSort", "Bind1")),
        profile("profile-1", plugins("QueueSort", "Bind2")),
      ],
      wantErr: "duplicate profile",
    },
    {
      name: "scheduler name is needed",
      cfgs: [profile("", plugins("QueueSort", "Bind1"))],
      wantErr: "scheduler name is needed",
    },
    {
      name: "plugins required for profile",
      cfgs: [profile("profile-1", undefined)],
      wantErr: "plugins required for profile",
    },
    {
      name: "invalid framework configuration",
      cfgs: [profile("invalid-profile", plugins("QueueSort"))],
      wantErr: "at least one bind plugin is needed",
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const built = newProfileMap(fakeRegistry, tc.cfgs, baseOptions);
      if (tc.wantErr) {
        await expect(built).rejects.toThrow(tc.wantErr);
        return;
      }
      const m = await built;
      expect(m.size).toBe(tc.cfgs.length);
    });
  }

  it("wraps a framework's error with the profile's scheduler name", async () => {
    await expect(
      newProfileMap(fakeRegistry, [profile("p", plugins("QueueSort"))], baseOptions),
    ).rejects.toThrow(
      'creating profile for scheduler name p: at least one bind plugin is needed for profile with scheduler name "p"',
    );
  });

  it("builds every profile around the snapshot and logger it is given", async () => {
    const m = await newProfileMap(
      fakeRegistry,
      [
        profile("profile-1", plugins("QueueSort", "Bind1")),
        profile("profile-2", plugins("QueueSort", "Bind2")),
      ],
      baseOptions,
    );
    for (const fwk of m.values()) expect(fwk.snapshotSharedLister()).toBe(emptySnapshot);
  });
});

describe("framework construction needs its snapshot and logger", () => {
  const opts = baseOptions as FrameworkOptions;
  it("a missing snapshot is an error, not an empty stand-in", async () => {
    const { snapshot: _s, ...noSnapshot } = opts;
    await expect(
      newFramework(fakeRegistry, profile("p", plugins("QueueSort", "Bind1")), noSnapshot as FrameworkOptions),
    ).rejects.toThrow("a snapshot is required");
  });
  it("a missing logger is an error", async () => {
    const { logger: _l, ...noLogger } = opts;
    await expect(
      newFramework(fakeRegistry, profile("p", plugins("QueueSort", "Bind1")), noLogger as FrameworkOptions),
    ).rejects.toThrow("a logger is required");
  });
  it("the nominator and activator are late-bound, and using them unset throws", async () => {
    const f = await newFramework(fakeRegistry, profile("p", plugins("QueueSort", "Bind1")), opts);
    const pod: Pod = { metadata: { name: "x", namespace: "default", uid: "x" } };
    expect(() => f.nominatedPodsForNode("n1")).toThrow(
      'framework "p": the pod nominator is used before it was set',
    );
    expect(() => f.addNominatedPod(new PodInfo(pod), null)).toThrow(
      "the pod nominator is used before it was set",
    );
    expect(() => f.activate(new Map([["default/x", pod]]))).toThrow(
      "the pod activator is used before it was set",
    );
    const nominated: PodInfo[] = [];
    f.setNominator({
      addNominatedPod: (p) => nominated.push(p),
      deleteNominatedPodIfExists() {},
      updateNominatedPod() {},
      nominatedPodsForNode: () => nominated,
    });
    f.addNominatedPod(new PodInfo(pod), { nominatedNodeName: "n1", nominatingMode: 1 });
    expect(f.nominatedPodsForNode("n1")).toHaveLength(1);
  });
});
