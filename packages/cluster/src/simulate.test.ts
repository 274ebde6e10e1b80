// simulate() end to end on small snapshots, with the in-tree plugins and the full default profile.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Pod } from "@kubesched/api";
import { type KubeSchedulerConfiguration, loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admit } from "./admission";
import { loadSnapshotTexts } from "./load";
import { openSimulation, type SimulateOptions, type SimulationResult, simulate } from "./simulate";

function profileYAML(name: string, extra = ""): string {
  return `  - schedulerName: ${name}
${extra}`;
}

function testConfig(opts: { profiles?: string[]; top?: string } = {}): KubeSchedulerConfiguration {
  const profiles = opts.profiles ?? [profileYAML("default-scheduler")];
  return loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
${opts.top ?? ""}
profiles:
${profiles.join("")}`,
    { registry: inTreeRegistry },
  );
}

async function run(
  yaml: string,
  opts: Partial<Omit<SimulateOptions, "objects" | "registry">> = {},
): Promise<SimulationResult> {
  return simulate({
    config: opts.config ?? testConfig(),
    registry: inTreeRegistry,
    objects: loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects,
    logger: recordingLogger(),
    ...opts,
  });
}

const node = (name: string, cpu: string, mem = "8Gi", extra = "") => `apiVersion: v1
kind: Node
metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name} } }
${extra}status: { allocatable: { cpu: "${cpu}", memory: ${mem}, pods: "110" } }
---
`;
const pod = (name: string, cpu: string, extra = "", meta = "") => `apiVersion: v1
kind: Pod
metadata: { name: ${name}${meta} }
spec:
${extra}  containers: [{ name: c, image: i, resources: { requests: { cpu: "${cpu}", memory: 1Gi } } }]
---
`;
const outcomes = (r: SimulationResult) =>
  Object.fromEntries(r.pods.map((p) => [p.name, p.node ?? p.outcome]));

describe("simulate", () => {
  it("places pods, reports nodes and a summary", async () => {
    const r = await run(
      node("small", "2") +
        node("big", "8") +
        pod("running", "1", "  nodeName: small\n") +
        pod("a", "4") +
        pod("b", "1"),
    );
    expect(r.kind).toBe("SimulationResult");
    expect(r.pods.map((p) => p.name)).toEqual(["a", "b"]); // pending pods only, in file order
    expect(r.pods[0]).toEqual({
      namespace: "default",
      name: "a",
      outcome: "Scheduled",
      node: "big",
      nominatedNode: null,
      attempts: 1,
      message: null,
    });
    expect(r.pods[1]?.outcome).toBe("Scheduled");
    expect(r.nodes).toEqual([
      {
        name: "small",
        allocatable: { cpu: "2", memory: "8Gi", pods: "110" },
        requested: expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }),
        pods: r.pods[1]?.node === "small" ? 2 : 1,
        before: { requested: { cpu: "1", memory: "1Gi" }, pods: 1 },
      },
      expect.objectContaining({ name: "big", before: { requested: { cpu: "0", memory: "0" }, pods: 0 } }),
    ]);
    expect(r.nodes.find((n) => n.name === "big")?.requested.cpu).toBe(r.pods[1]?.node === "big" ? "5" : "4");
    expect(r.preemptions).toEqual([]);
    expect(r.summary).toEqual({
      pods: 2,
      scheduled: 2,
      unschedulable: 0,
      error: 0,
      gated: 0,
      skipped: 0,
      wallMs: null,
      podsPerSecond: null,
    });
  });

  it("reports scalar resources (extended resources, hugepages) before and after", async () => {
    const gpuNode = `apiVersion: v1
kind: Node
metadata: { name: gpu, labels: { kubernetes.io/hostname: gpu } }
status: { allocatable: { cpu: "8", memory: 8Gi, pods: "110", example.com/gpu: "4", hugepages-2Mi: 1Gi } }
---
`;
    const gpuPod = (name: string, extra = "") => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
${extra}  containers: [{ name: c, image: i, resources: { requests: { cpu: "1", example.com/gpu: "1" }, limits: { example.com/gpu: "1" } } }]
---
`;
    const r = await run(
      node("plain", "8") + gpuNode + gpuPod("running", "  nodeName: gpu\n") + gpuPod("new"),
    );
    expect(r.pods[0]?.node).toBe("gpu");
    expect(r.nodes.find((n) => n.name === "plain")?.scalarResources).toBeUndefined();
    expect(r.nodes.find((n) => n.name === "gpu")?.scalarResources).toEqual({
      "example.com/gpu": { allocatable: "4", requested: "2", requestedBefore: "1" },
      "hugepages-2Mi": { allocatable: "1Gi", requested: "0", requestedBefore: "0" },
    });
  });

  it("FitError messages are upstream's, counted and sorted", async () => {
    const r = await run(
      node("n1", "1") +
        node("n2", "1") +
        node(
          "tainted",
          "16",
          "8Gi",
          "spec: { taints: [{ key: dedicated, value: gpu, effect: NoSchedule }] }\n",
        ) +
        node("cordoned", "16", "8Gi", "spec: { unschedulable: true }\n") +
        pod("huge", "4"),
    );
    expect(r.pods[0]).toMatchObject({ outcome: "Unschedulable", node: null, attempts: 1 });
    expect(r.pods[0]?.message).toBe(
      "0/4 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
    );
    expect(r.summary).toMatchObject({ pods: 1, scheduled: 0, unschedulable: 1 });
  });

  it("a nodeSelector that matches no node: one reason counted over every node", async () => {
    const r = await run(
      node("n1", "4") + node("n2", "4") + pod("spread", "1", "  nodeSelector: { missing: label }\n"),
    );
    expect(r.pods[0]?.message).toBe(
      "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
  });

  it("gated and skipped pods", async () => {
    const r = await run(
      node("n1", "4") +
        pod("gated", "1", "  schedulingGates: [{ name: example.com/wait }]\n") +
        pod("other", "1", "  schedulerName: someone-else\n"),
    );
    expect(r.pods).toEqual([
      {
        namespace: "default",
        name: "gated",
        outcome: "Gated",
        node: null,
        nominatedNode: null,
        attempts: 0,
        message: "waiting for scheduling gates: [example.com/wait]",
      },
      {
        namespace: "default",
        name: "other",
        outcome: "Skipped",
        node: null,
        nominatedNode: null,
        attempts: 0,
        message: 'no profile for schedulerName "someone-else"',
      },
    ]);
    expect(r.summary).toMatchObject({ pods: 2, gated: 1, skipped: 1, scheduled: 0 });
  });

  it("explain: filter plugins per node up to the first failure, scores, final score, selected node", async () => {
    const r = await run(node("n1", "2") + node("n2", "4") + node("n3", "1") + pod("p", "1500m"), {
      explain: true,
    });
    const e = r.pods[0]?.explain;
    expect(e).toBeDefined();
    expect(e?.selectedNode).toBe(r.pods[0]?.node);
    // n3 is too small (the request exceeds its whole allocatable: unresolvable): its filter
    // list ends at NodeResourcesFit.
    const n3 = e?.filter.n3 ?? {};
    const names = Object.keys(n3);
    expect(names[names.length - 1]).toBe("NodeResourcesFit");
    expect(n3.NodeResourcesFit).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ["Insufficient cpu"],
    });
    for (const n of names.slice(0, -1)) expect(n3[n]?.code).toBe("Success");
    // Passing nodes list every filter plugin as Success.
    expect(Object.values(e?.filter.n1 ?? {}).every((s) => s.code === "Success")).toBe(true);
    expect(Object.keys(e?.filter.n1 ?? {})).toContain("TaintToleration");
    // Scores only for feasible nodes; weighted = normalized * weight; finalScore their sum.
    expect(Object.keys(e?.score ?? {}).sort()).toEqual(["n1", "n2"]);
    for (const n of ["n1", "n2"]) {
      const byPlugin = e?.score?.[n] ?? {};
      expect(Object.keys(byPlugin)).toContain("NodeResourcesFit");
      let total = 0;
      for (const s of Object.values(byPlugin)) {
        expect(Number.isInteger(s.weighted)).toBe(true);
        total += s.weighted;
      }
      expect(e?.finalScore?.[n]).toBe(total);
    }
    // LeastAllocated prefers the emptier node.
    expect(r.pods[0]?.node).toBe("n2");
    expect(e?.preFilter.NodeResourcesFit).toEqual({ code: "Success" });
  });

  it("explain: ties for the best score list the tied nodes; --pod limits explain to those pods", async () => {
    const r = await run(
      node("n1", "2") + node("n2", "2") + node("n3", "1") + pod("p", "500m") + pod("q", "1500m"),
      {
        explain: true,
        explainPods: ["default/p"],
      },
    );
    const e = r.pods[0]?.explain;
    expect(e?.tiedNodes).toEqual(["n1", "n2"]);
    expect(e?.tiedNodes).toContain(e?.selectedNode);
    expect(r.pods[1]?.explain).toBeUndefined();
  });

  it("explain: --pod records only those pods' attempts (the others cost no memory)", async () => {
    const yaml = node("n1", "2") + node("n2", "2") + pod("p", "500m") + pod("q", "1500m") + pod("r", "4");
    const { session, pending } = await openSimulation(
      {
        config: testConfig(),
        registry: inTreeRegistry,
        logger: recordingLogger(),
        explain: true,
        explainPods: ["default/p", "default/r"],
      },
      admit(loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects),
    );
    for (const p of pending) session.addPending(p);
    await session.drain();
    session.sched.close();
    expect(session.explain?.get("default/p")?.selectedNode).toMatch(/^n[12]$/);
    expect(session.explain?.get("default/r")?.filter).toBeDefined();
    expect(session.explain?.get("default/q")).toBeUndefined();
  });

  it("explain: no score section when a single node is feasible", async () => {
    const r = await run(node("n1", "2") + node("n2", "1") + pod("p", "1500m"), { explain: true });
    expect(r.pods[0]?.node).toBe("n1");
    expect(r.pods[0]?.explain?.score).toBeUndefined();
    expect(r.pods[0]?.explain?.selectedNode).toBe("n1");
  });

  it("explain is absent unless requested", async () => {
    const r = await run(node("n1", "2") + pod("p", "1"));
    expect(r.pods[0]).not.toHaveProperty("explain");
  });

  it("determinism: the same seed gives identical results; ties may break differently with other seeds", async () => {
    let snapshot = "";
    for (let i = 0; i < 6; i++) snapshot += node(`n${i}`, "4");
    for (let i = 0; i < 6; i++) snapshot += pod(`p${i}`, "100m");
    const a = JSON.stringify(await run(snapshot, { seed: 7, explain: true }));
    const b = JSON.stringify(await run(snapshot, { seed: 7, explain: true }));
    expect(a).toBe(b);
    const firstNodes = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const r = await run(snapshot, { seed });
      firstNodes.add(r.pods[0]?.node ?? "");
    }
    expect(firstNodes.size).toBeGreaterThan(1);
  });

  it("timing fills wallMs and podsPerSecond", async () => {
    const r = await run(node("n1", "2") + pod("p", "1"), { timing: true });
    expect(typeof r.summary.wallMs).toBe("number");
    expect(typeof r.summary.podsPerSecond).toBe("number");
  });

  it("requeue: a pod waiting for pod affinity schedules once its peer is bound", async () => {
    const classes = `kind: PriorityClass
metadata: { name: high }
value: 100
---
`;
    const follower = pod(
      "follower",
      "100m",
      `  priorityClassName: high
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: kubernetes.io/hostname
          labelSelector: { matchLabels: { app: leader } }
`,
    );
    // The follower has the higher priority, so it is tried first and fails; the leader's binding
    // (an assigned-pod add) moves it back, and the second attempt lands next to the leader.
    const r = await run(
      classes +
        node("n1", "4") +
        node("n2", "4") +
        follower +
        pod("leader", "100m", "", ", labels: { app: leader }"),
    );
    const byName = Object.fromEntries(r.pods.map((p) => [p.name, p]));
    expect(byName.leader?.outcome).toBe("Scheduled");
    expect(byName.follower?.outcome).toBe("Scheduled");
    expect(byName.follower?.node).toBe(byName.leader?.node);
    expect(byName.follower?.attempts).toBe(2);
  });

  it("a pod that can never fit stops after its attempt (no endless retries)", async () => {
    const r = await run(node("n1", "1") + pod("p", "2") + pod("q", "100m"));
    expect(outcomes(r)).toEqual({ p: "Unschedulable", q: "n1" });
    // q's binding is a cluster event; p may be retried once because of it, not forever.
    expect(r.pods[0]?.attempts).toBeLessThanOrEqual(2);
  });

  it("multiple profiles: each pod is scheduled by its schedulerName's profile", async () => {
    const config = testConfig({
      profiles: [
        profileYAML("default-scheduler"),
        profileYAML(
          "packer",
          `    pluginConfig:
      - name: NodeResourcesFit
        args: { scoringStrategy: { type: MostAllocated, resources: [{ name: cpu, weight: 1 }] } }
`,
        ),
      ],
    });
    const snapshot =
      node("busy", "4") +
      node("idle", "4") +
      pod("load", "3", "  nodeName: busy\n") +
      pod("spreader", "500m") +
      pod("packed", "500m", "  schedulerName: packer\n");
    const r = await run(snapshot, { config });
    expect(outcomes(r)).toEqual({ spreader: "idle", packed: "busy" });
  });

  it("an unknown PriorityClass fails admission", async () => {
    await expect(run(node("n1", "1") + pod("p", "1", "  priorityClassName: nope\n"))).rejects.toThrow(
      "c.yaml: document 2: no PriorityClass with name nope was found",
    );
  });
});

describe("simulate with HTTP extenders", () => {
  let server: Server;
  let url = "";
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let data = "";
      req.on("data", (c) => {
        data += c;
      });
      req.on("end", () => {
        seen.push(req.url ?? "");
        const body = JSON.parse(data) as { nodenames?: string[] };
        res.writeHead(200, { "Content-Type": "application/json" });
        if (req.url === "/sched/filter") {
          const names = body.nodenames ?? [];
          res.end(
            JSON.stringify({
              nodenames: names.filter((n) => n !== "n1"),
              failedNodes: names.includes("n1") ? { n1: "n1 is reserved by the extender" } : {},
            }),
          );
        } else if (req.url === "/sched/prioritize") {
          res.end(
            JSON.stringify((body.nodenames ?? []).map((host) => ({ host, score: host === "n3" ? 10 : 0 }))),
          );
        } else {
          res.end("{}");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sched`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("filters and prioritizes through the extender", async () => {
    const config = testConfig({
      top: `extenders:
  - urlPrefix: ${url}
    filterVerb: filter
    prioritizeVerb: prioritize
    weight: 5
    nodeCacheCapable: true`,
    });
    const r = await run(
      node("n1", "8") + node("n2", "4") + node("n3", "4") + pod("p", "1") + pod("big", "6"),
      {
        config,
      },
    );
    expect(outcomes(r)).toEqual({ p: "n3", big: "Unschedulable" });
    expect(r.pods[1]?.message).toBe(
      "0/3 nodes are available: 1 n1 is reserved by the extender, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    expect(seen).toContain("/sched/filter");
    expect(seen).toContain("/sched/prioritize");
  });
});

describe("one production wiring", () => {
  it("a plugin that takes the snapshot in its constructor sees the scheduler's nodes", async () => {
    // As PodTopologySpread and VolumeRestrictions do: a framework built before its snapshot was
    // wired would hand them an empty one forever.
    const seen: number[] = [];
    const registry = new Map(inTreeRegistry);
    registry.set("SnapshotProbe", {
      name: "SnapshotProbe",
      factory: (_args, handle) => {
        const lister = handle.snapshotSharedLister();
        return {
          name: () => "SnapshotProbe",
          filter: () => {
            seen.push(lister.nodeInfos().list().length);
            return null;
          },
        };
      },
    });
    const config = loadConfig(
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{ name: SnapshotProbe }]
`,
      { registry },
    );
    const r = await simulate({
      config,
      registry,
      objects: loadSnapshotTexts([
        { name: "c.yaml", text: node("n1", "2") + node("n2", "2") + pod("p", "1") },
      ]).objects,
      logger: recordingLogger(),
    });
    expect(r.summary.scheduled).toBe(1);
    expect(seen).toEqual([2, 2]);
  });
});

describe("VolumeBinding through the assembled scheduler", () => {
  it("hostname and nodename of the node do not match: a bound local PV still schedules on its node", async () => {
    // schedule_one_test.go's case, end to end with the default profile: the PV names the node by
    // its kubernetes.io/hostname label (host1), which differs from the node's name (node1).
    const r = await run(`apiVersion: v1
kind: Node
metadata: { name: node1, labels: { kubernetes.io/hostname: host1 } }
status: { allocatable: { cpu: "4", memory: 8Gi, pods: "110" } }
---
apiVersion: v1
kind: PersistentVolume
metadata: { name: pv1 }
spec:
  capacity: { storage: 1Gi }
  accessModes: [ReadWriteOnce]
  claimRef: { namespace: default, name: pvc1 }
  local: { path: /mnt/disk1 }
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{ key: kubernetes.io/hostname, operator: In, values: [host1] }]
status: { phase: Bound }
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: pvc1, namespace: default, annotations: { pv.kubernetes.io/bind-completed: "yes" } }
spec: { accessModes: [ReadWriteOnce], volumeName: pv1, resources: { requests: { storage: 1Gi } } }
status: { phase: Bound }
---
apiVersion: v1
kind: Pod
metadata: { name: pod1, namespace: default }
spec:
  containers: [{ name: c, image: i }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: pvc1 } }]
`);
    expect(outcomes(r)).toEqual({ pod1: "node1" });
  });
});

describe("pods being deleted (deletionTimestamp, finalizers)", () => {
  const finalizer = ", finalizers: [test.k8s.io/finalizer], deletionTimestamp: 2025-12-31T23:59:00Z";

  it("a pending pod being deleted is not scheduled (upstream skipPodSchedule)", async () => {
    const r = await run(node("n1", "4") + pod("leaving", "1", "", finalizer) + pod("staying", "1"));
    expect(r.pods.map((p) => [p.name, p.outcome, p.node, p.message])).toEqual([
      [
        "leaving",
        "Skipped",
        null,
        "the pod is being deleted (metadata.deletionTimestamp is set); it is not scheduled",
      ],
      ["staying", "Scheduled", "n1", null],
    ]);
    expect(r.summary).toMatchObject({ skipped: 1, scheduled: 1 });
  });

  it("a bound pod being deleted keeps its resources until it is gone", async () => {
    const r = await run(node("n1", "2") + pod("old", "2", "  nodeName: n1\n", finalizer) + pod("new", "1"));
    expect(r.pods[0]).toMatchObject({ name: "new", outcome: "Unschedulable" });
    expect(r.pods[0]?.message).toContain("Insufficient cpu");
  });

  it("during a run: a deleted pod with finalizers holds its node until they are removed; a pending one is skipped", async () => {
    const objects = loadSnapshotTexts([
      { name: "c.yaml", text: node("n1", "2") + pod("old", "2", "  nodeName: n1\n", ", finalizers: [a]") },
    ]).objects;
    const { session } = await openSimulation(
      { config: testConfig(), registry: inTreeRegistry, logger: recordingLogger() },
      admit(objects),
    );
    const { cluster, sched } = session;
    const newPod = (name: string, finalizers?: string[]): Pod => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: "default", uid: name, ...(finalizers ? { finalizers } : {}) },
      spec: {
        schedulerName: "default-scheduler",
        containers: [{ name: "c", image: "i", resources: { requests: { cpu: "1" } } }],
      },
    });
    session.addPending(newPod("waiting"));
    session.addPending(newPod("doomed", ["b"]));
    await session.drain();
    expect(cluster.pods.get("default", "waiting")?.spec?.nodeName).toBeUndefined();

    // Deleting the running pod marks it; the node stays full.
    expect(cluster.requestDeletion("Pod", newPod("old"))).toBe("Terminating");
    // The pending pod with a finalizer is deleted too: it stays, marked, and must not be scheduled.
    expect(cluster.requestDeletion("Pod", newPod("doomed"))).toBe("Terminating");
    await session.drain();
    expect(cluster.pods.get("default", "waiting")?.spec?.nodeName).toBeUndefined();
    expect(sched.cache.dump().nodes.get("n1")?.pods.length).toBe(1);

    // Its finalizer removed, the running pod goes; its resources free, the waiting pod fits.
    expect(cluster.removeFinalizers("Pod", newPod("old"))).toBe(true);
    await session.drain();
    expect(cluster.pods.get("default", "waiting")?.spec?.nodeName).toBe("n1");
    expect(cluster.pods.get("default", "doomed")?.spec?.nodeName).toBeUndefined();
    expect(cluster.events.map((e) => e.note)).toContain("skip schedule deleting pod: default/doomed");
    sched.close();
  });
});

describe("scheduler_perf's volume shapes through the assembled scheduler", () => {
  it("in-tree AWS EBS PVs with pre-bound claims (pv-aws.yaml, pvc.yaml) and Secret volumes", async () => {
    const r = await run(`${node("n1", "4")}apiVersion: v1
kind: PersistentVolume
metadata: { name: ns-vol-0 }
spec:
  accessModes: [ReadOnlyMany]
  awsElasticBlockStore: { volumeID: vol-0 }
  capacity: { storage: 1Gi }
  persistentVolumeReclaimPolicy: Retain
  claimRef: { kind: PersistentVolumeClaim, namespace: default, name: pvc-0, apiVersion: v1 }
status: { phase: Bound }
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: pvc-0, namespace: default, annotations: { pv.kubernetes.io/bind-completed: "true" } }
spec: { accessModes: [ReadOnlyMany], resources: { requests: { storage: 1Gi } }, volumeName: ns-vol-0 }
status: { phase: Bound }
---
apiVersion: v1
kind: Pod
metadata: { name: with-pv, namespace: default }
spec:
  containers: [{ name: c, image: i }]
  volumes: [{ name: vol, persistentVolumeClaim: { claimName: pvc-0 } }]
---
apiVersion: v1
kind: Pod
metadata: { name: with-secret, namespace: default }
spec:
  containers: [{ name: c, image: i }]
  volumes: [{ name: secret, secret: { secretName: secret } }]
`);
    expect(outcomes(r)).toEqual({ "with-pv": "n1", "with-secret": "n1" });
  });
});
