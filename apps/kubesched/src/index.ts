import type { PluginDescriptor, PluginFactory, Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { processIO, runCli } from "./cli";

export {
  type CliIO,
  type CliOptions,
  type CommandContext,
  type CommandSpec,
  defineCommand,
  type FlagSpec,
  type FlagValues,
  kubernetesVersion,
  parseArgs,
  rootCommand,
  runCli,
  UsageError,
  usage,
  versionString,
} from "./cli";
export { type RunOptions, runScheduler, type ServingFlags } from "./commands/run";

/** Out-of-tree plugins: a registry, or a record of descriptors or bare factories by name. */
export type OutOfTreeRegistry = Registry | Record<string, PluginDescriptor<unknown> | PluginFactory<unknown>>;

/**
 * upstream Registry.Merge: the out-of-tree plugins join the in-tree ones; a name that is
 * already registered is an error.
 */
export function mergeRegistries(inTree: Registry, outOfTree: OutOfTreeRegistry | undefined): Registry {
  const merged = new Map(inTree);
  const entries: [string, PluginDescriptor<unknown> | PluginFactory<unknown>][] =
    outOfTree instanceof Map ? [...outOfTree.entries()] : Object.entries(outOfTree ?? {});
  for (const [name, value] of entries) {
    if (merged.has(name)) throw new Error(`a plugin named ${name} already exists`);
    merged.set(name, typeof value === "function" ? { name, factory: value } : value);
  }
  return merged;
}

export interface SchedulerCommand {
  run(argv: string[]): Promise<number>;
}

/** A kubesched command with extra (out-of-tree) plugins, for custom runners. */
export function createSchedulerCommand(opts: { registry?: OutOfTreeRegistry } = {}): SchedulerCommand {
  const registry = mergeRegistries(inTreeRegistry, opts.registry);
  return {
    run: (argv) => runCli(argv, processIO(), { registry }),
  };
}
