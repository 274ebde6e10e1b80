// kubesched capacity --fragmentation: stranded capacity per node group, computed with the real
// Filter plugins (a tainted node's free capacity is unreachable, not a place for the largest
// shape), in the table and in -o json, which the CapacityReport schema validates.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { runCliIn } from "./run-cli.test-util";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-fragmentation-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = (...argv: string[]) => runCliIn(tmp, argv);

function file(name: string, text: string): string {
  writeFileSync(join(tmp, name), text);
  return name;
}

const node = (name: string, type: string, cpu: string, memory: string, taint = "") =>
  `- apiVersion: v1
  kind: Node
  metadata: {name: ${name}, labels: {node.kubernetes.io/instance-type: ${type}, pool: ${name === "big" ? "special" : "general"}}}
  spec: {${taint}}
  status: {allocatable: {cpu: "${cpu}", memory: ${memory}, pods: "110"}}
`;
const running = (name: string, nodeName: string, cpu: string, memory: string) =>
  `- apiVersion: v1
  kind: Pod
  metadata: {name: ${name}, namespace: default}
  spec: {nodeName: ${nodeName}, containers: [{name: c, image: x, resources: {requests: {cpu: "${cpu}", memory: ${memory}}}}]}
`;
// m1 has memory but little cpu left, m2 cpu but little memory; "big" is empty but tainted.
const cluster = file(
  "cluster.yaml",
  `apiVersion: v1
kind: List
items:
${node("m1", "m.large", "4", "8Gi")}${node("m2", "m.large", "4", "8Gi")}${node("big", "x.huge", "8", "32Gi", "taints: [{key: dedicated, value: db, effect: NoSchedule}]")}${running("cpu-heavy", "m1", "3500m", "1Gi")}${running("mem-heavy", "m2", "1", "7680Mi")}`,
);
const template = file(
  "web.yaml",
  `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`,
);

describe("kubesched capacity --fragmentation", () => {
  it("reports stranded and unreachable capacity and the largest shapes, per instance type", async () => {
    const out = await run(
      "capacity",
      "--cluster",
      cluster,
      "--pod",
      template,
      "--fragmentation",
      "-o",
      "json",
    );
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.status.replicas).toBe(0);
    expect(r.status.fragmentation).toEqual({
      groupBy: "node.kubernetes.io/instance-type",
      referencePods: ["default/web"],
      groups: [
        {
          value: "m.large",
          nodes: 2,
          allocatable: { cpu: "8", memory: "16Gi" },
          free: { cpu: "3500m", memory: "7680Mi" },
          // m2's memory is full (512Mi < 1Gi): its 3 cpu are stranded; m1's cpu is full
          // (500m < 1): its 7Gi are.
          stranded: { cpu: "3", memory: "7Gi" },
          unreachable: { cpu: "0", memory: "0" },
          largestShapes: {
            cpuFirst: { cpu: "3", memory: "512Mi", node: "m2" },
            memoryFirst: { cpu: "500m", memory: "7Gi", node: "m1" },
          },
        },
        {
          // Empty, but the template does not tolerate the taint: arithmetic alone would call
          // 8 cpu / 32Gi the largest shape.
          value: "x.huge",
          nodes: 1,
          allocatable: { cpu: "8", memory: "32Gi" },
          free: { cpu: "8", memory: "32Gi" },
          stranded: { cpu: "0", memory: "0" },
          unreachable: { cpu: "8", memory: "32Gi" },
          largestShapes: { cpuFirst: null, memoryFirst: null },
        },
      ],
      largestShapes: {
        cpuFirst: { cpu: "3", memory: "512Mi", node: "m2" },
        memoryFirst: { cpu: "500m", memory: "7Gi", node: "m1" },
      },
    });
    const yaml = await run(
      "capacity",
      "--cluster",
      cluster,
      "--pod",
      template,
      "--fragmentation",
      "-o",
      "yaml",
    );
    expect(parseYAML(yaml.stdout)).toEqual(r);
    const schema = JSON.parse((await run("capacity", "--schema")).stdout);
    const validate = new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(schema);
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
  });

  it("a template that tolerates the taint reaches the big node; --group-by picks the label", async () => {
    const tolerant = file(
      "tolerant.yaml",
      `apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default}
spec:
  tolerations: [{key: dedicated, operator: Equal, value: db, effect: NoSchedule}]
  nodeSelector: {pool: special}
  containers: [{name: c, image: postgres, resources: {requests: {cpu: "3", memory: 10Gi}}}]
`,
    );
    const out = await run(
      "capacity",
      "--cluster",
      cluster,
      "--pod",
      tolerant,
      "--fragmentation",
      "--group-by",
      "pool",
    );
    expect(out.code).toBe(0);
    // Two replicas fill 6 of 8 cpu and 20 of 32Gi on "big"; the general pool is out of reach (nodeSelector).
    expect(out.stdout).toContain("default/db: 2 replica(s) fit");
    expect(out.stdout).toContain("Fragmentation, nodes grouped by pool (reference pods: default/db):");
    const rows = out.stdout.split("\n");
    const header = rows.findIndex((l) => l.startsWith("GROUP"));
    expect(rows.slice(header, header + 4)).toEqual([
      "GROUP    NODES  FREE CPU/MEMORY  STRANDED CPU/MEMORY  UNREACHABLE CPU/MEMORY  LARGEST SHAPE (CPU FIRST)  LARGEST SHAPE (MEMORY FIRST)",
      "general  2      3500m/7680Mi     0/0                  3500m/7680Mi            -                          -",
      "special  1      2/12Gi           0/12Gi               0/0                     2/12Gi on big              2/12Gi on big",
      "Largest shape anywhere: 2/12Gi on big (cpu first), 2/12Gi on big (memory first)",
    ]);
  });

  it("--group-by without --fragmentation is a usage error", async () => {
    expect(
      await run("capacity", "--cluster", cluster, "--pod", template, "--group-by", "pool"),
    ).toMatchObject({
      code: 2,
      stderr: "error: --group-by: only with --fragmentation\n",
    });
  });
});
