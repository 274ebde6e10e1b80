// kube-scheduler's --feature-gates and --emulated-version, as component-base parses and applies
// them (upstream: staging/src/k8s.io/component-base/featuregate/feature_gate.go `Set`,
// `unsafeSetFromMap`, `featureSpecAtEmulationVersion`, `setUnsetAlphaGates`;
// compatibility/registry.go `toVersionMap`, `Set`; compatibility/version.go `Validate`;
// cli/flag/colon_separated_multimap_string_string.go; apimachinery util/version `parse`),
// read at component-base v0.33.0 … v0.37.0-beta.0. kubesched is a 1.37 binary that emulates
// 1.33–1.37 (upstream's binary reaches back three minors); the gate table is
// `feature-gate-table.ts`.
import { type VersionInfo, versionInfoMinor } from "@kubesched/api";
import { defaultFeatures, type Features } from "@kubesched/framework";
import { type Dependencies, dependenciesAt } from "./feature-gate-dependencies";
import { type GateRow, gateRows, removedGateRows } from "./feature-gate-table";

/** The Kubernetes releases kubesched emulates, oldest first. */
export const supportedReleases = ["1.33", "1.34", "1.35", "1.36", "1.37"] as const;

/** A release kubesched emulates (`major.minor`). */
export type Release = (typeof supportedReleases)[number];

/** The newest release: the default of --emulated-version. */
export const newestRelease: Release = "1.37";

/** A feature's maturity (component-base `prerelease`); PreAlpha: not yet in that release. */
export type PreRelease = "PreAlpha" | "Alpha" | "Beta" | "GA" | "Deprecated";

/** A gate at one release (component-base `FeatureSpec`). */
export interface FeatureSpec {
  default: boolean;
  preRelease: PreRelease;
  lockToDefault: boolean;
}

interface VersionedSpec extends FeatureSpec {
  /** major * 1000 + minor. */
  version: number;
}

interface Gate {
  specs: readonly VersionedSpec[];
  /** Last release whose binary knows the gate (removed rows: 1.36). */
  knownThrough: number;
}

const versionNumber = (text: string): number => {
  const [major = "0", minor = "0"] = text.split(".");
  return Number(major) * 1000 + Number(minor);
};

function readRow(row: GateRow, knownThrough: number): [string, Gate] {
  const [name, ...specs] = row;
  return [
    name,
    {
      knownThrough,
      specs: specs.map((s) => {
        const [version = "", def, preRelease, locked] = s.split(" ");
        return {
          version: versionNumber(version),
          default: def === "true",
          preRelease: preRelease as PreRelease,
          lockToDefault: locked === "locked",
        };
      }),
    },
  ];
}

const gates: ReadonlyMap<string, Gate> = new Map([
  ...gateRows.map((r) => readRow(r, versionNumber(newestRelease))),
  ...removedGateRows.map((r) => readRow(r, versionNumber("1.36"))),
]);

/** AllAlpha / AllBeta: set every unset Alpha (Beta) gate (component-base's "special" gates). */
const specialGates: Readonly<Record<string, PreRelease>> = { AllAlpha: "Alpha", AllBeta: "Beta" };

const preAlpha: FeatureSpec = { default: false, preRelease: "PreAlpha", lockToDefault: false };

/** The gate's spec at `release`, or undefined when that release's binary does not know it. */
export function featureGateSpec(name: string, release: Release): FeatureSpec | undefined {
  const gate = gates.get(name);
  const at = versionNumber(release);
  if (!gate || at > gate.knownThrough) return undefined;
  return specAt(gate, at);
}

// upstream featureSpecAtEmulationVersion: the last spec at or before the version; before the
// first one, PreAlpha (off).
function specAt(gate: Gate, at: number): FeatureSpec {
  let spec: FeatureSpec = preAlpha;
  for (const s of gate.specs) if (s.version <= at) spec = s;
  return spec;
}

/** Every gate name --feature-gates accepts when emulating `release`, sorted. */
export function knownFeatureGates(release: Release): string[] {
  const at = versionNumber(release);
  return [...gates]
    .filter(([, g]) => at <= g.knownThrough)
    .map(([name]) => name)
    .sort();
}

/** A --feature-gates or --emulated-version value upstream refuses; the message is upstream's. */
export class FeatureGateError extends Error {
  override name = "FeatureGateError";
}

// Go's utilerrors.NewAggregate(errs).Error(): one message as is, several in brackets.
const aggregate = (messages: readonly string[]): string =>
  messages.length === 1 ? (messages[0] ?? "") : `[${messages.join(", ")}]`;

/**
 * --emulated-version values (a string slice: repeatable, comma-separated; `1.35` or `kube=1.35`)
 * → the release; absent or empty: the newest. Throws FeatureGateError with upstream's wording.
 */
export function parseEmulatedVersion(values: readonly string[]): Release {
  const entries = values.flatMap((v) => (v === "" ? [] : v.split(",")));
  let chosen: { text: string; major: number; minor: number } | undefined;
  for (const entry of entries) {
    let component = "kube";
    let text = entry;
    const eq = entry.indexOf("=");
    if (eq >= 0) {
      component = entry.slice(0, eq).trim();
      text = entry.slice(eq + 1).trim();
    }
    const parsed = parseVersion(text);
    if (parsed.patch !== 0) {
      throw new FeatureGateError(`patch version not allowed, got: ${component}=${parsed.string}`);
    }
    if (component !== "kube") throw new FeatureGateError(`component not registered: ${component}`);
    if (chosen) {
      throw new FeatureGateError(
        `duplicate version flag, ${component}=${chosen.text} and ${component}=${parsed.string}`,
      );
    }
    chosen = { text: parsed.string, major: parsed.major, minor: parsed.minor };
  }
  if (!chosen) return newestRelease;
  const release = `${chosen.major}.${chosen.minor}`;
  if (!(supportedReleases as readonly string[]).includes(release)) {
    throw new FeatureGateError(
      `emulation version ${release} is not between [${supportedReleases[0]}, ${newestRelease}.0]`,
    );
  }
  return release as Release;
}

// apimachinery util/version parse(str, semver=false), with its messages.
function parseVersion(str: string): { major: number; minor: number; patch: number; string: string } {
  const m = /^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)*$/.exec(str);
  if (!m) throw new FeatureGateError(`could not parse ${goQuote(str)} as version`);
  const components = (m[1] ?? "").split(".");
  if (components.length < 2) throw new FeatureGateError(`illegal version string ${goQuote(str)}`);
  const numbers = components.map((c, i) => {
    if (i === 0 && c.startsWith("0") && c !== "0") {
      throw new FeatureGateError(`illegal zero-prefixed version component ${goQuote(c)} in ${goQuote(str)}`);
    }
    return Number(c);
  });
  const [major = 0, minor = 0, patch = 0] = numbers;
  return { major, minor, patch, string: numbers.join(".") };
}

const goQuote = (s: string): string => JSON.stringify(s);

/** What --feature-gates set, in the order given (a later value of a gate replaces an earlier one). */
export type FeatureGateSettings = ReadonlyMap<string, boolean>;

/**
 * --feature-gates values (repeatable; `A=true,B=false`, each entry optionally `kube:A=true`) →
 * the settings, checked against the gates of `release` as kube-scheduler checks them. Throws
 * FeatureGateError with upstream's message: malformed entries, unknown gates, non-boolean values,
 * locked gates set to the other value, gates the release does not have yet, and (from 1.35) an
 * enabled gate whose dependency is disabled.
 */
export function parseFeatureGates(values: readonly string[], release: Release): FeatureGateSettings {
  // cli/flag ColonSeparatedMultimapStringString (default empty key allowed) over every value.
  const byComponent = new Map<string, string[]>();
  for (const value of values) {
    for (const pair of value.split(",")) {
      if (pair.length === 0) continue;
      const colon = pair.indexOf(":");
      const key = colon < 0 ? "" : pair.slice(0, colon).trim();
      const entry = (colon < 0 ? pair : pair.slice(colon + 1)).trim();
      byComponent.set(key, [...(byComponent.get(key) ?? []), entry]);
    }
  }
  if (byComponent.has("") && byComponent.has("kube")) {
    throw new FeatureGateError(
      "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use",
    );
  }
  for (const component of byComponent.keys()) {
    if (component !== "" && component !== "kube")
      throw new FeatureGateError(`component not registered: ${component}`);
  }
  const flagValue = [...byComponent.values()].flat().join(",");
  // featureGate.Set: "key1=value1,key2=value2" into a map (the last value of a key wins).
  const settings = new Map<string, boolean>();
  for (const s of flagValue.split(",")) {
    if (s.length === 0) continue;
    const eq = s.indexOf("=");
    const key = (eq < 0 ? s : s.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${key}`);
    const text = s.slice(eq + 1).trim();
    const value = parseGoBool(text);
    if (value === undefined) {
      throw new FeatureGateError(
        `invalid value of ${key}=${text}, err: strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`,
      );
    }
    settings.delete(key);
    settings.set(key, value);
  }
  // unsafeSetFromMap: an unknown gate ends the check; locked and not-yet-introduced gates are
  // collected. (Upstream walks a Go map, in no fixed order; here the order given.)
  const errors: string[] = [];
  // The default min compatibility version: the emulated version's previous minor.
  const [major, minor] = release.split(".").map(Number) as [number, number];
  const minCompatibility = `${major}.${minor - 1}`;
  for (const [key, value] of settings) {
    const spec = featureGateSpec(key, release);
    if (!spec) {
      errors.push(`unrecognized feature gate: ${key}`);
      throw new FeatureGateError(aggregate(errors));
    }
    if (spec.lockToDefault && spec.default !== value) {
      errors.push(`cannot set feature gate ${key} to ${value}, feature is locked to ${spec.default}`);
      continue;
    }
    if (specialGates[key]) continue;
    if (spec.preRelease === "PreAlpha") {
      errors.push(
        `cannot set feature gate ${key} to ${value}, feature is PreAlpha at emulated version ${release}, min compatibility version ${minCompatibility}`,
      );
    }
  }
  if (errors.length > 0) throw new FeatureGateError(aggregate(errors));
  const unmet = unmetDependencies(settings, release);
  if (unmet.length > 0) throw new FeatureGateError(aggregate(unmet));
  return settings;
}

const dependencyCache = new Map<Release, Dependencies>();

/** The gate dependencies kube-scheduler of `release` checks (none before 1.35), gate → its dependencies. */
export function featureGateDependencies(release: Release): Dependencies {
  let deps = dependencyCache.get(release);
  if (!deps) {
    deps = dependenciesAt(release, (gate) => featureGateSpec(gate, newestRelease) !== undefined);
    dependencyCache.set(release, deps);
  }
  return deps;
}

// unsafeSetFromMap, after the settings are accepted: every enabled gate (set, through AllAlpha /
// AllBeta, or by default) whose dependencies are not all enabled. Upstream walks a Go map, in no
// fixed order; here by gate name. A pair with a gate the release does not know is skipped (it
// cannot be enabled there).
function unmetDependencies(settings: FeatureGateSettings, release: Release): string[] {
  const messages: string[] = [];
  const known = (gate: string) => featureGateSpec(gate, release) !== undefined;
  for (const [gate, deps] of [...featureGateDependencies(release)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!known(gate) || !featureGateEnabled(gate, release, settings)) continue;
    const disabled = deps.filter((d) => known(d) && !featureGateEnabled(d, release, settings));
    if (disabled.length > 0) {
      messages.push(`${gate} is enabled, but depends on features that are disabled: [${disabled.join(" ")}]`);
    }
  }
  return messages;
}

// strconv.ParseBool.
function parseGoBool(text: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(text)) return false;
  return undefined;
}

/** Warnings kube-scheduler logs for settings it accepts (GA and deprecated gates). */
export function featureGateWarnings(settings: FeatureGateSettings, release: Release): string[] {
  const warnings: string[] = [];
  for (const [key, value] of settings) {
    const stage = featureGateSpec(key, release)?.preRelease;
    if (stage === "Deprecated" || stage === "GA") {
      warnings.push(
        `setting ${stage === "GA" ? "GA" : "deprecated"} feature gate ${key}=${value}. It will be removed in a future release.`,
      );
    }
  }
  return warnings;
}

/**
 * Whether `name` is on at `release` with `settings` applied: the explicit setting, else AllAlpha /
 * AllBeta for a gate of that stage, else the release's default. A gate the release does not know
 * is off (`enabled` of component-base panics for it; kubesched's callers only ask known names).
 */
export function featureGateEnabled(
  name: string,
  release: Release,
  settings: FeatureGateSettings = new Map(),
): boolean {
  const explicit = settings.get(name);
  if (explicit !== undefined) return explicit;
  const spec = featureGateSpec(name, release);
  if (!spec) return false;
  for (const [special, stage] of Object.entries(specialGates)) {
    const all = settings.get(special);
    if (all !== undefined && spec.preRelease === stage) return all;
  }
  return spec.default;
}

/**
 * Upstream gate name → the `Features` field plugins read (upstream pkg/scheduler/framework/
 * plugins/feature). A gate a release no longer has keeps the value it was locked to.
 */
export const featureGateOfField: Readonly<Record<keyof Features, string>> = {
  enableDRAPrioritizedList: "DRAPrioritizedList",
  enableDRAAdminAccess: "DRAAdminAccess",
  enableDRADeviceTaints: "DRADeviceTaints",
  enableDRASchedulerFilterTimeout: "DRASchedulerFilterTimeout",
  enableDRADeviceTaintRules: "DRADeviceTaintRules",
  enableDRAExtendedResource: "DRAExtendedResource",
  enableDRAPartitionableDevices: "DRAPartitionableDevices",
  enableConsumableCapacity: "DRAConsumableCapacity",
  enableDRADeviceBindingConditions: "DRADeviceBindingConditions",
  enableDRAResourceClaimDeviceStatus: "DRAResourceClaimDeviceStatus",
  enableDRAListTypeAttributes: "DRAListTypeAttributes",
  enableDRADeviceCompatibilityGroups: "DRADeviceCompatibilityGroups",
  enableDRADerivedAttributes: "DRADerivedAttributes",
  enableDRAOptionalNodeOperations: "DRAOptionalNodeOperations",
  enableDRAFractionalCapacityRange: "DRAFractionalCapacityRange",
  enableDRAPreemption: "DRAPreemption",
  enableDRANodeAllocatableResources: "DRANodeAllocatableResources",
  enableDynamicResourceAllocation: "DynamicResourceAllocation",
  enableVolumeAttributesClass: "VolumeAttributesClass",
  enableCSIMigrationPortworx: "CSIMigrationPortworx",
  enableNodeInclusionPolicyInPodTopologySpread: "NodeInclusionPolicyInPodTopologySpread",
  enableMatchLabelKeysInPodTopologySpread: "MatchLabelKeysInPodTopologySpread",
  enableInPlacePodVerticalScaling: "InPlacePodVerticalScaling",
  enableInPlacePodLevelResourcesVerticalScaling: "InPlacePodLevelResourcesVerticalScaling",
  enableSidecarContainers: "SidecarContainers",
  enableSchedulingQueueHint: "SchedulerQueueingHints",
  enableAsyncPreemption: "SchedulerAsyncPreemption",
  enablePodLevelResources: "PodLevelResources",
  enableStorageCapacityScoring: "StorageCapacityScoring",
  enableNodeDeclaredFeatures: "NodeDeclaredFeatures",
  enableTaintTolerationComparisonOperators: "TaintTolerationComparisonOperators",
  enableVolumeLimitScaling: "VolumeLimitScaling",
  enableOpportunisticBatching: "OpportunisticBatching",
};

/** The `Features` plugins read at `release` with `settings` applied. */
export function featuresAt(release: Release, settings: FeatureGateSettings = new Map()): Features {
  const features = { ...defaultFeatures };
  for (const [field, gate] of Object.entries(featureGateOfField) as [keyof Features, string][]) {
    const known = featureGateSpec(gate, release) !== undefined;
    // Gone from the release (GA, locked and removed): the behaviour it was locked to.
    features[field] = known ? featureGateEnabled(gate, release, settings) : lastDefault(gate);
  }
  return features;
}

/**
 * The `Features` a scheduler runs with: the defaults of `kubernetesVersion` (a release kubesched
 * emulates, `1.35` or `v1.35`; absent: the newest) with `features` over them. The CLI's
 * --emulated-version / --feature-gates and a library call giving a release and some features
 * derive the same gates through it. Throws FeatureGateError for a release kubesched does not emulate.
 */
export function featuresOf(
  kubernetesVersion: string | undefined,
  features: Partial<Features> = {},
): Features {
  return { ...featuresAt(parseEmulatedVersion(kubernetesVersion ? [kubernetesVersion] : [])), ...features };
}

/**
 * The release kubesched emulates for an API server's /version (`versionInfoMinor`: its emulated
 * version, else its gitVersion's major.minor); undefined when that is not a release kubesched emulates.
 */
export function emulatedReleaseOf(info: Partial<VersionInfo>): Release | undefined {
  const minor = versionInfoMinor(info);
  return supportedReleases.find((r) => r === minor);
}

function lastDefault(name: string): boolean {
  const specs = gates.get(name)?.specs;
  return specs?.at(-1)?.default ?? false;
}
