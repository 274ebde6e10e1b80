// Summarizes a KUBESCHED_CONFORMANCE_REPORT file (engine-setup.ts) per plugin package: tests, how
// many made harness calls, and the calls' verdicts (same / unobservable / differs), with the
// reasons calls were unobservable. Markdown, for tooling/conformance/README.md.
//
//   npx tsx tooling/conformance/summary.ts /tmp/conformance.jsonl
import { readFileSync } from "node:fs";

interface CallLine {
  type: "call";
  test: string;
  file: string;
  plugin: string;
  kind: string;
  verdict: "same" | "unobservable" | "differs";
  why?: string;
}
interface TestLine {
  type: "test";
  test: string;
  file: string;
  calls: number;
}

const file = process.argv[2];
if (!file) {
  console.error("usage: tsx tooling/conformance/summary.ts REPORT.jsonl");
  process.exit(2);
}
const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as CallLine | TestLine);

/** packages/plugins/<dir>/... → plugin-<dir> */
const pkg = (f: string) => /packages\/(plugins(?:-contrib)?)\/([^/]+)\//.exec(f)?.[2] ?? f;

interface Row {
  tests: number;
  testsWithCalls: number;
  calls: number;
  same: Map<string, number>;
  unobservable: number;
  differs: number;
}
const rows = new Map<string, Row>();
const row = (p: string): Row => {
  let r = rows.get(p);
  if (!r) {
    r = { tests: 0, testsWithCalls: 0, calls: 0, same: new Map(), unobservable: 0, differs: 0 };
    rows.set(p, r);
  }
  return r;
};
const reasons = new Map<string, number>();
for (const l of lines) {
  const r = row(pkg(l.file));
  if (l.type === "test") {
    r.tests++;
    if (l.calls > 0) r.testsWithCalls++;
    continue;
  }
  r.calls++;
  if (l.verdict === "same") r.same.set(l.kind, (r.same.get(l.kind) ?? 0) + 1);
  else if (l.verdict === "differs") r.differs++;
  else {
    r.unobservable++;
    const k = `${pkg(l.file)}: ${l.why ?? ""}`;
    reasons.set(k, (reasons.get(k) ?? 0) + 1);
  }
}

const kinds = ["preEnqueue", "preFilter", "filter", "score"];
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const out: string[] = [];
out.push(
  `| package | tests | tests with harness calls | calls | same (${kinds.join(" / ")}) | unobservable | differs |`,
);
out.push("| --- | ---: | ---: | ---: | --- | ---: | ---: |");
const total: Row = { tests: 0, testsWithCalls: 0, calls: 0, same: new Map(), unobservable: 0, differs: 0 };
for (const [p, r] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
  const same = kinds.map((k) => r.same.get(k) ?? 0);
  out.push(
    `| ${p} | ${r.tests} | ${r.testsWithCalls} | ${r.calls} | ${sum(r.same)} (${same.join(" / ")}) | ${r.unobservable} | ${r.differs} |`,
  );
  total.tests += r.tests;
  total.testsWithCalls += r.testsWithCalls;
  total.calls += r.calls;
  total.unobservable += r.unobservable;
  total.differs += r.differs;
  for (const [k, v] of r.same) total.same.set(k, (total.same.get(k) ?? 0) + v);
}
const totalSame = kinds.map((k) => total.same.get(k) ?? 0);
out.push(
  `| **total** | ${total.tests} | ${total.testsWithCalls} | ${total.calls} | ${sum(total.same)} (${totalSame.join(" / ")}) | ${total.unobservable} | ${total.differs} |`,
);
out.push("", "Unobservable calls, by why:", "");
for (const [k, v] of [...reasons].sort(([a], [b]) => a.localeCompare(b))) out.push(`- ${k} (${v})`);
console.log(out.join("\n"));
