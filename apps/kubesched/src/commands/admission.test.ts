// LimitRange and ResourceQuota in what users run: `capacity` counts templates as the cluster
// would admit them (LimitRanger's defaults, quota exhaustion as its own stop reason), and
// `simulate` creates a workload's pods through the same admission (refused pods are not created:
// a warning says why, and the result lists them as Refused with the API server's message). Snapshot pods were admitted already and stay as they are.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeApiServer } from "@kubesched/kube/testing";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-admission-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = (...argv: string[]) => runCliIn(root, argv);

function file(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

// Two 4-cpu nodes; namespace shop: a LimitRange defaulting requests to 500m/512Mi, a quota of
// 6 pods and 3 cpu of requests; one running pod of 1 cpu already counts against it.
const cluster = file(
  "cluster.yaml",
  `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
- {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
- apiVersion: v1
  kind: LimitRange
  metadata: {name: defaults, namespace: shop}
  spec:
    limits:
    - type: Container
      defaultRequest: {cpu: 500m, memory: 512Mi}
      default: {cpu: "1", memory: 1Gi}
      max: {cpu: "2"}
- apiVersion: v1
  kind: ResourceQuota
  metadata: {name: shop-quota, namespace: shop}
  spec: {hard: {pods: "6", requests.cpu: "3"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: running, namespace: shop}
  spec:
    nodeName: n1
    containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
`,
);
const bare = file(
  "bare.yaml",
  `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers: [{name: c, image: nginx}]
`,
);

describe("capacity with LimitRange and ResourceQuota", () => {
  it("defaults a template without requests and stops at the quota with upstream's message", async () => {
    const out = await run("capacity", "--cluster", cluster, "--pod", bare, "-o", "json");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    // 3 cpu of quota, 1 used: 4 replicas of the defaulted 500m.
    expect(r.status.replicas).toBe(4);
    expect(r.spec.templates[0].spec.containers[0].resources).toEqual({
      requests: { cpu: "500m", memory: "512Mi" },
      limits: { cpu: "1", memory: "1Gi" },
    });
    expect(r.spec.templates[0].metadata.annotations["kubernetes.io/limit-ranger"]).toBe(
      "LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c",
    );
    expect(r.status.failReason).toEqual({
      failType: "QuotaExceeded",
      failMessage:
        'pods "web-4" is forbidden: exceeded quota: shop-quota, requested: requests.cpu=500m, used: requests.cpu=3, limited: requests.cpu=3',
    });
    const table = await run("capacity", "--cluster", cluster, "--pod", bare);
    expect(table.stdout).toContain(
      'stopped: QuotaExceeded: pods "web-4" is forbidden: exceeded quota: shop-quota',
    );
  });

  it("a template of a namespace without LimitRange or quota is counted as before", async () => {
    const other = file(
      "other.yaml",
      `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: other}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
`,
    );
    const r = JSON.parse((await run("capacity", "--cluster", cluster, "--pod", other, "-o", "json")).stdout);
    expect(r.status.replicas).toBe(7);
    expect(r.status.failReason.failType).toBe("Unschedulable");
  });

  it("a template the LimitRange refuses is one error before any work", async () => {
    const tooBig = file(
      "too-big.yaml",
      `apiVersion: v1
kind: Pod
metadata: {name: big, namespace: shop}
spec:
  containers: [{name: c, image: nginx, resources: {limits: {cpu: "3"}}}]
`,
    );
    const out = await run("capacity", "--cluster", cluster, "--pod", tooBig);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      'error: template 1 (Pod shop/big): pods "big" is forbidden: maximum cpu usage per Container is 2, but limit is 3\n',
    );
  });

  it("bad LimitRange and ResourceQuota objects name file, object and field", async () => {
    const bad = file(
      "bad.yaml",
      `apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: shop}
spec:
  limits: [{type: Node, max: {cpu: lots}}]
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: q, namespace: shop}
spec:
  hard: {pods: "-1"}
  scopes: [Sometimes]
`,
    );
    const out = await run("capacity", "--cluster", bad, "--pod", bare);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      `error: ${bad}: document 1 (LimitRange shop/lr): spec.limits[0].type: Unsupported value: "Node": supported values: "Container", "PersistentVolumeClaim", "Pod"`,
    );
    expect(out.stderr).toContain(`error: ${bad}: document 1 (LimitRange shop/lr): spec.limits[0].max.cpu: `);
    expect(out.stderr).toContain(
      `error: ${bad}: document 2 (ResourceQuota shop/q): spec.hard.pods: Invalid value: "-1": must be greater than or equal to 0`,
    );
    expect(out.stderr).toContain(
      `error: ${bad}: document 2 (ResourceQuota shop/q): spec.scopes[0]: Invalid value: "Sometimes": unsupported scope`,
    );
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("simulate: a workload's pods go through admission", () => {
  it("pods get LimitRanger's defaults; those past the quota are not created: a warning, and listed as Refused", async () => {
    const deploy = file(
      "deploy.yaml",
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop-web, namespace: shop, uid: d1}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx}]
`,
    );
    const out = await run("simulate", "--cluster", cluster, "--cluster", deploy, "-o", "json");
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    // 3 cpu of quota, 1 used by the running pod: 4 of the 6 pods of 500m are created; the other
    // two are listed as refused, with the API server's refusal, and counted.
    const refusal =
      /^pods "shop-web-[a-z0-9]+-[a-z0-9]+" is forbidden: exceeded quota: shop-quota, requested: requests\.cpu=500m, used: requests\.cpu=3, limited: requests\.cpu=3$/;
    expect(r.pods).toHaveLength(6);
    expect(r.pods.map((p: { outcome: string }) => p.outcome)).toEqual([
      "Scheduled",
      "Scheduled",
      "Scheduled",
      "Scheduled",
      "Refused",
      "Refused",
    ]);
    for (const p of r.pods.slice(4)) {
      expect(p).toMatchObject({ namespace: "shop", node: null, nominatedNode: null, attempts: 0 });
      expect(p.message).toMatch(refusal);
      expect(p.message).toContain(`pods "${p.name}" is forbidden`);
    }
    expect(r.summary).toMatchObject({ pods: 4, scheduled: 4, refused: 2 });
    const { stdout: schema } = await run("simulate", "--schema");
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(schema));
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    const warnings = out.stderr.split("\n").filter((l) => l.startsWith("warning: "));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^warning: .*deploy\.yaml: document 1 \(Deployment shop\/shop-web\): pods "shop-web-[a-z0-9]+-[a-z0-9]+" is forbidden: exceeded quota: shop-quota, requested: requests\.cpu=500m, used: requests\.cpu=3, limited: requests\.cpu=3$/,
    );

    const table = await run("simulate", "--cluster", cluster, "--cluster", deploy);
    expect(table.code).toBe(0);
    const rows = table.stdout.split("\n").filter((l) => / Refused /.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(
      /^shop\/shop-web-\S+ +Refused +- +0 +pods "shop-web-\S+" is forbidden: exceeded quota: shop-quota/,
    );
    expect(table.stdout).toContain(
      "4 pending pods: 4 scheduled, 0 unschedulable, 0 error, 0 gated, 0 skipped; 2 refused by admission (not created)",
    );
  });
});

describe("simulate: a StatefulSet pod whose claim LimitRanger refuses", () => {
  it("is listed as Refused with the claim's refusal; the other pod is created", async () => {
    const sts = file(
      "sts.yaml",
      `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
- apiVersion: v1
  kind: LimitRange
  metadata: {name: claims, namespace: db}
  spec:
    limits:
    - type: PersistentVolumeClaim
      max: {storage: 10Gi}
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: pg, namespace: db, uid: s1}
  spec:
    replicas: 1
    selector: {matchLabels: {app: pg}}
    template:
      metadata: {labels: {app: pg}}
      spec:
        containers: [{name: c, image: postgres, resources: {requests: {cpu: "1"}}}]
    volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}}
`,
    );
    const out = await run("simulate", "--cluster", sts, "-o", "json");
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.pods).toEqual([
      {
        namespace: "db",
        name: "pg-0",
        outcome: "Refused",
        node: null,
        nominatedNode: null,
        attempts: 0,
        message: expect.stringMatching(/^persistentvolumeclaims "data-pg-0" is forbidden: /),
      },
    ]);
    expect(r.summary).toMatchObject({ pods: 0, refused: 1 });
  });
});

describe("LimitRange and ResourceQuota from the API server", () => {
  it("snapshot writes them; capacity --kubeconfig and capacity on the snapshot agree", async () => {
    const api = await FakeApiServer.start();
    try {
      const kubeconfig = file("kubeconfig", api.kubeConfigYAML());
      api.put("Node", {
        metadata: { name: "n1" },
        status: { allocatable: { cpu: "8", memory: "16Gi", pods: "110" } },
      });
      api.put("LimitRange", {
        metadata: { name: "defaults", namespace: "shop" },
        spec: { limits: [{ type: "Container", defaultRequest: { cpu: "1" } }] },
      });
      // status.used counts a pod the snapshot does not carry (a live quota's usage).
      api.put("ResourceQuota", {
        metadata: { name: "q", namespace: "shop" },
        spec: { hard: { "requests.cpu": "4" } },
        status: { hard: { "requests.cpu": "4" }, used: { "requests.cpu": "1" } },
      });
      const live = await runCliIn(tmp, ["capacity", "--kubeconfig", kubeconfig, "--pod", bare, "-o", "json"]);
      // The only stderr line: the release of the emulator's /version, which the run follows.
      expect(live.stderr).toBe(
        "emulating Kubernetes 1.37, the release of the cluster's API server (v1.37.0); --emulated-version overrides\n",
      );
      const r = JSON.parse(live.stdout);
      expect(r.status.replicas).toBe(3);
      expect(r.status.failReason.failType).toBe("QuotaExceeded");
      const snap = await runCliIn(tmp, [
        "snapshot",
        "--kubeconfig",
        kubeconfig,
        "--out",
        "admission-snap.yaml",
      ]);
      expect(snap.code).toBe(0);
      const offline = await runCliIn(tmp, [
        "capacity",
        "--cluster",
        "admission-snap.yaml",
        "--pod",
        bare,
        "-o",
        "json",
      ]);
      expect(offline.stdout).toBe(live.stdout);
    } finally {
      await api.close();
    }
  });
});
