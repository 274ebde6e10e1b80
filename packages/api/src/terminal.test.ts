import { describe, expect, it } from "vitest";
import { escapeTerminal } from "./terminal";

describe("escapeTerminal", () => {
  it("writes ESC as ^[ and CR as \\r, as kubectl's printers", () => {
    expect(escapeTerminal("evil\u001b[2J")).toBe("evil^[[2J");
    expect(escapeTerminal("a\rb")).toBe("a\\rb");
  });

  it("escapes newlines and tabs (forged rows) and every other C0, DEL and C1 control", () => {
    expect(escapeTerminal("web\nfake  Scheduled\tx")).toBe("web\\nfake  Scheduled\\tx");
    expect(escapeTerminal("\u0000\u0007\u0008\u007f\u0085\u009b")).toBe(
      "\\u0000\\u0007\\u0008\\u007f\\u0085\\u009b",
    );
  });

  it("keeps line breaks when asked, and other text as it is", () => {
    expect(escapeTerminal("line 1\u001b[1A\nline 2\n", { keepNewlines: true })).toBe("line 1^[[1A\nline 2\n");
    const plain = "default/web-1 ✓ ünïcode";
    expect(escapeTerminal(plain)).toBe(plain);
  });

  it("is idempotent, and its \\u escapes keep a JSON string valid", () => {
    const once = escapeTerminal('{"msg":"\u009b2J\u007f"}');
    expect(escapeTerminal(once)).toBe(once);
    expect(JSON.parse(once)).toEqual({ msg: "\u009b2J\u007f" });
  });
});
