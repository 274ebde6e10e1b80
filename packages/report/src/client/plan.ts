// `kubesched plan --report`: the PlanReport plan printed, drawn — the answer and how it was found,
// the nodes added per pool and their cost (inline SVG bars, nothing fetched), utilisation before
// (the snapshot's simulate) and after (the proof), the devices of DRA drivers per pool and per
// DeviceClass (allocated of published in the proof), the pods no pool can host, and every pending
// pod's node in the proof (paged).
import type { PlanSection } from "../model";
import { h, numTh, paged, searchBox, section, thead } from "./dom";

const svgNS = "http://www.w3.org/2000/svg";

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

interface BarRow {
  label: string;
  /** Drawn as parts of one bar, left to right: [value, css class]. */
  parts: [number, string][];
  /** The bar's full scale (the axis' maximum for this row). */
  max: number;
  text: string;
}

/** Horizontal bars, one row each, as one inline SVG element. */
function bars(id: string, title: string, rows: BarRow[]): SVGElement {
  const labelWidth = 150;
  const barWidth = 360;
  const rowHeight = 26;
  const width = labelWidth + barWidth + 170;
  const height = rows.length * rowHeight + 8;
  const out = svg("svg", {
    id,
    class: "chart",
    role: "img",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    "aria-label": title,
  });
  out.append(svg("title", {}, title));
  rows.forEach((r, i) => {
    const y = 4 + i * rowHeight;
    const g = svg("g", { class: "bar-row", "data-label": r.label });
    g.append(svg("text", { x: labelWidth - 8, y: y + 16, "text-anchor": "end", class: "label" }, r.label));
    g.append(svg("rect", { x: labelWidth, y: y + 3, width: barWidth, height: 18, class: "track" }));
    let x = labelWidth;
    for (const [value, cls] of r.parts) {
      const w = r.max > 0 ? Math.min(barWidth, (value / r.max) * barWidth) : 0;
      g.append(svg("rect", { x, y: y + 3, width: w, height: 18, class: cls }));
      x += w;
    }
    g.append(svg("text", { x: labelWidth + barWidth + 8, y: y + 16, class: "value" }, r.text));
    out.append(g);
  });
  return out;
}

const percent = (f: number) => `${(f * 100).toFixed(1)}%`;

type PlanDevices = NonNullable<PlanSection["report"]["status"]["devices"]>;

/** The proof's devices: per pool whose added nodes publish ResourceSlices, per DeviceClass. */
function devicesSection(d: PlanDevices): HTMLElement {
  const row = (label: string, allocated: number, published: number, note = "") => ({
    label,
    parts: [
      [allocated, "after"],
      [published - allocated, "room"],
    ] as [number, string][],
    max: published,
    text: `${allocated}/${published}${note}`,
  });
  const out = section(
    "plan-devices",
    "Devices",
    h(
      "p",
      { class: "muted" },
      "Devices of DRA drivers in the proof: allocated to claims of the published ones, per pool of added nodes and per DeviceClass (over every node; added: published by the pools' nodes).",
    ),
  );
  if (d.pools.length > 0)
    out.append(
      h("h3", null, "Added per pool"),
      bars(
        "plan-pool-devices-chart",
        "Devices per pool (allocated of published)",
        d.pools.map((p) => row(p.pool, p.allocated, p.published)),
      ),
    );
  if (d.classes.length > 0)
    out.append(
      h("h3", null, "Per DeviceClass"),
      bars(
        "plan-class-devices-chart",
        "Devices per DeviceClass (allocated of published)",
        d.classes.map((c) => row(c.name, c.allocated, c.published, ` (${c.added} added)`)),
      ),
    );
  return out;
}

export function plan(sec: PlanSection): HTMLElement[] {
  const r = sec.report;
  const s = r.status;
  const how =
    r.spec.expander === null
      ? `exact search, smallest by ${r.spec.optimize === "cost" ? "price" : "node count"}`
      : `${r.spec.expander} expander (not searched for the smallest)`;
  const answer = section(
    "plan-answer",
    "Plan",
    h(
      "p",
      { id: "plan-summary" },
      h("span", { class: `outcome ${s.found ? "Scheduled" : "Unschedulable"}` }, s.found ? "found" : "none"),
      s.found
        ? ` add ${s.nodes} node(s)${s.cost !== null ? `, cost ${s.cost}` : ""} — ${how}.`
        : ` ${s.message} — ${how}.`,
    ),
    h(
      "p",
      { class: "muted", id: "plan-search" },
      `${s.message}. Search: ${s.search.simulations} simulation(s), ${s.search.pruned} addition(s) ruled out by the lower bounds${s.search.lowerBound !== null ? ` (${r.spec.optimize === "cost" ? "price" : "nodes"} ≥ ${s.search.lowerBound})` : ""}${s.search.exhausted ? ", stopped at --max-simulations" : ""}.`,
    ),
  );

  const added = new Map(s.additions.map((a) => [a.pool, a]));
  const maxCount = Math.max(1, ...r.spec.pools.map((p) => p.maxCount));
  const pools = section(
    "plan-pools",
    "Added nodes per pool",
    bars(
      "plan-nodes-chart",
      "Added nodes per pool (of maxCount)",
      r.spec.pools.map((p) => ({
        label: p.name,
        parts: [
          [added.get(p.name)?.count ?? 0, "added"],
          [Math.max(0, p.maxCount - (added.get(p.name)?.count ?? 0)), "room"],
        ],
        max: maxCount,
        text: `${added.get(p.name)?.count ?? 0} of ${p.maxCount}`,
      })),
    ),
  );
  const priced = s.additions.filter((a) => a.price !== null);
  if (priced.length > 0) {
    const maxCost = Math.max(...priced.map((a) => a.price ?? 0));
    pools.append(
      h("h3", null, `Cost${s.cost !== null ? `: ${s.cost}` : ""}`),
      bars(
        "plan-cost-chart",
        "Cost per pool",
        priced.map((a) => ({
          label: a.pool,
          parts: [[a.price ?? 0, "cost"]],
          max: maxCost,
          text: String(a.price),
        })),
      ),
    );
  }
  const poolTable = h(
    "table",
    { id: "plan-pools-table" },
    thead("pool", numTh("added"), numTh("maxCount"), numTh("minCount"), numTh("price/node"), "nodes"),
  );
  const tbody = h("tbody", null);
  for (const p of r.spec.pools) {
    const a = added.get(p.name);
    tbody.append(
      h(
        "tr",
        null,
        h("td", null, p.name),
        h("td", { class: "num" }, a?.count ?? 0),
        h("td", { class: "num" }, p.maxCount),
        h("td", { class: "num" }, p.minCount),
        h("td", { class: "num" }, p.price === null ? "-" : p.price),
        h("td", null, a?.nodes.join(", ") ?? ""),
      ),
    );
  }
  poolTable.append(tbody);
  pools.append(h("div", { class: "scroll" }, poolTable));

  const u = s.utilisation;
  const utilisation = section(
    "plan-utilisation",
    "Utilisation before and after",
    h(
      "p",
      { class: "muted" },
      `Requested over allocatable on all nodes: before is the snapshot's simulate (${u.before.nodes} nodes), after is the proof (${u.after.nodes} nodes).`,
    ),
    bars("plan-utilisation-chart", "Utilisation before and after", [
      { label: "cpu before", parts: [[u.before.cpu, "before"]], max: 1, text: percent(u.before.cpu) },
      { label: "cpu after", parts: [[u.after.cpu, "after"]], max: 1, text: percent(u.after.cpu) },
      {
        label: "memory before",
        parts: [[u.before.memory, "before"]],
        max: 1,
        text: percent(u.before.memory),
      },
      { label: "memory after", parts: [[u.after.memory, "after"]], max: 1, text: percent(u.after.memory) },
    ]),
  );

  const out = [answer, pools, utilisation];
  if (s.devices !== undefined) out.push(devicesSection(s.devices));
  if (s.excluded.length > 0) {
    const t = h("table", { id: "plan-excluded-table" }, thead("pod", "pool", "reason"));
    const body = h("tbody", null);
    for (const e of s.excluded)
      for (const x of e.reasons)
        body.append(h("tr", null, h("td", null, e.pod), h("td", null, x.pool), h("td", null, x.reason)));
    t.append(body);
    out.push(section("plan-excluded", "Pods no pool can host", h("div", { class: "scroll" }, t)));
  }

  const scheduled = s.pods.filter((p) => p.outcome === "Scheduled").length;
  const search = searchBox("plan-pods-search", "filter pods, nodes, pools");
  let rows = s.pods;
  const table = h(
    "table",
    { id: "plan-pods-table" },
    thead("pod", "node", "pool", "outcome"),
  ) as HTMLTableElement;
  const page = paged(
    table,
    () => rows.length,
    (i) => {
      const p = rows[i] as (typeof rows)[number];
      return h(
        "tr",
        null,
        h("td", null, p.pod),
        h("td", null, p.node ?? ""),
        h("td", null, p.pool ?? (p.node === null ? "" : "(snapshot)")),
        h("td", null, h("span", { class: `outcome ${p.outcome}` }, p.outcome)),
      );
    },
    "pods",
  );
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase();
    rows =
      q === ""
        ? s.pods
        : s.pods.filter((p) => `${p.pod} ${p.node ?? ""} ${p.pool ?? ""}`.toLowerCase().includes(q));
    page.render(0);
  });
  page.render(0);
  out.push(
    section(
      "plan-proof",
      "Proof: every pending pod's node",
      h(
        "p",
        { id: "plan-proof-summary" },
        `${scheduled}/${s.pods.length} pending pod(s) scheduled by the follow-up simulate.`,
      ),
      search,
      page.el,
    ),
  );
  return out;
}
