// Plain-text tables for the table outputs: columns padded to their widest cell, two spaces apart.

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
