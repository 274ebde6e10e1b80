// The CLI's build (tsup.config.ts): the sweep's worker file (dist/sweep-worker.js) builds without
// a warning — it used to import names it never uses, which tsup reported on every build. Built
// here with the build's own options for that entry, without declarations, into a temporary folder.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Options } from "tsup";
import { afterAll, describe, expect, it, vi } from "vitest";
import config from "../../tsup.config";

vi.setConfig({ testTimeout: 120_000 });

const appDir = fileURLToPath(new URL("../..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "kubesched-tsup-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the CLI's build", () => {
  it("builds the sweep's worker file with no warning", async () => {
    const configs = (Array.isArray(config) ? config : [config]) as Options[];
    const withWorker = configs.find((c) => "sweep-worker" in (c.entry as Record<string, string>));
    const source = (withWorker?.entry as Record<string, string> | undefined)?.["sweep-worker"];
    expect(source).toBe("src/commands/sweep-worker.ts");
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((...a: unknown[]) => {
      warnings.push(a.map(String).join(" "));
    });
    try {
      await build({
        ...withWorker,
        entry: { "sweep-worker": join(appDir, source as string) },
        tsconfig: join(appDir, "tsconfig.json"),
        dts: false,
        outDir: out,
        clean: false,
      });
    } finally {
      warn.mockRestore();
    }
    expect(readdirSync(out).filter((f) => f.endsWith(".js"))).toEqual(["sweep-worker.js"]);
    expect(warnings).toEqual([]);
  });
});
