// Runs API Extractor over every pinned entry point (after `pnpm build`): `pnpm api:check` fails
// when a report differs from its checked-in etc/*.api.md (or, for the strict reports, when an
// export lacks a release tag or documentation); `pnpm api:update` (--local) rewrites the reports.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Package folder and API Extractor config of every pinned entry point. */
const entryPoints = [
  ["packages/api", "api-extractor.json"],
  ["packages/framework", "api-extractor.json"],
  ["packages/framework", "api-extractor.columnar.json"],
  ["packages/testing", "api-extractor.json"],
];

const localBuild = process.argv.includes("--local");
let failed = 0;
for (const [pkg, configFile] of entryPoints) {
  const config = ExtractorConfig.loadFileAndPrepare(join(root, pkg, configFile));
  const result = Extractor.invoke(config, { localBuild });
  if (!result.succeeded) {
    failed++;
    console.error(
      `${pkg}/${configFile}: ${result.errorCount} error(s), ${result.warningCount} warning(s)` +
        (result.apiReportChanged
          ? ", the API report changed (run `pnpm api:update` after an intended change)"
          : ""),
    );
  }
}
if (failed > 0) process.exit(1);
