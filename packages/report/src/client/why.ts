// `kubesched why --report`: one pending pod's view, rendered from the WhyReport `why` produced
// (the page diagnoses nothing): the reasons grouped as `kubesched why` groups them, every node's
// rejections with the plugins' numbers, what preemption would do, and the verified fixes when
// the report carries them. A reason group's "show nodes" narrows the node table to its nodes.
import type { WhySection } from "../model";
import { h, numTh, paged, searchBox, section, thead } from "./dom";

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

function summarySection(sec: WhySection): HTMLElement {
  const { pod, summary } = sec;
  const fits = summary.feasible > 0;
  const out = section(
    "why-pod",
    `Pod ${pod.namespace}/${pod.name}`,
    h(
      "p",
      { id: "why-summary" },
      h("span", { class: `outcome ${fits ? "Scheduled" : "Unschedulable"}` }, fits ? "fits" : "pending"),
      ` ${summary.feasible}/${summary.nodes} nodes fit (profile ${pod.schedulerName}).`,
    ),
  );
  // No node is evaluated: what holds the pod back, as the JSON's summary.gated / preFilterRejection.
  const gate = summary.gated;
  if (gate && sec.notes.gated) {
    out.append(
      h(
        "div",
        { class: "fail-note", id: "why-gated", "data-plugin": gate.plugin, "data-code": gate.code },
        ...sec.notes.gated.map((line) => h("p", { class: "msg" }, line)),
      ),
    );
  }
  const rejection = summary.preFilterRejection;
  if (rejection && sec.notes.preFilterRejection) {
    out.append(
      h(
        "p",
        {
          class: "msg fail-note",
          id: "why-prefilter-rejection",
          "data-plugin": rejection.plugin,
          "data-code": rejection.code,
        },
        sec.notes.preFilterRejection,
      ),
    );
  }
  const notable = sec.preFilter.filter((p) => (p.code !== "Success" && p.code !== "Skip") || p.nodeNames);
  if (notable.length > 0) {
    const chips = h("div", { class: "chips", id: "why-prefilter" });
    for (const p of notable) {
      const failed = p.code !== "Success" && p.code !== "Skip";
      const text = failed
        ? `${p.plugin} ${p.code}: ${p.reasons.join("; ")}`
        : `${p.plugin}: only ${plural(p.nodeNames?.length ?? 0, "node")} (${p.nodeNames?.join(", ")})`;
      chips.append(h("span", { class: `chip ${failed ? "fail" : "skip"}` }, text));
    }
    out.append(h("h3", null, "PreFilter"), chips);
  }
  return out;
}

function nodesSection(sec: WhySection): { el: HTMLElement; only: (nodes: string[], label: string) => void } {
  const filter = searchBox("why-node-filter", "filter nodes (name, plugin, reason)");
  const rejectingOnly = h("input", { type: "checkbox", id: "why-rejecting-only" }) as HTMLInputElement;
  rejectingOnly.checked = sec.summary.feasible < sec.summary.nodes;
  const shown = h("span", { class: "muted", id: "why-node-group" });
  let group: Set<string> | null = null;
  let view = sec.nodes;
  const table = h("table", { id: "why-nodes-table" }) as HTMLTableElement;
  table.append(thead("node", "every Filter plugin that rejects it: reasons, the plugin's numbers"));
  const p = paged(
    table,
    () => view.length,
    (i) => {
      const n = view[i];
      if (!n) return h("tr", null);
      const note = [
        n.excludedBy.length ? `left out by PreFilter of ${n.excludedBy.join(", ")}` : "",
        n.withNominatedPods ? "with the pods nominated to it" : "",
      ].filter(Boolean);
      const verdict =
        n.rejections.length === 0
          ? h("td", { class: note.length ? "fail" : "ok" }, note.length ? note.join("; ") : "fits")
          : h(
              "td",
              { class: "rejections" },
              note.length ? h("div", { class: "muted" }, note.join("; ")) : null,
              // Every rejecting plugin, in the profile's order, with the plugin's numbers.
              ...n.rejections.map((j) =>
                h(
                  "div",
                  { class: "rejection", "data-plugin": j.plugin },
                  h("span", { class: "plugin" }, j.plugin || "nominated pods"),
                  ": ",
                  h("span", { class: "reason" }, j.reasons.join(", ") || j.code),
                  ...j.details.map((d) => h("div", { class: "detail" }, d)),
                ),
              ),
            );
      return h("tr", { "data-node": n.name }, h("td", { class: "name" }, n.name), verdict);
    },
    "nodes",
  );
  const apply = () => {
    const q = filter.value.trim().toLowerCase();
    view = sec.nodes.filter(
      (n) =>
        (!group || group.has(n.name)) &&
        (!rejectingOnly.checked || n.rejections.length > 0 || n.excludedBy.length > 0) &&
        (!q ||
          `${n.name} ${n.rejections.map((j) => `${j.plugin} ${j.reasons.join(" ")} ${j.details.join(" ")}`).join(" ")}`
            .toLowerCase()
            .includes(q)),
    );
    p.render(0);
  };
  const all = h("button", { type: "button", id: "why-all-nodes" }, "all nodes");
  all.addEventListener("click", () => {
    group = null;
    shown.textContent = "";
    apply();
  });
  filter.addEventListener("input", apply);
  rejectingOnly.addEventListener("change", apply);
  apply();
  const el = section(
    "why-nodes",
    "Nodes",
    h(
      "p",
      { class: "muted" },
      "Every Filter plugin's verdict on every node (the scheduler stops at a node's first; this pass does not).",
    ),
    h(
      "div",
      { class: "controls" },
      filter,
      h("label", null, rejectingOnly, " rejecting nodes only"),
      all,
      shown,
    ),
    p.el,
  );
  return {
    el,
    only(nodes, label) {
      group = new Set(nodes);
      shown.textContent = `showing the ${plural(nodes.length, "node")} of: ${label}`;
      filter.value = "";
      rejectingOnly.checked = false;
      apply();
      el.scrollIntoView();
    },
  };
}

function groupsSection(sec: WhySection, only: (nodes: string[], label: string) => void): HTMLElement {
  if (sec.groups.length === 0)
    return section("why-reasons", "Reasons", h("p", { class: "muted" }, "No node rejects the pod."));
  const table = h("table", { id: "why-groups-table" });
  table.append(thead(numTh("nodes"), "reason", "the plugins' numbers", "plugin", ""));
  const body = h("tbody", null);
  for (const g of sec.groups) {
    const btn = h("button", { type: "button", class: "group-nodes" }, "show nodes");
    btn.addEventListener("click", () => only(g.nodes, g.reason));
    body.append(
      h(
        "tr",
        { "data-reason": g.reason },
        h("td", { class: "num strong" }, g.count),
        h("td", { class: "fail" }, g.reason),
        h("td", null, g.detail),
        h("td", null, g.plugin),
        h("td", null, btn),
      ),
    );
  }
  table.append(body);
  return section("why-reasons", "Reasons (grouped as kubesched why groups them)", table);
}

function preemptionSection(sec: WhySection): HTMLElement {
  const p = sec.preemption;
  const out = section(
    "why-preemption",
    `Preemption${p.plugin ? ` (${p.plugin})` : ""}`,
    h(
      "p",
      { id: "why-preemption-outcome" },
      p.candidates.length > 0
        ? `${plural(p.candidates.length, "node")} where evicting lower-priority pods lets the pod fit${p.selected ? `; the plugin would pick ${p.selected}` : ""}.`
        : p.reason,
    ),
  );
  if (p.candidates.length > 0) {
    const t = h("table", { id: "why-candidates-table" });
    t.append(thead("node", "victims", numTh("PDB violations")));
    const body = h("tbody", null);
    for (const c of p.candidates) {
      body.append(
        h(
          "tr",
          c.node === p.selected ? { class: "selected", "data-node": c.node } : { "data-node": c.node },
          h(
            "td",
            { class: "name" },
            c.node,
            c.node === p.selected ? h("span", { class: "tag" }, "picked") : null,
          ),
          h("td", null, c.victims.join(", ")),
          h("td", { class: "num" }, c.pdbViolations),
        ),
      );
    }
    t.append(body);
    out.append(t);
  }
  if (p.notHelpful.length > 0) {
    const t = h("table", { id: "why-not-helpful-table" }) as HTMLTableElement;
    t.append(thead("node", "why preemption does not help"));
    const pg = paged(
      t,
      () => p.notHelpful.length,
      (i) => {
        const n = p.notHelpful[i];
        return h(
          "tr",
          null,
          h("td", { class: "name" }, n?.node ?? ""),
          h("td", { class: "fail" }, n?.reasons.join(", ") || n?.code || ""),
        );
      },
      "nodes",
    );
    pg.render(0);
    out.append(h("h3", null, "Where it cannot help"), pg.el);
  }
  return out;
}

function fixesSection(sec: WhySection): HTMLElement | null {
  if (!sec.fixes && !sec.fixSearch) return null;
  const fixes = sec.fixes ?? [];
  const s = sec.fixSearch;
  const out = section("why-fixes", "Verified fixes, smallest first");
  if (s) {
    const budget = `${plural(s.tried, "candidate")} tried in a ${s.budgetSeconds} s budget`;
    out.append(
      h(
        "p",
        { class: s.exhausted ? "msg fail-note" : "muted", id: "why-fix-search" },
        s.exhausted ? `${budget}: the budget ran out before every candidate was tried.` : `${budget}.`,
        s.note ? ` ${s.note}` : "",
      ),
    );
  }
  if (fixes.length === 0) {
    out.append(h("p", { class: "muted", id: "why-no-fix" }, "No change tried makes the pod schedulable."));
    return out;
  }
  const t = h("table", { id: "why-fixes-table" });
  t.append(thead(numTh("size"), "change", "to", "lands on", "displaces", "kubectl"));
  const body = h("tbody", null);
  for (const f of fixes) {
    body.append(
      h(
        "tr",
        { "data-kind": f.kind },
        h("td", { class: "num" }, f.size),
        h("td", null, h("div", { class: "strong" }, f.kind), f.description),
        h("td", null, f.target),
        h("td", { class: "name" }, f.node),
        h(
          "td",
          null,
          f.displaces.length ? f.displaces.join(", ") : h("span", { class: "muted" }, "no other pending pod"),
        ),
        h("td", null, ...f.kubectl.map((c) => h("code", { class: "cmd" }, c))),
      ),
    );
  }
  t.append(body);
  out.append(t);
  return out;
}

export function why(sec: WhySection): HTMLElement[] {
  // A gated pod has no reasons per node: nothing evaluated it (as `kubesched why` prints it).
  const gated = sec.summary.gated !== undefined;
  const nodes = nodesSection(sec);
  const out = [
    summarySection(sec),
    ...(gated ? [] : [groupsSection(sec, nodes.only)]),
    preemptionSection(sec),
  ];
  const fixes = fixesSection(sec);
  if (fixes) out.push(fixes);
  if (!gated) out.push(nodes.el);
  return out;
}
