// vitest setup file of every plugin package: replays each harness call through the engine and
// fails the test when the engine decides otherwise (tooling/conformance/engine-check.ts).
import { flushHarnessEngineChecks, setHarnessEngineChecker } from "@kubesched/testing";
import { afterEach, expect } from "vitest";
import { check, report } from "./engine-check";

const reportFile = process.env.KUBESCHED_CONFORMANCE_REPORT;

setHarnessEngineChecker(async (call) => {
  const test = expect.getState().currentTestName ?? "";
  const v = await check(call);
  report(reportFile, test, call, v);
  if (v.verdict === "differs") {
    throw new Error(
      `the assembled scheduler decides otherwise than the harness (${call.pluginName} ${call.kind}): ${v.why}`,
    );
  }
});

afterEach(async () => {
  await flushHarnessEngineChecks();
});
