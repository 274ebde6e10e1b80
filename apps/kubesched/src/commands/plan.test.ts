// kubesched plan, as the CLI runs it: the bundled example (exact by count and by cost, each
// expander), the proof's placements checked against `simulate` of the snapshot with the added
// nodes written out as YAML, the PlanReport against its schema, --kubeconfig on the emulator,
// and the pools files that contradict themselves (one error before any work).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PlanReport } from "@kubesched/cluster";
import { FakeApiServer } from "@kubesched/kube/testing";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYAML, stringify } from "yaml";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-plan-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cluster = "examples/plan/cluster.yaml";
const pools = "examples/plan/pools.yaml";
const run = (...argv: string[]) => runCliIn(root, argv);

function file(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

async function planJSON(...argv: string[]): Promise<PlanReport> {
  const r = await run("plan", "--cluster", cluster, "--pools", pools, "-o", "json", ...argv);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PlanReport;
}

const additions = (r: PlanReport) => Object.fromEntries(r.status.additions.map((a) => [a.pool, a.count]));

describe("kubesched plan on the example", () => {
  it("finds the smallest addition by node count and names the pod no pool can host", async () => {
    const r = await planJSON();
    expect(r.kind).toBe("PlanReport");
    expect(r.status).toMatchObject({ found: true, minimal: true, nodes: 3, cost: 2.6 });
    expect(additions(r)).toEqual({ "general-a": 1, gpu: 2 });
    expect(r.status.excluded.map((e) => e.pod)).toEqual(["default/nvme-db"]);
    expect(r.status.excluded[0]?.reasons.map((x) => x.pool)).toEqual(["general-a", "general-b", "gpu"]);
    const left = r.status.pods.filter((p) => p.outcome !== "Scheduled").map((p) => p.pod);
    expect(left).toEqual(["default/nvme-db"]);
    expect(r.status.pods.filter((p) => p.pool === "gpu").map((p) => p.pod.split("-")[0])).toEqual([
      "default/train",
      "default/train",
    ]);
  });

  it("by price, prefers the cheaper pool where the node count allows", async () => {
    const r = await planJSON("--optimize", "cost");
    expect(r.status).toMatchObject({ found: true, minimal: true, cost: 2.6 });
    expect(r.spec.optimize).toBe("cost");
  });

  it("the proof is what simulate prints for the snapshot with the added nodes", async () => {
    // The example with its DaemonSet: plan queues an added node's DaemonSet pods pending where
    // simulate's loader creates them for the snapshot with the added nodes written out.
    const r = JSON.parse(
      (await run("plan", "--cluster", cluster, "--pools", pools, "-o", "json")).stdout,
    ) as PlanReport;
    expect(r.status.found).toBe(true);
    const templates = (
      parseYAML(readFileSync(join(root, pools), "utf8")) as {
        pools: { name: string; node: { metadata: { labels: Record<string, string> } } }[];
      }
    ).pools;
    const nodes = r.status.additions.flatMap((a) =>
      a.nodes.map((name) => {
        const t = templates.find((p) => p.name === a.pool)?.node as {
          metadata: { labels: Record<string, string> };
        };
        return {
          ...t,
          apiVersion: "v1",
          kind: "Node",
          metadata: { name, labels: { ...t.metadata.labels, "kubernetes.io/hostname": name } },
        };
      }),
    );
    const added = file("added.yaml", nodes.map((d) => stringify(d)).join("---\n"));
    const sim = await run("simulate", "--cluster", cluster, "--cluster", added, "-o", "json");
    const placed = new Map(
      (
        JSON.parse(sim.stdout) as { pods: { namespace: string; name: string; node: string | null }[] }
      ).pods.map((p) => [`${p.namespace}/${p.name}`, p.node]),
    );
    // 12 workload pods and the DaemonSet's pods for the snapshot's two nodes.
    expect(r.status.pods.length).toBe(14);
    for (const p of r.status.pods) expect(placed.get(p.pod), p.pod).toBe(p.node);
  });

  it("an added node's DaemonSet pods queue where the loader creates them, so a tie breaks as in simulate", async () => {
    // The DaemonSet comes after the Deployment: simulate of the snapshot with general-new-1
    // written out queues both web pods before any agent pod, so the first web pod sees two empty
    // nodes. Bound to general-new-1 from the start (plan before), the agent made n1 the emptier.
    const snapshot = file(
      "ds-after.yaml",
      `apiVersion: v1
kind: Node
metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
status: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: web, image: web, resources: { requests: { cpu: "3", memory: 1Gi } } }]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: kube-system }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      containers: [{ name: agent, image: agent, resources: { requests: { cpu: 500m, memory: 256Mi } } }]
`,
    );
    const onePool = file(
      "one-pool.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: NodePools
pools:
  - name: general
    maxCount: 2
    node:
      status: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }
`,
    );
    const plan = await run("plan", "--cluster", snapshot, "--pools", onePool, "-o", "json");
    expect(plan.code).toBe(0);
    const r = JSON.parse(plan.stdout) as PlanReport;
    expect(additions(r)).toEqual({ general: 1 });
    const added = file(
      "general-new-1.yaml",
      `apiVersion: v1
kind: Node
metadata: { name: general-new-1, labels: { kubernetes.io/hostname: general-new-1 } }
status: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }
`,
    );
    const sim = await run("simulate", "--cluster", snapshot, "--cluster", added, "-o", "json");
    const placed = (JSON.parse(sim.stdout) as { pods: { namespace: string; name: string; node: string }[] })
      .pods;
    expect(r.status.pods.map((p) => [p.pod, p.node])).toEqual(
      placed
        .filter((p) => p.name.startsWith("web-") || p.node === "n1")
        .map((p) => [`${p.namespace}/${p.name}`, p.node]),
    );
    expect(r.status.pods.find((p) => p.pod.startsWith("default/web-"))?.node).toBe("general-new-1");
  });

  it.each([
    ["least-waste", { "general-a": 1, gpu: 2 }],
    ["price", { "general-a": 1, gpu: 2 }],
    ["most-pods", { "general-a": 1, gpu: 2 }],
    ["priority", { "general-a": 1, gpu: 2 }],
  ])("the %s expander's addition schedules every pod and is not claimed minimal", async (expander, want) => {
    const r = await planJSON("--expander", expander);
    expect(r.spec.expander).toBe(expander);
    expect(r.status).toMatchObject({ found: true, minimal: false });
    expect(additions(r)).toEqual(want);
    // The baseline and two steps (docs/plan.md's table of expanders against the exact search).
    expect(r.status.search.simulations).toBe(3);
    expect(r.status.pods.filter((p) => p.outcome !== "Scheduled").map((p) => p.pod)).toEqual([
      "default/nvme-db",
    ]);
  });

  it("-o json and -o yaml carry the same PlanReport, valid against --schema", async () => {
    const schema = JSON.parse((await run("plan", "--schema")).stdout);
    expect(schema.title).toBe("PlanReport");
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const json = await planJSON("--expander", "least-waste");
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const yaml = await run(
      "plan",
      "--cluster",
      cluster,
      "--pools",
      pools,
      "-o",
      "yaml",
      "--expander",
      "least-waste",
    );
    expect(parseYAML(yaml.stdout)).toEqual(json);
    expect(validate({ ...json, extra: 1 })).toBe(false);
  }, 60_000);

  it("the table names the pools, the proof's nodes and the search", async () => {
    const r = await run("plan", "--cluster", cluster, "--pools", pools);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Plan (exact search, smallest by node count): add 3 node(s), cost 2.6\n");
    expect(r.stdout).toContain("gpu        2    2.4    gpu-new-1, gpu-new-2\n");
    expect(r.stdout).toContain(
      "default/nvme-db: general-a: node(s) didn't match Pod's node affinity/selector;",
    );
    expect(r.stdout).toContain(
      "Proof: simulate of the snapshot with the added nodes: 13/14 pending pod(s) scheduled\n",
    );
  });

  it("says so when no addition within maxCount works, exit 1", async () => {
    const pod = (name: string) => `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default, labels: {app: a}}
spec:
  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: a}}}]}}
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
`;
    const snapshot = file(
      "three.yaml",
      `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
${pod("a1")}${pod("a2")}${pod("a3")}`,
    );
    const small = file(
      "small-pools.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: NodePools
pools:
  - {name: one, maxCount: 1, node: {status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}}}
`,
    );
    const r = await run("plan", "--cluster", snapshot, "--pools", small, "-o", "json");
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as PlanReport;
    expect(report.status).toMatchObject({ found: false, minimal: false, additions: [], excluded: [] });
    expect(report.status.message).toBe("no addition within the pools' maxCount schedules every pod");
    // The proof shows every pool at its maxCount: one pod still pending.
    expect(report.status.pods.map((p) => p.node).sort()).toEqual(["n1", null, "one-new-1"]);
  });
});

describe("kubesched plan: the exact search's lower bounds", () => {
  it("zone spread rules out the uneven additions without a run: one simulation for 3 zones", async () => {
    // Three zones with one full node each; 18 one-cpu pods spread over the zones (maxSkew 1);
    // a 2-cpu pool per zone. Every 9-node addition holds the cpu, but only 3 per zone lets the
    // spread place all 18 (6 per zone): the capacity bound alone left 31 of them to simulate.
    const zones = ["a", "b", "c"];
    const snapshot = file(
      "zones.yaml",
      [
        ...zones.flatMap((z) => [
          `apiVersion: v1
kind: Node
metadata: {name: n-${z}, labels: {kubernetes.io/hostname: n-${z}, topology.kubernetes.io/zone: ${z}}}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "110"}}`,
          `apiVersion: v1
kind: Pod
metadata: {name: base-${z}, namespace: running}
spec: {nodeName: n-${z}, containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}`,
        ]),
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 18
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]
      containers: [{name: web, image: web, resources: {requests: {cpu: "1", memory: 100Mi}}}]`,
      ].join("\n---\n"),
    );
    const zonePools = file(
      "zone-pools.yaml",
      `apiVersion: kubesched.io/v1alpha1
kind: NodePools
pools:
${zones
  .map(
    (z) => `  - name: pool-${z}
    maxCount: 10
    node:
      metadata: {labels: {topology.kubernetes.io/zone: ${z}}}
      status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}`,
  )
  .join("\n")}
`,
    );
    const r = await run("plan", "--cluster", snapshot, "--pools", zonePools, "-o", "json");
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as PlanReport;
    expect(report.status).toMatchObject({ found: true, minimal: true, nodes: 9 });
    expect(additions(report)).toEqual({ "pool-a": 3, "pool-b": 3, "pool-c": 3 });
    expect(report.status.search).toMatchObject({ simulations: 1, lowerBound: 9, exhausted: false });
    expect(report.status.pods.every((p) => p.outcome === "Scheduled")).toBe(true);
  });
});

describe("kubesched plan --kubeconfig", () => {
  it("plans on what the API server lists, with --workloads loaded after it", async () => {
    const api = await FakeApiServer.start();
    try {
      const kubeconfig = file("kubeconfig", api.kubeConfigYAML());
      api.put("Node", {
        metadata: { name: "n1", labels: { "kubernetes.io/hostname": "n1" } },
        status: { allocatable: { cpu: "2", memory: "8Gi", pods: "110" } },
      });
      const workloads = file(
        "web.yaml",
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}
      containers: [{name: web, image: web, resources: {requests: {cpu: "1"}}}]
`,
      );
      const r = await runCliIn(tmp, [
        "plan",
        "--kubeconfig",
        kubeconfig,
        "--workloads",
        workloads,
        "--pools",
        join(root, pools),
        "-o",
        "json",
      ]);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as PlanReport;
      // One pod per node (anti-affinity): n1 and two more; general-a is the cheapest at equal count.
      expect(additions(report)).toEqual({ "general-a": 2 });
      expect(report.status.pods.every((p) => p.outcome === "Scheduled")).toBe(true);
    } finally {
      await api.close();
    }
  });
});

describe("kubesched plan: pools that cannot be used are one error before work starts", () => {
  const poolsFile = (name: string, body: string) =>
    file(name, `apiVersion: kubesched.io/v1alpha1\nkind: NodePools\npools:\n${body}`);
  const node = `node: {metadata: {labels: {zone: a}}, status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}}`;

  it.each([
    [
      "max 0",
      `  - {name: p, maxCount: 0, ${node}}\n`,
      "pools[0].maxCount: Invalid value: 0: not in valid range [1, inf)",
    ],
    ["an unknown field", `  - {name: p, maxCount: 1, size: 3, ${node}}\n`, "pools[0].size: unknown field"],
    [
      "minCount above maxCount",
      `  - {name: p, maxCount: 1, minCount: 2, ${node}}\n`,
      "pools[0].minCount: Invalid value: 2: must be at most maxCount",
    ],
    [
      "a duplicate name",
      `  - {name: p, maxCount: 1, ${node}}\n  - {name: p, maxCount: 1, ${node}}\n`,
      'pools[1].name: Duplicate value: "p"',
    ],
  ])("%s", async (_, body, want) => {
    const f = poolsFile("bad.yaml", body);
    const r = await run("plan", "--cluster", cluster, "--pools", f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`error: ${f}: ${want}`);
  });

  it("allocatable below its own DaemonSet pods", async () => {
    const f = poolsFile(
      "ds.yaml",
      `  - {name: small, maxCount: 3, node: {status: {allocatable: {cpu: 100m, memory: 8Gi, pods: "110"}}}}\n`,
    );
    const r = await run("plan", "--cluster", cluster, "--pools", f);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: .*ds\.yaml: pools\[0\] \(pool small\): the node template's allocatable cpu \(100m\) is below its DaemonSet pods' requests \(200m: monitoring\/node-exporter-\w+\)\n$/,
    );
  });

  it("nodes required (minCount) while no pending pod tolerates their taints", async () => {
    const f = poolsFile(
      "taint.yaml",
      `  - name: infra
    maxCount: 3
    minCount: 1
    node: {spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}]}, status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}}
`,
    );
    const r = await run("plan", "--cluster", cluster, "--pools", f);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: .*taint\.yaml: pools\[0\] \(pool infra\): minCount 1 requires its nodes, but no pending pod tolerates its taints dedicated=infra:NoSchedule\n$/,
    );
  });

  it("--optimize cost without a price on every pool", async () => {
    const f = poolsFile("noprice.yaml", `  - {name: p, maxCount: 2, ${node}}\n`);
    const r = await run("plan", "--cluster", cluster, "--pools", f, "--optimize", "cost");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${f}: pools[0] (pool p): no price; --optimize cost needs a price on every pool\n`,
    );
  });

  it("--pools missing, an unknown expander", async () => {
    expect((await run("plan", "--cluster", cluster)).stderr).toBe(
      "error: --pools is required (a NodePools file)\n",
    );
    const r = await run("plan", "--cluster", cluster, "--pools", pools, "--expander", "random");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'invalid value "random" for --expander: must be one of least-waste, price, most-pods, priority',
    );
  });

  it("a file of another kind", async () => {
    const f = file("kind.yaml", "apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\npools: []\n");
    const r = await run("plan", "--cluster", cluster, "--pools", f);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: ${f}: kind: Unsupported value: "SweepMatrix": supported values: "NodePools"`,
    );
  });
});
