// upstream: test/integration/scheduler/preemption/nominatednodename/nominatednodename_test.go
// (kubernetes/kubernetes at 10d7b42b, v1.37 line) on the assembled scheduler of the simulate path:
// TestNominatedNode (4 of 5 cases) and TestPreferNominatedNode (both cases).
//
// The simulator deletes preemption victims at once, where upstream's victims stay terminating
// until the test force-deletes them (podNamesToDelete); the steps are therefore driven one
// scheduling cycle at a time so that each pod sees the cluster upstream's pod sees:
// - the preemptor's cycle nominates it (upstream's postCheck WaitForNominatedNodeName);
// - the cluster change of the case (a new pod, a deleted node) happens before the nominated pod
//   is tried again; the victims the test would force-delete are already gone;
// - at the end the preemptor's nomination is cleared (NominatedNodeNameForExpectation off, as
//   upstream runs it).
// Not ported: "mid-priority pod preempts low-priority pod, followed by a high-priority pod with
// another preemption" — its high-priority pod needs a second preemption only because the first
// victims are still terminating on the node; with victims gone it fits without one, so the case's
// postCheck (the high-priority pod nominated) cannot hold in the simulator.
// TestPreferNominatedNode wraps NextPod to set status.nominatedNodeName = node-1 on every popped
// pod; here the preemptor is created with that nomination.
import type { Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { Code, definePlugin, type Registry, Status } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { SimulationSession } from "../simulate";
import { addPods, boundNode, configOf, openSession } from "./integration-cluster.test-util";

const lowPriority = 100;
const mediumPriority = 200;
const highPriority = 300;
const pause = "registry.k8s.io/pause:3.10";

const alwaysFailPlugin = "alwaysFailPlugin";
const doNotFailMe = "do-not-fail-me";
/** upstream alwaysFail: PreBind fails with Unschedulable unless the pod's name contains `do-not-fail-me`. */
const alwaysFail = definePlugin<unknown>({
  name: alwaysFailPlugin,
  factory: () => ({
    name: () => alwaysFailPlugin,
    preBindPreFlight: () => null,
    preBind: async (_s: unknown, p: Pod) =>
      p.metadata?.name?.includes(doNotFailMe) ? null : new Status(Code.Unschedulable),
  }),
});

const pod = (name: string, priority: number, cpu: string) =>
  makePod().name(name).priority(priority).req({ cpu }).container(pause).obj();

function nominatedNodeName(s: SimulationSession, name: string): string | undefined {
  return s.cluster.pods.get("default", name)?.status?.nominatedNodeName || undefined;
}

async function scheduleOne(s: SimulationSession): Promise<void> {
  await s.sched.scheduleOne();
  await s.sched.waitForBindings();
  // Async preemption deletes the victims off the cycle (upstream's tests poll for them).
  await s.settle();
}

describe("TestNominatedNode", () => {
  const cases: {
    name: string;
    initNodes?: ReturnType<ReturnType<typeof makeNode>["obj"]>[];
    nodeCapacity: Record<string, string>;
    low: Pod;
    medium: Pod;
    /** The cluster change between the preemptor's nomination and its next attempt. */
    change: (s: SimulationSession) => Promise<void>;
    registry?: Registry;
    customPlugins?: string;
  }[] = [
    {
      name: "mid-priority pod preempts low-priority pod, followed by a high-priority pod without additional preemption",
      nodeCapacity: { cpu: "2" },
      low: pod("low", lowPriority, "1"),
      medium: pod("medium", mediumPriority, "2"),
      change: async (s) => {
        addPods(s, pod("high", highPriority, "1"));
        await scheduleOne(s);
        // upstream postCheck WaitForPodToSchedule: the high-priority pod fits beside the nomination.
        expect(boundNode(s, "high")).toBe("fake-node");
      },
    },
    {
      name: "mid-priority pod preempts low-priority pod, followed by a node deletion",
      nodeCapacity: { cpu: "1" },
      low: pod("low", lowPriority, "1"),
      medium: pod("medium", mediumPriority, "1"),
      // Deleting the node leaves no node at all (ErrNoNodesAvailable).
      change: async (s) => deleteNode(s, "fake-node"),
    },
    {
      name: "mid-priority pod preempts low-priority pod at the beginning, but could not find candidates after the nominated node is deleted",
      // A tainted node makes findCandidates meet UnschedulableAndUnresolvable.
      initNodes: [
        makeNode()
          .name("taint-node")
          .capacity({ cpu: "1" })
          .taints([{ key: "taint-node", value: "true", effect: "NoSchedule" }])
          .obj(),
      ],
      nodeCapacity: { cpu: "1" },
      low: pod("low", lowPriority, "1"),
      medium: pod("medium", mediumPriority, "1"),
      change: async (s) => deleteNode(s, "fake-node"),
    },
    {
      name: "mid-priority pod preempts low-priority pod, but failed the scheduling unexpectedly",
      nodeCapacity: { cpu: "1" },
      low: pod(`low-${doNotFailMe}`, lowPriority, "1"),
      medium: pod("medium", mediumPriority, "1"),
      change: async () => {},
      registry: new Map([...inTreeRegistry, [alwaysFailPlugin, alwaysFail]]),
      customPlugins: `    preBind: { enabled: [{ name: ${alwaysFailPlugin} }] }\n`,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const registry = tc.registry ?? inTreeRegistry;
      const config = tc.customPlugins
        ? configOf(`profiles:\n- schedulerName: default-scheduler\n  plugins:\n${tc.customPlugins}`, registry)
        : defaultConfig({ registry });
      const s = await openSession(
        config,
        { nodes: [...(tc.initNodes ?? []), makeNode().name("fake-node").capacity(tc.nodeCapacity).obj()] },
        { registry },
      );
      const lowName = tc.low.metadata?.name ?? "";
      addPods(s, tc.low);
      await scheduleOne(s);
      expect(boundNode(s, lowName)).toBe("fake-node");
      addPods(s, tc.medium);
      await scheduleOne(s);
      expect(nominatedNodeName(s, "medium")).toBe("fake-node");
      // The victim upstream force-deletes is gone.
      expect(s.cluster.pods.get("default", lowName)).toBeUndefined();
      await tc.change(s);
      // The medium pod's next attempt (from backoffQ: activeQ is empty).
      await scheduleOne(s);
      expect(s.attempts.get("default/medium")).toBe(2);
      // .status.nominatedNodeName of the medium pod is cleared.
      expect(s.cluster.pods.get("default", "medium")?.spec?.nodeName).toBeUndefined();
      expect(nominatedNodeName(s, "medium")).toBeUndefined();
    });
  }
});

function deleteNode(s: SimulationSession, name: string): void {
  const n = s.cluster.nodes.get(name);
  if (!n) throw new Error(`node ${name} does not exist`);
  s.cluster.delete("Node", n);
}

describe("TestPreferNominatedNode", () => {
  const defaultNodeRes = { pods: "32", cpu: "500m", memory: "500" };
  const defaultPodRes = { cpu: "100m", memory: "100" };
  const cases: { name: string; nodeNames: string[]; existingPods: Pod[]; pod: Pod; runningNode: string }[] = [
    {
      name: "nominated node released all resource, preemptor is scheduled to the nominated node",
      nodeNames: ["node-1", "node-2"],
      existingPods: [
        makePod()
          .name("low-pod1")
          .priority(lowPriority)
          .node("node-2")
          .req(defaultPodRes)
          .container(pause)
          .obj(),
      ],
      pod: makePod()
        .name("preemptor-pod")
        .priority(highPriority)
        .req({ cpu: "500m", memory: "200" })
        .container(pause)
        .obj(),
      runningNode: "node-1",
    },
    {
      name: "nominated node cannot pass all the filters, preemptor should find a different node",
      nodeNames: ["node-1", "node-2"],
      existingPods: [
        makePod()
          .name("low-pod")
          .priority(lowPriority)
          .req(defaultPodRes)
          .node("node-1")
          .container(pause)
          .obj(),
      ],
      pod: makePod()
        .name("preemptor-pod1")
        .priority(highPriority)
        .req({ cpu: "500m", memory: "200" })
        .container(pause)
        .obj(),
      runningNode: "node-2",
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const s = await openSession(defaultConfig({ registry: inTreeRegistry }), {
        nodes: tc.nodeNames.map((n) => makeNode().name(n).capacity(defaultNodeRes).obj()),
        pods: tc.existingPods,
      });
      // As if preemption had already run and nominated node-1.
      addPods(s, { ...tc.pod, status: { ...tc.pod.status, nominatedNodeName: "node-1" } });
      await s.drain();
      expect(boundNode(s, tc.pod.metadata?.name ?? "")).toBe(tc.runningNode);
      // No preemption was needed.
      for (const p of tc.existingPods) expect(boundNode(s, p.metadata?.name ?? "")).toBe(p.spec?.nodeName);
    });
  }
});
