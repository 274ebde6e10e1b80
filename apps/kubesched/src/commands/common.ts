// Pieces every command shares.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import {
  capErrors,
  type LoadResult,
  loadSnapshotFiles,
  loadSnapshotTexts,
  SnapshotLoadError,
} from "@kubesched/cluster";
import {
  ConfigError,
  defaultConfig,
  type KubeSchedulerConfiguration,
  loadConfigFile,
} from "@kubesched/config";
import { customResourcesOf, defaultFeatures, type Features } from "@kubesched/framework";
import type { KubeObject } from "@kubesched/scheduler";
import type { CommandContext, FlagSpec } from "../cli";

/** Flags several commands share. */
export const configFlag: FlagSpec = {
  name: "config",
  value: "FILE",
  description: "A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); default: upstream's defaults.",
};
/** Plugin packages to load, on every command that takes a configuration. */
export const pluginFlag: FlagSpec = {
  name: "plugin",
  value: "PKG",
  repeatable: true,
  description:
    "Load a plugin package (its default export: a plugin descriptor or a list) from the project's node_modules, then the global prefix, so profiles can enable its plugins; PKG[,PKG...]. Repeatable. The plugins: list of a kubesched-options.yaml next to --config is loaded too.",
};
export const clusterFlag: FlagSpec = {
  name: "cluster",
  value: "PATH",
  repeatable: true,
  description:
    "Kubernetes objects (YAML or JSON: objects, lists, kubectl output); a directory means every *.yaml/*.yml/*.json in it. Repeatable.",
};
export const seedFlag: FlagSpec = {
  name: "seed",
  value: "N",
  default: "0",
  description: "Seed for tie-breaking and other random choices.",
};
export const outputFlag: FlagSpec = {
  name: "output",
  short: "o",
  value: "FORMAT",
  values: ["table", "json", "yaml"],
  default: "table",
  description: "Output format.",
};

/** Reading the snapshot from an API server instead of --cluster (simulate, capacity, diff, snapshot). */
export const kubeconfigFlags: FlagSpec[] = [
  {
    name: "kubeconfig",
    value: "FILE",
    description: "Read the snapshot from this cluster's API server (listed once) instead of --cluster.",
  },
  { name: "context", value: "NAME", description: "With --kubeconfig: the kubeconfig context to use." },
  {
    name: "namespace",
    short: "n",
    value: "NS",
    description: "With --kubeconfig: only this namespace's pending pods (running pods all count).",
  },
  {
    name: "selector",
    short: "l",
    value: "SELECTOR",
    description: "With --kubeconfig: only pending pods matching this label selector (e.g. app=web).",
  },
];

/** Lists the snapshot kinds from the API server of `--kubeconfig` [--context]; null after printing an error. */
export async function readClusterFlag(ctx: CommandContext): Promise<KubeObject[] | null> {
  const file = ctx.flags.kubeconfig as string;
  if (!existsSync(resolvePath(ctx, file))) {
    ctx.io.stderr(missingFileError(file));
    return null;
  }
  try {
    // @kubesched/kube (and @kubernetes/client-node under it) loads only when a command talks to a cluster.
    const { buildKubeConfig, readCluster } = await import("@kubesched/kube");
    const kc = buildKubeConfig(resolvePath(ctx, file));
    const context = ctx.flags.context;
    if (typeof context === "string") {
      if (!kc.getContextObject(context)) {
        ctx.io.stderr(`error: ${file}: no context named "${context}"\n`);
        return null;
      }
      kc.setCurrentContext(context);
    }
    return await readCluster(kc, {
      customResources: customResourcesOf(ctx.registry),
      ...(typeof ctx.flags.namespace === "string" ? { namespace: ctx.flags.namespace } : {}),
      ...(typeof ctx.flags.selector === "string" ? { selector: ctx.flags.selector } : {}),
    });
  } catch (e) {
    ctx.io.stderr(`error: ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
    return null;
  }
}

/**
 * The cluster snapshot of a command: `--cluster` files, or what `--kubeconfig` lists (checked and
 * expanded by the same loader). Returns a usage code (2) when neither or both are given.
 */
export async function loadClusterInput(ctx: CommandContext): Promise<LoadResult | 1 | 2> {
  const clusters = ctx.lists.cluster ?? [];
  const kubeconfig = ctx.flags.kubeconfig;
  if ((clusters.length === 0) === (typeof kubeconfig !== "string")) {
    ctx.io.stderr(
      "error: give either --cluster (a file or directory of Kubernetes objects) or --kubeconfig (read from a cluster)\n",
    );
    return 2;
  }
  if (typeof kubeconfig !== "string") return loadObjectsFlag(ctx, clusters) ?? 1;
  const objects = await readClusterFlag(ctx);
  if (objects === null) return 1;
  try {
    const name = `${kubeconfig} (API server).json`;
    return loadSnapshotTexts([{ name, text: JSON.stringify({ kind: "List", items: objects }) }], {
      customResources: customResourcesOf(ctx.registry),
    });
  } catch (e) {
    if (!(e instanceof SnapshotLoadError)) throw e;
    printErrors(ctx, e.errors);
    return 1;
  }
}

/** The one wording of a missing input file, whatever flag named it. */
export function missingFileError(file: string): string {
  return `error: ${file}: no such file or directory\n`;
}

/** Prints errors, at most 20 per input, then "and N more like this". */
export function printErrors(ctx: CommandContext, errors: readonly string[]): void {
  for (const line of capErrors(errors)) ctx.io.stderr(`error: ${line}\n`);
}

/** `--seed`, or null (after printing the usage error) when it is not a uint32. */
export function parseSeedFlag(ctx: CommandContext): number | null {
  const raw = ctx.flags.seed;
  const seed = typeof raw === "string" ? Number(raw) : 0;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    ctx.io.stderr(
      `error: invalid value "${String(raw)}" for --seed: must be an integer from 0 to 4294967295\n`,
    );
    return null;
  }
  return seed;
}

/**
 * Loads the files of a flag (`--cluster`, `--pod`): errors are printed capped and null is
 * returned; warnings (skipped kinds, inputs without objects) go to stderr.
 */
export function loadObjectsFlag(ctx: CommandContext, files: readonly string[]): LoadResult | null {
  const missing = files.filter((f) => !existsSync(resolvePath(ctx, f)));
  if (missing.length) {
    for (const f of missing) ctx.io.stderr(missingFileError(f));
    return null;
  }
  try {
    const loaded = loadSnapshotFiles(files, ctx.io.cwd, { customResources: customResourcesOf(ctx.registry) });
    for (const w of capErrors(loaded.warnings)) ctx.io.stderr(`warning: ${w}\n`);
    return loaded;
  } catch (e) {
    if (!(e instanceof SnapshotLoadError)) throw e;
    printErrors(ctx, e.errors);
    return null;
  }
}

/** A path from the command line, relative to the CLI's working directory. */
export function resolvePath(ctx: CommandContext, file: string): string {
  return isAbsolute(file) ? file : resolve(ctx.io.cwd, file);
}

/**
 * The configuration named by `--config`, or upstream's defaults without it. Configuration errors
 * are printed one per line, prefixed with the file (or "defaults"), and null is returned.
 */
export function loadConfigFlag(
  ctx: CommandContext,
  /** The file; null for upstream's defaults. */
  file: string | true | null | undefined = ctx.flags.config,
  /** Feature gates over the release's defaults (the default plugins and args depend on them). */
  features?: Partial<Features>,
): KubeSchedulerConfiguration | null {
  const all = features ? { ...defaultFeatures, ...features } : undefined;
  if (typeof file === "string" && !existsSync(resolvePath(ctx, file))) {
    ctx.io.stderr(missingFileError(file));
    return null;
  }
  try {
    return typeof file === "string"
      ? loadConfigFile(resolvePath(ctx, file), { registry: ctx.registry, features: all })
      : defaultConfig({ registry: ctx.registry, features: all });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    for (const line of e.errors) ctx.io.stderr(`${typeof file === "string" ? file : "defaults"}: ${line}\n`);
    printUnknownPluginHint(ctx, e.errors);
    return null;
  }
}

/** Levenshtein distance (for "did you mean"). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

/**
 * After configuration errors: for each plugin name the registry does not know, the registered name
 * it is probably a typo of, or how to load the package that provides it.
 */
export function printUnknownPluginHint(ctx: CommandContext, errors: readonly string[]): void {
  const names = new Set<string>();
  for (const line of errors) {
    const m = /\.name: Not found: "([^"]+)"$/.exec(line);
    if (m) names.add(m[1] as string);
  }
  for (const name of names) {
    const close = [...ctx.registry.keys()]
      .map((k) => [k, distance(k.toLowerCase(), name.toLowerCase())] as const)
      .filter(([, d]) => d <= 2)
      .sort((a, b) => a[1] - b[1])[0];
    ctx.io.stderr(
      close
        ? `hint: no plugin is named ${name}; did you mean ${close[0]}?\n`
        : `hint: no plugin is named ${name}: load the package that provides it with --plugin PKG, or list the package under plugins: in a kubesched-options.yaml next to the configuration\n`,
    );
  }
}
