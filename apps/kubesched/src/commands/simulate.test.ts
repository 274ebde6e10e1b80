// kubesched simulate, in process, with the in-tree registry: the docs/simulate.md contract
// (flags, SimulationResult shape, determinism) and the user-facing errors.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { writeGeneratedCluster } from "./generated-cluster.test-util";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const fixtures = "apps/kubesched/test-fixtures";

const run = (...argv: string[]) => runCliIn(root, argv);

interface PodResult {
  namespace: string;
  name: string;
  outcome: string;
  node: string | null;
  nominatedNode: string | null;
  attempts: number;
  message: string | null;
  explain?: Record<string, unknown>;
}
interface Result {
  kind: string;
  pods: PodResult[];
  preemptions: unknown[];
  nodes: {
    name: string;
    allocatable: Record<string, string>;
    requested: Record<string, string>;
    pods: number;
  }[];
  summary: Record<string, number | null>;
}
const placements = (r: Result) =>
  Object.fromEntries(r.pods.map((p) => [`${p.namespace}/${p.name}`, p.node ?? p.outcome]));

const tmp = mkdtempSync(join(tmpdir(), "kubesched-simulate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("kubesched simulate --cluster examples/cluster.yaml", () => {
  it("prints the table", async () => {
    const { code, stdout, stderr } = await run("simulate", "--cluster", "examples/cluster.yaml");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^POD\s+OUTCOME\s+NODE\s+ATTEMPTS\s+MESSAGE$/);
    expect(stdout).toMatch(/^shop\/web-1\s+Scheduled\s+\S+\s+1$/m);
    expect(stdout).toMatch(/^default\/train-0\s+Scheduled\s+gpu-c2\s+1$/m);
    expect(stdout).toMatch(
      /^default\/render-xl\s+Unschedulable\s+-\s+1\s+0\/6 nodes are available: 1 node\(s\) had untolerated taint\(s\), 1 node\(s\) were unschedulable, 4 Insufficient cpu, 4 Insufficient memory\./m,
    );
    expect(stdout).toMatch(
      /^shop\/migrate-schema\s+Gated\s+-\s+0\s+waiting for scheduling gates: \[example\.com\/wait-for-db\]$/m,
    );
    expect(stdout).toMatch(
      /^default\/audit-agent\s+Skipped\s+-\s+0\s+no profile for schedulerName "security-scheduler"$/m,
    );
    expect(stdout).toMatch(/^NODE\s+CPU REQUESTED\s+MEMORY REQUESTED\s+PODS$/m);
    expect(stdout).toMatch(/^node-a2\s+0\/4 \(0%\)\s+0\/16Gi \(0%\)\s+0\/110$/m);
    expect(stdout).toContain("11 pending pods: 8 scheduled, 1 unschedulable, 0 error, 1 gated, 1 skipped\n");
  });

  it("-o json prints one SimulationResult with every field of the contract", async () => {
    const { code, stdout } = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "json");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(Object.keys(r)).toEqual(["kind", "pods", "preemptions", "nodes", "summary"]);
    expect(r.kind).toBe("SimulationResult");
    for (const p of r.pods) {
      expect(Object.keys(p)).toEqual([
        "namespace",
        "name",
        "outcome",
        "node",
        "nominatedNode",
        "attempts",
        "message",
      ]);
      expect(["Scheduled", "Unschedulable", "Error", "Gated", "Skipped"]).toContain(p.outcome);
      if (p.outcome !== "Scheduled") expect(p.node).toBeNull();
      else expect(p.message).toBeNull();
    }
    expect(r.pods.map((p) => p.name)).toEqual([
      "web-1",
      "web-2",
      "web-3",
      "cache-0",
      "db-0",
      "train-0",
      "ingress-1",
      "batch-1",
      "render-xl",
      "migrate-schema",
      "audit-agent",
    ]);
    // Topology spread over three zones; db-0 and ingress-1 need disktype=ssd (ingress-0 holds
    // host port 443 on node-a1); the GPU pod tolerates the taint.
    const zoneOf: Record<string, string> = {
      "node-a1": "a",
      "node-a2": "a",
      "node-b1": "b",
      "node-b2": "b",
      "node-c1": "c",
      "gpu-c2": "c",
    };
    const webZones = r.pods.filter((p) => p.name.startsWith("web-")).map((p) => zoneOf[p.node ?? ""]);
    expect(new Set(webZones).size).toBe(3);
    const by = Object.fromEntries(r.pods.map((p) => [p.name, p]));
    expect(["node-a1", "node-b1"]).toContain(by["db-0"]?.node);
    expect(by["ingress-1"]?.node).toBe("node-b1");
    expect(by["train-0"]?.node).toBe("gpu-c2");
    for (const n of r.nodes) {
      const scalar = n.name === "gpu-c2" ? ["scalarResources"] : [];
      expect(Object.keys(n)).toEqual(["name", "allocatable", "requested", "pods", "before", ...scalar]);
      expect(Object.keys(n.requested)).toEqual(["cpu", "memory"]);
    }
    expect(r.nodes.find((n) => n.name === "node-c1")).toMatchObject({
      requested: { cpu: "3500m", memory: "9Gi" },
      pods: 2,
      before: { requested: { cpu: "3", memory: "8Gi" }, pods: 1 },
    });
    expect(r.nodes.find((n) => n.name === "gpu-c2")).toMatchObject({
      scalarResources: { "nvidia.com/gpu": { allocatable: "2", requested: "1", requestedBefore: "0" } },
    });
    expect(r.nodes.find((n) => n.name === "node-b1")?.allocatable).toEqual({
      cpu: "7800m",
      memory: "31Gi",
      pods: "110",
    });
    expect(r.summary).toEqual({
      pods: 11,
      scheduled: 8,
      unschedulable: 1,
      error: 0,
      gated: 1,
      skipped: 1,
      wallMs: null,
      podsPerSecond: null,
    });
    expect(r.preemptions).toEqual([]);
  });

  it("--timing fills summary.wallMs and podsPerSecond (and reports them on stderr for tables)", async () => {
    const json = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "json", "--timing");
    const r = JSON.parse(json.stdout) as Result;
    expect(typeof r.summary.wallMs).toBe("number");
    expect(typeof r.summary.podsPerSecond).toBe("number");
    const table = await run("simulate", "--cluster", "examples/cluster.yaml", "--timing");
    expect(table.stderr).toMatch(/^scheduled 8 pods in [\d.]+ ms \(\d+ pods\/s\)\n$/);
  });

  it("-o yaml is the same result as YAML", async () => {
    const json = JSON.parse(
      (await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "json")).stdout,
    );
    const yaml = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "yaml");
    expect(yaml.code).toBe(0);
    expect(yaml.stdout.startsWith("kind: SimulationResult\n")).toBe(true);
    expect(parseYAML(yaml.stdout)).toEqual(json);
  });

  it("--explain adds the deciding attempt to scheduled and unschedulable pods", async () => {
    const { code, stdout } = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "-o",
      "json",
      "--explain",
    );
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    const by = Object.fromEntries(r.pods.map((p) => [p.name, p]));
    for (const name of ["migrate-schema", "audit-agent"]) expect(by[name]).not.toHaveProperty("explain");
    const web = by["web-1"]?.explain as {
      preFilter: Record<string, { code: string }>;
      filter: Record<string, Record<string, { code: string; reasons?: string[] }>>;
      score: Record<string, Record<string, { raw: number; normalized: number; weighted: number }>>;
      finalScore: Record<string, number>;
      selectedNode: string;
    };
    expect(web.selectedNode).toBe(by["web-1"]?.node);
    expect(web.preFilter.PodTopologySpread).toEqual({ code: "Success" });
    // The cordoned node stops at NodeUnschedulable.
    expect(web.filter["node-a2"]).toEqual({
      NodeUnschedulable: { code: "UnschedulableAndUnresolvable", reasons: ["node(s) were unschedulable"] },
    });
    expect(web.filter["gpu-c2"]?.TaintToleration).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ["node(s) had untolerated taint(s)"],
    });
    const winner = web.selectedNode;
    expect(Object.keys(web.score)).toContain(winner);
    const total = Object.values(web.score[winner] ?? {}).reduce((a, s) => a + s.weighted, 0);
    expect(web.finalScore[winner]).toBe(total);
    expect(Math.max(...Object.values(web.finalScore))).toBe(web.finalScore[winner]);
    // TaintToleration has weight 3: weighted = normalized * 3.
    const tt = web.score[winner]?.TaintToleration;
    expect(tt?.weighted).toBe((tt?.normalized ?? 0) * 3);
    const render = by["render-xl"]?.explain as {
      selectedNode: string | null;
      postFilter?: Record<string, unknown>;
    };
    expect(render.selectedNode).toBeNull();
    expect(render.postFilter).toHaveProperty("DefaultPreemption");
  });

  it("--seed: the same seed gives byte-identical output", async () => {
    for (const format of ["json", "table"]) {
      const a = await run(
        "simulate",
        "--cluster",
        "examples/cluster.yaml",
        "-o",
        format,
        "--seed",
        "42",
        "--explain",
      );
      const b = await run(
        "simulate",
        "--cluster",
        "examples/cluster.yaml",
        "-o",
        format,
        "--seed",
        "42",
        "--explain",
      );
      expect(a.code).toBe(0);
      expect(a.stdout).toBe(b.stdout);
    }
  });

  it("--out FILE writes the result there and nothing to stdout", async () => {
    const out = join(tmp, "result.json");
    const res = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "json", "--out", out);
    expect(res).toEqual({ code: 0, stdout: "", stderr: "" });
    const direct = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "json");
    expect(readFileSync(out, "utf8")).toBe(direct.stdout);
  });
});

describe("kubesched simulate inputs", () => {
  it("several --cluster flags and a directory", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      `${fixtures}/dir`,
      "--cluster",
      `${fixtures}/more-nodes.yaml`,
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(r.nodes.map((n) => n.name)).toEqual(["n1", "extra"]);
    expect(r.pods.map((p) => p.name)).toEqual(["from-json"]);
    expect(r.pods[0]?.outcome).toBe("Scheduled");
  });

  it("DRA objects (resource.k8s.io v1, v1beta2, v1beta1) load; a claim's missing DeviceClass is a warning", async () => {
    const f = join(tmp, "dra.yaml");
    writeFileSync(
      f,
      [
        "apiVersion: v1\nkind: Node\nmetadata: { name: n }\nstatus: { allocatable: { cpu: '1', pods: '10' } }",
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: { name: gpu }",
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: { name: s }\nspec: { driver: d, nodeName: n, pool: { name: n, generation: 1, resourceSliceCount: 1 }, devices: [{ name: g, basic: {} }] }",
        "apiVersion: resource.k8s.io/v1beta2\nkind: ResourceClaimTemplate\nmetadata: { name: t }\nspec: { spec: { devices: { requests: [{ name: r, exactly: { deviceClassName: gpu } }] } } }",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: { name: c }\nspec: { devices: { requests: [{ name: r, exactly: { deviceClassName: tpu } }] } }",
        "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { containers: [{ name: c }] }",
      ].join("\n---\n"),
    );
    const { code, stdout, stderr } = await run("simulate", "--cluster", f, "-o", "json");
    expect(stderr).toBe(
      `warning: ${f}: document 5 (ResourceClaim default/c): spec.devices.requests[0].exactly.deviceClassName: Not found: "tpu": no DeviceClass of this name in the snapshot; no device can be allocated for this request\n`,
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as Result).pods.map((p) => p.outcome)).toEqual(["Scheduled"]);
  });

  it("a pod's claim from a template: created as the resourceclaim controller does; a missing template leaves the pod gated", async () => {
    const f = join(tmp, "dra-template.yaml");
    const docs = [
      "apiVersion: v1\nkind: Node\nmetadata: { name: n }\nstatus: { allocatable: { cpu: '1', pods: '10' } }",
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: { name: gpu }",
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: { name: t }\nspec: { spec: { devices: { requests: [{ name: r, exactly: { deviceClassName: gpu } }] } } }",
      "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { resourceClaims: [{ name: g, resourceClaimTemplateName: t }], containers: [{ name: c }] }",
      "apiVersion: v1\nkind: Pod\nmetadata: { name: q }\nspec: { resourceClaims: [{ name: g, resourceClaimTemplateName: missing }], containers: [{ name: c }] }",
    ];
    writeFileSync(f, docs.join("\n---\n"));
    const { code, stdout, stderr } = await run("simulate", "--cluster", f, "-o", "json");
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^W\d{4} [\d:.]+\] "pod default\/q, PodResourceClaim g: resource claim template \\"missing\\": resourceclaimtemplate.resource.k8s.io \\"missing\\" not found"\n$/,
    );
    const pods = (JSON.parse(stdout) as Result).pods;
    // p's claim exists (named p-g-<5 characters>): it is no longer "not created yet".
    expect(pods[0]?.message).not.toContain("ResourceClaim not created yet");
    expect(pods[1]).toMatchObject({
      outcome: "Gated",
      message: 'pod "default/q": ResourceClaim not created yet',
    });
  });

  it("unknown kinds are warnings on stderr; the run goes on", async () => {
    const f = join(tmp, "with-deployment.yaml");
    writeFileSync(
      f,
      "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: d }\n---\napiVersion: v1\nkind: Node\nmetadata: { name: n }\n",
    );
    const { code, stderr } = await run("simulate", "--cluster", f, "-o", "json");
    expect(code).toBe(0);
    expect(stderr).toBe(
      `warning: ${f}: document 1: kind ConfigMap is not used by the scheduler; skipped\nwarning: no pending pods (pods without spec.nodeName) in ${f}\n`,
    );
  });
});

describe("kubesched simulate with workloads (examples/workloads/deployment.yaml)", () => {
  it("the Deployment's replicas and one DaemonSet pod per schedulable node are scheduled as pending pods", async () => {
    const argv = [
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--cluster",
      "examples/workloads/deployment.yaml",
    ];
    const { code, stdout, stderr } = await run(...argv, "-o", "json");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    const api = r.pods.filter((p) => p.namespace === "shop" && p.name.startsWith("api-"));
    expect(api).toHaveLength(3);
    // One ReplicaSet name for the three: <deployment>-<pod-template-hash>-<suffix>.
    expect(new Set(api.map((p) => p.name.replace(/-[a-z0-9]{5}$/, "")))).toEqual(new Set(["api-688d99f469"]));
    expect(api.every((p) => p.outcome === "Scheduled")).toBe(true);
    // The DaemonSet: one pod per node it tolerates, each on its own node (pinned by affinity).
    const agents = r.pods.filter((p) => p.namespace === "kube-system" && p.name.startsWith("log-agent-"));
    expect(agents.map((p) => p.outcome)).toEqual(agents.map(() => "Scheduled"));
    expect(new Set(agents.map((p) => p.node)).size).toBe(agents.length);
    expect(agents.length).toBeGreaterThan(0);
    // The same run as a table: the README's example output.
    const table = await run(...argv);
    expect(table.stdout).toMatch(/\nshop\/api-688d99f469-[a-z0-9]{5} +Scheduled +node-\S+ +1\n/);
  });
});

describe("kubesched simulate --config examples/config/bin-packing.yaml", () => {
  it("a MostAllocated profile packs pods where the default spreads them", async () => {
    const cluster = `${fixtures}/bin-packing-cluster.yaml`;
    const spread = await run("simulate", "--cluster", cluster, "-o", "json");
    const packed = await run(
      "simulate",
      "--cluster",
      cluster,
      "-o",
      "json",
      "--config",
      "examples/config/bin-packing.yaml",
    );
    expect(spread.code).toBe(0);
    expect(packed.code).toBe(0);
    expect(placements(JSON.parse(spread.stdout))).toEqual({
      "default/job-1": "empty",
      "default/job-2": "empty",
    });
    expect(placements(JSON.parse(packed.stdout))).toEqual({
      "default/job-1": "busy",
      "default/job-2": "busy",
    });
  });
});

describe("kubesched simulate errors", () => {
  const dir = "examples/invalid/clusters";
  const expected: Record<string, RegExp | string> = {
    "bad-quantity.yaml": `error: ${dir}/bad-quantity.yaml: document 1 (Node node-a): status.allocatable.cpu: cannot parse quantity "2 cores": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n`,
    "missing-name.yaml": `error: ${dir}/missing-name.yaml: document 1 (Node): metadata.name: Required value\n`,
    "missing-kind.yaml": `error: ${dir}/missing-kind.yaml: document 1: kind: Required value\n`,
    "bad-taint-effect.yaml": `error: ${dir}/bad-taint-effect.yaml: document 1 (Node node-a): spec.taints[0].effect: Unsupported value: "NoScheduling": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"\n`,
    "invalid-yaml.txt":
      /^error: examples\/invalid\/clusters\/invalid-yaml\.txt: document 1: invalid YAML: Flow map in block collection must be sufficiently indented and end with a \} at line 5, column 1/,
    "duplicate-object.yaml": `error: ${dir}/duplicate-object.yaml: document 3 (Pod shop/web): duplicate Pod shop/web (first defined in ${dir}/duplicate-object.yaml: document 2)\n`,
    "unknown-priority-class.yaml": `error: ${dir}/unknown-priority-class.yaml: document 2: no PriorityClass with name gold was found\n`,
    "missing-containers.yaml": `error: ${dir}/missing-containers.yaml: document 1 (Pod web): spec.containers: Required value\n`,
    "duplicate-device-names.yaml": `error: ${dir}/duplicate-device-names.yaml: document 1 (ResourceSlice node-a-gpu.example.com): spec.devices[2].name: Duplicate value: "gpu-0"\n`,
  };

  it("every file in examples/invalid/clusters has an expected error", () => {
    expect(readdirSync(join(root, dir)).sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [file, want] of Object.entries(expected)) {
    it(`${dir}/${file}: exit 1 with the error, no stack trace`, async () => {
      const { code, stdout, stderr } = await run("simulate", "--cluster", `${dir}/${file}`);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      if (typeof want === "string") expect(stderr).toBe(want);
      else expect(stderr).toMatch(want);
      expect(stderr).not.toContain("    at ");
    });
  }

  it("a JSON syntax error names the file", async () => {
    // Generated here: the repository's formatter rejects malformed JSON files in the tree.
    const f = join(tmp, "json-syntax.json");
    writeFileSync(f, '{\n  "apiVersion": "v1",\n  "kind": "Node",\n  "metadata": { "name": "node-a" },\n}\n');
    const { code, stdout, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      new RegExp(`^error: ${f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: invalid JSON: `),
    );
    expect(stderr).not.toContain("    at ");
  });

  it("every error of a file is printed", async () => {
    const f = join(tmp, "two-errors.yaml");
    writeFileSync(f, "kind: Node\nmetadata: {}\n---\nkind: Pod\nmetadata: { name: p }\nspec: {}\n");
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: ${f}: document 1 (Node): metadata.name: Required value\nerror: ${f}: document 2 (Pod p): spec.containers: Required value\n`,
    );
  });

  it("a missing file", async () => {
    const { code, stderr } = await run("simulate", "--cluster", "no/such/file.yaml");
    expect(code).toBe(1);
    expect(stderr).toBe("error: no/such/file.yaml: no such file or directory\n");
  });

  it("an invalid --config is reported with the config file's name", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--config",
      "examples/invalid/percentage-of-nodes-to-score.yaml",
    );
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "error: examples/invalid/percentage-of-nodes-to-score.yaml: percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]\n",
    );
  });

  describe("usage errors exit 2", () => {
    it("no --cluster", async () => {
      const { code, stdout, stderr } = await run("simulate");
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toBe(
        "error: give either --cluster (a file or directory of Kubernetes objects) or --kubeconfig / --context (read from a cluster)\n",
      );
    });
    for (const seed of ["abc", "-1", "1.5", "4294967296"]) {
      it(`bad --seed ${seed}`, async () => {
        const { code, stderr } = await run(
          "simulate",
          "--cluster",
          "examples/cluster.yaml",
          `--seed=${seed}`,
        );
        expect(code).toBe(2);
        expect(stderr).toBe(
          `error: invalid value "${seed}" for --seed: must be an integer from 0 to 4294967295\n`,
        );
      });
    }
    it("bad --output", async () => {
      const { code, stderr } = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "xml");
      expect(code).toBe(2);
      expect(stderr).toBe(
        'error: invalid value "xml" for --output: use one of table, json, yaml\nRun "kubesched simulate --help" for usage.\n',
      );
    });
    it("an unknown flag", async () => {
      const { code, stderr } = await run("simulate", "--cluster", "examples/cluster.yaml", "--explian");
      expect(code).toBe(2);
      expect(stderr).toBe(
        'error: unknown flag --explian (did you mean --explain?)\nRun "kubesched simulate --help" for usage.\n',
      );
    });
    it("--config given twice", async () => {
      const { code, stderr } = await run(
        "simulate",
        "--cluster",
        "examples/cluster.yaml",
        "--config",
        "a.yaml",
        "--config",
        "b.yaml",
      );
      expect(code).toBe(2);
      expect(stderr.startsWith("error: flag --config given more than once\n")).toBe(true);
    });
  });

  it("--help documents every flag", async () => {
    const { code, stdout } = await run("simulate", "--help");
    expect(code).toBe(0);
    for (const flag of [
      "--config",
      "--cluster",
      "--output",
      "--explain",
      "--seed",
      "--out",
      "--timing",
      "--report",
    ]) {
      expect(stdout).toContain(flag);
    }
  });
});

describe("kubesched simulate --cluster examples/preemption.yaml", () => {
  it("preempts the cheapest victims, keeps the PDB, and lands the preemptor on the nominated node", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/preemption.yaml",
      "-o",
      "json",
      "--explain",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    // worker-1 needs one victim (report-0; etl-0 is protected by its PodDisruptionBudget),
    // worker-2 would need two: fewer victims' priorities win (upstream pickOneNodeForPreemption).
    expect(r.preemptions).toEqual([
      { preemptor: "prod/payments-0", node: "worker-1", victims: ["batch/report-0"] },
    ]);
    const payments = r.pods.find((p) => p.name === "payments-0")!;
    expect(payments).toMatchObject({ outcome: "Scheduled", node: "worker-1", attempts: 2, message: null });
    // The deciding attempt (the second) found the nominated node feasible.
    expect((payments.explain as { selectedNode: string }).selectedNode).toBe("worker-1");
    // Same priority as the running batch pods: nothing to preempt.
    const crawl = r.pods.find((p) => p.name === "crawl-3")!;
    expect(crawl).toMatchObject({ outcome: "Unschedulable", node: null, nominatedNode: null });
    expect(crawl.message).toBe(
      "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
    );
    expect(r.nodes.find((n) => n.name === "worker-1")).toMatchObject({ requested: { cpu: "4" }, pods: 2 });
    expect(r.summary).toMatchObject({ pods: 2, scheduled: 1, unschedulable: 1 });
  });

  it("--delete-latency: async preemption waits that long (simulated) for the victims, then lands the preemptor", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/preemption.yaml",
      "--delete-latency",
      "30s",
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(r.preemptions).toEqual([
      { preemptor: "prod/payments-0", node: "worker-1", victims: ["batch/report-0"] },
    ]);
    expect(r.pods.find((p) => p.name === "payments-0")).toMatchObject({
      outcome: "Scheduled",
      node: "worker-1",
      attempts: 2,
    });
  });

  it("--delete-latency beyond the idle horizon (1h): the victim is still being deleted, the preemptor waits nominated", async () => {
    const { code, stdout } = await run(
      "simulate",
      "--cluster",
      "examples/preemption.yaml",
      "--delete-latency",
      "2h",
      "-o",
      "json",
    );
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    // The Preempted event is recorded once the DELETE returns: not yet.
    expect(r.preemptions).toEqual([]);
    expect(r.pods.find((p) => p.name === "payments-0")).toMatchObject({
      outcome: "Unschedulable",
      node: null,
      nominatedNode: "worker-1",
      attempts: 1,
    });
  });

  it("--delete-latency takes a duration", async () => {
    const { code, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/preemption.yaml",
      "--delete-latency",
      "soon",
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: invalid value "soon" for --delete-latency: must be a duration such as "50ms"\n',
    );
  });

  it("--explain: the preemptor's deciding attempt evaluated its nominated node only, and says so", async () => {
    const { code, stdout } = await run("simulate", "--cluster", "examples/preemption.yaml", "--explain");
    expect(code).toBe(0);
    expect(stdout).toContain(
      "prod/payments-0: Scheduled on worker-1\n  filter: 1/1 nodes passed (the nominated node, evaluated first: it passed, so no other node was evaluated)\n",
    );
    expect(stdout).not.toContain("percentageOfNodesToScore");
  });

  it("lists preemptions in the table", async () => {
    const { code, stdout } = await run("simulate", "--cluster", "examples/preemption.yaml");
    expect(code).toBe(0);
    expect(stdout).toContain("PREEMPTIONS\nprod/payments-0 on worker-1: evicted batch/report-0\n");
  });
});

describe("logging flags (-v, --logging-format)", () => {
  it("-v 2 logs each binding and each failure on stderr, klog-style", async () => {
    const { code, stderr } = await run("simulate", "--cluster", "examples/cluster.yaml", "-v", "2");
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^I\d{4} [\d:.]+\] "Successfully bound pod to node" .*pod="shop\/web-1" node="node-b2"/m,
    );
    expect(stderr).toMatch(/^I\d{4} [\d:.]+\] "Unable to schedule pod; waiting" .*pod="default\/render-xl"/m);
    expect(stderr).not.toContain("Attempting to schedule pod");
  });

  it("--logging-format json writes one JSON object per line", async () => {
    const { code, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--v=3",
      "--logging-format",
      "json",
    );
    expect(code).toBe(0);
    const lines = stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", v: 3, msg: "Attempting to schedule pod", pod: "shop/web-1" }),
    );
  });

  it("a bad --v is a usage error", async () => {
    const { code, stderr } = await run("simulate", "--cluster", "examples/cluster.yaml", "--v", "high");
    expect(code).toBe(2);
    expect(stderr).toContain('error: invalid value "high" for --v: must be a non-negative integer');
  });
});

/** The model inside a report (the page's inline JSON blob). */
function reportData(html: string): {
  title: string;
  sections: {
    kind: string;
    summary: Record<string, unknown>;
    pods: { name: string; outcome: string; explain?: unknown }[];
    preemptions: unknown[];
    nodes: { name: string; resources: Record<string, { text: string[] }> }[];
  }[];
} {
  const blob = /<script type="application\/json" id="kubesched-report-data">(.*?)<\/script>/s.exec(html)?.[1];
  if (!blob) throw new Error("no report data in the page");
  return JSON.parse(blob);
}

describe("kubesched simulate --report", () => {
  it("examples/cluster.yaml --explain: the table on stdout, the report in the file with the same result", async () => {
    const file = join(tmp, "cluster-report.html");
    const res = await run("simulate", "--cluster", "examples/cluster.yaml", "--explain", "--report", file);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      "11 pending pods: 8 scheduled, 1 unschedulable, 0 error, 1 gated, 1 skipped\n",
    );
    const html = readFileSync(file, "utf8");
    expect(html).toContain("kubesched simulate --cluster examples/cluster.yaml --seed 0 --explain");
    const json = JSON.parse(
      (await run("simulate", "--cluster", "examples/cluster.yaml", "--explain", "-o", "json")).stdout,
    ) as Result;
    const [sec] = reportData(html).sections;
    expect(sec?.kind).toBe("simulation");
    expect(sec?.summary).toEqual(json.summary);
    expect(sec?.pods.map((p) => [p.name, p.outcome, p.explain !== undefined])).toEqual(
      json.pods.map((p) => [p.name, p.outcome, p.explain !== undefined]),
    );
    expect(sec?.nodes.find((n) => n.name === "gpu-c2")?.resources["nvidia.com/gpu"]?.text).toEqual([
      "2",
      "0",
      "1",
    ]);
  });

  it("examples/preemption.yaml: the preemption and the victim's node before and after", async () => {
    const file = join(tmp, "preemption-report.html");
    const res = await run("simulate", "--cluster", "examples/preemption.yaml", "--report", file);
    expect(res.code).toBe(0);
    const [sec] = reportData(readFileSync(file, "utf8")).sections;
    expect(sec?.preemptions).toEqual([
      { preemptor: "prod/payments-0", node: "worker-1", victims: ["batch/report-0"] },
    ]);
    // worker-1: etl-0 and report-0 (1.5 cpu each) before; etl-0 and payments-0 after.
    expect(sec?.nodes.find((n) => n.name === "worker-1")?.resources.cpu?.text).toEqual(["4", "3", "4"]);
    // Without --explain there is no per-pod explain.
    expect(sec?.pods.every((p) => p.explain === undefined)).toBe(true);
  });

  it("a report that cannot be written is an error naming the file", async () => {
    const res = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--report",
      join(tmp, "no/such/dir/r.html"),
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `error: ${join(tmp, "no/such/dir/r.html")}: cannot write: no such file or directory\n`,
    );
  });

  it("--out naming a directory is one error line, not a raw EISDIR", async () => {
    const res = await run("simulate", "--cluster", "examples/cluster.yaml", "--out", tmp);
    expect(res).toEqual({ code: 1, stdout: "", stderr: `error: ${tmp}: cannot write: is a directory\n` });
  });

  it("YAML outputs carry no anchors or aliases (every object written out)", async () => {
    const capacity = await run(
      "capacity",
      "--cluster",
      "examples/cluster.yaml",
      "--pod",
      "examples/workloads/web-pod.yaml",
      "-o",
      "yaml",
      "--max",
      "5",
    );
    expect(capacity.code).toBe(0);
    const simulated = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "yaml", "--explain");
    const diffed = await run(
      "diff",
      "--cluster",
      "examples/cluster.yaml",
      "--config",
      "default",
      "--config",
      "examples/config/bin-packing.yaml",
      "-o",
      "yaml",
    );
    const defaults = await run("config", "print-defaults");
    for (const out of [capacity.stdout, simulated.stdout, diffed.stdout, defaults.stdout]) {
      expect(out).not.toMatch(/(?:^|[\s:-])[&*]a\d+\b/m);
    }
    // capacity's failReason is the last pod's: the same values, written twice.
    const doc = parseYAML(capacity.stdout) as {
      status: { failReason: unknown; pods: { failReason: unknown }[] };
    };
    expect(doc.status.failReason).toEqual(doc.status.pods.at(-1)?.failReason);
  });
});

describe("kubesched simulate --explain for people", () => {
  it("the table prints, for the --pod pods only, the filter summary, the top scores and the tie", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--explain",
      "--pod",
      "shop/web-1",
      "--pod",
      "default/render-xl",
    );
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const explain = stdout.slice(stdout.indexOf("\nEXPLAIN\n"));
    expect(explain).toContain("shop/web-1: Scheduled on node-b2\n  filter: 4/6 nodes passed\n");
    expect(explain).toContain("    TaintToleration rejected 1: 1 node(s) had untolerated taint(s)\n");
    expect(explain).toContain("  score (top 3 of 4; weighted per plugin, zeros left out):\n");
    expect(explain).toMatch(/\n {3}\*node-b2 {2}468 {2}TaintToleration 300, NodeResourcesFit 94/);
    expect(explain).toContain(
      "  tie: 2 nodes share the best score 468 (node-b1, node-b2); the seed picked node-b2\n",
    );
    expect(explain).toContain(
      "default/render-xl: Unschedulable\n  filter: 0/6 nodes passed\n    NodeResourcesFit rejected 4: 4 Insufficient cpu, 4 Insufficient memory\n",
    );
    expect(explain).not.toContain("shop/web-2");
  });

  it("--pod limits explain in JSON too; an unknown --pod is a warning", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--explain",
      "--pod",
      "shop/web-1",
      "--pod",
      "shop/nope",
      "-o",
      "json",
    );
    expect(code).toBe(0);
    expect(stderr).toBe("warning: --pod shop/nope: no such pending pod\n");
    const r = JSON.parse(stdout) as Result;
    expect(r.pods.filter((p) => p.explain).map((p) => p.name)).toEqual(["web-1"]);
    expect((r.pods[0]?.explain as { tiedNodes?: string[] } | undefined)?.tiedNodes).toEqual([
      "node-b1",
      "node-b2",
    ]);
  });

  it("errors are capped at 20 per input, then 'and N more like this'", async () => {
    const f = join(tmp, "dups.yaml");
    let text = "";
    for (let i = 0; i < 500; i++)
      text += "---\nkind: Pod\nmetadata: {name: same}\nspec: {containers: [{name: c}]}\n";
    writeFileSync(f, text);
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(21);
    expect(lines[0]).toContain("duplicate Pod default/same");
    expect(lines[20]).toBe(`error: ${f}: and 479 more like this`);
  });

  it("an input without objects, or without pending pods, says so on stderr", async () => {
    const empty = join(tmp, "empty.yaml");
    writeFileSync(empty, "");
    const r1 = await run("simulate", "--cluster", empty);
    expect(r1.code).toBe(0);
    expect(r1.stderr).toBe(
      `warning: ${empty}: no Kubernetes objects in this input\nwarning: no pending pods (pods without spec.nodeName) in ${empty}\n`,
    );
  });

  it("runs on a generated 5000-node cluster with --explain: the sampled search and the selected node are shown", async () => {
    const cluster = writeGeneratedCluster(tmp, 5000, 5);
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      cluster,
      "--explain",
      "--pod",
      "default/pending-0",
      "--top",
      "1",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("5 pending pods: 5 scheduled, 0 unschedulable");
    // percentageOfNodesToScore: 500 of the 5000 identical nodes are evaluated; all pass and tie.
    expect(stdout).toMatch(
      /default\/pending-0: Scheduled on (node-\d+)\n {2}filter: 500 of 500 nodes evaluated passed \(percentageOfNodesToScore: the search stopped at 500 of 5000 nodes\)\n/,
    );
    const selected = /Scheduled on (node-\d+)/.exec(stdout)?.[1];
    // The seed picked a tied node below the top 1: it is shown as one more row, marked.
    expect(stdout).toContain(
      "  score (top 1 of 500, and the selected node; weighted per plugin, zeros left out):\n",
    );
    expect(stdout).toMatch(new RegExp(`\\n {3}\\*${selected} {2}\\d+ {2}`));
    expect(stdout).toMatch(
      /\n {2}tie: 500 nodes share the best score \d+ \((node-\d+, ){9}node-\d+ and 490 more\); the seed picked /,
    );
  }, 60_000);

  it("--pod implies --explain (it has no use without it); with --explain=false it is a usage error", async () => {
    const { code, stdout, stderr } = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--pod",
      "shop/web-1",
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("\nEXPLAIN\nshop/web-1: Scheduled on node-b2\n  filter: 4/6 nodes passed\n");
    expect(
      await run("simulate", "--cluster", "examples/cluster.yaml", "--pod", "shop/web-1", "--explain=false"),
    ).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: --pod: it names the pods to explain, and --explain=false turns explain off\n",
    });
  });
});

describe("kubesched simulate --config with an extender that never answers", () => {
  it("reports the pod as Error naming the extender, its URL and the limits; the run ends at once", async () => {
    let calls = 0;
    const server = createServer((req) => {
      calls++;
      req.resume(); // never answers
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sched`;
    try {
      const config = join(tmp, "extender.yaml");
      writeFileSync(
        config,
        `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
  - urlPrefix: ${url}
    filterVerb: filter
    httpTimeout: 20ms
`,
      );
      const cluster = join(tmp, "one-pod.yaml");
      writeFileSync(
        cluster,
        "kind: Node\nmetadata: { name: n1 }\nstatus: { allocatable: { cpu: '4', memory: 8Gi, pods: '110' } }\n---\nkind: Pod\nmetadata: { name: p }\nspec: { containers: [{ name: c, image: i }] }\n",
      );
      const { code, stdout, stderr } = await run(
        "simulate",
        "--config",
        config,
        "--cluster",
        cluster,
        "-o",
        "json",
      );
      expect(code).toBe(0);
      const p = (JSON.parse(stdout) as Result).pods[0];
      expect(p?.outcome).toBe("Error");
      expect(p?.message).toBe(
        `extender "${url}": POST ${url}/filter: no complete response within httpTimeout 20ms; simulate stopped retrying the pod after 7 attempts failing on extender "${url}" (${url}/filter) for 41s of simulated time (the limit is 30s)`,
      );
      // Each attempt was sent; under load a 20ms timeout can fire before the server sees one.
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThanOrEqual(7);
      // The same error each attempt: logged once, then once more with how often it repeated.
      const logged = stderr.split("\n").filter((l) => l.includes("Error scheduling pod; retrying"));
      expect(logged).toHaveLength(2);
      expect(logged[1]).toMatch(/ repeated=6$/);
      expect(logged[0]).toContain(
        `err="extender \\"${url}\\": POST ${url}/filter: no complete response within httpTimeout 20ms"`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

// issue 27: the release the user's cluster runs. The same snapshot, seed and configuration.
describe("kubesched simulate --emulated-version", () => {
  const balanced = (r: Result, pod: string) => {
    const explain = r.pods.find((p) => `${p.namespace}/${p.name}` === pod)?.explain as {
      score: Record<string, Record<string, { raw: number }>>;
    };
    return Object.fromEntries(
      Object.entries(explain.score).map(([node, plugins]) => [
        node,
        plugins.NodeResourcesBalancedAllocation?.raw,
      ]),
    );
  };
  const simulateAt = async (...flags: string[]) => {
    const r = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "-o",
      "json",
      "--pod",
      "shop/web-1",
      ...flags,
    );
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Result;
  };

  it("1.35 scores BalancedAllocation as the balance with the pod, 1.37 as the change in balance (#135573)", async () => {
    // The first pending pod: every node is empty or nearly so. 1.35: (1 − std) × 100 with web-1
    // placed; 1.37: 50 + (50 + with − without) / 2, about 75 everywhere (little changes).
    expect(balanced(await simulateAt("--emulated-version", "1.35"), "shop/web-1")).toEqual({
      "node-a1": 87,
      "node-b1": 98,
      "node-c1": 84,
      "node-b2": 98,
    });
    const v137 = { "node-a1": 73, "node-b1": 74, "node-c1": 73, "node-b2": 74 };
    expect(balanced(await simulateAt("--emulated-version", "kube=1.37"), "shop/web-1")).toEqual(v137);
    expect(balanced(await simulateAt(), "shop/web-1")).toEqual(v137);
  });

  it("1.33 has no DynamicResources in the default profile: its PostFilter clause is gone from the message", async () => {
    const message = async (...flags: string[]) =>
      (await simulateAt(...flags)).pods.find((p) => p.name === "render-xl")?.message;
    expect(await message("--emulated-version", "1.35")).toContain(
      ". no new claims to deallocate, preemption: ",
    );
    // (1.33 also names the untolerated taint: kubernetes/kubernetes#134740 dropped it in 1.35.)
    expect(await message("--emulated-version", "1.33")).toBe(
      "0/6 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 4 Insufficient cpu, 4 Insufficient memory. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.",
    );
    // ... unless the user's 1.33 cluster turned the (beta) gate on.
    expect(
      await message("--emulated-version", "1.33", "--feature-gates", "DynamicResourceAllocation=true"),
    ).toContain("no new claims to deallocate");
  });

  it("1.37 drops DynamicResources' clause that 1.34–1.36 add to the message (#140222)", async () => {
    const message = async (release: string) =>
      (await simulateAt("--emulated-version", release)).pods.find((p) => p.name === "render-xl")?.message;
    const at137 =
      "0/6 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 4 Insufficient cpu, 4 Insufficient memory. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.";
    expect(await message("1.37")).toBe(at137);
    expect(await message("1.36")).toBe(
      at137.replace(". preemption: ", ". no new claims to deallocate, preemption: "),
    );
  });

  it("refuses what upstream refuses, on every command", async () => {
    for (const argv of [
      ["simulate", "--cluster", "examples/cluster.yaml"],
      ["capacity", "--cluster", "examples/cluster.yaml", "--pod", "examples/workloads/web-pod.yaml"],
      ["diff", "--cluster", "examples/cluster.yaml", "--config", "default", "--config", "default"],
      ["config", "validate", "examples/config/bin-packing.yaml"],
    ]) {
      const range = await run(...argv, "--emulated-version", "1.30");
      expect(range.code).toBe(2);
      expect(range.stderr).toBe(
        'error: invalid argument "1.30" for "--emulated-version" flag: emulation version 1.30 is not between [1.33, 1.37.0]\n',
      );
      const gate = await run(...argv, "--feature-gates", "DRAPrioritizedList=false");
      expect(gate.code).toBe(2);
      expect(gate.stderr).toContain(
        "cannot set feature gate DRAPrioritizedList to false, feature is locked to true",
      );
    }
  });

  it("refuses a gate whose dependency is off from 1.35, as component-base does, on every command", async () => {
    const value = "ProcMountType=true,UserNamespacesSupport=false";
    for (const argv of [
      ["simulate", "--cluster", "examples/cluster.yaml"],
      ["capacity", "--cluster", "examples/cluster.yaml", "--pod", "examples/workloads/web-pod.yaml"],
      ["diff", "--cluster", "examples/cluster.yaml", "--config", "default", "--config", "default"],
      ["config", "validate", "examples/config/bin-packing.yaml"],
      ["run"],
    ]) {
      const refused = await run(...argv, "--emulated-version", "1.35", "--feature-gates", value);
      expect(refused.code, argv[0]).toBe(2);
      expect(refused.stderr).toBe(
        `error: invalid argument "${value}" for "--feature-gates" flag: ProcMountType is enabled, but depends on features that are disabled: [UserNamespacesSupport]\n`,
      );
    }
    // The 1.34 scheduler had no dependency check: the same flags run.
    const at134 = await run(
      "simulate",
      "--cluster",
      "examples/cluster.yaml",
      "--emulated-version",
      "1.34",
      "--feature-gates",
      value,
    );
    expect(at134.code).toBe(0);
  });
});

// issue 27 item 5: opportunistic batching (KEP-5598) runs in simulate with the gate on (upstream's
// HostPortConflict shape: one pod per node by host port, the profile without default topology
// spread so that pods are signed). Among equally scored nodes the hint may pick another node than
// selectHost's draw with the gate off, as upstream's; the placement stays one pod per node.
describe("kubesched simulate --feature-gates OpportunisticBatching", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubesched-batch-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, "no-topology.yaml");
  writeFileSync(
    config,
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args: { defaultingType: List, defaultConstraints: [] }
`,
  );
  const cluster = join(dir, "cluster.yaml");
  const nodes = Array.from(
    { length: 6 },
    (_, i) =>
      `apiVersion: v1\nkind: Node\nmetadata: { name: node-${i} }\nstatus: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }\n`,
  );
  const pods = Array.from(
    { length: 6 },
    (_, i) =>
      `apiVersion: v1\nkind: Pod\nmetadata: { name: web-${i}, namespace: default }\nspec:\n  containers: [{ name: c, image: nginx, ports: [{ containerPort: 80, hostPort: 80 }], resources: { requests: { cpu: 100m, memory: 128Mi } } }]\n`,
  );
  writeFileSync(cluster, [...nodes, ...pods].join("---\n"));

  it("reads the gate (no 'has no effect' warning) and places one pod per node, gate on or off", async () => {
    const at = async (...flags: string[]) => {
      const r = await run("simulate", "--cluster", cluster, "--config", config, "-o", "json", ...flags);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain("has no effect");
      return (JSON.parse(r.stdout) as Result).pods.map((p) => p.node);
    };
    for (const flags of [
      ["--emulated-version", "1.35", "--feature-gates", "OpportunisticBatching=true"],
      ["--emulated-version", "1.35", "--feature-gates", "OpportunisticBatching=false"],
      ["--feature-gates", "OpportunisticBatching=false"],
      [],
    ]) {
      const placed = await at(...flags);
      expect(placed.every((n) => n !== null)).toBe(true);
      expect(new Set(placed).size).toBe(6);
    }
  });
});
