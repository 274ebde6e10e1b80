// What `kubesched plugins` shows about each plugin of the registry: the package it comes from and
// the version installed (what actually runs), the Kubernetes releases it implements, its extension points
// (read from an instance, as the runtime detects them) and its args (kind, defaults, JSON Schema).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSimulation } from "@kubesched/cluster";
import { defaultConfig } from "@kubesched/config";
import {
  customResourceEventName,
  defaultFeatures,
  type Handle,
  isBindPlugin,
  isEnqueueExtensions,
  isFilterPlugin,
  isPermitPlugin,
  isPostBindPlugin,
  isPostFilterPlugin,
  isPreBindPlugin,
  isPreEnqueuePlugin,
  isPreFilterPlugin,
  isPreScorePlugin,
  isQueueSortPlugin,
  isReservePlugin,
  isScorePlugin,
  type Logger,
  type Plugin,
  type PluginDescriptor,
  type Registry,
} from "@kubesched/framework";
import { resolve as resolveImport } from "import-meta-resolve";
import { type LoadedPluginPackage, packageDirOf } from "./plugin-packages";

/** Extension points in the order of a scheduling cycle, with how each is detected. */
const points: readonly [string, (p: Plugin) => boolean][] = [
  ["PreEnqueue", isPreEnqueuePlugin],
  ["QueueSort", isQueueSortPlugin],
  ["PreFilter", isPreFilterPlugin],
  ["Filter", isFilterPlugin],
  ["PostFilter", isPostFilterPlugin],
  ["PreScore", isPreScorePlugin],
  ["Score", isScorePlugin],
  ["Reserve", isReservePlugin],
  ["Permit", isPermitPlugin],
  ["PreBind", isPreBindPlugin],
  ["Bind", isBindPlugin],
  ["PostBind", isPostBindPlugin],
  ["EnqueueExtensions", isEnqueueExtensions],
];

export interface PluginInfo {
  name: string;
  /** The npm package and the version installed; null for plugins given to a runner in code. */
  package: string | null;
  version: string | null;
  /** The Kubernetes releases the package implements (`"kubesched": {"kubernetes": ...}`). */
  kubernetes: string | null;
  /** "in-tree", or where the package was named ("--plugin", an options file). */
  source: string;
  extensionPoints: string[];
  /** Why the extension points could not be read (the factory failed with default args). */
  error?: string;
  args: {
    kind: string;
    defaults: Record<string, unknown> | null;
    schema: Record<string, unknown> | null;
  } | null;
  /** Custom resources the plugin reads, as `<resource>.<version>.<group>`. */
  customResources: string[];
}

interface PackageInfo {
  name: string;
  version: string;
  kubernetes: string | null;
}

function packageInfo(dir: string): PackageInfo {
  const pj = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    name: string;
    version: string;
    kubesched?: { kubernetes?: string };
  };
  return { name: pj.name, version: pj.version, kubernetes: pj.kubesched?.kubernetes ?? null };
}

/**
 * The package of each in-tree plugin: the @kubesched/plugin-* dependencies of the installed
 * @kubesched/plugins-in-tree, resolved from it (as it imports them) and matched by descriptor.
 */
async function inTreePackages(): Promise<Map<PluginDescriptor<unknown>, PackageInfo>> {
  const out = new Map<PluginDescriptor<unknown>, PackageInfo>();
  const registryEntry = resolveImport("@kubesched/plugins-in-tree", import.meta.url);
  const registryDir = packageDirOf(fileURLToPath(registryEntry), "@kubesched/plugins-in-tree");
  const deps = Object.keys(
    (JSON.parse(readFileSync(path.join(registryDir, "package.json"), "utf8")) as { dependencies?: object })
      .dependencies ?? {},
  ).filter((d) => d.startsWith("@kubesched/plugin-"));
  for (const dep of deps) {
    const entry = resolveImport(dep, registryEntry);
    const info = packageInfo(packageDirOf(fileURLToPath(entry), dep));
    const mod = (await import(entry)) as Record<string, unknown>;
    for (const v of Object.values(mod)) {
      if (typeof v === "object" && v !== null && "factory" in v)
        out.set(v as PluginDescriptor<unknown>, info);
    }
  }
  return out;
}

/** Instantiates a plugin with its default args to see which extension points it implements. */
async function extensionPointsOf(d: PluginDescriptor<unknown>, handle: Handle): Promise<string[]> {
  const args = d.args ? d.args.decode(undefined, "args", defaultFeatures).args : undefined;
  const plugin = await d.factory(args, handle);
  return points.filter(([, is]) => is(plugin)).map(([name]) => name);
}

function argsInfo(d: PluginDescriptor<unknown>): PluginInfo["args"] {
  if (!d.args) return null;
  const decoded = d.args.decode(undefined, "args", defaultFeatures);
  return {
    kind: d.args.kind,
    defaults: d.args.encode && decoded.errors.length === 0 ? d.args.encode(decoded.args) : null,
    schema: d.args.schema ?? null,
  };
}

/** Describes every plugin of the registry: in-tree ones first, then loaded packages'. */
export async function describePlugins(
  registry: Registry,
  loaded: readonly LoadedPluginPackage[],
  logger: Logger,
): Promise<PluginInfo[]> {
  const inTree = await inTreePackages();
  const fromPackage = new Map<string, LoadedPluginPackage>();
  for (const p of loaded) for (const d of p.plugins) fromPackage.set(d.name, p);
  // A real framework (the simulate path over an empty cluster) is the Handle plugins are built with.
  const { session } = await openSimulation({ config: defaultConfig({ registry }), registry, logger }, []);
  const handle = session.sched.profiles.values().next().value as Handle;
  try {
    const out: PluginInfo[] = [];
    for (const d of registry.values()) {
      const pkg = fromPackage.get(d.name);
      const tree = inTree.get(d);
      const info: PluginInfo = {
        name: d.name,
        package: pkg?.name ?? tree?.name ?? null,
        version: pkg?.version ?? tree?.version ?? null,
        kubernetes: pkg?.kubernetes ?? tree?.kubernetes ?? null,
        source: pkg ? pkg.from : tree ? "in-tree" : "runner",
        extensionPoints: [],
        args: argsInfo(d),
        customResources: (d.customResources ?? []).map(customResourceEventName),
      };
      try {
        info.extensionPoints = await extensionPointsOf(d, handle);
      } catch (e) {
        info.error = `building it with default args failed: ${e instanceof Error ? e.message : String(e)}`;
      }
      out.push(info);
    }
    return out;
  } finally {
    session.sched.close();
  }
}
