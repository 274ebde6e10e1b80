// The plugin contract as plugin code uses it: a plugin class implementing every extension point,
// its descriptor and factory, Status, the type guards and the helpers. Imports the package by
// name, so that tooling/type-tests compiles the same file against the built .d.ts with every
// supported TypeScript.
import type { Pod } from "@kubesched/api";
import {
  type BindPlugin,
  type ClusterEventWithHint,
  Code,
  type CodeName,
  type CycleState,
  codeName,
  type DecodeResult,
  defaultNormalizer,
  definePlugin,
  type EnqueueExtensions,
  type Features,
  type FilterPlugin,
  type Handle,
  isFilterPlugin,
  isScorePlugin,
  isSignPlugin,
  MaxNodeScore,
  type NodeInfo,
  type NodeToStatus,
  type PermitOutput,
  type PermitPlugin,
  type Plugin,
  type PluginDescriptor,
  type PluginFactory,
  type PostBindPlugin,
  type PostFilterOutput,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueuedPodInfo,
  type QueueSortPlugin,
  type Registry,
  type ReservePlugin,
  registryOf,
  type ScoreExtensions,
  type ScorePlugin,
  type SignFragment,
  type SignPlugin,
  type SignPodResult,
  type StateData,
  Status,
  stateKey,
  TolerationsSignerName,
  tolerationsSigner,
} from "@kubesched/framework";
import { describe, expectTypeOf, it } from "vitest";

class Counted implements StateData {
  constructor(readonly n: number) {}
  clone(): Counted {
    return new Counted(this.n);
  }
}
const key = stateKey<Counted>("PreFilterEverything");

/** A plugin at every extension point, written as a plugin author writes one. */
class Everything
  implements
    PreEnqueuePlugin,
    QueueSortPlugin,
    PreFilterPlugin,
    FilterPlugin,
    PostFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ReservePlugin,
    PermitPlugin,
    PreBindPlugin,
    BindPlugin,
    PostBindPlugin,
    EnqueueExtensions,
    SignPlugin
{
  private readonly normalizer = defaultNormalizer(MaxNodeScore, false);
  constructor(readonly handle: Handle) {}
  name(): string {
    return "Everything";
  }
  preEnqueue(_pod: Pod): Status | null {
    return null;
  }
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    return a.timestamp < b.timestamp;
  }
  preFilter(state: CycleState, _pod: Pod, nodes: readonly NodeInfo[]): PreFilterResult | Status | null {
    state.write(key, new Counted(nodes.length));
    return null;
  }
  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    const s = state.read(key);
    return s && nodeInfo.podCount < s.n ? null : new Status(Code.Unschedulable, "full");
  }
  postFilter(_state: CycleState, _pod: Pod, m: NodeToStatus): PostFilterOutput {
    return { result: null, status: m.absentNodesStatus };
  }
  preScore(_state: CycleState, _pod: Pod, _nodes: readonly NodeInfo[]): Status | null {
    return null;
  }
  score(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    return nodeInfo.podCount;
  }
  scoreExtensions(): ScoreExtensions {
    return this.normalizer;
  }
  reserve(_state: CycleState, _pod: Pod, _nodeName: string): Status | null {
    return null;
  }
  unreserve(_state: CycleState, _pod: Pod, _nodeName: string): void {}
  permit(_state: CycleState, _pod: Pod, _nodeName: string): PermitOutput {
    return { status: new Status(Code.Wait), timeoutMs: 1000 };
  }
  preBindPreFlight(_state: CycleState, _pod: Pod, _nodeName: string): Status | null {
    return new Status(Code.Skip);
  }
  async preBind(_state: CycleState, _pod: Pod, _nodeName: string): Promise<Status | null> {
    return null;
  }
  async bind(_state: CycleState, _pod: Pod, _nodeName: string): Promise<Status | null> {
    return new Status(Code.Skip);
  }
  postBind(_state: CycleState, _pod: Pod, _nodeName: string): void {}
  eventsToRegister(): ClusterEventWithHint[] {
    return [];
  }
  signPod(pod: Pod): SignPodResult {
    return { fragments: [{ key: TolerationsSignerName, value: tolerationsSigner(pod) }], status: null };
  }
}

interface EverythingArgs {
  limit: number;
}

describe("@kubesched/framework", () => {
  it("a plugin class is every extension point it implements, and a Plugin", () => {
    expectTypeOf<Everything>().toExtend<Plugin>();
    expectTypeOf<Everything>().toExtend<FilterPlugin & ScorePlugin & SignPlugin>();
    expectTypeOf<Everything["signPod"]>().returns.toEqualTypeOf<SignPodResult>();
    expectTypeOf<SignPodResult["fragments"]>().toEqualTypeOf<SignFragment[]>();
    expectTypeOf<SignFragment>().toEqualTypeOf<{ key: string; value: unknown }>();
  });

  it("a descriptor of typed args fits a Registry; its factory gets the args and the Handle", () => {
    const descriptor = definePlugin<EverythingArgs>({
      name: "Everything",
      factory: (args, handle) => {
        expectTypeOf(args).toEqualTypeOf<EverythingArgs>();
        expectTypeOf(handle).toEqualTypeOf<Handle>();
        return new Everything(handle);
      },
    });
    expectTypeOf(descriptor).toEqualTypeOf<PluginDescriptor<EverythingArgs>>();
    expectTypeOf(registryOf(descriptor)).toExtend<Registry>();
    expectTypeOf<PluginFactory<EverythingArgs>>().returns.toEqualTypeOf<Plugin | Promise<Plugin>>();
    expectTypeOf<NonNullable<PluginDescriptor<EverythingArgs>["args"]>["decode"]>().returns.toEqualTypeOf<
      DecodeResult<EverythingArgs>
    >();
  });

  it("the guards narrow a Plugin to its extension points", () => {
    const p = {} as Plugin;
    if (isFilterPlugin(p)) expectTypeOf(p).toExtend<FilterPlugin>();
    if (isScorePlugin(p)) expectTypeOf(p.scoreExtensions()).toEqualTypeOf<ScoreExtensions | null>();
    if (isSignPlugin(p)) expectTypeOf(p.signPod).returns.toEqualTypeOf<SignPodResult>();
  });

  it("Status: upstream's codes and names; null is Success", () => {
    expectTypeOf(Code.UnschedulableAndUnresolvable).toEqualTypeOf<3>();
    expectTypeOf(codeName).returns.toEqualTypeOf<CodeName>();
    expectTypeOf<"Success" | "Pending">().toExtend<CodeName>();
    expectTypeOf(new Status(Code.Error, "a", "b").withError(new Error("x"))).toEqualTypeOf<Status>();
    expectTypeOf<FilterPlugin["filter"]>().returns.toEqualTypeOf<Status | null>();
    expectTypeOf<ScorePlugin["score"]>().returns.toEqualTypeOf<number | Status>();
  });

  it("a typed state key reads back its type", () => {
    const state = {} as CycleState;
    expectTypeOf(state.read(key)).toEqualTypeOf<Counted | undefined>();
    // @ts-expect-error: the key holds Counted
    state.write(key, { clone: () => new Counted(1) });
  });

  it("the Handle hands plugins what they read", () => {
    expectTypeOf<ReturnType<Handle["features"]>>().toEqualTypeOf<Features>();
    expectTypeOf<ReturnType<Handle["snapshotSharedLister"]>["nodeInfos"]>().returns.toExtend<{
      list(): readonly NodeInfo[];
    }>();
    expectTypeOf(defaultNormalizer(MaxNodeScore, true)).toEqualTypeOf<ScoreExtensions>();
  });
});
