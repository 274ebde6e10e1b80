// pnpm new:plugin <Name> [--contrib] [--register] [--dir DIR] [--changeset-dir DIR]
// Exit codes as the kubesched CLI's: 0 ok, 1 the package cannot be written, 2 usage.
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { NewPluginError, newPlugin, workspaceRoot } from "./generate";

const usage = `Usage: pnpm new:plugin <Name> [flags]

Generates packages/plugins/<kebab-name> (@kubesched/plugin-<kebab-name>) from the plugin
template: package.json, tsconfig, tsup and vitest configs, src/ (index, <kebab-name>.ts, args,
events, reasons, a table test through the plugin harness), README and a changeset.

Flags:
  --contrib             an out-of-tree plugin (packages/plugins-contrib, loaded with --plugin)
  --register            also add it to the in-tree registry (@kubesched/plugins-in-tree); the
                        default registry is what every kubesched user runs, so this is a choice
  --dir DIR             write the package to DIR instead
  --changeset-dir DIR   write the changeset to DIR instead of .changeset
  -h, --help            this help
`;

function main(argv: string[]): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`error: expected one plugin name, got ${positionals.length}\n\n${usage}`);
    return 2;
  }
  try {
    const res = newPlugin({
      name: positionals[0] as string,
      contrib: values.contrib === true,
      register: values.register === true,
      ...(values.dir !== undefined ? { dir: values.dir } : {}),
      ...(values["changeset-dir"] !== undefined ? { changesetDir: values["changeset-dir"] } : {}),
    });
    process.stdout.write(
      `created ${res.packageName} in ${relative(workspaceRoot, res.dir) || res.dir}:\n${res.files.map((f) => `  ${f}`).join("\n")}\n\n` +
        "next: npx -y pnpm@9 install, then npx vitest run --project " +
        `${res.packageName}\n`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof NewPluginError)) throw e;
    process.stderr.write(`error: ${e.message}\n`);
    return e.exitCode;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      contrib: { type: "boolean" },
      register: { type: "boolean" },
      dir: { type: "string" },
      "changeset-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

process.exitCode = main(process.argv.slice(2));
