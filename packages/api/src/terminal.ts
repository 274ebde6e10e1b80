// upstream: staging/src/k8s.io/cli-runtime/pkg/printers/terminal.go (EscapeTerminal). kubectl's
// human-readable printers write ESC as "^[" and CR as "\r" so that an object's name cannot drive
// the terminal (clear the screen, move the cursor, retitle the window). kubesched escapes every
// control character: a newline or a tab in a name would otherwise forge rows of a table.

// C0 controls, DEL and C1 controls (U+009B is a one-character CSI for terminals that read C1).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const control = /[\u0000-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, newlines excepted.
const controlButNewline = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

function replacement(c: string): string {
  switch (c) {
    case "\u001b":
      return "^[";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      // \u00XX is also a valid escape inside a JSON string, so JSON log lines stay JSON.
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  }
}

/**
 * Text for a terminal: control characters written as visible escapes (ESC as `^[`, as kubectl's
 * printers write it; `\n`, `\r`, `\t`; the others as `\u00XX`). The result contains no control
 * characters, so escaping twice changes nothing. With `keepNewlines`, line breaks stay line breaks
 * (for text whose lines the caller made; values inside it must be escaped whole first).
 * @public
 */
export function escapeTerminal(text: string, opts: { keepNewlines?: boolean } = {}): string {
  const re = opts.keepNewlines ? controlButNewline : control;
  // A regular expression with the g flag keeps state in `lastIndex`; `replace` resets it.
  return text.search(re) < 0 ? text : text.replace(re, replacement);
}
