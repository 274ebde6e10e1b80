// The HTML report's size at scheduler_perf scale: SchedulingBasic's nodes (templates/node-default)
// with init pods already running and a few hundred pending pod-default pods, simulated with
// --explain, rendered with @kubesched/report. Prints the sizes stated in packages/report/README.md.
//
//   node --import tsx bench/report-size.ts [--nodes 5000] [--running 1000] [--pending 300] [--out report.html]
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Pod } from "@kubesched/api";
import { loadSnapshotTexts, simulate } from "@kubesched/cluster";
import { renderReport } from "@kubesched/report";
import { createLogger } from "@kubesched/scheduler";
import { benchConfig } from "./lib/config";
import { makeNode, makePod } from "./lib/templates";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "5000" },
    running: { type: "string", default: "1000" },
    pending: { type: "string", default: "300" },
    out: { type: "string" },
  },
});
const nodes = Array.from({ length: Number(values.nodes) }, () => makeNode());
// Init pods as a snapshot holds them: already bound, round-robin over the nodes.
const running = Array.from({ length: Number(values.running) }, (_, i): Pod => {
  const p = makePod("pod-default", "namespace-0");
  if (p.spec) p.spec.nodeName = nodes[i % nodes.length]?.metadata?.name ?? "";
  return p;
});
const pending = Array.from({ length: Number(values.pending) }, () => makePod("pod-default", "namespace-1"));
const objects = loadSnapshotTexts([
  { name: "bench.json", text: JSON.stringify([...nodes, ...running, ...pending]) },
]).objects;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;
for (const explain of [false, true]) {
  const { config, registry } = benchConfig();
  const logger = createLogger({ write: (line) => process.stderr.write(line) });
  const result = await simulate({ config, registry, objects, logger, explain });
  const html = renderReport({ simulation: result });
  const json = JSON.stringify(result);
  console.log(
    `${nodes.length} nodes, ${running.length} running, ${pending.length} pending, explain ${explain}: ` +
      `report ${mb(Buffer.byteLength(html))} (SimulationResult JSON ${mb(Buffer.byteLength(json))}), ` +
      `${result.summary.scheduled} scheduled`,
  );
  if (explain && values.out) writeFileSync(values.out, html);
}
