// What the why tests share: the CLI run in process from the repository's root (where examples/
// is), and WhyReports read from `-o json`, each checked against the schema `why --schema` prints.
import { fileURLToPath } from "node:url";
import type { WhyReport } from "@kubesched/cluster";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { type CliRun, runCliIn } from "./run-cli.test-util";

export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** `kubesched ...argv` from the repository's root. */
export function runFromRoot(...argv: string[]): Promise<CliRun> {
  return runCliIn(repoRoot, argv);
}

/** Reads a WhyReport, asserting it is valid against the printed schema (Ajv, strict). */
export async function whyReportReader(): Promise<(json: string) => WhyReport> {
  const { stdout } = await runFromRoot("why", "--schema");
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(stdout));
  return (json) => {
    const r = JSON.parse(json) as WhyReport;
    expect(validate(r), JSON.stringify(validate.errors, null, 2)).toBe(true);
    return r;
  };
}
