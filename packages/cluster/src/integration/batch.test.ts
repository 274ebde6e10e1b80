// upstream: test/integration/scheduler/batch/batch_test.go, TestBatchScenarios — the newest stored
// version (with "rescoring enables batching for multiple pods per node", PR #140289), every case
// with its pods, nodes and expected nodes and batched flags, on the assembled scheduler of the
// simulate path (simulate() with the default configuration less the default topology spread, as
// upstream's newDefaultComponentConfig, and profiles mysched, nosign, emptysign).
//
// How the simulator differs from upstream's test cluster:
// - Upstream creates each pod and waits until it is bound before creating the next; here the pods
//   are pending in that order and the queue pops them in it, one cycle after the other.
// - "Batched" is upstream's TotalBatchedPods() growing during the pod's cycle; here it is the
//   default-scheduler profile reporting a used hint (the observer's onBatchAttempt "hint_used",
//   upstream scheduler_batch_attempts_total{result="hint_used"}) during the pod's attempt.
// - Upstream sets a maximum batch age of a minute (WithMaxBatchAge) so that a slow test machine
//   does not expire the batch; the simulated clock does not move while the pods are scheduled, so
//   the default 500 ms is kept.
// Beyond upstream: each scenario also runs with the gate off, emulating 1.36 (no rescoring) and
// emulating 1.34 (no OpportunisticBatching gate): the same nodes, batched only where that
// release batches.
import type { Node, Pod } from "@kubesched/api";
import { featuresAt, loadConfig } from "@kubesched/config";
import {
  Code,
  type CycleState,
  type Features,
  type FilterPlugin,
  type PluginDescriptor,
  type SignPlugin,
  type SignPodResult,
  Status,
} from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { simulate } from "../simulate";
import { objectsOf } from "./integration-cluster.test-util";

interface PodDef {
  name: string;
  nodeSelector?: Record<string, string>;
  nodeAffinity?: string[];
  expectedNode?: string;
  expectBatched?: boolean;
  scheduler?: string;
  expectUnschedulable?: boolean;
}

interface NodeDef {
  name: string;
  labels?: Record<string, string>;
  maxPods: number;
}

interface Scenario {
  name: string;
  pods: PodDef[];
  nodes: NodeDef[];
}

const scenarios: Scenario[] = [
  {
    name: "one pod one node",
    pods: [{ name: "1ppn-batchp1", expectedNode: "1ppn-batchn1" }],
    nodes: [{ name: "1ppn-batchn1", maxPods: 1 }],
  },
  {
    name: "distinct pods on distinct nodes",
    pods: [
      { name: "dpdn-batchp1", nodeSelector: { forpod: "1" }, expectedNode: "dpdn-batchn1" },
      { name: "dpdn-batchp2", nodeSelector: { forpod: "2" }, expectedNode: "dpdn-batchn2" },
      { name: "dpdn-batchp3", nodeSelector: { forpod: "3" }, expectedNode: "dpdn-batchn3" },
    ],
    nodes: [
      { name: "dpdn-batchn3", maxPods: 10, labels: { forpod: "3" } },
      { name: "dpdn-batchn2", maxPods: 10, labels: { forpod: "2" } },
      { name: "dpdn-batchn1", maxPods: 10, labels: { forpod: "1" } },
    ],
  },
  {
    name: "three pod batch",
    pods: [
      {
        name: "tpb-batchp1",
        expectedNode: "tpb-batchn1",
        nodeAffinity: ["tpb-batchn1", "tpb-batchn2", "tpb-batchn3"],
      },
      {
        name: "tpb-batchp2",
        expectedNode: "tpb-batchn2",
        nodeAffinity: ["tpb-batchn1", "tpb-batchn2", "tpb-batchn3"],
        expectBatched: true,
      },
      {
        name: "tpb-batchp3",
        expectedNode: "tpb-batchn3",
        nodeAffinity: ["tpb-batchn1", "tpb-batchn2", "tpb-batchn3"],
        expectBatched: true,
      },
    ],
    nodes: [
      { name: "tpb-batchn3", maxPods: 1 },
      { name: "tpb-batchn2", maxPods: 1 },
      { name: "tpb-batchn1", maxPods: 1 },
    ],
  },
  {
    name: "two consecutive batches",
    pods: [
      { name: "tcb-batchp1", expectedNode: "tcb-batchn1", nodeAffinity: ["tcb-batchn1", "tcb-batchn2"] },
      {
        name: "tcb-batchp2",
        expectedNode: "tcb-batchn2",
        nodeAffinity: ["tcb-batchn1", "tcb-batchn2"],
        expectBatched: true,
      },
      { name: "tcb-batchp3", expectedNode: "tcb-batchn4", nodeAffinity: ["tcb-batchn4", "tcb-batchn3"] },
      {
        name: "tcb-batchp4",
        expectedNode: "tcb-batchn3",
        nodeAffinity: ["tcb-batchn4", "tcb-batchn3"],
        expectBatched: true,
      },
    ],
    nodes: [
      { name: "tcb-batchn4", maxPods: 1 },
      { name: "tcb-batchn3", maxPods: 1 },
      { name: "tcb-batchn2", maxPods: 1 },
      { name: "tcb-batchn1", maxPods: 1 },
    ],
  },
  {
    name: "rescoring enables batching for multiple pods per node",
    pods: [
      { name: "mppn-batchp1", expectedNode: "mppn-batchn1", nodeAffinity: ["mppn-batchn1", "mppn-batchn2"] },
      {
        name: "mppn-batchp2",
        expectedNode: "mppn-batchn1",
        nodeAffinity: ["mppn-batchn1", "mppn-batchn2"],
        expectBatched: true,
      },
      { name: "mppn-batchp3", expectedNode: "mppn-batchn4", nodeAffinity: ["mppn-batchn4", "mppn-batchn3"] },
      {
        name: "mppn-batchp4",
        expectedNode: "mppn-batchn4",
        nodeAffinity: ["mppn-batchn4", "mppn-batchn3"],
        expectBatched: true,
      },
    ],
    nodes: [
      { name: "mppn-batchn4", maxPods: 2 },
      { name: "mppn-batchn3", maxPods: 2 },
      { name: "mppn-batchn2", maxPods: 2 },
      { name: "mppn-batchn1", maxPods: 2 },
    ],
  },
  {
    name: "rescoring falls back to next cached node when last chosen node is not feasible",
    pods: [
      { name: "nfmb-batchp1", expectedNode: "nfmb-batchn1", nodeAffinity: ["nfmb-batchn1", "nfmb-batchn2"] },
      {
        name: "nfmb-batchp2",
        expectedNode: "nfmb-batchn1",
        nodeAffinity: ["nfmb-batchn1", "nfmb-batchn2"],
        expectBatched: true,
      },
      {
        name: "nfmb-batchp3",
        expectedNode: "nfmb-batchn2",
        nodeAffinity: ["nfmb-batchn1", "nfmb-batchn2"],
        expectBatched: true,
      },
    ],
    nodes: [
      { name: "nfmb-batchn1", maxPods: 2 },
      { name: "nfmb-batchn2", maxPods: 2 },
    ],
  },
  {
    name: "no batching between schedulers",
    pods: [
      {
        name: "bts--batchp1",
        expectedNode: "bts--batchn1",
        nodeAffinity: ["bts--batchn1", "bts--batchn2", "bts--batchn3"],
      },
      {
        name: "bts--batchp2",
        expectedNode: "bts--batchn2",
        nodeAffinity: ["bts--batchn1", "bts--batchn2", "bts--batchn3"],
        scheduler: "mysched",
      },
    ],
    nodes: [
      { name: "bts--batchn3", maxPods: 1 },
      { name: "bts--batchn2", maxPods: 1 },
      { name: "bts--batchn1", maxPods: 1 },
    ],
  },
  {
    name: "no batching missing sign",
    pods: [
      {
        name: "nsg-batchp1",
        expectedNode: "nsg-batchn1",
        nodeAffinity: ["nsg-batchn1", "nsg-batchn2", "nsg-batchn3"],
        scheduler: "nosign",
      },
      {
        name: "nsg-batchp2",
        expectedNode: "nsg-batchn2",
        nodeAffinity: ["nsg-batchn1", "nsg-batchn2", "nsg-batchn3"],
        scheduler: "nosign",
      },
    ],
    nodes: [
      { name: "nsg-batchn3", maxPods: 1 },
      { name: "nsg-batchn2", maxPods: 1 },
      { name: "nsg-batchn1", maxPods: 1 },
    ],
  },
  {
    name: "no batching empty sign",
    pods: [
      {
        name: "esg-batchp1",
        expectedNode: "esg-batchn1",
        nodeAffinity: ["esg-batchn1", "esg-batchn2", "esg-batchn3"],
        scheduler: "emptysign",
      },
      {
        name: "esg-batchp2",
        expectedNode: "esg-batchn2",
        nodeAffinity: ["esg-batchn1", "esg-batchn2", "esg-batchn3"],
        scheduler: "emptysign",
      },
    ],
    nodes: [
      { name: "esg-batchn3", maxPods: 1 },
      { name: "esg-batchn2", maxPods: 1 },
      { name: "esg-batchn1", maxPods: 1 },
    ],
  },
  {
    name: "unschedulable pod",
    pods: [
      { name: "usp-batchp1", expectedNode: "usp-batchn1" },
      { name: "usp-batchp2", expectBatched: false, expectUnschedulable: true },
    ],
    nodes: [{ name: "usp-batchn1", maxPods: 1 }],
  },
];

/** A Filter plugin that cannot sign (upstream testPluginNoSign). */
class NoSign implements FilterPlugin {
  name() {
    return "nosign";
  }
  filter(): Status | null {
    return null;
  }
}

/** A Filter plugin that refuses to sign every pod (upstream testPluginEmptySign). */
class EmptySign implements FilterPlugin, SignPlugin {
  name() {
    return "emptysign";
  }
  filter(_s: CycleState): Status | null {
    return null;
  }
  signPod(): SignPodResult {
    return { fragments: [], status: new Status(Code.Unschedulable) };
  }
}

const registry = new Map<string, PluginDescriptor>([
  ...inTreeRegistry,
  ["nosign", { name: "nosign", factory: () => new NoSign() }],
  ["emptysign", { name: "emptysign", factory: () => new EmptySign() }],
]);

// upstream initSchedulerProfiles: the default profile without default topology spread, copied
// as mysched, and as nosign / emptysign with one more Filter plugin.
const noTopology = `    pluginConfig:
    - name: PodTopologySpread
      args: { defaultingType: List, defaultConstraints: [] }
`;
/** The configuration as the CLI loads it for the emulated release (its features default it). */
const configAt = (features: Features) =>
  loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
${noTopology}  - schedulerName: mysched
${noTopology}  - schedulerName: nosign
    plugins: { filter: { enabled: [{ name: nosign }] } }
${noTopology}  - schedulerName: emptysign
    plugins: { filter: { enabled: [{ name: emptysign }] } }
${noTopology}`,
    { registry, features },
  );

/** upstream newPod: a pause pod requesting 10 CPUs and 4 MiB, preferring the nodes in order. */
function newPod(d: PodDef): Pod {
  const n = d.nodeAffinity?.length ?? 0;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: d.name, namespace: "default" },
    spec: {
      ...(d.scheduler ? { schedulerName: d.scheduler } : {}),
      ...(d.nodeSelector ? { nodeSelector: d.nodeSelector } : {}),
      affinity: {
        nodeAffinity: {
          ...(n > 0
            ? {
                preferredDuringSchedulingIgnoredDuringExecution: (d.nodeAffinity ?? []).map((node, i) => ({
                  weight: n - i,
                  preference: { matchFields: [{ key: "metadata.name", operator: "In", values: [node] }] },
                })),
              }
            : {}),
        },
      },
      containers: [
        {
          name: "pause",
          image: "registry.k8s.io/pause:3.10",
          resources: { requests: { cpu: "10", memory: String(4 * 1024 * 1024) } },
        },
      ],
    },
  };
}

/** upstream newNode: 100 CPUs, 4 GiB, maxPods pods. */
function newNode(d: NodeDef): Node {
  const resources = { cpu: "100", memory: String(4 * 1024 * 1024 * 1024), pods: String(d.maxPods) };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: d.name, ...(d.labels ? { labels: d.labels } : {}) },
    status: { capacity: resources, allocatable: resources },
  };
}

/** Runs a scenario: each pod's node (or outcome) and whether default-scheduler batched it. */
async function runScenario(
  tt: Scenario,
  release: "1.34" | "1.36" | "1.37",
  gates: Partial<Features> = {},
): Promise<{ nodes: (string | null)[]; batched: boolean[]; outcomes: string[] }> {
  const batched = new Map<string, boolean>();
  let current = "";
  const features = { ...featuresAt(release), ...gates };
  const result = await simulate({
    config: configAt(features),
    registry,
    objects: objectsOf({ nodes: tt.nodes.map(newNode), pods: tt.pods.map(newPod) }),
    logger: recordingLogger(),
    kubernetesVersion: release,
    features,
    observer: {
      onAttemptStart(pod) {
        current = pod.metadata?.name ?? "";
      },
      onBatchAttempt(profile, result) {
        if (profile === "default-scheduler" && result === "hint_used") batched.set(current, true);
      },
    },
  });
  const byName = new Map(result.pods.map((p) => [p.name, p]));
  return {
    nodes: tt.pods.map((p) => byName.get(p.name)?.node ?? null),
    batched: tt.pods.map((p) => batched.get(p.name) ?? false),
    outcomes: tt.pods.map((p) => byName.get(p.name)?.outcome ?? "missing"),
  };
}

describe("TestBatchScenarios", () => {
  for (const tt of scenarios) {
    it(tt.name, async () => {
      const got = await runScenario(tt, "1.37");
      expect(got.nodes).toEqual(tt.pods.map((p) => (p.expectUnschedulable ? null : p.expectedNode)));
      expect(got.outcomes).toEqual(
        tt.pods.map((p) => (p.expectUnschedulable ? "Unschedulable" : "Scheduled")),
      );
      expect(got.batched).toEqual(tt.pods.map((p) => p.expectBatched ?? false));
    });
  }
});

describe("TestBatchScenarios across releases and with the gate off (kubesched)", () => {
  // 1.35/1.36 drop the batch when the last chosen node still fits the next pod (no rescoring):
  // those pods are scheduled from scratch, to the same nodes.
  const rescoredOnly = new Set(["mppn-batchp2", "mppn-batchp4", "nfmb-batchp2"]);
  for (const tt of scenarios) {
    it(`${tt.name}: gate off, 1.36 and 1.34 place every pod as 1.37 does`, async () => {
      const want = tt.pods.map((p) => (p.expectUnschedulable ? null : p.expectedNode));
      const off = await runScenario(tt, "1.37", { enableOpportunisticBatching: false });
      expect(off.nodes).toEqual(want);
      expect(off.batched.some(Boolean)).toBe(false);

      // 1.36 has DRAExtendedResource on, and NodeResourcesFit then signs no pod: no batching.
      const v136 = await runScenario(tt, "1.36");
      expect(v136.nodes).toEqual(want);
      expect(v136.batched.some(Boolean)).toBe(false);

      const v134 = await runScenario(tt, "1.34");
      expect(v134.nodes).toEqual(want);
      expect(v134.batched.some(Boolean)).toBe(false);
    });
  }

  it("1.36 with DRAExtendedResource off batches as 1.35 did: without rescoring", async () => {
    for (const tt of scenarios) {
      const got = await runScenario(tt, "1.36", { enableDRAExtendedResource: false });
      expect(got.nodes).toEqual(tt.pods.map((p) => (p.expectUnschedulable ? null : p.expectedNode)));
      expect(got.batched).toEqual(
        tt.pods.map((p) => (p.expectBatched ?? false) && !rescoredOnly.has(p.name)),
      );
    }
  });
});
