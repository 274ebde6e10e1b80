// upstream: test/integration/scheduler/preemption/preemption_test.go TestAsyncPreemption (v1.37
// line; its step runner is test/integration/scheduler/preemption/asyncframework), on the
// assembled scheduler of the simulate path with SchedulerAsyncPreemption on (the default).
// As upstream, DefaultPreemption's PreemptPod is wrapped to block each preemptor's API calls
// until the test completes its preemption; the scheduler runs one cycle per schedulePod step.
// Ported: the first five cases (the single-pod ones that need no blocked binding). Not ported:
// the cases with a victim blocked in binding (kubernetes#134217), with pod groups, and the
// failure cases of async_preemption_failures_test.go.
// How this differs from upstream's harness: upstream disables backoff; here a schedulePod step
// lets simulated time pass (timer by timer) until backoffQ is empty and a pod is active.
import type { Pod } from "@kubesched/api";
import { podKey, podUID } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { SimulationSession } from "../simulate";
import { addPods, boundNode, openSession } from "./integration-cluster.test-util";

type Step = { name: string } & (
  | { createPod: { pod: Pod; count?: number } }
  | { schedulePod: { podName: string; expectSuccess?: boolean; expectUnschedulable?: boolean } }
  | { podGatedInQueue: string }
  | { podRunningPreemption: number }
  | { completePreemption: string }
);

/** st.MakePod().Req(cpu).Container("image").Priority(p), with ZeroTerminationGracePeriod for victims. */
function pod(name: string, cpu: string, priority: number, node?: string): Pod {
  const w = makePod().name(name).namespace("default").req({ cpu }).container("image").priority(priority);
  if (node) w.node(node).zeroTerminationGracePeriod();
  return w.obj();
}

/** GenerateName("victim-") × count, here victim-0, victim-1, … */
const victims = (cpu: string, count: number): { createPod: { pod: Pod; count: number } } => ({
  createPod: { pod: pod("victim-", cpu, 1, "node"), count },
});

const tests: Array<{ name: string; steps: Step[] }> = [
  {
    name: "base: async preemption happens expectedly",
    steps: [
      { name: "create scheduled Pod", ...victims("2", 2) },
      { name: "create a preemptor Pod", createPod: { pod: pod("preemptor", "4", 100) } },
      {
        name: "schedule the preemptor Pod",
        schedulePod: { podName: "preemptor", expectUnschedulable: true },
      },
      { name: "check the pod is in the queue and gated", podGatedInQueue: "preemptor" },
      { name: "check the preemptor Pod making the preemption API calls", podRunningPreemption: 2 },
      { name: "complete the preemption API calls", completePreemption: "preemptor" },
      {
        name: "schedule the preemptor Pod after the preemption",
        schedulePod: { podName: "preemptor", expectSuccess: true },
      },
    ],
  },
  {
    name: "base async preemption with 1 victim, preemptor gated until preemption API call finishes",
    steps: [
      { name: "create victim", ...victims("1", 1) },
      { name: "create a preemptor Pod", createPod: { pod: pod("preemptor", "4", 100) } },
      {
        name: "schedule the preemptor Pod",
        schedulePod: { podName: "preemptor", expectUnschedulable: true },
      },
      { name: "check the preemptor Pod is in the queue and gated", podGatedInQueue: "preemptor" },
      { name: "check the preemptor Pod making the preemption API calls", podRunningPreemption: 1 },
      { name: "complete the preemption API call", completePreemption: "preemptor" },
      {
        name: "schedule the preemptor Pod again and expect it to be scheduled",
        schedulePod: { podName: "preemptor", expectSuccess: true },
      },
    ],
  },
  {
    name: "Lower priority Pod doesn't take over the place for higher priority Pod that is running the preemption",
    steps: [
      { name: "create scheduled Pod", ...victims("2", 2) },
      { name: "create a preemptor Pod", createPod: { pod: pod("preemptor-high-priority", "4", 100) } },
      {
        name: "schedule the preemptor Pod",
        schedulePod: { podName: "preemptor-high-priority", expectUnschedulable: true },
      },
      { name: "check the pod is in the queue and gated", podGatedInQueue: "preemptor-high-priority" },
      { name: "check the preemptor Pod making the preemption API calls", podRunningPreemption: 2 },
      {
        name: "create a second Pod that is lower priority than the first preemptor Pod",
        createPod: { pod: pod("pod-mid-priority", "4", 50) },
      },
      {
        name: "schedule the mid-priority Pod",
        schedulePod: { podName: "pod-mid-priority", expectUnschedulable: true },
      },
      { name: "complete the preemption API calls", completePreemption: "preemptor-high-priority" },
      {
        name: "schedule the preemptor Pod again",
        schedulePod: { podName: "preemptor-high-priority", expectSuccess: true },
      },
      {
        name: "schedule the mid-priority Pod again",
        schedulePod: { podName: "pod-mid-priority", expectUnschedulable: true },
      },
    ],
  },
  {
    name: "Higher priority Pod takes over the place for lower priority Pod that is running the preemption",
    steps: [
      { name: "create scheduled Pod", ...victims("1", 4) },
      { name: "create a preemptor Pod", createPod: { pod: pod("preemptor-high-priority", "4", 100) } },
      {
        name: "schedule the preemptor Pod",
        schedulePod: { podName: "preemptor-high-priority", expectUnschedulable: true },
      },
      { name: "check the pod is in the queue and gated", podGatedInQueue: "preemptor-high-priority" },
      { name: "check the preemptor Pod making the preemption API calls", podRunningPreemption: 4 },
      {
        name: "create a second Pod that is higher priority than the first preemptor Pod",
        createPod: { pod: pod("preemptor-super-high-priority", "4", 200) },
      },
      {
        name: "schedule the super-high-priority Pod",
        schedulePod: { podName: "preemptor-super-high-priority", expectUnschedulable: true },
      },
      { name: "check the super-high-priority Pod making the preemption API calls", podRunningPreemption: 5 },
      {
        name: "check the super-high-priority pod is in the queue and gated",
        podGatedInQueue: "preemptor-super-high-priority",
      },
      {
        name: "complete the preemption API calls of super-high-priority",
        completePreemption: "preemptor-super-high-priority",
      },
      {
        name: "complete the preemption API calls of high-priority",
        completePreemption: "preemptor-high-priority",
      },
      {
        name: "schedule the super-high-priority Pod",
        schedulePod: { podName: "preemptor-super-high-priority", expectSuccess: true },
      },
      {
        name: "schedule the high-priority Pod",
        schedulePod: { podName: "preemptor-high-priority", expectUnschedulable: true },
      },
    ],
  },
  {
    name: "Lower priority Pod can select the same place where the higher priority Pod is preempting if the node is big enough",
    steps: [
      { name: "create scheduled Pod", ...victims("1", 4) },
      { name: "create a preemptor Pod", createPod: { pod: pod("preemptor-high-priority", "2", 100) } },
      {
        name: "schedule the preemptor Pod",
        schedulePod: { podName: "preemptor-high-priority", expectUnschedulable: true },
      },
      { name: "check the pod is in the queue and gated", podGatedInQueue: "preemptor-high-priority" },
      { name: "check the preemptor Pod making the preemption API calls", podRunningPreemption: 4 },
      {
        name: "create a second Pod that is lower priority than the first preemptor Pod",
        createPod: { pod: pod("preemptor-mid-priority", "2", 50) },
      },
      {
        name: "schedule the mid-priority Pod",
        schedulePod: { podName: "preemptor-mid-priority", expectUnschedulable: true },
      },
      {
        name: "check the mid-priority pod is in the queue and gated",
        podGatedInQueue: "preemptor-mid-priority",
      },
      { name: "check the mid-priority Pod making the preemption API calls", podRunningPreemption: 5 },
      { name: "complete the preemption API calls", completePreemption: "preemptor-mid-priority" },
      { name: "complete the preemption API calls", completePreemption: "preemptor-high-priority" },
      {
        name: "schedule the preemptor Pod again",
        schedulePod: { podName: "preemptor-high-priority", expectSuccess: true },
      },
      {
        name: "schedule the mid-priority Pod again",
        schedulePod: { podName: "preemptor-mid-priority", expectSuccess: true },
      },
    ],
  },
];

/** What the test reaches of DefaultPreemption (this package does not depend on the plugin's). */
interface PreemptionPlugin {
  evaluator: {
    preemptPod: (c: { name: string }, preemptor: Pod, victim: Pod) => Promise<Error | null>;
    isPodRunningPreemption(uid: string): boolean;
  };
}

/** Blocks each preemptor's PreemptPod calls until its preemption is completed (upstream's done channels). */
class PreemptionGates {
  private readonly gates = new Map<string, { wait: Promise<void>; open: () => void }>();
  gate(preemptor: string): Promise<void> {
    let g = this.gates.get(preemptor);
    if (!g) {
      let open = () => {};
      const wait = new Promise<void>((resolve) => {
        open = resolve;
      });
      g = { wait, open };
      this.gates.set(preemptor, g);
    }
    return g.wait;
  }
  complete(preemptor: string): void {
    this.gate(preemptor);
    this.gates.get(preemptor)?.open();
  }
}

function current(s: SimulationSession, name: string): Pod {
  const p = s.cluster.pods.get("default", name);
  if (!p) throw new Error(`pod ${name} does not exist`);
  return p;
}

/**
 * The API latency of the victims' DELETE calls (simulated ms). Upstream's informers deliver the
 * deletions after the test has released every preemption it completes in a row; here the
 * deletions wait on the simulated clock, which the next schedulePod step lets pass.
 */
const deleteLatencyMs = 100;

describe("TestAsyncPreemption", () => {
  for (const tt of tests) {
    it(tt.name, async () => {
      const s = await openSession(
        defaultConfig({ registry: inTreeRegistry }),
        { nodes: [makeNode().name("node").capacity({ cpu: "4", pods: "32" }).obj()] },
        { deleteLatencyMs },
      );
      const plugin = s.sched.profiles
        .get("default-scheduler")
        ?.plugin("DefaultPreemption") as unknown as PreemptionPlugin;
      const gates = new PreemptionGates();
      const preemptPod = plugin.evaluator.preemptPod;
      plugin.evaluator.preemptPod = async (c, preemptor, victim) => {
        await gates.gate(preemptor.metadata?.name ?? "");
        return preemptPod(c, preemptor, victim);
      };
      const createdPods: Pod[] = [];
      for (const step of tt.steps) {
        if ("createPod" in step) {
          const { pod: p, count } = step.createPod;
          for (let i = 0; i < (count ?? 1); i++) {
            const name = count === undefined ? (p.metadata?.name ?? "") : `${p.metadata?.name}${i}`;
            addPods(s, { ...p, metadata: { ...p.metadata, name, uid: name } });
            createdPods.push(current(s, name));
          }
        } else if ("schedulePod" in step) {
          const { podName, expectSuccess, expectUnschedulable } = step.schedulePod;
          // Upstream disables backoff: let simulated time pass until backoffQ is flushed.
          // At most the longest backoff (10 s): beyond it, only the pool's periodic flush moves pods.
          const until = s.clock.now() + 10_000;
          const waiting = () =>
            s.clock.now() < until && (s.sched.queue.counts().backoff > 0 || !s.sched.queue.hasActive());
          for (let next = s.clock.nextTimerAt(); waiting() && next !== null; ) {
            s.clock.advanceTo(next);
            // Off-cycle work continues (and may set the next timer: the last victim's DELETE).
            await s.settle();
            next = s.clock.nextTimerAt();
          }
          const key = podKey(current(s, podName));
          const before = s.attempts.get(key) ?? 0;
          await s.sched.scheduleOne();
          await s.sched.waitForBindings();
          await s.settle();
          expect(s.attempts.get(key) ?? 0, `${step.name}: ${podName} was the pod attempted`).toBe(before + 1);
          if (expectSuccess) expect(boundNode(s, podName), step.name).toBe("node");
          if (expectUnschedulable) {
            expect(boundNode(s, podName), step.name).toBeUndefined();
            expect(s.lastFailure.get(key)?.reason, step.name).toBe("Unschedulable");
          }
        } else if ("podGatedInQueue" in step) {
          const p = current(s, step.podGatedInQueue);
          expect(s.sched.queue.getPod(p), `${step.name}: in the queue`).toBeDefined();
          // Activating it leaves it in the unschedulable pool, gated at PreEnqueue.
          s.sched.queue.activate(new Map([[step.podGatedInQueue, p]]));
          const qpi = s.sched.queue.getPod(p);
          expect(qpi?.gatingPlugin, step.name).toBe("DefaultPreemption");
          expect(s.sched.queue.hasActive(), step.name).toBe(false);
        } else if ("podRunningPreemption" in step) {
          const p = createdPods[step.podRunningPreemption] as Pod;
          expect(plugin.evaluator.isPodRunningPreemption(podUID(p)), step.name).toBe(true);
        } else {
          gates.complete(step.completePreemption);
          await s.settle();
        }
      }
    });
  }
});
