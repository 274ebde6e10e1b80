// kubesched capacity, in process: the bundled example, a generated 5000-node cluster, the
// versioned output and its schema, and the user-facing errors.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { writeGeneratedCluster } from "./generated-cluster.test-util";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-capacity-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...argv: string[]) => runCliIn(root, argv);

function podFile(name: string, cpu: string, memory: string): string {
  const f = join(tmp, `${name}.yaml`);
  writeFileSync(
    f,
    `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: shop}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: ${cpu}, memory: ${memory}}}}]
`,
  );
  return f;
}

interface Report {
  apiVersion: string;
  kind: string;
  spec: { templates: unknown[]; maxReplicas: number | null };
  status: {
    replicas: number;
    failReason: { failType: string; failMessage: string };
    pods: {
      podName: string;
      replicas: number;
      replicasOnNodes: { nodeName: string; replicas: number }[];
      failSummary: { reason: string; count: number }[];
    }[];
  };
}

describe("kubesched capacity", () => {
  it("counts replicas on the bundled example (table, json and yaml agree)", async () => {
    const pod = podFile("web", "500m", "1Gi");
    const table = await run("capacity", "--cluster", "examples/cluster.yaml", "--pod", pod);
    expect(table.code).toBe(0);
    expect(table.stderr).toBe("");
    const json = await run("capacity", "--cluster", "examples/cluster.yaml", "--pod", pod, "-o", "json");
    const r = JSON.parse(json.stdout) as Report;
    expect(r.apiVersion).toBe("kubesched.io/v1alpha1");
    expect(r.kind).toBe("CapacityReport");
    expect(r.status.replicas).toBeGreaterThan(0);
    expect(r.status.pods[0]?.replicasOnNodes.reduce((n, x) => n + x.replicas, 0)).toBe(r.status.replicas);
    expect(r.status.failReason.failType).toBe("Unschedulable");
    expect(r.status.failReason.failMessage).toMatch(/^0\/6 nodes are available: /);
    expect(r.status.pods[0]?.failSummary.reduce((n, x) => n + x.count, 0)).toBeGreaterThanOrEqual(6);
    expect(table.stdout).toContain(`shop/web: ${r.status.replicas} replica(s) fit`);
    expect(table.stdout).toContain(r.status.failReason.failMessage);
    const yaml = await run("capacity", "--cluster", "examples/cluster.yaml", "--pod", pod, "-o", "yaml");
    expect(parseYAML(yaml.stdout)).toEqual(r);
  });

  it("fills several --pod files in order and stops at --max", async () => {
    const a = podFile("big", "2", "4Gi");
    const b = podFile("small", "250m", "256Mi");
    const { code, stdout, stderr } = await run(
      "capacity",
      "--cluster",
      "examples/cluster.yaml",
      "--pod",
      a,
      "--pod",
      b,
      "--max",
      "7",
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Report;
    expect(r.spec.maxReplicas).toBe(7);
    expect(r.status.replicas).toBe(7);
    expect(r.status.pods.map((p) => p.podName)).toEqual(["shop/big", "shop/small"]);
    expect(r.status.failReason).toEqual({
      failType: "LimitReached",
      failMessage: "Maximum number of pods simulated: 7",
    });
  });

  it("runs on a generated 5000-node cluster", async () => {
    const cluster = writeGeneratedCluster(tmp, 5000, 3);
    const pod = podFile("probe", "1", "1Gi");
    const { code, stdout, stderr } = await run(
      "capacity",
      "--cluster",
      cluster,
      "--pod",
      pod,
      "--max",
      "20",
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Report;
    expect(r.status.replicas).toBe(20);
    expect(r.status.pods[0]?.replicasOnNodes.every((n) => n.replicas >= 1)).toBe(true);
  }, 60_000);

  it("prints its JSON Schema", async () => {
    const { code, stdout } = await run("capacity", "--schema");
    expect(code).toBe(0);
    const schema = JSON.parse(stdout) as { title: string; properties: { apiVersion: { const: string } } };
    expect(schema.title).toBe("CapacityReport");
    expect(schema.properties.apiVersion.const).toBe("kubesched.io/v1alpha1");
  });

  it("errors: --pod is required; a missing --pod file has the same wording as --cluster and --config", async () => {
    expect((await run("capacity", "--cluster", "examples/cluster.yaml")).code).toBe(2);
    for (const argv of [
      ["capacity", "--cluster", "examples/cluster.yaml", "--pod", "nope.yaml"],
      ["capacity", "--cluster", "nope.yaml", "--pod", "examples/cluster.yaml"],
      [
        "capacity",
        "--cluster",
        "examples/cluster.yaml",
        "--pod",
        "examples/cluster.yaml",
        "--config",
        "nope.yaml",
      ],
      ["simulate", "--cluster", "nope.yaml"],
      ["simulate", "--cluster", "examples/cluster.yaml", "--config", "nope.yaml"],
    ]) {
      expect(await run(...argv)).toEqual({
        code: 1,
        stdout: "",
        stderr: "error: nope.yaml: no such file or directory\n",
      });
    }
  });

  it("errors: a --pod file must hold exactly one Pod", async () => {
    const { code, stderr } = await run(
      "capacity",
      "--cluster",
      "examples/cluster.yaml",
      "--pod",
      "examples/cluster.yaml",
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^error: examples\/cluster.yaml: expected exactly one Pod, found \d+ object\(s\)\n$/,
    );
  });
});
