// Plain-text output for people: tables with columns padded to their widest cell, two spaces
// apart, and the values they show escaped for the terminal.
import { escapeTerminal } from "@kubesched/api";

/**
 * `value` with every string escaped for the terminal (@kubesched/api's escapeTerminal), for the
 * table outputs: an object's name or a message cannot drive the terminal or forge rows. The JSON
 * and YAML outputs print values as they are (their encodings are safe). Returns `value` itself
 * when nothing needed escaping.
 */
export function forTerminal<T>(value: T): T {
  if (typeof value === "string") return escapeTerminal(value) as T;
  if (Array.isArray(value)) {
    const out = value.map(forTerminal);
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value !== null && typeof value === "object") {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const e = forTerminal(v);
      const key = escapeTerminal(k);
      if (e === v && key === k) continue;
      out ??= { ...(value as Record<string, unknown>) };
      if (key !== k) delete out[k];
      out[key] = e;
    }
    return (out ?? value) as T;
  }
  return value;
}

/** The rows as lines, each column as wide as its widest cell (the last column unpadded). */
export function pad(cells: string[][]): string {
  const widths: number[] = [];
  for (const row of cells) {
    row.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return cells
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
