// The outputs of commands: a document as a table, JSON or YAML (YAML without anchors: every
// object written out in full, as kubectl prints it), to stdout or a file (--out, --report,
// --write-config-to), and a file that cannot be written reported in the one error format.
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
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
 * `JSON.stringify(value, null, 2)` in pieces, the same text: objects and arrays `depth` levels
 * down are opened here, the values below them stringified one at a time (depth 2 on a
 * SimulationResult: one pod at a time, so a pod's explanation read from its store is held only
 * while it is written).
 */
export function* jsonChunks(value: unknown, depth: number, indent = ""): Generator<string> {
  const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";
  if (depth > 0 && value !== null && typeof value === "object" && !("toJSON" in value)) {
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        yield "[]";
        return;
      }
      for (let i = 0; i < value.length; i++) {
        yield `${i === 0 ? "[" : ","}\n${inner}`;
        const v: unknown = value[i];
        if (skipped(v)) yield "null";
        else yield* jsonChunks(v, depth - 1, inner);
      }
      yield `\n${indent}]`;
      return;
    }
    let first = true;
    for (const [k, v] of Object.entries(value)) {
      if (skipped(v)) continue;
      yield `${first ? "{" : ","}\n${inner}${JSON.stringify(k)}: `;
      first = false;
      yield* jsonChunks(v, depth - 1, inner);
    }
    yield first ? "{}" : `\n${indent}}`;
    return;
  }
  // A JSON string holds no raw newline: every line break is the indentation's.
  const text = JSON.stringify(value, null, 2);
  yield indent ? text.replaceAll("\n", `\n${indent}`) : text;
}

/**
 * `toYAML(value)` of an object in pieces, the same text: each top-level array item is written
 * one at a time (the pods of a SimulationResult).
 */
export function* yamlChunks(value: Record<string, unknown>): Generator<string> {
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length === 0) {
      yield toYAML({ [k]: v });
      continue;
    }
    yield `${toYAML(k).trimEnd()}:\n`;
    for (const item of v) yield toYAML([item]).replace(/^(?=.)/gm, "  ");
  }
}

/** How much output is gathered before a write. */
const chunkBytes = 1 << 20;

/**
 * Writes the pieces of a command's output to the `--out` file when given, else to stdout, in
 * writes of about a megabyte; false after printing `error: FILE: cannot write: WHY`.
 */
export function writeOutputChunks(
  ctx: CommandContext<unknown>,
  out: string | undefined,
  chunks: Iterable<string>,
): boolean {
  let fd: number | undefined;
  try {
    if (out !== undefined) fd = openSync(resolvePath(ctx, out), "w");
    let buf: string[] = [];
    let size = 0;
    const flush = () => {
      const text = buf.join("");
      buf = [];
      size = 0;
      if (fd === undefined) ctx.io.stdout(text);
      else writeSync(fd, text);
    };
    for (const c of chunks) {
      buf.push(c);
      size += c.length;
      if (size >= chunkBytes) flush();
    }
    if (size > 0) flush();
    return true;
  } catch (e) {
    // Only the file's own errors (open, write) are the user's; anything else is a bug.
    if (out === undefined || typeof (e as NodeJS.ErrnoException).syscall !== "string") throw e;
    ctx.io.stderr(`error: ${out}: cannot write: ${fileErrorReason(e)}\n`);
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
