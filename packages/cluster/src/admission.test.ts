import type { Node, Pod } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { AdmissionError, admit } from "./admission";
import { loadSnapshotTexts } from "./load";

function admitted(yaml: string) {
  return admit(loadSnapshotTexts([{ name: "c.yaml", text: yaml }]).objects);
}
const podNamed = (objs: ReturnType<typeof admitted>, name: string) =>
  objs.find((o) => o.kind === "Pod" && o.obj.metadata?.name === name)?.obj as Pod;

const classes = `kind: PriorityClass
metadata: { name: high }
value: 1000
---
kind: PriorityClass
metadata: { name: never }
value: 5
preemptionPolicy: Never
---
`;

describe("admit: Priority", () => {
  it("resolves priorityClassName to priority and preemptionPolicy", () => {
    const objs = admitted(`${classes}kind: Pod
metadata: { name: a }
spec: { priorityClassName: high, containers: [{ name: c }] }
---
kind: Pod
metadata: { name: b }
spec: { priorityClassName: never, containers: [{ name: c }] }
---
kind: Pod
metadata: { name: c }
spec: { containers: [{ name: c }] }
`);
    expect(podNamed(objs, "a").spec).toMatchObject({
      priority: 1000,
      priorityClassName: "high",
      preemptionPolicy: "PreemptLowerPriority",
      schedulerName: "default-scheduler",
    });
    expect(podNamed(objs, "b").spec).toMatchObject({ priority: 5, preemptionPolicy: "Never" });
    // No class and no global default: priority stays unset (0).
    expect(podNamed(objs, "c").spec?.priority).toBeUndefined();
  });

  it("a globalDefault class applies to pods without a class (the highest value wins)", () => {
    const objs = admitted(`kind: PriorityClass
metadata: { name: d1 }
value: 7
globalDefault: true
---
kind: PriorityClass
metadata: { name: d2 }
value: 9
globalDefault: true
---
kind: Pod
metadata: { name: a }
spec: { containers: [{ name: c }] }
`);
    expect(podNamed(objs, "a").spec).toMatchObject({ priority: 9, priorityClassName: "d2" });
  });

  it("system classes resolve without being declared", () => {
    const objs = admitted(`kind: Pod
metadata: { name: a }
spec: { priorityClassName: system-node-critical, containers: [{ name: c }] }
---
kind: Pod
metadata: { name: b }
spec: { priorityClassName: system-cluster-critical, containers: [{ name: c }] }
`);
    expect(podNamed(objs, "a").spec?.priority).toBe(2000001000);
    expect(podNamed(objs, "b").spec?.priority).toBe(2000000000);
  });

  it("an explicit priority is kept", () => {
    const objs = admitted(`${classes}kind: Pod
metadata: { name: a }
spec: { priority: 3, priorityClassName: high, containers: [{ name: c }] }
`);
    expect(podNamed(objs, "a").spec?.priority).toBe(3);
  });

  it("an unknown class is an error naming the document; every error is reported", () => {
    const run = () =>
      admitted(`kind: Pod
metadata: { name: a }
spec: { priorityClassName: gold, containers: [{ name: c }] }
---
kind: Pod
metadata: { name: b }
spec: { priorityClassName: silver, containers: [{ name: c }] }
`);
    expect(run).toThrow(AdmissionError);
    try {
      run();
    } catch (e) {
      expect((e as AdmissionError).errors).toEqual([
        "c.yaml: document 1: no PriorityClass with name gold was found",
        "c.yaml: document 2: no PriorityClass with name silver was found",
      ]);
    }
  });
});

describe("admit: defaults", () => {
  it("uid defaults to namespace/name; namespace to default", () => {
    const objs = admitted(`kind: Pod
metadata: { name: a }
spec: { containers: [{ name: c }] }
---
kind: Pod
metadata: { name: b, namespace: x, uid: given }
spec: { containers: [{ name: c }] }
`);
    expect(podNamed(objs, "a").metadata).toMatchObject({ namespace: "default", uid: "default/a" });
    expect(podNamed(objs, "b").metadata).toMatchObject({ namespace: "x", uid: "given" });
  });

  it("node allocatable defaults to capacity; a given allocatable is kept", () => {
    const objs = admitted(`kind: Node
metadata: { name: a }
status: { capacity: { cpu: "4", memory: 8Gi } }
---
kind: Node
metadata: { name: b }
status: { capacity: { cpu: "4" }, allocatable: { cpu: 3500m } }
`);
    const node = (n: string) => objs.find((o) => o.obj.metadata?.name === n)?.obj as Node;
    expect(node("a").status?.allocatable).toEqual({ cpu: "4", memory: "8Gi" });
    expect(node("b").status?.allocatable).toEqual({ cpu: "3500m" });
  });
});

describe("admit: MatchLabelKeysInPodAffinity", () => {
  it("merges matchLabelKeys (In) and mismatchLabelKeys (NotIn) into the label selector", () => {
    const objs = admitted(`kind: Pod
metadata: { name: a, labels: { app: web, tenant: t1 } }
spec:
  containers: [{ name: c }]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: zone
          labelSelector: { matchLabels: { app: web } }
          matchLabelKeys: [app, missing]
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 10
          podAffinityTerm:
            topologyKey: zone
            labelSelector: { matchLabels: { app: web } }
            mismatchLabelKeys: [tenant]
`);
    const aff = podNamed(objs, "a").spec?.affinity;
    expect(aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector).toEqual({
      matchLabels: { app: "web" },
      matchExpressions: [{ key: "app", operator: "In", values: ["web"] }],
    });
    expect(
      aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.podAffinityTerm
        .labelSelector,
    ).toEqual({
      matchLabels: { app: "web" },
      matchExpressions: [{ key: "tenant", operator: "NotIn", values: ["t1"] }],
    });
  });

  it("does not merge twice (a snapshot taken from a real API server already has them)", () => {
    const objs = admitted(`kind: Pod
metadata: { name: a, labels: { app: web } }
spec:
  containers: [{ name: c }]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: zone
          labelSelector:
            matchLabels: { app: web }
            matchExpressions: [{ key: app, operator: In, values: [web] }]
          matchLabelKeys: [app]
`);
    expect(
      podNamed(objs, "a").spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]
        ?.labelSelector?.matchExpressions,
    ).toEqual([{ key: "app", operator: "In", values: ["web"] }]);
  });

  it("a term without a label selector is left alone", () => {
    const objs = admitted(`kind: Pod
metadata: { name: a, labels: { app: web } }
spec:
  containers: [{ name: c }]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: zone
          matchLabelKeys: [app]
`);
    expect(
      podNamed(objs, "a").spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]
        ?.labelSelector,
    ).toBeUndefined();
  });
});
