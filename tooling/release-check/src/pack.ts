// Packing the publishable packages as `pnpm publish` would upload them (`pnpm pack`: workspace:
// and catalog: ranges replaced, publishConfig applied), and the pnpm and npm that the round trip
// and `pnpm pack:all` run, and the scratch copy with the versions of the next release.
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pool, run } from "./proc";
import { fixedGroups, versionProblems } from "./versions";
import { type Manifest, publishablePackages, type WorkspacePackage, workspacePackages } from "./workspace";

export interface Packed {
  /** The package folder, relative to the root it was packed from. */
  dir: string;
  name: string;
  version: string;
  /** The tarball's absolute path. */
  file: string;
}

/** `pnpm pack` of every folder of `dirs` (relative to `root`) into `destination`. */
export function packPackages(
  pnpm: string,
  root: string,
  dirs: readonly string[],
  destination: string,
): Promise<Packed[]> {
  return pool(dirs, 4, async (dir) => {
    const r = await run(pnpm, ["pack", "--pack-destination", destination], { cwd: path.join(root, dir) });
    const file = r.stdout.trim().split("\n").at(-1) as string;
    const m = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as Manifest;
    return {
      dir,
      name: m.name,
      version: m.version,
      file: path.isAbsolute(file) ? file : path.join(destination, file),
    };
  });
}

/** pnpm 9, as the README runs it (npx -y pnpm@9), resolved once and put first on the PATH. */
export async function pnpmBin(cwd: string): Promise<string> {
  const r = await run("npx", ["-y", "-p", "pnpm@9", "which", "pnpm"], { cwd });
  const bin = r.stdout.trim().split("\n").at(-1) as string;
  // turbo (and pnpm's own scripts) look for pnpm on the PATH, as under `npx -y pnpm@9`.
  process.env.PATH = `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ""}`;
  return bin;
}

/** The environment of a user's npm: `userconfig` as its npmrc, nothing inherited from pnpm/npm run. */
export function npmEnv(userconfig: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_userconfig: userconfig, ...extra };
  // Whatever ran this script (pnpm, npm run) must not leak its settings into the users' npm.
  for (const k of Object.keys(env)) {
    if (/^npm_(config_(?!userconfig)|package_|lifecycle_)/i.test(k) && !(k in extra)) delete env[k];
  }
  return env;
}

/** The files of the checkout (tracked and untracked, not ignored), as CI's clean clone has them. */
async function copyCheckout(root: string, to: string): Promise<void> {
  const r = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root });
  for (const f of r.stdout.split("\0")) {
    if (!f || !existsSync(path.join(root, f))) continue;
    mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    cpSync(path.join(root, f), path.join(to, f));
  }
}

/**
 * A scratch copy of the built checkout `root` at `scratch` with the real `changeset version`
 * applied: the versions (and peer ranges) the next release publishes, checked by versions.ts's
 * rules, and the checkout's dist/ folders (the build does not depend on versions: the CLI and the
 * scaffold read package.json at run time). Returns the versioned packages; throws on a problem.
 */
export async function releaseCopy(pnpm: string, root: string, scratch: string): Promise<WorkspacePackage[]> {
  await copyCheckout(root, scratch);
  await run(pnpm, ["install", "--offline", "--frozen-lockfile", "--ignore-scripts"], { cwd: scratch });
  const before = workspacePackages(scratch);
  await run(process.execPath, [path.join(scratch, "node_modules/@changesets/cli/bin.js"), "version"], {
    cwd: scratch,
  });
  const after = workspacePackages(scratch);
  const problems = versionProblems(before, after, fixedGroups(scratch));
  if (problems.length > 0) {
    throw new Error(`changeset version produced versions users would not expect:\n${problems.join("\n")}`);
  }
  for (const p of publishablePackages(root)) {
    if (!existsSync(path.join(root, p.dir, "dist"))) throw new Error(`${p.dir}: not built`);
    cpSync(path.join(root, p.dir, "dist"), path.join(scratch, p.dir, "dist"), { recursive: true });
  }
  return after;
}
