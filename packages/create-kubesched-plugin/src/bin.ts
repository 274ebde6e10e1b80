#!/usr/bin/env node
// npm create kubesched-plugin NAME [-- --scope @acme] [--dir DIR]
import path from "node:path";
import { parseArgs } from "node:util";
import { ScaffoldError, scaffold } from "./index";

const usage = `Usage: npm create kubesched-plugin NAME -- [--scope @acme] [--dir DIR]
       create-kubesched-plugin NAME [--scope @acme] [--dir DIR]

Writes a kubesched plugin package: NAME demo-gate with --scope @acme is the package
@acme/kubesched-plugin-demo-gate (folder kubesched-plugin-demo-gate) registering the plugin DemoGate.
`;

function main(argv: string[]): number {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        scope: { type: "string" },
        dir: { type: "string" },
        kubernetes: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    process.stderr.write(`error: give the plugin's name (one, e.g. demo-gate)\n\n${usage}`);
    return 2;
  }
  const v = parsed.values as { scope?: string; dir?: string; kubernetes?: string };
  try {
    const { names, dir, files } = scaffold({
      name: parsed.positionals[0] as string,
      cwd: process.cwd(),
      ...(v.scope !== undefined ? { scope: v.scope } : {}),
      ...(v.dir !== undefined ? { dir: v.dir } : {}),
      ...(v.kubernetes !== undefined ? { kubernetes: v.kubernetes } : {}),
    });
    const rel = path.relative(process.cwd(), dir) || ".";
    process.stdout.write(
      `Created ${names.packageName} in ${rel} (plugin ${names.pascal}, ${files.length} files).\n\nNext:\n  cd ${rel}\n  npm install\n  npm run build\n  npm test\n`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof ScaffoldError)) throw e;
    process.stderr.write(`error: ${e.message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
