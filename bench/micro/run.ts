// Runs every per-plugin micro-benchmark (bench/micro/*.bench.ts, tinybench scripts) one after
// the other, each in its own Node process, and prints their output under a heading.
//   pnpm bench --micro            or   node --import tsx bench/micro/run.ts [--filter RE]
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { filter: { type: "string" } } });
const filter = values.filter ? new RegExp(values.filter, "i") : null;

const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !filter || filter.test(f))
  .sort();

function run(file: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(here, file)], { stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

let failures = 0;
const started = performance.now();
for (const f of files) {
  console.log(`\n## ${f}`);
  const t = performance.now();
  const code = await run(f);
  if (code !== 0) {
    failures++;
    console.log(`(exited with code ${code})`);
  }
  console.log(`(${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
console.log(
  `\n${files.length} micro-benchmark file(s), ${failures} failed, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failures > 0 ? 1 : 0);
