import { defaultFeatures, type FieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import type { V1Configuration } from "./decode";
import { getDefaultPlugins, mergePlugins } from "./default-plugins";
import { setDefaults } from "./defaults";
import { defaultPluginConfig, fakeRegistry } from "./test-registry";
import type { KubeSchedulerConfiguration, ProfileConfig } from "./types";

const registry = fakeRegistry();

// upstream expectation shared by every case: the defaults of everything but the profiles.
function expected(overrides: Partial<KubeSchedulerConfiguration>): KubeSchedulerConfiguration {
  return {
    apiVersion: "kubescheduler.config.k8s.io/v1",
    kind: "KubeSchedulerConfiguration",
    parallelism: 16,
    percentageOfNodesToScore: 0,
    podInitialBackoffSeconds: 1,
    podMaxBackoffSeconds: 10,
    leaderElection: {
      leaderElect: true,
      leaseDuration: 15_000,
      renewDeadline: 10_000,
      retryPeriod: 2_000,
      resourceLock: "leases",
      resourceNamespace: "kube-system",
      resourceName: "kube-scheduler",
    },
    clientConnection: {
      kubeconfig: "",
      acceptContentTypes: "",
      contentType: "application/vnd.kubernetes.protobuf",
      qps: 50,
      burst: 100,
    },
    enableProfiling: true,
    enableContentionProfiling: true,
    delayCacheUntilActive: false,
    profiles: [defaultProfile()],
    extenders: [],
    ...overrides,
  };
}

function defaultProfile(overrides: Partial<ProfileConfig> = {}): ProfileConfig {
  return {
    schedulerName: "default-scheduler",
    plugins: getDefaultPlugins(),
    pluginConfig: defaultPluginConfig(),
    ...overrides,
  };
}

// upstream: pkg/scheduler/apis/config/v1/defaults_test.go TestSchedulerDefaults. The
// plugin-args-only table (TestPluginArgsDefaults) belongs to each plugin package.
describe("TestSchedulerDefaults", () => {
  const cases: { name: string; config: V1Configuration; expected: KubeSchedulerConfiguration }[] = [
    { name: "empty config", config: {}, expected: expected({}) },
    { name: "no scheduler name", config: { profiles: [{}] }, expected: expected({}) },
    {
      name: "two profiles",
      config: {
        parallelism: 16,
        profiles: [
          { pluginConfig: [{ name: "FooPlugin", args: undefined }] },
          {
            schedulerName: "custom-scheduler",
            plugins: { bind: { enabled: [{ name: "BarPlugin" }], disabled: [{ name: "DefaultBinder" }] } },
          },
        ],
      },
      expected: expected({
        profiles: [
          {
            schedulerName: "",
            plugins: getDefaultPlugins(),
            pluginConfig: [{ name: "FooPlugin", args: undefined }, ...defaultPluginConfig()],
          },
          {
            schedulerName: "custom-scheduler",
            plugins: mergePlugins(getDefaultPlugins(), {
              bind: { enabled: [{ name: "BarPlugin" }], disabled: [{ name: "DefaultBinder" }] },
            }),
            pluginConfig: defaultPluginConfig(),
          },
        ],
      }),
    },
    { name: "Prallelism with no port", config: { parallelism: 16 }, expected: expected({}) },
    {
      name: "set non default parallelism",
      config: { parallelism: 8 },
      expected: expected({ parallelism: 8 }),
    },
    {
      name: "set non default delayCacheUntilActive",
      config: { delayCacheUntilActive: true },
      expected: expected({ delayCacheUntilActive: true }),
    },
    {
      name: "set non default global percentageOfNodesToScore",
      config: { percentageOfNodesToScore: 50 },
      expected: expected({ percentageOfNodesToScore: 50 }),
    },
    {
      name: "set non default profile percentageOfNodesToScore",
      config: { profiles: [{ percentageOfNodesToScore: 50 }] },
      expected: expected({ profiles: [defaultProfile({ percentageOfNodesToScore: 50 })] }),
    },
    {
      name: "set non default global and profile percentageOfNodesToScore",
      config: { percentageOfNodesToScore: 10, profiles: [{ percentageOfNodesToScore: 50 }] },
      expected: expected({
        percentageOfNodesToScore: 10,
        profiles: [defaultProfile({ percentageOfNodesToScore: 50 })],
      }),
    },
    {
      // upstream keeps args it could not decode (runtime.Unknown) untouched; here that is a
      // plugin the registry does not know, whose raw args pass through.
      name: "unknown plugin config",
      config: {
        profiles: [
          { pluginConfig: [{ name: "UnknownPlugin", args: { foo: "bar" } }, ...defaultPluginConfig()] },
        ],
      },
      expected: expected({
        profiles: [
          defaultProfile({
            pluginConfig: [{ name: "UnknownPlugin", args: { foo: "bar" } }, ...defaultPluginConfig()],
          }),
        ],
      }),
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const errors: FieldError[] = [];
      expect(setDefaults(tc.config, { registry }, errors)).toEqual(tc.expected);
      expect(errors).toEqual([]);
    });
  }
});

describe("defaults beyond the upstream table", () => {
  it("contention profiling stays off when profiling is off", () => {
    const cfg = setDefaults({ enableProfiling: false }, { registry });
    expect(cfg.enableProfiling).toBe(false);
    expect(cfg.enableContentionProfiling).toBe(false);
  });

  it("zero durations, qps and burst mean unset, as Go zero values do", () => {
    const cfg = setDefaults(
      {
        leaderElection: { leaseDuration: 0, renewDeadline: 0, retryPeriod: 0 },
        clientConnection: { qps: 0, burst: 0 },
      },
      { registry },
    );
    expect(cfg.leaderElection).toMatchObject({
      leaseDuration: 15_000,
      renewDeadline: 10_000,
      retryPeriod: 2_000,
    });
    expect(cfg.clientConnection).toMatchObject({ qps: 50, burst: 100 });
  });

  it("an explicit pluginConfig entry is decoded by the plugin's spec and not appended again", () => {
    const cfg = setDefaults(
      {
        profiles: [{ pluginConfig: [{ name: "DefaultPreemption", args: { minCandidateNodesAbsolute: 5 } }] }],
      },
      { registry },
    );
    const pc = cfg.profiles[0]!.pluginConfig;
    expect(pc.filter((c) => c.name === "DefaultPreemption")).toEqual([
      { name: "DefaultPreemption", args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 5 } },
    ]);
    expect(pc.map((c) => c.name)).toEqual(defaultPluginConfig().map((c) => c.name));
  });

  it("args are appended only for enabled plugins", () => {
    const cfg = setDefaults(
      { profiles: [{ plugins: { multiPoint: { enabled: [], disabled: [{ name: "VolumeBinding" }] } } }] },
      { registry },
    );
    expect(cfg.profiles[0]!.pluginConfig.map((c) => c.name)).not.toContain("VolumeBinding");
  });

  it("extenders get the 5s HTTP timeout", () => {
    const cfg = setDefaults({ extenders: [{ urlPrefix: "http://x" }] }, { registry });
    expect(cfg.extenders[0]).toMatchObject({
      urlPrefix: "http://x",
      httpTimeout: 5_000,
      weight: 0,
      managedResources: [],
    });
  });

  it("follows the feature gates for the default plugins", () => {
    const cfg = setDefaults(
      {},
      { registry, features: { ...defaultFeatures, enableDynamicResourceAllocation: false } },
    );
    const names = cfg.profiles[0]!.plugins.multiPoint.enabled.map((p) => p.name);
    expect(names).not.toContain("DynamicResources");
    expect(cfg.profiles[0]!.pluginConfig.map((c) => c.name)).not.toContain("DynamicResources");
  });
});
