import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCliIn } from "./run-cli.test-util";

// The CLI with its default registry: the real in-tree plugins and their args specs.
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = (...argv: string[]) => runCliIn(root, argv);

describe("kubesched config validate", () => {
  for (const file of ["default.yaml", "bin-packing.yaml", "two-profiles.yaml", "custom-weights.yaml"]) {
    it(`examples/config/${file} is valid`, async () => {
      expect(await run("config", "validate", `examples/config/${file}`)).toEqual({
        code: 0,
        stdout: "valid\n",
        stderr: "",
      });
    });
  }

  const invalid: Record<string, string[]> = {
    "scoring-strategy-type.yaml": [
      'profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Foo": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
    ],
    "unknown-field.yaml": ["profiles[0].plugin: unknown field", "healthzBindAddress: unknown field"],
    "bad-api-version.yaml": [
      'apiVersion "kubescheduler.config.k8s.io/v1beta3" is not supported: use kubescheduler.config.k8s.io/v1',
    ],
    "duplicate-scheduler-name.yaml": [
      'profiles[1].schedulerName: Duplicate value: "default-scheduler": already used by profiles[0].schedulerName',
    ],
    "percentage-of-nodes-to-score.yaml": [
      "percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]",
    ],
    "backoff.yaml": [
      "podMaxBackoffSeconds: Invalid value: 5: must be greater than or equal to PodInitialBackoffSeconds",
    ],
    "unknown-plugin.yaml": ['profiles[0].plugins.filter.enabled[1].name: Not found: "NodeResourceFit"'],
    "yaml-syntax.txt": [
      "yaml: line 10, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ],
  };
  for (const [file, errors] of Object.entries(invalid)) {
    it(`examples/invalid/${file} prints every error and exits 1`, async () => {
      const path = `examples/invalid/${file}`;
      expect(await run("config", "validate", path)).toEqual({
        code: 1,
        stdout: "",
        stderr:
          errors.map((e) => `error: ${path}: ${e}\n`).join("") +
          (file === "unknown-plugin.yaml"
            ? "hint: no plugin is named NodeResourceFit; did you mean NodeResourcesFit?\n"
            : ""),
      });
    });
  }

  it("validates several files, naming each", async () => {
    const res = await run(
      "config",
      "validate",
      "examples/config/default.yaml",
      "examples/invalid/backoff.yaml",
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("examples/config/default.yaml: valid\n");
    expect(res.stderr).toContain("error: examples/invalid/backoff.yaml: podMaxBackoffSeconds");
  });

  it("a missing file or a directory is one error line in the one format, not a crash", async () => {
    expect(await run("config", "validate", "nope.yaml")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: nope.yaml: no such file or directory\n",
    });
    expect(await run("config", "validate", "examples")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: examples: is a directory\n",
    });
  });

  it("needs a FILE", async () => {
    const res = await run("config", "validate");
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'error: missing argument FILE\nRun "kubesched config validate --help" for usage.\n',
    );
  });
});

describe("kubesched config print-defaults", () => {
  it("prints the defaulted configuration as YAML", async () => {
    const res = await run("config", "print-defaults");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^apiVersion: kubescheduler.config.k8s.io\/v1\n/);
    expect(res.stdout).toContain("- name: NodeResourcesFit\n        weight: 1\n");
    expect(res.stdout).toContain("  leaseDuration: 15s\n");
    expect(res.stdout).toContain("  schedulerName: default-scheduler\n");
  });

  it("prints JSON with --output json", async () => {
    const res = await run("config", "print-defaults", "--output", "json");
    expect(res.code).toBe(0);
    const json = JSON.parse(res.stdout);
    expect(json.profiles[0].schedulerName).toBe("default-scheduler");
    expect(json.parallelism).toBe(16);
  });

  it("defaults a file with --config", async () => {
    const res = await run(
      "config",
      "print-defaults",
      "-o=json",
      "--config",
      "examples/config/bin-packing.yaml",
    );
    expect(res.code).toBe(0);
    const fit = JSON.parse(res.stdout).profiles[0].pluginConfig.find(
      (c: { name: string }) => c.name === "NodeResourcesFit",
    );
    expect(fit.args.scoringStrategy.type).toBe("MostAllocated");
    expect(fit.args.kind).toBe("NodeResourcesFitArgs");
  });

  it("rejects an unknown output format", async () => {
    const res = await run("config", "print-defaults", "-o", "toml");
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: invalid value "toml" for --output: use one of yaml, json\n/);
  });

  it("prints the config file's errors", async () => {
    const res = await run("config", "print-defaults", "--config", "examples/invalid/backoff.yaml");
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      "error: examples/invalid/backoff.yaml: podMaxBackoffSeconds: Invalid value: 5: must be greater than or equal to PodInitialBackoffSeconds\n",
    );
  });
});

describe("kubesched config schema", () => {
  it("prints the JSON Schema with the registry's plugin names", async () => {
    const res = await run("config", "schema");
    expect(res.code).toBe(0);
    const schema = JSON.parse(res.stdout);
    expect(schema.properties.apiVersion).toEqual({ const: "kubescheduler.config.k8s.io/v1" });
    expect(schema.$defs.Plugin.properties.name.enum).toContain("DefaultBinder");
  });

  it("carries the args schema of every plugin with args, from its declaration", async () => {
    const schema = JSON.parse((await run("config", "schema")).stdout);
    const rules = schema.$defs.PluginConfig.allOf as {
      if: { properties: { name: { const: string } } };
      then: { properties: { args: { properties: Record<string, unknown> } } };
    }[];
    const byName = new Map(rules.map((r) => [r.if.properties.name.const, r.then.properties.args]));
    const withArgs = [...inTreeRegistry.values()].filter((d) => d.args);
    expect(withArgs.map((d) => d.name).sort()).toEqual([...byName.keys()].sort());
    for (const d of withArgs) {
      const args = byName.get(d.name)!;
      expect(args.properties.kind).toMatchObject({ const: d.args!.kind });
      // The declaration's fields, not a free object.
      expect(Object.keys(args.properties).length).toBeGreaterThan(2);
    }
  });

  // The schema, the decoder and the defaults derive from one declaration: they agree.
  it("accepts the printed defaults and the examples, and rejects what validation rejects", async () => {
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(
      JSON.parse((await run("config", "schema")).stdout),
    );
    const defaults = JSON.parse((await run("config", "print-defaults", "-o", "json")).stdout);
    expect(validate(defaults), JSON.stringify(validate.errors)).toBe(true);
    for (const file of ["default.yaml", "bin-packing.yaml", "two-profiles.yaml", "custom-weights.yaml"]) {
      const doc = parse(readFileSync(`${root}/examples/config/${file}`, "utf8"));
      expect(validate(doc), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const bad = parse(readFileSync(`${root}/examples/invalid/scoring-strategy-type.yaml`, "utf8"));
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain(
      "/profiles/0/pluginConfig/0/args/scoringStrategy/type",
    );
  });
});

describe("kubesched", () => {
  it("--version names the Kubernetes version it tracks", async () => {
    const res = await run("--version");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^kubesched \d+\.\d+\.\d+\S* \(kube-scheduler v1\.37\)\n$/);
  });

  it("--help prints usage", async () => {
    const res = await run("--help");
    expect(res).toMatchObject({ code: 0, stderr: "" });
    expect(res.stdout).toMatch(/Commands:\n {2}simulate +Schedule a cluster snapshot's pending pods/);
    expect(res.stdout).toMatch(/\n {2}config +/);
  });

  it("no command prints usage", async () => {
    expect((await run()).stdout).toContain("Usage:\n  kubesched <command> [flags]");
  });

  it("an unknown command is one line with a suggestion and a pointer to --help (exit 2)", async () => {
    expect(await run("simulat")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'error: unknown command "simulat" for "kubesched" (did you mean simulate?)\nRun "kubesched --help" for usage.\n',
    });
    expect(await run("config", "valdate", "x.yaml")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'error: unknown command "valdate" for "kubesched config" (did you mean validate?)\nRun "kubesched config --help" for usage.\n',
    });
    expect((await run("frobnicate")).stderr).toBe(
      'error: unknown command "frobnicate" for "kubesched"\nRun "kubesched --help" for usage.\n',
    );
  });

  it("an unknown flag is one line: a typo's suggestion, or the commands that have it (exit 2)", async () => {
    expect(await run("simulate", "--clustr", "examples/cluster.yaml")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'error: unknown flag --clustr (did you mean --cluster?)\nRun "kubesched simulate --help" for usage.\n',
    });
    expect((await run("config", "validate", "--strict", "x.yaml")).stderr).toBe(
      'error: unknown flag --strict\nRun "kubesched config validate --help" for usage.\n',
    );
    expect((await run("snapshot", "--cluster", "x.yaml")).stderr).toBe(
      'error: unknown flag --cluster for "kubesched snapshot" (a flag of: simulate, capacity, why, diff, plan)\nRun "kubesched snapshot --help" for usage.\n',
    );
  });

  it("unexpected arguments are a usage error", async () => {
    const res = await run("config", "schema", "extra");
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: unexpected argument "extra"\n/);
  });
});
