// The page's script (bundled into the HTML by render-report.ts): reads the model from the inline
// JSON blob and renders its sections. Long tables are paged and a pod's explain view is built
// only when it is opened, so 5000 nodes render instantly.
import type { ReportModel, ReportSection } from "../model";
import { diff } from "./diff";
import { h } from "./dom";
import { plan } from "./plan";
import { simulation } from "./simulation";
import { why } from "./why";

const dataEl = document.getElementById("kubesched-report-data");
const app = document.getElementById("app");
if (!dataEl || !app) throw new Error("report: the data or the app element is missing");
const model = JSON.parse(dataEl.textContent ?? "{}") as ReportModel;

// One renderer per section kind: the type makes a new kind in ReportSection need its renderer.
const renderers: {
  [K in ReportSection["kind"]]: (sec: Extract<ReportSection, { kind: K }>) => HTMLElement[];
} = {
  simulation,
  diff,
  why,
  plan,
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
