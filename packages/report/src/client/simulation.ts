// The simulation section: summary cards and cluster utilisation, unschedulable reasons,
// preemptions, and the nodes and pods tables (a pod's explain view opens from its row).
import type { PodRow, SimulationSection } from "../model";
import { bar, h, numTh, paged, pct, searchBox, section, thead } from "./dom";
import { openExplain } from "./explain";

export function simulation(sec: SimulationSection): HTMLElement[] {
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
  reasons.append(thead("reason", numTh("pods"), numTh("nodes (summed)")));
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
  pre.append(thead("preemptor", "node", "victims"));
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

  // Devices per DeviceClass: allocated of those its selectors match, before and after.
  if (sec.deviceClasses) {
    const classes = h("table", { id: "device-classes-table", class: "nodes" });
    classes.append(thead("device class", "allocated"));
    for (const c of sec.deviceClasses) {
      const changed =
        c.allocatedBefore !== c.allocated ? `${c.allocatedBefore} → ${c.allocated}` : `${c.allocated}`;
      classes.append(
        h(
          "tr",
          null,
          h("td", { class: "name" }, c.name),
          h(
            "td",
            { class: "res" },
            bar(c.allocatedBefore, c.allocated, c.published),
            h(
              "span",
              { class: "restext" },
              `${changed} / ${c.published} (${pct(c.allocated, c.published)}%)`,
            ),
          ),
        ),
      );
    }
    out.push(section("device-classes", "Device classes", classes));
  }

  out.push(nodesSection(sec));
  out.push(podsSection(sec, str));
  return out;
}

const taintedTitle =
  "published devices with a NoSchedule or NoExecute taint (the slice's or a DeviceTaintRule's): only requests tolerating it get them";

function nodesSection(sec: SimulationSection): HTMLElement {
  const filter = searchBox("node-filter", "filter nodes by name");
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
        // A driver's devices with a NoSchedule/NoExecute taint, as the JSON's `tainted` and the
        // table's TAINTED column count them.
        const tainted = c.tainted
          ? [h("span", { class: "tainted", title: taintedTitle }, `${c.tainted} tainted`)]
          : [];
        tr.append(
          h(
            "td",
            {
              class: "res",
              title: `${r}: ${before} before, ${after} after, ${alloc} allocatable${c.tainted ? `, ${c.tainted} tainted` : ""}`,
            },
            bar(c.value[1], c.value[2], c.value[0]),
            h("span", { class: "restext" }, `${changed} / ${alloc} (${pct(c.value[2], c.value[0])}%)`),
            ...tainted,
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

/** Every outcome a pod can have, in the outcome filter's order (a new outcome must be listed here). */
const outcomeOrder: Record<PodRow["outcome"], true> = {
  Scheduled: true,
  Unschedulable: true,
  Error: true,
  Gated: true,
  Skipped: true,
  Refused: true,
};

function podsSection(sec: SimulationSection, str: (i: number) => string): HTMLElement {
  const filter = searchBox("pod-filter", "filter pods (name, node, message)");
  const outcome = h("select", { id: "pod-outcome" }) as HTMLSelectElement;
  for (const o of ["all", ...Object.keys(outcomeOrder)])
    outcome.append(h("option", { value: o }, o === "all" ? "all outcomes" : o));
  let view: PodRow[] = sec.pods;
  const table = h("table", { id: "pods-table" }) as HTMLTableElement;
  const withDevices = sec.pods.some((pod) => pod.devices);
  table.append(
    withDevices
      ? thead("pod", "outcome", "node", numTh("attempts"), "message", "devices", "")
      : thead("pod", "outcome", "node", numTh("attempts"), "message", ""),
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
        ...(withDevices
          ? [h("td", { class: "devices" }, ...(pod.devices ?? []).map((d) => h("div", null, d)))]
          : []),
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
