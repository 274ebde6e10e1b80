// `pnpm pack:all [--out DIR] [--check]`: installing kubesched from a checkout, while the packages
// are not on the public npm registry. Builds every package (turbo), applies `changeset version` on
// a scratch copy (the versions the next release publishes: plugins state the framework versions
// they support as a peer range such as ^0.1.0, which the workspace's 0.0.0 does not satisfy), then
// packs every publishable package as `pnpm publish` would upload it into DIR (default: packed/ at
// the repository root), one .tgz each; `npm install DIR/*.tgz` in any project installs them (their
// other dependencies come from the registry). With --check (what .ci/run runs), it does that in a
// fresh temporary project with plain npm and runs `kubesched --version` and `kubesched simulate`
// on examples/cluster.yaml there: the installed CLI must print what the checkout's prints.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { npmEnv, packPackages, pnpmBin, releaseCopy } from "./pack";
import { run } from "./proc";
import { repoRoot } from "./workspace";

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function check(tarballs: readonly string[], cliVersion: string): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "kubesched-pack-all-"));
  try {
    const project = path.join(work, "project");
    mkdirSync(project);
    const npmrc = path.join(work, "npmrc");
    writeFileSync(npmrc, ["fund=false", "audit=false", "update-notifier=false", ""].join("\n"));
    const env = npmEnv(npmrc);
    log(`npm install of the ${tarballs.length} tarballs in a fresh project (${project})`);
    await run("npm", ["init", "-y"], { cwd: project, env });
    await run("npm", ["install", ...tarballs], { cwd: project, env, timeoutMs: 1_200_000 });

    const version = await run("npx", ["kubesched", "--version"], { cwd: project, env });
    if (!version.stdout.startsWith(`kubesched ${cliVersion} `)) {
      throw new Error(`kubesched --version printed "${version.stdout.trim()}", expected ${cliVersion}`);
    }
    const cluster = path.join(repoRoot, "examples/cluster.yaml");
    const installed = await run("npx", ["kubesched", "simulate", "--cluster", cluster], {
      cwd: project,
      env,
    });
    const checkout = await run(
      process.execPath,
      ["--import", "tsx", "apps/kubesched/src/bin.ts", "simulate", "--cluster", cluster],
      { cwd: repoRoot },
    );
    if (installed.stdout !== checkout.stdout) {
      throw new Error(
        `the installed kubesched simulate printed\n${installed.stdout}\n--- the checkout's printed\n${checkout.stdout}`,
      );
    }
    log(
      `installed: ${version.stdout.trim()}; simulate examples/cluster.yaml printed what the checkout prints:`,
    );
    log(installed.stdout.trimEnd().split("\n").at(-1) as string);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: "string" }, check: { type: "boolean", default: false } },
    strict: true,
  });
  // `pnpm pack:all` runs at the repository root; a relative --out is relative to where it was typed.
  const out = path.resolve(
    process.env.INIT_CWD ?? process.cwd(),
    values.out ?? path.join(repoRoot, "packed"),
  );
  const pnpm = await pnpmBin(repoRoot);
  log("building every package (turbo)");
  await run(pnpm, ["build"], { cwd: repoRoot, timeoutMs: 1_800_000 });
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out)) if (f.endsWith(".tgz")) rmSync(path.join(out, f));
  const scratch = mkdtempSync(path.join(tmpdir(), "kubesched-pack-all-repo-"));
  try {
    log("changeset version on a scratch copy (the versions of the next release)");
    const versioned = await releaseCopy(pnpm, repoRoot, scratch);
    const packed = await packPackages(
      pnpm,
      scratch,
      versioned.filter((p) => !p.manifest.private).map((p) => p.dir),
      out,
    );
    log(`${packed.length} tarballs in ${out}; in any project: npm install ${out}/*.tgz`);
    const cli = packed.find((p) => p.name === "@kubesched/cli");
    if (values.check)
      await check(
        packed.map((p) => p.file),
        cli?.version ?? "",
      );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`error: pack:all: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
