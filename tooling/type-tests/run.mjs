// Compiles the type tests of the packages plugin authors import (their src/**/*.test-d.ts, which
// import the packages by name) and a sample plugin against the BUILT .d.ts, laid out as npm
// installs the published packages (exports = publishConfig.exports), with every supported
// TypeScript (5.4 … 5.9) under moduleResolution NodeNext and Bundler. Run after `pnpm build`:
// `pnpm test:types`.
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const require = createRequire(join(root, "package.json"));

/** The compilers: aliased devDependencies of the root, and the workspace's own (5.9). */
const compilers = [
  "typescript-5.4",
  "typescript-5.5",
  "typescript-5.6",
  "typescript-5.7",
  "typescript-5.8",
  "typescript",
];
const resolutions = [
  { name: "NodeNext", module: "NodeNext", moduleResolution: "NodeNext" },
  { name: "Bundler", module: "ESNext", moduleResolution: "Bundler" },
];
/** The packages plugin authors import, whose type tests run here. */
const entryPackages = ["packages/api", "packages/framework", "packages/testing"];

const readJson = (p) => JSON.parse(readFileSync(p, "utf8"));

/** Workspace package folders by name. */
function workspacePackages() {
  const out = new Map();
  for (const group of ["packages", "packages/plugins", "packages/plugins-contrib"]) {
    for (const d of readdirSync(join(root, group), { withFileTypes: true })) {
      const pj = join(root, group, d.name, "package.json");
      if (d.isDirectory() && existsSync(pj)) out.set(readJson(pj).name, join(root, group, d.name));
    }
  }
  return out;
}

/** The folder of package `name` as Node finds it from `from` (node_modules upwards). */
function packageDir(name, from) {
  for (let d = from; ; d = dirname(d)) {
    const candidate = join(d, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(d) === d) throw new Error(`${name} not found from ${from}`);
  }
}

function stage(dir) {
  const workspace = workspacePackages();
  const modules = join(dir, "node_modules");
  const linked = new Set();
  const link = (name, from) => {
    if (linked.has(name)) return;
    linked.add(name);
    const target = realpathSync(packageDir(name, from));
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(target, join(modules, name), "dir");
  };
  // Workspace packages as published: their package.json with the published exports, and dist.
  const todo = entryPackages.map((p) => readJson(join(root, p, "package.json")).name);
  const staged = new Set();
  while (todo.length > 0) {
    const name = todo.pop();
    if (staged.has(name)) continue;
    staged.add(name);
    const src = workspace.get(name);
    const pj = readJson(join(src, "package.json"));
    if (!existsSync(join(src, "dist"))) throw new Error(`${name} is not built: run \`pnpm build\` first`);
    const out = join(modules, name);
    mkdirSync(out, { recursive: true });
    const { publishConfig, ...published } = pj;
    writeFileSync(
      join(out, "package.json"),
      JSON.stringify({ ...published, exports: publishConfig.exports }, null, 2),
    );
    cpSync(join(src, "dist"), join(out, "dist"), { recursive: true, filter: (f) => !f.endsWith(".map") });
    for (const dep of Object.keys({ ...pj.dependencies, ...pj.peerDependencies })) {
      if (workspace.has(dep)) todo.push(dep);
      else link(dep, src);
    }
  }
  // What the type tests themselves import.
  link("vitest", root);
  link("@types/node", root);
  // The type tests and the sample plugin.
  const srcDir = join(dir, "src");
  mkdirSync(srcDir);
  const tests = [];
  const collect = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) collect(join(d, e.name));
      else if (e.name.endsWith(".test-d.ts")) tests.push(join(d, e.name));
    }
  };
  for (const p of entryPackages) collect(join(root, p, "src"));
  for (const t of tests) cpSync(t, join(srcDir, relative(root, t).replaceAll("/", "__")));
  cpSync(join(here, "sample-plugin.ts"), join(srcDir, "sample-plugin.ts"));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "type-tests", private: true, type: "module" }),
  );
  return tests.length + 1;
}

function tscOf(compiler) {
  return join(dirname(require.resolve(`${compiler}/package.json`)), "bin", "tsc");
}

function run(dir, compiler, res) {
  const version = readJson(require.resolve(`${compiler}/package.json`)).version;
  const config = `tsconfig.${compiler}.${res.name}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: res.module,
        moduleResolution: res.moduleResolution,
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        // Third-party declarations (vitest, @types/node) are not what is tested; ours are read
        // through the code that uses them.
        skipLibCheck: true,
        noEmit: true,
      },
      include: ["src"],
    }),
  );
  return new Promise((done) => {
    const child = spawn(process.execPath, [tscOf(compiler), "-p", config], { cwd: dir });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("close", (code) =>
      done({ label: `TypeScript ${version} (${res.name})`, ok: code === 0, output }),
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), "kubesched-type-tests-"));
try {
  const files = stage(dir);
  const jobs = compilers.flatMap((c) => resolutions.map((r) => () => run(dir, c, r)));
  // Two at a time: the machines this runs on are small.
  const results = [];
  const workers = Array.from({ length: 2 }, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) results.push(await job());
  });
  await Promise.all(workers);
  let failed = 0;
  for (const r of results.sort((a, b) => a.label.localeCompare(b.label))) {
    console.log(`${r.ok ? "ok  " : "FAIL"} ${r.label}: ${files} files`);
    if (!r.ok) {
      failed++;
      console.log(r.output.trim());
    }
  }
  if (failed > 0) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
