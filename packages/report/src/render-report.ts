// One self-contained HTML file: inline CSS, the model as one inline JSON blob, and the script
// that renders it. Nothing is fetched: the file can be opened offline or attached to a ticket.
import type { PlanReport, SimulationDiff, SimulationResult, WhyReport } from "@kubesched/cluster";
import { clientScript } from "./client-script.generated";
import { diffSection, type ReportModel, type ReportSection, simulationSection, whySection } from "./model";
import { styles } from "./styles";

interface ReportText {
  /** The page title; default "kubesched simulation report" (or "kubesched diff report", "kubesched why NS/NAME", "kubesched plan report"). */
  title?: string;
  /** A line under the title, e.g. the command and inputs that produced the simulation. */
  subtitle?: string;
}

/** What a report shows: one simulation, or the diff of two configurations on one snapshot. */
export type ReportInput = ReportText &
  (
    | {
        /** The simulation to report (with `explain` for the per-pod filter matrix and scores). */
        simulation: SimulationResult;
        diff?: never;
        why?: never;
        plan?: never;
      }
    | {
        /** `kubesched diff`'s result: summaries side by side and each pod's two placements. */
        diff: SimulationDiff;
        simulation?: never;
        why?: never;
        plan?: never;
      }
    | {
        /** `kubesched why`'s report: one pod's reasons per node, preemption, fixes. */
        why: WhyReport;
        simulation?: never;
        diff?: never;
        plan?: never;
      }
    | {
        /** `kubesched plan`'s report: the nodes added per pool, utilisation before/after, cost, the proof. */
        plan: PlanReport;
        simulation?: never;
        diff?: never;
        why?: never;
      }
  );

/** The page's model: the sections in order. */
export function reportModel(input: ReportInput): ReportModel {
  if (input.plan) {
    return {
      title: input.title ?? "kubesched plan report",
      sections: [{ kind: "plan", report: input.plan }],
    };
  }
  if (input.why) {
    const { namespace, name } = input.why.pod;
    return { title: input.title ?? `kubesched why ${namespace}/${name}`, sections: [whySection(input.why)] };
  }
  if (input.diff) {
    return { title: input.title ?? "kubesched diff report", sections: [diffSection(input.diff)] };
  }
  const sections: ReportSection[] = [simulationSection(input.simulation)];
  return { title: input.title ?? "kubesched simulation report", sections };
}

/**
 * JSON that is safe inside a <script> element: "<" is escaped (so "</script>" and "<!--" in a
 * message cannot end the element), and so are U+2028/U+2029.
 */
export function scriptSafeJSON(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders the report as one HTML document. */
export function renderReport(input: ReportInput): string {
  const model = reportModel(input);
  const subtitle = input.subtitle ?? "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="kubesched">
<title>${escapeHTML(model.title)}</title>
<style>${styles}</style>
</head>
<body>
<header><h1>${escapeHTML(model.title)}</h1>${subtitle ? `<p class="muted">${escapeHTML(subtitle)}</p>` : ""}</header>
<main id="app"><noscript>This report needs JavaScript to render its tables.</noscript></main>
<script type="application/json" id="kubesched-report-data">${scriptSafeJSON(model)}</script>
<script>${clientScript}</script>
</body>
</html>
`;
}
