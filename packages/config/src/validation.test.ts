import { type FieldError, formatFieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { emptyPlugins } from "./default-plugins";
import { ConfigError, loadConfig } from "./load";
import { fakeRegistry } from "./test-registry";
import type { KubeSchedulerConfiguration, PluginSet, Plugins } from "./types";
import { validateConfig } from "./validation";

// "config" is the plugin name upstream's duplicated-plugin-config case uses; registering it keeps
// that case about duplication only (kubesched also reports names missing from the registry).
const registry = fakeRegistry("CustomSort", "CustomBind", "AnotherSort", "config");

function plugins(sets: Partial<Record<keyof Plugins, Partial<PluginSet>>>): Plugins {
  const out = emptyPlugins();
  for (const [k, v] of Object.entries(sets)) {
    out[k as keyof Plugins] = { enabled: v.enabled ?? [], disabled: v.disabled ?? [] };
  }
  return out;
}

function validConfig(): KubeSchedulerConfiguration {
  return {
    apiVersion: "kubescheduler.config.k8s.io/v1",
    kind: "KubeSchedulerConfiguration",
    parallelism: 8,
    clientConnection: {
      kubeconfig: "",
      acceptContentTypes: "application/json",
      contentType: "application/json",
      qps: 10,
      burst: 10,
    },
    leaderElection: {
      resourceLock: "leases",
      leaderElect: true,
      leaseDuration: 30_000,
      renewDeadline: 15_000,
      retryPeriod: 5_000,
      resourceNamespace: "name",
      resourceName: "name",
    },
    enableProfiling: true,
    enableContentionProfiling: true,
    delayCacheUntilActive: false,
    podInitialBackoffSeconds: 1,
    podMaxBackoffSeconds: 1,
    percentageOfNodesToScore: 0,
    profiles: [
      {
        schedulerName: "me",
        percentageOfNodesToScore: 35,
        plugins: plugins({
          queueSort: { enabled: [{ name: "CustomSort" }] },
          score: { disabled: [{ name: "*" }] },
        }),
        pluginConfig: [
          {
            name: "DefaultPreemption",
            args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 },
          },
        ],
      },
      {
        schedulerName: "other",
        percentageOfNodesToScore: 35,
        plugins: plugins({
          queueSort: { enabled: [{ name: "CustomSort" }] },
          bind: { enabled: [{ name: "CustomBind" }] },
        }),
        pluginConfig: [],
      },
    ],
    extenders: [
      {
        urlPrefix: "",
        filterVerb: "",
        preemptVerb: "",
        prioritizeVerb: "prioritize",
        weight: 1,
        bindVerb: "",
        enableHTTPS: false,
        httpTimeout: 5_000,
        nodeCacheCapable: false,
        managedResources: [],
        ignorable: false,
      },
    ],
  };
}

type Mutation = (c: KubeSchedulerConfiguration) => void;
const at = (c: KubeSchedulerConfiguration, i: number) => c.profiles[i]!;

// upstream: pkg/scheduler/apis/config/validation/validation_test.go
// TestValidateKubeSchedulerConfigurationV1 (compares error type and field, as upstream's
// ignoreBadValueDetail does).
describe("TestValidateKubeSchedulerConfigurationV1", () => {
  const cases: { name: string; mutate: Mutation; wantErrs: Pick<FieldError, "type" | "field">[] }[] = [
    { name: "good", mutate: () => {}, wantErrs: [] },
    {
      name: "bad-parallelism-invalid-value",
      mutate: (c) => {
        c.parallelism = 0;
      },
      wantErrs: [{ type: "Invalid", field: "parallelism" }],
    },
    {
      name: "bad-resource-name-not-set",
      mutate: (c) => {
        c.leaderElection.resourceName = "";
      },
      wantErrs: [{ type: "Invalid", field: "leaderElection.resourceName" }],
    },
    {
      name: "bad-resource-namespace-not-set",
      mutate: (c) => {
        c.leaderElection.resourceNamespace = "";
      },
      wantErrs: [{ type: "Invalid", field: "leaderElection.resourceNamespace" }],
    },
    {
      name: "bad-resource-lock-not-leases",
      mutate: (c) => {
        c.leaderElection.resourceLock = "configmap";
      },
      wantErrs: [{ type: "Invalid", field: "leaderElection.resourceLock" }],
    },
    {
      name: "bad-percentage-of-nodes-to-score",
      mutate: (c) => {
        c.percentageOfNodesToScore = 101;
      },
      wantErrs: [{ type: "Invalid", field: "percentageOfNodesToScore" }],
    },
    {
      name: "negative-percentage-of-nodes-to-score",
      mutate: (c) => {
        c.percentageOfNodesToScore = -1;
      },
      wantErrs: [{ type: "Invalid", field: "percentageOfNodesToScore" }],
    },
    {
      name: "scheduler-name-not-set",
      mutate: (c) => {
        at(c, 1).schedulerName = "";
      },
      wantErrs: [{ type: "Required", field: "profiles[1].schedulerName" }],
    },
    {
      name: "repeated-scheduler-name",
      mutate: (c) => {
        at(c, 0).schedulerName = "other";
      },
      wantErrs: [{ type: "Duplicate", field: "profiles[1].schedulerName" }],
    },
    {
      name: "greater-than-100-profile-percentage-of-nodes-to-score",
      mutate: (c) => {
        at(c, 1).percentageOfNodesToScore = 101;
      },
      wantErrs: [{ type: "Invalid", field: "profiles[1].percentageOfNodesToScore" }],
    },
    {
      name: "negative-profile-percentage-of-nodes-to-score",
      mutate: (c) => {
        at(c, 1).percentageOfNodesToScore = -1;
      },
      wantErrs: [{ type: "Invalid", field: "profiles[1].percentageOfNodesToScore" }],
    },
    {
      name: "different-queue-sort",
      mutate: (c) => {
        at(c, 1).plugins.queueSort.enabled[0]!.name = "AnotherSort";
      },
      wantErrs: [{ type: "Invalid", field: "profiles[1].plugins.queueSort" }],
    },
    {
      name: "one-empty-queue-sort",
      mutate: (c) => {
        at(c, 0).plugins = emptyPlugins();
      },
      wantErrs: [{ type: "Invalid", field: "profiles[1].plugins.queueSort" }],
    },
    {
      name: "extender-negative-weight",
      mutate: (c) => {
        c.extenders[0]!.weight = -1;
      },
      wantErrs: [{ type: "Invalid", field: "extenders[0].weight" }],
    },
    {
      name: "extender-duplicate-managed-resources",
      mutate: (c) => {
        c.extenders[0]!.managedResources = [
          { name: "example.com/foo", ignoredByScheduler: false },
          { name: "example.com/foo", ignoredByScheduler: false },
        ];
      },
      wantErrs: [{ type: "Invalid", field: "extenders[0].managedResources[1].name" }],
    },
    {
      name: "extender-duplicate-bind",
      mutate: (c) => {
        c.extenders[0]!.bindVerb = "foo";
        c.extenders.push({ ...c.extenders[0]!, prioritizeVerb: "prioritize", bindVerb: "bar", weight: 1 });
      },
      wantErrs: [{ type: "Invalid", field: "extenders" }],
    },
    {
      name: "invalid-node-percentage",
      mutate: (c) => {
        at(c, 0).pluginConfig = [
          {
            name: "DefaultPreemption",
            args: { minCandidateNodesPercentage: 200, minCandidateNodesAbsolute: 100 },
          },
        ];
      },
      wantErrs: [{ type: "Invalid", field: "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage" }],
    },
    {
      name: "duplicated-plugin-config",
      mutate: (c) => {
        at(c, 0).pluginConfig = [
          { name: "config", args: undefined },
          { name: "config", args: undefined },
        ];
      },
      wantErrs: [{ type: "Duplicate", field: "profiles[0].pluginConfig[1]" }],
    },
    {
      name: "mismatch-queue-sort",
      mutate: (c) => {
        c.profiles = [
          {
            schedulerName: "me",
            plugins: plugins({ queueSort: { enabled: [{ name: "PrioritySort" }] } }),
            pluginConfig: [{ name: "PrioritySort", args: undefined }],
          },
          {
            schedulerName: "other",
            plugins: plugins({ queueSort: { enabled: [{ name: "CustomSort" }] } }),
            pluginConfig: [{ name: "CustomSort", args: undefined }],
          },
        ];
      },
      wantErrs: [{ type: "Invalid", field: "profiles[1].plugins.queueSort" }],
    },
    {
      // upstream's newest table uses SelectorSpread; in the newest validation.go the v1 removed
      // list is AzureDiskLimits, CinderLimits, EBSLimits, GCEPDLimits.
      name: "invalid-plugins",
      mutate: (c) => {
        at(c, 0).plugins.score.enabled.push({ name: "AzureDiskLimits" });
      },
      wantErrs: [{ type: "Invalid", field: "profiles[0].plugins.score.enabled[0]" }],
    },
    {
      name: "valid-plugins",
      mutate: (c) => {
        at(c, 0).plugins.score.enabled.push({ name: "PodTopologySpread", weight: 2 });
      },
      wantErrs: [],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const cfg = validConfig();
      tc.mutate(cfg);
      const got = validateConfig(cfg, registry).map(({ type, field }) => ({ type, field }));
      expect(got).toEqual(tc.wantErrs);
    });
  }

  it("invalid-plugin-args", () => {
    // upstream hands DefaultPreemption an InterPodAffinityArgs object; here args are typed by
    // their kind when the file is decoded, so the same mistake is a kind mismatch.
    const text = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      kind: InterPodAffinityArgs
      apiVersion: kubescheduler.config.k8s.io/v1
`;
    expect(() => loadConfig(text, { registry })).toThrowError(ConfigError);
    try {
      loadConfig(text, { registry });
    } catch (e) {
      expect((e as ConfigError).errors).toEqual([
        'profiles[0].pluginConfig[0].args: Invalid value: "InterPodAffinityArgs": args for plugin DefaultPreemption were not of type DefaultPreemptionArgs.kubescheduler.config.k8s.io, got InterPodAffinityArgs.kubescheduler.config.k8s.io',
      ]);
    }
  });
});

describe("validation messages", () => {
  const cases: { name: string; mutate: Mutation; want: string[] }[] = [
    {
      name: "leader election durations and their order",
      mutate: (c) => {
        c.leaderElection.leaseDuration = 5_000;
        c.leaderElection.renewDeadline = 10_000;
        c.leaderElection.retryPeriod = 0;
      },
      want: [
        'leaderElection.retryPeriod: Invalid value: "0s": must be greater than zero',
        'leaderElection.leaseDuration: Invalid value: "10s": LeaseDuration must be greater than RenewDeadline',
      ],
    },
    {
      name: "leader election checks are skipped when not leader-electing",
      mutate: (c) => {
        c.leaderElection.leaderElect = false;
        c.leaderElection.resourceLock = "endpoints";
        c.leaderElection.leaseDuration = 0;
      },
      want: [],
    },
    {
      name: "backoff",
      mutate: (c) => {
        c.podInitialBackoffSeconds = 5;
        c.podMaxBackoffSeconds = 2;
      },
      want: [
        "podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds",
      ],
    },
    {
      name: "initial backoff",
      mutate: (c) => {
        c.podInitialBackoffSeconds = 0;
      },
      want: ["podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"],
    },
    {
      name: "negative burst",
      mutate: (c) => {
        c.clientConnection.burst = -1;
      },
      want: ["clientConnection.burst: Invalid value: -1: must be non-negative"],
    },
    {
      name: "no profiles",
      mutate: (c) => {
        c.profiles = [];
      },
      want: ["profiles: Required value"],
    },
    {
      name: "unknown plugins anywhere are reported with their path",
      mutate: (c) => {
        at(c, 0).plugins.filter.enabled.push({ name: "PodTopologySpread" }, { name: "Foo" });
        at(c, 1).plugins.multiPoint.enabled.push({ name: "Bar" });
      },
      want: [
        'profiles[0].plugins.filter.enabled[1].name: Not found: "Foo"',
        'profiles[1].plugins.multiPoint.enabled[0].name: Not found: "Bar"',
      ],
    },
    {
      name: "a negative plugin weight, at any extension point",
      mutate: (c) => {
        at(c, 0).plugins.score.enabled.push({ name: "PodTopologySpread", weight: -2 });
        at(c, 1).plugins.multiPoint.enabled.push({ name: "PodTopologySpread", weight: -1 });
        at(c, 1).plugins.score.enabled.push({ name: "TaintToleration", weight: 0 });
      },
      want: [
        "profiles[0].plugins.score.enabled[0].weight: Invalid value: -2: must be greater than or equal to 0",
        "profiles[1].plugins.multiPoint.enabled[0].weight: Invalid value: -1: must be greater than or equal to 0",
      ],
    },
    {
      name: "unknown and removed pluginConfig names",
      mutate: (c) => {
        at(c, 0).pluginConfig.push({ name: "Foo", args: {} }, { name: "GCEPDLimits", args: undefined });
      },
      want: [
        'profiles[0].pluginConfig[1].name: Not found: "Foo"',
        'profiles[0].pluginConfig[2]: Invalid value: "GCEPDLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
      ],
    },
    {
      name: "more than one queue sort plugin",
      mutate: (c) => {
        for (const p of c.profiles) p.plugins.queueSort.enabled.push({ name: "AnotherSort" });
      },
      want: [
        "profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled",
      ],
    },
    {
      name: "queue sort args must match",
      mutate: (c) => {
        at(c, 0).pluginConfig.push({ name: "CustomSort", args: { a: 1 } });
        at(c, 1).pluginConfig.push({ name: "CustomSort", args: { a: 2 } });
      },
      want: [
        'profiles[1].pluginConfig.args: Invalid value: {"a":2}: queueSort must be the same for all profiles',
      ],
    },
    {
      name: "extender managed resources must be extended resource names",
      mutate: (c) => {
        c.extenders[0]!.managedResources = [
          { name: "cpu", ignoredByScheduler: false },
          { name: "not a name", ignoredByScheduler: false },
        ];
      },
      want: [
        'extenders[0].managedResources[0].name: Invalid value: "cpu": is an invalid extended resource name',
        "extenders[0].managedResources[1].name: Invalid value: \"not a name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    },
    {
      name: "extender weight must stay below MaxWeight",
      mutate: (c) => {
        c.extenders[0]!.weight = 2 ** 62;
      },
      want: [
        "extenders[0].weight: Invalid value: 4611686018427388000: must be less than MaxWeight (MaxInt64 / 10)",
      ],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const cfg = validConfig();
      tc.mutate(cfg);
      expect(validateConfig(cfg, registry).map(formatFieldError)).toEqual(tc.want);
    });
  }
});
