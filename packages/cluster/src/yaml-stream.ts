// A YAML snapshot split as its text streams in: into documents at the `---` / `...` markers
// (documents are independent in YAML: anchors, tags and directives do not cross them), and a
// document too big to parse whole — `kubectl get pods -o yaml` of a big cluster is ONE document,
// a `kind: List` whose `items:` hold every object — into the entries of its `items:` block
// sequence (or of a root block sequence), each parsed on its own. The YAML parser builds a syntax
// tree several times the size of its text, so a 100 MB document parsed whole needs gigabytes; an
// item at a time it needs the item's.
//
// Items are found from indentation, as YAML's block structure defines them: in kubectl's output
// `items:` is a key at column 0 and each entry a line `- ...` at one column c (0 or 2); every line
// of an entry (block scalars, continued flow scalars) is indented deeper than c, or is blank or a
// comment. An entry parsed alone cannot use an anchor defined outside it (kubectl writes none):
// such an alias is reported as an error naming the item.

import { formatByteSize } from "./input-reader";

/** What the splitter finds, in input order. */
export type YamlPart =
  /** A whole document (`index` from 1), starting at `line`. */
  | { type: "document"; index: number; text: string; line: number }
  /** An entry of a big document's `items:` (or root) sequence (`item` from 1). */
  | { type: "item"; index: number; item: number; text: string; line: number }
  /**
   * The rest of a big document, after its last item: the keys outside `items:` (`items:` itself
   * stays, empty), or nothing for a root sequence.
   */
  | { type: "envelope"; index: number; text: string; line: number; rootSequence: boolean };

/** One document (or item) is larger than the per-object limit and cannot be split. */
export class YamlObjectTooLargeError extends Error {
  override name = "YamlObjectTooLargeError";
}

type ItemsState = "none" | "afterKey" | "in" | "done";

const SPACE = 0x20;
const TAB = 0x09;
const DASH = 0x2d;
const HASH = 0x23;
const CR = 0x0d;
const LF = 0x0a;

/** A line's shape: its indentation (spaces) and its first non-blank character (-1 if none). */
function shape(line: string): { indent: number; first: number; at: number } {
  let i = 0;
  const n = line.length;
  while (i < n && line.charCodeAt(i) === SPACE) i++;
  const indent = i;
  while (i < n && (line.charCodeAt(i) === SPACE || line.charCodeAt(i) === TAB)) i++;
  const c = i < n ? line.charCodeAt(i) : -1;
  return { indent, first: c === CR || c === LF ? -1 : c, at: i };
}

/** `- ` (or a lone `-`) at offset `at`: a block sequence entry. */
function isEntry(line: string, at: number): boolean {
  if (line.charCodeAt(at) !== DASH) return false;
  const next = line.charCodeAt(at + 1);
  return Number.isNaN(next) || next === SPACE || next === TAB || next === LF || next === CR;
}

/** `---` or `...` at column 0, followed by a blank or the line's end. */
function marker(line: string): "---" | "..." | null {
  const c = line.charCodeAt(0);
  if (c !== DASH && c !== 0x2e) return null;
  if (line.charCodeAt(1) !== c || line.charCodeAt(2) !== c) return null;
  const next = line.charCodeAt(3);
  if (!(Number.isNaN(next) || next === SPACE || next === TAB || next === LF || next === CR)) return null;
  return c === DASH ? "---" : "...";
}

const itemsKey = /^items:[ \t]*(#.*)?\r?\n?$/;

export interface YamlSplitterOptions {
  /** A document up to this many characters is parsed whole. */
  wholeDocumentChars: number;
  /** The largest document that cannot be split, or item. */
  maxObjectChars: number;
}

export class YamlSplitter {
  private partial = "";
  private lineNo = 0;
  private docs = 0;
  private open = false;
  private prolog: string[] = [];
  private prologLine = 0;
  // The open document, whole: its lines, and where its items start.
  private lines: string[] = [];
  private size = 0;
  private docLine = 0;
  private splittable = true;
  private items: ItemsState = "none";
  private rootSequence = false;
  private sawContent = false;
  private seqIndent = 0;
  private itemStarts: number[] = [];
  private itemsEnd = -1;
  // Item mode: the document is being handed on item by item.
  private itemMode = false;
  private envelope: string[] = [];
  private envelopeLine = 0;
  private itemLines: string[] = [];
  private itemSize = 0;
  private itemLine = 0;
  private itemCount = 0;

  constructor(
    private readonly emit: (part: YamlPart) => void,
    private readonly opts: YamlSplitterOptions,
  ) {}

  feed(chunk: string): void {
    let start = 0;
    if (this.partial) {
      const nl = chunk.indexOf("\n");
      if (nl < 0) {
        this.partial += chunk;
        this.checkLine();
        return;
      }
      this.line(this.partial + chunk.slice(0, nl + 1));
      this.partial = "";
      start = nl + 1;
    }
    for (let nl = chunk.indexOf("\n", start); nl >= 0; nl = chunk.indexOf("\n", start)) {
      this.line(chunk.slice(start, nl + 1));
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.partial = chunk.slice(start);
      this.checkLine();
    }
  }

  end(): void {
    if (this.partial) {
      this.line(this.partial);
      this.partial = "";
    }
    if (this.open) this.endDocument();
  }

  private checkLine(): void {
    if (this.partial.length > this.opts.maxObjectChars) {
      throw new YamlObjectTooLargeError(
        `line ${this.lineNo + 1} is longer than ${formatByteSize(this.opts.maxObjectChars)}`,
      );
    }
  }

  private line(line: string): void {
    this.lineNo++;
    const m = marker(line);
    if (m === "---") {
      if (this.open) this.endDocument();
      this.openDocument();
      // Content after the marker (`--- |`, `--- !!map`): the document is not a plain list.
      const rest = shape(line.slice(3)).first;
      if (rest !== -1 && rest !== HASH) this.splittable = false;
      this.add(line, false);
      return;
    }
    if (m === "...") {
      if (!this.open) this.openDocument();
      this.add(line, false);
      this.endDocument();
      return;
    }
    const s = shape(line);
    const content = s.first !== -1 && s.first !== HASH;
    if (!this.open) {
      if (!content) {
        if (this.prolog.length === 0) this.prologLine = this.lineNo;
        this.prolog.push(line);
        return;
      }
      if (s.indent === 0 && line.charCodeAt(0) === 0x25 /* % directive */) {
        if (this.prolog.length === 0) this.prologLine = this.lineNo;
        this.prolog.push(line);
        return;
      }
      this.openDocument();
    }
    this.add(line, content, s);
  }

  private openDocument(): void {
    this.open = true;
    this.docs++;
    this.docLine = this.prolog.length > 0 ? this.prologLine : this.lineNo;
    this.lines = this.prolog;
    this.size = 0;
    for (const l of this.prolog) this.size += l.length;
    this.prolog = [];
    this.splittable = true;
    this.items = "none";
    this.rootSequence = false;
    this.sawContent = false;
    this.itemStarts = [];
    this.itemsEnd = -1;
    this.itemMode = false;
  }

  /** Adds a line of the open document, following its items. */
  private add(line: string, content: boolean, s?: { indent: number; first: number; at: number }): void {
    // Where the line goes: "item" starts an item, "in" continues one, "out" is outside the items.
    let place: "item" | "in" | "out" = "out";
    if (s !== undefined && this.splittable) {
      switch (this.items) {
        case "none":
          if (content && s.indent === 0) {
            if (!this.sawContent && isEntry(line, 0)) {
              this.rootSequence = true;
              this.items = "in";
              this.seqIndent = 0;
              place = "item";
            } else if (itemsKey.test(line)) this.items = "afterKey";
          }
          break;
        case "afterKey":
          if (content) {
            if (isEntry(line, s.at) && s.at === s.indent) {
              this.items = "in";
              this.seqIndent = s.indent;
              place = "item";
            } else this.items = "done";
          }
          break;
        case "in":
          if (!content || s.indent > this.seqIndent) place = "in";
          else if (s.indent === this.seqIndent && isEntry(line, s.at) && s.at === s.indent) place = "item";
          else {
            this.items = "done";
            if (this.rootSequence) this.splittable = false;
          }
          break;
        case "done":
          break;
      }
      if (content) this.sawContent = true;
    }
    if (this.itemMode) {
      this.addInItemMode(line, place);
      return;
    }
    if (place === "item") this.itemStarts.push(this.lines.length);
    else if (place === "out" && this.itemStarts.length > 0 && this.itemsEnd < 0)
      this.itemsEnd = this.lines.length;
    this.lines.push(line);
    this.size += line.length;
    if (this.size > this.opts.wholeDocumentChars) {
      if (this.splittable && this.itemStarts.length > 0) this.toItemMode();
      else if (this.size > this.opts.maxObjectChars) {
        throw new YamlObjectTooLargeError(
          `document ${this.docs} (from line ${this.docLine}) is larger than ${formatByteSize(this.opts.maxObjectChars)} and is not a list of items`,
        );
      }
    }
  }

  /** The document grew too big to parse whole: hand on its finished items, keep the rest apart. */
  private toItemMode(): void {
    this.itemMode = true;
    const lines = this.lines;
    const starts = this.itemStarts;
    const first = starts[0] as number;
    const end = this.itemsEnd < 0 ? lines.length : this.itemsEnd;
    this.envelope = lines.slice(0, first);
    this.envelopeLine = this.docLine;
    this.itemCount = 0;
    for (let k = 0; k < starts.length; k++) {
      const from = starts[k] as number;
      const to = k + 1 < starts.length ? (starts[k + 1] as number) : end;
      const last = k === starts.length - 1 && this.itemsEnd < 0;
      this.itemLines = lines.slice(from, to);
      this.itemLine = this.docLine + from;
      this.itemSize = 0;
      for (const l of this.itemLines) this.itemSize += l.length;
      if (!last) this.finishItem();
    }
    if (this.itemsEnd >= 0) {
      for (let k = this.itemsEnd; k < lines.length; k++) this.envelope.push(lines[k] as string);
    }
    this.lines = [];
    this.itemStarts = [];
  }

  private addInItemMode(line: string, place: "item" | "in" | "out"): void {
    if (place === "item") {
      if (this.itemLines.length > 0) this.finishItem();
      this.itemLine = this.lineNo;
    }
    if (place === "out") {
      if (this.itemLines.length > 0) this.finishItem();
      this.envelope.push(line);
      return;
    }
    this.itemLines.push(line);
    this.itemSize += line.length;
    if (this.itemSize > this.opts.maxObjectChars) {
      throw new YamlObjectTooLargeError(
        `document ${this.docs}, item ${this.itemCount + 1} (from line ${this.itemLine}) is larger than ${formatByteSize(this.opts.maxObjectChars)}`,
      );
    }
  }

  private finishItem(): void {
    this.itemCount++;
    const text = this.itemLines.join("");
    this.itemLines = [];
    this.itemSize = 0;
    this.emit({ type: "item", index: this.docs, item: this.itemCount, text, line: this.itemLine });
  }

  private endDocument(): void {
    this.open = false;
    if (this.itemMode) {
      if (this.itemLines.length > 0) this.finishItem();
      const text = this.envelope.join("");
      this.envelope = [];
      this.emit({
        type: "envelope",
        index: this.docs,
        text,
        line: this.envelopeLine,
        rootSequence: this.rootSequence,
      });
      this.itemMode = false;
      return;
    }
    const text = this.lines.join("");
    this.lines = [];
    this.emit({ type: "document", index: this.docs, text, line: this.docLine });
  }
}
