// Plugin packages named on the command line (`--plugin PKG`) or in the options file `--options FILE`:
// resolved from the user's project as Node resolves an `import` (node_modules up from the
// directory, the package's `exports` with the "import" condition, ESM-only packages included), then
// from npm's global prefix; checked against the framework this CLI runs; their default export (one
// plugin descriptor or a list) registered beside the in-tree plugins.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { releaseInRange, supportedReleases } from "@kubesched/config";
import type { PluginDescriptor, Registry } from "@kubesched/framework";
import { resolve as resolveImport } from "import-meta-resolve";
import semver from "semver";

/** A plugin package the CLI loaded. */
export interface LoadedPluginPackage {
  /** As given (`@acme/kubesched-plugin-demo-gate`, or a path to a package folder). */
  spec: string;
  /** The package's name and version, from its package.json. */
  name: string;
  version: string;
  /** Its folder. */
  dir: string;
  /** `peerDependencies["@kubesched/framework"]`. */
  frameworkRange: string;
  /**
   * `kubesched.kubernetes`: the Kubernetes releases it implements, one (`1.35`) or a range
   * (`>=1.33 <=1.37`); checked against the emulated release (`pluginReleaseWarnings`).
   */
  kubernetes: string | null;
  /** Where it was named: "--plugin" or the options file. */
  from: string;
  plugins: PluginDescriptor<unknown>[];
}

/** A plugin package that cannot be used; the message names the package and what to do. */
export class PluginLoadError extends Error {
  override name = "PluginLoadError";
}

interface PackageJson {
  name?: string;
  version?: string;
  peerDependencies?: Record<string, string>;
  kubesched?: { kubernetes?: string };
}

const require = createRequire(import.meta.url);

/** The @kubesched/framework this CLI runs: its version and folder. */
export function runningFramework(): { version: string; dir: string } {
  const file = require.resolve("@kubesched/framework/package.json");
  return {
    version: (JSON.parse(readFileSync(file, "utf8")) as PackageJson).version ?? "0.0.0",
    dir: path.dirname(file),
  };
}

/**
 * The root of the source checkout (the pnpm workspace) `dir` belongs to; null for an installed
 * package (a folder under node_modules) or a folder of no workspace.
 */
function checkoutRoot(dir: string): string | null {
  const real = realpathSync(dir);
  if (real.split(path.sep).includes("node_modules")) return null;
  for (let d = real; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, "pnpm-workspace.yaml"))) return d;
    if (path.dirname(d) === d) return null;
  }
}

/** `dir` is a package of the source checkout the framework `frameworkDir` is built in. */
function inFrameworkCheckout(dir: string, frameworkDir: string): boolean {
  const root = checkoutRoot(frameworkDir);
  return root !== null && checkoutRoot(dir) === root;
}

/** Where `npm install -g` puts packages. */
export function globalModulesDir(env: NodeJS.ProcessEnv = process.env): string {
  const prefix = env.npm_config_prefix || path.resolve(path.dirname(process.execPath), "..");
  return process.platform === "win32"
    ? path.join(env.npm_config_prefix || path.dirname(process.execPath), "node_modules")
    : path.join(prefix, "lib", "node_modules");
}

function isPath(spec: string): boolean {
  return spec.startsWith(".") || path.isAbsolute(spec);
}

function readPackageJson(file: string): PackageJson {
  return JSON.parse(readFileSync(file, "utf8")) as PackageJson;
}

/** The folder of the package whose entry is `file`: the nearest package.json named `name`. */
export function packageDirOf(file: string, name: string | null): string {
  let dir = path.dirname(file);
  for (;;) {
    const pj = path.join(dir, "package.json");
    if (existsSync(pj) && (name === null || readPackageJson(pj).name === name)) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new PluginLoadError(`no package.json above ${file}`);
    dir = up;
  }
}

function errorCode(e: unknown): string | undefined {
  return (e as { code?: string } | null)?.code;
}

/** The entry file URL of a package (its "." export for `import`), from `bases` in order. */
function resolveEntry(spec: string, bases: readonly string[], from: string): { url: string; dir: string } {
  const label = `${from} ${spec}`;
  if (isPath(spec)) {
    const dir = path.resolve(bases[0] as string, spec);
    if (!existsSync(path.join(dir, "package.json")) || !statSync(dir).isDirectory()) {
      throw new PluginLoadError(`${label}: ${dir} is not a package folder (no package.json)`);
    }
    const name = readPackageJson(path.join(dir, "package.json")).name;
    if (!name) throw new PluginLoadError(`${label}: ${dir}/package.json has no "name"`);
    try {
      // A package resolves its own name through its "exports" (self-reference).
      return { url: resolveImport(name, pathToFileURL(path.join(dir, "package.json")).href), dir };
    } catch (e) {
      throw new PluginLoadError(`${label}: ${entryProblem(e, name)}`);
    }
  }
  for (const base of bases) {
    try {
      const url = resolveImport(spec, pathToFileURL(path.join(base, "noop.js")).href);
      return { url, dir: packageDirOf(fileURLToPath(url), packageName(spec)) };
    } catch (e) {
      // Not under this base: try the next. Found but unusable (no "." export, a missing entry
      // file, e.g. a package that was not built): that is the answer.
      const notHere =
        errorCode(e) === "ERR_MODULE_NOT_FOUND" && /^Cannot find package /.test((e as Error).message);
      if (!notHere) throw new PluginLoadError(`${label}: ${entryProblem(e, spec)}`);
    }
  }
  throw new PluginLoadError(
    `${label}: cannot find the package (looked in node_modules from ${bases.slice(0, -1).join(", ")} and in the global ${bases.at(-1)}); install it: npm install ${spec}`,
  );
}

/** "@a/b/c" → "@a/b"; "x/y" → "x". */
function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

function entryProblem(e: unknown, name: string): string {
  switch (errorCode(e)) {
    case "ERR_PACKAGE_PATH_NOT_EXPORTED":
      return `${name} exports no "." entry for import (package.json "exports")`;
    case "ERR_INVALID_PACKAGE_TARGET":
    case "ERR_INVALID_PACKAGE_CONFIG":
      return `${name} has an invalid package.json "exports": ${(e as Error).message}`;
    default:
      return (e as Error).message ?? String(e);
  }
}

/**
 * The problems of a default export as plugin descriptors (empty when it is one descriptor or a
 * non-empty list of them).
 */
export function descriptorProblems(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const where = (i: number) => (Array.isArray(value) ? `default export[${i}]` : "default export");
  if (list.length === 0)
    return ["default export: an empty list (export one plugin descriptor or a list of them)"];
  const problems: string[] = [];
  list.forEach((d: unknown, i) => {
    if (typeof d !== "object" || d === null) {
      problems.push(
        `${where(i)}: not a plugin descriptor (${d === null ? "null" : typeof d}); export definePlugin({ name, factory, args? })`,
      );
      return;
    }
    const o = d as Record<string, unknown>;
    if (typeof o.name !== "string" || o.name === "")
      problems.push(`${where(i)}.name: must be a non-empty string`);
    if (typeof o.factory !== "function")
      problems.push(`${where(i)}.factory: must be a function (args, handle) => plugin`);
    if (o.args !== undefined) {
      const a = o.args as Record<string, unknown> | null;
      if (typeof a !== "object" || a === null) {
        problems.push(`${where(i)}.args: must be an args spec (defineArgs({ kind, schema, ... }))`);
      } else {
        if (typeof a.kind !== "string" || a.kind === "")
          problems.push(`${where(i)}.args.kind: must be a non-empty string`);
        for (const f of ["decode", "validate"]) {
          if (typeof a[f] !== "function") problems.push(`${where(i)}.args.${f}: must be a function`);
        }
        if (a.encode !== undefined && typeof a.encode !== "function")
          problems.push(`${where(i)}.args.encode: must be a function`);
      }
    }
    if (o.customResources !== undefined) {
      if (!Array.isArray(o.customResources)) {
        problems.push(`${where(i)}.customResources: must be a list of custom resources`);
      } else {
        o.customResources.forEach((r: unknown, j) => {
          const c = (r ?? {}) as Record<string, unknown>;
          for (const f of ["group", "version", "resource", "kind"]) {
            if (typeof c[f] !== "string")
              problems.push(`${where(i)}.customResources[${j}].${f}: must be a string`);
          }
          if (typeof c.namespaced !== "boolean")
            problems.push(`${where(i)}.customResources[${j}].namespaced: must be a boolean`);
        });
      }
    }
  });
  return problems;
}

export interface LoadPluginOptions {
  /** Folder to resolve from first (the cwd for --plugin, the file's folder for an options file). */
  base: string;
  /** Where it was named, for messages ("--plugin", "examples/x/kubesched-options.yaml"). */
  from: string;
  /** The framework to check against; default: the one this CLI runs. */
  framework?: { version: string; dir: string };
  /** Where global packages are; default: npm's global prefix. */
  globalDir?: string;
  /** Called once a package is resolved and checked, just before its code is imported. */
  onLoad?: (p: PluginLoadNotice) => void;
  /**
   * Imports the package's entry (a file URL); default `import()`. The sweep's worker processes
   * in a checkout, which cannot `import()` TypeScript, require it through tsx instead.
   */
  importModule?: (url: string) => Promise<unknown>;
}

/** What is about to be imported: the package, its version, its folder (symbolic links resolved). */
export interface PluginLoadNotice {
  spec: string;
  from: string;
  name: string;
  version: string;
  dir: string;
}

/** Resolves, checks and imports one plugin package. */
export async function loadPluginPackage(spec: string, opts: LoadPluginOptions): Promise<LoadedPluginPackage> {
  const framework = opts.framework ?? runningFramework();
  const label = `${opts.from} ${spec}`;
  const { url, dir } = resolveEntry(spec, [opts.base, opts.globalDir ?? globalModulesDir()], opts.from);
  const pj = readPackageJson(path.join(dir, "package.json"));
  const id = `${pj.name ?? spec}@${pj.version ?? "?"}`;
  const range = pj.peerDependencies?.["@kubesched/framework"];
  if (range === undefined) {
    throw new PluginLoadError(
      `${label}: ${id} does not state the @kubesched/framework versions it supports (peerDependencies["@kubesched/framework"], e.g. "^${semver.major(framework.version)}.${semver.minor(framework.version)}.0"); this kubesched runs @kubesched/framework ${framework.version}`,
    );
  }
  // Packages of the framework's own source checkout (this repository's workspace) are built
  // together: there is no released version to compare until they are published. Any other
  // package, a folder given as a path included, is checked.
  if (!inFrameworkCheckout(dir, framework.dir)) {
    if (!semver.validRange(range)) {
      throw new PluginLoadError(
        `${label}: ${id} has peerDependencies["@kubesched/framework"] "${range}", which is not a semver range`,
      );
    }
    if (!semver.satisfies(framework.version, range, { includePrerelease: true })) {
      throw new PluginLoadError(
        `${label}: ${id} supports @kubesched/framework ${range}, but this kubesched runs @kubesched/framework ${framework.version}; install a version of ${pj.name} built for ${framework.version}, or a kubesched whose framework is in ${range}`,
      );
    }
  }
  opts.onLoad?.({
    spec,
    from: opts.from,
    name: pj.name ?? spec,
    version: pj.version ?? "0.0.0",
    dir: realpathSync(dir),
  });
  let mod: { default?: unknown };
  try {
    mod = (await (opts.importModule ?? ((u: string) => import(u)))(url)) as { default?: unknown };
  } catch (e) {
    throw new PluginLoadError(
      `${label}: ${id} failed to load: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (mod.default === undefined) {
    throw new PluginLoadError(
      `${label}: ${id} has no default export; a plugin package default-exports its plugin descriptor (export default definePlugin({...})) or a list of them`,
    );
  }
  const problems = descriptorProblems(mod.default);
  if (problems.length) throw new PluginLoadError(`${label}: ${id}: ${problems.join("; ")}`);
  const plugins = (Array.isArray(mod.default) ? mod.default : [mod.default]) as PluginDescriptor<unknown>[];
  return {
    spec,
    name: pj.name ?? spec,
    version: pj.version ?? "0.0.0",
    dir,
    frameworkRange: range,
    kubernetes: pj.kubesched?.kubernetes ?? null,
    from: opts.from,
    plugins,
  };
}

/** A plugin package to load and where it was named. */
export interface PluginRequest {
  spec: string;
  base: string;
  from: string;
}

/**
 * Loads every requested package once (the first request of a package wins) and returns the
 * registry with their plugins added. A plugin whose name is taken (in-tree or by another package)
 * is an error naming both.
 */
export async function loadPlugins(
  requests: readonly PluginRequest[],
  registry: Registry,
  opts: Pick<LoadPluginOptions, "framework" | "globalDir" | "onLoad" | "importModule"> = {},
): Promise<{ registry: Registry; loaded: LoadedPluginPackage[] }> {
  const loaded: LoadedPluginPackage[] = [];
  const merged = new Map(registry);
  const owner = new Map<string, string>();
  for (const r of requests) {
    const pkg = await loadPluginPackage(r.spec, { ...r, ...opts });
    if (loaded.some((l) => realpathSync(l.dir) === realpathSync(pkg.dir))) continue;
    for (const d of pkg.plugins) {
      if (merged.has(d.name)) {
        const by = owner.get(d.name);
        throw new PluginLoadError(
          `${r.from} ${r.spec}: ${pkg.name}@${pkg.version} registers a plugin named ${d.name}, which ${by ? `${by} also registers` : "is an in-tree plugin"}; plugin names must be unique`,
        );
      }
      merged.set(d.name, d);
      owner.set(d.name, `${pkg.name}@${pkg.version}`);
    }
    loaded.push(pkg);
  }
  return { registry: merged, loaded };
}

/** The comma-separated values of repeated flags, trimmed, without empties. */
export function splitSpecs(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * One warning per loaded plugin package whose stated releases (`"kubesched": {"kubernetes": ...}`
 * in its package.json) leave out the release kubesched behaves as, or cannot be read. A warning,
 * not an error: the package loads and runs (its framework peer range, checked at load, is what
 * guards the API). Its plugins' own code is the same at every release; what differs is the
 * scheduler around them (default plugins, preemption, feature gates), which is the emulated
 * release's: the warning says so and names the newest release of the package's that kubesched
 * can emulate instead (`--emulated-version`), if any.
 */
export function pluginReleaseWarnings(packages: readonly LoadedPluginPackage[], release: string): string[] {
  const out: string[] = [];
  for (const p of packages) {
    if (p.kubernetes === null) continue;
    const stated = `"kubesched": {"kubernetes": ${JSON.stringify(p.kubernetes)}}`;
    const inRange = releaseInRange(p.kubernetes, release);
    if (inRange === null)
      out.push(
        `plugin package ${p.name} ${p.version}: ${stated} in its package.json is not a release (1.35) or a range of releases (>=1.33 <=1.37)`,
      );
    else if (!inRange) {
      const theirs = supportedReleases.filter((r) => releaseInRange(p.kubernetes as string, r)).at(-1);
      out.push(
        `plugin package ${p.name} ${p.version} implements Kubernetes ${p.kubernetes} (${stated} in its package.json); kubesched behaves as ${release}, so the scheduler around its plugins (default plugins, preemption, feature gates) is ${release}'s, not theirs: ${theirs ? `--emulated-version ${theirs} runs them as that release does` : `kubesched emulates none of their releases (${supportedReleases[0]}–${supportedReleases.at(-1)})`}`,
      );
    }
  }
  return out;
}
