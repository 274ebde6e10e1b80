// Pieces every command shares.
import { isAbsolute, resolve } from "node:path";
import {
  ConfigError,
  defaultConfig,
  type KubeSchedulerConfiguration,
  loadConfigFile,
} from "@kubesched/config";
import type { CommandContext } from "../cli";

/** A path from the command line, relative to the CLI's working directory. */
export function resolvePath(ctx: CommandContext, file: string): string {
  return isAbsolute(file) ? file : resolve(ctx.io.cwd, file);
}

/**
 * The configuration named by `--config`, or upstream's defaults without it. Configuration errors
 * are printed one per line, prefixed with the file (or "defaults"), and null is returned.
 */
export function loadConfigFlag(ctx: CommandContext): KubeSchedulerConfiguration | null {
  const file = ctx.flags.config;
  try {
    return typeof file === "string"
      ? loadConfigFile(resolvePath(ctx, file), { registry: ctx.registry })
      : defaultConfig({ registry: ctx.registry });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    for (const line of e.errors) ctx.io.stderr(`${typeof file === "string" ? file : "defaults"}: ${line}\n`);
    return null;
  }
}
