// The plugin package template (docs/plugins.md, "Adding a plugin"), as checks: what `pnpm new:plugin` generates and
// what every plugin package in packages/plugins and packages/plugins-contrib must keep.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { camelCase, frameworkPeerRange, inTreeReleases } from "./generate";

/** README sections every plugin package has (a heading may go on, e.g. "## Args (`XArgs`)"). */
export const readmeSections = ["## Extension points", "## Args", "## Example", "## Upstream parity"];

interface PackageJson {
  name?: string;
  type?: string;
  sideEffects?: boolean;
  exports?: Record<string, unknown>;
  publishConfig?: { access?: string; exports?: Record<string, unknown> };
  files?: string[];
  kubesched?: { kubernetes?: string };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function read(p: string): string {
  return readFileSync(p, "utf8");
}

function sources(dir: string): { file: string; text: string }[] {
  const src = join(dir, "src");
  return readdirSync(src)
    .filter(
      (f) =>
        f.endsWith(".ts") &&
        !/\.test(-d)?\.ts$|test-util|test-harness|test-fixtures|fixtures\.test-util/.test(f),
    )
    .map((f) => ({ file: f, text: read(join(src, f)) }));
}

/** A path matches a vitest `projects` glob (`*` within one path segment). */
export function matchesProjectGlob(glob: string, path: string): boolean {
  const re = new RegExp(
    `^${glob
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]*")}$`,
  );
  return re.test(path);
}

/**
 * Every way the package at `dir` departs from the template, as sentences (empty: it follows it).
 * `projects` are the root vitest config's project globs.
 */
export function checkPluginPackage(dir: string, root: string, projects: readonly string[]): string[] {
  const problems: string[] = [];
  const kebab = basename(dir);
  const where = relative(root, dir).split(sep).join("/");
  const need = (file: string) => {
    if (!existsSync(join(dir, file))) problems.push(`${where}/${file} is missing`);
    return existsSync(join(dir, file));
  };
  for (const f of ["tsconfig.json", "tsup.config.ts", "vitest.config.ts", "src/index.ts"]) need(f);
  const contrib = /(^|\/)packages\/plugins-contrib\//.test(where);
  let minor: string | undefined;

  // package.json
  if (need("package.json")) {
    const pkg = JSON.parse(read(join(dir, "package.json"))) as PackageJson;
    const want = `@kubesched/plugin-${kebab}`;
    if (pkg.name !== want) problems.push(`package name is ${pkg.name}, want ${want}`);
    if (pkg.type !== "module") problems.push(`"type" is not "module"`);
    if (pkg.sideEffects !== false) problems.push(`"sideEffects" is not false`);
    minor = pkg.kubesched?.kubernetes;
    // In-tree plugins implement every release kubesched emulates (they read the emulated release
    // from their Handle), as the in-tree registry states; contrib ports track their upstream's.
    if (contrib && !/^1\.\d+$/.test(minor ?? ""))
      problems.push(`kubesched.kubernetes is ${minor}, want a minor such as 1.35`);
    else if (!contrib && minor !== inTreeReleases(root)) {
      problems.push(
        `kubesched.kubernetes is ${minor}, want ${inTreeReleases(root)} (the in-tree registry's)`,
      );
    }
    const peer = pkg.peerDependencies?.["@kubesched/framework"];
    if (!peer) {
      problems.push("@kubesched/framework is not a peer dependency");
    } else if (peer !== frameworkPeerRange(root)) {
      // The supported framework versions, stated (not workspace:^): changesets and kubesched's
      // load-time check read this range.
      problems.push(
        `peerDependencies["@kubesched/framework"] is ${peer}, want ${frameworkPeerRange(root)} (the range the in-tree registry states)`,
      );
    }
    if (pkg.dependencies?.["@kubesched/framework"]) {
      problems.push("@kubesched/framework is a dependency (it must be a peer dependency)");
    }
    if (pkg.exports?.["."] !== "./src/index.ts") problems.push(`exports["."] is not ./src/index.ts`);
    const published = pkg.publishConfig?.exports?.["."] as { types?: string; import?: string } | undefined;
    if (published?.types !== "./dist/index.d.ts" || published?.import !== "./dist/index.js") {
      problems.push(
        `publishConfig.exports["."] is not { types: ./dist/index.d.ts, import: ./dist/index.js }`,
      );
    }
    if (pkg.publishConfig?.access !== "public") problems.push(`publishConfig.access is not "public"`);
    for (const f of ["dist", "README.md"]) {
      if (!pkg.files?.includes(f)) problems.push(`"files" does not list ${f}`);
    }
    for (const s of ["build", "typecheck", "test", "test:build"]) {
      if (!pkg.scripts?.[s]) problems.push(`script "${s}" is missing`);
    }
    for (const [section, deps] of [
      ["dependencies", pkg.dependencies],
      ["peerDependencies", pkg.peerDependencies],
      ["devDependencies", pkg.devDependencies],
    ] as const) {
      for (const [dep, range] of Object.entries(deps ?? {})) {
        if (
          dep.startsWith("@kubesched/") &&
          section !== "peerDependencies" &&
          !range.startsWith("workspace:")
        ) {
          problems.push(`${section}["${dep}"] is ${range}, want a workspace: range`);
        }
        if (!dep.startsWith("@kubesched/") && range !== "catalog:") {
          problems.push(`${section}["${dep}"] is ${range}, want catalog: (versions are pinned once)`);
        }
      }
    }
  }

  // Sources: the main file named for the plugin, the name defined once, args validated in one place.
  if (!existsSync(join(dir, "src"))) return problems;
  const src = sources(dir);
  const mainFile = `${kebab}.ts`;
  if (!src.some((s) => s.file === mainFile)) problems.push(`the main file src/${mainFile} is missing`);
  const nameDefs = src.filter((s) => /^export const name = "[^"]+";$/m.test(s.text));
  if (nameDefs.length !== 1 || nameDefs[0]?.file !== mainFile) {
    problems.push(
      `the plugin's name must be defined once, in src/${mainFile} (defined in: ${nameDefs.map((s) => s.file).join(", ") || "none"})`,
    );
  } else {
    const literal = /^export const name = ("[^"]+");$/m.exec(nameDefs[0].text)?.[1] as string;
    const repeats = src.filter((s) => s.text.split(literal).length - 1 > (s.file === mainFile ? 1 : 0));
    if (repeats.length > 0) {
      problems.push(`the name ${literal} is spelled out again in ${repeats.map((s) => s.file).join(", ")}`);
    }
  }
  const args = src.find((s) => s.file === "args.ts");
  const index = src.find((s) => s.file === "index.ts");
  for (const s of src) {
    if (s.file === "args.ts") continue;
    if (/\bvalidate[A-Z]\w*Args\(|\.validate\(|formatFieldErrors\(/.test(s.text)) {
      problems.push(
        `src/${s.file} validates args (they are validated in one place: the args spec of src/args.ts)`,
      );
    }
    if (/\bdefineArgs\(/.test(s.text))
      problems.push(`src/${s.file} declares args (they belong in src/args.ts)`);
  }
  if (args) {
    const kind = /\bkind: "(\w+)Args"/.exec(args.text)?.[1];
    if (!/\bdefineArgs\(/.test(args.text) || !kind) {
      problems.push("src/args.ts does not declare the args with defineArgs({ kind, schema })");
    } else if (index) {
      for (const fn of [`default${kind}Args`, `validate${kind}Args`, `type ${kind}Args`]) {
        if (!index.text.includes(fn)) problems.push(`src/index.ts does not export ${fn}`);
      }
      if (!/\bargs: \w+ArgsSpec\b/.test(index.text)) {
        problems.push("the descriptor's args are not the spec from src/args.ts (`args: <x>ArgsSpec`)");
      }
    }
  } else if (index && /\bargs:/.test(index.text)) {
    problems.push("the descriptor has args but there is no src/args.ts");
  }
  if (index && !new RegExp(`export const ${camelCase(kebab)}Plugin\\b`).test(index.text)) {
    problems.push(`src/index.ts does not export the descriptor ${camelCase(kebab)}Plugin`);
  }

  // README
  if (need("README.md")) {
    const readme = read(join(dir, "README.md"));
    for (const section of readmeSections) {
      if (!readme.split("\n").some((l) => l.startsWith(section)))
        problems.push(`README.md has no "${section}" section`);
    }
    // The release it tracks: the minor, or a range's newest release.
    const newest = minor ? /(?:^|<=)(1\.\d+)$/.exec(minor)?.[1] : undefined;
    const says = (m: string) => new RegExp(`Kubernetes\\W{0,4}${m.replace(".", "\\.")}\\b`).test(readme);
    if (minor && !readme.includes(minor) && !(newest && says(newest))) {
      problems.push(`README.md does not say it tracks Kubernetes ${minor}`);
    }
  }

  // One vitest project, run once by the root config.
  const config = `${where}/vitest.config.ts`;
  const matches = projects.filter((g) => matchesProjectGlob(g, config));
  if (matches.length !== 1) {
    problems.push(`${config} is matched by ${matches.length} of the root vitest projects (want exactly 1)`);
  }
  if (
    existsSync(join(dir, "vitest.config.ts")) &&
    !read(join(dir, "vitest.config.ts")).includes("defineProject(")
  ) {
    problems.push("vitest.config.ts is not a defineProject() config");
  }
  return problems;
}

/** Every plugin package of the workspace (the in-tree registry package is not a plugin). */
export function pluginPackageDirs(root: string): string[] {
  const dirs: string[] = [];
  for (const group of ["packages/plugins", "packages/plugins-contrib"]) {
    for (const d of readdirSync(join(root, group), { withFileTypes: true })) {
      if (d.isDirectory() && d.name !== "in-tree" && existsSync(join(root, group, d.name, "package.json"))) {
        dirs.push(join(root, group, d.name));
      }
    }
  }
  return dirs.sort();
}
