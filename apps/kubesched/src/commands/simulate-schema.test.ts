// The SimulationResult contract (docs/simulate.md): `kubesched simulate --schema` prints a
// versioned JSON Schema, and every example's `-o json` and `-o yaml` output, through the CLI as
// users run it, is valid against it (with --explain, --timing, preemptions, workloads and the
// out-of-tree plugins), as is the example in docs/simulate.md.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

const run = (...argv: string[]) => runCliIn(root, argv);

const examples: Record<string, string[]> = {
  "examples/cluster.yaml": ["--cluster", "examples/cluster.yaml"],
  "examples/cluster.yaml with a bin-packing profile": [
    "--cluster",
    "examples/cluster.yaml",
    "--config",
    "examples/config/bin-packing.yaml",
  ],
  "examples/cluster.yaml with two profiles": [
    "--cluster",
    "examples/cluster.yaml",
    "--config",
    "examples/config/two-profiles.yaml",
  ],
  "examples/cluster.yaml and examples/workloads/deployment.yaml": [
    "--cluster",
    "examples/cluster.yaml",
    "--cluster",
    "examples/workloads/deployment.yaml",
  ],
  "examples/preemption.yaml": ["--cluster", "examples/preemption.yaml"],
  "examples/dra-gpu/cluster.yaml": ["--cluster", "examples/dra-gpu/cluster.yaml"],
  "examples/dra-gpu/cpu-dra.yaml with DRANodeAllocatableResources": [
    "--cluster",
    "examples/dra-gpu/cpu-dra.yaml",
    "--feature-gates",
    "DRANodeAllocatableResources=true",
  ],
  "examples/gang-scheduling (Coscheduling)": [
    "--plugin",
    "@kubesched/plugin-coscheduling",
    "--config",
    "examples/gang-scheduling/scheduler-config.yaml",
    "--cluster",
    "examples/gang-scheduling/cluster.yaml",
  ],
  "examples/elastic-quota (CapacityScheduling)": [
    "--plugin",
    "@kubesched/plugin-capacity-scheduling",
    "--config",
    "examples/elastic-quota/scheduler-config.yaml",
    "--cluster",
    "examples/elastic-quota/cluster.yaml",
  ],
};

let validate: ValidateFunction;
let schema: { $id: string; title: string };

beforeAll(async () => {
  const { code, stdout, stderr } = await run("simulate", "--schema");
  expect(stderr).toBe("");
  expect(code).toBe(0);
  schema = JSON.parse(stdout);
  validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
}, 60_000);

function expectValid(doc: unknown, what: string): void {
  expect(validate(doc), `${what}: ${JSON.stringify(validate.errors, null, 2)}`).toBe(true);
}

describe("kubesched simulate --schema", () => {
  it("is a versioned JSON Schema of SimulationResult", () => {
    expect(schema.title).toBe("SimulationResult");
    expect(schema.$id).toMatch(/\/v1alpha1\/simulation-result\.json$/);
  });

  for (const [name, args] of Object.entries(examples)) {
    it(`admits the output for ${name}: json, json --explain --timing, yaml --explain`, async () => {
      const plain = await run("simulate", ...args, "-o", "json");
      // A plugin package named with --plugin is announced as it loads, and the contrib ports
      // (which track Kubernetes 1.35) are said to differ from 1.37; nothing else is said.
      expect(
        plain.stderr.replace(
          /^(loading plugin package |warning: plugin package \S+ \S+ implements Kubernetes ).*\n/gm,
          "",
        ),
      ).toBe("");
      expect(plain.code).toBe(0);
      expectValid(JSON.parse(plain.stdout), `${name} -o json`);

      const explained = await run("simulate", ...args, "-o", "json", "--explain", "--timing");
      expect(explained.code).toBe(0);
      const doc = JSON.parse(explained.stdout) as { pods: { explain?: unknown }[] };
      expect(doc.pods.some((p) => p.explain !== undefined)).toBe(true);
      expectValid(doc, `${name} -o json --explain --timing`);

      const yaml = await run("simulate", ...args, "-o", "yaml", "--explain");
      expect(yaml.code).toBe(0);
      expectValid(parseYAML(yaml.stdout), `${name} -o yaml --explain`);
    }, 120_000);
  }

  it("rejects what the contract does not define (an added field, a renamed outcome)", async () => {
    const { stdout } = await run("simulate", "--cluster", "examples/cluster.yaml", "-o", "json");
    const added = JSON.parse(stdout);
    added.pods[0].score = 1;
    expect(validate(added)).toBe(false);
    const renamed = JSON.parse(stdout);
    renamed.pods[0].outcome = "Bound";
    expect(validate(renamed)).toBe(false);
  }, 60_000);

  it("admits the SimulationResult example of docs/simulate.md", () => {
    const doc = readFileSync(`${root}docs/simulate.md`, "utf8");
    const example = /```json\n(\{\n {2}"kind": "SimulationResult"[\s\S]*?)\n```/.exec(doc)?.[1];
    expect(example, "docs/simulate.md has a ```json SimulationResult example").toBeDefined();
    expectValid(JSON.parse(example as string), "docs/simulate.md");
  });
});
