// vitest setup file of every plugin package: replays each harness call through the engine and
// fails the test when the engine decides otherwise (tooling/conformance/engine-check.ts). With
// KUBESCHED_CONFORMANCE_REPORT set, one line per call and one per test go to that file
// (summarized by tooling/conformance/summary.ts).
import { relative } from "node:path";
import { flushHarnessEngineChecks, setHarnessEngineChecker } from "@kubesched/testing";
import { afterEach, expect } from "vitest";
import { check, report, reportTest } from "./engine-check";

const reportFile = process.env.KUBESCHED_CONFORMANCE_REPORT;
/** Harness calls per test, for the tests that made none. */
const callsPerTest = new Map<string, number>();

setHarnessEngineChecker(async (call) => {
  const { currentTestName: test = "", testPath = "" } = expect.getState();
  callsPerTest.set(test, (callsPerTest.get(test) ?? 0) + 1);
  const v = await check(call);
  report(reportFile, test, relative(process.cwd(), testPath), call, v);
  if (v.verdict === "differs") {
    throw new Error(
      `the assembled scheduler decides otherwise than the harness (${call.pluginName} ${call.kind}): ${v.why}`,
    );
  }
});

afterEach(async () => {
  await flushHarnessEngineChecks();
  const { currentTestName = "", testPath = "" } = expect.getState();
  reportTest(
    reportFile,
    currentTestName,
    relative(process.cwd(), testPath),
    callsPerTest.get(currentTestName) ?? 0,
  );
  callsPerTest.delete(currentTestName);
});
