// Plugin packages as users install them: packages in a project's node_modules (ESM-only, with
// "exports"), or in the global prefix, loaded by name with their framework range checked.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { afterAll, describe, expect, it } from "vitest";
import { gate, writePackage } from "./fixtures.test-util";
import {
  type LoadedPluginPackage,
  loadPluginPackage,
  loadPlugins,
  PluginLoadError,
  pluginReleaseWarnings,
} from "./plugin-packages";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), "kubesched-plugin-packages-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The framework an installed kubesched runs (a folder under node_modules). */
const framework = { version: "0.3.1", dir: path.join(tmp, "cli/node_modules/@kubesched/framework") };
mkdirSync(framework.dir, { recursive: true });

const project = path.join(tmp, "project");
const nm = path.join(project, "node_modules");
const globalDir = path.join(tmp, "global/lib/node_modules");
writePackage(nm, { name: "@acme/gate", index: gate("AcmeGate"), kubernetes: "1.36" });
writePackage(nm, {
  name: "acme-two",
  index: `${gate("One").replace("export default", "const one =")}${gate("Two").replace("export default", "const two =")}export default [one, two];\n`,
});
writePackage(nm, { name: "@acme/old", version: "0.4.2", framework: "^0.2.0", index: gate("Old") });
writePackage(nm, { name: "@acme/unstated", framework: null, index: gate("Unstated") });
writePackage(nm, { name: "@acme/no-default", index: "export const plugin = {};\n" });
writePackage(nm, {
  name: "@acme/bad",
  index: 'export default [{ name: "", factory: 3 }, { name: "X", factory() {}, args: { kind: "XArgs" } }];\n',
});
writePackage(nm, { name: "@acme/clash", index: gate("NodeAffinity") });
writePackage(nm, { name: "@acme/also-gate", index: gate("AcmeGate") });
writePackage(nm, { name: "@acme/throws", index: 'throw new Error("boom at load");\n' });
writePackage(nm, { name: "@acme/sub-only", exports: { "./x": "./index.js" }, index: gate("Sub") });
writePackage(globalDir, { name: "@acme/global", index: gate("GlobalGate") });
const local = writePackage(path.join(project, "plugins"), { name: "@acme/local", index: gate("LocalGate") });

const opts = { base: project, from: "--plugin", framework, globalDir };

async function loadError(spec: string): Promise<string> {
  try {
    await loadPluginPackage(spec, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(PluginLoadError);
    return (e as Error).message;
  }
  throw new Error(`${spec} loaded`);
}

describe("loading plugin packages", () => {
  it("loads an ESM-only package from the project's node_modules and reads what kubesched plugins shows", async () => {
    const p = await loadPluginPackage("@acme/gate", opts);
    expect(p).toMatchObject({
      name: "@acme/gate",
      version: "1.0.0",
      frameworkRange: "^0.3.0",
      kubernetes: "1.36",
      from: "--plugin",
    });
    expect(p.plugins.map((d) => d.name)).toEqual(["AcmeGate"]);
  });

  it("takes a list of descriptors as the default export", async () => {
    expect((await loadPluginPackage("acme-two", opts)).plugins.map((d) => d.name)).toEqual(["One", "Two"]);
  });

  it("looks in the global prefix when the project does not have the package", async () => {
    const p = await loadPluginPackage("@acme/global", opts);
    expect(p.dir).toBe(path.join(globalDir, "@acme/global"));
  });

  it("loads a package folder given as a path", async () => {
    const p = await loadPluginPackage("./plugins/@acme/local", opts);
    expect(p.dir).toBe(local);
    expect(p.plugins.map((d) => d.name)).toEqual(["LocalGate"]);
  });

  it("a package that is not installed says where it looked and how to install it", async () => {
    expect(await loadError("@acme/nope")).toBe(
      `--plugin @acme/nope: cannot find the package (looked in node_modules from ${project} and in the global ${globalDir}); install it: npm install @acme/nope`,
    );
  });

  it("refuses a package built for another framework, with both versions", async () => {
    expect(await loadError("@acme/old")).toBe(
      "--plugin @acme/old: @acme/old@0.4.2 supports @kubesched/framework ^0.2.0, but this kubesched runs @kubesched/framework 0.3.1; install a version of @acme/old built for 0.3.1, or a kubesched whose framework is in ^0.2.0",
    );
  });

  it("refuses a package that does not state the framework versions it supports", async () => {
    expect(await loadError("@acme/unstated")).toBe(
      '--plugin @acme/unstated: @acme/unstated@1.0.0 does not state the @kubesched/framework versions it supports (peerDependencies["@kubesched/framework"], e.g. "^0.3.0"); this kubesched runs @kubesched/framework 0.3.1',
    );
  });

  it("a package without a default export, or with bad descriptors, is an error naming it", async () => {
    expect(await loadError("@acme/no-default")).toBe(
      "--plugin @acme/no-default: @acme/no-default@1.0.0 has no default export; a plugin package default-exports its plugin descriptor (export default definePlugin({...})) or a list of them",
    );
    expect(await loadError("@acme/bad")).toBe(
      "--plugin @acme/bad: @acme/bad@1.0.0: default export[0].name: must be a non-empty string; default export[0].factory: must be a function (args, handle) => plugin; default export[1].args.decode: must be a function; default export[1].args.validate: must be a function",
    );
  });

  it("a package that fails to load or exports no entry is an error naming it", async () => {
    expect(await loadError("@acme/throws")).toBe(
      "--plugin @acme/throws: @acme/throws@1.0.0 failed to load: boom at load",
    );
    expect(await loadError("@acme/sub-only")).toBe(
      '--plugin @acme/sub-only: @acme/sub-only exports no "." entry for import (package.json "exports")',
    );
  });

  it("registers the plugins beside the in-tree ones; a name clash names both sides", async () => {
    const r = (specs: string[]) =>
      loadPlugins(
        specs.map((spec) => ({ spec, base: project, from: "--plugin" })),
        inTreeRegistry,
        { framework, globalDir },
      );
    const { registry, loaded } = await r(["@acme/gate", "acme-two", "@acme/gate"]);
    expect([...registry.keys()].slice(-3)).toEqual(["AcmeGate", "One", "Two"]);
    expect(loaded.map((l) => l.name)).toEqual(["@acme/gate", "acme-two"]);
    await expect(r(["@acme/clash"])).rejects.toThrow(
      "--plugin @acme/clash: @acme/clash@1.0.0 registers a plugin named NodeAffinity, which is an in-tree plugin; plugin names must be unique",
    );
    await expect(r(["@acme/gate", "@acme/also-gate"])).rejects.toThrow(
      "--plugin @acme/also-gate: @acme/also-gate@1.0.0 registers a plugin named AcmeGate, which @acme/gate@1.0.0 also registers; plugin names must be unique",
    );
  });

  it("packages of this repository's source checkout load without a release to compare (built together)", async () => {
    const p = await loadPluginPackage("@kubesched/plugin-sample", {
      base: repo,
      from: "--plugin",
      globalDir,
    });
    expect(p.plugins.map((d) => d.name)).toEqual(["sample-plugin"]);
  });

  it("checks the framework range of a package folder given as a path, also when kubesched runs from a source checkout", async () => {
    // A kubesched built from source: its framework is a workspace package, not under node_modules.
    const checkout = path.join(tmp, "checkout");
    const sourceFramework = { version: "0.3.1", dir: path.join(checkout, "packages/framework") };
    mkdirSync(sourceFramework.dir, { recursive: true });
    writeFileSync(path.join(checkout, "pnpm-workspace.yaml"), "packages: [packages/*]\n");
    const elsewhere = writePackage(path.join(tmp, "elsewhere"), {
      name: "@acme/old-folder",
      version: "0.4.2",
      framework: "^0.2.0",
      index: gate("OldFolder"),
    });
    const load = (spec: string, base: string) =>
      loadPluginPackage(spec, { base, from: "--plugin", framework: sourceFramework, globalDir });
    await expect(load(elsewhere, project)).rejects.toThrow(
      `--plugin ${elsewhere}: @acme/old-folder@0.4.2 supports @kubesched/framework ^0.2.0, but this kubesched runs @kubesched/framework 0.3.1`,
    );
    // A package of that same checkout is built with it: not compared.
    const sibling = writePackage(path.join(checkout, "packages"), {
      name: "@acme/sibling",
      framework: "^0.2.0",
      index: gate("Sibling"),
    });
    expect((await load("./packages/@acme/sibling", checkout)).dir).toBe(sibling);
  });

  it("says what it is about to import before importing it", async () => {
    const seen: string[] = [];
    await expect(
      loadPluginPackage("@acme/throws", {
        ...opts,
        onLoad: (l) => seen.push(`${l.name}@${l.version} ${l.dir}`),
      }),
    ).rejects.toThrow("boom at load");
    expect(seen).toEqual([`@acme/throws@1.0.0 ${realpathSync(path.join(nm, "@acme/throws"))}`]);
  });
});

describe("pluginReleaseWarnings", () => {
  const pkg = (kubernetes: string | null): LoadedPluginPackage => ({
    spec: "@acme/p",
    name: "@acme/p",
    version: "1.0.0",
    dir: "/p",
    frameworkRange: "*",
    kubernetes,
    from: "--plugin",
    plugins: [],
  });
  it("names the release to emulate: the newest of the package's that kubesched emulates", () => {
    expect(pluginReleaseWarnings([pkg(">=1.30 <=1.35")], "1.37")).toEqual([
      `plugin package @acme/p 1.0.0 implements Kubernetes >=1.30 <=1.35 ("kubesched": {"kubernetes": ">=1.30 <=1.35"} in its package.json); kubesched behaves as 1.37, so the scheduler around its plugins (default plugins, preemption, feature gates) is 1.37's, not theirs: --emulated-version 1.35 runs them as that release does`,
    ]);
    expect(pluginReleaseWarnings([pkg(">=1.33 <=1.37"), pkg("1.36"), pkg(null)], "1.36")).toEqual([]);
  });
  it("says when kubesched emulates none of the package's releases", () => {
    expect(pluginReleaseWarnings([pkg("1.38")], "1.37")).toEqual([
      `plugin package @acme/p 1.0.0 implements Kubernetes 1.38 ("kubesched": {"kubernetes": "1.38"} in its package.json); kubesched behaves as 1.37, so the scheduler around its plugins (default plugins, preemption, feature gates) is 1.37's, not theirs: kubesched emulates none of their releases (1.33–1.37)`,
    ]);
  });
});
