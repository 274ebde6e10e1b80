// The counterfactual engine: every change kind on the objects (copied on write: the snapshot's
// objects are never written), and runs compared with the baseline through simulate itself.
import type { Node, Pod } from "@kubesched/api";
import { loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { applyChanges, type ClusterChange, CounterfactualError, Counterfactuals } from "./counterfactual";
import { loadSnapshotTexts, type SourcedObject } from "./load";

const config = loadConfig(
  `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: [{schedulerName: default-scheduler}]
`,
  { registry: inTreeRegistry },
);

function objects(yaml: string): SourcedObject[] {
  return loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects;
}

function open(yaml: string): Promise<Counterfactuals> {
  return Counterfactuals.open({
    config,
    registry: inTreeRegistry,
    objects: objects(yaml),
    logger: recordingLogger(),
  });
}

const snapshot = `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, zone: a}}
spec:
  unschedulable: true
  taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}, {key: gpu, value: "yes", effect: NoSchedule}]
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: run, namespace: default}
spec: {nodeName: n1, containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  priority: 5
  preemptionPolicy: Never
  nodeSelector: {disk: ssd, zone: a}
  tolerations: [{key: a, operator: Exists}]
  topologySpreadConstraints:
    - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: p}}}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions: [{key: zone, operator: In, values: [a]}, {key: disk, operator: Exists}]
          - matchExpressions: [{key: rack, operator: Exists}]
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - {topologyKey: zone, labelSelector: {matchLabels: {app: p}}}
        - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: p}}}
  containers:
    - {name: a, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}
    - {name: b, image: x, resources: {requests: {cpu: "2"}}}
`;

function pod(objs: SourcedObject[], name: string): Pod {
  return objs.find((o) => o.kind === "Pod" && o.obj.metadata?.name === name)?.obj as Pod;
}

function node(objs: SourcedObject[], name: string): Node {
  return objs.find((o) => o.kind === "Node" && o.obj.metadata?.name === name)?.obj as Node;
}

describe("applyChanges", () => {
  const cases: { name: string; change: ClusterChange; check: (out: SourcedObject[]) => void }[] = [
    {
      name: "a container's requests are set, its other requests stay",
      change: { kind: "SetContainerRequests", pod: "default/p", container: 1, requests: { cpu: "500m" } },
      check: (o) => expect(pod(o, "p").spec?.containers[1]?.resources?.requests).toEqual({ cpu: "500m" }),
    },
    {
      name: "a toleration is added after the pod's own",
      change: {
        kind: "AddToleration",
        pod: "default/p",
        toleration: { key: "gpu", operator: "Equal", value: "yes", effect: "NoSchedule" },
      },
      check: (o) =>
        expect(pod(o, "p").spec?.tolerations).toEqual([
          { key: "a", operator: "Exists" },
          { key: "gpu", operator: "Equal", value: "yes", effect: "NoSchedule" },
        ]),
    },
    {
      name: "one nodeSelector key goes",
      change: { kind: "RemoveNodeSelectorKey", pod: "default/p", key: "disk" },
      check: (o) => expect(pod(o, "p").spec?.nodeSelector).toEqual({ zone: "a" }),
    },
    {
      name: "a requirement leaves its node affinity term; an emptied term goes",
      change: { kind: "RemoveNodeAffinityRequirement", pod: "default/p", term: 1, key: "rack" },
      check: (o) =>
        expect(
          pod(o, "p").spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
            ?.nodeSelectorTerms,
        ).toEqual([
          {
            matchExpressions: [
              { key: "zone", operator: "In", values: ["a"] },
              { key: "disk", operator: "Exists" },
            ],
          },
        ]),
    },
    {
      name: "a spread constraint's maxSkew is raised",
      change: { kind: "SetMaxSkew", pod: "default/p", constraint: 0, maxSkew: 3 },
      check: (o) => expect(pod(o, "p").spec?.topologySpreadConstraints?.[0]?.maxSkew).toBe(3),
    },
    {
      name: "the required anti-affinity term on one topology key goes",
      change: { kind: "RemovePodAffinityTerm", pod: "default/p", rule: "antiAffinity", topologyKey: "zone" },
      check: (o) =>
        expect(
          pod(o, "p").spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.map(
            (t) => t.topologyKey,
          ),
        ).toEqual(["kubernetes.io/hostname"]),
    },
    {
      name: "a priority class replaces the pod's own priority and preemptionPolicy",
      change: { kind: "SetPriorityClass", pod: "default/p", priorityClassName: "high" },
      check: (o) => {
        const spec = pod(o, "p").spec;
        expect([spec?.priorityClassName, spec?.priority, spec?.preemptionPolicy]).toEqual([
          "high",
          undefined,
          undefined,
        ]);
      },
    },
    {
      name: "uncordon clears spec.unschedulable and the cordon taint, not the others",
      change: { kind: "Uncordon", node: "n1" },
      check: (o) =>
        expect(node(o, "n1").spec).toEqual({ taints: [{ key: "gpu", value: "yes", effect: "NoSchedule" }] }),
    },
    {
      name: "one taint goes",
      change: { kind: "RemoveTaint", node: "n1", taint: { key: "gpu", value: "yes", effect: "NoSchedule" } },
      check: (o) =>
        expect(node(o, "n1").spec?.taints?.map((t) => t.key)).toEqual(["node.kubernetes.io/unschedulable"]),
    },
    {
      name: "a taint is adjusted to another effect",
      change: {
        kind: "SetTaintEffect",
        node: "n1",
        taint: { key: "gpu", value: "yes", effect: "NoSchedule" },
        effect: "PreferNoSchedule",
      },
      check: (o) =>
        expect(node(o, "n1").spec?.taints?.[1]).toEqual({
          key: "gpu",
          value: "yes",
          effect: "PreferNoSchedule",
        }),
    },
    {
      name: "a label is set",
      change: { kind: "SetNodeLabel", node: "n1", key: "disk", value: "ssd" },
      check: (o) => expect(node(o, "n1").metadata?.labels).toMatchObject({ disk: "ssd", zone: "a" }),
    },
    {
      name: "added nodes have the template's labels (their own hostname), taints but the cordon's, allocatable",
      change: { kind: "AddNodes", like: "n1", count: 2 },
      check: (o) => {
        expect(o.slice(-2).map((x) => x.obj.metadata?.name)).toEqual(["n1-new-1", "n1-new-2"]);
        expect(node(o, "n1-new-2")).toEqual({
          apiVersion: "v1",
          kind: "Node",
          metadata: { name: "n1-new-2", labels: { "kubernetes.io/hostname": "n1-new-2", zone: "a" } },
          spec: { taints: [{ key: "gpu", value: "yes", effect: "NoSchedule" }] },
          status: { allocatable: { cpu: "2", memory: "4Gi", pods: "10" } },
        });
      },
    },
    {
      name: "moved pods are re-created pending after every other object",
      change: { kind: "MovePods", pods: ["default/run"] },
      check: (o) => {
        expect(o.at(-1)?.obj.metadata?.name).toBe("run");
        expect(pod(o, "run").spec?.nodeName).toBeUndefined();
      },
    },
    {
      name: "removed pods are gone",
      change: { kind: "RemovePods", pods: ["default/run"] },
      check: (o) => expect(pod(o, "run")).toBeUndefined(),
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const before = objects(snapshot);
      const frozen = structuredClone(before);
      const out = applyChanges(before, [tc.change]);
      tc.check(out);
      // Copy on write: the input is untouched, unchanged objects are shared.
      expect(before).toEqual(frozen);
      expect(out.filter((o) => before.includes(o)).length).toBeGreaterThanOrEqual(before.length - 1);
    });
  }

  it("names a pod or node that is not there", () => {
    expect(() => applyChanges(objects(snapshot), [{ kind: "Uncordon", node: "nope" }])).toThrow(
      new CounterfactualError("no Node nope in the objects"),
    );
  });
});

const n = (name: string, extra = "") => `apiVersion: v1
kind: Node
metadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}}}
${extra}status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
`;
const p = (name: string, spec: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec: {${spec}containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}
---
`;

describe("Counterfactuals", () => {
  it("runs the changed snapshot and names the pending pods that no longer fit", async () => {
    // y wants an ssd node and comes first; x takes n1 in the baseline. Labelling n1 gives it to y.
    const cf = await open(
      n("n1") +
        n("n2", "spec: {taints: [{key: t, effect: NoSchedule}]}\n") +
        p("y", "nodeSelector: {disk: ssd}, ") +
        p("x", ""),
    );
    expect(cf.baselineOf("default/y")?.outcome).toBe("Unschedulable");
    expect(cf.baselineOf("default/x")?.node).toBe("n1");
    const o = await cf.run([{ kind: "SetNodeLabel", node: "n1", key: "disk", value: "ssd" }]);
    expect(o.pods.get("default/y")?.node).toBe("n1");
    expect(o.noLongerFit).toEqual(["default/x"]);
    expect(o.preempted).toEqual([]);
    // Only the named pending pods: x is not scheduled, so nothing is displaced.
    const alone = await cf.run(
      [{ kind: "SetNodeLabel", node: "n1", key: "disk", value: "ssd" }],
      ["default/y"],
    );
    expect([...alone.pods.keys()]).toEqual(["default/y"]);
    expect(alone.noLongerFit).toEqual([]);
    expect(cf.runs).toBe(3);
  });

  it("reports running pods that preemption evicts with the change", async () => {
    const cf = await open(
      `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
${n("n1")}${p("low", "nodeName: n1, ")}${p("want", "")}`,
    );
    expect(cf.baselineOf("default/want")?.outcome).toBe("Unschedulable");
    const o = await cf.run([{ kind: "SetPriorityClass", pod: "default/want", priorityClassName: "high" }]);
    expect(o.pods.get("default/want")).toMatchObject({ outcome: "Scheduled", node: "n1" });
    expect(o.preempted).toEqual(["default/low"]);
  });

  it("adds nodes shaped like an existing one, and moves pods off a node", async () => {
    const cf = await open(n("n1") + p("run", "nodeName: n1, ") + p("want", ""));
    const added = await cf.run([{ kind: "AddNodes", like: "n1", count: 1 }]);
    expect(added.pods.get("default/want")?.node).toBe("n1-new-1");
    const moved = await cf.run([{ kind: "MovePods", pods: ["default/run"] }]);
    // want comes first in the queue and takes n1; the re-created run fits nowhere.
    expect(moved.pods.get("default/want")?.node).toBe("n1");
    expect(moved.pods.get("default/run")?.outcome).toBe("Unschedulable");
  });

  it("adds pods: running on an added node when they name it (its DaemonSet pods), pending otherwise", async () => {
    const cf = await open(n("n1") + p("run", "nodeName: n1, ") + p("want", ""));
    const daemon: Pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "ds-n1-new-1", namespace: "default" },
      spec: {
        nodeName: "n1-new-1",
        containers: [{ name: "c", image: "x", resources: { requests: { cpu: "1" } } }],
      },
    };
    const later: Pod = {
      ...daemon,
      metadata: { name: "later", namespace: "default" },
      spec: { containers: [] },
    };
    const o = await cf.run([
      { kind: "AddNodes", like: "n1", count: 1 },
      { kind: "AddPods", pods: [daemon, later] },
    ]);
    // The DaemonSet pod holds 1 of the new node's 2 cpus: want (2 cpus) still fits nowhere.
    expect(o.pods.get("default/want")?.outcome).toBe("Unschedulable");
    expect(o.pods.get("default/later")).toMatchObject({ outcome: "Scheduled", node: "n1-new-1" });
    expect(o.result.nodes.find((x) => x.name === "n1-new-1")?.before.pods).toBe(1);
  });
});
