// Test-only fakes, ports of upstream pkg/scheduler/testing/framework (fake_plugins.go,
// fake_extender.go) and default_preemption_test.go's TestPlugin.
import type { Node, Pod } from "@kubesched/api";
import {
  asStatus,
  Code,
  type CycleState,
  type Extender,
  type ExtenderFilterResult,
  type ExtenderVictims,
  type FilterPlugin,
  type NodeInfo,
  NodeToStatus,
  type PluginDescriptor,
  type PodInfo,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreFilterResult,
  type Random,
  Status,
} from "@kubesched/framework";

/** upstream tf.ErrReasonFake. */
export const ErrReasonFake = "Nodes failed the fake plugin";

/** Priorities used by upstream's preemption tests. */
export const negPriority = -100;
export const lowPriority = 0;
export const midPriority = 100;
export const highPriority = 1000;
export const veryHighPriority = 10000;

export const smallRes = { cpu: "100m", memory: "100" };
export const mediumRes = { cpu: "200m", memory: "200" };
export const largeRes = { cpu: "300m", memory: "300" };
export const veryLargeRes = { cpu: "500m", memory: "500" };

/** upstream epochTime..epochTime6 are 0..6 ns after the epoch; milliseconds keep the order. */
export const epochTime = (n = 0): Date => new Date(n);

/** A filter that always fails (upstream tf.FalseFilterPlugin). */
export const falseFilterPlugin: PluginDescriptor = {
  name: "FalseFilter",
  factory: (): FilterPlugin => ({
    name: () => "FalseFilter",
    filter: () => new Status(Code.Unschedulable, ErrReasonFake),
  }),
};

/** A filter that always passes (upstream tf.TrueFilterPlugin). */
export const trueFilterPlugin: PluginDescriptor = {
  name: "TrueFilter",
  factory: (): FilterPlugin => ({ name: () => "TrueFilter", filter: () => null }),
};

/** Passes when the pod's name is the node's name (upstream tf.MatchFilterPlugin). */
export const matchFilterPlugin: PluginDescriptor = {
  name: "MatchFilter",
  factory: (): FilterPlugin => ({
    name: () => "MatchFilter",
    filter: (_s: CycleState, pod: Pod, ni: NodeInfo) =>
      pod.metadata?.name === ni.nodeName ? null : new Status(Code.Unschedulable, ErrReasonFake),
  }),
};

/** Counts Filter calls; fails nodes with the code in `failedNodeReturnCodeMap` (upstream tf.FakeFilterPlugin). */
export class FakeFilterPlugin implements FilterPlugin {
  numFilterCalled = 0;
  constructor(readonly failedNodeReturnCodeMap: Map<string, Code> = new Map()) {}
  name(): string {
    return "FakeFilter";
  }
  filter(_s: CycleState, pod: Pod, ni: NodeInfo): Status | null {
    this.numFilterCalled++;
    const code = this.failedNodeReturnCodeMap.get(ni.nodeName) ?? Code.Success;
    if (code === Code.Success) return null;
    return new Status(code, `injecting failure for pod ${pod.metadata?.name ?? ""}`);
  }
}

export function fakeFilterDescriptor(p: FakeFilterPlugin): PluginDescriptor {
  return { name: "FakeFilter", factory: () => p };
}

/**
 * default_preemption_test.go's TestPlugin: AddPod/RemovePod fail on nodes labelled error=true.
 */
class TestPlugin implements PreFilterPlugin, FilterPlugin, PreFilterExtensions {
  name(): string {
    return "test-plugin";
  }
  preFilter(): PreFilterResult | Status | null {
    return null;
  }
  preFilterExtensions(): PreFilterExtensions {
    return this;
  }
  addPod(_s: CycleState, podToSchedule: Pod, _pi: PodInfo, ni: NodeInfo): Status | null {
    if (ni.node?.metadata?.labels?.error === "true") {
      return asStatus(new Error(`failed to add pod: ${podToSchedule.metadata?.name ?? ""}`));
    }
    return null;
  }
  removePod(_s: CycleState, podToSchedule: Pod, _pi: PodInfo, ni: NodeInfo): Status | null {
    if (ni.node?.metadata?.labels?.error === "true") {
      return asStatus(new Error(`failed to remove pod: ${podToSchedule.metadata?.name ?? ""}`));
    }
    return null;
  }
  filter(): Status | null {
    return null;
  }
}

export const testPlugin: PluginDescriptor = { name: "test-plugin", factory: () => new TestPlugin() };

/** upstream tf.FitPredicate: a node-level predicate of a fake extender. */
export type FitPredicate = (pod: Pod, node: Node) => Status | null;

export const truePredicateExtender: FitPredicate = () => null;
export const falsePredicateExtender: FitPredicate = (pod) =>
  new Status(Code.Unschedulable, `pod ${pod.metadata?.name ?? ""} does not fit`);
export const errorPredicateExtender: FitPredicate = () => asStatus(new Error("some error"));
export const node1PredicateExtender: FitPredicate = (pod, node) =>
  node.metadata?.name === "node1"
    ? null
    : new Status(Code.Unschedulable, `pod ${pod.metadata?.name ?? ""} does not fit`);

/**
 * A preemption-capable extender (upstream tf.FakeExtender, preemption part): keeps the nodes
 * where every predicate passes, with the victims it was given; a predicate error fails the call.
 */
export class FakeExtender implements Extender {
  constructor(
    readonly extenderName: string,
    readonly predicates: FitPredicate[],
    readonly opts: { ignorable?: boolean; unInterested?: boolean } = {},
  ) {}
  name(): string {
    return this.extenderName;
  }
  isIgnorable(): boolean {
    return this.opts.ignorable ?? false;
  }
  isInterested(): boolean {
    return !this.opts.unInterested;
  }
  isFilter(): boolean {
    return true;
  }
  isPrioritizer(): boolean {
    return false;
  }
  isBinder(): boolean {
    return false;
  }
  supportsPreemption(): boolean {
    return true;
  }
  async filter(): Promise<ExtenderFilterResult> {
    return { nodes: [], failedNodes: new Map(), failedAndUnresolvableNodes: new Map() };
  }
  async prioritize(): Promise<{ scores: Map<string, number>; weight: number }> {
    return { scores: new Map(), weight: 0 };
  }
  async bind(): Promise<void> {}
  nodes = new Map<string, Node>();
  async processPreemption(
    pod: Pod,
    victims: Map<string, ExtenderVictims>,
  ): Promise<Map<string, ExtenderVictims>> {
    const out = new Map(victims);
    for (const nodeName of victims.keys()) {
      const node = this.nodes.get(nodeName) ?? { metadata: { name: nodeName } };
      for (const pred of this.predicates) {
        const s = pred(pod, node);
        if (s === null || s.isSuccess()) continue;
        if (!s.isRejected()) throw s.asError();
        out.delete(nodeName);
        break;
      }
    }
    return out;
  }
}

/** A Random whose intn returns the given values in turn (upstream tests pin getOffsetRand). */
export function scriptedRandom(values: number[]): Random {
  let i = 0;
  return {
    intn: (n) => {
      const v = values[i % values.length] ?? 0;
      i++;
      return v % n;
    },
    float: () => 0,
  };
}

/** upstream framework.NewNodeToStatus(map, absent). */
export function nodeToStatus(statuses: Record<string, Status>, absent?: Status): NodeToStatus {
  const m = new NodeToStatus();
  for (const [n, s] of Object.entries(statuses)) m.set(n, s);
  if (absent) m.absentNodesStatus = absent;
  return m;
}
