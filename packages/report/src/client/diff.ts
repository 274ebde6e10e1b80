// The diff section: the two configurations' summaries side by side and each pod's two placements
// with why they differ.
import type { DiffSection } from "../model";
import { h, numTh, paged, searchBox, section, thead } from "./dom";

export function diff(sec: DiffSection): HTMLElement[] {
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
  summary.append(thead("", numTh(`A: ${la}`), numTh(`B: ${lb}`), numTh("B − A")));
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
  const filter = searchBox("diff-pod-filter", "filter pods (name, node, reason)");
  const onlyChanged = h("input", { type: "checkbox", id: "diff-only-changed" }) as HTMLInputElement;
  onlyChanged.checked = sec.changed > 0;
  let view = sec.pods;
  const table = h("table", { id: "diff-pods-table" }) as HTMLTableElement;
  table.append(thead("pod", `A: ${la}`, `B: ${lb}`, "why they differ"));
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
      h("div", { class: "controls" }, filter, h("label", null, onlyChanged, " only pods placed differently")),
      p.el,
    ),
  ];
}
