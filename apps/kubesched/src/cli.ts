// The kubesched command line: a small hand-written parser (no dependency) over a tree of
// commands. Every failure is a message and an exit code, never a stack trace.
import type { Logger, Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createLogger } from "@kubesched/scheduler";
import pkg from "../package.json" with { type: "json" };
import { configCommand } from "./commands/config";
import { runCommand } from "./commands/run";
import { simulateCommand } from "./commands/simulate";

/** The Kubernetes minor this CLI tracks. */
export const kubernetesVersion = "v1.37";

export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Relative paths are resolved against it; defaults to process.cwd(). */
  cwd?: string;
}

export interface CliOptions {
  /** The full plugin registry; defaults to the in-tree registry. */
  registry?: Registry;
}

export interface FlagSpec {
  name: string;
  short?: string;
  /** Name of the value ("FORMAT"); absent for boolean flags. */
  value?: string;
  /** Allowed values, checked by the parser. */
  values?: readonly string[];
  /** May be given several times; every value is in `CommandContext.lists[name]`. */
  repeatable?: boolean;
  default?: string;
  description: string;
}

export interface CommandContext {
  /** Flag values by name (booleans as true); the last one for repeated flags. */
  flags: Record<string, string | true>;
  /** Every value of each value flag, in order (for repeatable flags). */
  lists: Record<string, string[]>;
  args: string[];
  io: Required<CliIO>;
  registry: Registry;
  /** Logs to stderr at the verbosity and format of the global `-v` and `--logging-format` flags. */
  logger: Logger;
}

export interface CommandSpec {
  name: string;
  summary: string;
  /** Positional arguments, e.g. "FILE"; a trailing "..." accepts several. */
  args?: { name: string; required: boolean; variadic?: boolean }[];
  flags?: FlagSpec[];
  subcommands?: CommandSpec[];
  run?: (ctx: CommandContext) => Promise<number> | number;
}

/** A usage error: printed with the command's usage, exit code 2. */
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

const helpFlag: FlagSpec = { name: "help", short: "h", description: "Show help for the command." };
const versionFlag: FlagSpec = {
  name: "version",
  description: "Print the version and the Kubernetes version tracked.",
};

export const rootCommand: CommandSpec = {
  name: "kubesched",
  summary: "The Kubernetes scheduler (kube-scheduler) in TypeScript.",
  flags: [versionFlag],
  subcommands: [simulateCommand, runCommand, configCommand],
};

export function versionString(): string {
  return `kubesched ${pkg.version} (kube-scheduler ${kubernetesVersion})`;
}

/** Flags every command takes (kube-scheduler's logging flags). */
const globalFlags: FlagSpec[] = [
  {
    name: "v",
    short: "v",
    value: "N",
    default: "0",
    description: "Log verbosity, as klog's -v: 2 logs each binding and failure, 4 and up scheduling details.",
  },
  {
    name: "logging-format",
    value: "FORMAT",
    values: ["text", "json"],
    default: "text",
    description: "Log format on stderr.",
  },
];

function flagsOf(cmd: CommandSpec): FlagSpec[] {
  return [...(cmd.flags ?? []), ...globalFlags, helpFlag];
}

function loggerFromFlags(p: Parsed, io: Required<CliIO>): Logger {
  const raw = p.flags.v;
  const verbosity = typeof raw === "string" ? Number(raw) : 0;
  if (!Number.isInteger(verbosity) || verbosity < 0) {
    throw new UsageError(
      `invalid value "${String(raw)}" for --v: must be a non-negative integer`,
      p.command,
      p.path,
    );
  }
  return createLogger({
    verbosity,
    format: p.flags["logging-format"] === "json" ? "json" : "text",
    write: io.stderr,
  });
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
  flags: Record<string, string | true>;
  lists: Record<string, string[]>;
  args: string[];
}

/** Parses argv against the command tree: subcommands first, then flags and arguments. */
export function parseArgs(argv: readonly string[], root: CommandSpec = rootCommand): Parsed {
  let command = root;
  const path = [root.name];
  const flags: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  const args: string[] = [];
  let onlyArgs = false;
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (onlyArgs || tok === "-" || !tok.startsWith("-")) {
      const sub =
        !onlyArgs && args.length === 0 ? command.subcommands?.find((c) => c.name === tok) : undefined;
      if (sub) {
        command = sub;
        path.push(sub.name);
      } else if (command.subcommands && !command.run) {
        throw new UsageError(`unknown command "${tok}" for "${path.join(" ")}"`, command, path);
      } else {
        args.push(tok);
      }
      continue;
    }
    if (tok === "--") {
      onlyArgs = true;
      continue;
    }
    const long = tok.startsWith("--");
    const eq = tok.indexOf("=");
    const key = long ? tok.slice(2, eq < 0 ? undefined : eq) : tok.slice(1, eq < 0 ? undefined : eq);
    const spec = flagsOf(command).find((f) => (long ? f.name === key : f.short === key));
    if (!spec) throw new UsageError(`unknown flag: ${long ? "--" : "-"}${key}`, command, path);
    if (!spec.value) {
      if (eq >= 0) throw new UsageError(`flag --${spec.name} does not take a value`, command, path);
      flags[spec.name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = tok.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    if (value === undefined)
      throw new UsageError(`flag --${spec.name} needs a value (${spec.value})`, command, path);
    if (spec.values && !spec.values.includes(value)) {
      throw new UsageError(
        `invalid value "${value}" for --${spec.name}: use one of ${spec.values.join(", ")}`,
        command,
        path,
      );
    }
    if (!spec.repeatable && lists[spec.name]) {
      throw new UsageError(`flag --${spec.name} given more than once`, command, path);
    }
    flags[spec.name] = value;
    const list = lists[spec.name] ?? [];
    list.push(value);
    lists[spec.name] = list;
  }
  return { command, path, flags, lists, args };
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

/** Runs the CLI; resolves to the exit code (0 ok, 1 failure, 2 usage error). */
export async function runCli(argv: string[], io: CliIO, opts: CliOptions = {}): Promise<number> {
  const fullIO: Required<CliIO> = { stdout: io.stdout, stderr: io.stderr, cwd: io.cwd ?? process.cwd() };
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
    return await parsed.command.run({
      flags: parsed.flags,
      lists: parsed.lists,
      args: parsed.args,
      io: fullIO,
      registry: opts.registry ?? inTreeRegistry,
      logger: loggerFromFlags(parsed, fullIO),
    });
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`error: ${e.message}\n\n${usage(e.command, e.path)}`);
      return 2;
    }
    io.stderr(`error: ${message(e)}\n`);
    return 1;
  }
}
