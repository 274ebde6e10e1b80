// The scaffold: predictable names, the package it writes, and the generated plugin's own tests run
// here against this repository's packages (the registry round trip in .ci/run installs, builds,
// tests and publishes it from npm as users do).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { nameProblems, pluginNames, ScaffoldError, scaffold, toolVersions } from "./index";

const here = path.dirname(fileURLToPath(import.meta.url));
const scratch = path.join(here, "../.scratch", `scaffold-${process.pid}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("names", () => {
  it("demo-gate with scope @acme is @acme/kubesched-plugin-demo-gate registering DemoGate", () => {
    expect(pluginNames("demo-gate", "@acme")).toEqual({
      kebab: "demo-gate",
      pascal: "DemoGate",
      camel: "demoGate",
      packageName: "@acme/kubesched-plugin-demo-gate",
      dir: "kubesched-plugin-demo-gate",
    });
    expect(pluginNames("DemoGate", "acme").packageName).toBe("@acme/kubesched-plugin-demo-gate");
    expect(pluginNames("gate").packageName).toBe("kubesched-plugin-gate");
  });

  it("rejects names and scopes npm or a profile could not use", () => {
    expect(nameProblems("demo_gate", "@Acme")).toEqual([
      'invalid plugin name "demo_gate": use kebab-case letters and digits starting with a letter (demo-gate) or PascalCase (DemoGate)',
      'invalid scope "@Acme": an npm scope is lowercase, like @acme',
    ]);
    expect(nameProblems("2fast", undefined)).toHaveLength(1);
  });
});

mkdirSync(scratch, { recursive: true });
const { dir, files } = scaffold({
  name: "demo-gate",
  scope: "@acme",
  cwd: scratch,
  kubeschedVersion: "0.4.2",
});
const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));

describe("scaffold", () => {
  it("writes the plugin template", () => {
    expect(files.sort()).toEqual([
      ".changeset/README.md",
      ".changeset/config.json",
      ".gitignore",
      "README.md",
      "package.json",
      "src/args.ts",
      "src/demo-gate.test.ts",
      "src/demo-gate.ts",
      "src/events.test.ts",
      "src/events.ts",
      "src/index.ts",
      "src/reasons.ts",
      "tsconfig.build.json",
      "tsconfig.json",
    ]);
    expect(pkg).toMatchObject({
      name: "@acme/kubesched-plugin-demo-gate",
      version: "0.1.0",
      type: "module",
      engines: { node: ">=20" },
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      kubesched: { kubernetes: "1.37" },
      peerDependencies: { "@kubesched/framework": "^0.4.0" },
      dependencies: { "@kubesched/api": "^0.4.2" },
    });
    expect(pkg.devDependencies).toMatchObject({
      "@kubesched/framework": "^0.4.2",
      "@kubesched/testing": "^0.4.2",
    });
  });

  it("builds with the tool versions this repository pins", () => {
    const catalog = (
      parse(readFileSync(path.join(here, "../../../pnpm-workspace.yaml"), "utf8")) as {
        catalog: Record<string, string>;
      }
    ).catalog;
    for (const [tool, version] of Object.entries(toolVersions)) {
      expect(catalog[tool], tool).toBe(version);
      expect(pkg.devDependencies[tool]).toBe(`^${version}`);
    }
  });

  it("refuses a folder that is not empty", () => {
    const taken = path.join(scratch, "taken");
    mkdirSync(taken);
    writeFileSync(path.join(taken, "x"), "");
    expect(() => scaffold({ name: "x", cwd: scratch, dir: "taken" })).toThrow(
      new ScaffoldError("taken already exists and is not empty"),
    );
  });
});

// The generated package's own tests (table tests through @kubesched/testing), registered here.
await import(path.join(scratch, "kubesched-plugin-demo-gate/src/demo-gate.test.ts"));
await import(path.join(scratch, "kubesched-plugin-demo-gate/src/events.test.ts"));
