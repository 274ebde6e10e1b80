// The outputs of commands: a document as a table, JSON or YAML (YAML without anchors: every
// object written out in full, as kubectl prints it), to stdout or a file (--out, --report,
// --write-config-to), and a file that cannot be written reported in the one error format.
import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import type { CommandContext } from "../cli";
import { fileErrorReason, resolvePath } from "./inputs";

/** YAML of a value; an object met twice is written twice, never as an `&a1` / `*a1` alias. */
export function toYAML(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** A value in an `--output` format: JSON, YAML, or the command's table. */
export function formatted(format: "table" | "json" | "yaml", value: unknown, table: () => string): string {
  if (format === "json") return `${JSON.stringify(value, null, 2)}\n`;
  if (format === "yaml") return toYAML(value);
  return table();
}

/**
 * Writes `text` to `file` (relative to the working directory); false after printing
 * `error: FILE: cannot write: WHY`.
 */
export function writeFile(ctx: CommandContext<unknown>, file: string, text: string): boolean {
  try {
    writeFileSync(resolvePath(ctx, file), text);
    return true;
  } catch (e) {
    ctx.io.stderr(`error: ${file}: cannot write: ${fileErrorReason(e)}\n`);
    return false;
  }
}

/** A command's output: to the `--out` file when given, else stdout; false when the file cannot be written. */
export function writeOutput(ctx: CommandContext<unknown>, out: string | undefined, text: string): boolean {
  if (out !== undefined) return writeFile(ctx, out, text);
  ctx.io.stdout(text);
  return true;
}
