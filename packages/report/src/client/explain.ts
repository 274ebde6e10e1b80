// A pod's explain view (the attempt that decided its outcome), in a modal: PreFilter chips, the
// filter matrix (nodes × plugins, failing nodes first), PostFilter results and the score
// breakdown.
import type { FilterRow, PodExplain, PodRow } from "../model";
import { h, paged } from "./dom";

function statusCell(code: string, reasons: string[]): HTMLElement {
  if (code === "Skip")
    return h("td", { class: "notrun", title: "Skip: the plugin has nothing to check for this pod" }, "skip");
  const ok = code === "Success";
  return h(
    "td",
    { class: ok ? "ok" : "fail", title: reasons.length ? `${code}: ${reasons.join("; ")}` : code },
    ok ? "✓" : reasons.join("; ") || code,
  );
}

export function openExplain(pod: PodRow, str: (i: number) => string, clusterNodes: number): void {
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
  if (pod.devices) body.append(h("ul", { class: "devices" }, ...pod.devices.map((d) => h("li", null, d))));

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
      h("p", { class: "muted", id: "score-skipped" }, "Scoring did not run (fewer than two feasible nodes)."),
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
