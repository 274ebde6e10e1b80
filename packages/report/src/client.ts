/// <reference lib="dom" />
// The page's script. `reportClient` is serialised into the HTML with Function.prototype.toString,
// so it must be self-contained: no imports at run time and no references to anything outside its
// body (type-only imports are erased). It reads the model from the inline JSON blob and builds
// the DOM with textContent only (data never goes through innerHTML). Long tables are paged and a
// pod's explain view is built only when it is opened, so 5000 nodes render instantly. The DOM
// types are referenced here (not in tsconfig) because workspace packages compile this source.
import type {
  DiffSection,
  FilterRow,
  PodExplain,
  PodRow,
  ReportModel,
  ReportSection,
  SimulationSection,
} from "./model";

export function reportClient(): void {
  const pageSize = 50;
  const dataEl = document.getElementById("kubesched-report-data");
  const app = document.getElementById("app");
  if (!dataEl || !app) throw new Error("report: the data or the app element is missing");
  const model = JSON.parse(dataEl.textContent ?? "{}") as ReportModel;

  type Child = Node | string | number | null | undefined | false;
  function h(tag: string, attrs: Record<string, string> | null, ...children: Child[]): HTMLElement {
    const el = document.createElement(tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      el.append(typeof c === "number" ? String(c) : c);
    }
    return el;
  }

  function pct(v: number, of: number): number {
    return of > 0 ? Math.round((v / of) * 1000) / 10 : 0;
  }

  /** A before → after bar: the part held before, then what the simulation added (or freed). */
  function bar(before: number, after: number, alloc: number): HTMLElement {
    const base = Math.min(before, after);
    const delta = Math.abs(after - before);
    const b = h("span", { class: "bar" });
    const width = (v: number) => `${Math.min(100, pct(v, alloc))}%`;
    b.append(h("span", { class: "fill before", style: `width:${width(base)}` }));
    b.append(
      h("span", { class: `fill ${after >= before ? "added" : "freed"}`, style: `width:${width(delta)}` }),
    );
    if (alloc > 0 && after > alloc) b.classList.add("over");
    return b;
  }

  /** A table body paged by `pageSize`, with a pager under it; `rows()` is read on every render. */
  function paged(
    table: HTMLTableElement,
    rows: () => number,
    renderRow: (i: number) => HTMLElement,
    label: string,
  ): { el: HTMLElement; render: (page?: number) => void } {
    const body = h("tbody", null) as HTMLTableSectionElement;
    table.append(body);
    const info = h("span", { class: "pager-info" });
    const prev = h("button", { type: "button", class: "prev" }, "‹ prev");
    const next = h("button", { type: "button", class: "next" }, "next ›");
    let page = 0;
    const render = (p = page) => {
      const total = rows();
      const pages = Math.max(1, Math.ceil(total / pageSize));
      page = Math.min(Math.max(0, p), pages - 1);
      body.replaceChildren();
      const end = Math.min(total, (page + 1) * pageSize);
      for (let i = page * pageSize; i < end; i++) body.append(renderRow(i));
      info.textContent =
        total === 0
          ? `no ${label}`
          : `${page * pageSize + 1}–${end} of ${total} ${label} (page ${page + 1}/${pages})`;
      (prev as HTMLButtonElement).disabled = page === 0;
      (next as HTMLButtonElement).disabled = page >= pages - 1;
    };
    prev.addEventListener("click", () => render(page - 1));
    next.addEventListener("click", () => render(page + 1));
    const el = h(
      "div",
      { class: "paged" },
      h("div", { class: "scroll" }, table),
      h("div", { class: "pager" }, prev, info, next),
    );
    return { el, render };
  }

  function section(id: string, title: string, ...children: Child[]): HTMLElement {
    return h("section", { id }, h("h2", null, title), ...children);
  }

  function simulation(sec: SimulationSection): HTMLElement[] {
    const str = (i: number) => sec.strings[i] ?? "";
    const s = sec.summary;
    const out: HTMLElement[] = [];

    // Summary: outcome counts and cluster-wide utilisation.
    const card = (key: string, label: string, n: number) =>
      h(
        "div",
        { class: `card ${key}` },
        h("div", { class: "n", id: `summary-${key}` }, n),
        h("div", { class: "l" }, label),
      );
    const totals = h("table", { class: "totals" });
    totals.append(
      h(
        "tr",
        null,
        h("th", null, "resource"),
        h("th", null, "before"),
        h("th", null, "after"),
        h("th", null, ""),
      ),
    );
    for (const r of sec.resources) {
      let alloc = 0;
      let before = 0;
      let after = 0;
      for (const n of sec.nodes) {
        const c = n.resources[r];
        if (!c) continue;
        alloc += c.value[0];
        before += c.value[1];
        after += c.value[2];
      }
      totals.append(
        h(
          "tr",
          null,
          h("td", null, r),
          h("td", { class: "num" }, `${pct(before, alloc)}%`),
          h("td", { class: "num" }, `${pct(after, alloc)}%`),
          h("td", { class: "barcell" }, bar(before, after, alloc)),
        ),
      );
    }
    out.push(
      section(
        "summary",
        "Summary",
        h(
          "div",
          { class: "cards" },
          card("pods", "pending pods", s.pods),
          card("scheduled", "scheduled", s.scheduled),
          card("unschedulable", "unschedulable", s.unschedulable),
          card("error", "error", s.error),
          card("gated", "gated", s.gated),
          card("skipped", "skipped", s.skipped),
          card("preemptions", "preemptions", sec.preemptions.length),
        ),
        h(
          "p",
          { class: "muted" },
          `${sec.nodes.length} nodes. Cluster utilisation (requested / allocatable), before and after the simulation:`,
        ),
        totals,
        h(
          "p",
          { class: "legend" },
          h("span", { class: "swatch before" }),
          " before ",
          h("span", { class: "swatch added" }),
          " added by the simulation ",
          h("span", { class: "swatch freed" }),
          " freed (preemption victims)",
        ),
      ),
    );

    // Unschedulable reasons, aggregated over pods.
    const reasons = h("table", { id: "reasons-table" });
    reasons.append(
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, "reason"),
          h("th", { class: "num" }, "pods"),
          h("th", { class: "num" }, "nodes (summed)"),
        ),
      ),
    );
    for (const r of sec.reasons) {
      reasons.append(
        h(
          "tr",
          null,
          h("td", null, r.reason),
          h("td", { class: "num" }, r.pods),
          h("td", { class: "num" }, r.nodes),
        ),
      );
    }
    out.push(
      section(
        "reasons",
        "Unschedulable reasons",
        sec.reasons.length ? reasons : h("p", { class: "muted" }, "No pod is unschedulable."),
      ),
    );

    // Preemptions with their victims.
    const pre = h("table", { id: "preemptions-table" });
    pre.append(
      h(
        "thead",
        null,
        h("tr", null, h("th", null, "preemptor"), h("th", null, "node"), h("th", null, "victims")),
      ),
    );
    for (const p of sec.preemptions)
      pre.append(
        h("tr", null, h("td", null, p.preemptor), h("td", null, p.node), h("td", null, p.victims.join(", "))),
      );
    out.push(
      section(
        "preemptions",
        "Preemptions",
        sec.preemptions.length ? pre : h("p", { class: "muted" }, "No preemptions."),
      ),
    );

    out.push(nodesSection(sec));
    out.push(podsSection(sec, str));
    return out;
  }

  function nodesSection(sec: SimulationSection): HTMLElement {
    const filter = h("input", {
      type: "search",
      placeholder: "filter nodes by name",
      id: "node-filter",
    }) as HTMLInputElement;
    const sort = h("select", { id: "node-sort" }) as HTMLSelectElement;
    sort.append(h("option", { value: "name" }, "sort: name"));
    for (const r of sec.resources) sort.append(h("option", { value: r }, `sort: ${r} after (desc)`));
    let view = sec.nodes;
    const table = h("table", { id: "nodes-table", class: "nodes" }) as HTMLTableElement;
    const head = h("tr", null, h("th", null, "node"));
    for (const r of sec.resources) head.append(h("th", null, r));
    table.append(h("thead", null, head));
    const p = paged(
      table,
      () => view.length,
      (i) => {
        const n = view[i];
        const tr = h("tr", null, h("td", { class: "name" }, n?.name ?? ""));
        for (const r of sec.resources) {
          const c = n?.resources[r];
          if (!c || (c.value[0] === 0 && c.value[2] === 0)) {
            tr.append(h("td", { class: "muted" }, "–"));
            continue;
          }
          const [alloc, before, after] = c.text;
          const changed = before !== after ? `${before} → ${after}` : after;
          tr.append(
            h(
              "td",
              { class: "res", title: `${r}: ${before} before, ${after} after, ${alloc} allocatable` },
              bar(c.value[1], c.value[2], c.value[0]),
              h("span", { class: "restext" }, `${changed} / ${alloc} (${pct(c.value[2], c.value[0])}%)`),
            ),
          );
        }
        return tr;
      },
      "nodes",
    );
    const apply = () => {
      const q = filter.value.trim().toLowerCase();
      view = q ? sec.nodes.filter((n) => n.name.toLowerCase().includes(q)) : sec.nodes.slice();
      const key = sort.value;
      if (key !== "name") {
        const frac = (n: (typeof view)[number]) => {
          const c = n.resources[key];
          return c && c.value[0] > 0 ? c.value[2] / c.value[0] : -1;
        };
        view.sort((a, b) => frac(b) - frac(a));
      }
      p.render(0);
    };
    filter.addEventListener("input", apply);
    sort.addEventListener("change", apply);
    apply();
    return section("nodes", "Nodes", h("div", { class: "controls" }, filter, sort), p.el);
  }

  function podsSection(sec: SimulationSection, str: (i: number) => string): HTMLElement {
    const filter = h("input", {
      type: "search",
      placeholder: "filter pods (name, node, message)",
      id: "pod-filter",
    }) as HTMLInputElement;
    const outcome = h("select", { id: "pod-outcome" }) as HTMLSelectElement;
    for (const o of ["all", "Scheduled", "Unschedulable", "Error", "Gated", "Skipped"])
      outcome.append(h("option", { value: o }, o === "all" ? "all outcomes" : o));
    let view: PodRow[] = sec.pods;
    const table = h("table", { id: "pods-table" }) as HTMLTableElement;
    table.append(
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, "pod"),
          h("th", null, "outcome"),
          h("th", null, "node"),
          h("th", { class: "num" }, "attempts"),
          h("th", null, "message"),
          h("th", null, ""),
        ),
      ),
    );
    const p = paged(
      table,
      () => view.length,
      (i) => {
        const pod = view[i] as PodRow;
        const key = `${pod.namespace}/${pod.name}`;
        const node = pod.node ?? (pod.nominatedNode ? `(nominated ${pod.nominatedNode})` : "–");
        const btn = pod.explain
          ? h("button", { type: "button", class: "explain-btn", "data-pod": key }, "explain")
          : null;
        btn?.addEventListener("click", () => openExplain(pod, str, sec.nodes.length));
        return h(
          "tr",
          { "data-pod": key },
          h("td", { class: "name" }, key),
          h("td", null, h("span", { class: `outcome ${pod.outcome}` }, pod.outcome)),
          h("td", null, node),
          h("td", { class: "num" }, pod.attempts),
          h("td", { class: "msg" }, pod.message ?? ""),
          h("td", null, btn),
        );
      },
      "pods",
    );
    const apply = () => {
      const q = filter.value.trim().toLowerCase();
      const o = outcome.value;
      view = sec.pods.filter(
        (pod) =>
          (o === "all" || pod.outcome === o) &&
          (!q ||
            `${pod.namespace}/${pod.name} ${pod.node ?? ""} ${pod.message ?? ""}`.toLowerCase().includes(q)),
      );
      p.render(0);
    };
    filter.addEventListener("input", apply);
    outcome.addEventListener("change", apply);
    apply();
    const hint = sec.explained
      ? "Open a pod's explain view for its filter matrix and score breakdown (the attempt that decided its outcome)."
      : "Run with --explain for each pod's filter matrix and score breakdown.";
    return section(
      "pods",
      "Pods",
      h("p", { class: "muted" }, hint),
      h("div", { class: "controls" }, filter, outcome),
      p.el,
    );
  }

  function statusCell(code: string, reasons: string[]): HTMLElement {
    if (code === "Skip")
      return h(
        "td",
        { class: "notrun", title: "Skip: the plugin has nothing to check for this pod" },
        "skip",
      );
    const ok = code === "Success";
    return h(
      "td",
      { class: ok ? "ok" : "fail", title: reasons.length ? `${code}: ${reasons.join("; ")}` : code },
      ok ? "✓" : reasons.join("; ") || code,
    );
  }

  function openExplain(pod: PodRow, str: (i: number) => string, clusterNodes: number): void {
    const e = pod.explain as PodExplain;
    const body = h("div", {
      class: "modal",
      id: "explain",
      role: "dialog",
      "aria-label": `explain ${pod.namespace}/${pod.name}`,
    });
    const overlay = h("div", { class: "overlay" }, body);
    const close = () => {
      overlay.remove();
      document.removeEventListener("keydown", onKey);
    };
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    overlay.addEventListener("click", (ev) => {
      if (ev.target === overlay) close();
    });
    const closeBtn = h("button", { type: "button", class: "close", id: "explain-close" }, "close ✕");
    closeBtn.addEventListener("click", close);
    body.append(
      h("div", { class: "modal-head" }, h("h2", null, `${pod.namespace}/${pod.name}`), closeBtn),
      h(
        "p",
        null,
        h("span", { class: `outcome ${pod.outcome}` }, pod.outcome),
        " ",
        pod.node ? `on ${pod.node}` : pod.nominatedNode ? `nominated ${pod.nominatedNode}` : "",
        pod.attempts ? ` after ${pod.attempts} attempt(s)` : "",
      ),
    );
    if (pod.message) body.append(h("p", { class: "msg" }, pod.message));

    // PreFilter: one chip per plugin (Skip: nothing to check for this pod); a plugin that
    // narrowed the nodes lists them.
    if (e.preFilter.length) {
      const chips = h("div", { class: "chips", id: "prefilter" });
      for (const pf of e.preFilter) {
        const code = str(pf.code);
        const cls = code === "Success" ? "ok" : code === "Skip" ? "skip" : "fail";
        const detail =
          code === "Success" ? "✓" : code === "Skip" ? "skip" : `${code}: ${pf.reasons.map(str).join("; ")}`;
        const nodes = pf.nodeNames ? ` (nodes: ${pf.nodeNames.map(str).join(", ")})` : "";
        chips.append(h("span", { class: `chip ${cls}` }, `${str(pf.plugin)} ${detail}${nodes}`));
      }
      body.append(h("h3", null, "PreFilter"), chips);
    }

    // Filter matrix: nodes × plugins, failing nodes first.
    const rowOf = new Map<number, FilterRow>();
    const failing: number[] = [];
    const passing: number[] = [];
    e.filterNodes.forEach((nodes, ri) => {
      const row = e.filterRows[ri] ?? [];
      const failed = row.some(([, code]) => str(code) !== "Success" && str(code) !== "Skip");
      for (const n of nodes) {
        rowOf.set(n, row);
        (failed ? failing : passing).push(n);
      }
    });
    const byName = (a: number, b: number) => (str(a) < str(b) ? -1 : str(a) > str(b) ? 1 : 0);
    failing.sort(byName);
    passing.sort(byName);
    const rejected = new Map<number, number>();
    e.filterNodes.forEach((nodes, ri) => {
      for (const [plugin, code] of e.filterRows[ri] ?? []) {
        if (str(code) !== "Success" && str(code) !== "Skip")
          rejected.set(plugin, (rejected.get(plugin) ?? 0) + nodes.length);
      }
    });
    const onlyFailing = h("input", { type: "checkbox", id: "filter-only-failing" }) as HTMLInputElement;
    onlyFailing.checked = failing.length > 0;
    let view = onlyFailing.checked ? failing : failing.concat(passing);
    const matrix = h("table", { class: "matrix", id: "filter-matrix" }) as HTMLTableElement;
    const head = h("tr", null, h("th", null, "node"));
    for (const pl of e.filterPlugins) {
      const n = rejected.get(pl) ?? 0;
      head.append(h("th", null, str(pl), n ? h("div", { class: "rej" }, `✗ ${n} node(s)`) : null));
    }
    matrix.append(h("thead", null, head));
    const mp = paged(
      matrix,
      () => view.length,
      (i) => {
        const n = view[i] as number;
        const row = rowOf.get(n) ?? [];
        const tr = h("tr", null, h("td", { class: "name" }, str(n)));
        for (const pl of e.filterPlugins) {
          const cell = row.find(([p]) => p === pl);
          if (!cell)
            tr.append(
              h("td", { class: "notrun", title: "not run (an earlier plugin rejected the node)" }, "·"),
            );
          else tr.append(statusCell(str(cell[1]), cell.slice(2).map(str)));
        }
        return tr;
      },
      "nodes",
    );
    onlyFailing.addEventListener("change", () => {
      view = onlyFailing.checked ? failing : failing.concat(passing);
      mp.render(0);
    });
    mp.render(0);
    body.append(
      h("h3", null, "Filter"),
      h(
        "p",
        { class: "muted" },
        `${failing.length + passing.length} of ${clusterNodes} node(s) evaluated: ${passing.length} passed every filter, ${failing.length} rejected. ${failing.length + passing.length < clusterNodes ? "The others were not evaluated in this attempt: a nominated node that fits is taken first, and otherwise the scheduler stops once it has found enough feasible nodes (percentageOfNodesToScore). " : ""}A node lists the plugins that ran on it, up to the first that failed.`,
      ),
      h("label", { class: "controls" }, onlyFailing, " rejected nodes only"),
      mp.el,
    );

    // PostFilter (preemption).
    if (e.postFilter.length) {
      const t = h("table", { class: "small", id: "postfilter-table" });
      t.append(
        h(
          "tr",
          null,
          h("th", null, "PostFilter plugin"),
          h("th", null, "result"),
          h("th", null, "nominated node"),
        ),
      );
      for (const pf of e.postFilter) {
        t.append(
          h(
            "tr",
            null,
            h("td", null, str(pf.plugin)),
            statusCell(str(pf.code), pf.reasons.map(str)),
            h("td", null, pf.nominatedNode === null ? "–" : str(pf.nominatedNode)),
          ),
        );
      }
      body.append(h("h3", null, "PostFilter"), t);
    }

    // Score breakdown, best first.
    body.append(h("h3", null, "Score"));
    if (!e.scoreRows || !e.scoreNodes || !e.scorePlugins) {
      body.append(
        h(
          "p",
          { class: "muted", id: "score-skipped" },
          "Scoring did not run (fewer than two feasible nodes).",
        ),
      );
    } else {
      const rows = e.scoreRows;
      const plugins = e.scorePlugins;
      const nodes: { node: number; row: number[] }[] = [];
      e.scoreNodes.forEach((ns, ri) => {
        for (const n of ns) nodes.push({ node: n, row: rows[ri] ?? [] });
      });
      nodes.sort((a, b) => (b.row[0] ?? 0) - (a.row[0] ?? 0) || byName(a.node, b.node));
      const best = nodes[0]?.row[0] ?? 0;
      const tied = nodes.filter((n) => n.row[0] === best).length;
      const st = h("table", { class: "matrix", id: "score-table" }) as HTMLTableElement;
      const sh = h("tr", null, h("th", null, "node"), h("th", { class: "num" }, "final"));
      for (const pl of plugins)
        sh.append(
          h("th", { class: "num" }, str(pl), h("div", { class: "sub" }, "raw / normalized / weighted")),
        );
      st.append(h("thead", null, sh));
      const sp = paged(
        st,
        () => nodes.length,
        (i) => {
          const n = nodes[i] as { node: number; row: number[] };
          const selected = e.selectedNode === n.node;
          const tr = h(
            "tr",
            selected ? { class: "selected" } : null,
            h(
              "td",
              { class: "name" },
              str(n.node),
              selected ? h("span", { class: "tag" }, "selected") : null,
              !selected && n.row[0] === best && tied > 1 ? h("span", { class: "tag tie" }, "tie") : null,
            ),
            h("td", { class: "num strong" }, n.row[0] ?? 0),
          );
          plugins.forEach((_, pi) => {
            const raw = n.row[1 + pi * 3] ?? 0;
            const norm = n.row[2 + pi * 3] ?? 0;
            const w = n.row[3 + pi * 3] ?? 0;
            tr.append(h("td", { class: "num" }, `${raw} / ${norm} / `, h("b", null, w)));
          });
          return tr;
        },
        "scored nodes",
      );
      sp.render(0);
      body.append(
        h(
          "p",
          { class: "muted" },
          `${nodes.length} node(s) scored; selected: ${e.selectedNode === null ? "none" : str(e.selectedNode)}`,
          tied > 1
            ? ` (${tied} nodes tied for the best score ${best}; the choice among them depends on --seed)`
            : "",
          ".",
        ),
        sp.el,
      );
    }
    document.body.append(overlay);
    closeBtn.focus();
  }

  function diff(sec: DiffSection): HTMLElement[] {
    const [la, lb] = sec.labels;
    const a = sec.summary.a;
    const b = sec.summary.b;
    // Side by side: one row per measure, with B minus A (coloured by nothing: more is not better).
    const rows: [string, number, number, string][] = [
      ["scheduled", a.scheduled, b.scheduled, ""],
      ["unschedulable", a.unschedulable, b.unschedulable, ""],
      ["error", a.error, b.error, ""],
      ["gated", a.gated, b.gated, ""],
      ["skipped", a.skipped, b.skipped, ""],
      ["preemptions", a.preemptions, b.preemptions, ""],
      ["nodes used", a.nodesUsed, b.nodesUsed, ""],
      ["cpu requested / allocatable", a.cpuPercent, b.cpuPercent, "%"],
      ["memory requested / allocatable", a.memoryPercent, b.memoryPercent, "%"],
      ["fullest node's cpu", a.maxNodeCpuPercent, b.maxNodeCpuPercent, "%"],
      ["pending pods per node used", a.podsPerNodeUsed, b.podsPerNodeUsed, ""],
    ];
    const summary = h("table", { id: "diff-summary-table" });
    summary.append(
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, ""),
          h("th", { class: "num" }, `A: ${la}`),
          h("th", { class: "num" }, `B: ${lb}`),
          h("th", { class: "num" }, "B − A"),
        ),
      ),
    );
    const sbody = h("tbody", null);
    for (const [label, va, vb, unit] of rows) {
      const d = Math.round((vb - va) * 100) / 100;
      sbody.append(
        h(
          "tr",
          { "data-measure": label },
          h("td", null, label),
          h("td", { class: "num" }, `${va}${unit}`),
          h("td", { class: "num" }, `${vb}${unit}`),
          h("td", { class: d === 0 ? "num muted" : "num strong" }, d > 0 ? `+${d}${unit}` : `${d}${unit}`),
        ),
      );
    }
    summary.append(sbody);

    const placement = (p: DiffSection["pods"][number]["a"]) =>
      h(
        "td",
        null,
        h("span", { class: `outcome ${p.outcome}` }, p.outcome),
        p.node ? h("span", { class: "restext" }, p.node) : null,
      );
    const filter = h("input", {
      type: "search",
      placeholder: "filter pods (name, node, reason)",
      id: "diff-pod-filter",
    }) as HTMLInputElement;
    const onlyChanged = h("input", { type: "checkbox", id: "diff-only-changed" }) as HTMLInputElement;
    onlyChanged.checked = sec.changed > 0;
    let view = sec.pods;
    const table = h("table", { id: "diff-pods-table" }) as HTMLTableElement;
    table.append(
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, "pod"),
          h("th", null, `A: ${la}`),
          h("th", null, `B: ${lb}`),
          h("th", null, "why they differ"),
        ),
      ),
    );
    const p = paged(
      table,
      () => view.length,
      (i) => {
        const pod = view[i] as DiffSection["pods"][number];
        const key = `${pod.namespace}/${pod.name}`;
        return h(
          "tr",
          { "data-pod": key, class: pod.why ? "changed" : "" },
          h("td", { class: "name" }, key),
          placement(pod.a),
          placement(pod.b),
          h("td", { class: "msg" }, pod.why ?? "same placement"),
        );
      },
      "pods",
    );
    const apply = () => {
      const q = filter.value.trim().toLowerCase();
      view = sec.pods.filter(
        (pod) =>
          (!onlyChanged.checked || pod.why !== null) &&
          (!q ||
            `${pod.namespace}/${pod.name} ${pod.a.node ?? ""} ${pod.b.node ?? ""} ${pod.why ?? ""}`
              .toLowerCase()
              .includes(q)),
      );
      p.render(0);
    };
    filter.addEventListener("input", apply);
    onlyChanged.addEventListener("change", apply);
    apply();
    return [
      section(
        "diff-summary",
        "Summary: A and B side by side",
        h(
          "p",
          { class: "muted", id: "diff-changed" },
          `${sec.changed} of ${sec.pods.length} pending pod(s) placed differently (seed ${sec.seed}).`,
        ),
        summary,
      ),
      section(
        "diff-pods",
        "Pods",
        h(
          "div",
          { class: "controls" },
          filter,
          h("label", null, onlyChanged, " only pods placed differently"),
        ),
        p.el,
      ),
    ];
  }

  // One renderer per section kind: the type makes a new kind in ReportSection need its renderer.
  const renderers: {
    [K in ReportSection["kind"]]: (sec: Extract<ReportSection, { kind: K }>) => HTMLElement[];
  } = {
    simulation,
    diff,
  };
  const nav = h("nav", null);
  for (const sec of model.sections) {
    const render = renderers[sec.kind] as (s: ReportSection) => HTMLElement[];
    for (const el of render(sec)) {
      app.append(el);
      const title = el.querySelector("h2")?.textContent ?? el.id;
      nav.append(h("a", { href: `#${el.id}` }, title));
    }
  }
  app.before(nav);
  document.body.setAttribute("data-ready", "true");
}
