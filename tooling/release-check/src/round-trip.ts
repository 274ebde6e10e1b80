// The release, verified: on a scratch copy of the repository, `changeset version`; every package
// packed as pnpm publishes it and checked (publint, @arethetypeswrong/cli, no workspace:/catalog:
// ranges in the published manifests); published to a throwaway local registry; then, in fresh
// projects outside the workspace, installed with plain `npm install` and run as users run it:
// a contrib plugin through `--plugin` on the gang-scheduling example, pinned plugin versions
// (in-tree and loaded) shown to be the ones that run, the types compiled under NodeNext, Node16
// and Bundler, the installed size measured, and the README's "Custom plugins" walkthrough run
// command by command. Exit 1 on the first failure, with what failed.
//
//   pnpm --filter @kubesched/release-check round-trip        (KEEP=1 keeps the temporary folder)
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { npmEnv, type Packed, packPackages, pnpmBin, releaseCopy } from "./pack";
import { CommandError, pool, run } from "./proc";
import { readmeWalkthrough } from "./readme";
import { type LocalRegistry, startRegistry } from "./registry";
import { changedVersions } from "./versions";
import {
  dependencyFields,
  type Manifest,
  publishablePackages,
  repoRoot,
  workspacePackages,
} from "./workspace";

const started = Date.now();
const work = mkdtempSync(path.join(tmpdir(), "kubesched-release-"));
const scratch = path.join(work, "repo");
const tarballs = path.join(work, "tarballs");
const state: { registry: LocalRegistry | null } = { registry: null };

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

class CheckFailed extends Error {
  override name = "CheckFailed";
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new CheckFailed(message);
}

async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t = Date.now();
  log(`▸ ${name}`);
  const out = await fn();
  log(`  done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return out;
}

async function main(): Promise<void> {
  log(`release round trip in ${work}`);
  const pnpm = await pnpmBin(repoRoot);

  await step("build (turbo; cached when .ci/run built already)", async () => {
    await run(pnpm, ["build"], { cwd: repoRoot, timeoutMs: 1_800_000 });
  });

  const versioned = await step("changeset version on a scratch copy", async () => {
    const after = await releaseCopy(pnpm, repoRoot, scratch);
    const counts = new Map<string, number>();
    for (const p of after)
      if (!p.manifest.private) counts.set(p.manifest.version, (counts.get(p.manifest.version) ?? 0) + 1);
    log(`  versions: ${[...counts].map(([v, n]) => `${n} at ${v}`).join(", ")}`);
    return after;
  });
  const version = (name: string) =>
    versioned.find((p) => p.manifest.name === name)?.manifest.version as string;

  // verdaccio installs (npm, network) while the packages are packed and checked (CPU).
  const starting = startRegistry(path.join(work, "registry"));
  starting.catch(() => undefined);
  const packed = await step(
    "pack every publishable package (pnpm pack) and check it (publint, attw)",
    async () => {
      mkdirSync(tarballs, { recursive: true });
      return pack(
        pnpm,
        publishablePackages(scratch).map((p) => p.dir),
      );
    },
  );

  state.registry = await step(`start verdaccio (127.0.0.1, storage in ${work}, no uplinks)`, () => starting);
  const reg = state.registry;
  const host = reg.url.replace(/^http:/, "");
  // Users' npm: @kubesched/* and the walkthrough's @acme/* from the local registry, everything
  // else from npm's usual registry.
  const npmrc = path.join(work, "npmrc");
  writeFileSync(
    npmrc,
    [
      `@kubesched:registry=${reg.url}/`,
      `@acme:registry=${reg.url}/`,
      `${host}/:_authToken=${reg.token}`,
      "fund=false",
      "audit=false",
      "update-notifier=false",
      "",
    ].join("\n"),
  );
  const env = npmEnv(npmrc);

  await step(`publish ${packed.length} packages`, async () => {
    await publish(packed, reg.url, env);
    await checkPublishedManifests(
      reg.url,
      versioned.filter((p) => !p.manifest.private).map((p) => p.manifest),
    );
  });

  const app = path.join(work, "app");
  await step("npm install @kubesched/cli and a contrib plugin in a fresh project", async () => {
    mkdirSync(app);
    await run("npm", ["init", "-y"], { cwd: app, env });
    await run("npm", ["install", "@kubesched/cli", "@kubesched/plugin-coscheduling"], { cwd: app, env });
    // For the types step: what a plugin author or an embedding program installs besides.
    await run(
      "npm",
      [
        "install",
        "--save-dev",
        "@kubesched/api",
        "@kubesched/framework",
        "@kubesched/config",
        "@kubesched/cluster",
        "@kubesched/plugins-in-tree",
        "@kubesched/testing",
        "@kubesched/plugin-sample",
        "@types/node@20",
      ],
      { cwd: app, env },
    );
    const v = await run("npx", ["kubesched", "--version"], { cwd: app, env });
    check(
      v.stdout.startsWith(`kubesched ${version("@kubesched/cli")} `),
      `kubesched --version printed "${v.stdout.trim()}", expected ${version("@kubesched/cli")}`,
    );
  });

  await step("gang scheduling with --plugin @kubesched/plugin-coscheduling: all or nothing", async () => {
    for (const f of ["cluster.yaml", "scheduler-config.yaml"]) {
      cpSync(path.join(repoRoot, "examples/gang-scheduling", f), path.join(app, f));
    }
    const o = await gang(app, env);
    check(
      ["training-0", "training-1", "training-2"].every((p) => o.node[p]?.startsWith("node-")) &&
        new Set(["training-0", "training-1", "training-2"].map((p) => o.node[p])).size === 3,
      `the training gang was not scheduled on three nodes: ${JSON.stringify(o.node)}`,
    );
    check(
      ["inference-0", "inference-1", "inference-2", "inference-3"].every(
        (p) => o.node[p] === "Unschedulable",
      ),
      `the inference gang was not rejected as a whole: ${JSON.stringify(o.node)}`,
    );
    check(
      o.messages.some((m) => m.includes("PodGroup ml/inference gets rejected")),
      "Coscheduling's rejection is missing",
    );
    // Without the plugin the same cluster schedules three of the four inference pods.
    const plain = await run("npx", ["kubesched", "simulate", "--cluster", "cluster.yaml", "-o", "json"], {
      cwd: app,
      env,
    });
    check(
      (JSON.parse(plain.stdout) as { summary: { scheduled: number } }).summary.scheduled === 6,
      "without --plugin the example should schedule 6 pods",
    );
  });

  await step(
    "kubesched sweep in worker processes (dist/sweep-worker.js), with --plugin loaded in each",
    async () => {
      writeFileSync(
        path.join(app, "sweep.yaml"),
        "apiVersion: kubesched.io/v1alpha1\nkind: SweepMatrix\nsnapshots: [cluster.yaml]\nconfigs: [scheduler-config.yaml]\nscales: [1, 2]\n",
      );
      const sweep = (parallelism: string) =>
        run(
          "npx",
          [
            "kubesched",
            "sweep",
            "sweep.yaml",
            "--plugin",
            "@kubesched/plugin-coscheduling",
            "-o",
            "json",
            "--parallelism",
            parallelism,
          ],
          { cwd: app, env },
        );
      const threads = await sweep("2");
      const serial = await sweep("1");
      check(threads.stdout === serial.stdout, "sweep printed other reports in worker processes and serially");
      const cells = (JSON.parse(threads.stdout) as { status: { cells: { scheduled: number }[] } }).status
        .cells;
      check(cells.length === 2 && cells[0]?.scheduled === 3, `sweep's cells: ${JSON.stringify(cells)}`);
    },
  );

  await step("@kubernetes/client-node is not loaded by simulate", async () => {
    const dir = path.join(app, "node_modules/@kubernetes/client-node");
    check(existsSync(dir), "@kubernetes/client-node is not installed with @kubesched/cli");
    renameSync(dir, `${dir}.away`);
    try {
      await run("npx", ["kubesched", "simulate", "--cluster", "cluster.yaml"], { cwd: app, env });
      await run("npx", ["kubesched", "plugins"], { cwd: app, env });
    } finally {
      renameSync(`${dir}.away`, dir);
    }
  });

  await step(
    "types under moduleResolution NodeNext, Node16 and Bundler (and the CLI README's runner snippet)",
    () => typesConsumer(app),
  );

  await step("installed size of @kubesched/cli (npm install in an empty project)", () => installedSize(env));

  await step('README "Custom plugins": every command, in order', async () => {
    const walk = path.join(work, "walkthrough");
    mkdirSync(walk);
    const script = readmeWalkthrough(readFileSync(path.join(repoRoot, "README.md"), "utf8"), {
      // create-kubesched-plugin is unscoped: only for `npm create` is the local registry the default.
      envFor: (cmd): Record<string, string> =>
        cmd.startsWith("npm create ") ? { npm_config_registry: `${reg.url}/` } : {},
    });
    writeFileSync(path.join(walk, "walkthrough.sh"), script.text);
    const r = await run("bash", ["walkthrough.sh"], { cwd: walk, env, timeoutMs: 900_000 });
    for (const expected of script.outputs) {
      const got = readFileSync(path.join(walk, expected.file), "utf8");
      check(
        got === expected.text,
        `README "Custom plugins": the output of \`${expected.command}\` differs from the README's\n--- README\n${expected.text}--- got\n${got}`,
      );
    }
    log(`  ${script.commands} commands run; ${script.outputs.length} output(s) as the README shows`);
    if (process.env.VERBOSE) log(r.stdout);
  });

  await step("a second version of two plugins; the pinned version is the one that runs", async () => {
    await secondVersions(pnpm, reg.url, env);
    const affinity = async () => {
      const r = await run("npx", ["kubesched", "simulate", "--cluster", "affinity.yaml", "-o", "json"], {
        cwd: app,
        env,
      });
      return (JSON.parse(r.stdout) as { pods: { message: string | null }[] }).pods[0]?.message ?? "";
    };
    const listed = async (name: string) => {
      const r = await run(
        "npx",
        ["kubesched", "plugins", "--plugin", "@kubesched/plugin-coscheduling", "-o", "json"],
        {
          cwd: app,
          env,
        },
      );
      return (JSON.parse(r.stdout) as { plugins: { name: string; version: string }[] }).plugins.find(
        (p) => p.name === name,
      )?.version;
    };
    writeFileSync(
      path.join(app, "affinity.yaml"),
      'apiVersion: v1\nkind: Node\nmetadata: { name: n1 }\nstatus: { capacity: { cpu: "1", pods: "10" } }\n---\napiVersion: v1\nkind: Pod\nmetadata: { name: p, namespace: default }\nspec: { nodeSelector: { disk: ssd }, containers: [{ name: c, image: x }] }\n',
    );
    // In-tree: the project pins @kubesched/plugin-node-affinity; the CLI's registry takes that one.
    await run("npm", ["install", "--save-exact", "@kubesched/plugin-node-affinity@0.1.0"], { cwd: app, env });
    check(!(await affinity()).includes("[0.1.1]"), "pinned 0.1.0, but 0.1.1 of NodeAffinity ran");
    check((await listed("NodeAffinity")) === "0.1.0", "kubesched plugins does not show NodeAffinity 0.1.0");
    await run("npm", ["install", "--save-exact", "@kubesched/plugin-node-affinity@0.1.1"], { cwd: app, env });
    check((await affinity()).includes("[0.1.1]"), "installed 0.1.1, but NodeAffinity 0.1.1 did not run");
    check((await listed("NodeAffinity")) === "0.1.1", "kubesched plugins does not show NodeAffinity 0.1.1");
    // Loaded with --plugin: the project's pinned @kubesched/plugin-coscheduling runs.
    check(
      !(await gang(app, env)).messages.some((m) => m.includes("[0.2.0]")),
      "Coscheduling 0.2.0 ran, 0.1.0 pinned",
    );
    await run("npm", ["install", "@kubesched/plugin-coscheduling@0.2.0"], { cwd: app, env });
    check(
      (await gang(app, env)).messages.some((m) => m.includes("[0.2.0]")),
      "installed Coscheduling 0.2.0 did not run",
    );
    check((await listed("Coscheduling")) === "0.2.0", "kubesched plugins does not show Coscheduling 0.2.0");
    await run("npm", ["install", "--save-exact", "@kubesched/plugin-coscheduling@0.1.0"], { cwd: app, env });
    check(
      !(await gang(app, env)).messages.some((m) => m.includes("[0.2.0]")),
      "pinned Coscheduling 0.1.0, 0.2.0 ran",
    );
  });
}

/** pnpm pack (what pnpm publish uploads), then publint --strict and attw on each tarball. */
async function pack(pnpm: string, dirs: readonly string[]): Promise<Packed[]> {
  const out = await packPackages(pnpm, scratch, dirs, tarballs);
  const problems: string[] = [];
  await pool(out, 2, async (p) => {
    const data = readFileSync(p.file);
    const lint = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer },
      strict: true,
    });
    for (const m of lint.messages)
      problems.push(`${p.name}: publint: ${formatMessage(m, lint.pkg) ?? m.code}`);
    const attw = await run(
      process.execPath,
      [
        path.join(repoRoot, "tooling/release-check/node_modules/@arethetypeswrong/cli/dist/index.js"),
        p.file,
        "--profile",
        "esm-only",
        "--format",
        "ascii",
      ],
      { cwd: work, allowFailure: true },
    );
    if (attw.code !== 0) problems.push(`${p.name}: @arethetypeswrong/cli:\n${attw.stdout}${attw.stderr}`);
  });
  check(problems.length === 0, problems.join("\n"));
  log(`  ${out.length} tarballs: publint --strict and attw --profile esm-only found nothing`);
  return out;
}

async function publish(packed: readonly Packed[], url: string, env: NodeJS.ProcessEnv): Promise<void> {
  await pool(packed, 6, (p) =>
    run("npm", ["publish", p.file, "--registry", `${url}/`, "--access", "public", "--tag", "latest"], {
      cwd: work,
      env,
    }),
  );
}

/** What the registry serves: every manifest with real ranges (no workspace:, no catalog:). */
async function checkPublishedManifests(url: string, expected: readonly Manifest[]): Promise<void> {
  const problems: string[] = [];
  for (const m of expected) {
    const res = await fetch(`${url}/${m.name.replace("/", "%2f")}`);
    check(res.ok, `${m.name}: the registry answered ${res.status}`);
    const doc = (await res.json()) as { versions: Record<string, Manifest> };
    const published = doc.versions[m.version];
    if (!published) {
      problems.push(`${m.name}@${m.version} is not in the registry`);
      continue;
    }
    for (const field of dependencyFields) {
      for (const [dep, range] of Object.entries(published[field] ?? {})) {
        if (/^(workspace|catalog):/.test(range))
          problems.push(`${m.name}@${m.version} ${field}.${dep}: "${range}"`);
      }
    }
  }
  check(problems.length === 0, `published manifests with unpublishable ranges:\n${problems.join("\n")}`);
  log(`  ${expected.length} published manifests: no workspace: or catalog: ranges`);
}

async function gang(
  app: string,
  env: NodeJS.ProcessEnv,
): Promise<{ node: Record<string, string>; messages: string[] }> {
  const r = await run(
    "npx",
    [
      "kubesched",
      "simulate",
      "--plugin",
      "@kubesched/plugin-coscheduling",
      "--config",
      "scheduler-config.yaml",
      "--cluster",
      "cluster.yaml",
      "-o",
      "json",
    ],
    { cwd: app, env },
  );
  const pods = (
    JSON.parse(r.stdout) as {
      pods: { name: string; node: string | null; outcome: string; message: string | null }[];
    }
  ).pods;
  return {
    node: Object.fromEntries(pods.map((p) => [p.name, p.node ?? p.outcome])),
    messages: pods.map((p) => p.message ?? ""),
  };
}

/**
 * The release flow again with a patch changeset on an in-tree plugin and a minor one on a contrib
 * plugin: the versions must be 0.1.1 and 0.2.0 (a minor is a minor); their dist/ carry a marker in a
 * message so that a run shows which version ran.
 */
async function secondVersions(pnpm: string, url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const before = workspacePackages(scratch);
  writeFileSync(
    path.join(scratch, ".changeset/release-check-second.md"),
    '---\n"@kubesched/plugin-node-affinity": patch\n"@kubesched/plugin-coscheduling": minor\n---\n\nA second version.\n',
  );
  await run(process.execPath, [path.join(scratch, "node_modules/@changesets/cli/bin.js"), "version"], {
    cwd: scratch,
  });
  const after = workspacePackages(scratch);
  const changed = changedVersions(before, after);
  check(
    JSON.stringify(changed) ===
      JSON.stringify({
        "@kubesched/plugin-coscheduling": ["0.1.0", "0.2.0"],
        "@kubesched/plugin-node-affinity": ["0.1.0", "0.1.1"],
      }),
    `a patch on plugin-node-affinity and a minor on plugin-coscheduling released ${JSON.stringify(changed)}`,
  );
  const mark = (dir: string, from: string, to: string) => {
    const file = path.join(scratch, dir, "dist/index.js");
    const text = readFileSync(file, "utf8");
    check(text.includes(from), `${dir}/dist/index.js has no "${from}"`);
    writeFileSync(file, text.replaceAll(from, to));
  };
  mark(
    "packages/plugins/node-affinity",
    "node(s) didn't match Pod's node affinity/selector",
    "node(s) didn't match Pod's node affinity/selector [0.1.1]",
  );
  mark("packages/plugins-contrib/coscheduling", "gets rejected due to", "gets rejected [0.2.0] due to");
  const packed = await pack(pnpm, [
    "packages/plugins/node-affinity",
    "packages/plugins-contrib/coscheduling",
  ]);
  await publish(packed, url, env);
}

/** A project compiling against the published types under each moduleResolution, strictly. */
async function typesConsumer(app: string): Promise<void> {
  // A folder of the project (its node_modules), ESM like the packages it imports.
  const dir = path.join(app, "types-check");
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  writeFileSync(
    path.join(dir, "src/consumer.ts"),
    `import { type Pod, quantityValue } from "@kubesched/api";
import { simulate, type SimulationResult } from "@kubesched/cluster";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { Code, definePlugin, type FilterPlugin, type Registry, Status } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import samplePlugin from "@kubesched/plugin-sample";
import { createPluginHarness, makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { createSchedulerCommand } from "@kubesched/cli";

// Pod must be the real type, not any (what skipLibCheck hid under NodeNext).
type IsAny<T> = 0 extends 1 & T ? true : false;
const podIsNotAny: IsAny<Pod> = false;
const nameOf = (p: Pod): string | undefined => p.metadata?.name;

class Gate implements FilterPlugin {
  name() {
    return "Gate";
  }
  filter(): Status | null {
    return new Status(Code.Unschedulable, "closed");
  }
}
const gate = definePlugin({ name: "Gate", factory: () => new Gate() });
const registry: Registry = new Map([...inTreeRegistry, [gate.name, gate], [samplePlugin.name, samplePlugin]]);
const config: KubeSchedulerConfiguration = defaultConfig({ registry });
const pending: Promise<SimulationResult> = simulate({
  config,
  registry,
  objects: [],
  logger: recordingLogger(),
});
void pending;
void createPluginHarness({ plugin: gate, nodes: [makeNode().name("n").obj()] });
void createSchedulerCommand({ registry: { Gate: gate } });
export { podIsNotAny, nameOf, quantityValue, makePod };
`,
  );
  // The CLI README's runner snippet, as a user copies it.
  const readme = readFileSync(path.join(app, "node_modules/@kubesched/cli/README.md"), "utf8");
  const snippet = /## Embedding and out-of-tree plugins\s+```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  check(
    snippet !== undefined,
    'the CLI README has no runner snippet under "Embedding and out-of-tree plugins"',
  );
  writeFileSync(path.join(dir, "src/runner.ts"), snippet as string);
  writeFileSync(
    path.join(dir, "src/my-plugin.ts"),
    `import { definePlugin, type FilterPlugin } from "@kubesched/framework";
interface MyArgs { level: number }
class MyPlugin implements FilterPlugin {
  constructor(readonly args: MyArgs) {}
  name() { return "MyPlugin"; }
  filter() { return null; }
}
export const myPlugin = definePlugin<MyArgs>({ name: "MyPlugin", factory: (args) => new MyPlugin(args) });
`,
  );
  const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc");
  const modes: [string, string][] = [
    ["NodeNext", "NodeNext"],
    ["Node16", "Node16"],
    ["ESNext", "Bundler"],
  ];
  const failures: string[] = [];
  for (const [module, moduleResolution] of modes) {
    const config = `tsconfig.${moduleResolution.toLowerCase()}.json`;
    writeFileSync(
      path.join(dir, config),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023"],
          module,
          moduleResolution,
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        files: ["src/consumer.ts", "src/runner.ts"],
      }),
    );
    const r = await run(process.execPath, [tsc, "-p", config], { cwd: dir, allowFailure: true });
    if (r.code !== 0) failures.push(`moduleResolution ${moduleResolution}:\n${r.stdout}${r.stderr}`);
  }
  check(failures.length === 0, `the published types do not compile:\n${failures.join("\n")}`);
  log("  NodeNext, Node16, Bundler: strict, skipLibCheck off, no errors");
}

async function installedSize(env: NodeJS.ProcessEnv): Promise<void> {
  const dir = path.join(work, "size");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "size", private: true }));
  await run("npm", ["install", "@kubesched/cli"], { cwd: dir, env });
  const du = async (p: string) =>
    Number((await run("du", ["-sb", p], { cwd: dir })).stdout.split("\t")[0]) / 1e6;
  const total = await du("node_modules");
  const clientNode = await du("node_modules/@kubernetes");
  const kubesched = await du("node_modules/@kubesched");
  log(
    `  node_modules: ${total.toFixed(1)} MB (@kubesched/*: ${kubesched.toFixed(1)} MB, @kubernetes/client-node: ${clientNode.toFixed(1)} MB)`,
  );
}

let failed = false;
try {
  await main();
} catch (e) {
  failed = true;
  process.stderr.write(
    `release round trip FAILED: ${e instanceof CheckFailed || e instanceof CommandError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
} finally {
  await state.registry?.stop();
  if (process.env.KEEP) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  log(
    `release round trip ${failed ? "failed" : "passed"} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}
process.exitCode = failed ? 1 : 0;
