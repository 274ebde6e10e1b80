// The inputs of commands: cluster snapshots (--cluster files or what --kubeconfig lists), object
// files (--pod), configurations (--config), paths relative to the working directory; their
// errors printed capped, with a did-you-mean hint for unknown plugin names.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { escapeTerminal } from "@kubesched/api";
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
import type { CommandContext, FlagValues } from "../cli";
import type { clusterInputFlags, kubeconfigFlags } from "./shared-flags";

/** What a helper that reads no flags takes: any command's context. */
type AnyContext = CommandContext<unknown>;

/** Lists the snapshot kinds from the API server of kubeconfig `file` [--context]; null after printing an error. */
export async function readClusterFlag(
  ctx: CommandContext<FlagValues<typeof kubeconfigFlags>>,
  file: string,
): Promise<KubeObject[] | null> {
  if (!existsSync(resolvePath(ctx, file))) {
    ctx.io.stderr(missingFileError(file));
    return null;
  }
  try {
    // @kubesched/kube (and @kubernetes/client-node under it) loads only when a command talks to a cluster.
    const { buildKubeConfig, readCluster } = await import("@kubesched/kube");
    const kc = buildKubeConfig(resolvePath(ctx, file));
    const context = ctx.flags.context;
    if (context !== undefined) {
      if (!kc.getContextObject(context)) {
        ctx.io.stderr(`error: ${file}: no context named "${context}"\n`);
        return null;
      }
      kc.setCurrentContext(context);
    }
    return await readCluster(kc, {
      customResources: customResourcesOf(ctx.registry),
      ...(ctx.flags.namespace !== undefined ? { namespace: ctx.flags.namespace } : {}),
      ...(ctx.flags.selector !== undefined ? { selector: ctx.flags.selector } : {}),
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
export async function loadClusterInput(
  ctx: CommandContext<FlagValues<typeof clusterInputFlags>>,
): Promise<LoadResult | 1 | 2> {
  const clusters = ctx.flags.cluster;
  const kubeconfig = ctx.flags.kubeconfig;
  if ((clusters.length === 0) === (kubeconfig === undefined)) {
    ctx.io.stderr(
      "error: give either --cluster (a file or directory of Kubernetes objects) or --kubeconfig (read from a cluster)\n",
    );
    return 2;
  }
  if (kubeconfig === undefined) return loadObjectsFlag(ctx, clusters) ?? 1;
  const objects = await readClusterFlag(ctx, kubeconfig);
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

/** Prints errors (each escaped for the terminal), at most 20 per input, then "and N more like this". */
export function printErrors(ctx: AnyContext, errors: readonly string[]): void {
  for (const line of capErrors(errors)) ctx.io.stderr(`error: ${escapeTerminal(line)}\n`);
}

/**
 * Loads the files of a flag (`--cluster`, `--pod`): errors are printed capped and null is
 * returned; warnings (skipped kinds, inputs without objects) go to stderr.
 */
export function loadObjectsFlag(ctx: AnyContext, files: readonly string[]): LoadResult | null {
  const missing = files.filter((f) => !existsSync(resolvePath(ctx, f)));
  if (missing.length) {
    for (const f of missing) ctx.io.stderr(missingFileError(f));
    return null;
  }
  try {
    const loaded = loadSnapshotFiles(files, ctx.io.cwd, { customResources: customResourcesOf(ctx.registry) });
    for (const w of capErrors(loaded.warnings)) ctx.io.stderr(`warning: ${escapeTerminal(w)}\n`);
    return loaded;
  } catch (e) {
    if (!(e instanceof SnapshotLoadError)) throw e;
    printErrors(ctx, e.errors);
    return null;
  }
}

/** A path from the command line, relative to the CLI's working directory. */
export function resolvePath(ctx: AnyContext, file: string): string {
  return isAbsolute(file) ? file : resolve(ctx.io.cwd, file);
}

/**
 * The configuration named by `--config`, or upstream's defaults without it. Configuration errors
 * are printed one per line, prefixed with the file (or "defaults"), and null is returned.
 */
export function loadConfigFlag(
  ctx: AnyContext,
  /** The file; null or undefined for upstream's defaults. */
  file: string | null | undefined,
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
    for (const line of e.errors) {
      ctx.io.stderr(`${typeof file === "string" ? file : "defaults"}: ${escapeTerminal(line)}\n`);
    }
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
export function printUnknownPluginHint(ctx: AnyContext, errors: readonly string[]): void {
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
