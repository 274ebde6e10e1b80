// upstream: pkg/scheduler/apis/config/validation/validation.go (ValidateKubeSchedulerConfiguration)
// and component-base config/validation (client connection, leader election). Plus kubesched's
// loudness rule: every plugin name enabled anywhere, and every pluginConfig name, must be in the
// registry.
//
// The checks run in upstream's order, which is not the fields' order. A field's own rule (range,
// required, with upstream's words) is declared with the field (types.ts) and applied here through
// the declaration; the rules across fields, and those needing the registry, are code as upstream's.
import { isExtendedResourceName, isQualifiedName } from "@kubesched/api";
import {
  defaultFeatures,
  defineV1Object,
  type Features,
  type FieldError,
  fieldErrors,
  type Registry,
  type TSchema,
} from "@kubesched/framework";
import type { CustomPlugins } from "./decode";
import { emptyPluginSet } from "./default-plugins";
import { formatDuration } from "./duration";
import {
  APIVersion,
  configuration,
  type Extender,
  type KubeSchedulerConfiguration,
  MaxWeight,
  type PluginSet,
  type Plugins,
  type ProfileConfig,
  pluginSetNames,
  pluginWeight,
} from "./types";

const fields = configuration.schema.properties;
const profileFields = fields.profiles.items.properties;

/** The rules the declaration states for one field of the configuration, at its path. */
function fieldRules(
  cfg: KubeSchedulerConfiguration,
  name: keyof typeof fields,
  features: Features,
): FieldError[] {
  return defineV1Object<TSchema>(fields[name]).validate(cfg[name], name, features);
}

/** The rules the declaration states for one field of a profile, at its path. */
function profileFieldRules(
  prof: ProfileConfig,
  path: string,
  name: keyof typeof profileFields,
  features: Features,
): FieldError[] {
  return defineV1Object<TSchema>(profileFields[name]).validate(prof[name], `${path}.${name}`, features);
}

/** Plugins removed from kubescheduler.config.k8s.io/v1 (upstream invalidPluginsByVersion). */
export const removedPlugins: readonly string[] = [
  "AzureDiskLimits",
  "CinderLimits",
  "EBSLimits",
  "GCEPDLimits",
];

const removedDetail = `was invalid in version "${APIVersion}" (KubeSchedulerConfiguration is version "${APIVersion}")`;

/** Canonical JSON (sorted keys, undefined dropped) for upstream's semantic DeepEqual. */
function canonical(v: unknown): string {
  if (v === undefined) return "null";
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function validateLeaderElection(cfg: KubeSchedulerConfiguration, errs: FieldError[]): void {
  const le = cfg.leaderElection;
  if (!le.leaderElect) return;
  const p = "leaderElection";
  if (le.leaseDuration <= 0) {
    errs.push(
      fieldErrors.invalid(
        `${p}.leaseDuration`,
        formatDuration(le.leaseDuration),
        "must be greater than zero",
      ),
    );
  }
  if (le.renewDeadline <= 0) {
    errs.push(
      fieldErrors.invalid(
        `${p}.renewDeadline`,
        formatDuration(le.renewDeadline),
        "must be greater than zero",
      ),
    );
  }
  if (le.retryPeriod <= 0) {
    errs.push(
      fieldErrors.invalid(`${p}.retryPeriod`, formatDuration(le.retryPeriod), "must be greater than zero"),
    );
  }
  if (le.leaseDuration <= le.renewDeadline) {
    errs.push(
      fieldErrors.invalid(
        `${p}.leaseDuration`,
        formatDuration(le.renewDeadline),
        "LeaseDuration must be greater than RenewDeadline",
      ),
    );
  }
  if (!le.resourceLock)
    errs.push(fieldErrors.invalid(`${p}.resourceLock`, le.resourceLock, "resourceLock is required"));
  if (!le.resourceNamespace) {
    errs.push(
      fieldErrors.invalid(`${p}.resourceNamespace`, le.resourceNamespace, "resourceNamespace is required"),
    );
  }
  if (!le.resourceName)
    errs.push(fieldErrors.invalid(`${p}.resourceName`, le.resourceName, "resourceName is required"));
}

/**
 * Every enabled name must be registered (removed plugins get upstream's message instead), and
 * every weight must follow its declared rule.
 */
function validatePluginEntries(
  plugins: CustomPlugins,
  path: string,
  registry: Registry,
  features: Features,
  errs: FieldError[],
): void {
  const weight = defineV1Object(pluginWeight);
  for (const point of pluginSetNames) {
    const set = plugins[point];
    if (!set) continue;
    (set.enabled ?? []).forEach((p, k) => {
      const at = `${path}.${point}.enabled[${k}]`;
      if (removedPlugins.includes(p.name)) errs.push(fieldErrors.invalid(at, p.name, removedDetail));
      else if (!registry.has(p.name)) errs.push(fieldErrors.notFound(`${at}.name`, p.name));
      if (p.weight !== undefined) errs.push(...weight.validate(p.weight, `${at}.weight`, features));
    });
  }
}

/**
 * Default plugins kept by the merge must be registered too (a runner whose registry lacks an
 * in-tree plugin would otherwise fail late, at framework construction).
 */
function validateDefaultPluginNames(
  merged: Plugins,
  custom: CustomPlugins | undefined,
  path: string,
  registry: Registry,
  errs: FieldError[],
): void {
  const userNames = new Set((custom?.multiPoint?.enabled ?? []).map((p) => p.name));
  merged.multiPoint.enabled.forEach((p, m) => {
    if (userNames.has(p.name) || registry.has(p.name) || removedPlugins.includes(p.name)) return;
    errs.push({
      type: "NotFound",
      field: `${path}.multiPoint.enabled[${m}].name`,
      badValue: p.name,
      detail: "a default plugin is missing from the plugin registry",
    });
  });
}

function validatePluginConfig(
  profile: ProfileConfig,
  path: string,
  registry: Registry,
  features: Features,
  errs: FieldError[],
): void {
  const seen = new Set<string>();
  profile.pluginConfig.forEach((pc, j) => {
    const at = `${path}.pluginConfig[${j}]`;
    if (seen.has(pc.name)) errs.push(fieldErrors.duplicate(at, pc.name));
    else seen.add(pc.name);
    if (removedPlugins.includes(pc.name)) {
      errs.push(fieldErrors.invalid(at, pc.name, removedDetail));
      return;
    }
    const descriptor = registry.get(pc.name);
    if (!descriptor) {
      errs.push(fieldErrors.notFound(`${at}.name`, pc.name));
      return;
    }
    if (descriptor.args) errs.push(...descriptor.args.validate(pc.args, `${at}.args`, features));
  });
}

function validateCommonQueueSort(profiles: readonly ProfileConfig[], errs: FieldError[]): void {
  const first = profiles[0];
  if (!first) return;
  const canon = first.plugins.queueSort;
  const queueSortName = canon.enabled[0]?.name ?? "";
  if (canon.enabled.length > 1) {
    // "Enabled" is capitalised in upstream's field path.
    errs.push(
      fieldErrors.invalid(
        "profiles[0].plugins.queueSort.Enabled",
        canon.enabled.length,
        "only one queue sort plugin can be enabled",
      ),
    );
  }
  const queueSortArgs = queueSortName
    ? first.pluginConfig.find((c) => c.name === queueSortName)?.args
    : undefined;
  for (let i = 1; i < profiles.length; i++) {
    const prof = profiles[i]!;
    const curr: PluginSet = prof.plugins?.queueSort ?? emptyPluginSet();
    if (!deepEqual(canon, curr)) {
      errs.push(
        fieldErrors.invalid(`profiles[${i}].plugins.queueSort`, curr, "must be the same for all profiles"),
      );
    }
    for (const c of prof.pluginConfig) {
      if (queueSortName && c.name === queueSortName && !deepEqual(queueSortArgs, c.args)) {
        errs.push(
          fieldErrors.invalid(
            `profiles[${i}].pluginConfig.args`,
            c.args,
            "queueSort must be the same for all profiles",
          ),
        );
      }
    }
  }
}

function validateExtenders(extenders: readonly Extender[], errs: FieldError[]): void {
  let binders = 0;
  const managed = new Set<string>();
  extenders.forEach((e, i) => {
    const path = `extenders[${i}]`;
    if (e.prioritizeVerb.length > 0 && e.weight <= 0) {
      errs.push(fieldErrors.invalid(`${path}.weight`, e.weight, "must have a positive weight applied to it"));
    }
    if (e.weight >= MaxWeight) {
      errs.push(
        fieldErrors.invalid(`${path}.weight`, e.weight, "must be less than MaxWeight (MaxInt64 / 10)"),
      );
    }
    if (e.bindVerb !== "") binders++;
    e.managedResources.forEach((r, j) => {
      const at = `${path}.managedResources[${j}].name`;
      const msgs = isQualifiedName(r.name);
      for (const m of msgs) errs.push(fieldErrors.invalid(at, r.name, m));
      if (msgs.length === 0 && !isExtendedResourceName(r.name)) {
        errs.push(fieldErrors.invalid(at, r.name, "is an invalid extended resource name"));
      }
      if (managed.has(r.name))
        errs.push(fieldErrors.invalid(at, r.name, "duplicate extender managed resource name"));
      managed.add(r.name);
    });
  });
  if (binders > 1) {
    errs.push(
      fieldErrors.invalid(
        "extenders",
        `found ${binders} extenders implementing bind`,
        "only one extender can implement bind",
      ),
    );
  }
}

/** What loadConfig knows about the file: each profile's plugins as written (for file indices). */
export interface ValidationSource {
  customPlugins: readonly (CustomPlugins | undefined)[];
}

export function validateConfigWithSource(
  cfg: KubeSchedulerConfiguration,
  registry: Registry,
  features: Features,
  source: ValidationSource | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...fieldRules(cfg, "clientConnection", features));
  validateLeaderElection(cfg, errs);
  if (cfg.leaderElection.leaderElect && cfg.leaderElection.resourceLock !== "leases") {
    errs.push(
      fieldErrors.invalid(
        "leaderElection.resourceLock",
        cfg.leaderElection.resourceLock,
        'resourceLock value must be "leases"',
      ),
    );
  }
  errs.push(...fieldRules(cfg, "parallelism", features));
  if (cfg.profiles.length === 0) {
    errs.push(fieldErrors.required("profiles"));
  } else {
    const existing = new Map<string, number>();
    cfg.profiles.forEach((prof, i) => {
      const path = `profiles[${i}]`;
      errs.push(
        ...profileFieldRules(prof, path, "schedulerName", features),
        ...profileFieldRules(prof, path, "percentageOfNodesToScore", features),
      );
      if (source) {
        const custom = source.customPlugins[i];
        if (custom) validatePluginEntries(custom, `${path}.plugins`, registry, features, errs);
        validateDefaultPluginNames(prof.plugins, custom, `${path}.plugins`, registry, errs);
      } else {
        validatePluginEntries(prof.plugins, `${path}.plugins`, registry, features, errs);
      }
      validatePluginConfig(prof, path, registry, features, errs);
      const idx = existing.get(prof.schedulerName);
      if (idx !== undefined) {
        errs.push({
          type: "Duplicate",
          field: `${path}.schedulerName`,
          badValue: prof.schedulerName,
          detail: `already used by profiles[${idx}].schedulerName`,
        });
      }
      existing.set(prof.schedulerName, i);
    });
    validateCommonQueueSort(cfg.profiles, errs);
  }
  errs.push(
    ...fieldRules(cfg, "percentageOfNodesToScore", features),
    ...fieldRules(cfg, "podInitialBackoffSeconds", features),
  );
  if (cfg.podMaxBackoffSeconds < cfg.podInitialBackoffSeconds) {
    errs.push(
      fieldErrors.invalid(
        "podMaxBackoffSeconds",
        cfg.podMaxBackoffSeconds,
        "must be greater than or equal to PodInitialBackoffSeconds",
      ),
    );
  }
  validateExtenders(cfg.extenders, errs);
  return errs;
}

/**
 * Validates a defaulted configuration: upstream's rules, every plugin args object through its
 * spec, and every enabled or configured plugin name against the registry. Returns every error.
 */
export function validateConfig(
  cfg: KubeSchedulerConfiguration,
  registry: Registry,
  features: Features = defaultFeatures,
): FieldError[] {
  return validateConfigWithSource(cfg, registry, features, undefined);
}
