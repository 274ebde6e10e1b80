// kubesched plugins: the plugins this kubesched can run — in-tree and loaded packages — with the
// package and version installed, the Kubernetes releases each implements, extension points and args.
import { defineCommand } from "../cli";
import { choiceFlag } from "../flags";
import { describePlugins, type PluginInfo } from "../plugins/describe";
import { runningFramework } from "../plugins/plugin-packages";
import { formatted } from "./outputs";
import { optionsFlag, pluginFlag } from "./shared-flags";
import { forTerminal, pad } from "./table";

export interface PluginList {
  apiVersion: "kubesched.io/v1alpha1";
  kind: "PluginList";
  /** The @kubesched/framework version this kubesched runs (what plugins' peer ranges are checked against). */
  framework: string;
  plugins: PluginInfo[];
}

export function renderPluginsTable(plugins: PluginList): string {
  const list = forTerminal(plugins);
  const rows = [["NAME", "PACKAGE", "VERSION", "KUBERNETES", "SOURCE", "EXTENSION POINTS", "ARGS"]];
  for (const p of list.plugins) {
    rows.push([
      p.name,
      p.package ?? "-",
      p.version ?? "-",
      p.kubernetes ?? "-",
      p.source,
      p.error ? "?" : p.extensionPoints.join(","),
      p.args?.kind ?? "-",
    ]);
  }
  const notes = list.plugins.filter((p) => p.error).map((p) => `${p.name}: ${p.error}`);
  return `${pad(rows)}\n\n@kubesched/framework ${list.framework}${notes.length ? `\n${notes.join("\n")}` : ""}\n`;
}

export const pluginsCommand = defineCommand({
  name: "plugins",
  summary:
    "List the in-tree and loaded plugins: package, version, Kubernetes releases implemented, extension points, args.",
  flags: [
    pluginFlag,
    optionsFlag,
    choiceFlag({
      name: "output",
      short: "o",
      value: "FORMAT",
      values: ["table", "json", "yaml"],
      default: "table",
      description: "Output format; json and yaml add each plugin's default args and args JSON Schema.",
    }),
  ],
  async run(ctx) {
    const list: PluginList = {
      apiVersion: "kubesched.io/v1alpha1",
      kind: "PluginList",
      framework: runningFramework().version,
      plugins: await describePlugins(ctx.registry, ctx.pluginPackages, ctx.logger),
    };
    ctx.io.stdout(formatted(ctx.flags.output, list, () => renderPluginsTable(list)));
    return 0;
  },
});
