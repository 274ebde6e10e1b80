// The workspace's packages, read the way pnpm reads them: the `dir/*` globs of
// pnpm-workspace.yaml, each folder with a package.json.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** The repository root (this file is tooling/release-check/src/workspace.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  kubesched?: { kubernetes?: string };
  [key: string]: unknown;
}

export interface WorkspacePackage {
  /** Folder relative to the root, with forward slashes ("packages/plugins/node-name"). */
  dir: string;
  manifest: Manifest;
}

export const dependencyFields = [
  "dependencies",
  "peerDependencies",
  "optionalDependencies",
  "devDependencies",
] as const;

export function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}

/** Every workspace package under `root` (not the root itself), sorted by folder. */
export function workspacePackages(root: string = repoRoot): WorkspacePackage[] {
  const ws = parse(readFileSync(path.join(root, "pnpm-workspace.yaml"), "utf8")) as { packages: string[] };
  const out: WorkspacePackage[] = [];
  for (const pattern of ws.packages) {
    if (!pattern.endsWith("/*") || pattern.slice(0, -2).includes("*")) {
      throw new Error(`pnpm-workspace.yaml: only "dir/*" patterns are supported here, got "${pattern}"`);
    }
    const base = pattern.slice(0, -2);
    if (!existsSync(path.join(root, base))) continue;
    for (const entry of readdirSync(path.join(root, base), { withFileTypes: true })) {
      const file = path.join(root, base, entry.name, "package.json");
      if (entry.isDirectory() && existsSync(file)) {
        out.push({ dir: `${base}/${entry.name}`, manifest: readManifest(file) });
      }
    }
  }
  return out.sort((a, b) => a.dir.localeCompare(b.dir));
}

/** The packages that are published (not private). */
export function publishablePackages(root: string = repoRoot): WorkspacePackage[] {
  return workspacePackages(root).filter((p) => !p.manifest.private);
}

/** A plugin package: it states the framework it was built for as a peer dependency. */
export function isPluginPackage(m: Manifest): boolean {
  return m.peerDependencies?.["@kubesched/framework"] !== undefined;
}
