// Ports of upstream pkg/scheduler/framework/preemption/preemption_test.go (TestNodesWherePreemptionMightHelp,
// TestDryRunPreemption) and v1.37's executor_test.go (TestPrepareCandidate with async preemption on
// and off, TestIsPodRunningPreemption, TestPrepareCandidateAsyncSetsPreemptingSets,
// TestAsyncPreemptionFailure, TestPreemptPod; their pod-group cases are not ported: no pod-group
// preemption here), run through the Evaluator and its Executor on a harness framework, with a fake
// PreemptionInterface as upstream's FakePostFilterPlugin. Where upstream polls for the goroutine,
// these tests await Executor.settled().
import type { Pod, PodCondition, PodDisruptionBudget } from "@kubesched/api";
import {
  type ClusterClient,
  Code,
  type CycleState,
  type ExtenderVictims,
  type NodeInfo,
  type NodeToStatus,
  type PermitPlugin,
  type PluginDescriptor,
  PodInfo,
  type PodStatusPatch,
  type PreBindPlugin,
  Status,
} from "@kubesched/framework";
import {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
} from "@kubesched/plugin-inter-pod-affinity";
import { ErrReasonPod } from "@kubesched/plugin-node-affinity";
import { ErrReason as NodeNameErrReason } from "@kubesched/plugin-node-name";
import { ErrReasonUnschedulable } from "@kubesched/plugin-node-unschedulable";
import {
  ErrReasonConstraintsNotMatch,
  ErrReasonNodeLabelNotMatch,
} from "@kubesched/plugin-pod-topology-spread";
import { ErrReasonUntoleratedTaint } from "@kubesched/plugin-taint-toleration";
import { ErrReasonDiskConflict } from "@kubesched/plugin-volume-restrictions";
import { ErrReasonConflict as VolumeZoneErrReasonConflict } from "@kubesched/plugin-volume-zone";
import {
  createPluginHarness,
  fakeClock,
  makeContainer,
  makeNode,
  makePod,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { type Candidate, Executor } from "./executor";
import {
  Evaluator,
  type PreemptionInterface,
  pickOneNodeForPreemption,
  type SelectVictimsResult,
} from "./preemption";
import { fakePostFilterPlugin, highPriority, midPriority, nodeToStatus, veryLargeRes } from "./test-util";
import { getEarliestPodStartTime, getPodStartTime } from "./util";

/** upstream FakePostFilterPlugin: the first pod of every node is its only victim. */
class FakePostFilterPlugin implements PreemptionInterface {
  readonly visited: string[] = [];
  constructor(readonly numViolatingVictim = 0) {}
  getOffsetAndNumCandidates(n: number): { offset: number; numCandidates: number } {
    return { offset: 0, numCandidates: n };
  }
  candidatesToVictimsMap(candidates: readonly Candidate[]): Map<string, ExtenderVictims> {
    return new Map(candidates.map((c) => [c.name, c.victims]));
  }
  podEligibleToPreemptOthers(): { eligible: boolean; reason: string } {
    return { eligible: true, reason: "" };
  }
  selectVictimsOnNode(
    _s: CycleState,
    _p: Pod,
    ni: NodeInfo,
    _pdbs: readonly PodDisruptionBudget[],
  ): SelectVictimsResult {
    this.visited.push(ni.nodeName);
    const first = ni.pods[0];
    return { victims: first ? [first.pod] : [], numViolatingVictim: this.numViolatingVictim, status: null };
  }
  orderedScoreFuncs(): null {
    return null;
  }
}

describe("TestNodesWherePreemptionMightHelp", () => {
  const nodeNames = ["node1", "node2", "node3", "node4"];
  const s = (code: Code, reason: string): Status => new Status(code, reason);
  const U = Code.Unschedulable;
  const UAU = Code.UnschedulableAndUnresolvable;
  const tests: Array<{ name: string; nodesStatuses: NodeToStatus; expected: string[] }> = [
    {
      name: "No node should be attempted",
      nodesStatuses: nodeToStatus({
        node1: s(UAU, ErrReasonPod),
        node2: s(UAU, NodeNameErrReason),
        node3: s(UAU, ErrReasonUntoleratedTaint),
        node4: s(UAU, ErrReasonAffinityRulesNotMatch),
      }),
      expected: [],
    },
    {
      name: "ErrReasonAntiAffinityRulesNotMatch should be tried as it indicates that the pod is unschedulable due to inter-pod anti-affinity",
      nodesStatuses: nodeToStatus({
        node1: s(U, ErrReasonAntiAffinityRulesNotMatch),
        node2: s(UAU, NodeNameErrReason),
        node3: s(UAU, ErrReasonUnschedulable),
        node4: s(U, "Unschedulable"),
      }),
      expected: ["node1", "node4"],
    },
    {
      name: "ErrReasonAffinityRulesNotMatch should not be tried as it indicates that the pod is unschedulable due to inter-pod affinity, but ErrReasonAntiAffinityRulesNotMatch should be tried as it indicates that the pod is unschedulable due to inter-pod anti-affinity",
      nodesStatuses: nodeToStatus({
        node1: s(UAU, ErrReasonAffinityRulesNotMatch),
        node2: s(U, ErrReasonAntiAffinityRulesNotMatch),
        node3: s(U, "Unschedulable"),
        node4: s(U, "Unschedulable"),
      }),
      expected: ["node2", "node3", "node4"],
    },
    {
      name: "Mix of failed predicates works fine",
      nodesStatuses: nodeToStatus({
        node1: s(UAU, ErrReasonDiskConflict),
        node2: s(U, "Insufficient memory"),
        node3: s(U, "Unschedulable"),
        node4: s(U, "Unschedulable"),
      }),
      expected: ["node2", "node3", "node4"],
    },
    {
      name: "Node condition errors should be considered unresolvable",
      nodesStatuses: nodeToStatus({
        node1: s(UAU, "node(s) had unknown conditions"),
        node2: s(U, "Unschedulable"),
        node3: s(U, "Unschedulable"),
        node4: s(U, "Unschedulable"),
      }),
      expected: ["node2", "node3", "node4"],
    },
    {
      name: "ErrVolume... errors should not be tried as it indicates that the pod is unschedulable due to no matching volumes for pod on node",
      nodesStatuses: nodeToStatus({
        node1: s(UAU, VolumeZoneErrReasonConflict),
        node2: s(UAU, "node(s) didn't find available persistent volumes to bind"),
        node3: s(UAU, "node(s) didn't match PersistentVolume's node affinity"),
        node4: s(U, "Unschedulable"),
      }),
      expected: ["node4"],
    },
    {
      name: "ErrReasonConstraintsNotMatch should be tried as it indicates that the pod is unschedulable due to topology spread constraints",
      nodesStatuses: nodeToStatus({
        node1: s(U, ErrReasonConstraintsNotMatch),
        node2: s(UAU, NodeNameErrReason),
        node3: s(U, ErrReasonConstraintsNotMatch),
        node4: s(U, "Unschedulable"),
      }),
      expected: ["node1", "node3", "node4"],
    },
    {
      name: "UnschedulableAndUnresolvable status should be skipped but Unschedulable should be tried",
      nodesStatuses: nodeToStatus({
        node1: s(U, ""),
        node2: s(UAU, ""),
        node3: s(U, ""),
        node4: s(UAU, ""),
      }),
      expected: ["node1", "node3"],
    },
    {
      name: "ErrReasonNodeLabelNotMatch should not be tried as it indicates that the pod is unschedulable due to node doesn't have the required label",
      nodesStatuses: nodeToStatus({
        node1: s(U, ""),
        node2: s(UAU, ErrReasonNodeLabelNotMatch),
        node3: s(U, ""),
        node4: s(UAU, ""),
      }),
      expected: ["node1", "node3"],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const pod = makePod().name("p").uid("p").priority(highPriority).obj();
      const h = await createPluginHarness({
        plugin: fakePostFilterPlugin,
        nodes: nodeNames.map((n) => makeNode().name(n).obj()),
        pods: [pod, ...nodeNames.map((n) => makePod().name(`v-${n}`).uid(`v-${n}`).node(n).obj())],
      });
      const fake = new FakePostFilterPlugin();
      const ev = new Evaluator("FakePostFilter", h.framework, fake);
      ev.preemptPod = async () => null;
      await ev.preempt(h.newCycleState(), pod, tt.nodesStatuses);
      expect([...fake.visited].sort()).toEqual(tt.expected);
    });
  }
});

describe("TestDryRunPreemption", () => {
  const tests: Array<{
    name: string;
    numViolatingVictim: number;
    expected: Array<{ name: string; pods: string[]; numPDBViolations: number }>;
  }> = [
    {
      name: "no pdb violation",
      numViolatingVictim: 0,
      expected: [
        { name: "node1", pods: ["p1"], numPDBViolations: 0 },
        { name: "node2", pods: ["p2"], numPDBViolations: 0 },
      ],
    },
    {
      name: "pdb violation on each node",
      numViolatingVictim: 1,
      expected: [
        { name: "node1", pods: ["p1"], numPDBViolations: 1 },
        { name: "node2", pods: ["p2"], numPDBViolations: 1 },
      ],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const h = await createPluginHarness({
        plugin: fakePostFilterPlugin,
        nodes: [
          makeNode().name("node1").capacity(veryLargeRes).obj(),
          makeNode().name("node2").capacity(veryLargeRes).obj(),
        ],
        pods: [
          makePod().name("p1").uid("p1").node("node1").priority(midPriority).obj(),
          makePod().name("p2").uid("p2").node("node2").priority(midPriority).obj(),
        ],
      });
      const pod = makePod().name("p").uid("p").priority(highPriority).obj();
      const ev = new Evaluator(
        "FakePostFilter",
        h.framework,
        new FakePostFilterPlugin(tt.numViolatingVictim),
      );
      const nodeInfos = h.snapshot.nodeInfos().list();
      const { candidates } = ev.dryRunPreemption(h.newCycleState(), pod, nodeInfos, [], 0, nodeInfos.length);
      const got = candidates
        .map((c) => ({
          name: c.name,
          pods: c.victims.pods.map((p) => p.metadata?.name ?? ""),
          numPDBViolations: c.victims.numPDBViolations,
        }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(got).toEqual(tt.expected);
    });
  }
});

/** A small seeded generator: integers in [0, n). */
function lcg(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
}

describe("pickOneNodeForPreemption", () => {
  it("keeps the first node when every criterion ties", () => {
    const v = (): ExtenderVictims => ({ pods: [makePod().name("x").priority(1).obj()], numPDBViolations: 0 });
    const m = new Map([
      ["b", v()],
      ["a", v()],
    ]);
    expect(pickOneNodeForPreemption(m, null, 0)).toBe("b");
  });

  it("equals the criteria applied one by one on fresh reads, over random candidates", () => {
    // The criteria as upstream states them, reading every pod on every call.
    const reference = (m: ReadonlyMap<string, ExtenderVictims>, now: number): string => {
      let candidates = [...m.keys()];
      const v = (n: string) => m.get(n) as ExtenderVictims;
      const funcs: ((n: string) => number)[] = [
        (n) => -v(n).numPDBViolations,
        (n) => (v(n).pods[0] ? -(v(n).pods[0]?.spec?.priority ?? 0) : 0),
        (n) => -v(n).pods.reduce((s, p) => s + (p.spec?.priority ?? 0) + 2 ** 31, 0),
        (n) => -v(n).pods.length,
        (n) => getEarliestPodStartTime(v(n), now) ?? Number.NEGATIVE_INFINITY,
      ];
      for (const f of funcs) {
        const best = Math.max(...candidates.map(f));
        const selected = candidates.filter((n) => f(n) === best);
        if (selected.length === 1) return selected[0] as string;
        if (selected.length > 0) candidates = selected;
      }
      return candidates[0] as string;
    };
    const rnd = lcg(7);
    const now = Date.UTC(2026, 0, 1);
    for (let round = 0; round < 300; round++) {
      const m = new Map<string, ExtenderVictims>();
      const numNodes = 1 + rnd(12);
      for (let i = 0; i < numNodes; i++) {
        const pods = Array.from({ length: 1 + rnd(4) }, (_, k) => {
          const b = makePod()
            .name(`n${i}-p${k}`)
            .priority(rnd(3) - 1);
          // Whole-second start times that repeat across nodes; some pods have not started.
          return rnd(4) === 0 ? b.obj() : b.startTime(new Date(now - 1000 * rnd(5))).obj();
        });
        m.set(`n${i}`, { pods, numPDBViolations: rnd(2) });
      }
      expect(pickOneNodeForPreemption(m, null, now)).toBe(reference(m, now));
    }
  });

  it("Evaluator.selectCandidate reads the dry run's PodInfos and picks as from the pods, over random candidates", async () => {
    const h = await createPluginHarness({ plugin: fakePostFilterPlugin, clock: fakeClock() });
    const ev = new Evaluator("FakePostFilter", h.framework, new FakePostFilterPlugin());
    const now = h.framework.clock().now();
    const rnd = lcg(11);
    for (let round = 0; round < 300; round++) {
      const candidates: Candidate[] = [];
      const m = new Map<string, ExtenderVictims>();
      const numNodes = 2 + rnd(12);
      for (let i = 0; i < numNodes; i++) {
        const pods = Array.from({ length: 1 + rnd(4) }, (_, k) => {
          const b = makePod()
            .name(`n${i}-p${k}`)
            .priority(rnd(3) - 1);
          return rnd(4) === 0 ? b.obj() : b.startTime(new Date(now - 1000 * rnd(5))).obj();
        });
        const victims = { pods, numPDBViolations: rnd(2) };
        m.set(`n${i}`, victims);
        candidates.push({ name: `n${i}`, victims, victimInfos: pods.map((p) => new PodInfo(p)) });
      }
      expect(ev.selectCandidate(candidates)?.name).toBe(pickOneNodeForPreemption(m, null, now));
    }
  });

  it("Evaluator.selectCandidate with the dry run's PodInfos reads no victim's spec or status", async () => {
    const h = await createPluginHarness({ plugin: fakePostFilterPlugin, clock: fakeClock() });
    const ev = new Evaluator("FakePostFilter", h.framework, new FakePostFilterPlugin());
    let reads = 0;
    const counted = (pod: Pod): Pod =>
      new Proxy(pod, {
        get(target, key, receiver) {
          if (key === "spec" || key === "status") reads++;
          return Reflect.get(target, key, receiver);
        },
      });
    // Every criterion ties up to the start times, so all five are evaluated.
    const candidates: Candidate[] = ["a", "b", "c"].map((n, i) => {
      const pods = [0, 1].map((k) =>
        counted(
          makePod()
            .name(`${n}${k}`)
            .priority(1)
            .startTime(new Date(Date.UTC(2026, 0, 1, 0, 0, i + k)))
            .obj(),
        ),
      );
      const victimInfos = pods.map((p) => new PodInfo(p));
      for (const pi of victimInfos) {
        pi.priority();
        pi.startTime();
      }
      return { name: n, victims: { pods, numPDBViolations: 0 }, victimInfos };
    });
    reads = 0;
    expect(ev.selectCandidate(candidates)?.name).toBe("c");
    expect(reads).toBe(0);
  });

  it("getPodStartTime (memoized per start time) equals parsing the start time each time", () => {
    const times = ["2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z", "not a time", "2025-12-31T23:59:59Z"];
    for (let i = 0; i < 40; i++) {
      const t = times[i % times.length] as string;
      const pod = { ...makePod().name(`p${i}`).obj(), status: { startTime: t } };
      expect(getPodStartTime(pod, 5)).toEqual(new Date(t).getTime());
    }
    expect(getPodStartTime(makePod().name("not-started").obj(), 5)).toBe(5);
  });

  it("uses custom score functions in order when given", () => {
    const v = (n: number): ExtenderVictims => ({
      pods: Array.from({ length: n }, (_, i) => makePod().name(`x${i}`).obj()),
      numPDBViolations: 0,
    });
    const m = new Map([
      ["a", v(1)],
      ["b", v(3)],
    ]);
    expect(pickOneNodeForPreemption(m, [(node) => m.get(node)?.pods.length ?? 0], 0)).toBe("b");
  });
});

/**
 * A client that fails per pod, as upstream's fake clientset reactors: "fail-victim" fails both
 * calls, "not-found-victim" is NotFound, deleting a pod the cluster does not have is NotFound
 * (after the call was recorded).
 */
class FakeClient implements ClusterClient {
  readonly deleted: string[] = [];
  readonly patched: Array<{ name: string; patch: PodStatusPatch }> = [];
  constructor(readonly existing: Set<string>) {}
  async bindPod(): Promise<void> {}
  deletionFailure = false;
  patchFailure = false;
  async deletePod(pod: Pod): Promise<void> {
    const name = pod.metadata?.name ?? "";
    if (name === "fail-victim") {
      this.deletionFailure = true;
      throw new Error("delete pod failed");
    }
    if (name === "not-found-victim") throw notFound(name);
    this.deleted.push(name);
    if (!this.existing.has(name)) throw notFound(name);
  }
  async patchPodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    const name = pod.metadata?.name ?? "";
    if (name === "fail-victim") {
      this.patchFailure = true;
      throw new Error("patch pod status failed");
    }
    if (name === "not-found-victim") throw notFound(name);
    this.patched.push({ name, patch });
  }
}

function notFound(name: string): Error {
  return Object.assign(new Error(`pods "${name}" not found`), { reason: "NotFound" });
}

describe("TestPrepareCandidate", () => {
  const node1Name = "node1";
  const defaultSchedulerName = "default-scheduler";
  const condition: PodCondition = {
    type: "DisruptionTarget",
    status: "True",
    reason: "PreemptionByScheduler",
    message: `${defaultSchedulerName}: preempting to accommodate a higher priority pod`,
  };
  const victim = (name: string, uid: string, priority: number, conds?: PodCondition[]): Pod => {
    const w = makePod()
      .name(name)
      .uid(uid)
      .node(node1Name)
      .schedulerName(defaultSchedulerName)
      .priority(priority)
      .containers([makeContainer().name("container1").obj()]);
    if (conds) w.conditions(conds);
    return w.obj();
  };
  const victim1 = victim("victim1", "victim1", midPriority);
  const notFoundVictim1 = victim("not-found-victim", "victim1", midPriority);
  const failVictim = victim("fail-victim", "victim1", midPriority);
  const victim2 = victim("victim2", "victim2", 50000);
  const victim1WithMatchingCondition = victim("victim1", "victim1", midPriority, [condition]);
  const failVictim1WithMatchingCondition = victim("fail-victim", "victim1", midPriority, [condition]);
  const preemptor = makePod()
    .name("preemptor")
    .uid("preemptor")
    .schedulerName(defaultSchedulerName)
    .priority(highPriority)
    .containers([makeContainer().name("container1").obj()])
    .obj();
  const victimWithDeletionTimestamp = makePod()
    .name("victim1-with-deletion-timestamp")
    .uid("victim1-with-deletion-timestamp")
    .node(node1Name)
    .schedulerName(defaultSchedulerName)
    .priority(midPriority)
    .terminating(new Date(Date.now() - 100_000))
    .obj();

  const tests: Array<{
    name: string;
    candidate: Candidate;
    testPods: Pod[];
    /** Any of these is acceptable ("" meaning nothing deleted). */
    expectedDeletedPod: string[];
    expectedDeletionError?: boolean;
    expectedPatchError?: boolean;
    /** Only compared when async preemption is disabled. */
    expectedStatus: string | null;
    /** Only compared when async preemption is enabled. */
    expectedPreemptingMap?: string[];
    expectedActivatedPods?: string[];
  }> = [
    {
      name: "no victims",
      candidate: { name: "", victims: { pods: [], numPDBViolations: 0 } },
      testPods: [victim1],
      expectedDeletedPod: [],
      expectedStatus: null,
    },
    {
      name: "one victim without condition",
      candidate: { name: node1Name, victims: { pods: [victim1], numPDBViolations: 0 } },
      testPods: [victim1],
      expectedDeletedPod: ["victim1"],
      expectedStatus: null,
      expectedPreemptingMap: ["preemptor"],
    },
    {
      name: "one victim, but victim is already being deleted",
      candidate: { name: node1Name, victims: { pods: [victimWithDeletionTimestamp], numPDBViolations: 0 } },
      testPods: [victimWithDeletionTimestamp],
      expectedDeletedPod: [],
      expectedStatus: null,
    },
    {
      name: "one victim, but victim is already deleted",
      candidate: { name: node1Name, victims: { pods: [notFoundVictim1], numPDBViolations: 0 } },
      testPods: [],
      expectedDeletedPod: [],
      expectedStatus: null,
      expectedPreemptingMap: ["preemptor"],
    },
    {
      name: "one victim with same condition",
      candidate: { name: node1Name, victims: { pods: [victim1WithMatchingCondition], numPDBViolations: 0 } },
      testPods: [victim1WithMatchingCondition],
      expectedDeletedPod: ["victim1"],
      expectedStatus: null,
      expectedPreemptingMap: ["preemptor"],
    },
    {
      name: "one victim, not-found victim error is ignored when patching",
      candidate: { name: node1Name, victims: { pods: [victim1WithMatchingCondition], numPDBViolations: 0 } },
      testPods: [],
      expectedDeletedPod: ["victim1"],
      expectedStatus: null,
      expectedPreemptingMap: ["preemptor"],
    },
    {
      name: "one victim, but pod deletion failed",
      candidate: {
        name: node1Name,
        victims: { pods: [failVictim1WithMatchingCondition], numPDBViolations: 0 },
      },
      testPods: [],
      expectedDeletionError: true,
      expectedDeletedPod: [],
      expectedStatus: "delete pod failed",
      expectedPreemptingMap: ["preemptor"],
      expectedActivatedPods: ["preemptor"],
    },
    {
      name: "one victim, not-found victim error is ignored when deleting",
      candidate: { name: node1Name, victims: { pods: [victim1], numPDBViolations: 0 } },
      testPods: [],
      expectedDeletedPod: ["victim1"],
      expectedStatus: null,
      expectedPreemptingMap: ["preemptor"],
    },
    {
      name: "one victim, but patch pod failed",
      candidate: { name: node1Name, victims: { pods: [failVictim], numPDBViolations: 0 } },
      testPods: [],
      expectedPatchError: true,
      expectedDeletedPod: [],
      expectedStatus: "patch pod status failed",
      expectedPreemptingMap: ["preemptor"],
      expectedActivatedPods: ["preemptor"],
    },
    {
      name: "two victims without condition, one passes successfully and the second fails",
      candidate: { name: node1Name, victims: { pods: [failVictim, victim2], numPDBViolations: 0 } },
      testPods: [victim1],
      expectedPatchError: true,
      // The first victim could fail before the deletion of the second victim happens,
      // which results in the second victim not being deleted.
      expectedDeletedPod: ["victim2", ""],
      expectedStatus: "patch pod status failed",
      expectedPreemptingMap: ["preemptor"],
      expectedActivatedPods: ["preemptor"],
    },
    {
      name: "metrics: pod preemptor with PDB violations",
      candidate: { name: node1Name, victims: { pods: [victim1], numPDBViolations: 3 } },
      testPods: [victim1],
      expectedDeletedPod: ["victim1"],
      expectedStatus: null,
      expectedPreemptingMap: ["preemptor"],
    },
  ];
  for (const asyncPreemptionEnabled of [true, false]) {
    for (const tt of tests) {
      it(`${tt.name} (Async preemption enabled: ${asyncPreemptionEnabled})`, async () => {
        const client = new FakeClient(new Set(tt.testPods.map((p) => p.metadata?.name ?? "")));
        const h = await createPluginHarness({
          plugin: fakePostFilterPlugin,
          nodes: [makeNode().name(node1Name).capacity(veryLargeRes).obj()],
          pods: [...tt.testPods, preemptor],
          client,
        });
        const activated: string[] = [];
        h.framework.setActivator({ activate: (pods) => activated.push(...pods.keys()) });
        const executor = new Executor("test-plugin", h.framework);
        if (asyncPreemptionEnabled) {
          executor.prepareCandidateAsync(tt.candidate, preemptor);
          // The preempting map is registered synchronously.
          expect([...executor.preempting]).toEqual(tt.expectedPreemptingMap ?? []);
          await executor.settled();
          expect(activated).toEqual(tt.expectedActivatedPods ?? []);
        } else {
          const status = await executor.prepareCandidate(tt.candidate, preemptor);
          if (tt.expectedStatus === null) expect(status).toBeNull();
          else expect(statusSummary(status)).toEqual({ code: "Error", reasons: [tt.expectedStatus] });
        }
        // The preempting map is empty after the preparation in all test cases.
        expect(executor.preempting.size).toBe(0);
        expect(client.deletionFailure).toBe(tt.expectedDeletionError ?? false);
        expect(client.patchFailure).toBe(tt.expectedPatchError ?? false);
        if (tt.expectedDeletedPod.length === 0) {
          expect(client.deleted).toEqual([]);
        } else {
          const got = client.deleted[0] ?? "";
          expect(tt.expectedDeletedPod).toContain(got);
        }
        for (const p of client.patched) {
          expect({ ...p.patch.conditions?.[0], lastTransitionTime: undefined }).toEqual({
            ...condition,
            lastTransitionTime: undefined,
          });
        }
      });
    }
  }
});

describe("TestIsPodRunningPreemption", () => {
  const victim = (name: string, terminating = false): Pod => {
    const w = makePod()
      .namespace("ns")
      .name(name)
      .uid(name)
      .node("node")
      .schedulerName("sch")
      .priority(midPriority);
    if (terminating) w.terminating(new Date(Date.now() - 100_000));
    return w.obj();
  };
  const victim1 = victim("victim1");
  const victim2 = victim("victim2");
  const victimWithDeletionTimestamp = victim("victim-deleted", true);
  const tests: Array<{
    name: string;
    preemptorUID: string;
    preemptingSet: string[];
    lastVictimSet: Record<string, { namespace: string; name: string }>;
    podsInPodLister?: Pod[];
    expectedResult: boolean;
  }> = [
    {
      name: "preemptor not in preemptingSet",
      preemptorUID: "preemptor",
      preemptingSet: [],
      lastVictimSet: {},
      expectedResult: false,
    },
    {
      name: "preemptor not in preemptingSet, lastVictimSet not empty",
      preemptorUID: "preemptor",
      preemptingSet: [],
      lastVictimSet: { preemptor: { namespace: "ns", name: "victim1" } },
      expectedResult: false,
    },
    {
      name: "preemptor in preemptingSet, no lastVictim for preemptor",
      preemptorUID: "preemptor",
      preemptingSet: ["preemptor"],
      lastVictimSet: { otherPod: { namespace: "ns", name: "victim1" } },
      expectedResult: true,
    },
    {
      name: "preemptor in preemptingSet, victim in lastVictimSet, not in PodLister",
      preemptorUID: "preemptor",
      preemptingSet: ["preemptor"],
      lastVictimSet: { preemptor: { namespace: "ns", name: "victim1" } },
      podsInPodLister: [],
      expectedResult: false,
    },
    {
      name: "preemptor in preemptingSet, victim in lastVictimSet and in PodLister",
      preemptorUID: "preemptor",
      preemptingSet: ["preemptor"],
      lastVictimSet: { preemptor: { namespace: "ns", name: "victim1" } },
      podsInPodLister: [victim1, victim2],
      expectedResult: true,
    },
    {
      name: "preemptor in preemptingSet, victim in lastVictimSet and in PodLister with deletion timestamp",
      preemptorUID: "preemptor",
      preemptingSet: ["preemptor"],
      lastVictimSet: { preemptor: { namespace: "ns", name: "victim-deleted" } },
      podsInPodLister: [victim1, victimWithDeletionTimestamp],
      expectedResult: false,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const h = await createPluginHarness({ plugin: fakePostFilterPlugin, pods: tt.podsInPodLister ?? [] });
      const executor = new Executor("test-plugin", h.framework);
      for (const uid of tt.preemptingSet) executor.preempting.add(uid);
      for (const [uid, v] of Object.entries(tt.lastVictimSet))
        executor.lastVictimsPendingPreemption.set(uid, v);
      expect(executor.isPodRunningPreemption(tt.preemptorUID)).toBe(tt.expectedResult);
    });
  }
});

/** A pod of the async tables: on node1, default-scheduler, with one container. */
function asyncTablePod(name: string, priority: number, node = "node1"): Pod {
  return makePod()
    .name(name)
    .uid(name)
    .node(node)
    .schedulerName("default-scheduler")
    .priority(priority)
    .containers([makeContainer().name("container1").obj()])
    .obj();
}

describe("TestPrepareCandidateAsyncSetsPreemptingSets", () => {
  const victim1 = asyncTablePod("victim1", midPriority);
  const victim2 = asyncTablePod("victim2", midPriority);
  const preemptor = makePod()
    .name("preemptor")
    .uid("preemptor")
    .schedulerName("default-scheduler")
    .priority(highPriority)
    .containers([makeContainer().name("container1").obj()])
    .obj();
  const tests: Array<{ name: string; candidate: Candidate; lastVictim: Pod | null }> = [
    {
      name: "no victims",
      candidate: { name: "", victims: { pods: [], numPDBViolations: 0 } },
      lastVictim: null,
    },
    {
      name: "one victim",
      candidate: { name: "node1", victims: { pods: [victim1], numPDBViolations: 0 } },
      lastVictim: victim1,
    },
    {
      name: "two victims",
      candidate: { name: "node1", victims: { pods: [victim1, victim2], numPDBViolations: 0 } },
      lastVictim: victim2,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const h = await createPluginHarness({
        plugin: fakePostFilterPlugin,
        nodes: [makeNode().name("node1").capacity(veryLargeRes).obj()],
        pods: [victim1, victim2],
      });
      const executor = new Executor("test-plugin", h.framework);
      // Counts PreemptPod calls, to check that the last victim is preempted after the others.
      let preemptPodCallsCounter = 0;
      const preemptFunc = executor.preemptPod;
      const victimCount = tt.candidate.victims.pods.length;
      executor.preemptPod = (c, p, victim) => {
        preemptPodCallsCounter++;
        expect(executor.preempting.has("preemptor"), `preempting before ${victim.metadata?.name}`).toBe(true);
        if (victim.metadata?.name === tt.lastVictim?.metadata?.name) {
          expect(preemptPodCallsCounter, "the last victim is preempted last").toBe(victimCount);
          expect(executor.lastVictimsPendingPreemption.get("preemptor")?.name).toBe(
            tt.lastVictim?.metadata?.name,
          );
        } else {
          expect(preemptPodCallsCounter).toBeLessThan(victimCount);
          expect(executor.lastVictimsPendingPreemption.has("preemptor")).toBe(false);
        }
        return preemptFunc(c, p, victim);
      };
      expect(executor.preempting.size).toBe(0);
      expect(executor.lastVictimsPendingPreemption.size).toBe(0);
      executor.prepareCandidateAsync(tt.candidate, preemptor);
      await executor.settled();
      expect(executor.preempting.has("preemptor")).toBe(false);
      expect(executor.lastVictimsPendingPreemption.has("preemptor")).toBe(false);
      expect(preemptPodCallsCounter).toBe(victimCount);
    });
  }
});

describe("TestAsyncPreemptionFailure", () => {
  const failVictimNamePrefix = "fail-victim";
  const preemptorPod = asyncTablePod("preemptor", highPriority);
  const makeVictim = (name: string) => asyncTablePod(name, midPriority);
  const tests: Array<{
    name: string;
    victims: Pod[];
    expectSuccessfulPreemption: boolean;
    expectPreemptionAttemptForLastVictim: boolean;
  }> = [
    {
      name: "Failure with a single victim",
      victims: [makeVictim(failVictimNamePrefix)],
      expectSuccessfulPreemption: false,
      expectPreemptionAttemptForLastVictim: true,
    },
    {
      name: "Success with a single victim",
      victims: [makeVictim("victim1")],
      expectSuccessfulPreemption: true,
      expectPreemptionAttemptForLastVictim: true,
    },
    {
      name: "Failure in first of three victims",
      victims: [makeVictim(failVictimNamePrefix), makeVictim("victim2"), makeVictim("victim3")],
      expectSuccessfulPreemption: false,
      expectPreemptionAttemptForLastVictim: false,
    },
    {
      name: "Failure in second of three victims",
      victims: [makeVictim("victim1"), makeVictim(failVictimNamePrefix), makeVictim("victim3")],
      expectSuccessfulPreemption: false,
      expectPreemptionAttemptForLastVictim: false,
    },
    {
      name: "Failure in first two of three victims",
      victims: [
        makeVictim(`${failVictimNamePrefix}1`),
        makeVictim(`${failVictimNamePrefix}2`),
        makeVictim("victim3"),
      ],
      expectSuccessfulPreemption: false,
      expectPreemptionAttemptForLastVictim: false,
    },
    {
      name: "Failure in third of three victims",
      victims: [makeVictim("victim1"), makeVictim("victim2"), makeVictim(failVictimNamePrefix)],
      expectSuccessfulPreemption: false,
      expectPreemptionAttemptForLastVictim: true,
    },
    {
      name: "Success with three victims",
      victims: [makeVictim("victim1"), makeVictim("victim2"), makeVictim("victim3")],
      expectSuccessfulPreemption: true,
      expectPreemptionAttemptForLastVictim: true,
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const preemptionAttemptedPods = new Set<string>();
      const deletedPods = new Set<string>();
      const client: ClusterClient = {
        bindPod: async () => {},
        patchPodStatus: async () => {},
        deletePod: async (pod) => {
          const name = pod.metadata?.name ?? "";
          preemptionAttemptedPods.add(name);
          if (name.startsWith(failVictimNamePrefix)) throw new Error("delete pod failed");
          deletedPods.add(name);
        },
      };
      const h = await createPluginHarness({
        plugin: fakePostFilterPlugin,
        nodes: [makeNode().name("node1").obj()],
        pods: [preemptorPod, ...tt.victims],
        client,
      });
      const activated: string[] = [];
      h.framework.setActivator({ activate: (pods) => activated.push(...pods.keys()) });
      const executor = new Executor("test-plugin", h.framework);
      executor.prepareCandidateAsync(
        { name: "node1", victims: { pods: tt.victims, numPDBViolations: 0 } },
        preemptorPod,
      );
      await executor.settled();
      expect(executor.preempting.size).toBe(0);

      const lastVictimName = tt.victims[tt.victims.length - 1]?.metadata?.name ?? "";
      expect(preemptionAttemptedPods.has(lastVictimName), "last victim's preemption attempted").toBe(
        tt.expectPreemptionAttemptForLastVictim,
      );
      // The last victim's preemption is attempted iff every preceding victim was preempted.
      const precedingVictimsPreempted = tt.victims
        .slice(0, -1)
        .every(
          (v) =>
            preemptionAttemptedPods.has(v.metadata?.name ?? "") && deletedPods.has(v.metadata?.name ?? ""),
        );
      expect(preemptionAttemptedPods.has(lastVictimName)).toBe(precedingVictimsPreempted);
      // The preemptor is activated iff the async preemption fails.
      expect(activated.includes("preemptor"), "preemptor activated").toBe(!tt.expectSuccessfulPreemption);
      expect(deletedPods.has(lastVictimName), "last victim deleted").toBe(tt.expectSuccessfulPreemption);
    });
  }
});

describe("TestPreemptPod", () => {
  // upstream executor_test.go TestPreemptPod: the victim in PreBind has its binding cancelled, the
  // victim waiting at Permit is rejected there, both without API calls; any other victim is
  // patched and deleted. Run through prepareCandidate (PreemptPod is the evaluator's own step).
  const nodeName = "fake-node";
  const preemptorPod = makePod().name("p").uid("p").priority(highPriority).obj();
  const victimPod = makePod().name("v").uid("v").priority(midPriority).obj();
  const waitingPermitPluginName = "waitingPermitPlugin";
  const waitingPermitPlugin: PluginDescriptor = {
    name: waitingPermitPluginName,
    factory: (): PermitPlugin => ({
      name: () => waitingPermitPluginName,
      permit: () => ({ status: new Status(Code.Wait), timeoutMs: 10_000 }),
    }),
  };
  /** A PreBind plugin that blocks until the binding is cancelled (upstream: until ctx is done). */
  const blockingPreBindPluginName = "blockingPreBind";
  const blockingPreBindPlugin: PluginDescriptor = {
    name: blockingPreBindPluginName,
    factory: (): PreBindPlugin => ({
      name: () => blockingPreBindPluginName,
      preBindPreFlight: () => null,
      preBind: () => new Promise<Status | null>(() => {}),
    }),
  };
  const tests: {
    name: string;
    addVictimToPrebind: boolean;
    addVictimToWaiting: boolean;
    expectCancel: boolean;
    expectedActions: string[];
  }[] = [
    {
      name: "victim is in preBind, context should be cancelled",
      addVictimToPrebind: true,
      addVictimToWaiting: false,
      expectCancel: true,
      expectedActions: [],
    },
    {
      name: "victim is in waiting pods, it should be rejected (no calls to apiserver)",
      addVictimToPrebind: false,
      addVictimToWaiting: true,
      expectCancel: false,
      expectedActions: [],
    },
    {
      name: "victim is not in waiting/preBind pods, pod should be deleted",
      addVictimToPrebind: false,
      addVictimToWaiting: false,
      expectCancel: false,
      expectedActions: ["patchStatus", "delete"],
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const h = await createPluginHarness({
        plugin: fakePostFilterPlugin,
        nodes: [makeNode().name(nodeName).obj()],
        pods: [preemptorPod, victimPod],
        extraPlugins: [waitingPermitPlugin, blockingPreBindPlugin],
        clock: fakeClock(),
      });
      let preBind: Promise<Status | null> | null = null;
      if (tt.addVictimToPrebind) {
        preBind = h.framework.runPreBindPlugins(h.newCycleState(), victimPod, nodeName);
        expect(h.framework.getPodInPreBind("v")).toBeDefined();
      }
      let waited: Promise<Status | null> | null = null;
      if (tt.addVictimToWaiting) {
        const st = h.framework.runPermitPlugins(h.newCycleState(), victimPod, nodeName);
        expect(statusSummary(st).code, "the victim waits").toBe("Wait");
        waited = h.framework.waitOnPermit(victimPod);
      }
      const ev = new Evaluator("DefaultPreemption", h.framework, new FakePostFilterPlugin());
      const status = await ev.executor.prepareCandidate(
        { name: nodeName, victims: { pods: [victimPod], numPDBViolations: 0 } },
        preemptorPod,
      );
      expect(status).toBeNull();
      if (tt.expectCancel) {
        expect(statusSummary(await preBind), "the binding was cancelled").toEqual({
          code: "Error",
          reasons: [`running PreBind plugin "${blockingPreBindPluginName}": preempted by DefaultPreemption`],
        });
      }
      if (waited) {
        // The waiting pod was preempted by "DefaultPreemption" with the message "preempted".
        const w = await waited;
        expect(statusSummary(w)).toEqual({
          code: "Error",
          reasons: ["waiting on permit for pod: preempted"],
        });
        expect(w?.plugin).toBe("DefaultPreemption");
      }
      expect(h.client.calls.map((c) => c.verb)).toEqual(tt.expectedActions);
      // Not in upstream's table: the Preempted event, "(in kube-scheduler memory)." when no API call.
      const inMemory = tt.expectedActions.length === 0 ? " (in kube-scheduler memory)." : "";
      expect(
        h.events.map((e) => [e.regarding.metadata?.name, e.related?.metadata?.name, e.reason, e.note]),
      ).toEqual([["v", "p", "Preempted", `Preempted by pod p on node ${nodeName}${inMemory}`]]);
    });
  }
});
