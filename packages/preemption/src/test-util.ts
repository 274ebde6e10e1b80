// Test-only fixtures, ports of upstream pkg/scheduler/framework/preemption/preemption_test.go's
// constants and pkg/scheduler/testing/framework's fake PostFilter plugin.
import {
  Code,
  NodeToStatus,
  type PluginDescriptor,
  type PostFilterPlugin,
  Status,
} from "@kubesched/framework";

/** Priorities used by upstream's preemption tests. */
export const midPriority = 100;
export const highPriority = 1000;

export const veryLargeRes = { cpu: "500m", memory: "500" };

/**
 * The plugin the harness builds its framework around (upstream's tests build a framework with a
 * queue sort and a binder only): a PostFilter that never helps. The tests run the Evaluator on the
 * framework's Handle with their own PreemptionInterface.
 */
export const fakePostFilterPlugin: PluginDescriptor = {
  name: "FakePostFilter",
  factory: (): PostFilterPlugin => ({
    name: () => "FakePostFilter",
    postFilter: async () => ({ result: null, status: new Status(Code.Unschedulable) }),
  }),
};

/** upstream framework.NewNodeToStatus(map, absent). */
export function nodeToStatus(statuses: Record<string, Status>, absent?: Status): NodeToStatus {
  const m = new NodeToStatus();
  for (const [n, s] of Object.entries(statuses)) m.set(n, s);
  if (absent) m.absentNodesStatus = absent;
  return m;
}
