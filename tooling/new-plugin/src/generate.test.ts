// `pnpm new:plugin Example` produces a package whose tests, typecheck and lint pass and which
// follows the template; --register adds it to the in-tree registry. The package is generated
// into a temporary directory inside the workspace (so it resolves the workspace's packages as a
// member would) and removed afterwards.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkPluginPackage } from "./conventions";
import { camelCase, kebabCase, newPlugin, workspaceRoot } from "./generate";
import { rootProjects } from "./root-projects";

const tmp = join(workspaceRoot, "tooling/new-plugin", `.tmp-${process.pid}`);
const bin = (name: string) => join(workspaceRoot, "node_modules/.bin", name);
const cli = join(workspaceRoot, "tooling/new-plugin/src/cli.ts");

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(cmd: string, args: string[], cwd = workspaceRoot) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colours
  return { code: r.status, out: `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, "") };
}

// The root projects, as they would match the package had it been generated at the real place.
const projectsUnder = (prefix: string) => rootProjects.map((g) => `${prefix}/${g}`);

describe("names", () => {
  it.each([
    ["Example", "example", "example"],
    ["NodeResourcesFit", "node-resources-fit", "nodeResourcesFit"],
    ["DRAScorer", "dra-scorer", "draScorer"],
    ["NodeV2Affinity", "node-v2-affinity", "nodeV2Affinity"],
  ])("%s → %s, %s", (name, kebab, camel) => {
    expect(kebabCase(name)).toBe(kebab);
    expect(camelCase(kebab)).toBe(camel);
  });
});

describe("pnpm new:plugin", () => {
  it("prints usage and exits 2 on bad usage, 0 for --help", () => {
    expect(run(bin("tsx"), [cli]).code).toBe(2);
    const bad = run(bin("tsx"), [cli, "example"]);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('invalid plugin name "example": use PascalCase');
    expect(run(bin("tsx"), [cli, "Example", "--contrib", "--register"]).code).toBe(2);
    const help = run(bin("tsx"), [cli, "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: pnpm new:plugin <Name>/);
  });

  it("generates Example: its tests, typecheck and lint pass, and it follows the template", () => {
    const prefix = relative(workspaceRoot, join(tmp, "cli"));
    const dir = join(tmp, "cli/packages/plugins/example");
    const changesets = join(tmp, "cli/.changeset");
    const gen = run(bin("tsx"), [cli, "Example", "--dir", dir, "--changeset-dir", changesets]);
    expect(gen.out).toContain("created @kubesched/plugin-example");
    expect(gen.code).toBe(0);
    // A second run does not overwrite it.
    expect(run(bin("tsx"), [cli, "Example", "--dir", dir, "--changeset-dir", changesets]).code).toBe(1);

    expect(checkPluginPackage(dir, workspaceRoot, projectsUnder(prefix))).toEqual([]);
    expect(readFileSync(join(changesets, "plugin-example-initial.md"), "utf8")).toBe(
      '---\n"@kubesched/plugin-example": minor\n---\n\nThe Example plugin (@kubesched/plugin-example).\n',
    );
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      name: "@kubesched/plugin-example",
      engines: { node: ">=20" },
      kubesched: { kubernetes: ">=1.33 <=1.37" },
      peerDependencies: { "@kubesched/framework": "^0.1.0" },
      devDependencies: { "@kubesched/testing": "workspace:^", vitest: "catalog:" },
    });

    const lint = run(bin("biome"), ["check", dir]);
    expect(lint.out).not.toMatch(/error/i);
    expect(lint.code).toBe(0);
    const typecheck = run(bin("tsc"), ["--noEmit", "-p", dir]);
    expect(typecheck.out).toBe("");
    expect(typecheck.code).toBe(0);
    const tests = run(bin("vitest"), ["run"], dir);
    expect(tests.out).toMatch(/Tests\s+20 passed/);
    expect(tests.code).toBe(0);
  });

  it("the template check finds a package that drifted from it", () => {
    const dir = join(tmp, "drift/packages/plugins/example");
    newPlugin({ name: "Example", dir, changesetDir: join(tmp, "drift/.changeset") });
    const projects = projectsUnder(relative(workspaceRoot, join(tmp, "drift")));
    const index = join(dir, "src/index.ts");
    writeFileSync(
      index,
      readFileSync(index, "utf8").replace(
        "factory: (args) => new Example(args),",
        "factory: (args) => {\n    if (validateExampleArgs(args).length) throw new Error();\n    return new Example(args);\n  },",
      ),
    );
    writeFileSync(join(dir, "src/reasons.ts"), 'export const name = "Example";\n');
    renameSync(join(dir, "src/example.ts"), join(dir, "src/plugin.ts"));
    writeFileSync(join(dir, "README.md"), "# @kubesched/plugin-example\n\n## Args\n");
    expect(checkPluginPackage(dir, workspaceRoot, projects)).toEqual([
      "the main file src/example.ts is missing",
      "the plugin's name must be defined once, in src/example.ts (defined in: plugin.ts, reasons.ts)",
      "src/index.ts validates args (they are validated in one place: the args spec of src/args.ts)",
      'README.md has no "## Extension points" section',
      'README.md has no "## Example" section',
      'README.md has no "## Upstream parity" section',
      "README.md does not say it tracks Kubernetes >=1.33 <=1.37",
    ]);
    expect(checkPluginPackage(dir, workspaceRoot, [])).toContain(
      `${relative(workspaceRoot, dir)}/vitest.config.ts is matched by 0 of the root vitest projects (want exactly 1)`,
    );
  });

  it("--contrib: an out-of-tree package with a default export and a CHANGELOG", () => {
    const dir = join(tmp, "contrib/packages/plugins-contrib/gang-lite");
    newPlugin({ name: "GangLite", contrib: true, dir, changesetDir: join(tmp, "contrib/.changeset") });
    expect(readFileSync(join(dir, "src/index.ts"), "utf8")).toContain("export default gangLitePlugin;");
    expect(readFileSync(join(dir, "CHANGELOG.md"), "utf8")).toBe("# @kubesched/plugin-gang-lite\n");
    expect(readFileSync(join(dir, "vitest.config.ts"), "utf8")).not.toContain("engine-setup");
    const projects = projectsUnder(relative(workspaceRoot, join(tmp, "contrib")));
    expect(checkPluginPackage(dir, workspaceRoot, projects)).toEqual([]);
  });

  it("--register adds the plugin to the in-tree registry (its import, entry and dependency)", () => {
    // A copy of the files --register edits, under a root of its own.
    const root = join(tmp, "register");
    for (const f of [
      "packages/plugins/in-tree/src/index.ts",
      "packages/plugins/in-tree/package.json",
      "packages/framework/package.json",
    ]) {
      mkdirSync(join(root, f, ".."), { recursive: true });
      cpSync(join(workspaceRoot, f), join(root, f));
    }
    const res = newPlugin({ name: "Example", register: true, root });
    expect(res.files).toEqual(
      expect.arrayContaining([
        "packages/plugins/in-tree/src/index.ts",
        "packages/plugins/in-tree/package.json",
        ".changeset/plugin-example-initial.md",
      ]),
    );
    const index = readFileSync(join(root, "packages/plugins/in-tree/src/index.ts"), "utf8");
    const imports = index.split("\n").filter((l) => l.startsWith("import {"));
    expect(imports).toContain('import { examplePlugin } from "@kubesched/plugin-example";');
    const modules = imports.map((l) => /from "(.+)";$/.exec(l)?.[1]);
    expect(modules).toEqual([...modules].sort()); // Biome keeps them sorted
    expect(index).toMatch(
      / {2}registryEntry\(nodeDeclaredFeaturesPlugin\),\n {2}registryEntry\(examplePlugin\),\n\];/,
    );
    const pkg = JSON.parse(readFileSync(join(root, "packages/plugins/in-tree/package.json"), "utf8"));
    expect(pkg.dependencies["@kubesched/plugin-example"]).toBe("workspace:^");
    expect(Object.keys(pkg.dependencies)).toEqual(Object.keys(pkg.dependencies).sort());
    expect(readFileSync(join(root, ".changeset/plugin-example-initial.md"), "utf8")).toContain(
      '"@kubesched/plugins-in-tree": minor',
    );
    // The workspace's own registry is untouched.
    expect(
      execFileSync("git", ["status", "--porcelain", "packages/plugins/in-tree"], {
        cwd: workspaceRoot,
      }).toString(),
    ).toBe("");
  });
});
