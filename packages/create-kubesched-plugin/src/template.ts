// The plugin template, one for both scaffolders: `npm create kubesched-plugin` (a standalone npm
// package, `templateFiles`) and the kubesched repository's `pnpm new:plugin` (a workspace package,
// which adds its own package files to `renderPlugin`). template/ holds the plugin's sources
// (descriptor, args declared once with defineArgs, a Filter and a Score extension point, table
// tests through @kubesched/testing) and README; a standalone package is built with tsc to ESM
// with .d.ts that resolve under NodeNext and Bundler.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginNames } from "./names";

/** The tools the package is built and tested with (the kubesched repository's versions). */
export const toolVersions = {
  typescript: "5.9.3",
  vitest: "4.1.12",
  "@types/node": "20.19.43",
  "@changesets/cli": "2.31.1",
} as const;

/** template/, next to src/ and dist/ (published with the package). */
const templateDir = fileURLToPath(new URL("../template/", import.meta.url));

export interface PluginTemplateOptions {
  names: Pick<PluginNames, "kebab" | "pascal" | "camel" | "packageName">;
  /** The Kubernetes minor the plugin tracks. */
  kubernetes: string;
  /** The @kubesched/framework versions it supports (its peer dependency range, e.g. "^0.4.0"). */
  frameworkRange: string;
  /**
   * standalone: its own npm package, compiled by tsc under NodeNext (relative imports end in
   * .js), its README with how to develop and release it; workspace: a package of the kubesched
   * repository (Bundler resolution, built and released by the repository).
   */
  layout: "standalone" | "workspace";
  /** Default-export the descriptor: what `kubesched --plugin PKG` loads. */
  defaultExport: boolean;
}

/**
 * Fills a template: `{{var}}` is replaced by its value; a section `{{#flag}}` … `{{/flag}}` (each
 * tag on a line of its own) keeps its lines when the flag is true, `{{^flag}}` … `{{/flag}}` when
 * it is false. A mustache subset, small enough not to take a dependency for.
 */
export function renderTemplate(
  text: string,
  vars: Record<string, string>,
  flags: Record<string, boolean>,
): string {
  const sections = text.replace(
    /^\{\{([#^])(\w+)\}\}\n([\s\S]*?)^\{\{\/\2\}\}\n/gm,
    (_m, kind: string, flag: string, body: string) => {
      const on = flags[flag];
      if (on === undefined) throw new Error(`template: unknown section {{${kind}${flag}}}`);
      return on === (kind === "#") ? body : "";
    },
  );
  return sections.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => {
    const v = vars[k];
    if (v === undefined) throw new Error(`template: unknown variable {{${k}}}`);
    return v;
  });
}

function templatePaths(dir = templateDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? templatePaths(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

/** The plugin's sources and README (relative path → content), from template/. */
export function renderPlugin(o: PluginTemplateOptions): Record<string, string> {
  const { kebab, pascal, camel, packageName } = o.names;
  const vars = {
    Name: pascal,
    kebab,
    camel,
    packageName,
    kubernetes: o.kubernetes,
    frameworkRange: o.frameworkRange,
    js: o.layout === "standalone" ? ".js" : "",
  };
  const flags = { defaultExport: o.defaultExport, standalone: o.layout === "standalone" };
  const files: Record<string, string> = {};
  for (const file of templatePaths().sort()) {
    const out = path
      .relative(templateDir, file)
      .split(path.sep)
      .join("/")
      .replace(/\.tmpl$/, "")
      .replace(/__kebab__/g, kebab);
    files[out] = renderTemplate(readFileSync(file, "utf8"), vars, flags);
  }
  return files;
}

export interface TemplateOptions {
  names: PluginNames;
  /** The kubesched release the package is written against (its @kubesched/framework version). */
  kubeschedVersion: string;
  /** The Kubernetes minor the plugin tracks. */
  kubernetes: string;
}

function json(v: unknown): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}

/** The files of a standalone plugin package: relative path → content. */
export function templateFiles(o: TemplateOptions): Record<string, string> {
  const { pascal, packageName } = o.names;
  const [major, minor] = o.kubeschedVersion.split(".");
  const frameworkRange = `^${major}.${minor}.0`;
  const kubesched = `^${o.kubeschedVersion}`;
  return {
    "package.json": json({
      name: packageName,
      version: "0.1.0",
      description: `${pascal}: a kubesched scheduler plugin (Filter and Score).`,
      license: "Apache-2.0",
      type: "module",
      sideEffects: false,
      engines: { node: ">=22" },
      exports: {
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./package.json": "./package.json",
      },
      files: ["dist", "README.md"],
      keywords: ["kubesched", "kubesched-plugin", "kubernetes", "scheduler"],
      kubesched: { kubernetes: o.kubernetes },
      scripts: {
        build: "tsc -p tsconfig.build.json",
        typecheck: "tsc --noEmit",
        test: "vitest run",
        prepublishOnly: "npm run build",
        changeset: "changeset",
      },
      // The framework versions the plugin supports: kubesched refuses to load it into another.
      peerDependencies: { "@kubesched/framework": frameworkRange },
      dependencies: { "@kubesched/api": kubesched },
      devDependencies: {
        "@changesets/cli": `^${toolVersions["@changesets/cli"]}`,
        "@kubesched/framework": kubesched,
        "@kubesched/testing": kubesched,
        "@types/node": `^${toolVersions["@types/node"]}`,
        typescript: `^${toolVersions.typescript}`,
        vitest: `^${toolVersions.vitest}`,
      },
    }),
    "tsconfig.json": json({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        declaration: true,
        sourceMap: true,
        rootDir: "src",
        outDir: "dist",
      },
      include: ["src"],
    }),
    "tsconfig.build.json": json({
      extends: "./tsconfig.json",
      exclude: ["src/**/*.test.ts"],
    }),
    ".gitignore": "node_modules/\ndist/\n",
    ".changeset/config.json": json({
      $schema: "https://unpkg.com/@changesets/config@3.1.1/schema.json",
      changelog: "@changesets/cli/changelog",
      commit: false,
      access: "public",
      baseBranch: "main",
      updateInternalDependencies: "patch",
      ignore: [],
    }),
    ".changeset/README.md": `# Changesets

Every change users should hear about carries a changeset: \`npm run changeset\`, pick the bump
(patch: a fix; minor: a feature, or in 0.x a breaking change), describe it for users. To release:
\`npx changeset version\` (bumps package.json, writes CHANGELOG.md), then \`npm publish\`.
`,
    ...renderPlugin({
      names: o.names,
      kubernetes: o.kubernetes,
      frameworkRange,
      layout: "standalone",
      defaultExport: true,
    }),
  };
}
