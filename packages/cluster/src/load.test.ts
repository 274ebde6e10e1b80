import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DeviceClass, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { type CustomObject, defineCustomResource, fieldErrors } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { InMemoryCluster } from "./in-memory-cluster";
import { isClusterObject, loadSnapshotFiles, loadSnapshotTexts, SnapshotLoadError } from "./load";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test-fixtures");

function load(name: string, text: string) {
  return loadSnapshotTexts([{ name, text }]);
}
function errorsOf(name: string, text: string): string[] {
  try {
    load(name, text);
  } catch (e) {
    if (e instanceof SnapshotLoadError) return e.errors;
    throw e;
  }
  throw new Error("expected a SnapshotLoadError");
}
const summary = (r: ReturnType<typeof load>) =>
  r.objects.map((o) => `${o.kind} ${o.obj.metadata?.namespace ?? ""}/${o.obj.metadata?.name} @ ${o.origin}`);

const pod = (name: string, extra = "") => `apiVersion: v1
kind: Pod
metadata: { name: ${name}${extra} }
spec: { containers: [{ name: c, image: i }] }
`;

describe("loadSnapshotTexts", () => {
  it("YAML multi-document, empty documents skipped, namespaces defaulted for namespaced kinds", () => {
    const r = load(
      "c.yaml",
      `${pod("p1")}---\n---\napiVersion: v1\nkind: Node\nmetadata: { name: n1 }\n---\n${pod("p2", ", namespace: team")}`,
    );
    expect(summary(r)).toEqual([
      "Pod default/p1 @ c.yaml: document 1",
      "Node /n1 @ c.yaml: document 3",
      "Pod team/p2 @ c.yaml: document 4",
    ]);
    expect(r.warnings).toEqual([]);
  });

  it("JSON: one object, an array, a kind: List and a typed list (PodList)", () => {
    const p = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: { containers: [{ name: "c" }] },
    };
    expect(summary(load("a.json", JSON.stringify(p)))).toEqual(["Pod default/p @ a.json"]);
    expect(summary(load("b.json", JSON.stringify([p, { ...p, metadata: { name: "q" } }])))).toEqual([
      "Pod default/p @ b.json, item 1",
      "Pod default/q @ b.json, item 2",
    ]);
    expect(
      summary(
        load(
          "c.json",
          JSON.stringify({
            apiVersion: "v1",
            kind: "List",
            items: [p, { kind: "Node", metadata: { name: "n" } }],
          }),
        ),
      ),
    ).toEqual(["Pod default/p @ c.json, item 1", "Node /n @ c.json, item 2"]);
    // kubectl's typed lists omit the items' kind.
    const { kind: _k, ...noKind } = p;
    expect(
      summary(load("d.json", JSON.stringify({ apiVersion: "v1", kind: "PodList", items: [noKind] }))),
    ).toEqual(["Pod default/p @ d.json, item 1"]);
  });

  it("a YAML kind: List (kubectl get -o yaml) with managedFields and status", () => {
    const r = load(
      "k.yaml",
      `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    managedFields: [{ manager: kubelet, operation: Update }]
  status: { capacity: { cpu: "4" }, allocatable: { cpu: 3900m } }
metadata: { resourceVersion: "" }
`,
    );
    expect(summary(r)).toEqual(["Node /n1 @ k.yaml: document 1, item 1"]);
  });

  it("unknown kinds are warnings and skipped", () => {
    const r = load("c.yaml", `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: d }\n---\n${pod("p")}`);
    expect(r.warnings).toEqual(["c.yaml: document 1: kind ConfigMap is not used by the scheduler; skipped"]);
    expect(summary(r)).toEqual(["Pod default/p @ c.yaml: document 2"]);
  });

  it("a workload without a pod template is an error naming the field", () => {
    expect(errorsOf("c.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: d }\n")).toEqual([
      "c.yaml: document 1 (Deployment d): spec.template.spec: Required value",
    ]);
  });

  it("quantities written as numbers are read as quantities", () => {
    const r = load(
      "c.yaml",
      "kind: Node\nmetadata: { name: n }\nstatus: { allocatable: { cpu: 4, pods: 110 } }\n",
    );
    expect((r.objects[0]?.obj as { status?: unknown } | undefined)?.status).toEqual({
      allocatable: { cpu: "4", pods: "110" },
    });
  });

  it("errors name the file, document, object and field", () => {
    expect(errorsOf("c.yaml", "apiVersion: v1\nmetadata: { name: x }\n")).toEqual([
      "c.yaml: document 1: kind: Required value",
    ]);
    expect(errorsOf("c.yaml", "apiVersion: v1\nkind: Node\nmetadata: {}\n")).toEqual([
      "c.yaml: document 1 (Node): metadata.name: Required value",
    ]);
    expect(errorsOf("c.yaml", "kind: Pod\nmetadata: { name: p }\nspec: {}\n")).toEqual([
      "c.yaml: document 1 (Pod p): spec.containers: Required value",
    ]);
    expect(errorsOf("c.yaml", "kind: Pod\nmetadata: { name: p }\n")).toEqual([
      "c.yaml: document 1 (Pod p): spec: Required value",
    ]);
    expect(
      errorsOf(
        "c.yaml",
        "kind: Node\nmetadata: { name: n }\nstatus: { allocatable: { cpu: 2x, memory: 1Gi } }\n",
      )[0],
    ).toMatch(/^c\.yaml: document 1 \(Node n\): status\.allocatable\.cpu: /);
    expect(
      errorsOf(
        "c.yaml",
        "kind: Pod\nmetadata: { name: p, namespace: ns }\nspec: { containers: [{ name: c, resources: { requests: { memory: lots } } }] }\n",
      )[0],
    ).toMatch(/^c\.yaml: document 1 \(Pod ns\/p\): spec\.containers\[0\]\.resources\.requests\.memory: /);
    expect(
      errorsOf(
        "c.yaml",
        "kind: Node\nmetadata: { name: n }\nspec: { taints: [{ key: k, effect: Sometimes }] }\n",
      ),
    ).toEqual([
      'c.yaml: document 1 (Node n): spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
    expect(
      errorsOf(
        "c.yaml",
        "kind: Pod\nmetadata: { name: p }\nspec: { priority: 1.5, containers: [{ name: c }] }\n",
      ),
    ).toEqual(["c.yaml: document 1 (Pod p): spec.priority: Invalid value: 1.5: must be an integer"]);
  });

  it("reports every error at once, across documents", () => {
    const errs = errorsOf(
      "c.yaml",
      "kind: Node\nmetadata: {}\n---\nkind: Pod\nmetadata: { name: p }\nspec: {}\n",
    );
    expect(errs).toEqual([
      "c.yaml: document 1 (Node): metadata.name: Required value",
      "c.yaml: document 2 (Pod p): spec.containers: Required value",
    ]);
  });

  it("invalid YAML and invalid JSON", () => {
    const y = errorsOf("c.yaml", "kind: Pod\nmetadata: { name: p\n");
    expect(y).toHaveLength(1);
    expect(y[0]).toMatch(/^c\.yaml: document 1: invalid YAML: /);
    const j = errorsOf("c.json", '{"kind": "Pod",');
    expect(j).toHaveLength(1);
    expect(j[0]).toMatch(/^c\.json: invalid JSON: /);
    expect(errorsOf("c.yaml", "just a string\n")).toEqual([
      "c.yaml: document 1: expected a Kubernetes object, got string",
    ]);
  });

  it("duplicates are errors naming the first definition", () => {
    expect(errorsOf("c.yaml", `${pod("p")}---\n${pod("p")}`)).toEqual([
      "c.yaml: document 2 (Pod p): duplicate Pod default/p (first defined in c.yaml: document 1)",
    ]);
    // The same name in different namespaces, or of different kinds, is fine.
    expect(summary(load("c.yaml", `${pod("p")}---\n${pod("p", ", namespace: other")}`))).toHaveLength(2);
    const twoFiles = () =>
      loadSnapshotTexts([
        { name: "a.yaml", text: "kind: Node\nmetadata: { name: n }\n" },
        { name: "b.yaml", text: "kind: Node\nmetadata: { name: n }\n" },
      ]);
    expect(twoFiles).toThrow(
      "b.yaml: document 1 (Node n): duplicate Node n (first defined in a.yaml: document 1)",
    );
  });
});

describe("loadSnapshotFiles", () => {
  it("a directory means its *.yaml, *.yml and *.json files, sorted", () => {
    const r = loadSnapshotFiles(["test-fixtures/dir"], path.join(fixtures, ".."));
    expect(summary(r)).toEqual([
      "Node /node-a @ test-fixtures/dir/01-nodes.yaml: document 1",
      "Pod default/p1 @ test-fixtures/dir/02-pods.json, item 1",
      "Pod team/p2 @ test-fixtures/dir/02-pods.json, item 2",
    ]);
  });

  it("several paths load in order", () => {
    const r = loadSnapshotFiles(["dir/02-pods.json", "dir/01-nodes.yaml"], fixtures);
    expect(r.objects.map((o) => o.kind)).toEqual(["Pod", "Pod", "Node"]);
  });

  it("a missing path is an error", () => {
    expect(() => loadSnapshotFiles(["nope.yaml"], fixtures)).toThrow("nope.yaml: no such file or directory");
  });
});

describe("loadSnapshotTexts with declared custom resources", () => {
  const widgets = defineCustomResource<CustomObject & { spec?: { size?: number } }>({
    group: "example.com",
    version: "v1",
    resource: "widgets",
    kind: "Widget",
    namespaced: true,
    validate: (o) =>
      typeof o.spec?.size === "number" ? [] : [fieldErrors.required("spec.size", "a number")],
  });
  const opts = { customResources: [widgets] };
  const widget = (name: string, extra = "spec: { size: 1 }") =>
    `apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: ${name} }\n${extra}\n`;

  it("loads objects of a declared kind with their resource, namespace defaulted", () => {
    const r = loadSnapshotTexts([{ name: "c.yaml", text: `${widget("w1")}---\n${pod("p1")}` }], opts);
    expect(summary(r)).toEqual([
      "Widget default/w1 @ c.yaml: document 1",
      "Pod default/p1 @ c.yaml: document 2",
    ]);
    expect(r.objects[0]?.resource).toBe(widgets);
    expect(r.warnings).toEqual([]);
  });

  it("without the declaration the kind is skipped with a warning", () => {
    expect(load("c.yaml", widget("w1")).warnings).toEqual([
      "c.yaml: document 1: kind Widget is not used by the scheduler; skipped",
    ]);
  });

  it("reports a wrong apiVersion, a missing name, the resource's own rules and duplicates", () => {
    const text = [
      widget("w1").replace("example.com/v1", "example.com/v2"),
      "apiVersion: example.com/v1\nkind: Widget\nmetadata: {}\n",
      widget("w2", "spec: {}"),
      widget("w3"),
      widget("w3"),
    ].join("---\n");
    let errors: string[] = [];
    try {
      loadSnapshotTexts([{ name: "c.yaml", text }], opts);
    } catch (e) {
      if (!(e instanceof SnapshotLoadError)) throw e;
      errors = e.errors;
    }
    expect(errors).toEqual([
      'c.yaml: document 1 (Widget w1): apiVersion: Unsupported value: "example.com/v2": supported values: "example.com/v1"',
      "c.yaml: document 2 (Widget): metadata.name: Required value",
      "c.yaml: document 3 (Widget w2): spec.size: Required value: a number",
      "c.yaml: document 5 (Widget w3): duplicate Widget default/w3 (first defined in c.yaml: document 4)",
    ]);
  });
});

// DRA objects (resource.k8s.io) in snapshots: every format and served version loads into the
// in-memory cluster as v1; what the API server refuses is one error naming object and field.
function clusterOf(r: ReturnType<typeof load>): InMemoryCluster {
  const cluster = new InMemoryCluster({ now: () => 0 } as never);
  for (const o of r.objects) if (isClusterObject(o)) cluster.apply(o.kind, o.obj);
  return cluster;
}

const deviceClass = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
`;

const v1beta1Slice = `apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: { name: n1-gpu }
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: { name: n1, generation: 1, resourceSliceCount: 1 }
  devices:
  - name: gpu-0
    basic:
      attributes: { model: { string: a100 } }
      capacity: { memory: { value: 40Gi } }
`;

const v1beta2Claim = `apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: { name: one-gpu, namespace: ml }
spec:
  devices:
    requests:
    - name: gpu
      exactly: { deviceClassName: gpu.example.com }
`;

describe("DRA objects in snapshots", () => {
  it("multi-document YAML: v1, v1beta1 and v1beta2 objects load as v1 into the cluster's listers", () => {
    const r = load("c.yaml", [deviceClass, v1beta1Slice, v1beta2Claim].join("---\n"));
    expect(r.warnings).toEqual([]);
    const listers = clusterOf(r).listers();
    expect(listers.deviceClasses.get("gpu.example.com")?.spec?.selectors).toHaveLength(1);
    expect(listers.resourceSlices.get("n1-gpu")).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceSlice",
      metadata: { name: "n1-gpu", resourceVersion: "2" },
      spec: {
        driver: "gpu.example.com",
        nodeName: "n1",
        pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
        devices: [
          {
            name: "gpu-0",
            attributes: { model: { string: "a100" } },
            capacity: { memory: { value: "40Gi" } },
          },
        ],
      },
    } satisfies ResourceSlice);
    expect(listers.resourceClaims.get("ml", "one-gpu")).toEqual({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: { name: "one-gpu", namespace: "ml", resourceVersion: "3" },
      spec: {
        devices: {
          requests: [
            {
              name: "gpu",
              exactly: { deviceClassName: "gpu.example.com", allocationMode: "ExactCount", count: 1 },
            },
          ],
        },
      },
    } satisfies ResourceClaim);
  });

  it("kubectl's kind: List (JSON) and a typed list whose items take the list's apiVersion", () => {
    const list = {
      apiVersion: "v1",
      kind: "List",
      items: [
        { apiVersion: "resource.k8s.io/v1", kind: "DeviceClass", metadata: { name: "gpu.example.com" } },
        {
          apiVersion: "resource.k8s.io/v1",
          kind: "ResourceClaimTemplate",
          metadata: { name: "t", namespace: "ml" },
          spec: {
            spec: {
              devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] },
            },
          },
        },
      ],
    };
    const typed = {
      apiVersion: "resource.k8s.io/v1beta1",
      kind: "ResourceSliceList",
      items: [
        {
          metadata: { name: "s" },
          spec: {
            driver: "gpu.example.com",
            allNodes: true,
            pool: { name: "p", generation: 0, resourceSliceCount: 1 },
            devices: [{ name: "d", basic: { attributes: { x: { int: 1 } } } }],
          },
        },
      ],
    };
    const r = loadSnapshotTexts([
      { name: "a.json", text: JSON.stringify(list) },
      { name: "b.json", text: JSON.stringify(typed) },
    ]);
    expect(r.warnings).toEqual([]);
    const listers = clusterOf(r).listers();
    expect(listers.deviceClasses.list().map((c: DeviceClass) => c.metadata?.name)).toEqual([
      "gpu.example.com",
    ]);
    expect(
      listers.resourceClaimTemplates.get("ml", "t")?.spec?.spec?.devices?.requests?.[0]?.exactly?.count,
    ).toBe(1);
    expect(listers.resourceSlices.get("s")?.spec.devices).toEqual([
      { name: "d", attributes: { x: { int: 1 } } },
    ]);
    expect(listers.resourceSlices.get("s")?.apiVersion).toBe("resource.k8s.io/v1");
  });

  it("a slice with duplicate device names is one error naming the slice and the field", () => {
    const slice = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: n1-gpu }
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: { name: n1, generation: 1, resourceSliceCount: 1 }
  devices: [{ name: gpu-0 }, { name: gpu-1 }, { name: gpu-0 }]
`;
    expect(errorsOf("c.yaml", slice)).toEqual([
      'c.yaml: document 1 (ResourceSlice n1-gpu): spec.devices[2].name: Duplicate value: "gpu-0"',
    ]);
  });

  it("a claim naming a DeviceClass the snapshot lacks is a warning naming claim and field; it still loads", () => {
    const r = load("c.yaml", v1beta2Claim);
    expect(r.warnings).toEqual([
      'c.yaml: document 1 (ResourceClaim ml/one-gpu): spec.devices.requests[0].exactly.deviceClassName: Not found: "gpu.example.com": no DeviceClass of this name in the snapshot; no device can be allocated for this request',
    ]);
    expect(r.objects.map((o) => o.kind)).toEqual(["ResourceClaim"]);
  });

  it("what the API server refuses: node selection, pool, requests, quantities, an unserved version", () => {
    const text = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: s }
spec:
  driver: d
  nodeName: n1
  allNodes: true
  pool: { name: p, generation: 1, resourceSliceCount: 0 }
  devices: [{ name: a, capacity: { mem: { value: lots } }, attributes: { x: { int: 1, string: y } } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: c }
spec:
  devices:
    requests:
    - name: r
    - name: s
      exactly: { deviceClassName: d, allocationMode: Some }
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: { name: old }
spec: {}
`;
    expect(errorsOf("c.yaml", text)).toEqual([
      "c.yaml: document 1 (ResourceSlice s): spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
      "c.yaml: document 1 (ResourceSlice s): spec: Invalid value: {`nodeName`, `allNodes`}: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set",
      "c.yaml: document 1 (ResourceSlice s): spec.devices[0].capacity[mem].value: cannot parse quantity \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      "c.yaml: document 1 (ResourceSlice s): spec.devices[0].attributes[x]: Invalid value: exactly one value must be specified",
      "c.yaml: document 2 (ResourceClaim c): spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required",
      'c.yaml: document 2 (ResourceClaim c): spec.devices.requests[1].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"',
      'c.yaml: document 3 (ResourceSlice old): apiVersion: Unsupported value: "resource.k8s.io/v1alpha3": supported values: "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"',
    ]);
  });
});

describe("loadSnapshotTexts: a device's nodeAllocatableResources (DRANodeAllocatableResources) as the API server would take it", () => {
  const slice = (devices: string) => `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: cpus }
spec:
  driver: dra.example.com
  nodeName: n1
  pool: { name: p, generation: 1, resourceSliceCount: 1 }
  devices:
${devices}`;

  it("takes mappings by device count and by consumed capacity, and overheads", () => {
    const text = slice(`  - name: numa0
    nodeAllocatableResources: { cpu: { mapping: { deviceMultiplier: "16" } } }
  - name: socket0
    allowMultipleAllocations: true
    capacity: { dra.example.com/cores: { value: "64" } }
    nodeAllocatableResources:
      cpu: { mapping: { capacityKey: dra.example.com/cores, capacityMultiplier: "2" } }
      memory: { overhead: { perPod: 1Gi, perContainer: 100Mi } }
      hugepages-2Mi: { mapping: { deviceMultiplier: "1" }, overhead: { perPod: "0" } }
`);
    const r = loadSnapshotTexts([{ name: "s.yaml", text }]);
    expect(r.objects.map((o) => o.kind)).toEqual(["ResourceSlice"]);
  });

  it("refuses neither or both of deviceMultiplier and capacityKey, an unknown capacity key, a negative quantity, an unsupported resource", () => {
    const text = slice(`  - name: a
    capacity: { dra.example.com/cores: { value: "8" } }
    nodeAllocatableResources:
      cpu: { mapping: {} }
      memory: { mapping: { deviceMultiplier: "1", capacityKey: dra.example.com/cores, capacityMultiplier: "1" } }
  - name: b
    capacity: { dra.example.com/cores: { value: "8" } }
    nodeAllocatableResources:
      cpu: { mapping: { capacityKey: dra.example.com/threads, capacityMultiplier: "1" } }
      memory: { mapping: { deviceMultiplier: "-1Gi" } }
      nvidia.com/gpu: { mapping: { deviceMultiplier: "1" } }
  - name: c
    nodeAllocatableResources:
      cpu: {}
      memory: { mapping: { capacityKey: dra.example.com/mem }, overhead: {} }
`);
    const where = "s.yaml: document 1 (ResourceSlice cpus)";
    expect(errorsOf("s.yaml", text)).toEqual([
      `${where}: spec.devices[0].nodeAllocatableResources[cpu].mapping: Required value: exactly one of \`capacityKey\` or \`deviceMultiplier\` is required`,
      `${where}: spec.devices[0].nodeAllocatableResources[memory].mapping: Invalid value: {\`capacityKey\`, \`deviceMultiplier\`}: exactly one of \`capacityKey\` or \`deviceMultiplier\` is required, but multiple fields are set`,
      `${where}: spec.devices[1].nodeAllocatableResources[cpu].mapping.capacityKey: Invalid value: "dra.example.com/threads": must name a capacity of the device (one of "dra.example.com/cores")`,
      `${where}: spec.devices[1].nodeAllocatableResources[memory].mapping.deviceMultiplier: Invalid value: "-1Gi": must be greater than or equal to 0`,
      `${where}: spec.devices[1].nodeAllocatableResources: Unsupported value: "nvidia.com/gpu": supported values: "cpu", "memory", "hugepages-<size>"`,
      `${where}: spec.devices[2].nodeAllocatableResources[cpu]: Required value: at least one of \`mapping\` or \`overhead\` is required`,
      `${where}: spec.devices[2].nodeAllocatableResources[memory].mapping.capacityKey: Invalid value: "dra.example.com/mem": must name a capacity of the device (it has none)`,
      `${where}: spec.devices[2].nodeAllocatableResources[memory].mapping.capacityMultiplier: Required value: required when \`capacityKey\` is set`,
      `${where}: spec.devices[2].nodeAllocatableResources[memory].overhead: Required value: at least one of \`perPod\` or \`perContainer\` is required`,
    ]);
  });
});

describe("loadSnapshotTexts with a replica scale and additional inputs (kubesched sweep)", () => {
  const workloads = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: i}]}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  parallelism: 2
  completions: 5
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: c, image: i}]}}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
`;
  const owners = (
    objects: { kind: string; obj: { metadata?: { ownerReferences?: { kind: string; name: string }[] } } }[],
  ) => {
    const count = new Map<string, number>();
    for (const o of objects) {
      if (o.kind !== "Pod") continue;
      const ref = o.obj.metadata?.ownerReferences?.[0];
      const key = ref ? `${ref.kind}/${ref.name}` : "none";
      count.set(key, (count.get(key) ?? 0) + 1);
    }
    return Object.fromEntries([...count].sort());
  };

  it("multiplies the replicas of Deployments, StatefulSets and Jobs, rounded up, and leaves DaemonSets alone", () => {
    const base = loadSnapshotTexts([{ name: "w.yaml", text: workloads }]);
    expect(owners(base.objects)).toEqual({
      "DaemonSet/agent": 1,
      "Job/batch": 2,
      "ReplicaSet/web-5cb748794f": 3,
      "StatefulSet/db": 1,
    });
    const scaled = loadSnapshotTexts([{ name: "w.yaml", text: workloads }], { replicaScale: 2.5 });
    // 3 × 2.5 = 7.5 → 8; 1 → 3; Job parallelism 2 → 5 (completions 5 → 13).
    expect(owners(scaled.objects)).toEqual({
      "DaemonSet/agent": 1,
      "Job/batch": 5,
      "ReplicaSet/web-5cb748794f": 8,
      "StatefulSet/db": 3,
    });
  });

  it("reads additional inputs after the files: their nodes get the DaemonSets' pods", () => {
    const pool = {
      name: "sweep.yaml: pools[0] (pool p)",
      text: JSON.stringify({
        kind: "List",
        items: [{ apiVersion: "v1", kind: "Node", metadata: { name: "p-1" } }],
      }),
    };
    const loaded = loadSnapshotTexts([{ name: "w.yaml", text: workloads }], { additionalInputs: [pool] });
    expect(
      loaded.objects.filter((o) => o.kind === "Node").map((o) => [o.obj.metadata?.name, o.origin]),
    ).toEqual([
      ["n1", "w.yaml: document 5"],
      ["p-1", "sweep.yaml: pools[0] (pool p): document 1, item 1"],
    ]);
    expect(owners(loaded.objects)["DaemonSet/agent"]).toBe(2);
  });
});
