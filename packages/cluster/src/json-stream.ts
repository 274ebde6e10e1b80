// A JSON snapshot split into its objects as the text streams in: the elements of a root array,
// or of a root object's "items" array (`kubectl get ... -o json`, typed lists such as PodList),
// each handed on as its own text for JSON.parse (V8's native parser: fast, and the strings it
// makes hold no slice of the input). A 500 MB list is never one string: V8 strings end near
// 512 MiB, and the whole text would be held while it is parsed. The splitter only follows the
// structure (strings, brackets, the commas and colons between elements and members); each
// element's own syntax is checked by JSON.parse.

import { formatByteSize, lineAndColumn } from "./input-reader";

/** What the splitter finds, in input order. */
export type JsonPart =
  /** An element of the root array, or of the root object's "items" array (`index` from 0). */
  | { type: "element"; list: "root" | "items"; text: string; index: number; line: number }
  /** The root object's "items" array begins. */
  | { type: "items" }
  /** The root object ends. */
  | { type: "objectEnd" }
  /** A member of the root object other than an "items" array. */
  | { type: "member"; key: string; text: string; line: number }
  /** The root value when it is neither an array nor an object (a string, a number...). */
  | { type: "scalar"; text: string; line: number };

/** The input is not JSON: `message` says what and where. */
export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
}

/** One object's text is larger than the per-object limit. */
export class JsonObjectTooLargeError extends Error {
  override name = "JsonObjectTooLargeError";
}

const WS = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

type State =
  | "root"
  | "elementStart" // before an element (after "[" or ",")
  | "afterElement" // after an element: "," or "]"
  | "keyStart" // in the root object, before a key (after "{" or ",")
  | "colon"
  | "valueStart"
  | "afterMember" // "," or "}"
  | "capture" // inside a captured value
  | "end"; // after the root value

/**
 * Feeds chunks of JSON text; `parts` are handed to `emit` as they complete. Call `end()` after the
 * last chunk.
 */
export class JsonSplitter {
  private state: State = "root";
  private index = 0;
  private sawElement = false;
  private sawMember = false;
  private key = "";
  private inItems = false;
  private sawItems = false;
  // The value being captured.
  private what: "element" | "member" | "scalar" | "key" = "element";
  private parts: string[] = [];
  private size = 0;
  private depth = 0;
  private inString = false;
  private carryBackslashes = 0;
  private scalarValue = false;
  private startLine = 1;
  // Line counting: newlines before the current chunk, and a cursor in it.
  private linesBefore = 0;
  private cursor = 0;
  private cursorLine = 1;
  private chunk = "";

  constructor(
    private readonly emit: (part: JsonPart) => void,
    /** The largest text one element or member may have. */
    private readonly maxObjectChars: number,
  ) {}

  feed(chunk: string): void {
    this.chunk = chunk;
    this.cursor = 0;
    this.cursorLine = this.linesBefore + 1;
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      const state = this.state;
      if (state === "capture") {
        i = this.captureFrom(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (WS(c)) {
        i++;
        continue;
      }
      switch (state) {
        case "root":
          if (c === 0x5b) {
            this.state = "elementStart";
            i++;
          } else if (c === 0x7b) {
            this.state = "keyStart";
            i++;
          } else {
            this.startCapture("scalar", i);
          }
          break;
        case "elementStart":
          if (c === 0x5d && !this.sawElement) {
            this.closeElements();
            i++;
          } else if (c === 0x5d || c === 0x2c) {
            this.fail(`unexpected ${JSON.stringify(String.fromCharCode(c))}`, i);
          } else {
            this.sawElement = true;
            this.startCapture("element", i);
          }
          break;
        case "afterElement":
          if (c === 0x2c) {
            this.state = "elementStart";
            i++;
          } else if (c === 0x5d) {
            this.closeElements();
            i++;
          } else this.fail(`expected "," or "]" after an array element, found ${this.show(c)}`, i);
          break;
        case "keyStart":
          if (c === 0x7d && !this.sawMember) {
            this.state = "end";
            this.emit({ type: "objectEnd" });
            i++;
          } else if (c === QUOTE) {
            this.sawMember = true;
            this.startCapture("key", i);
          } else this.fail(`expected a property name, found ${this.show(c)}`, i);
          break;
        case "colon":
          if (c === 0x3a) {
            this.state = "valueStart";
            i++;
          } else this.fail(`expected ":" after a property name, found ${this.show(c)}`, i);
          break;
        case "valueStart":
          if (this.key === "items" && c === 0x5b) {
            if (this.sawItems) this.fail('the root object has "items" twice', i);
            this.sawItems = true;
            this.inItems = true;
            this.index = 0;
            this.emit({ type: "items" });
            this.sawElement = false;
            this.state = "elementStart";
            i++;
          } else this.startCapture("member", i);
          break;
        case "afterMember":
          if (c === 0x2c) {
            // A property name must follow (sawMember stays true: "}" may not).
            this.state = "keyStart";
            i++;
          } else if (c === 0x7d) {
            this.state = "end";
            this.emit({ type: "objectEnd" });
            i++;
          } else this.fail(`expected "," or "}" after a property value, found ${this.show(c)}`, i);
          break;
        case "end":
          this.fail(`unexpected ${this.show(c)} after the JSON value`, i);
      }
    }
    if (this.state === "capture") this.carryPart(chunk);
    this.advanceLines(chunk.length);
    this.linesBefore = this.cursorLine - 1;
  }

  end(): void {
    if (this.state === "capture" && this.what === "scalar" && !this.inString && this.depth === 0) {
      this.finishCapture("");
      return;
    }
    if (this.state !== "end")
      throw new JsonSyntaxError(`unexpected end of input at line ${this.linesBefore + 1}`);
  }

  private show(c: number): string {
    return JSON.stringify(String.fromCharCode(c));
  }

  private fail(what: string, at: number): never {
    const { line, column } = this.position(at);
    throw new JsonSyntaxError(`${what} at line ${line}, column ${column}`);
  }

  /** Line and column of offset `at` of the current chunk (the column counts from the chunk's start on its first line). */
  private position(at: number): { line: number; column: number } {
    return lineAndColumn(this.chunk, at, this.linesBefore + 1);
  }

  /** The line of offset `at` in the current chunk (offsets asked in increasing order). */
  private lineAt(at: number): number {
    this.advanceLines(at);
    return this.cursorLine;
  }

  private advanceLines(to: number): void {
    const chunk = this.chunk;
    for (let i = chunk.indexOf("\n", this.cursor); i >= 0 && i < to; i = chunk.indexOf("\n", i + 1)) {
      this.cursorLine++;
    }
    this.cursor = to;
  }

  private closeElements(): void {
    if (this.inItems) {
      this.inItems = false;
      this.state = "afterMember";
      this.key = "";
    } else this.state = "end";
  }

  private startCapture(what: "element" | "member" | "scalar" | "key", at: number): void {
    this.what = what;
    this.state = "capture";
    this.parts = [];
    this.size = 0;
    this.depth = 0;
    this.inString = false;
    this.carryBackslashes = 0;
    this.scalarValue = false;
    this.captureStart = at;
    this.startLine = this.lineAt(at);
  }

  private captureStart = 0;

  /** Scans a captured value from `i`; returns where scanning stopped. */
  private captureFrom(chunk: string, i: number): number {
    const n = chunk.length;
    if (this.inString) {
      const end = this.stringEnd(chunk, i);
      if (end < 0) return n;
      this.inString = false;
      i = end;
      if (this.depth === 0 && !this.scalarValue) return this.finishAt(chunk, i);
    } else if (this.depth === 0 && !this.scalarValue) {
      // The first character of the value.
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        this.inString = true;
        const end = this.stringEnd(chunk, i + 1);
        if (end < 0) return n;
        this.inString = false;
        return this.finishAt(chunk, end);
      }
      if (c === 0x7b || c === 0x5b) {
        this.depth = 1;
        i++;
      } else {
        this.scalarValue = true;
      }
    }
    if (this.scalarValue) {
      // A number or literal: up to the next delimiter.
      for (; i < n; i++) {
        const c = chunk.charCodeAt(i);
        if (c === 0x2c || c === 0x5d || c === 0x7d || WS(c)) return this.finishAt(chunk, i);
      }
      return n;
    }
    while (i < n) {
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        const end = this.stringEnd(chunk, i + 1);
        if (end < 0) {
          this.inString = true;
          return n;
        }
        i = end;
      } else if (c === 0x7b || c === 0x5b) {
        this.depth++;
        i++;
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        i++;
        if (this.depth === 0) return this.finishAt(chunk, i);
      } else i++;
    }
    return n;
  }

  /** After the closing quote of a string whose content starts at `from`; -1 when not in this chunk. */
  private stringEnd(chunk: string, from: number): number {
    let at = from;
    for (;;) {
      const q = chunk.indexOf('"', at);
      if (q < 0) {
        let k = chunk.length;
        while (k > from && chunk.charCodeAt(k - 1) === BACKSLASH) k--;
        const trailing = chunk.length - k;
        this.carryBackslashes = k === from ? this.carryBackslashes + trailing : trailing;
        return -1;
      }
      let k = q;
      while (k > from && chunk.charCodeAt(k - 1) === BACKSLASH) k--;
      const backslashes = q - k + (k === from ? this.carryBackslashes : 0);
      if (backslashes % 2 === 0) {
        this.carryBackslashes = 0;
        return q + 1;
      }
      at = q + 1;
    }
  }

  /** The captured text so far goes into parts at the end of a chunk. */
  private carryPart(chunk: string): void {
    const part = chunk.slice(this.captureStart);
    this.parts.push(part);
    this.size += part.length;
    this.captureStart = 0;
    this.checkSize();
  }

  private checkSize(): void {
    if (this.size > this.maxObjectChars) {
      const what = this.what === "element" ? `item ${this.index + 1}` : "the JSON value";
      throw new JsonObjectTooLargeError(
        `${what} (from line ${this.startLine}) is larger than ${formatByteSize(this.maxObjectChars)}`,
      );
    }
  }

  private finishAt(chunk: string, end: number): number {
    const tail = chunk.slice(this.captureStart, end);
    this.size += tail.length;
    this.checkSize();
    this.finishCapture(tail);
    return end;
  }

  private finishCapture(tail: string): void {
    const text = this.parts.length === 0 ? tail : this.parts.join("") + tail;
    this.parts = [];
    const line = this.startLine;
    switch (this.what) {
      case "key":
        try {
          this.key = JSON.parse(text) as string;
        } catch (e) {
          throw new JsonSyntaxError(`${(e as Error).message} in a property name at line ${line}`);
        }
        this.state = "colon";
        return;
      case "element":
        this.emit({
          type: "element",
          list: this.inItems ? "items" : "root",
          text,
          index: this.index++,
          line,
        });
        this.state = "afterElement";
        return;
      case "member":
        this.emit({ type: "member", key: this.key, text, line });
        this.state = "afterMember";
        return;
      case "scalar":
        this.emit({ type: "scalar", text, line });
        this.state = "end";
    }
  }
}
