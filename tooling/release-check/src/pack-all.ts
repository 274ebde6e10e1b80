// `pnpm pack:all [--out DIR] [--check]`: installing kubesched from a checkout, while the packages
// are not on the public npm registry. Builds every package (turbo), then packs every publishable
// one as `pnpm publish` would upload it into DIR (default: packed/ at the repository root), one
// .tgz each; `npm install DIR/*.tgz` in any project installs them (their other dependencies come
// from the registry). With --check (what .ci/run runs), it does that in a fresh temporary project
// with plain npm and runs `kubesched --version` and `kubesched simulate` on
// examples/cluster.yaml there: the installed CLI must print what the checkout's prints.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { npmEnv, packPackages, pnpmBin } from "./pack";
import { run } from "./proc";
import { publishablePackages, repoRoot } from "./workspace";

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function check(tarballs: readonly string[]): Promise<void> {
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

    const cli = publishablePackages().find((p) => p.manifest.name === "@kubesched/cli");
    const version = await run("npx", ["kubesched", "--version"], { cwd: project, env });
    if (!version.stdout.startsWith(`kubesched ${cli?.manifest.version} `)) {
      throw new Error(
        `kubesched --version printed "${version.stdout.trim()}", expected ${cli?.manifest.version}`,
      );
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
  const packed = await packPackages(
    pnpm,
    repoRoot,
    publishablePackages().map((p) => p.dir),
    out,
  );
  log(`${packed.length} tarballs in ${out}; in any project: npm install ${out}/*.tgz`);
  if (values.check) await check(packed.map((p) => p.file));
}

main().catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`error: pack:all: ${message}\n`);
  process.exit(1);
});
