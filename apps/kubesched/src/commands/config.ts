// kubesched config: print-defaults (kube-scheduler --write-config-to), validate, schema.
import { isAbsolute, resolve } from "node:path";
import {
  buildConfigJSONSchema,
  ConfigError,
  configToYAML,
  defaultConfig,
  encodeConfig,
  loadConfigFile,
} from "@kubesched/config";
import type { CommandContext, CommandSpec } from "../cli";

function resolvePath(ctx: CommandContext, file: string): string {
  return isAbsolute(file) ? file : resolve(ctx.io.cwd, file);
}

const printDefaults: CommandSpec = {
  name: "print-defaults",
  summary: "Print the fully defaulted configuration (as kube-scheduler --write-config-to).",
  flags: [
    {
      name: "output",
      short: "o",
      value: "FORMAT",
      values: ["yaml", "json"],
      default: "yaml",
      description: "Output format.",
    },
    {
      name: "config",
      value: "FILE",
      description: "Default this KubeSchedulerConfiguration file instead of an empty one.",
    },
  ],
  run(ctx) {
    const file = ctx.flags.config;
    let cfg: ReturnType<typeof defaultConfig>;
    if (typeof file === "string") {
      try {
        cfg = loadConfigFile(resolvePath(ctx, file), { registry: ctx.registry });
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        for (const line of e.errors) ctx.io.stderr(`${file}: ${line}\n`);
        return 1;
      }
    } else {
      cfg = defaultConfig({ registry: ctx.registry });
    }
    if (ctx.flags.output === "json")
      ctx.io.stdout(`${JSON.stringify(encodeConfig(cfg, ctx.registry), null, 2)}\n`);
    else ctx.io.stdout(configToYAML(cfg, ctx.registry));
    return 0;
  },
};

const validate: CommandSpec = {
  name: "validate",
  summary: "Check KubeSchedulerConfiguration files: print valid, or every error (exit code 1).",
  args: [{ name: "FILE", required: true, variadic: true }],
  run(ctx) {
    let failed = false;
    for (const file of ctx.args) {
      try {
        loadConfigFile(resolvePath(ctx, file), { registry: ctx.registry });
        ctx.io.stdout(ctx.args.length > 1 ? `${file}: valid\n` : "valid\n");
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        failed = true;
        for (const line of e.errors) ctx.io.stderr(`${file}: ${line}\n`);
      }
    }
    return failed ? 1 : 0;
  },
};

const schema: CommandSpec = {
  name: "schema",
  summary: "Print the JSON Schema of KubeSchedulerConfiguration (with the registry's plugins and args).",
  run(ctx) {
    ctx.io.stdout(`${JSON.stringify(buildConfigJSONSchema(ctx.registry), null, 2)}\n`);
    return 0;
  },
};

export const configCommand: CommandSpec = {
  name: "config",
  summary: "Work with KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) files.",
  subcommands: [printDefaults, validate, schema],
};
