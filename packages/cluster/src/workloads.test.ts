// Workloads expanded into pods as their controllers would, then scheduled by simulate().
import type { Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { loadSnapshotTexts } from "./load";
import { simulate } from "./simulate";
import { generatedName } from "./workloads";

const nodes = ["n1", "n2", "n3"]
  .map(
    (n) => `---
apiVersion: v1
kind: Node
metadata: {name: ${n}, labels: {kubernetes.io/hostname: ${n}}}
spec: ${n === "n3" ? "{taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}" : "{}"}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`,
  )
  .join("");
const template = `
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}`;

function load(yaml: string) {
  return loadSnapshotTexts([{ name: "w.yaml", text: nodes + yaml }]).objects;
}
const podsOf = (objects: ReturnType<typeof load>) =>
  objects.filter((o) => o.kind === "Pod").map((o) => o.obj as Pod);

describe("workload expansion", () => {
  it("a Deployment becomes a ReplicaSet <name>-<pod-template-hash> and its pods, owned by it", () => {
    const objects = load(`---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}${template}
`);
    const rs = objects.find((o) => o.kind === "ReplicaSet")?.obj;
    const hash = rs?.metadata?.labels?.["pod-template-hash"] ?? "";
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs?.metadata?.name).toBe(`web-${hash}`);
    expect(rs?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: "Deployment",
      name: "web",
      controller: true,
    });
    const pods = podsOf(objects);
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata?.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(p.metadata?.namespace).toBe("shop");
      expect(p.metadata?.labels).toEqual({ app: "web", "pod-template-hash": hash });
      expect(p.metadata?.ownerReferences?.[0]).toMatchObject({
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: `web-${hash}`,
      });
    }
    expect(new Set(pods.map((p) => p.metadata?.name)).size).toBe(3);
  });

  it("a StatefulSet creates <name>-<ordinal> with hostname, subdomain and one claim per template", () => {
    const objects = load(`---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: web}}${template}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`);
    const pods = podsOf(objects);
    expect(pods.map((p) => p.metadata?.name)).toEqual(["db-0", "db-1"]);
    expect(pods[1]?.spec?.hostname).toBe("db-1");
    expect(pods[1]?.spec?.subdomain).toBe("db");
    expect(pods[1]?.metadata?.labels?.["statefulset.kubernetes.io/pod-name"]).toBe("db-1");
    expect(pods[1]?.metadata?.labels?.["apps.kubernetes.io/pod-index"]).toBe("1");
    expect(pods[1]?.spec?.volumes).toEqual([
      { name: "data", persistentVolumeClaim: { claimName: "data-db-1" } },
    ]);
    expect(
      objects.filter((o) => o.kind === "PersistentVolumeClaim").map((o) => o.obj.metadata?.name),
    ).toEqual(["data-db-0", "data-db-1"]);
  });

  it("a Job creates parallelism pods with the job-name labels; Indexed jobs carry their index", () => {
    const objects = load(`---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  parallelism: 2
  completions: 5
  completionMode: Indexed${template}
`);
    const pods = podsOf(objects);
    expect(pods).toHaveLength(2);
    expect(pods[0]?.metadata?.name).toMatch(/^train-0-[a-z0-9]{5}$/);
    expect(pods[0]?.metadata?.labels).toMatchObject({
      "batch.kubernetes.io/job-name": "train",
      "job-name": "train",
      "batch.kubernetes.io/job-completion-index": "0",
    });
    expect(pods[0]?.metadata?.ownerReferences?.[0]).toMatchObject({
      apiVersion: "batch/v1",
      kind: "Job",
      name: "train",
    });
  });

  it("a DaemonSet creates one pod per eligible node, pinned by matchFields metadata.name; tainted nodes are skipped", async () => {
    const yaml = `---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: web}}${template}
`;
    const objects = load(yaml);
    const pods = podsOf(objects);
    expect(pods).toHaveLength(2);
    expect(
      pods.map((p) => p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    ).toEqual([
      { nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }] },
      { nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n2"] }] }] },
    ]);
    expect(pods[0]?.spec?.tolerations).toContainEqual({
      key: "node.kubernetes.io/unschedulable",
      operator: "Exists",
      effect: "NoSchedule",
    });
    const r = await simulate({
      config: defaultConfig({ registry: inTreeRegistry }),
      registry: inTreeRegistry,
      objects,
      logger: recordingLogger(),
    });
    expect(r.pods.map((p) => [p.outcome, p.node])).toEqual([
      ["Scheduled", "n1"],
      ["Scheduled", "n2"],
    ]);
  });

  it("pods the workload already owns count toward its replicas", () => {
    const objects = load(`---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, uid: rs-uid}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}${template}
---
apiVersion: v1
kind: Pod
metadata: {name: rs-abcde, labels: {app: web}, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]}
spec: {nodeName: n1, containers: [{name: c, image: x}]}
`);
    expect(podsOf(objects)).toHaveLength(3);
  });
});

describe("generated pod names (generateName + 5 characters, as the API server gives them)", () => {
  const alphabet = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;
  const deployment = (name: string, replicas: number) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 10m}}}]}
`;

  it("a 2000-node cluster with 92 Deployments of 50 replicas loads: every pod name is unique", () => {
    const nodeDocs = Array.from(
      { length: 2000 },
      (_, i) => `---
apiVersion: v1
kind: Node
metadata: {name: node-${i}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`,
    ).join("");
    const workloads = Array.from({ length: 92 }, (_, i) => deployment(`svc-${i}`, 50)).join("");
    const objects = loadSnapshotTexts([{ name: "big.yaml", text: nodeDocs + workloads }]).objects;
    const names = podsOf(objects).map((p) => p.metadata?.name ?? "");
    expect(names).toHaveLength(92 * 50);
    expect(new Set(names).size).toBe(names.length);
  });

  it("one owner's suffixes never collide (a permutation of the 27^5 suffixes), and look random", () => {
    const names = Array.from({ length: 100_000 }, (_, i) => generatedName("web-", "uid-1", i));
    expect(new Set(names).size).toBe(names.length);
    for (const n of names.slice(0, 1000)) expect(n.slice(4)).toMatch(alphabet);
    // Consecutive indexes do not give consecutive suffixes.
    expect(new Set(names.slice(0, 100).map((n) => n.slice(4, 6))).size).toBeGreaterThan(50);
    // The last index of the space still maps into it.
    expect(generatedName("web-", "uid-1", 27 ** 5 - 1)).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(() => generatedName("web-", "uid-1", 27 ** 5)).toThrow(RangeError);
  });

  it("a name is a function of (owner, index): the same in any input order, different per owner", () => {
    const a = podsOf(load(deployment("a", 3) + deployment("b", 3))).map((p) => p.metadata?.name);
    const b = podsOf(load(deployment("b", 3) + deployment("a", 3))).map((p) => p.metadata?.name);
    expect(new Set(a)).toEqual(new Set(b));
    expect(generatedName("x-", "uid-1", 0)).not.toBe(generatedName("x-", "uid-2", 0));
  });

  it("generateName is cut to 58 characters, as the API server's name generator does", () => {
    const long = `${"a".repeat(70)}-`;
    const name = generatedName(long, "uid", 0);
    expect(name).toHaveLength(63);
    expect(name.slice(0, 58)).toBe("a".repeat(58));
  });
});
