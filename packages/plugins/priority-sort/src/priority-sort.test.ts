// upstream: pkg/scheduler/framework/plugins/queuesort/priority_sort_test.go
import type { Pod } from "@kubesched/api";
import { PodInfo, type QueuedPodInfo } from "@kubesched/framework";
import { createPluginHarness } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { prioritySortPlugin } from "./index";
import type { PrioritySort } from "./priority-sort";

function queued(priority: number, timestamp = 0): QueuedPodInfo {
  const pod: Pod = { metadata: { name: "p" }, spec: { containers: [], priority } };
  return {
    podInfo: new PodInfo(pod),
    timestamp,
    attempts: 0,
    unschedulableCount: 0,
    consecutiveErrorsCount: 0,
    initialAttemptTimestamp: null,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: "",
  };
}

describe("TestLess", () => {
  const lowPriority = 10;
  const highPriority = 100;
  const t1 = Date.now();
  const t2 = t1 + 1000;
  const cases = [
    {
      name: "p1.priority less than p2.priority",
      p1: queued(lowPriority),
      p2: queued(highPriority),
      expected: false, // p2 should be ahead of p1 in the queue
    },
    {
      name: "p1.priority greater than p2.priority",
      p1: queued(highPriority),
      p2: queued(lowPriority),
      expected: true, // p1 should be ahead of p2 in the queue
    },
    {
      name: "equal priority. p1 is added to schedulingQ earlier than p2",
      p1: queued(highPriority, t1),
      p2: queued(highPriority, t2),
      expected: true, // p1 should be ahead of p2 in the queue
    },
    {
      name: "equal priority. p2 is added to schedulingQ earlier than p1",
      p1: queued(highPriority, t2),
      p2: queued(highPriority, t1),
      expected: false, // p2 should be ahead of p1 in the queue
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({ plugin: prioritySortPlugin });
    const p = h.plugin as PrioritySort;
    expect(p.less(tc.p1, tc.p2)).toBe(tc.expected);
  });

  it("treats a pod without spec.priority as priority 0", async () => {
    const p = (await createPluginHarness({ plugin: prioritySortPlugin })).plugin as PrioritySort;
    const noPriority = queued(0);
    delete noPriority.podInfo.pod.spec!.priority;
    expect(p.less(queued(1), noPriority)).toBe(true);
    expect(p.less(queued(-1), noPriority)).toBe(false);
  });
});
