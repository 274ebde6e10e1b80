// create-kubesched-plugin: writes a new kubesched plugin package (`npm create kubesched-plugin`).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nameProblems, type PluginNames, pluginNames } from "./names";
import { templateFiles } from "./template";

export { nameProblems, type PluginNames, pluginNames, toKebab } from "./names";
export {
  type PluginTemplateOptions,
  renderPlugin,
  renderTemplate,
  type TemplateOptions,
  templateFiles,
  toolVersions,
} from "./template";

/** This package's version: the kubesched release it scaffolds for (it releases with the core). */
export function ownVersion(): string {
  const file = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

export interface ScaffoldOptions {
  /** The plugin's name: kebab-case ("demo-gate") or PascalCase ("DemoGate"). */
  name: string;
  /** An npm scope ("@acme"); none: an unscoped package. */
  scope?: string;
  /** The folder to create; default: `kubesched-plugin-<name>` in `cwd`. */
  dir?: string;
  cwd: string;
  /** The kubesched (framework) version to build against; default: this package's. */
  kubeschedVersion?: string;
  /** The Kubernetes minor the plugin tracks; default 1.37. */
  kubernetes?: string;
}

/** A scaffold that cannot be written (bad name, folder in the way). */
export class ScaffoldError extends Error {
  override name = "ScaffoldError";
}

/** Writes the package; returns its names, folder and the files written. */
export function scaffold(opts: ScaffoldOptions): { names: PluginNames; dir: string; files: string[] } {
  const problems = nameProblems(opts.name, opts.scope);
  if (problems.length) throw new ScaffoldError(problems.join("; "));
  const names = pluginNames(opts.name, opts.scope);
  const dir = path.resolve(opts.cwd, opts.dir ?? names.dir);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new ScaffoldError(`${path.relative(opts.cwd, dir) || dir} already exists and is not empty`);
  }
  const files = templateFiles({
    names,
    kubeschedVersion: opts.kubeschedVersion ?? ownVersion(),
    kubernetes: opts.kubernetes ?? "1.37",
  });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return { names, dir, files: Object.keys(files) };
}
