// Reading snapshot inputs as text, a chunk at a time: regular files, FIFOs and devices alike
// (`--cluster /dev/stdin`), never more than the input size limit in total, and never a whole big
// file as one string (V8 strings end near 512 MiB; a 100 MB snapshot read whole is also 100 MB
// more held while it is parsed). Reading is synchronous (readSync), so loading keeps its
// synchronous API; the parsers downstream take chunks as they come.
import fs from "node:fs";
import { StringDecoder } from "node:string_decoder";

/** The default input size limit: 1 GiB over all inputs of one load (see the README's table). */
export const defaultMaxInputBytes = 1024 ** 3;

/** Bytes per read. */
const chunkBytes = 1 << 20;

/** A size in bytes as a Kubernetes quantity when it is a whole number of Ki/Mi/Gi/Ti, else bytes. */
export function formatByteSize(n: number): string {
  for (const [unit, size] of [
    ["Ti", 1024 ** 4],
    ["Gi", 1024 ** 3],
    ["Mi", 1024 ** 2],
    ["Ki", 1024],
  ] as const) {
    if (n >= size && n % size === 0) return `${n / size}${unit}`;
  }
  return `${n} bytes`;
}

/** Reading stopped: the inputs are larger than the input size limit. */
export class InputSizeLimitError extends Error {
  constructor(
    /** The input being read when the limit was reached. */
    readonly input: string,
    /** The limit in bytes. */
    readonly limit: number,
  ) {
    super(`${input}: the input is larger than the input size limit (${formatByteSize(limit)} in total)`);
    this.name = "InputSizeLimitError";
  }
}

/** An input that could not be read (a directory, a missing or unreadable file): one line for the user. */
export class InputReadError extends Error {
  override name = "InputReadError";
}

/** Bytes left to read over every input of one load. */
export class InputBudget {
  private used = 0;
  constructor(readonly limit: number = defaultMaxInputBytes) {}
  /** Counts `bytes` read from `input`; throws InputSizeLimitError past the limit. */
  take(input: string, bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw new InputSizeLimitError(input, this.limit);
  }
}

/** A text input: chunks of its text (already in memory), counted against the budget. */
export function* textChunks(name: string, text: string, budget: InputBudget): Generator<string> {
  for (let at = 0; at < text.length; at += chunkBytes) {
    const chunk = text.slice(at, at + chunkBytes);
    budget.take(name, Buffer.byteLength(chunk));
    yield chunk;
  }
}

/**
 * A file's text in chunks (UTF-8; a character split between two reads is joined), each counted
 * against the budget before it is handed on: a FIFO or /dev/zero stops at the limit.
 */
export function* fileChunks(name: string, file: string, budget: InputBudget): Generator<string> {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (e) {
    throw readError(name, e);
  }
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder("utf8");
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buf, 0, chunkBytes, null);
      } catch (e) {
        throw readError(name, e);
      }
      if (n === 0) break;
      budget.take(name, n);
      const text = decoder.write(buf.subarray(0, n));
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  } finally {
    fs.closeSync(fd);
  }
}

function readError(name: string, e: unknown): InputReadError {
  const code = e !== null && typeof e === "object" && "code" in e ? String(e.code) : "";
  const why =
    code === "ENOENT"
      ? "no such file or directory"
      : code === "EISDIR"
        ? "is a directory"
        : code === "EACCES"
          ? "permission denied"
          : e instanceof Error
            ? e.message
            : String(e);
  return new InputReadError(`${name}: ${why}`);
}

/**
 * Where a NUL character is in `chunk`, or -1. YAML and JSON text never holds one (both require
 * control characters to be escaped): it means binary data, such as /dev/zero.
 */
export function nulIndex(chunk: string): number {
  return chunk.indexOf("\0");
}

/** Line and column (1-based) of offset `at` in `text`, counting from line `firstLine`. */
export function lineAndColumn(text: string, at: number, firstLine = 1): { line: number; column: number } {
  let line = firstLine;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1 };
}

/** Counts the newlines of `text`. */
export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
