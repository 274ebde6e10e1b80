// upstream: test/integration/scheduler/preemption/misc/miscpreemption_test.go (kubernetes/kubernetes
// at 055fd392, v1.37 line) on the assembled scheduler of the simulate path: TestNonPreemption,
// TestDisablePreemption, TestPodPriorityResolution, TestPreemptionStarvation, TestPreemptionRaces,
// TestPDBInPreemption, TestReadWriteOncePodPreemption, every case.
//
// How the simulator differs from upstream's test cluster, and what that changes:
// - Upstream runs each case with SchedulerAsyncPreemption (and ClearingNominatedNodeNameAfterBinding)
//   on and off; each case runs once here with the release's defaults (async preemption on: a step
//   lets the off-cycle deletions finish, as upstream's tests poll for them).
// - Victims are deleted at once (a zero grace period), where upstream's victims may stay
//   terminating; the assertions are upstream's (evicted or not, scheduled or not, nominated or not).
// - TestPDBInPreemption: upstream starts the disruption controller and waits until each PDB's
//   status counts its pods (waitForPDBsStable); here each PDB carries the status the controller
//   would write (currentHealthy = the pods it selects, disruptionsAllowed = currentHealthy −
//   minAvailable, at least 0).
// - TestPodPriorityResolution: upstream's API server rejects a pod naming an unknown PriorityClass
//   with `pods "…" is forbidden: no PriorityClass with name foo was found`; the simulator's
//   admission reports the same reason for the object it loads.
// - TestPreemptionRaces repeats its case 5 times in one namespace; here each repetition is a fresh
//   session (the simulator is deterministic, so the repetitions only re-check the same order).
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  PodSpec,
} from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import {
  makeNode,
  makePDB,
  makePersistentVolume,
  makePersistentVolumeClaim,
  makePod,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { AdmissionError } from "../admission";
import type { SimulationSession } from "../simulate";
import { addPods, boundNode, configOf, create, openSession, run } from "./integration-cluster.test-util";

type Volume = NonNullable<PodSpec["volumes"]>[number];

const lowPriority = 100;
const mediumPriority = 200;
const highPriority = 300;
const pause = "registry.k8s.io/pause:3.10";
const defaultConfigOf = () => defaultConfig({ registry: inTreeRegistry });

interface PausePodConfig {
  name: string;
  namespace?: string;
  priority?: number;
  priorityClassName?: string;
  /** cpu (milli) and memory (bytes) requests. */
  requests?: { cpu: string; memory: string };
  labels?: Record<string, string>;
  nodeName?: string;
  volumes?: Volume[];
  preemptionPolicy?: "PreemptLowerPriority" | "Never";
}

/** upstream testutils.InitPausePod. */
function initPausePod(c: PausePodConfig): Pod {
  const w = makePod()
    .name(c.name)
    .namespace(c.namespace ?? "default")
    .container(pause);
  if (c.priority !== undefined) w.priority(c.priority);
  if (c.priorityClassName) w.priorityClassName(c.priorityClassName);
  if (c.requests) w.req(c.requests);
  if (c.labels) w.labels(c.labels);
  if (c.nodeName) w.node(c.nodeName);
  if (c.volumes) w.volumes(c.volumes);
  if (c.preemptionPolicy) w.preemptionPolicy(c.preemptionPolicy);
  return w.obj();
}

const nodeRes = { pods: "32", cpu: "500m", memory: "500" };
const node1 = () => makeNode().name("node1").capacity(nodeRes).obj();

/** upstream runPausePod: the pod is created and scheduled before the test goes on. */
async function runPausePod(s: SimulationSession, pod: Pod): Promise<void> {
  addPods(s, pod);
  await s.drain();
  const name = pod.metadata?.name ?? "";
  expect(boundNode(s, name, pod.metadata?.namespace ?? "default"), `${name} runs`).toBeDefined();
}

/** upstream podIsGettingEvicted: the pod is gone or terminating. */
function isGettingEvicted(s: SimulationSession, pod: Pod): boolean {
  const cur = s.cluster.pods.get(pod.metadata?.namespace ?? "default", pod.metadata?.name ?? "");
  return cur === undefined || cur.metadata?.deletionTimestamp !== undefined;
}

function nominatedNodeName(s: SimulationSession, name: string): string | undefined {
  return s.cluster.pods.get("default", name)?.status?.nominatedNodeName || undefined;
}

/** One scheduling attempt of the next pod and its binding cycle. */
async function scheduleOne(s: SimulationSession): Promise<void> {
  await s.sched.scheduleOne();
  await s.sched.waitForBindings();
  // Async preemption deletes the victims off the cycle (upstream's tests poll for them).
  await s.settle();
}

describe("TestNonPreemption", () => {
  const victim = initPausePod({
    name: "victim-pod",
    priority: lowPriority,
    requests: { cpu: "400m", memory: "200" },
  });
  const cases: { name: string; preemptionPolicy?: "Never" }[] = [
    { name: "pod preemption will happen" },
    { name: "pod preemption will not happen", preemptionPolicy: "Never" },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const s = await openSession(defaultConfigOf(), { nodes: [node1()] });
      await runPausePod(s, victim);
      addPods(
        s,
        initPausePod({
          name: "preemptor-pod",
          priority: highPriority,
          requests: { cpu: "300m", memory: "200" },
          ...(tc.preemptionPolicy ? { preemptionPolicy: tc.preemptionPolicy } : {}),
        }),
      );
      await scheduleOne(s);
      // The preemptor is nominated exactly when its policy lets it preempt.
      expect(nominatedNodeName(s, "preemptor-pod")).toBe(tc.preemptionPolicy ? undefined : "node1");
      expect(isGettingEvicted(s, victim)).toBe(!tc.preemptionPolicy);
    });
  }
});

describe("TestDisablePreemption", () => {
  it("pod preemption will not happen", async () => {
    // upstream InitTestDisablePreemption: the profile's PostFilter plugins disabled.
    const config = configOf(`profiles:
- schedulerName: default-scheduler
  plugins:
    postFilter: { disabled: [{ name: "*" }] }
`);
    const s = await openSession(config, { nodes: [node1()] });
    const victim = initPausePod({
      name: "victim-pod",
      priority: lowPriority,
      requests: { cpu: "400m", memory: "200" },
    });
    await runPausePod(s, victim);
    addPods(
      s,
      initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        requests: { cpu: "300m", memory: "200" },
      }),
    );
    await s.drain();
    // The preemptor stays unschedulable and is not nominated; the victim keeps running.
    expect(boundNode(s, "preemptor-pod")).toBeUndefined();
    expect(s.lastFailure.get("default/preemptor-pod")?.reason).toBe("Unschedulable");
    expect(nominatedNodeName(s, "preemptor-pod")).toBeUndefined();
    expect(isGettingEvicted(s, victim)).toBe(false);
  });
});

describe("TestPodPriorityResolution", () => {
  const SystemCriticalPriority = 2_000_000_000;
  const cases: {
    name: string;
    priorityClass: string;
    pod: Pod;
    expectedPriority: number;
    expectedError?: string;
  }[] = [
    {
      name: "SystemNodeCritical priority class",
      priorityClass: "system-node-critical",
      expectedPriority: SystemCriticalPriority + 1000,
      pod: initPausePod({
        name: "pod1-system-node-critical",
        namespace: "kube-system",
        priorityClassName: "system-node-critical",
      }),
    },
    {
      name: "SystemClusterCritical priority class",
      priorityClass: "system-cluster-critical",
      expectedPriority: SystemCriticalPriority,
      pod: initPausePod({
        name: "pod2-system-cluster-critical",
        namespace: "kube-system",
        priorityClassName: "system-cluster-critical",
      }),
    },
    {
      name: "Invalid priority class should result in error",
      priorityClass: "foo",
      expectedPriority: SystemCriticalPriority,
      pod: initPausePod({
        name: "pod3-system-cluster-critical",
        namespace: "kube-system",
        priorityClassName: "foo",
      }),
      expectedError: "no PriorityClass with name foo was found",
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const cluster = { namespaces: { "kube-system": {} }, nodes: [node1()], pods: [tc.pod] };
      if (tc.expectedError) {
        const err = await run(defaultConfigOf(), cluster).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AdmissionError);
        expect((err as AdmissionError).errors).toEqual([expect.stringContaining(tc.expectedError)]);
        return;
      }
      const s = await openSession(defaultConfigOf(), cluster);
      await s.drain();
      const pod = s.cluster.pods.get("kube-system", tc.pod.metadata?.name ?? "");
      expect(pod?.spec?.nodeName).toBe("node1");
      expect(pod?.spec?.priority).toBe(tc.expectedPriority);
    });
  }
});

/** upstream mkPriorityPodWithGrace: 100m/100 with a `pod: name` label and the given grace period. */
function mkPriorityPodWithGrace(name: string, priority: number): Pod {
  const p = initPausePod({ name, priority, labels: { pod: name }, requests: { cpu: "100m", memory: "100" } });
  return {
    ...p,
    spec: { ...p.spec, containers: p.spec?.containers ?? [], terminationGracePeriodSeconds: 0 },
  };
}

describe("TestPreemptionStarvation", () => {
  it("starvation test: higher priority pod is scheduled before the lower priority ones", async () => {
    const numExistingPod = 10;
    const numExpectedPending = 5;
    const s = await openSession(defaultConfigOf(), { nodes: [node1()] });
    const running = Array.from({ length: numExistingPod - numExpectedPending }, (_, i) =>
      mkPriorityPodWithGrace(`rpod-${i}`, mediumPriority),
    );
    addPods(s, ...running);
    await s.drain();
    for (const p of running) expect(boundNode(s, p.metadata?.name ?? ""), p.metadata?.name).toBe("node1");
    const pending = Array.from({ length: numExpectedPending }, (_, i) =>
      mkPriorityPodWithGrace(`ppod-${i}`, mediumPriority),
    );
    addPods(s, ...pending);
    await s.drain();
    // Every pending pod is marked unschedulable.
    for (const p of pending) {
      expect(s.lastFailure.get(`default/${p.metadata?.name}`)?.reason, p.metadata?.name).toBe(
        "Unschedulable",
      );
    }
    addPods(
      s,
      initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        requests: { cpu: "300m", memory: "200" },
      }),
    );
    await scheduleOne(s);
    // The preemptor is nominated while its victims go away ...
    expect(nominatedNodeName(s, "preemptor-pod")).toBe("node1");
    await s.drain();
    // ... and it is scheduled before the pending lower priority pods take the room.
    expect(boundNode(s, "preemptor-pod")).toBe("node1");
    for (const p of pending) expect(boundNode(s, p.metadata?.name ?? ""), p.metadata?.name).toBeUndefined();
  });
});

describe("TestPreemptionRaces", () => {
  it("ensures that other pods are not scheduled while preemptor is being marked as nominated (issue #72124)", async () => {
    const numInitialPods = 2;
    const numAdditionalPods = 20;
    const numRepetitions = 5;
    for (let n = 0; n < numRepetitions; n++) {
      const s = await openSession(defaultConfigOf(), {
        nodes: [makeNode().name("node1").capacity({ pods: "100", cpu: "5000m", memory: "5000" }).obj()],
      });
      const initial = Array.from({ length: numInitialPods }, (_, i) =>
        mkPriorityPodWithGrace(`rpod-${i}`, mediumPriority),
      );
      addPods(s, ...initial);
      await s.drain();
      for (const p of initial) expect(boundNode(s, p.metadata?.name ?? "")).toBe("node1");
      addPods(
        s,
        initPausePod({
          name: "preemptor-pod",
          priority: highPriority,
          requests: { cpu: "4900m", memory: "4900" },
        }),
      );
      const additional = Array.from({ length: numAdditionalPods }, (_, i) =>
        mkPriorityPodWithGrace(`ppod-${i}`, mediumPriority),
      );
      addPods(s, ...additional);
      await scheduleOne(s);
      expect(nominatedNodeName(s, "preemptor-pod")).toBe("node1");
      await s.drain();
      expect(boundNode(s, "preemptor-pod")).toBe("node1");
      // The additional pods were never scheduled and are still unschedulable.
      for (const p of additional) {
        const cur = s.cluster.pods.get("default", p.metadata?.name ?? "");
        expect(cur?.spec?.nodeName, p.metadata?.name).toBeUndefined();
        const cond = cur?.status?.conditions?.find((c) => c.type === "PodScheduled");
        if (cond) expect(cond.status, p.metadata?.name).toBe("False");
      }
    }
  });
});

/** upstream mkMinAvailablePDB, with the status the disruption controller writes for `healthy` pods. */
function mkMinAvailablePDB(
  name: string,
  minAvailable: number,
  matchLabels: Record<string, string>,
  healthy: number,
): PodDisruptionBudget {
  const [[k, v]] = Object.entries(matchLabels) as [[string, string]];
  const pdb = makePDB()
    .name(name)
    .namespace("default")
    .minAvailable(minAvailable)
    .matchLabel(k, v)
    .disruptionsAllowed(Math.max(0, healthy - minAvailable))
    .obj();
  return {
    ...pdb,
    status: { ...pdb.status, currentHealthy: healthy, desiredHealthy: minAvailable, expectedPods: healthy },
  };
}

/** upstream addPodConditionReady. */
function ready(pod: Pod): Pod {
  return {
    ...pod,
    status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] },
  };
}

describe("TestPDBInPreemption", () => {
  const defaultPodRes = { cpu: "100m", memory: "100" };
  const cases: {
    name: string;
    nodeCnt: number;
    pdbs: PodDisruptionBudget[];
    existingPods: Pod[];
    pod: Pod;
    preemptedPodIndexes: number[];
  }[] = [
    {
      name: "A non-PDB violating pod is preempted despite its higher priority",
      nodeCnt: 1,
      pdbs: [mkMinAvailablePDB("pdb-1", 2, { foo: "bar" }, 2)],
      existingPods: [
        initPausePod({
          name: "low-pod1",
          priority: lowPriority,
          requests: defaultPodRes,
          labels: { foo: "bar" },
        }),
        initPausePod({
          name: "low-pod2",
          priority: lowPriority,
          requests: defaultPodRes,
          labels: { foo: "bar" },
        }),
        initPausePod({ name: "mid-pod3", priority: mediumPriority, requests: defaultPodRes }),
      ],
      pod: initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        requests: { cpu: "300m", memory: "200" },
      }),
      preemptedPodIndexes: [2],
    },
    {
      name: "A node without any PDB violating pods is preferred for preemption",
      nodeCnt: 2,
      pdbs: [mkMinAvailablePDB("pdb-1", 2, { foo: "bar" }, 1)],
      existingPods: [
        initPausePod({
          name: "low-pod1",
          priority: lowPriority,
          requests: defaultPodRes,
          nodeName: "node-1",
          labels: { foo: "bar" },
        }),
        initPausePod({
          name: "mid-pod2",
          priority: mediumPriority,
          nodeName: "node-2",
          requests: defaultPodRes,
        }),
      ],
      pod: initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        requests: { cpu: "500m", memory: "200" },
      }),
      preemptedPodIndexes: [1],
    },
    {
      name: "A node with fewer PDB violating pods is preferred for preemption",
      nodeCnt: 3,
      pdbs: [
        mkMinAvailablePDB("pdb-1", 2, { foo1: "bar" }, 1),
        mkMinAvailablePDB("pdb-2", 2, { foo2: "bar" }, 5),
      ],
      existingPods: [
        initPausePod({
          name: "low-pod1",
          priority: lowPriority,
          requests: defaultPodRes,
          nodeName: "node-1",
          labels: { foo1: "bar" },
        }),
        initPausePod({
          name: "mid-pod1",
          priority: mediumPriority,
          requests: defaultPodRes,
          nodeName: "node-1",
        }),
        initPausePod({
          name: "low-pod2",
          priority: lowPriority,
          requests: defaultPodRes,
          nodeName: "node-2",
          labels: { foo2: "bar" },
        }),
        initPausePod({
          name: "mid-pod2",
          priority: mediumPriority,
          requests: defaultPodRes,
          nodeName: "node-2",
          labels: { foo2: "bar" },
        }),
        initPausePod({
          name: "low-pod4",
          priority: lowPriority,
          requests: defaultPodRes,
          nodeName: "node-3",
          labels: { foo2: "bar" },
        }),
        initPausePod({
          name: "low-pod5",
          priority: lowPriority,
          requests: defaultPodRes,
          nodeName: "node-3",
          labels: { foo2: "bar" },
        }),
        initPausePod({
          name: "low-pod6",
          priority: lowPriority,
          requests: defaultPodRes,
          nodeName: "node-3",
          labels: { foo2: "bar" },
        }),
      ],
      pod: initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        requests: { cpu: "500m", memory: "400" },
      }),
      // node-3: no PDB is violated there, and its victims have lower priority than node-2's.
      preemptedPodIndexes: [4, 5, 6],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const nodes = Array.from({ length: tc.nodeCnt }, (_, i) =>
        makeNode()
          .name(`node-${i + 1}`)
          .capacity(nodeRes)
          .obj(),
      );
      const s = await openSession(defaultConfigOf(), { nodes });
      for (const p of tc.existingPods) await runPausePod(s, ready(p));
      create(s, { podDisruptionBudgets: tc.pdbs });
      addPods(s, tc.pod);
      await s.drain();
      tc.existingPods.forEach((p, i) => {
        expect(isGettingEvicted(s, p), `${p.metadata?.name} evicted`).toBe(
          tc.preemptedPodIndexes.includes(i),
        );
      });
      expect(boundNode(s, "preemptor-pod")).toBeDefined();
    });
  }
});

describe("TestReadWriteOncePodPreemption", () => {
  const storage = { storage: "1Mi" };
  const rwopPV = (name: string, path: string): PersistentVolume =>
    makePersistentVolume()
      .name(name)
      .accessModes(["ReadWriteOncePod"])
      .capacity(storage)
      .hostPathVolumeSource({ path, type: "DirectoryOrCreate" })
      .obj();
  // The annotation and the volume name make the claim bound.
  const rwopPVC = (name: string, volumeName: string): PersistentVolumeClaim =>
    makePersistentVolumeClaim()
      .name(name)
      .namespace("default")
      .annotation("pv.kubernetes.io/bind-completed", "true")
      .volumeName(volumeName)
      .accessModes(["ReadWriteOncePod"])
      .resources({ requests: storage })
      .obj();
  const pv1 = rwopPV("pv-with-read-write-once-pod-1", "/mnt1");
  const pvc1 = rwopPVC("pvc-with-read-write-once-pod-1", "pv-with-read-write-once-pod-1");
  const pv2 = rwopPV("pv-with-read-write-once-pod-2", "/mnt2");
  const pvc2 = rwopPVC("pvc-with-read-write-once-pod-2", "pv-with-read-write-once-pod-2");
  const claim = (name: string, pvc: PersistentVolumeClaim): Volume => ({
    name,
    persistentVolumeClaim: { claimName: pvc.metadata?.name ?? "" },
  });

  const cases: {
    name: string;
    pvs: PersistentVolume[];
    pvcs: PersistentVolumeClaim[];
    existingPods: Pod[];
    pod: Pod;
    preemptedPodIndexes: number[];
  }[] = [
    {
      name: "preempt single pod",
      pvs: [pv1],
      pvcs: [pvc1],
      existingPods: [
        initPausePod({ name: "victim-pod", priority: lowPriority, volumes: [claim("volume", pvc1)] }),
      ],
      pod: initPausePod({ name: "preemptor-pod", priority: highPriority, volumes: [claim("volume", pvc1)] }),
      preemptedPodIndexes: [0],
    },
    {
      name: "preempt two pods",
      pvs: [pv1, pv2],
      pvcs: [pvc1, pvc2],
      existingPods: [
        initPausePod({ name: "victim-pod-1", priority: lowPriority, volumes: [claim("volume", pvc1)] }),
        initPausePod({ name: "victim-pod-2", priority: lowPriority, volumes: [claim("volume", pvc2)] }),
      ],
      pod: initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        volumes: [claim("volume-1", pvc1), claim("volume-2", pvc2)],
      }),
      preemptedPodIndexes: [0, 1],
    },
    {
      name: "preempt single pod with two volumes",
      pvs: [pv1, pv2],
      pvcs: [pvc1, pvc2],
      existingPods: [
        initPausePod({
          name: "victim-pod",
          priority: lowPriority,
          volumes: [claim("volume-1", pvc1), claim("volume-2", pvc2)],
        }),
      ],
      pod: initPausePod({
        name: "preemptor-pod",
        priority: highPriority,
        volumes: [claim("volume-1", pvc1), claim("volume-2", pvc2)],
      }),
      preemptedPodIndexes: [0],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      // upstream enables VolumeRestrictions at PreFilter and Filter over the default profile.
      const config = configOf(`profiles:
- schedulerName: default-scheduler
  plugins:
    preFilter: { enabled: [{ name: VolumeRestrictions }] }
    filter: { enabled: [{ name: VolumeRestrictions }] }
`);
      const s = await openSession(config, {
        nodes: [makeNode().name("node1").capacity(nodeRes).label("node", "node1").obj()],
        persistentVolumes: tc.pvs,
        persistentVolumeClaims: tc.pvcs,
      });
      for (const p of tc.existingPods) await runPausePod(s, p);
      addPods(s, tc.pod);
      await scheduleOne(s);
      tc.existingPods.forEach((p, i) => {
        expect(isGettingEvicted(s, p), `${p.metadata?.name} evicted`).toBe(
          tc.preemptedPodIndexes.includes(i),
        );
      });
      // The preemptor is nominated, then scheduled once its victims are gone.
      expect(nominatedNodeName(s, "preemptor-pod")).toBe("node1");
      await s.drain();
      expect(boundNode(s, "preemptor-pod")).toBe("node1");
    });
  }
});
