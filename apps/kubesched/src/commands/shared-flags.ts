// Flags several commands share, declared once with their types (see ../flags.ts).
import { quantityValue } from "@kubesched/api";
import { defaultMaxInputBytes, formatByteSize, type RecordedServerVersion } from "@kubesched/cluster";
import {
  emulatedReleaseOf,
  FeatureGateError,
  type FeatureGateSettings,
  featureGateOfField,
  featureGateWarnings,
  featuresAt,
  newestRelease,
  parseEmulatedVersion,
  parseFeatureGates,
  type Release,
  supportedReleases,
} from "@kubesched/config";
import type { Features } from "@kubesched/framework";
import { choiceFlag, FlagValueError, integer, invalidValue, listFlag, valueFlag } from "../flags";
import { type LoadedPluginPackage, pluginReleaseWarnings } from "../plugins/plugin-packages";

export const configFlag = valueFlag({
  name: "config",
  value: "FILE",
  description: "A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); default: upstream's defaults.",
});
/** Plugin packages to load, on every command that takes a configuration. */
export const pluginFlag = listFlag({
  name: "plugin",
  value: "PKG",
  description:
    "Load a plugin package (its default export: a plugin descriptor or a list) from the project's node_modules, then the global prefix, so profiles can enable its plugins; PKG[,PKG...]. Repeatable. Each package loaded is printed on stderr.",
});
/** An options file whose plugins: list is loaded, on every command that takes --plugin. */
export const optionsFlag = valueFlag({
  name: "options",
  value: "FILE",
  description:
    "A kubesched options file (kind: KubeschedOptions): load the packages of its plugins: list as with --plugin (resolved from its folder first). Only read when given.",
});
export const clusterFlag = listFlag({
  name: "cluster",
  value: "PATH",
  description:
    "Kubernetes objects (YAML or JSON: objects, lists, kubectl output); a directory means every *.yaml/*.yml/*.json in it. Repeatable.",
});
/**
 * `--max-input-size SIZE`: how much of the snapshot files is read, over all of them, before
 * loading stops with an error (the memory a load needs grows with what it reads).
 */
export const maxInputSizeFlag = valueFlag({
  name: "max-input-size",
  value: "SIZE",
  default: formatByteSize(defaultMaxInputBytes),
  description:
    "Stop reading snapshot files with an error past SIZE bytes over all of them (a quantity: 2Gi, 500M, 1048576); FIFOs and devices count what is read.",
  parse: (raw, flag) => {
    let n: number;
    try {
      n = quantityValue(raw);
    } catch {
      throw invalidValue(raw, flag, "must be a size in bytes such as 2Gi or 500M");
    }
    if (!Number.isFinite(n) || n < 1) throw invalidValue(raw, flag, "must be at least 1 byte");
    return Math.ceil(n);
  },
});
export const seedFlag = valueFlag({
  name: "seed",
  value: "N",
  default: "0",
  description: "Seed for tie-breaking and other random choices.",
  parse: integer(0, 0xffffffff, "must be an integer from 0 to 4294967295"),
});
export const outputFlag = choiceFlag({
  name: "output",
  short: "o",
  value: "FORMAT",
  values: ["table", "json", "yaml"],
  default: "table",
  description: "Output format.",
});
/** `--out FILE`: where a command writes `what` (its output) instead of stdout. */
export function outFlag(what?: string) {
  const description = `Write ${what ? `${what} ` : ""}to FILE instead of stdout.`;
  return valueFlag({ name: "out", value: "FILE", description });
}

/**
 * Reading the snapshot from an API server instead of --cluster (simulate, capacity, diff,
 * snapshot), the kubeconfig resolved as kubectl does.
 */
export const kubeconfigFlags = [
  valueFlag({
    name: "kubeconfig",
    value: "FILE",
    description:
      "Read the snapshot from the API server of this kubeconfig (listed once) instead of --cluster. Without it, --context (and snapshot) use kubectl's: $KUBECONFIG's files merged, else ~/.kube/config.",
  }),
  valueFlag({
    name: "context",
    value: "NAME",
    description: "Read from the cluster of this kubeconfig context instead of the current-context.",
  }),
  valueFlag({
    name: "namespace",
    short: "n",
    value: "NS",
    description: "Reading from a cluster: only this namespace's pending pods (running pods all count).",
  }),
  valueFlag({
    name: "selector",
    short: "l",
    value: "SELECTOR",
    description: "Reading from a cluster: only pending pods matching this label selector (e.g. app=web).",
  }),
] as const;

/** The cluster snapshot of simulate, capacity and diff: --cluster files (up to --max-input-size), or --kubeconfig / --context. */
export const clusterInputFlags = [clusterFlag, maxInputSizeFlag, ...kubeconfigFlags] as const;

/**
 * `--emulated-version` and `--feature-gates` as kube-scheduler takes them (component-base's
 * flags); read together by `readEmulation`, since which gates exist depends on the release.
 */
export const emulationFlags = [
  listFlag({
    name: "emulated-version",
    value: "VERSION",
    description: `The Kubernetes release to behave as: ${supportedReleases[0]}–${newestRelease} (1.35 or kube=1.35); its feature-gate defaults apply. Default ${newestRelease}.`,
  }),
  listFlag({
    name: "feature-gates",
    value: "A=true,B=false",
    description:
      "Feature gates over the emulated release's defaults, as kube-scheduler's flag (kube:A=true also works); every gate that release accepts. Repeatable.",
  }),
] as const;

/** The release and gates the emulation flags chose. */
export interface Emulation {
  release: Release;
  gates: FeatureGateSettings;
  /** What the plugins read (`Features`) at that release with the gates applied. */
  features: Features;
  /** Accepted settings kube-scheduler warns about, and gates kubesched does not read. */
  warnings: string[];
}

/**
 * The emulation flags' values checked as upstream checks them; a FlagValueError
 * (`invalid argument "RAW" for "--FLAG" flag: upstream's message`) for what it refuses.
 */
export function readEmulation(flags: { "emulated-version": string[]; "feature-gates": string[] }): Emulation {
  const refused = (flag: string, raw: readonly string[], e: unknown) => {
    if (!(e instanceof FeatureGateError)) throw e;
    return new FlagValueError(`invalid argument "${raw.join(",")}" for "--${flag}" flag: ${e.message}`);
  };
  let release: Release;
  try {
    release = parseEmulatedVersion(flags["emulated-version"]);
  } catch (e) {
    throw refused("emulated-version", flags["emulated-version"], e);
  }
  let gates: FeatureGateSettings;
  try {
    gates = parseFeatureGates(flags["feature-gates"], release);
  } catch (e) {
    throw refused("feature-gates", flags["feature-gates"], e);
  }
  const read = new Set(Object.values(featureGateOfField));
  const warnings = [
    ...featureGateWarnings(gates, release),
    ...[...gates]
      .filter(([name]) => !read.has(name) && name !== "AllAlpha" && name !== "AllBeta")
      .map(([name, value]) => `feature gate ${name}=${value} has no effect in kubesched`),
  ];
  return { release, gates, features: featuresAt(release, gates), warnings };
}

/** `readEmulation` with its warnings printed on stderr: what a command calls once. */
export function emulationOf(ctx: {
  flags: { "emulated-version": string[]; "feature-gates": string[] };
  io: { stderr(text: string): void };
}): Emulation {
  const emulation = readEmulation(ctx.flags);
  for (const w of emulation.warnings) ctx.io.stderr(`warning: ${w}\n`);
  return emulation;
}

/**
 * The emulation once the snapshot is loaded: without --emulated-version, the release of the API
 * server the snapshot records when kubesched emulates it (said on stderr, one line), else the
 * newest with a warning; `flagged` (what the flags chose) when --emulated-version is given or the
 * snapshot records no version. Gate warnings of the new release not printed already are printed.
 */
export function snapshotEmulation(
  ctx: {
    flags: { "emulated-version": string[]; "feature-gates": string[] };
    io: { stderr(text: string): void };
    pluginPackages: readonly LoadedPluginPackage[];
  },
  flagged: Emulation,
  recorded: RecordedServerVersion | undefined,
): Emulation {
  return warnPluginReleases(ctx, recordedEmulation(ctx, flagged, recorded));
}

function recordedEmulation(
  ctx: {
    flags: { "emulated-version": string[]; "feature-gates": string[] };
    io: { stderr(text: string): void };
  },
  flagged: Emulation,
  recorded: RecordedServerVersion | undefined,
): Emulation {
  if (recorded === undefined || ctx.flags["emulated-version"].some((v) => v.trim() !== "")) return flagged;
  const { info, origin } = recorded;
  const release = emulatedReleaseOf(info);
  if (release === undefined) {
    ctx.io.stderr(
      `warning: ${origin}: the cluster's API server is ${info.gitVersion}, not a release kubesched emulates (${supportedReleases[0]}–${newestRelease}); behaving as ${newestRelease} (--emulated-version chooses)\n`,
    );
    return flagged;
  }
  ctx.io.stderr(
    `emulating Kubernetes ${release}, the release of the cluster's API server (${info.gitVersion}); --emulated-version overrides\n`,
  );
  if (release === flagged.release) return flagged;
  const emulation = readEmulation({ ...ctx.flags, "emulated-version": [release] });
  const printed = new Set(flagged.warnings);
  for (const w of emulation.warnings) if (!printed.has(w)) ctx.io.stderr(`warning: ${w}\n`);
  return emulation;
}

/**
 * The emulation a command runs at, once final: the plugin packages loaded that do not implement
 * its release are warned about, one line each (`snapshotEmulation` calls it; `run` too).
 */
export function warnPluginReleases(
  ctx: { io: { stderr(text: string): void }; pluginPackages: readonly LoadedPluginPackage[] },
  emulation: Emulation,
): Emulation {
  for (const w of pluginReleaseWarnings(ctx.pluginPackages, emulation.release))
    ctx.io.stderr(`warning: ${w}\n`);
  return emulation;
}

/** What the scheduler takes from the emulation (SimulateOptions and SchedulerOptions fields). */
export function schedulerEmulation(e: Emulation): { features: Features; kubernetesVersion: Release } {
  return { features: e.features, kubernetesVersion: e.release };
}
