// Packing the publishable packages as `pnpm publish` would upload them (`pnpm pack`: workspace:
// and catalog: ranges replaced, publishConfig applied), and the pnpm and npm that the round trip
// and `pnpm pack:all` run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pool, run } from "./proc";
import type { Manifest } from "./workspace";

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
