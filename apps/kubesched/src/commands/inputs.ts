// The inputs of commands: cluster snapshots (--cluster files or what --kubeconfig lists), object
// files (--pod), configurations (--config), paths relative to the working directory; their
// errors printed capped, with a did-you-mean hint for unknown plugin names.
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { escapeTerminal, type Pod, type VersionInfo } from "@kubesched/api";
import {
  capErrors,
  formatByteSize,
  type LoadOptions,
  type LoadResult,
  loadSnapshotFiles,
  loadSnapshotTexts,
  SnapshotLoadError,
  snapshotList,
} from "@kubesched/cluster";
import {
  ConfigError,
  defaultConfig,
  type KubeSchedulerConfiguration,
  loadConfigFile,
} from "@kubesched/config";
import { customResourcesOf, type Features } from "@kubesched/framework";
import type { KubeConfigFlags, ResolvedKubeConfig } from "@kubesched/kube";
import type { KubeObject } from "@kubesched/scheduler";
import type { CommandContext, FlagValues } from "../cli";
import { closest } from "../suggest";
import {
  type clusterInputFlags,
  type Emulation,
  type emulationFlags,
  type kubeconfigFlags,
  snapshotEmulation,
} from "./shared-flags";

/** What a helper that reads no flags takes: any command's context. */
type AnyContext = CommandContext<unknown>;

/**
 * The client configuration of a command that talks to a cluster, resolved by the one resolver
 * (@kubesched/kube resolveKubeConfig: kubectl's order, or kube-scheduler's for `run`); null after
 * printing why there is none.
 */
export async function loadKubeConfig(
  ctx: AnyContext,
  flags: KubeConfigFlags,
): Promise<ResolvedKubeConfig | null> {
  if (flags.kubeconfig !== undefined && !existsSync(resolvePath(ctx, flags.kubeconfig))) {
    ctx.io.stderr(missingFileError(flags.kubeconfig));
    return null;
  }
  // @kubesched/kube (and @kubernetes/client-node under it) loads only when a command talks to a cluster.
  const { KubeConfigError, resolveKubeConfig } = await import("@kubesched/kube");
  try {
    return resolveKubeConfig(flags, { env: ctx.io.env, cwd: ctx.io.cwd });
  } catch (e) {
    if (!(e instanceof KubeConfigError)) throw e;
    ctx.io.stderr(`error: ${e.message}\n`);
    return null;
  }
}

/** Whether the snapshot comes from a cluster: `--kubeconfig` or `--context` given. */
export function readsCluster(flags: FlagValues<typeof kubeconfigFlags>): boolean {
  return flags.kubeconfig !== undefined || flags.context !== undefined;
}

/**
 * Lists the snapshot kinds from the API server of the cluster `--kubeconfig` / `--context` name
 * (kubectl's resolution: else $KUBECONFIG, else ~/.kube/config), then reads its /version (the
 * release the snapshot records; a warning when it cannot be read); null after printing an error.
 */
export async function readClusterFlag(
  ctx: CommandContext<FlagValues<typeof kubeconfigFlags>>,
): Promise<{ objects: KubeObject[]; source: string; serverVersion?: VersionInfo } | null> {
  const { kubeconfig, context } = ctx.flags;
  const resolved = await loadKubeConfig(ctx, { kubeconfig, context, inCluster: "last" });
  if (resolved === null) return null;
  try {
    const { readCluster, readServerVersion } = await import("@kubesched/kube");
    const objects = await readCluster(resolved.kubeConfig, {
      customResources: customResourcesOf(ctx.registry),
      ...(ctx.flags.namespace !== undefined ? { namespace: ctx.flags.namespace } : {}),
      ...(ctx.flags.selector !== undefined ? { selector: ctx.flags.selector } : {}),
    });
    // The release the snapshot records; without it the run still works (at the newest release).
    let serverVersion: VersionInfo | undefined;
    try {
      serverVersion = await readServerVersion(resolved.kubeConfig);
    } catch (e) {
      ctx.io.stderr(
        `warning: ${resolved.source}: cannot read the server's /version (${e instanceof Error ? e.message : String(e)}); the snapshot records no Kubernetes version\n`,
      );
    }
    return { objects, source: resolved.source, ...(serverVersion ? { serverVersion } : {}) };
  } catch (e) {
    ctx.io.stderr(`error: ${resolved.source}: ${e instanceof Error ? e.message : String(e)}\n`);
    return null;
  }
}

/**
 * The cluster snapshot of a command: `--cluster` files, or what `--kubeconfig` / `--context` lists
 * (checked and expanded by the same loader), with where it came from (`source`: the files, or
 * the kubeconfig) and the emulation to run it at (`flagged`, or the release the snapshot's API
 * server runs: snapshotEmulation). Returns a usage code (2) when neither or both are given.
 */
export async function loadClusterInput(
  ctx: CommandContext<FlagValues<typeof clusterInputFlags> & FlagValues<typeof emulationFlags>>,
  flagged: Emulation,
  /** What `kubesched plan` loads with the snapshot: workload files, then its pools' nodes. */
  more: { files?: readonly string[]; additionalInputs?: LoadOptions["additionalInputs"] } = {},
): Promise<(LoadResult & { source: string; emulation: Emulation }) | 1 | 2> {
  const loaded = await loadSnapshotInput(ctx, more);
  if (loaded === 1 || loaded === 2) return loaded;
  return { ...loaded, emulation: snapshotEmulation(ctx, flagged, loaded.serverVersion) };
}

async function loadSnapshotInput(
  ctx: CommandContext<FlagValues<typeof clusterInputFlags>>,
  more: { files?: readonly string[]; additionalInputs?: LoadOptions["additionalInputs"] },
): Promise<(LoadResult & { source: string }) | 1 | 2> {
  const clusters = ctx.flags.cluster;
  if ((clusters.length === 0) === !readsCluster(ctx.flags)) {
    ctx.io.stderr(
      "error: give either --cluster (a file or directory of Kubernetes objects) or --kubeconfig / --context (read from a cluster)\n",
    );
    return 2;
  }
  const files = more.files ?? [];
  const additional = more.additionalInputs ? { additionalInputs: more.additionalInputs } : {};
  if (clusters.length > 0) {
    const loaded = loadObjectsFlag(ctx, [...clusters, ...files], ctx.flags["max-input-size"], additional);
    return loaded ? { ...loaded, source: clusters.join(", ") } : 1;
  }
  const texts: { name: string; text: string }[] = [];
  for (const f of files) {
    try {
      texts.push({ name: f, text: readFileSync(resolvePath(ctx, f), "utf8") });
    } catch (e) {
      ctx.io.stderr(`error: ${f}: ${fileErrorReason(e)}\n`);
      return 1;
    }
  }
  const read = await readClusterFlag(ctx);
  if (read === null) return 1;
  try {
    const name = `${read.source} (API server).json`;
    const loaded = loadSnapshotTexts(
      [{ name, text: JSON.stringify(snapshotList(read.objects, read.serverVersion)) }, ...texts],
      {
        customResources: customResourcesOf(ctx.registry),
        ...additional,
      },
    );
    return { ...loaded, source: read.source };
  } catch (e) {
    if (!(e instanceof SnapshotLoadError)) throw e;
    printErrors(ctx, e.errors);
    return 1;
  }
}

/** Why a file cannot be read or written, in the shell's words (not Node's errno text). */
export function fileErrorReason(e: unknown): string {
  switch ((e as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return "no such file or directory";
    case "EISDIR":
      return "is a directory";
    case "ENOTDIR":
      return "not a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "read-only file system";
    case "ENOSPC":
      return "no space left on device";
    default:
      return e instanceof Error ? e.message : String(e);
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
 * Loads the files of a flag (`--cluster`, `--pod`), reading at most `maxInputBytes` of them
 * (`--max-input-size`): errors are printed capped and null is returned; warnings (skipped kinds,
 * inputs without objects) go to stderr.
 */
export function loadObjectsFlag(
  ctx: AnyContext,
  files: readonly string[],
  maxInputBytes?: number,
  /** What `kubesched sweep` adds: a node pool's nodes, a workload scale, files parsed before. */
  more: Pick<LoadOptions, "additionalInputs" | "replicaScale" | "parsedInputs"> = {},
): LoadResult | null {
  const missing = files.filter((f) => !existsSync(resolvePath(ctx, f)));
  if (missing.length) {
    for (const f of missing) ctx.io.stderr(missingFileError(f));
    return null;
  }
  try {
    const loaded = loadSnapshotFiles(files, ctx.io.cwd, {
      customResources: customResourcesOf(ctx.registry),
      ...(maxInputBytes !== undefined ? { maxInputBytes } : {}),
      ...more,
    });
    for (const w of capErrors(loaded.warnings)) ctx.io.stderr(`warning: ${escapeTerminal(w)}\n`);
    return loaded;
  } catch (e) {
    if (!(e instanceof SnapshotLoadError)) throw e;
    const limit = e.sizeLimit;
    if (limit === undefined) {
      printErrors(ctx, e.errors);
      return null;
    }
    // Reading stopped at the limit: the errors found before it, then what to do.
    printErrors(ctx, e.errors.slice(0, -1));
    ctx.io.stderr(
      `error: ${limit.input}: the input is larger than --max-input-size ${formatByteSize(limit.limit)} (over all inputs read); give a larger --max-input-size to read it\n`,
    );
    return null;
  }
}

/** The pods capacity counts (`--pod` files, one Pod each); null after printing why not. */
export function loadPodTemplates(
  ctx: AnyContext,
  files: readonly string[],
  maxInputBytes: number,
): Pod[] | null {
  const templates: Pod[] = [];
  for (const f of files) {
    const t = loadObjectsFlag(ctx, [f], maxInputBytes);
    if (t === null) return null;
    const pods = t.objects.filter((o) => o.kind === "Pod");
    if (pods.length !== 1 || t.objects.length !== 1) {
      ctx.io.stderr(`error: ${f}: expected exactly one Pod, found ${t.objects.length} object(s)\n`);
      return null;
    }
    templates.push(pods[0]?.obj as Pod);
  }
  return templates;
}

/** A path from the command line, relative to the CLI's working directory. */
export function resolvePath(ctx: AnyContext, file: string): string {
  return isAbsolute(file) ? file : resolve(ctx.io.cwd, file);
}

/** Why `path` is not a file that can be read ("no such file or directory", "is a directory"); null when it is one. */
function notAFile(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? "is a directory" : null;
  } catch (e) {
    return fileErrorReason(e);
  }
}

/**
 * `config` again at the emulation the snapshot chose (loadClusterInput), when its features differ
 * from those it was loaded at (the default plugins and args depend on them); null after errors.
 */
export function reloadConfigFlag(
  ctx: AnyContext,
  file: string | null | undefined,
  config: KubeSchedulerConfiguration,
  loadedAt: Emulation,
  emulation: Emulation,
): KubeSchedulerConfiguration | null {
  return emulation === loadedAt ? config : loadConfigFlag(ctx, file, emulation);
}

/**
 * The configuration named by `--config`, or upstream's defaults without it. Configuration errors
 * are printed one per line, prefixed with the file (or "defaults"), and null is returned.
 */
export function loadConfigFlag(
  ctx: AnyContext,
  /** The file; null or undefined for upstream's defaults. */
  file: string | null | undefined,
  /**
   * The release and feature gates (--emulated-version, --feature-gates): the default plugins and
   * args depend on them. Absent: the newest release's defaults.
   */
  emulation?: { features: Features },
): KubeSchedulerConfiguration | null {
  const all = emulation?.features;
  if (typeof file === "string") {
    const problem = notAFile(resolvePath(ctx, file));
    if (problem !== null) {
      ctx.io.stderr(`error: ${file}: ${problem}\n`);
      return null;
    }
  }
  try {
    return typeof file === "string"
      ? loadConfigFile(resolvePath(ctx, file), { registry: ctx.registry, features: all })
      : defaultConfig({ registry: ctx.registry, features: all });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    for (const line of e.errors)
      ctx.io.stderr(`error: ${typeof file === "string" ? file : "defaults"}: ${escapeTerminal(line)}\n`);
    printUnknownPluginHint(ctx, e.errors);
    return null;
  }
}

/**
 * After configuration errors: for each plugin name the registry does not know, the registered name
 * it is probably a typo of, or how to load the package that provides it.
 */
function printUnknownPluginHint(ctx: AnyContext, errors: readonly string[]): void {
  const names = new Set<string>();
  for (const line of errors) {
    const m = /\.name: Not found: "([^"]+)"$/.exec(line);
    if (m) names.add(m[1] as string);
  }
  for (const name of names) {
    const close = closest(name, ctx.registry.keys());
    ctx.io.stderr(
      close
        ? `hint: no plugin is named ${name}; did you mean ${close}?\n`
        : `hint: no plugin is named ${name}: load the package that provides it with --plugin PKG, or list it under plugins: in an options file passed with --options FILE\n`,
    );
  }
}
