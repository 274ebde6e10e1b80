// kubesched why, in process: the bundled example (table, json and yaml), a pod spec file, preemption
// (victims, PDBs, preemptionPolicy), the user-facing errors, and the live path against the API
// server emulator, which must see reads only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WhyReport } from "@kubesched/cluster";
import { FakeApiServer } from "@kubesched/kube/testing";
import { reportModel } from "@kubesched/report";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { runFromRoot, whyReportReader } from "./why-cli.test-util";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-why-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = runFromRoot;

// Every -o json report below must be valid against the schema `why --schema` prints.
let report: (json: string) => WhyReport;
beforeAll(async () => {
  report = await whyReportReader();
});

function file(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

describe("kubesched why", { timeout: 120_000 }, () => {
  it("explains render-xl on the bundled example: every reason on every node, preemption", async () => {
    const table = await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml");
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("Pod default/render-xl (default-scheduler): 0/6 nodes fit.");
    expect(table.stdout).toContain("  5 nodes: Insufficient cpu (short 4200m–11) [NodeResourcesFit]");
    expect(table.stdout).toContain("  1 node: node(s) were unschedulable (cordoned) [NodeUnschedulable]");
    // node-a2 is cordoned and too small: the cycle stops at the cordon, why lists all three.
    expect(table.stdout).toContain(`  node-a2:
    NodeUnschedulable: node(s) were unschedulable
      cordoned
    TaintToleration: node(s) had untolerated taint(s)
      node.kubernetes.io/unschedulable:NoSchedule
    NodeResourcesFit: Insufficient cpu, Insufficient memory
      cpu: requested 12, free 4 of 4, short 8
      memory: requested 48Gi, free 16Gi of 16Gi, short 32Gi
`);
    expect(table.stdout).toContain(
      "Preemption (DefaultPreemption):\n  preemption is not helpful on any node\n",
    );

    const json = await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml", "-o", "json");
    const r = report(json.stdout);
    expect(r.apiVersion).toBe("kubesched.io/v1alpha1");
    expect(r.kind).toBe("WhyReport");
    expect(r.nodes).toHaveLength(6);
    expect(r.nodes.find((n) => n.name === "node-b1")?.rejections[0]?.details[0]).toEqual({
      kind: "InsufficientResource",
      resource: "cpu",
      requested: 12000,
      used: 0,
      capacity: 7800,
      short: 4200,
    });
    const yaml = await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml", "-o", "yaml");
    expect(parseYAML(yaml.stdout)).toEqual(r);
  });

  it("tries a pod spec file (-f) and finds the victims preemption would evict, and why not elsewhere", async () => {
    const cluster = file(
      "cluster.yaml",
      `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: default, labels: {app: low}}
spec: {nodeName: n1, priority: 0, containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: high, namespace: default}
spec: {nodeName: n2, priority: 1000, containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}
`,
    );
    const pod = (policy: string) =>
      file(
        `big-${policy}.yaml`,
        `apiVersion: v1
kind: Pod
metadata: {name: big}
spec: {priority: 100, preemptionPolicy: ${policy}, containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}
`,
      );
    const r = await run("why", "-f", pod("PreemptLowerPriority"), "--cluster", cluster, "-o", "json");
    expect(r.stderr).toBe("");
    const out = report(r.stdout);
    expect(out.pod).toEqual({ namespace: "default", name: "big", schedulerName: "default-scheduler" });
    expect(out.preemption).toEqual({
      plugin: "DefaultPreemption",
      eligible: true,
      reason: "",
      candidates: [{ node: "n1", victims: ["default/low"], pdbViolations: 0 }],
      selected: "n1",
      notHelpful: [
        {
          node: "n2",
          code: "UnschedulableAndUnresolvable",
          reasons: ["No preemption victims found for incoming pod"],
        },
      ],
    });
    const table = await run("why", "-f", pod("PreemptLowerPriority"), "--cluster", cluster);
    expect(table.stdout).toContain("  n1: evict default/low (the node it picks)\n");

    const never = await run("why", "-f", pod("Never"), "--cluster", cluster, "-o", "json");
    expect(report(never.stdout).preemption).toMatchObject({
      eligible: false,
      reason: "not eligible due to preemptionPolicy=Never.",
      candidates: [],
    });

    // A PodDisruptionBudget that allows no disruption: still a candidate, counted as a violation.
    const pdb = file(
      "pdb.yaml",
      `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: low, namespace: default}
spec: {minAvailable: 1, selector: {matchLabels: {app: low}}}
status: {disruptionsAllowed: 0}
`,
    );
    const withPdb = await run(
      "why",
      "-f",
      pod("PreemptLowerPriority"),
      "--cluster",
      cluster,
      "--cluster",
      pdb,
      "-o",
      "json",
    );
    expect(report(withPdb.stdout).preemption.candidates).toEqual([
      { node: "n1", victims: ["default/low"], pdbViolations: 1 },
    ]);
  });

  it("takes --emulated-version and --feature-gates as simulate does (issue 27)", async () => {
    const at135 = await run(
      "why",
      "default/render-xl",
      "--cluster",
      "examples/cluster.yaml",
      "--emulated-version",
      "1.35",
      "-o",
      "json",
    );
    expect(at135.stderr).toBe("");
    expect(at135.code).toBe(0);
    expect(report(at135.stdout).nodes).toHaveLength(6);
    const old = await run(
      "why",
      "default/render-xl",
      "--cluster",
      "examples/cluster.yaml",
      "--emulated-version",
      "1.32",
    );
    expect(old.code).toBe(2);
    expect(old.stderr).toContain("emulation version 1.32 is not between [1.33, 1.37.0]");
    const locked = await run(
      "why",
      "default/render-xl",
      "--cluster",
      "examples/cluster.yaml",
      "--feature-gates",
      "DRAPrioritizedList=false",
    );
    expect(locked.code).not.toBe(0);
    expect(locked.stderr).toContain(
      "cannot set feature gate DRAPrioritizedList to false, feature is locked to true",
    );
  });

  it("a PreFilter that rejects the pod: no node fits or is evaluated, the FitError's message, as simulate says", async () => {
    // NodeAffinity's PreFilter: two ANDed metadata.name terms that no node satisfies (upstream
    // errReasonConflict, UnschedulableAndUnresolvable); every Filter would pass both nodes.
    const cluster = file(
      "prefilter-rejects.yaml",
      `${["node-a", "node-b"]
        .map(
          (n) => `apiVersion: v1
kind: Node
metadata: { name: ${n}, labels: { kubernetes.io/hostname: ${n} } }
status: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }
---
`,
        )
        .join("")}apiVersion: v1
kind: Pod
metadata: { name: pinned, namespace: default }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" } } }]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchFields:
              - { key: metadata.name, operator: In, values: [node-a] }
              - { key: metadata.name, operator: In, values: [node-b] }
`,
    );
    const table = await run("why", "default/pinned", "--cluster", cluster);
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Pod default/pinned (default-scheduler): 0/2 nodes fit.
PreFilter of NodeAffinity rejects the pod (UnschedulableAndUnresolvable): no node is evaluated. FitError: 0/2 nodes are available: pod affinity terms conflict.
`);
    expect(table.stdout).toContain("Reasons:\n  2 nodes: pod affinity terms conflict [NodeAffinity]\n");
    expect(table.stdout).toContain("  node-a:\n    left out by PreFilter of NodeAffinity\n");
    expect(table.stdout).not.toContain("fits");
    expect(table.stdout).toContain(
      "Preemption (DefaultPreemption):\n  preemption is not helpful on any node\n  node-a: not helpful: pod affinity terms conflict\n",
    );

    const r = report((await run("why", "default/pinned", "--cluster", cluster, "-o", "json")).stdout);
    expect(r.summary).toEqual({
      nodes: 2,
      feasible: 0,
      preFilterRejection: {
        plugin: "NodeAffinity",
        code: "UnschedulableAndUnresolvable",
        message: "pod affinity terms conflict",
      },
    });
    expect(r.nodes.map((n) => [n.name, n.excludedBy, n.rejections])).toEqual([
      ["node-a", ["NodeAffinity"], []],
      ["node-b", ["NodeAffinity"], []],
    ]);
    // The scheduler's own message for the pod begins with the same FitError.
    const sim = await run("simulate", "--cluster", cluster, "-o", "json");
    const pod = (JSON.parse(sim.stdout) as { pods: { message: string }[] }).pods[0];
    expect(pod?.message.startsWith("0/2 nodes are available: pod affinity terms conflict.")).toBe(true);
  });

  it("a pod held back at PreEnqueue never enters a scheduling cycle: the gating plugin and its message, as simulate says", async () => {
    // A pod with a scheduling gate (SchedulingGates) and one whose ResourceClaim does not exist
    // (DynamicResources' PreEnqueue): neither reaches PreFilter.
    const cluster = file(
      "gated.yaml",
      `apiVersion: v1
kind: Node
metadata: { name: node-a, labels: { kubernetes.io/hostname: node-a } }
status: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }
---
apiVersion: v1
kind: Pod
metadata: { name: held, namespace: default }
spec:
  schedulingGates: [{ name: example.com/quota }]
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" } } }]
---
apiVersion: v1
kind: Pod
metadata: { name: needs-gpu, namespace: default }
spec:
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpu }] } }]
  resourceClaims: [{ name: gpu, resourceClaimName: missing-gpu }]
`,
    );
    const sim = JSON.parse((await run("simulate", "--cluster", cluster, "-o", "json")).stdout) as {
      pods: { name: string; outcome: string; message: string }[];
    };
    const simulated = Object.fromEntries(sim.pods.map((p) => [p.name, p]));
    for (const [name, plugin, code] of [
      ["held", "SchedulingGates", "UnschedulableAndUnresolvable"],
      ["needs-gpu", "DynamicResources", "UnschedulableAndUnresolvable"],
    ] as const) {
      expect(simulated[name]?.outcome, name).toBe("Gated");
      const message = simulated[name]?.message ?? "";
      const table = await run("why", `default/${name}`, "--cluster", cluster);
      expect(table.stderr).toBe("");
      expect(table.code).toBe(0);
      expect(table.stdout).toContain(`Pod default/${name} (default-scheduler): 0/1 nodes fit.
The pod never enters a scheduling cycle: PreEnqueue of ${plugin} holds it back (${code}): ${message}
No PreFilter or Filter plugin runs and no node is evaluated until an event lets it pass.
`);
      expect(table.stdout).not.toContain("PreFilter:");
      expect(table.stdout).not.toContain("Reasons:");
      expect(table.stdout).toContain(
        `Preemption (DefaultPreemption):\n  the pod never enters a scheduling cycle: PreEnqueue of ${plugin} holds it back\n`,
      );
      expect(table.stdout).toContain(
        `(the pod never enters a scheduling cycle (PreEnqueue of ${plugin} holds it back): no change to nodes or pods is tried)`,
      );
      const r = report((await run("why", `default/${name}`, "--cluster", cluster, "-o", "json")).stdout);
      expect(r.summary).toEqual({ nodes: 1, feasible: 0, gated: { plugin, code, message } });
      expect([r.preFilter, r.groups, r.nodes]).toEqual([[], [], []]);
      expect(r.preemption).toMatchObject({ plugin: "DefaultPreemption", eligible: false, candidates: [] });
    }
    expect(simulated["needs-gpu"]?.message).toBe('resourceclaim.resource.k8s.io "missing-gpu" not found');
  });

  it("bad input: one sentence and exit 1", async () => {
    const ex = ["--cluster", "examples/cluster.yaml"];
    expect(await run("why", "default/nope", ...ex)).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: pod default/nope not found\n",
    });
    expect(await run("why", "shop/ingress-0", ...ex)).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: pod shop/ingress-0 is not pending: it runs on node node-a1\n",
    });
    expect(await run("why", "default/audit-agent", ...ex)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'error: pod default/audit-agent is for scheduler "security-scheduler", which no profile of the configuration is\n',
    });
    expect((await run("why", ...ex)).code).toBe(2);
    expect((await run("why", "render-xl", ...ex)).code).toBe(2);
  });

  it("--kubeconfig: reads the cluster with GET requests only; an unreachable server is named", async () => {
    const api = await FakeApiServer.start();
    try {
      api.put("Node", {
        metadata: { name: "n1" },
        status: { allocatable: { cpu: "1", memory: "1Gi", pods: "10" } },
      });
      api.put("Pod", {
        metadata: { namespace: "default", name: "p" },
        spec: { containers: [{ name: "c", image: "x", resources: { requests: { cpu: "2" } } }] },
      });
      const kubeconfig = file("kubeconfig", api.kubeConfigYAML());
      const r = await run("why", "default/p", "--kubeconfig", kubeconfig, "-o", "json");
      expect(r.stderr).toBe(
        "emulating Kubernetes 1.37, the release of the cluster's API server (v1.37.0); --emulated-version overrides\n",
      );
      expect(r.code).toBe(0);
      const live = report(r.stdout);
      expect(live.groups.map((g) => g.reason)).toEqual(["Insufficient cpu"]);
      // Fixes are proven on the copy read from the server (the GET-only check below covers them).
      expect(live.fixes?.map((f) => [f.description, f.node])).toEqual([
        ["lower container c's requests: cpu 2 → 1", "n1"],
      ]);
      expect(api.requests.length).toBeGreaterThan(0);
      // list and watch are GETs; nothing else reached the server.
      expect(api.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.path}`)).toEqual([]);
      const away = file("away", api.kubeConfigYAML().replace(api.url, "http://127.0.0.1:1"));
      const down = await run("why", "default/p", "--kubeconfig", away);
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(/^error: .*away: .*127\.0\.0\.1:1/);
    } finally {
      await api.close();
    }
  });
});

describe("kubesched why --report", { timeout: 120_000 }, () => {
  it("writes the pod view built from the same WhyReport as -o json; the table still on stdout", async () => {
    const html = join(tmp, "why.html");
    const r = await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml", "--report", html);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("Pod default/render-xl (default-scheduler): 0/6 nodes fit.");
    const json = report(
      (await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml", "-o", "json")).stdout,
    );
    const page = readFileSync(html, "utf8");
    const blob = /<script type="application\/json" id="kubesched-report-data">(.*?)<\/script>/s.exec(
      page,
    )?.[1];
    expect(JSON.parse(blob ?? "null")).toEqual(reportModel({ why: json }));
    expect(page).toContain("<title>kubesched why default/render-xl</title>");
    expect(page).toContain("kubesched why default/render-xl on examples/cluster.yaml");
  });

  it("-f FILE: the subtitle names the file; a report path that cannot be written is one error line", async () => {
    const pod = file(
      "huge.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata: { name: huge }\nspec:\n  containers: [{ name: c, image: i, resources: { requests: { cpu: '100' } } }]\n",
    );
    const html = join(tmp, "huge.html");
    const ok = await run(
      "why",
      "-f",
      pod,
      "--cluster",
      "examples/cluster.yaml",
      "-o",
      "json",
      "--report",
      html,
    );
    expect(ok.code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain(`kubesched why -f ${pod} on examples/cluster.yaml`);
    const bad = await run("why", "-f", pod, "--cluster", "examples/cluster.yaml", "--report", tmp);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`error: ${tmp}: cannot write: is a directory\n`);
  });
});
