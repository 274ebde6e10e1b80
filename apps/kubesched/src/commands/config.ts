// kubesched config: print-defaults (kube-scheduler --write-config-to), validate, schema.
import { buildConfigJSONSchema, configToYAML, encodeConfig } from "@kubesched/config";
import { type CommandSpec, defineCommand } from "../cli";
import { choiceFlag, valueFlag } from "../flags";
import { loadConfigFlag } from "./inputs";
import { emulationFlags, emulationOf, optionsFlag, pluginFlag } from "./shared-flags";

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
    optionsFlag,
    ...emulationFlags,
  ],
  run(ctx) {
    const cfg = loadConfigFlag(ctx, ctx.flags.config, emulationOf(ctx));
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
  flags: [pluginFlag, optionsFlag, ...emulationFlags],
  run(ctx) {
    let failed = false;
    const emulation = emulationOf(ctx);
    for (const file of ctx.args) {
      if (loadConfigFlag(ctx, file, emulation) === null) failed = true;
      else ctx.io.stdout(ctx.args.length > 1 ? `${file}: valid\n` : "valid\n");
    }
    return failed ? 1 : 0;
  },
});

const schema = defineCommand({
  name: "schema",
  summary: "Print the JSON Schema of KubeSchedulerConfiguration (with the registry's plugins and args).",
  flags: [pluginFlag, optionsFlag],
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
