// Plugin packages through the commands users run: `--plugin` on simulate (the plugin acts in the
// assembled scheduler), the options file named with --options (and only then), `kubesched plugins`,
// and the errors a user sees (exit 1, one line naming the package, no stack trace).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { writePackage } from "../plugins/fixtures.test-util";
import { runCliIn } from "./run-cli.test-util";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), "kubesched-plugins-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A user's project: the framework the CLI runs (linked, as npm dedupes the peer dependency) and a
// plugin package that imports it.
const project = path.join(tmp, "project");
const nm = path.join(project, "node_modules");
mkdirSync(path.join(nm, "@kubesched"), { recursive: true });
symlinkSync(path.join(repo, "packages/framework"), path.join(nm, "@kubesched/framework"), "dir");
writePackage(nm, {
  name: "@acme/label-gate",
  version: "1.2.3",
  framework: ">=0.0.0",
  kubernetes: "1.37",
  index: `import { Code, Status, Type, defineArgs, definePlugin } from "@kubesched/framework";
const name = "LabelGate";
export default definePlugin({
  name,
  args: defineArgs({
    kind: "LabelGateArgs",
    schema: Type.Object({ label: Type.String({ default: "gate" }) }),
  }),
  factory: (args) => ({
    name: () => name,
    filter: (_state, _pod, nodeInfo) =>
      nodeInfo.node?.metadata?.labels?.[args.label] === "open"
        ? null
        : new Status(Code.UnschedulableAndUnresolvable, "node(s) had a closed gate"),
  }),
});
`,
});
/** The line kubesched prints on stderr before importing @acme/label-gate. */
const labelGateLoad = (from: string) =>
  `loading plugin package @acme/label-gate@1.2.3 from ${realpathSync(path.join(nm, "@acme/label-gate"))} (${from} @acme/label-gate)\n`;
// A package whose import leaves a mark: nothing may import it unless the user names it.
const tripwire = path.join(tmp, "imported-tripwire");
writePackage(nm, {
  name: "@acme/tripwire",
  framework: ">=0.0.0",
  index: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(tripwire)}, "imported");\nexport default { name: "Tripwire", factory: () => ({ name: () => "Tripwire" }) };\n`,
});
const cluster = path.join(project, "cluster.yaml");
writeFileSync(
  cluster,
  `apiVersion: v1
kind: Node
metadata: { name: open-1, labels: { gate: open } }
status: { capacity: { cpu: "4", memory: 8Gi, pods: "110" } }
---
apiVersion: v1
kind: Node
metadata: { name: closed-1, labels: { door: open } }
status: { capacity: { cpu: "4", memory: 8Gi, pods: "110" } }
---
apiVersion: v1
kind: Pod
metadata: { name: web, namespace: default }
spec: { containers: [{ name: c, image: nginx }] }
`,
);
const profile = (args = "") => `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      filter:
        enabled: [{ name: LabelGate }]
${args}`;
writeFileSync(path.join(project, "sched.yaml"), profile());
writeFileSync(
  path.join(project, "door.yaml"),
  profile("    pluginConfig:\n      - name: LabelGate\n        args: { label: door }\n"),
);
// A configuration with an options file next to it (read only with --options).
mkdirSync(path.join(project, "with-options"));
writeFileSync(path.join(project, "with-options/sched.yaml"), profile());
writeFileSync(
  path.join(project, "with-options/kubesched-options.yaml"),
  'apiVersion: kubesched.io/v1alpha1\nkind: KubeschedOptions\nplugins:\n  - "@acme/label-gate"\n',
);
mkdirSync(path.join(project, "bad-options"));
writeFileSync(path.join(project, "bad-options/sched.yaml"), profile());
// A shared folder: a valid configuration and an options file that names code to run.
mkdirSync(path.join(project, "shared"));
writeFileSync(
  path.join(project, "shared/sched.yaml"),
  "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
);
writeFileSync(
  path.join(project, "shared/kubesched-options.yaml"),
  'apiVersion: kubesched.io/v1alpha1\nkind: KubeschedOptions\nplugins:\n  - "@acme/tripwire"\n',
);
writeFileSync(
  path.join(project, "bad-options/kubesched-options.yaml"),
  "apiVersion: kubesched.io/v1\nkind: KubeschedOptions\nplugins: [3]\nplugin: x\n",
);

const run = (cwd: string, ...argv: string[]) => runCliIn(cwd, argv);

const outcomes = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout) as { pods: { name: string; node: string | null; outcome: string }[] }).pods.map(
      (p) => [p.name, p.node ?? p.outcome],
    ),
  );

describe("kubesched simulate --plugin", () => {
  it("a profile enables a loaded plugin by name, with its pluginConfig args, exactly like an in-tree plugin", async () => {
    const open = await run(
      project,
      "simulate",
      "--plugin",
      "@acme/label-gate",
      "--config",
      "sched.yaml",
      "--cluster",
      "cluster.yaml",
      "-o",
      "json",
    );
    expect(open.stderr).toBe(labelGateLoad("--plugin"));
    expect(outcomes(open.stdout)).toEqual({ web: "open-1" });
    const door = await run(
      project,
      "simulate",
      "--plugin",
      "@acme/label-gate",
      "--config",
      "door.yaml",
      "--cluster",
      "cluster.yaml",
      "-o",
      "json",
    );
    expect(outcomes(door.stdout)).toEqual({ web: "closed-1" });
  });

  it("a package whose stated releases leave out the emulated one gets one warning; it still runs (issue 27)", async () => {
    const argv = [
      "simulate",
      "--plugin",
      "@acme/label-gate",
      "--config",
      "sched.yaml",
      "--cluster",
      "cluster.yaml",
    ];
    const at135 = await run(project, ...argv, "-o", "json", "--emulated-version", "1.35");
    expect(at135.code).toBe(0);
    expect(at135.stderr).toBe(
      `${labelGateLoad("--plugin")}warning: plugin package @acme/label-gate 1.2.3 implements Kubernetes 1.37 ("kubesched": {"kubernetes": "1.37"} in its package.json); kubesched behaves as 1.35, so the scheduler around its plugins (default plugins, preemption, feature gates) is 1.35's, not theirs: --emulated-version 1.37 runs them as that release does\n`,
    );
    expect(outcomes(at135.stdout)).toEqual({ web: "open-1" });
    // At 1.37, the release it states: nothing to say. The same for `run`, at its own release.
    expect((await run(project, ...argv, "-o", "json")).stderr).toBe(labelGateLoad("--plugin"));
  });

  it("without the package, the configuration error says how to load it", async () => {
    const r = await run(project, "simulate", "--config", "sched.yaml", "--cluster", "cluster.yaml");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: sched.yaml: profiles[0].plugins.filter.enabled[0].name: Not found: "LabelGate"\nhint: no plugin is named LabelGate: load the package that provides it with --plugin PKG, or list it under plugins: in an options file passed with --options FILE\n',
    );
  });

  it("a package that cannot be loaded is one error line naming it (exit 1)", async () => {
    const r = await run(
      project,
      "simulate",
      "--plugin",
      "@acme/label-gate,@acme/missing",
      "--cluster",
      "cluster.yaml",
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^loading plugin package @acme\/label-gate@1\.2\.3 from .+\nerror: --plugin @acme\/missing: cannot find the package \(looked in node_modules from .+\); install it: npm install @acme\/missing\n$/,
    );
  });

  it("loads the plugins: of the options file given with --options, and says so on stderr", async () => {
    const options = path.join("with-options", "kubesched-options.yaml");
    const r = await run(
      project,
      "simulate",
      "--options",
      options,
      "--config",
      "with-options/sched.yaml",
      "--cluster",
      "cluster.yaml",
      "-o",
      "json",
    );
    expect(r.stderr).toBe(labelGateLoad(options));
    expect(outcomes(r.stdout)).toEqual({ web: "open-1" });
    const v = await run(project, "config", "validate", "--options", options, "with-options/sched.yaml");
    expect(v).toMatchObject({ code: 0, stdout: "valid\n", stderr: labelGateLoad(options) });
  });

  it("never reads an options file that was not named: a kubesched-options.yaml next to --config imports nothing", async () => {
    const v = await run(project, "config", "validate", "shared/sched.yaml");
    expect(v).toEqual({ code: 0, stdout: "valid\n", stderr: "" });
    const r = await run(
      project,
      "simulate",
      "--config",
      "shared/sched.yaml",
      "--cluster",
      "cluster.yaml",
      "-o",
      "json",
    );
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const l = await run(project, "plugins", "-o", "json");
    expect(l).toMatchObject({ code: 0, stderr: "" });
    expect(existsSync(tripwire)).toBe(false);
    // Named, it is loaded (and printed).
    const named = await run(project, "plugins", "--options", "shared/kubesched-options.yaml");
    expect(named.stderr).toMatch(
      /^loading plugin package @acme\/tripwire@1\.0\.0 from .+ \(shared\/kubesched-options\.yaml @acme\/tripwire\)\n$/,
    );
    expect(existsSync(tripwire)).toBe(true);
    rmSync(tripwire);
  });

  it("an invalid or missing options file is every error with its field path", async () => {
    const file = "bad-options/kubesched-options.yaml";
    const r = await run(
      project,
      "simulate",
      "--options",
      file,
      "--config",
      "bad-options/sched.yaml",
      "--cluster",
      "cluster.yaml",
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        `error: ${file}: apiVersion: Unsupported value: "kubesched.io/v1": supported values: "kubesched.io/v1alpha1"`,
        `error: ${file}: plugins[0]: Invalid value: 3: must be a package name`,
        `error: ${file}: plugin: unknown field`,
        "",
      ].join("\n"),
    );
    const missing = await run(project, "plugins", "--options", "nope.yaml");
    expect(missing).toEqual({ code: 1, stdout: "", stderr: "error: nope.yaml: no such file\n" });
  });
});

describe("kubesched plugins", () => {
  it("lists in-tree and loaded plugins with package, version, Kubernetes releases, extension points and args", async () => {
    const r = await run(project, "plugins", "--plugin", "@acme/label-gate", "-o", "json");
    expect(r.stderr).toBe(labelGateLoad("--plugin"));
    const list = JSON.parse(r.stdout) as { kind: string; plugins: Record<string, unknown>[] };
    expect(list.kind).toBe("PluginList");
    expect(list.plugins.find((p) => p.name === "LabelGate")).toEqual({
      name: "LabelGate",
      package: "@acme/label-gate",
      version: "1.2.3",
      kubernetes: "1.37",
      source: "--plugin",
      extensionPoints: ["Filter"],
      args: {
        kind: "LabelGateArgs",
        defaults: { label: "gate" },
        schema: expect.objectContaining({ type: "object" }),
      },
      customResources: [],
    });
    expect(list.plugins.find((p) => p.name === "NodeAffinity")).toMatchObject({
      package: "@kubesched/plugin-node-affinity",
      source: "in-tree",
      extensionPoints: ["PreFilter", "Filter", "PreScore", "Score", "EnqueueExtensions"],
      args: { kind: "NodeAffinityArgs" },
    });
    // In-tree plugin packages implement every release kubesched emulates.
    expect(list.plugins.find((p) => p.name === "NodeAffinity")?.kubernetes).toBe(">=1.33 <=1.37");
    const table = await run(project, "plugins", "--plugin", "@acme/label-gate");
    expect(table.stdout).toMatch(
      /^LabelGate\s+@acme\/label-gate\s+1\.2\.3\s+1\.37\s+--plugin\s+Filter\s+LabelGateArgs$/m,
    );
  });
});

describe("the contrib plugins through --plugin (repository examples)", () => {
  it("examples/gang-scheduling: all or nothing with --plugin @kubesched/plugin-coscheduling", async () => {
    const gang = [
      "simulate",
      "--plugin",
      "@kubesched/plugin-coscheduling",
      "--config",
      "examples/gang-scheduling/scheduler-config.yaml",
      "--cluster",
      "examples/gang-scheduling/cluster.yaml",
      "-o",
      "json",
    ];
    const r = await run(repo, ...gang);
    // The port is of scheduler-plugins built against Kubernetes 1.35; kubesched behaves as 1.37 by
    // default, and the warning says how to run it as its release does.
    expect(r.stderr).toMatch(
      /^loading plugin package @kubesched\/plugin-coscheduling@\S+ from \S+ \(--plugin @kubesched\/plugin-coscheduling\)\nwarning: plugin package @kubesched\/plugin-coscheduling \S+ implements Kubernetes 1\.35 \("kubesched": \{"kubernetes": "1\.35"\} in its package\.json\); kubesched behaves as 1\.37, so the scheduler around its plugins \(default plugins, preemption, feature gates\) is 1\.37's, not theirs: --emulated-version 1\.35 runs them as that release does\n$/,
    );
    const at135 = await run(repo, ...gang, "--emulated-version", "1.35");
    expect(at135.stderr).not.toContain("warning");
    const o = outcomes(r.stdout);
    for (const p of ["training-0", "training-1", "training-2"]) expect(o[p]).toMatch(/^node-/);
    for (const p of ["inference-0", "inference-1", "inference-2", "inference-3"])
      expect(o[p]).toBe("Unschedulable");
  });

  it("examples/elastic-quota: --options its kubesched-options.yaml loads @kubesched/plugin-capacity-scheduling", async () => {
    const r = await run(
      repo,
      "plugins",
      "--options",
      "examples/elastic-quota/kubesched-options.yaml",
      "-o",
      "json",
    );
    expect(r.stderr).toMatch(
      /^loading plugin package @kubesched\/plugin-capacity-scheduling@\S+ from \S+packages\/plugins-contrib\/capacity-scheduling \(examples\/elastic-quota\/kubesched-options\.yaml @kubesched\/plugin-capacity-scheduling\)\n$/,
    );
    const list = JSON.parse(r.stdout) as { plugins: { name: string; source: string }[] };
    expect(list.plugins.find((p) => p.name === "CapacityScheduling")?.source).toBe(
      "examples/elastic-quota/kubesched-options.yaml",
    );
  });
});
