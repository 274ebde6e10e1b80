import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDefaultPlugins } from "./default-plugins";
import { configToYAML, encodeConfig } from "./encode";
import { ConfigError, defaultConfig, loadConfig, loadConfigFile } from "./load";
import { buildConfigJSONSchema, configJSONSchema } from "./schema";
import { argsPlugins, defaultPluginConfig, fakeRegistry } from "./test-registry";

const registry = fakeRegistry("OutOfTreePlugin", "CustomPlugin");
const head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

function errorsOf(text: string): string[] {
  try {
    loadConfig(text, { registry });
  } catch (e) {
    if (e instanceof ConfigError) return e.errors;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

// upstream: pkg/scheduler/apis/config/scheme/scheme_test.go TestCodecsDecodePluginConfig (the
// v1 cases that do not depend on one plugin's args type).
describe("TestCodecsDecodePluginConfig", () => {
  it("plugin group and kind should match the type", () => {
    expect(
      errorsOf(`${head}profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
`),
    ).toEqual([
      'profiles[0].pluginConfig[0].args: Invalid value: "InterPodAffinityArgs": args for plugin NodeResourcesFit were not of type NodeResourcesFitArgs.kubescheduler.config.k8s.io, got InterPodAffinityArgs.kubescheduler.config.k8s.io',
    ]);
  });

  it("plugins can include version and kind", () => {
    const cfg = loadConfig(
      `${head}profiles:
- pluginConfig:
  - name: InterPodAffinity
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
      hardPodAffinityWeight: 5
`,
      { registry },
    );
    expect(cfg.profiles[0]!.pluginConfig[0]).toEqual({
      name: "InterPodAffinity",
      args: { hardPodAffinityWeight: 5, ignorePreferredTermsOfExistingPods: false },
    });
  });

  it("out-of-tree plugin args", () => {
    const cfg = loadConfig(
      `${head}profiles:
- plugins:
    multiPoint:
      enabled:
      - name: OutOfTreePlugin
  pluginConfig:
  - name: OutOfTreePlugin
    args:
      foo: bar
`,
      { registry },
    );
    expect(cfg.profiles[0]!.pluginConfig[0]).toEqual({ name: "OutOfTreePlugin", args: { foo: "bar" } });
  });

  it("empty and no plugin args", () => {
    const cfg = loadConfig(
      `${head}profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
  - name: InterPodAffinity
    args:
  - name: NodeResourcesFit
  - name: OutOfTreePlugin
    args:
  - name: VolumeBinding
    args:
  - name: PodTopologySpread
  - name: NodeAffinity
`,
      { registry },
    );
    const byName = Object.fromEntries(cfg.profiles[0]!.pluginConfig.map((c) => [c.name, c.args]));
    for (const name of ["DefaultPreemption", "InterPodAffinity", "NodeResourcesFit", "VolumeBinding"]) {
      expect(byName[name]).toEqual(argsPlugins[name]!.decode(undefined, "", {} as never).args);
    }
    expect(byName.OutOfTreePlugin).toBeUndefined();
    expect(cfg.profiles[0]!.pluginConfig.slice(0, 7).map((c) => c.name)).toEqual([
      "DefaultPreemption",
      "InterPodAffinity",
      "NodeResourcesFit",
      "OutOfTreePlugin",
      "VolumeBinding",
      "PodTopologySpread",
      "NodeAffinity",
    ]);
  });
});

describe("strict decoding", () => {
  const cases: { name: string; text: string; want: string[] }[] = [
    {
      name: "removed apiVersion",
      text: "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
      want: [
        'apiVersion "kubescheduler.config.k8s.io/v1beta3" is not supported: use kubescheduler.config.k8s.io/v1',
      ],
    },
    {
      name: "missing apiVersion and wrong kind",
      text: "kind: Pod\n",
      want: [
        "apiVersion: Required value: use kubescheduler.config.k8s.io/v1",
        'kind "Pod" is not supported: use KubeSchedulerConfiguration (group kubescheduler.config.k8s.io)',
      ],
    },
    {
      name: "missing kind",
      text: "apiVersion: kubescheduler.config.k8s.io/v1\n",
      want: ["kind: Required value: use KubeSchedulerConfiguration"],
    },
    {
      name: "unknown fields anywhere, with their paths",
      text: `${head}healthzBindAddress: 0.0.0.0:10251
leaderElection:
  leaderElect: true
  lease: 3s
profiles:
- schedulerName: a
  plugin: {}
  plugins:
    filter:
      enabled:
      - name: NodeName
        wieght: 2
  pluginConfig:
  - name: DefaultPreemption
    arg: {}
extenders:
- urlPrefix: http://x
  tls: {}
`,
      want: [
        "leaderElection.lease: unknown field",
        "profiles[0].plugins.filter.enabled[0].wieght: unknown field",
        "profiles[0].pluginConfig[0].arg: unknown field",
        "profiles[0].plugin: unknown field",
        "extenders[0].tls: unknown field",
        "healthzBindAddress: unknown field",
      ],
    },
    {
      name: "wrong types, with their paths",
      text: `${head}parallelism: "8"
enableProfiling: "yes"
leaderElection:
  leaseDuration: 15
  renewDeadline: soon
profiles: {}
`,
      want: [
        'parallelism: Invalid value: "8": must be an integer, got string',
        "leaderElection.leaseDuration: Invalid value: 15: must be a string, got number",
        'leaderElection.renewDeadline: Invalid value: "soon": must be a duration such as "15s", "1m30s" or "500ms"',
        'enableProfiling: Invalid value: "yes": must be a boolean, got string',
        "profiles: Invalid value: {}: must be a list, got object",
      ],
    },
    {
      name: "plugin args decoding errors carry the args path",
      text: `${head}profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 50
      minCandidateNodes: 3
  - name: VolumeBinding
    args: 600
`,
      want: [
        "profiles[0].pluginConfig[0].args.minCandidateNodes: unknown field",
        "profiles[0].pluginConfig[1].args: Invalid value: 600: args for plugin VolumeBinding must be an object",
      ],
    },
    {
      name: "plugin entries need a name",
      text: `${head}profiles:
- plugins:
    score:
      enabled:
      - weight: 2
  pluginConfig:
  - args: {}
`,
      want: [
        "profiles[0].plugins.score.enabled[0].name: Required value",
        "profiles[0].pluginConfig[0].name: Required value",
      ],
    },
    {
      name: "workload-aware extension points are refused, not ignored",
      text: `${head}profiles:
- plugins:
    placementGenerate:
      enabled:
      - name: TopologyPlacementGenerator
`,
      want: [
        "profiles[0].plugins.placementGenerate: Forbidden: workload-aware scheduling extension points are not supported by kubesched",
      ],
    },
    {
      name: "YAML syntax errors have a line and column",
      text: `${head}profiles:\n- schedulerName: [a\n`,
      want: [
        "yaml: line 5, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
      ],
    },
    {
      name: "duplicate keys",
      text: `${head}parallelism: 1\nparallelism: 2\n`,
      want: ["yaml: line 4, column 1: Map keys must be unique"],
    },
    {
      name: "more than one document",
      text: `${head}---\n${head}`,
      want: ["yaml: the file holds 2 documents: a KubeSchedulerConfiguration file holds exactly one"],
    },
    {
      name: "empty file",
      text: "# nothing\n",
      want: ["the configuration is empty: expected a KubeSchedulerConfiguration object"],
    },
    {
      name: "not an object",
      text: "- a\n- b\n",
      want: ["the configuration must be a KubeSchedulerConfiguration object, got a list"],
    },
    {
      name: "every error at once, decoding and validation together",
      text: `${head}parallelism: 0
percentageOfNodesToScore: 200
podInitialBackoffSeconds: 5
podMaxBackoffSeconds: 1
unknown: true
profiles:
- schedulerName: a
  plugins:
    multiPoint:
      enabled:
      - name: Foo
    filter:
      enabled:
      - name: CustomPlugin
      - name: EBSLimits
- schedulerName: a
`,
      want: [
        "unknown: unknown field",
        "parallelism: Invalid value: 0: should be an integer value greater than zero",
        'profiles[0].plugins.multiPoint.enabled[0].name: Not found: "Foo"',
        'profiles[0].plugins.filter.enabled[1]: Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
        'profiles[1].schedulerName: Duplicate value: "a": already used by profiles[0].schedulerName',
        "percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]",
        "podMaxBackoffSeconds: Invalid value: 1: must be greater than or equal to PodInitialBackoffSeconds",
      ],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(errorsOf(tc.text)).toEqual(tc.want);
    });
  }

  it("ConfigError's message is every error, one per line", () => {
    const text = `${head}parallelism: 0\npercentageOfNodesToScore: 101\n`;
    expect(() => loadConfig(text, { registry })).toThrowError(
      "parallelism: Invalid value: 0: should be an integer value greater than zero\npercentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]",
    );
  });

  it("reads JSON too", () => {
    const cfg = loadConfig(
      JSON.stringify({
        apiVersion: "kubescheduler.config.k8s.io/v1",
        kind: "KubeSchedulerConfiguration",
        parallelism: 4,
      }),
      { registry },
    );
    expect(cfg.parallelism).toBe(4);
  });

  it("a registry missing a default plugin is an error, never a silent skip", () => {
    const partial = new Map(registry);
    partial.delete("ImageLocality");
    try {
      loadConfig(head, { registry: partial });
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigError).errors).toEqual([
        'profiles[0].plugins.multiPoint.enabled[17].name: Not found: "ImageLocality": a default plugin is missing from the plugin registry',
      ]);
    }
  });

  it("file indices are used for the user's own plugin lists", () => {
    expect(
      errorsOf(`${head}profiles:
- plugins:
    multiPoint:
      enabled:
      - name: TaintToleration
        weight: 5
      - name: Nope
`),
    ).toEqual(['profiles[0].plugins.multiPoint.enabled[1].name: Not found: "Nope"']);
  });
});

describe("loadConfigFile", () => {
  it("reports an unreadable file as a ConfigError", () => {
    expect(() => loadConfigFile("/nonexistent/sched.yaml", { registry })).toThrowError(
      "cannot read /nonexistent/sched.yaml: no such file",
    );
  });

  it("loads a file", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesched-config-"));
    const file = join(dir, "sched.yaml");
    writeFileSync(file, `${head}profiles:\n- schedulerName: a\n- schedulerName: b\n`);
    expect(loadConfigFile(file, { registry }).profiles.map((p) => p.schedulerName)).toEqual(["a", "b"]);
  });
});

describe("defaultConfig", () => {
  it("is the loaded minimal file", () => {
    expect(defaultConfig({ registry })).toEqual(loadConfig(head, { registry }));
  });

  it("has one default-scheduler profile with the default plugins and args", () => {
    const cfg = defaultConfig({ registry });
    expect(cfg.profiles).toEqual([
      {
        schedulerName: "default-scheduler",
        plugins: getDefaultPlugins(),
        pluginConfig: defaultPluginConfig(),
      },
    ]);
  });
});

describe("encodeConfig / configToYAML", () => {
  it("round-trips through YAML", () => {
    const cfg = loadConfig(
      `${head}parallelism: 4
leaderElection:
  leaderElect: false
  leaseDuration: 1m30s
profiles:
- schedulerName: a
  percentageOfNodesToScore: 20
  plugins:
    score:
      disabled:
      - name: "*"
      enabled:
      - name: CustomPlugin
        weight: 3
  pluginConfig:
  - name: OutOfTreePlugin
    args: {x: [1, 2]}
extenders:
- urlPrefix: http://extender
  prioritizeVerb: prioritize
  weight: 2
  managedResources:
  - name: example.com/gpu
    ignoredByScheduler: true
`,
      { registry },
    );
    const yaml = configToYAML(cfg, registry);
    expect(loadConfig(yaml, { registry })).toEqual(cfg);
    expect(yaml).toContain("leaseDuration: 1m30s");
    expect(yaml).toContain("httpTimeout: 5s");
  });

  it("writes durations as Go strings and args with apiVersion/kind", () => {
    const json = encodeConfig(defaultConfig({ registry }), registry) as {
      leaderElection: Record<string, unknown>;
      profiles: { pluginConfig: { name: string; args: Record<string, unknown> }[] }[];
    };
    expect(json.leaderElection).toMatchObject({
      leaseDuration: "15s",
      renewDeadline: "10s",
      retryPeriod: "2s",
    });
    expect(json.profiles[0]!.pluginConfig[0]).toEqual({
      name: "DefaultPreemption",
      args: {
        apiVersion: "kubescheduler.config.k8s.io/v1",
        kind: "DefaultPreemptionArgs",
        minCandidateNodesPercentage: 10,
        minCandidateNodesAbsolute: 100,
      },
    });
  });

  it("prints the defaults with sorted keys, as --write-config-to does", () => {
    const yaml = configToYAML(defaultConfig({ registry }), registry);
    expect(yaml.split("\n").slice(0, 8)).toEqual([
      "apiVersion: kubescheduler.config.k8s.io/v1",
      "clientConnection:",
      '  acceptContentTypes: ""',
      "  burst: 100",
      "  contentType: application/vnd.kubernetes.protobuf",
      '  kubeconfig: ""',
      "  qps: 50",
      "enableContentionProfiling: true",
    ]);
  });
});

describe("JSON Schema", () => {
  it("without a registry accepts any plugin name", () => {
    const defs = configJSONSchema.$defs as Record<string, Record<string, unknown>>;
    expect((defs.Plugin!.properties as Record<string, unknown>).name).toEqual({ type: "string" });
  });

  it("with a registry enumerates plugin names and attaches args schemas", () => {
    const schema = buildConfigJSONSchema(registry);
    const defs = schema.$defs as Record<string, Record<string, unknown>>;
    const name = (defs.Plugin!.properties as Record<string, { enum: string[] }>).name;
    expect(name!.enum).toContain("NodeResourcesFit");
    const rules = defs.PluginConfig!.allOf as {
      if: unknown;
      then: { properties: { args: Record<string, unknown> } };
    }[];
    const fit = rules.find((r) => JSON.stringify(r.if).includes('"NodeResourcesFit"'))!;
    expect(fit.then.properties.args.properties).toMatchObject({ kind: { const: "NodeResourcesFitArgs" } });
  });
});
