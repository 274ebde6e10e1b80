// kubesched config: print-defaults (kube-scheduler --write-config-to), validate, schema.
import { escapeTerminal } from "@kubesched/api";
import {
  buildConfigJSONSchema,
  ConfigError,
  configToYAML,
  encodeConfig,
  loadConfigFile,
} from "@kubesched/config";
import { type CommandSpec, defineCommand } from "../cli";
import { choiceFlag, valueFlag } from "../flags";
import { loadConfigFlag, printUnknownPluginHint, resolvePath } from "./inputs";
import { pluginFlag } from "./shared-flags";

const printDefaults = defineCommand({
  name: "print-defaults",
  summary: "Print the fully defaulted configuration (as kube-scheduler --write-config-to).",
  flags: [
    choiceFlag({
      name: "output",
      short: "o",
      value: "FORMAT",
      values: ["yaml", "json"],
      default: "yaml",
      description: "Output format.",
    }),
    valueFlag({
      name: "config",
      value: "FILE",
      description: "Default this KubeSchedulerConfiguration file instead of an empty one.",
    }),
    pluginFlag,
  ],
  run(ctx) {
    const cfg = loadConfigFlag(ctx, ctx.flags.config);
    if (cfg === null) return 1;
    if (ctx.flags.output === "json")
      ctx.io.stdout(`${JSON.stringify(encodeConfig(cfg, ctx.registry), null, 2)}\n`);
    else ctx.io.stdout(configToYAML(cfg, ctx.registry));
    return 0;
  },
});

const validate = defineCommand({
  name: "validate",
  summary: "Check KubeSchedulerConfiguration files: print valid, or every error (exit code 1).",
  args: [{ name: "FILE", required: true, variadic: true }],
  flags: [pluginFlag],
  configArgs: true,
  run(ctx) {
    let failed = false;
    for (const file of ctx.args) {
      try {
        loadConfigFile(resolvePath(ctx, file), { registry: ctx.registry });
        ctx.io.stdout(ctx.args.length > 1 ? `${file}: valid\n` : "valid\n");
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        failed = true;
        for (const line of e.errors) ctx.io.stderr(`${file}: ${escapeTerminal(line)}\n`);
        printUnknownPluginHint(ctx, e.errors);
      }
    }
    return failed ? 1 : 0;
  },
});

const schema = defineCommand({
  name: "schema",
  summary: "Print the JSON Schema of KubeSchedulerConfiguration (with the registry's plugins and args).",
  flags: [pluginFlag],
  run(ctx) {
    ctx.io.stdout(`${JSON.stringify(buildConfigJSONSchema(ctx.registry), null, 2)}\n`);
    return 0;
  },
});

export const configCommand: CommandSpec = {
  name: "config",
  summary: "Work with KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) files.",
  subcommands: [printDefaults, validate, schema],
};
