// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types.go (KubeSchedulerConfiguration,
// KubeSchedulerProfile, Plugins, PluginSet, Plugin, PluginConfig, Extender) and component-base
// config/v1alpha1 (LeaderElectionConfiguration, ClientConnectionConfiguration), with the defaults
// of pkg/scheduler/apis/config/v1/defaults.go and the field rules of
// pkg/scheduler/apis/config/validation/validation.go.
//
// The one declaration of kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration: a TypeBox
// schema of the v1 JSON read by @kubesched/framework's args adapter (defineV1Object). The
// TypeScript types below, strict decoding (decode.ts), defaults (defaults.ts), the field rules
// validation applies (validation.ts), the JSON Schema (schema.ts) and encoding (encode.ts) all
// derive from it. Field names are the v1 JSON names; durations, which v1 writes as Go duration
// strings ("15s"), are milliseconds here. Fields are declared in types.go's order: decoding
// reports errors and encoding writes fields in that order.
import {
  argRules,
  defineV1Object,
  fieldErrors,
  MaxCustomPriorityScore,
  type StaticDecode,
  Type,
} from "@kubesched/framework";
import { formatDuration, parseDuration } from "./duration";

export const GroupName = "kubescheduler.config.k8s.io";
export const APIVersion = "kubescheduler.config.k8s.io/v1";
export const Kind = "KubeSchedulerConfiguration";
/** upstream: v1.DefaultSchedulerName */
export const DefaultSchedulerName = "default-scheduler";
/** upstream: config.DefaultPercentageOfNodesToScore (0 = adaptive). */
export const DefaultPercentageOfNodesToScore = 0;
/** upstream: config.MaxCustomPriorityScore (declared once, by the framework's plugin args). */
export { MaxCustomPriorityScore };
/** upstream: config.MaxTotalScore (math.MaxInt64 = 2^63 - 1), as the nearest float. */
export const MaxTotalScore = 2 ** 63;
/** upstream: config.MaxWeight = MaxTotalScore / MaxCustomPriorityScore */
export const MaxWeight = MaxTotalScore / MaxCustomPriorityScore;
/** upstream: pkg/scheduler/extender.go DefaultExtenderTimeout (5s), in milliseconds. */
export const DefaultExtenderTimeoutMs = 5000;

/** The extension points of v1 Plugins, in upstream's mergePlugins order. */
export const pluginSetNames = [
  "multiPoint",
  "preEnqueue",
  "queueSort",
  "preFilter",
  "filter",
  "postFilter",
  "preScore",
  "score",
  "reserve",
  "permit",
  "preBind",
  "bind",
  "postBind",
] as const;

export type PluginSetName = (typeof pluginSetNames)[number];

/**
 * Workload-aware scheduling points (1.36+, alpha/beta-off in 1.37) that kubesched does not run:
 * decoded strictly and refused when they enable a plugin; left out of the JSON Schema.
 */
export const unsupportedPluginSets = ["placementGenerate", "placementScore", "podGroupPostFilter"] as const;

// ---------------------------------------------------------------------------------------------
// Field types shared by the declaration.

const int32Min = -2147483648;
const int32Max = 2147483647;

/** An int32 field: an integer that must fit in 32 bits (decoding reports the others). */
function Int32(options: Parameters<typeof Type.Integer>[0] = {}) {
  return Type.Transform(Type.Integer(options))
    .Decode((v) => {
      if (v < int32Min || v > int32Max) throw new Error("must fit in a 32-bit integer");
      return v;
    })
    .Encode((v) => v);
}

/** A metav1.Duration field: a Go duration string in v1 JSON, milliseconds here. */
function Duration(options: { default?: string } = {}) {
  return Type.Transform(
    Type.String({
      description: 'A Go duration, e.g. "15s", "1m30s", "500ms".',
      pattern: "^[-+]?(0|((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+)$",
      ...options,
    }),
  )
    .Decode((s) => {
      const ms = parseDuration(s);
      if (ms === undefined) throw new Error('must be a duration such as "15s", "1m30s" or "500ms"');
      return ms;
    })
    .Encode(formatDuration);
}

/** percentageOfNodesToScore, global or per profile (upstream validatePercentageOfNodesToScore). */
function Percentage(options: { default?: number } = {}) {
  return argRules(Int32({ minimum: 0, maximum: 100, ...options }), { message: "not in valid range [0-100]" });
}

// ---------------------------------------------------------------------------------------------
// KubeSchedulerProfile: Plugins, PluginSet, Plugin, PluginConfig.

/**
 * A plugin's weight: an int32 that is not negative. Upstream's v1 validation does not check it
 * (a negative weight turns the plugin's scores upside down); kubesched refuses it with
 * apimachinery's wording for non-negative fields.
 */
export const pluginWeight = argRules(Int32({ minimum: 0, maximum: int32Max }), {
  message: "must be greater than or equal to 0",
});

const pluginFields = Type.Object({
  name: Type.String(),
  weight: Type.Optional(pluginWeight),
});

/** upstream Plugin: a plugin name and, for Score plugins, a weight. */
export type PluginEntry = StaticDecode<typeof pluginFields>;

/** A Plugin entry (`$id` names it in the JSON Schema); one without a name is an error and is dropped. */
function Plugin(id: "Plugin" | "DisabledPlugin") {
  return Type.Transform(Type.Object(pluginFields.properties, { $id: id }))
    .Decode((p): PluginEntry => {
      if (p.name === undefined) throw fieldErrors.required("name");
      return p.weight === undefined ? { name: p.name } : { name: p.name, weight: p.weight };
    })
    .Encode((p) => p);
}

const pluginSet = Type.Object(
  {
    enabled: argRules(Type.Array(Plugin("Plugin")), { omitEmpty: true }),
    disabled: argRules(Type.Array(Plugin("DisabledPlugin")), { omitEmpty: true }),
  },
  { $id: "PluginSet" },
);

/** upstream PluginSet: the plugins enabled and disabled at one extension point. */
export type PluginSet = StaticDecode<typeof pluginSet>;

const extensionPoint = argRules(pluginSet, { required: false });

const unsupportedPoint = Type.Optional(
  Type.Transform(pluginSet)
    .Decode((set) => {
      if (set.enabled?.length) {
        throw fieldErrors.forbidden(
          "",
          "workload-aware scheduling extension points are not supported by kubesched",
        );
      }
      return set;
    })
    .Encode((set) => set),
);

const plugins = Type.Transform(
  Type.Object(
    {
      ...(Object.fromEntries(pluginSetNames.map((p) => [p, extensionPoint])) as Record<
        PluginSetName,
        typeof extensionPoint
      >),
      ...(Object.fromEntries(unsupportedPluginSets.map((p) => [p, unsupportedPoint])) as Record<
        (typeof unsupportedPluginSets)[number],
        typeof unsupportedPoint
      >),
    },
    { $id: "Plugins" },
  ),
)
  .Decode((all): Record<PluginSetName, PluginSet> => {
    const out = {} as Record<PluginSetName, PluginSet>;
    for (const p of pluginSetNames) if (all[p] !== undefined) out[p] = all[p];
    return out;
  })
  .Encode((sets) => sets);

/** upstream Plugins: one PluginSet per extension point, and multiPoint. */
export type Plugins = StaticDecode<typeof plugins>;

const pluginConfigFields = Type.Object({
  name: Type.String(),
  args: Type.Optional(Type.Unknown({ type: ["object", "null"] })),
});

/** A pluginConfig entry; its args are decoded and defaulted by the plugin's args spec (registry). */
export type PluginConfigEntry = StaticDecode<typeof pluginConfigFields>;

const pluginConfig = Type.Transform(Type.Object(pluginConfigFields.properties, { $id: "PluginConfig" }))
  .Decode((c): PluginConfigEntry => {
    if (c.name === undefined) throw fieldErrors.required("name");
    return { name: c.name, args: c.args };
  })
  .Encode((c) => c);

const profile = argRules(
  Type.Object(
    {
      // Only a single profile gets the default scheduler name (defaults.ts); validation requires
      // one (upstream field.Required(path, ""): no detail).
      schedulerName: argRules(Type.String({ minLength: 1 }), { required: false, message: "" }),
      percentageOfNodesToScore: Type.Optional(Percentage()),
      // Merged with the default plugins and their args by defaults.ts (they depend on the release's
      // feature gates and on the registry).
      plugins: argRules(plugins, { required: false }),
      pluginConfig: argRules(Type.Array(pluginConfig), { required: false }),
    },
    { $id: "KubeSchedulerProfile" },
  ),
  { emptyWhenInvalid: true },
);

/** upstream KubeSchedulerProfile, defaulted: the v1 profile the runtime builds a framework from. */
export type ProfileConfig = StaticDecode<typeof profile>;

// ---------------------------------------------------------------------------------------------
// Extender.

const extenderTLSConfig = argRules(
  Type.Object({
    insecure: Type.Optional(Type.Boolean()),
    serverName: Type.Optional(Type.String()),
    certFile: Type.Optional(Type.String()),
    keyFile: Type.Optional(Type.String()),
    caFile: Type.Optional(Type.String()),
    // base64, as in v1 JSON ([]byte).
    certData: Type.Optional(Type.String({ contentEncoding: "base64" })),
    keyData: Type.Optional(Type.String({ contentEncoding: "base64" })),
    caData: Type.Optional(Type.String({ contentEncoding: "base64" })),
  }),
  { emptyWhenInvalid: true },
);

export type ExtenderTLSConfig = StaticDecode<typeof extenderTLSConfig>;

const extenderManagedResource = argRules(
  Type.Object({
    name: Type.String(),
    ignoredByScheduler: argRules(Type.Boolean(), { omitEmpty: true }),
  }),
  { emptyWhenInvalid: true },
);

export type ExtenderManagedResource = StaticDecode<typeof extenderManagedResource>;

const extender = argRules(
  Type.Object(
    {
      urlPrefix: Type.String(),
      filterVerb: argRules(Type.String(), { omitEmpty: true }),
      preemptVerb: argRules(Type.String(), { omitEmpty: true }),
      prioritizeVerb: argRules(Type.String(), { omitEmpty: true }),
      weight: argRules(Type.Integer(), { omitEmpty: true }),
      bindVerb: argRules(Type.String(), { omitEmpty: true }),
      enableHTTPS: argRules(Type.Boolean(), { omitEmpty: true }),
      tlsConfig: Type.Optional(extenderTLSConfig),
      // upstream applies the 5s default when building the extender; zero means unset.
      httpTimeout: argRules(Duration({ default: formatDuration(DefaultExtenderTimeoutMs) }), {
        defaultWhenZero: true,
      }),
      nodeCacheCapable: argRules(Type.Boolean(), { omitEmpty: true }),
      managedResources: argRules(Type.Array(extenderManagedResource), { omitEmpty: true }),
      ignorable: argRules(Type.Boolean(), { omitEmpty: true }),
    },
    { $id: "Extender" },
  ),
  { emptyWhenInvalid: true },
);

export type Extender = StaticDecode<typeof extender>;

// ---------------------------------------------------------------------------------------------
// component-base: leader election and the client connection. Zero values mean unset (Go's
// non-pointer fields), hence defaultWhenZero.

const leaderElection = Type.Object({
  leaderElect: Type.Boolean({ default: true }),
  leaseDuration: argRules(Duration({ default: "15s" }), { defaultWhenZero: true }),
  renewDeadline: argRules(Duration({ default: "10s" }), { defaultWhenZero: true }),
  retryPeriod: argRules(Duration({ default: "2s" }), { defaultWhenZero: true }),
  // The enum tells editors what validation accepts while leader-electing (validation.ts).
  resourceLock: argRules(Type.String({ enum: ["leases"], default: "leases" }), { defaultWhenZero: true }),
  resourceName: argRules(Type.String({ default: "kube-scheduler" }), { defaultWhenZero: true }),
  resourceNamespace: argRules(Type.String({ default: "kube-system" }), { defaultWhenZero: true }),
});

export type LeaderElectionConfiguration = StaticDecode<typeof leaderElection>;

const clientConnection = Type.Object({
  kubeconfig: argRules(Type.String(), { required: false }),
  acceptContentTypes: argRules(Type.String(), { required: false }),
  contentType: argRules(Type.String({ default: "application/vnd.kubernetes.protobuf" }), {
    defaultWhenZero: true,
  }),
  qps: argRules(Type.Number({ default: 50 }), { defaultWhenZero: true }),
  burst: argRules(Int32({ minimum: 0, default: 100 }), {
    defaultWhenZero: true,
    message: "must be non-negative",
  }),
});

export type ClientConnectionConfiguration = StaticDecode<typeof clientConnection>;

// ---------------------------------------------------------------------------------------------
// KubeSchedulerConfiguration.

/** The declaration and what the adapter derives from it (decode, defaults, rules, encode, schema). */
export const configuration = defineV1Object(
  Type.Object({
    apiVersion: Type.Literal(APIVersion, { default: APIVersion }),
    kind: Type.Literal(Kind, { default: Kind }),
    parallelism: argRules(Int32({ minimum: 1, maximum: int32Max, default: 16 }), {
      message: "should be an integer value greater than zero",
    }),
    leaderElection: argRules(leaderElection, { required: false }),
    clientConnection: argRules(clientConnection, { required: false }),
    enableProfiling: Type.Boolean({ default: true }),
    // Contention profiling defaults to on only when profiling is on (defaults.ts).
    enableContentionProfiling: Type.Boolean({ default: true }),
    percentageOfNodesToScore: Percentage({ default: DefaultPercentageOfNodesToScore }),
    podInitialBackoffSeconds: argRules(Type.Integer({ minimum: 1, default: 1 }), {
      message: "must be greater than 0",
    }),
    // The minimum tells editors; validation compares with podInitialBackoffSeconds (validation.ts).
    podMaxBackoffSeconds: Type.Integer({ minimum: 1, default: 10 }),
    profiles: argRules(Type.Array(profile), { required: false }),
    extenders: argRules(Type.Array(extender), { omitEmpty: true }),
    delayCacheUntilActive: argRules(Type.Boolean({ default: false }), { omitEmpty: true }),
  }),
);

/** A fully defaulted KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). */
export type KubeSchedulerConfiguration = StaticDecode<typeof configuration.schema>;
