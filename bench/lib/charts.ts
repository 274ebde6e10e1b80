// Self-contained SVG charts of a bench run (no dependencies, no scripts, no external fonts):
// each workload's throughput over time (its 1-s samples) and the scaling curve (SchedulingBasic
// at several node counts). Written to bench/results/*.svg by run.ts.

export interface ChartLine {
  /** Value on the y axis. */
  value: number;
  label: string;
  /** CSS colour. */
  color: string;
}

export interface ThroughputChartInput {
  title: string;
  subtitle: string;
  /** The samples: seconds since the measured phase started, pods/s. */
  samples: readonly { t: number; rate: number }[];
  /** Horizontal reference lines (average, upstream floor, target). */
  lines: readonly ChartLine[];
  /** Shown instead of a curve when there are no samples. */
  emptyNote?: string;
  /** Length of the measured phase in seconds (the x axis spans it). */
  durationS: number;
}

export interface ScalingPoint {
  nodes: number;
  podsPerSecond: number;
  msPerPod: number;
  /** The bare loop's pods/s at this size (bench/ceiling.ts); null when not measured. */
  ceiling: number | null;
}

const W = 760;
const H = 380;
const pad = { left: 64, right: 24, top: 66, bottom: 48 };
const font = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';

function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

function fmt(v: number): string {
  if (v === 0) return "0";
  if (Math.abs(v) >= 1000) return `${Math.round(v / 100) / 10}k`.replace(".0k", "k");
  if (Math.abs(v) >= 10) return String(Math.round(v));
  return String(Math.round(v * 100) / 100);
}

/** About `count` round tick values from 0 to at least `max`. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

interface Frame {
  x0: number;
  y0: number;
  w: number;
  h: number;
}

function axes(
  frame: Frame,
  xTicks: { v: number; label: string; x: number }[],
  yTicks: number[],
  yMax: number,
  xLabel: string,
  yLabel: string,
): string {
  const { x0, y0, w, h } = frame;
  const out: string[] = [];
  for (const t of yTicks) {
    const y = y0 + h - (t / yMax) * h;
    out.push(`<line x1="${x0}" y1="${y.toFixed(1)}" x2="${x0 + w}" y2="${y.toFixed(1)}" stroke="#e5e7eb"/>`);
    out.push(
      `<text x="${x0 - 8}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#4b5563">${fmt(t)}</text>`,
    );
  }
  for (const t of xTicks) {
    out.push(
      `<line x1="${t.x.toFixed(1)}" y1="${y0 + h}" x2="${t.x.toFixed(1)}" y2="${y0 + h + 4}" stroke="#6b7280"/>`,
    );
    out.push(
      `<text x="${t.x.toFixed(1)}" y="${y0 + h + 17}" text-anchor="middle" font-size="11" fill="#4b5563">${esc(t.label)}</text>`,
    );
  }
  out.push(`<line x1="${x0}" y1="${y0 + h}" x2="${x0 + w}" y2="${y0 + h}" stroke="#6b7280"/>`);
  out.push(`<line x1="${x0}" y1="${y0}" x2="${x0}" y2="${y0 + h}" stroke="#6b7280"/>`);
  out.push(
    `<text x="${x0 + w / 2}" y="${y0 + h + 36}" text-anchor="middle" font-size="12" fill="#111827">${esc(xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(${x0 - 46} ${y0 + h / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="#111827">${esc(yLabel)}</text>`,
  );
  return out.join("\n");
}

function header(title: string, subtitle: string): string {
  // A long subtitle breaks at its last "; " that fits, onto a second line.
  const max = 118;
  let first = subtitle;
  let second = "";
  if (subtitle.length > max) {
    const cut = subtitle.lastIndexOf("; ", max);
    if (cut > 0) {
      first = subtitle.slice(0, cut + 1);
      second = subtitle.slice(cut + 2);
    }
  }
  return [
    `<text x="${pad.left}" y="22" font-size="16" font-weight="600" fill="#111827">${esc(title)}</text>`,
    `<text x="${pad.left}" y="38" font-size="11" fill="#4b5563">${esc(first)}</text>`,
    second ? `<text x="${pad.left}" y="51" font-size="11" fill="#4b5563">${esc(second)}</text>` : "",
  ].join("\n");
}

function svg(body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ${font} role="img" aria-label="${esc(title)}">
<title>${esc(title)}</title>
<rect width="${W}" height="${H}" fill="#ffffff"/>
${body}
</svg>
`;
}

/** Pods/s per 1-s sample over the measured phase, with the average, floor and target as lines. */
export function throughputChart(input: ThroughputChartInput): string {
  const frame: Frame = {
    x0: pad.left,
    y0: pad.top,
    w: W - pad.left - pad.right,
    h: H - pad.top - pad.bottom,
  };
  const tMax = Math.max(1, input.durationS, ...input.samples.map((s) => s.t));
  const yMax0 = Math.max(1, ...input.samples.map((s) => s.rate), ...input.lines.map((l) => l.value));
  const yTicks = niceTicks(yMax0 * 1.05);
  const yMax = yTicks[yTicks.length - 1] as number;
  const x = (t: number) => frame.x0 + (t / tMax) * frame.w;
  const y = (v: number) => frame.y0 + frame.h - (v / yMax) * frame.h;
  const xTicks = niceTicks(tMax)
    .filter((t) => t <= tMax)
    .map((t) => ({ v: t, label: fmt(t), x: x(t) }));
  const parts = [
    header(input.title, input.subtitle),
    axes(frame, xTicks, yTicks, yMax, "seconds into the measured phase", "pods/s (1-s samples)"),
  ];
  input.lines.forEach((l, i) => {
    const ly = y(l.value);
    parts.push(
      `<line x1="${frame.x0}" y1="${ly.toFixed(1)}" x2="${frame.x0 + frame.w}" y2="${ly.toFixed(1)}" stroke="${l.color}" stroke-dasharray="6 4" stroke-width="1.5"/>`,
    );
    // Labels alternate right and left so that close lines stay readable.
    const right = i % 2 === 0;
    parts.push(
      `<text x="${right ? frame.x0 + frame.w - 4 : frame.x0 + 4}" y="${(ly - 4).toFixed(1)}" text-anchor="${right ? "end" : "start"}" font-size="11" fill="${l.color}">${esc(l.label)}</text>`,
    );
  });
  if (input.samples.length > 0) {
    const pts = input.samples.map((s) => `${x(s.t).toFixed(1)},${y(s.rate).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${pts}" fill="none" stroke="#2563eb" stroke-width="2"/>`);
    for (const s of input.samples) {
      parts.push(`<circle cx="${x(s.t).toFixed(1)}" cy="${y(s.rate).toFixed(1)}" r="2.5" fill="#2563eb"/>`);
    }
  } else if (input.emptyNote) {
    parts.push(
      `<text x="${frame.x0 + frame.w / 2}" y="${frame.y0 + frame.h / 2}" text-anchor="middle" font-size="13" fill="#6b7280">${esc(input.emptyNote)}</text>`,
    );
  }
  return svg(parts.join("\n"), input.title);
}

/** Pods/s and ms per pod against node count (log scale), with each size's % of the bare-loop ceiling. */
export function scalingChart(title: string, subtitle: string, points: readonly ScalingPoint[]): string {
  const sorted = [...points].sort((a, b) => a.nodes - b.nodes);
  const gap = 56;
  const panelW = (W - pad.left - pad.right - gap) / 2;
  const h = H - pad.top - pad.bottom;
  const lo = Math.log10(Math.min(...sorted.map((p) => p.nodes)) / 1.5);
  const hi = Math.log10(Math.max(...sorted.map((p) => p.nodes)) * 1.5);
  const parts = [header(title, subtitle)];
  const panel = (x0: number, values: number[], yLabel: string, color: string, labels: string[]) => {
    const frame: Frame = { x0, y0: pad.top, w: panelW, h };
    const yTicks = niceTicks(Math.max(...values) * 1.15);
    const yMax = yTicks[yTicks.length - 1] as number;
    const x = (n: number) => x0 + ((Math.log10(n) - lo) / (hi - lo)) * panelW;
    const y = (v: number) => pad.top + h - (v / yMax) * h;
    const xTicks = sorted.map((p) => ({ v: p.nodes, label: fmt(p.nodes), x: x(p.nodes) }));
    parts.push(axes(frame, xTicks, yTicks, yMax, "nodes (log scale)", yLabel));
    const pts = sorted
      .map((p, i) => `${x(p.nodes).toFixed(1)},${y(values[i] as number).toFixed(1)}`)
      .join(" ");
    parts.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"/>`);
    sorted.forEach((p, i) => {
      const cx = x(p.nodes);
      const cy = y(values[i] as number);
      parts.push(`<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="3.5" fill="${color}"/>`);
      parts.push(
        `<text x="${cx.toFixed(1)}" y="${(cy - 9).toFixed(1)}" text-anchor="middle" font-size="11" fill="#111827">${esc(labels[i] as string)}</text>`,
      );
    });
  };
  panel(
    pad.left,
    sorted.map((p) => p.podsPerSecond),
    "pods/s",
    "#2563eb",
    sorted.map(
      (p) =>
        `${fmt(p.podsPerSecond)}${p.ceiling ? ` (${((p.podsPerSecond / p.ceiling) * 100).toFixed(1)}%)` : ""}`,
    ),
  );
  panel(
    pad.left + panelW + gap,
    sorted.map((p) => p.msPerPod),
    "ms per pod",
    "#dc2626",
    sorted.map((p) => `${p.msPerPod.toFixed(2)} ms`),
  );
  return svg(parts.join("\n"), title);
}
