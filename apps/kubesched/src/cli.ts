// The kubesched command line: a tree of commands whose flags node:util's parseArgs tokenizes and
// whose flag tables (flags.ts) turn into the typed values each command receives. Every failure is
// a message and an exit code, never a stack trace.

import { readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { parseArgs as nodeParseArgs } from "node:util";
import { escapeTerminal } from "@kubesched/api";
import type { Logger, Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createLogger } from "@kubesched/scheduler";
import { capacityCommand } from "./commands/capacity";
import { configCommand } from "./commands/config";
import { diffCommand } from "./commands/diff";
import { planCommand } from "./commands/plan";
import { pluginsCommand } from "./commands/plugins";
import { runCommand } from "./commands/run";
import { optionsFlag, pluginFlag } from "./commands/shared-flags";
import { simulateCommand } from "./commands/simulate";
import { snapshotCommand } from "./commands/snapshot";
import { sweepCommand } from "./commands/sweep";
import { whyCommand } from "./commands/why";
import {
  boolFlag,
  choiceFlag,
  type FlagSpec,
  FlagValueError,
  type FlagValues,
  integer,
  readFlags,
  valueFlag,
} from "./flags";
import { OptionsFileError, readOptionsFile } from "./plugins/options-file";
import {
  type LoadedPluginPackage,
  loadPlugins,
  type PluginRequest,
  splitSpecs,
} from "./plugins/plugin-packages";
import { closest } from "./suggest";

/** The Kubernetes minor this CLI tracks. */
export const kubernetesVersion = "v1.37";

export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Relative paths are resolved against it; defaults to where the user typed the command (`invocationDir`). */
  cwd?: string;
  /** The environment ($KUBECONFIG, HOME, …); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** stderr is a terminal: progress is shown there (see progress.ts). Defaults to false. */
  stderrTerminal?: boolean;
  /**
   * Writes the CLI's own drawing on stderr (the progress display's cursor movements), which the
   * `stderr` of a run escapes like everything else written there. Defaults to `stderr` as given.
   */
  stderrDrawing?: (s: string) => void;
}

export interface CliOptions {
  /** The full plugin registry; defaults to the in-tree registry. */
  registry?: Registry;
}

export type { FlagSpec, FlagValues } from "./flags";

export interface CommandContext<V = Record<string, unknown>> {
  /** The command's flags, typed from its flag list (numbers, lists, booleans; see flags.ts). */
  flags: V;
  args: string[];
  io: Required<CliIO>;
  /** The in-tree plugins (or a runner's) and those of the plugin packages loaded for this command. */
  registry: Registry;
  /** The plugin packages loaded (`--plugin`, the options file next to the configuration). */
  pluginPackages: LoadedPluginPackage[];
  /** Logs to stderr at the verbosity and format of the global `-v` and `--logging-format` flags. */
  logger: Logger;
}

export interface CommandSpec<F extends readonly FlagSpec[] = readonly FlagSpec[]> {
  name: string;
  summary: string;
  /** Positional arguments, e.g. "FILE"; a trailing "..." accepts several. */
  args?: { name: string; required: boolean; variadic?: boolean }[];
  flags?: F;
  subcommands?: CommandSpec[];
  run?(ctx: CommandContext<FlagValues<F>>): Promise<number> | number;
}

/** A command whose `run` receives its flags typed from its flag list. */
export function defineCommand<const F extends readonly FlagSpec[]>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

/** A usage error: printed on one line with a pointer to the command's `--help`, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: CommandSpec,
    readonly path: string[],
  ) {
    super(message);
    this.name = "UsageError";
  }
}

const helpFlag = boolFlag({ name: "help", short: "h", description: "Show help for the command." });
const versionFlag = boolFlag({
  name: "version",
  description: "Print the version and the Kubernetes version tracked.",
});

export const rootCommand: CommandSpec = {
  name: "kubesched",
  summary: "The Kubernetes scheduler (kube-scheduler) in TypeScript.",
  flags: [versionFlag],
  subcommands: [
    simulateCommand,
    capacityCommand,
    whyCommand,
    diffCommand,
    sweepCommand,
    planCommand,
    snapshotCommand,
    runCommand,
    pluginsCommand,
    configCommand,
  ],
};

/** This package's version, read when asked (a release bumps package.json, not the code). */
export function cliVersion(): string {
  // ../package.json from src/cli.ts in the workspace and from dist/*.js when installed.
  const file = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

export function versionString(): string {
  return `kubesched ${cliVersion()} (kube-scheduler ${kubernetesVersion})`;
}

/** Flags every command takes (kube-scheduler's logging flags). */
const globalFlags = [
  valueFlag({
    name: "v",
    short: "v",
    value: "N",
    default: "0",
    description: "Log verbosity, as klog's -v: 2 logs each binding and failure, 4 and up scheduling details.",
    parse: integer(0, Number.POSITIVE_INFINITY, "must be a non-negative integer"),
  }),
  choiceFlag({
    name: "logging-format",
    value: "FORMAT",
    values: ["text", "json"],
    default: "text",
    description: "Log format on stderr.",
  }),
] as const;

function flagsOf(cmd: CommandSpec): readonly FlagSpec[] {
  return [...(cmd.flags ?? []), ...globalFlags, helpFlag];
}

function loggerFromFlags(p: Parsed, io: Required<CliIO>): Logger {
  const { values, errors } = readFlags(globalFlags, p.lists);
  if (errors[0] !== undefined) throw new UsageError(errors[0], p.command, p.path);
  return createLogger({ verbosity: values.v, format: values["logging-format"], write: io.stderr });
}

function argsUsage(cmd: CommandSpec): string {
  return (cmd.args ?? [])
    .map((a) => (a.required ? a.name : `[${a.name}]`) + (a.variadic ? "..." : ""))
    .join(" ");
}

/** The help text of a command. */
export function usage(cmd: CommandSpec, path: string[]): string {
  const full = path.join(" ");
  const lines: string[] = [cmd.summary, "", "Usage:"];
  if (cmd.run || !cmd.subcommands) {
    lines.push(`  ${[full, "[flags]", argsUsage(cmd)].filter(Boolean).join(" ")}`);
  }
  if (cmd.subcommands) lines.push(`  ${full} <command> [flags]`);
  if (cmd.subcommands) {
    lines.push("", "Commands:");
    const width = Math.max(...cmd.subcommands.map((c) => c.name.length));
    for (const c of cmd.subcommands) lines.push(`  ${c.name.padEnd(width)}  ${c.summary}`);
  }
  lines.push("", "Flags:");
  const specs = flagsOf(cmd).map((f) => {
    const names = `${f.short ? `-${f.short}, ` : "    "}--${f.name}${f.value ? ` ${f.value}` : ""}`;
    const extra = [f.values ? `one of: ${f.values.join(", ")}` : "", f.default ? `default ${f.default}` : ""]
      .filter(Boolean)
      .join("; ");
    return [names, extra ? `${f.description.replace(/\.$/, "")} (${extra}).` : f.description] as const;
  });
  const width = Math.max(...specs.map(([n]) => n.length));
  for (const [n, d] of specs) lines.push(`  ${n.padEnd(width)}  ${d}`);
  if (cmd.subcommands) lines.push("", `Run "${full} <command> --help" for more about a command.`);
  return `${lines.join("\n")}\n`;
}

interface Parsed {
  command: CommandSpec;
  path: string[];
  /** The strings of each flag given, in order; booleans as "true"/"false" (what flags' `read` take). */
  lists: Record<string, string[]>;
  /** The last of each: value flags' strings, true for booleans whose last is "true". */
  flags: Record<string, string | true>;
  args: string[];
}

/** The spec of a flag token (`--name`, `--name=v`, `-s`) among the command's flags. */
function flagSpecOf(cmd: CommandSpec, tok: string): FlagSpec | undefined {
  const long = tok.startsWith("--");
  const eq = tok.indexOf("=");
  const key = tok.slice(long ? 2 : 1, eq < 0 ? undefined : eq);
  return flagsOf(cmd).find((f) => (long ? f.name === key : f.short === key));
}

/**
 * Parses argv against the command tree: the leading words that name subcommands select the
 * command, then node:util's parseArgs tokenizes its flags and arguments (`--flag value`,
 * `--flag=value`, `-f value`, `--` ending flags). Boolean flags also take `=true`/`=false`, as
 * kube-scheduler's (`--leader-elect=false`).
 */
export function parseArgs(argv: readonly string[], root: CommandSpec = rootCommand): Parsed {
  let command = root;
  const path = [root.name];
  const commandWords = new Set<number>();
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i] as string;
    if (tok === "--") break;
    if (tok.startsWith("-") && tok !== "-") {
      // A flag before (or between) the command words: skip its separate value.
      const spec = flagSpecOf(command, tok);
      if (spec?.value && !tok.includes("=")) i++;
      continue;
    }
    const sub = command.subcommands?.find((c) => c.name === tok);
    if (!sub) break;
    command = sub;
    path.push(sub.name);
    commandWords.add(i);
  }
  const rest = argv.filter((_, i) => !commandWords.has(i));
  if (command.subcommands && !command.run) {
    const stray = rest.find((t) => !t.startsWith("-"));
    if (stray !== undefined) {
      const close = closest(
        stray,
        command.subcommands.map((c) => c.name),
      );
      throw new UsageError(
        `unknown command "${stray}" for "${path.join(" ")}"${close ? ` (did you mean ${close}?)` : ""}`,
        command,
        path,
      );
    }
  }

  const specs = flagsOf(command);
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const f of specs) {
    options[f.name] = {
      type: f.value ? "string" : "boolean",
      ...(f.short ? { short: f.short } : {}),
      ...(f.value ? { multiple: true } : {}),
    };
  }
  let tokens: ReturnType<typeof nodeParseArgs>["tokens"];
  try {
    ({ tokens } = nodeParseArgs({
      args: rest,
      options,
      strict: false,
      allowPositionals: true,
      tokens: true,
    }));
  } catch (e) {
    throw new UsageError(message(e), command, path);
  }
  const lists: Record<string, string[]> = {};
  const args: string[] = [];
  for (const t of tokens ?? []) {
    if (t.kind === "positional") {
      args.push(t.value);
      continue;
    }
    if (t.kind !== "option") continue;
    const negated = negatedBoolean(specs, t.rawName);
    const spec = negated ?? specs.find((f) => f.name === t.name);
    if (!spec) throw new UsageError(unknownFlag(root, command, path, t.rawName), command, path);
    const given = lists[spec.name] ?? [];
    if (!spec.value) {
      if (t.inlineValue && (negated || (t.value !== "true" && t.value !== "false"))) {
        throw new UsageError(
          `invalid value "${t.value}" for ${t.rawName}: use ${negated ? "no value" : "true or false"}`,
          command,
          path,
        );
      }
      given.push(negated ? "false" : t.inlineValue ? (t.value as string) : "true");
      lists[spec.name] = given;
      continue;
    }
    // parseArgs reads `-o=json` as "-o" with "=json"; pflag (and we) read it as "json".
    const short = !t.rawName.startsWith("--");
    const value = short && t.inlineValue && t.value?.startsWith("=") ? t.value.slice(1) : t.value;
    if (value === undefined)
      throw new UsageError(`flag --${spec.name} needs a value (${spec.value})`, command, path);
    if (spec.values && !spec.values.includes(value)) {
      throw new UsageError(
        `invalid value "${value}" for --${spec.name}: use one of ${spec.values.join(", ")}`,
        command,
        path,
      );
    }
    if (!spec.repeatable && given.length > 0) {
      throw new UsageError(`flag --${spec.name} given more than once`, command, path);
    }
    given.push(value);
    lists[spec.name] = given;
  }
  const flags: Record<string, string | true> = {};
  for (const spec of specs) {
    const last = lists[spec.name]?.at(-1);
    if (last !== undefined && (spec.value || last === "true")) flags[spec.name] = spec.value ? last : true;
  }
  return { command, path, flags, lists, args };
}

/** `--no-NAME` of a boolean flag NAME (when no flag is itself named no-NAME): NAME=false. */
function negatedBoolean(specs: readonly FlagSpec[], rawName: string): FlagSpec | undefined {
  if (!rawName.startsWith("--no-") || specs.some((f) => `--${f.name}` === rawName)) return undefined;
  return specs.find((f) => !f.value && f.name === rawName.slice(5));
}

/**
 * The one line of an unknown flag: the command's flag it is probably a typo of, else the commands
 * that have a flag by that name.
 */
function unknownFlag(root: CommandSpec, command: CommandSpec, path: string[], rawName: string): string {
  const line = `unknown flag ${rawName}`;
  if (!rawName.startsWith("--")) return line;
  const name = rawName.slice(2);
  const close = closest(
    name,
    flagsOf(command).map((f) => f.name),
  );
  if (close) return `${line} (did you mean --${close}?)`;
  const elsewhere: string[] = [];
  const visit = (cmd: CommandSpec, at: string[]) => {
    if (cmd.run && cmd !== command && (cmd.flags ?? []).some((f) => f.name === name))
      elsewhere.push(at.join(" "));
    for (const sub of cmd.subcommands ?? []) visit(sub, [...at, sub.name]);
  };
  visit(root, []);
  return elsewhere.length > 0 ? `${line} for "${path.join(" ")}" (a flag of: ${elsewhere.join(", ")})` : line;
}

function checkArgs(p: Parsed): void {
  const specs = p.command.args ?? [];
  const required = specs.filter((a) => a.required).length;
  const variadic = specs.some((a) => a.variadic);
  if (p.args.length < required) {
    const missing = specs.filter((a) => a.required)[p.args.length]!;
    throw new UsageError(`missing argument ${missing.name}`, p.command, p.path);
  }
  if (!variadic && p.args.length > specs.length) {
    throw new UsageError(`unexpected argument "${p.args[specs.length]}"`, p.command, p.path);
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The plugin packages a command loads: `--plugin` values (resolved from the working directory),
 * then the `plugins` of the `--options` file (resolved from its folder). Nothing else imports code.
 */
function pluginRequests(p: Parsed, cwd: string): PluginRequest[] {
  if (!flagsOf(p.command).some((f) => f.name === pluginFlag.name)) return [];
  const requests: PluginRequest[] = splitSpecs(p.lists.plugin ?? []).map((spec) => ({
    spec,
    base: cwd,
    from: "--plugin",
  }));
  const file = p.lists[optionsFlag.name]?.at(-1);
  if (file !== undefined) {
    const options = readOptionsFile(path.resolve(cwd, file), file);
    for (const spec of options.plugins) {
      requests.push({ spec, base: path.dirname(options.file), from: file });
    }
  }
  return requests;
}

/**
 * Where the user typed the command: every relative path on the command line is resolved against
 * it. That is the working directory, except under pnpm: `pnpm kubesched …` (and `pnpm exec
 * kubesched …`) runs the bin from the project's folder, the workspace root, whichever folder under
 * it the user is in, and marks the run with PNPM_PACKAGE_NAME. The user's folder is then pnpm's
 * own working directory (our parent's; read from /proc where there is one), else INIT_CWD (npm
 * sets it when it starts pnpm, as `npx -y pnpm@9 kubesched …` does), else the shell's PWD — the
 * first of them at or under the project's folder. (pnpm's scripts set INIT_CWD, but print a
 * banner on stdout: kubesched is not one.)
 */
export function invocationDir(
  env: Record<string, string | undefined>,
  cwd: string,
  parentCwd: () => string | undefined = parentWorkingDirectory,
): string {
  if (env.PNPM_PACKAGE_NAME === undefined) return cwd;
  for (const candidate of [parentCwd(), env.INIT_CWD, env.PWD]) {
    if (candidate === undefined || !path.isAbsolute(candidate)) continue;
    const rel = path.relative(cwd, candidate);
    if (rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel))) return candidate;
  }
  return cwd;
}

/** The parent process's working directory, where the system shows it (Linux); undefined elsewhere. */
function parentWorkingDirectory(): string | undefined {
  try {
    return readlinkSync(`/proc/${process.ppid}/cwd`);
  } catch {
    return undefined;
  }
}

/** The process's stdout and stderr (the `kubesched` command, custom runners). */
export function processIO(): CliIO {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stderrTerminal: process.stderr.isTTY === true,
  };
}

/** Runs the CLI; resolves to the exit code (0 ok, 1 failure, 2 usage error). */
export async function runCli(argv: string[], io: CliIO, opts: CliOptions = {}): Promise<number> {
  const env = io.env ?? process.env;
  // stderr is for people (messages, warnings, logs): nothing written there drives the terminal.
  // Values that could hold a line break are escaped whole where their lines are made.
  const fullIO: Required<CliIO> = {
    stdout: io.stdout,
    stderr: (s) => io.stderr(escapeTerminal(s, { keepNewlines: true })),
    cwd: io.cwd ?? invocationDir(env, process.cwd()),
    env,
    stderrTerminal: io.stderrTerminal ?? false,
    stderrDrawing: io.stderrDrawing ?? io.stderr,
  };
  try {
    const parsed = parseArgs(argv);
    if (parsed.flags.help) {
      io.stdout(usage(parsed.command, parsed.path));
      return 0;
    }
    if (parsed.flags.version) {
      io.stdout(`${versionString()}\n`);
      return 0;
    }
    if (!parsed.command.run) {
      io.stdout(usage(parsed.command, parsed.path));
      return 0;
    }
    checkArgs(parsed);
    const logger = loggerFromFlags(parsed, fullIO);
    const { registry, loaded } = await loadPlugins(
      pluginRequests(parsed, fullIO.cwd),
      opts.registry ?? inTreeRegistry,
      {
        onLoad: (l) =>
          io.stderr(`loading plugin package ${l.name}@${l.version} from ${l.dir} (${l.from} ${l.spec})\n`),
      },
    );
    const { values, errors } = readFlags(parsed.command.flags ?? [], parsed.lists);
    if (errors.length > 0) {
      for (const m of errors) fullIO.stderr(`error: ${m}\n`);
      return 2;
    }
    return await parsed.command.run({
      flags: values,
      args: parsed.args,
      io: fullIO,
      registry,
      pluginPackages: loaded,
      logger,
    });
  } catch (e) {
    if (e instanceof UsageError) {
      fullIO.stderr(`error: ${e.message}\nRun "${e.path.join(" ")} --help" for usage.\n`);
      return 2;
    }
    // A command's check across flags (e.g. --feature-gates against --emulated-version).
    if (e instanceof FlagValueError) {
      fullIO.stderr(`error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof OptionsFileError) {
      for (const line of e.errors) fullIO.stderr(`error: ${e.file}: ${escapeTerminal(line)}\n`);
      return 1;
    }
    fullIO.stderr(`error: ${escapeTerminal(message(e))}\n`);
    return 1;
  }
}
