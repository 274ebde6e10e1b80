// What `changeset version` must produce for users: plugins keep their own 0.x line (a minor
// changeset gives a minor), a framework patch leaves the plugins alone, the core moves in
// lockstep, and every plugin's peer range admits the framework it is released with.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import semver from "semver";
import {
  isPluginPackage,
  type Manifest,
  readManifest,
  repoRoot,
  type WorkspacePackage,
  workspacePackages,
} from "./workspace";

export type BumpType = "major" | "minor" | "patch";

export interface ChangesetSpec {
  releases: Record<string, BumpType>;
  summary: string;
}

const changesetBin = createRequire(import.meta.url).resolve("@changesets/cli/bin.js");

/** The core packages that release together (the `fixed` group of .changeset/config.json). */
export function fixedGroups(root: string = repoRoot): string[][] {
  const config = readManifest(path.join(root, ".changeset/config.json")) as unknown as { fixed: string[][] };
  return config.fixed;
}

/**
 * Problems with a release: a package promoted from 0.x to 1.0.0, a plugin whose
 * peerDependencies["@kubesched/framework"] does not admit the framework it is released with (or is
 * not a plain range), a fixed group out of lockstep. Empty when the versions are what users expect.
 */
export function versionProblems(
  before: readonly WorkspacePackage[],
  after: readonly WorkspacePackage[],
  fixed: readonly (readonly string[])[],
): string[] {
  const problems: string[] = [];
  const old = new Map(before.map((p) => [p.manifest.name, p.manifest]));
  const next = new Map(after.map((p) => [p.manifest.name, p.manifest]));
  const framework = next.get("@kubesched/framework")?.version;
  if (!framework) return ["@kubesched/framework is not in the workspace"];
  for (const { manifest: m } of after) {
    if (m.private) continue;
    const was = old.get(m.name)?.version;
    if (was && semver.major(was) === 0 && semver.major(m.version) > 0) {
      problems.push(
        `${m.name}: ${was} → ${m.version}: promoted to a major (a 0.x package gets minors and patches; a 1.0 is a decision, not a side effect)`,
      );
    }
    if (!isPluginPackage(m)) continue;
    // The range the author stated (changesets rewrites a range the release leaves, and promotes
    // the plugin to a major for it).
    const range = (old.get(m.name)?.peerDependencies?.["@kubesched/framework"] ??
      m.peerDependencies?.["@kubesched/framework"]) as string;
    if (!semver.validRange(range)) {
      problems.push(
        `${m.name}: peerDependencies["@kubesched/framework"] is "${range}": state the supported framework versions as a semver range (e.g. "^0.1.0"), not a workspace: or catalog: range`,
      );
    } else if (!semver.satisfies(framework, range)) {
      problems.push(
        `${m.name}: peerDependencies["@kubesched/framework"] "${range}" does not admit @kubesched/framework ${framework}, released with it: widen the range if the plugin works with ${framework} (e.g. "${range} || ^${semver.major(framework)}.${semver.minor(framework)}.0"), or update the plugin in the same change`,
      );
    }
  }
  for (const group of fixed) {
    const versions = new Set(group.map((n) => next.get(n)?.version));
    if (versions.size > 1) problems.push(`fixed group out of lockstep: ${group.join(", ")}`);
  }
  return problems;
}

/** name → version of every package. */
export function versionsOf(pkgs: readonly WorkspacePackage[]): Record<string, string> {
  return Object.fromEntries(pkgs.map((p) => [p.manifest.name, p.manifest.version]));
}

/** The packages whose version differs between two states, name → [before, after]. */
export function changedVersions(
  before: readonly WorkspacePackage[],
  after: readonly WorkspacePackage[],
): Record<string, [string, string]> {
  const old = versionsOf(before);
  const out: Record<string, [string, string]> = {};
  for (const { manifest: m } of after) {
    if (old[m.name] !== m.version) out[m.name] = [old[m.name] ?? "(new)", m.version];
  }
  return out;
}

export interface VersionRunOptions {
  /** Keep the repository's pending changesets (.changeset/*.md). */
  pending: boolean;
  /** Changesets to add. */
  changesets?: readonly ChangesetSpec[];
  /** Edits to the manifests before versioning (e.g. a released state: every version 0.1.0). */
  edit?: (m: Manifest) => void;
  /** Edits to .changeset/config.json. */
  editConfig?: (c: Record<string, unknown>) => void;
}

function writeChangeset(dir: string, id: string, spec: ChangesetSpec): void {
  const front = Object.entries(spec.releases)
    .map(([name, type]) => `"${name}": ${type}`)
    .join("\n");
  writeFileSync(path.join(dir, ".changeset", `${id}.md`), `---\n${front}\n---\n\n${spec.summary}\n`);
}

/**
 * Runs the real `changeset version` on a copy of the workspace's manifests, the changesets config
 * and (optionally) its pending changesets; returns the packages before and after.
 */
export function runChangesetVersion(
  opts: VersionRunOptions,
  root: string = repoRoot,
): { before: WorkspacePackage[]; after: WorkspacePackage[]; output: string } {
  const scratch = mkdtempSync(path.join(tmpdir(), "kubesched-versions-"));
  try {
    const pkgs = workspacePackages(root);
    mkdirSync(path.join(scratch, ".changeset"));
    for (const f of ["package.json", "pnpm-workspace.yaml"])
      copyFileSync(path.join(root, f), path.join(scratch, f));
    const config = JSON.parse(readFileSync(path.join(root, ".changeset/config.json"), "utf8")) as Record<
      string,
      unknown
    >;
    opts.editConfig?.(config);
    writeFileSync(path.join(scratch, ".changeset/config.json"), JSON.stringify(config, null, 2));
    if (opts.pending) {
      for (const f of readdirSync(path.join(root, ".changeset"))) {
        if (f.endsWith(".md") && f !== "README.md") {
          copyFileSync(path.join(root, ".changeset", f), path.join(scratch, ".changeset", f));
        }
      }
    }
    for (const p of pkgs) {
      mkdirSync(path.join(scratch, p.dir), { recursive: true });
      const m = structuredClone(p.manifest);
      opts.edit?.(m);
      writeFileSync(path.join(scratch, p.dir, "package.json"), `${JSON.stringify(m, null, 2)}\n`);
    }
    // The changelog generator named in config.json is resolved from the root's node_modules.
    symlinkSync(path.join(root, "node_modules"), path.join(scratch, "node_modules"), "dir");
    opts.changesets?.forEach((c, i) => {
      writeChangeset(scratch, `scenario-${i}`, c);
    });
    const before = workspacePackages(scratch);
    const output = execFileSync(process.execPath, [changesetBin, "version"], {
      cwd: scratch,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true" },
    });
    return { before, after: workspacePackages(scratch), output };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A released state: every package at `version` (nothing pending). */
export function releasedAt(version: string): (m: Manifest) => void {
  return (m) => {
    m.version = version;
  };
}
