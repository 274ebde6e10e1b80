// Generates an in-repo plugin package: the plugin's sources and README from the one plugin template
// (create-kubesched-plugin's renderPlugin, which `npm create kubesched-plugin` uses too: index,
// the plugin's file, args, a table test through the plugin harness), and the workspace's own files
// around them: package.json, tsconfig, tsup and vitest configs and a changeset; with `register`,
// the in-tree registry entry.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { renderPlugin } from "create-kubesched-plugin";

/** The workspace root (this file is tooling/new-plugin/src/generate.ts). */
export const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export interface NewPluginOptions {
  /** The plugin's registered name, PascalCase as upstream's ("NodeResourcesFit"). */
  name: string;
  /** An out-of-tree plugin (packages/plugins-contrib), loaded with --plugin: adds a default export. */
  contrib?: boolean;
  /** Adds the plugin to the in-tree registry (@kubesched/plugins-in-tree). In-tree plugins only. */
  register?: boolean;
  /** Where the package goes (default packages/plugins/<kebab> or packages/plugins-contrib/<kebab>). */
  dir?: string;
  /** Where the changeset goes (default <workspace>/.changeset). */
  changesetDir?: string;
  /** The workspace (default: the one this tool lives in). */
  root?: string;
}

export interface NewPluginResult {
  dir: string;
  packageName: string;
  /** Every file written or changed, relative to the workspace root. */
  files: string[];
}

/** A problem with the request (bad name: usage, exit 2; existing directory: exit 1), printed without a stack. */
export class NewPluginError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = "NewPluginError";
  }
}

/** "NodeResourcesFit" → "node-resources-fit"; "DRAThing" → "dra-thing". */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}

/** "node-resources-fit" → "nodeResourcesFit". */
export function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `"kubesched": {"kubernetes": ...}` of the workspace package at `dir` (relative to `root`). */
function statedKubernetes(root: string, dir: string): string {
  const pkg = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
    kubesched?: { kubernetes?: string };
  };
  const v = pkg.kubesched?.kubernetes;
  if (!v) throw new Error(`${dir}/package.json has no kubesched.kubernetes`);
  return v;
}

/** The Kubernetes minor the framework tracks (its package.json), which a new contrib plugin tracks too. */
export function trackedKubernetes(root: string): string {
  return statedKubernetes(root, "packages/framework");
}

/**
 * The Kubernetes releases in-tree plugin packages implement, as the in-tree registry states them
 * (`">=1.33 <=1.37"`): every release kubesched emulates, up to the framework's.
 */
export function inTreeReleases(root: string): string {
  return statedKubernetes(root, "packages/plugins/in-tree");
}

/**
 * The framework versions the workspace's plugins support (the in-tree registry's peer range, e.g.
 * "^0.1.0"): a new plugin states the same. A plain semver range, not workspace:^, so that changesets
 * and kubesched's load-time check see what the plugin supports (see the framework's version policy).
 */
export function frameworkPeerRange(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, "packages/plugins/in-tree/package.json"), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  const range = pkg.peerDependencies?.["@kubesched/framework"];
  if (!range) throw new Error("packages/plugins/in-tree/package.json has no @kubesched/framework peer range");
  return range;
}

function posix(p: string): string {
  return p.split(sep).join("/");
}

function packageJson(vars: Record<string, string>, contrib: boolean): string {
  const pkg = {
    name: vars.packageName,
    version: "0.0.0",
    description: `The ${vars.Name} scheduler plugin.`,
    license: "Apache-2.0",
    type: "module",
    sideEffects: false,
    engines: { node: ">=20" },
    exports: { ".": "./src/index.ts", "./package.json": "./package.json" },
    publishConfig: {
      access: "public",
      exports: {
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./package.json": "./package.json",
      },
    },
    files: ["dist", "README.md", "CHANGELOG.md"],
    kubesched: { kubernetes: vars.kubernetes },
    scripts: {
      build: "tsup",
      typecheck: "tsc --noEmit",
      test: "vitest run",
      "test:build": "publint --strict --pack pnpm",
    },
    peerDependencies: { "@kubesched/framework": vars.frameworkRange },
    dependencies: { "@kubesched/api": "workspace:^" },
    devDependencies: {
      "@kubesched/framework": "workspace:^",
      "@kubesched/testing": "workspace:^",
      "@kubesched/tsconfig": "workspace:*",
      "@types/node": "catalog:",
      tsup: "catalog:",
      typescript: "catalog:",
      vitest: "catalog:",
    },
  };
  if (contrib) pkg.description = `The ${vars.Name} scheduler plugin (out-of-tree: load it with --plugin).`;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function vitestConfig(toRoot: string, contrib: boolean): string {
  if (contrib) return `import { defineProject } from "vitest/config";\n\nexport default defineProject({});\n`;
  return `import { defineProject } from "vitest/config";

// Every harness call is replayed through the assembled scheduler (the engine conformance suite).
export default defineProject({ test: { setupFiles: ["${toRoot}/tooling/conformance/engine-setup.ts"] } });
`;
}

/** Formats (and sorts the imports of) generated code with the workspace's Biome. */
function biomeWrite(path: string): void {
  execFileSync(join(workspaceRoot, "node_modules/.bin/biome"), ["check", "--write", path], {
    cwd: workspaceRoot,
    stdio: "pipe",
  });
}

/** Writes the package; throws NewPluginError on a bad name or an existing directory. */
export function newPlugin(opts: NewPluginOptions): NewPluginResult {
  const root = opts.root ?? workspaceRoot;
  const Name = opts.name;
  if (!/^[A-Z][A-Za-z0-9]*$/.test(Name)) {
    throw new NewPluginError(
      `invalid plugin name "${Name}": use PascalCase, as upstream names plugins (NodeResourcesFit)`,
      2,
    );
  }
  if (opts.register && opts.contrib) {
    throw new NewPluginError(
      "--register adds an in-tree plugin to the in-tree registry; contrib plugins load with --plugin",
      2,
    );
  }
  const kebab = kebabCase(Name);
  const contrib = opts.contrib === true;
  const dir = resolve(root, opts.dir ?? join("packages", contrib ? "plugins-contrib" : "plugins", kebab));
  if (existsSync(dir)) throw new NewPluginError(`${posix(relative(root, dir)) || dir} already exists`, 1);
  const packageName = `@kubesched/plugin-${kebab}`;
  const toRoot = posix(relative(dir, root));
  const vars = {
    Name,
    kebab,
    camel: camelCase(kebab),
    packageName,
    kubernetes: contrib ? trackedKubernetes(root) : inTreeReleases(root),
    frameworkRange: frameworkPeerRange(root),
  };

  const files = new Map<string, string>();
  files.set("package.json", packageJson(vars, contrib));
  files.set("tsconfig.json", `{\n  "extends": "@kubesched/tsconfig/base.json",\n  "include": ["src"]\n}\n`);
  files.set(
    "tsup.config.ts",
    `import { defineConfig } from "tsup";\nimport { baseConfig } from "${toRoot}/tsup.config.base";\n\nexport default defineConfig({ ...baseConfig });\n`,
  );
  files.set("vitest.config.ts", vitestConfig(toRoot, contrib));
  if (contrib) files.set("CHANGELOG.md", `# ${packageName}\n`);
  const plugin = renderPlugin({
    names: { kebab, pascal: Name, camel: vars.camel, packageName },
    kubernetes: vars.kubernetes,
    frameworkRange: vars.frameworkRange,
    layout: "workspace",
    // Contrib plugins load with --plugin, which imports the package's default export.
    defaultExport: contrib,
  });
  for (const [rel, text] of Object.entries(plugin)) files.set(rel, text);

  const written: string[] = [];
  for (const [rel, text] of files) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    written.push(posix(relative(root, p)));
  }

  const changesetDir = resolve(root, opts.changesetDir ?? ".changeset");
  mkdirSync(changesetDir, { recursive: true });
  const changeset = join(changesetDir, `plugin-${kebab}-initial.md`);
  const bumps = [
    `"${packageName}": minor`,
    ...(opts.register ? [`"@kubesched/plugins-in-tree": minor`] : []),
  ];
  writeFileSync(
    changeset,
    `---\n${bumps.join("\n")}\n---\n\nThe ${Name} plugin (${packageName})${opts.register ? ", in the in-tree registry" : ""}.\n`,
  );
  written.push(posix(relative(root, changeset)));

  if (opts.register) written.push(...registerInTree(root, vars));

  // The template is formatted for a short name; a long one may need other line breaks.
  biomeWrite(dir);
  return { dir, packageName, files: written };
}

/** Adds the plugin to @kubesched/plugins-in-tree: its import, its registry entry, its dependency. */
export function registerInTree(root: string, vars: Record<string, string>): string[] {
  const indexPath = join(root, "packages/plugins/in-tree/src/index.ts");
  const pkgPath = join(root, "packages/plugins/in-tree/package.json");
  const plugin = `${vars.camel}Plugin`;
  let index = readFileSync(indexPath, "utf8");
  const anchor = "\n/** Every in-tree plugin descriptor";
  const end = "\n];\n\n/** name → descriptor";
  if (!index.includes(anchor) || !index.includes(end)) {
    throw new Error(`${indexPath}: cannot find where to add the registry entry`);
  }
  index = index
    .replace(anchor, `import { ${plugin} } from "${vars.packageName}";\n${anchor}`)
    .replace(end, `\n  registryEntry(${plugin}),${end}`);
  writeFileSync(indexPath, index);
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { dependencies: Record<string, string> };
  pkg.dependencies[vars.packageName as string] = "workspace:^";
  pkg.dependencies = Object.fromEntries(
    Object.entries(pkg.dependencies).sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  biomeWrite(indexPath);
  return [posix(relative(root, indexPath)), posix(relative(root, pkgPath))];
}
